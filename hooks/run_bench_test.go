package hooks

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// benchRepo builds a repository of files files with a config, and three
// commits: base, one that touches only a README, one that changes the
// config and a script a server runs. It returns the directory and the
// commit ids.
func benchRepo(tb testing.TB, files int) (dir string, base, readme, config string) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git not installed")
	}
	dir = tb.TempDir()
	git := func(stdin string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("", "init", "-q", "-b", "main")
	// fast-import: files spread over directories, then the three commits.
	var b bytes.Buffer
	blob := func(mark int, content string) {
		fmt.Fprintf(&b, "blob\nmark :%d\ndata %d\n%s\n", mark, len(content), content)
	}
	commit := func(mark, from int, msg string, ops string) {
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\ncommitter a <a@x> 1700000000 +0000\ndata %d\n%s\n", mark, len(msg), msg)
		if from > 0 {
			fmt.Fprintf(&b, "from :%d\n", from)
		}
		b.WriteString(ops)
		b.WriteString("\n")
	}
	cfg1 := `{"mcpServers":{"notes":{"command":"node","args":["tools/notes.js"]},"db":{"command":"node","args":["tools/db.js"]}}}`
	cfg2 := `{"mcpServers":{"notes":{"command":"node","args":["tools/notes.js"],"env":{"NODE_OPTIONS":"-r ./x.js"}},"db":{"command":"bash","args":["tools/db.js"]}}}`
	blob(1, cfg1)
	blob(2, cfg2)
	blob(3, "notes v1")
	blob(4, "notes v2")
	blob(5, "db")
	blob(6, "readme v2")
	blob(7, "filler")
	var ops strings.Builder
	ops.WriteString("M 100644 :1 .agentty/mcp.json\nM 100644 :3 tools/notes.js\nM 100644 :5 tools/db.js\n")
	for i := range files {
		fmt.Fprintf(&ops, "M 100644 :7 src/d%03d/f%05d.txt\n", i%200, i)
	}
	commit(10, 0, "base", ops.String())
	commit(11, 10, "readme", "M 100644 :6 README\n")
	commit(12, 11, "config", "M 100644 :2 .agentty/mcp.json\nM 100644 :4 tools/notes.js\n")
	b.WriteString("done\n")
	git(b.String(), "fast-import", "--quiet", "--done")
	git("", "reset", "-q", "--hard", "main")
	return dir, git("", "rev-parse", "main~2"), git("", "rev-parse", "main~1"), git("", "rev-parse", "main")
}

// BenchmarkHookRun measures the hook entry after a checkout that touched
// no agentty surface and after one that changed the config, beside `git
// rev-parse A:p B:p` (the floor: git resolving the two blobs) in the same
// run. Run: go test ./hooks -run '^$' -bench HookRun -benchtime 20x
func BenchmarkHookRun(b *testing.B) {
	dir, base, readme, config := benchRepo(b, 3000)
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	run := func(b *testing.B, old, new string, wantChanges int) {
		for b.Loop() {
			out, err := Run(context.Background(), Request{
				Type: "post-checkout", Args: []string{old, new, "1"}, Dir: dir, Env: env,
				Ledger: &trust.Ledger{}, Timeout: DefaultTimeout,
			})
			if err != nil {
				b.Fatal(err)
			}
			if len(out.Changes) != wantChanges {
				b.Fatalf("%d changes, want %d", len(out.Changes), wantChanges)
			}
			os.Remove(filepath.Join(dir, ".git", lastWarningFile))
		}
	}
	b.Run("no-surface-changed", func(b *testing.B) { run(b, base, readme, 0) })
	b.Run("config-changed", func(b *testing.B) { run(b, readme, config, 2) })
	b.Run("git-rev-parse-floor", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "rev-parse", readme+":.agentty/mcp.json", config+":.agentty/mcp.json")
			cmd.Dir, cmd.Env = dir, env
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
	})
}

// TestHookRunEndToEnd checks the benchmark's fixture answers what the
// benchmark assumes, so the benchmark cannot measure a failing path.
func TestHookRunEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a repository")
	}
	dir, base, readme, config := benchRepo(t, 50)
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	approved := map[string]bool{
		trust.Fingerprint("node", "", []string{"tools/notes.js"}): true,
		trust.Fingerprint("node", "", []string{"tools/db.js"}):    true,
	}
	grants := trust.Grants{Approved: func(h string) bool { return approved[h] }}
	for _, tc := range []struct {
		old, new string
		grants   trust.Grants
		want     string
	}{
		{base, readme, grants, ""},
		{readme, config, grants, "notes:trust-preserving db:invalidated"},
		{readme, config, trust.Grants{}, "db:new-unapproved notes:new-unapproved"},
		{strings.Repeat("0", 40), config, trust.Grants{}, "db:new-unapproved notes:new-unapproved"},
	} {
		out, err := Run(context.Background(), Request{Type: "post-checkout", Args: []string{tc.old, tc.new, "1"}, Dir: dir, Env: env, Ledger: &trust.Ledger{}, Grants: tc.grants})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range out.Changes {
			got = append(got, c.Server+":"+string(c.Impact))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s..%s: %v, want %q", tc.old[:7], tc.new[:7], got, tc.want)
		}
		os.Remove(filepath.Join(dir, ".git", lastWarningFile))
	}
}
