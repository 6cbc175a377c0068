//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLaunchClaudeTerminal: on a terminal, launch -- claude offers the
// review of Claude Code's servers key by key, then hands Claude Code only
// the approved one.
func TestLaunchClaudeTerminal(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, home, bin := filepath.Join(root, "repo"), filepath.Join(root, "home"), filepath.Join(root, "bin")
	files := map[string]string{
		filepath.Join(dir, ".mcp.json"): `{"mcpServers":{"db":{"command":"/bin/echo","args":["db"]},"notes":{"command":"/bin/true"}}}`,
		filepath.Join(bin, "claude"):    "#!/bin/sh\necho \"CLAUDE $*\"\ncat \"$2\"\n",
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	environ := []string{"HOME=" + home, "NO_COLOR=1", "PATH=" + bin + ":" + os.Getenv("PATH")}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "i"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, environ
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	s := startPTY(t, environ, "", "-C", dir, "launch", "--", "claude", "-p", "hi")
	s.waitFor("── 1/2 claude-code:db", 1)
	s.waitPrompt(1)
	s.send("a")
	s.waitFor("approved claude-code:db", 1)
	s.waitPrompt(2)
	s.send("d")
	code, out := s.wait()
	if code != 0 || !strings.Contains(out, "declined claude-code:notes") || !strings.Contains(out, "CLAUDE --mcp-config ") ||
		!strings.Contains(out, " --strict-mcp-config -p hi") || !strings.Contains(out, `{"mcpServers":{"db":{"args":["db"],"command":"/bin/echo"}}}`) {
		t.Errorf("exit %d, want 0 and Claude Code handed db only:\n%s", code, out)
	}
	if strings.Contains(out, `"notes":`) {
		t.Errorf("the declined notes was handed over:\n%s", out)
	}
}
