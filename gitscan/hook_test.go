package gitscan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealHookEnvironment runs this test binary as a real pre-commit hook
// (TestHookProbe) for `git commit -a` and for `git commit <path>`, which
// commit from temporary index files git names in GIT_INDEX_FILE: inside
// the hook, with the environment and directory git gives it, the Index
// side must be exactly what is being committed, with both engines.
func TestRealHookEnvironment(t *testing.T) {
	needGit(t)
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	env := testEnv(t)
	dir := smallRepo(t, env)
	out := filepath.Join(t.TempDir(), "probe")
	hook := fmt.Sprintf("#!/bin/sh\nGITSCAN_HOOK_PROBE=%q exec %q -test.run='^TestHookProbe$' >/dev/null 2>&1\n", out, exe)
	writeFile(t, dir, ".git/hooks/pre-commit", hook)
	if err := os.Chmod(filepath.Join(dir, ".git", "hooks", "pre-commit"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cwd string
		args      []string
	}{
		{"commit -a", "sub", []string{"commit", "-q", "-a", "-m", "all"}},
		{"commit path", "", []string{"commit", "-q", "-m", "only", "--", ".agentty/mcp.json"}},
	} {
		content := `{"mcpServers":{"t":{"command":"` + tc.name + `"}}}`
		writeFile(t, dir, ".agentty/mcp.json", content)
		writeFile(t, dir, "src/server.js", "edited: committed only by -a")
		want := strings.TrimSpace(run(t, env, dir, nil, "hash-object", ".agentty/mcp.json"))
		os.Remove(out)
		run(t, env, filepath.Join(dir, tc.cwd), nil, tc.args...)
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("%s: the hook probe did not run: %v", tc.name, err)
		}
		t.Logf("%s: %s", tc.name, got)
		wantServer := "src/server.js"
		if tc.name == "commit path" {
			wantServer = "-"
		}
		for _, e := range engines {
			line := fmt.Sprintf("%v config=%s server=%s", e, want, wantServer)
			if !strings.Contains(string(got), line) {
				t.Errorf("%s: probe says\n%s\nwant a line %q", tc.name, got, line)
			}
		}
		run(t, env, dir, nil, "checkout", "-q", "--", ".")
	}
}

// TestHookProbe is the hook body of TestRealHookEnvironment; it does
// nothing unless run as that hook.
func TestHookProbe(t *testing.T) {
	out := os.Getenv("GITSCAN_HOOK_PROBE")
	if out == "" {
		t.Skip("only runs as a git hook")
	}
	var b strings.Builder
	for _, e := range engines {
		r, err := Open(".", WithEngine(e))
		if err != nil {
			fmt.Fprintf(&b, "%v open: %v\n", e, err)
			continue
		}
		_, ent, err := r.ReadBlob(Index, ".agentty/mcp.json", 1<<20)
		head, herr := r.Resolve("HEAD")
		ch, cerr := r.Changes(head, Index)
		server := "-"
		for _, c := range ch {
			if c.Path == "src/server.js" {
				server = c.Path
			}
		}
		fmt.Fprintf(&b, "%v config=%s server=%s (errors: %v %v %v)\n", e, ent.ID, server, err, herr, cerr)
		r.Close()
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
