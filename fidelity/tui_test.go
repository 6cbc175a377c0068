package fidelity

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// settled are screens the interactive client waits on: a dialog or its prompt.
var settled = []string{"Enter to confirm", "shift+tab to cycle", "? for shortcuts"}

// runTUI starts the interactive client in a detached tmux pane, waits until
// it settles on a dialog or its prompt (and, past that, for the servers to
// start), and returns the screen. It never answers a dialog: what spawned
// is what the client ran without asking.
func (s *sandbox) runTUI(launch string, env []string, markers, bin string, args ...string) ([]byte, error) {
	if _, err := exec.LookPath("tmux"); err != nil {
		s.t.Skip("tmux not found: the interactive scenarios need it")
	}
	s.tuiUserState()
	// A short socket path: unix sockets are limited to ~108 bytes.
	sockDir, err := os.MkdirTemp("", "fid-tmux-")
	if err != nil {
		return nil, err
	}
	sock := filepath.Join(sockDir, "s")
	script := filepath.Join(s.markerRoot, fmt.Sprintf("tui-%d.sh", s.runs))
	var b strings.Builder
	fmt.Fprintf(&b, "cd %s || exit 1\nexec env -i", shQuote(launch))
	for _, kv := range env {
		b.WriteString(" " + shQuote(kv))
	}
	for _, a := range append([]string{bin}, args...) {
		b.WriteString(" " + shQuote(a))
	}
	if err := os.WriteFile(script, []byte(b.String()+"\n"), 0o755); err != nil {
		return nil, err
	}
	tmux := func(a ...string) ([]byte, error) {
		return runBounded(10*time.Second, s.home, env, "tmux", append([]string{"-S", sock, "-f", "/dev/null"}, a...)...)
	}
	// The pane outlives a client that exits at once, so its last screen is kept.
	if out, err := tmux("new-session", "-d", "-s", "fid", "-x", "160", "-y", "45", "/bin/sh "+shQuote(script)+"; sleep 120"); err != nil {
		return out, err
	}
	s.t.Cleanup(func() {
		if out, err := tmux("display-message", "-p", "-t", "fid", "#{pane_pid}"); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil {
				_ = syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
		_, _ = tmux("kill-server")
		os.RemoveAll(sockDir)
	})
	var screen []byte
	deadline := time.Now().Add(60 * time.Second)
	settledAt := time.Time{}
	for time.Now().Before(deadline) {
		time.Sleep(300 * time.Millisecond)
		if screen, err = tmux("capture-pane", "-p", "-t", "fid"); err != nil {
			return screen, err
		}
		if settledAt.IsZero() && containsAny(string(screen), settled) {
			settledAt = time.Now()
		}
		// Past the settled screen, servers start within a second or two; allow 5.
		if !settledAt.IsZero() && time.Since(settledAt) > 5*time.Second {
			return tmux("capture-pane", "-p", "-t", "fid")
		}
	}
	return screen, fmt.Errorf("the interactive client did not settle within 60s")
}

// tuiUserState adds to ~/.claude.json what a user who has used Claude Code
// before has there: onboarding done, the API key accepted. No MCP state.
func (s *sandbox) tuiUserState() {
	path := filepath.Join(s.home, ".claude.json")
	state := obj{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &state); err != nil {
			s.t.Fatal(err)
		}
	}
	state["hasCompletedOnboarding"] = true
	// The client remembers an accepted key by its last 20 bytes.
	state["customApiKeyResponses"] = obj{"approved": []string{dummyKey[len(dummyKey)-20:]}, "rejected": []string{}}
	s.write("~/.claude.json", state)
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
