package fidelity

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// settled are screens the interactive client waits on: a dialog or its prompt.
var settled = []string{"Enter to confirm", "shift+tab to cycle", "? for shortcuts"}

// tmuxPane is a detached tmux session (160x45) running one client
// command, its pane kept after the client exits so its last screen is.
type tmuxPane struct {
	s        *sandbox
	env      []string
	sockDir  string
	sock     string
	stopOnce sync.Once
}

// startPane writes script (a name in the marker root) to run argv in
// launch with exactly env (env -i), and starts it in a new tmux session.
// stop ends it: the pane's process group, the server, and what the client
// left running in a session of its own (interactive Codex's app-server
// daemon): the processes of the sandbox's HOME.
func (s *sandbox) startPane(script, launch string, env, argv []string) (*tmuxPane, error) {
	if _, err := exec.LookPath("tmux"); err != nil {
		s.t.Skip("tmux not found: the interactive scenarios need it")
	}
	// A short socket path: unix sockets are limited to ~108 bytes.
	sockDir, err := os.MkdirTemp("", "fid-tmux-")
	if err != nil {
		return nil, err
	}
	p := &tmuxPane{s: s, env: env, sockDir: sockDir, sock: filepath.Join(sockDir, "s")}
	var b strings.Builder
	fmt.Fprintf(&b, "cd %s || exit 1\nexec env -i", shQuote(launch))
	for _, kv := range env {
		b.WriteString(" " + shQuote(kv))
	}
	for _, a := range argv {
		b.WriteString(" " + shQuote(a))
	}
	path := filepath.Join(s.markerRoot, script)
	if err := os.WriteFile(path, []byte(b.String()+"\n"), 0o755); err != nil {
		os.RemoveAll(sockDir)
		return nil, err
	}
	if out, err := p.tmux("new-session", "-d", "-s", "fid", "-x", "160", "-y", "45", "/bin/sh "+shQuote(path)+"; sleep 300"); err != nil {
		p.stop()
		return nil, fmt.Errorf("tmux new-session: %v: %s", err, out)
	}
	return p, nil
}

func (p *tmuxPane) tmux(args ...string) (string, error) {
	out, err := runBounded(10*time.Second, p.s.home, p.env, "tmux", append([]string{"-S", p.sock, "-f", "/dev/null"}, args...)...)
	return string(out), err
}

// screen is what the pane shows.
func (p *tmuxPane) screen() string {
	out, _ := p.tmux("capture-pane", "-p", "-t", "fid")
	return out
}

// keys sends keys to the pane (tmux send-keys arguments).
func (p *tmuxPane) keys(args ...string) {
	_, _ = p.tmux(append([]string{"send-keys", "-t", "fid"}, args...)...)
}

func (p *tmuxPane) stop() {
	p.stopOnce.Do(func() {
		if out, err := p.tmux("display-message", "-p", "-t", "fid", "#{pane_pid}"); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(out)); err == nil {
				_ = syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
		_, _ = p.tmux("kill-server")
		os.RemoveAll(p.sockDir)
		killByHome(p.s.t, p.s.home)
	})
}

// runTUI starts the interactive client in a detached tmux pane, waits until
// it settles on a dialog or its prompt (and, past that, for the servers to
// start), and returns the screen. It never answers a dialog: what spawned
// is what the client ran without asking.
func (s *sandbox) runTUI(launch string, env []string, markers, bin string, args ...string) ([]byte, error) {
	s.tuiUserState()
	p, err := s.startPane(fmt.Sprintf("tui-%d.sh", s.runs), launch, env, append([]string{bin}, args...))
	if err != nil {
		return nil, err
	}
	s.t.Cleanup(p.stop)
	var screen string
	deadline := time.Now().Add(60 * time.Second)
	settledAt := time.Time{}
	for time.Now().Before(deadline) {
		time.Sleep(300 * time.Millisecond)
		if screen, err = p.tmux("capture-pane", "-p", "-t", "fid"); err != nil {
			return []byte(screen), err
		}
		if settledAt.IsZero() && containsAny(screen, settled) {
			settledAt = time.Now()
		}
		// Past the settled screen, servers start within a second or two; allow 5.
		if !settledAt.IsZero() && time.Since(settledAt) > 5*time.Second {
			out, err := p.tmux("capture-pane", "-p", "-t", "fid")
			return []byte(out), err
		}
	}
	return []byte(screen), fmt.Errorf("the interactive client did not settle within 60s")
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
