//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestScanHistoryProgress: scan --history shows its progress on a
// terminal, erased before the report, and not with --quiet. (Off a
// terminal it never shows: cli_conventions.txtar.)
func TestScanHistoryProgress(t *testing.T) {
	t.Parallel()
	dir, environ := twoServers(t)
	environ = append(environ, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "one"}, {"commit", "-q", "--allow-empty", "-m", "two"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, environ
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	s := startPTY(t, environ, "", "-C", dir, "scan", "--history", "--fail-on", "none")
	code, out := s.wait()
	if code != 0 || !strings.Contains(out, "\rmcp-guard: scanning history: 1/1 commits\r\x1b[K") {
		t.Errorf("exit %d, want 0 and the progress line erased:\n%q", code, out)
	}
	s = startPTY(t, environ, "", "-C", dir, "-q", "scan", "--history", "--fail-on", "none")
	code, out = s.wait()
	if code != 0 || strings.Contains(out, "scanning history") {
		t.Errorf("--quiet: exit %d, want 0 and no progress:\n%q", code, out)
	}
}
