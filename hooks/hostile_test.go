package hooks

// The hook entry under hostile input (issue 7): stdin that never ends or is
// one endless line, an index that is a FIFO, a repository that is not one.
// Each ends within the budget with bounded memory. The end-to-end faults
// with git itself (binary gone, Ctrl-C, a half-written repository) are in
// cmd/mcp-guard/hostile_test.go, which has the binary.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
	"github.com/mcp-guard/mcp-guard/trust"
)

// endless is a stdin that never ends: the same bytes again and again.
type endless struct{ b []byte }

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e.b)
	}
	return n, nil
}

// runHostile runs the hook entry and fails the test when it overruns its
// budget by more than a second.
func runHostile(t *testing.T, req Request) (*Outcome, error, uint64) {
	t.Helper()
	if req.Timeout == 0 {
		req.Timeout = 3 * time.Second
	}
	if req.Ledger == nil {
		req.Ledger = &trust.Ledger{}
	}
	var out *Outcome
	var err error
	start := time.Now()
	n := hostile.Allocated(func() { out, err = Run(context.Background(), req) })
	if d := time.Since(start); d > req.Timeout+5*time.Second { // the budget holds; slack for a loaded machine
		t.Errorf("took %v with a budget of %v", d, req.Timeout)
	}
	return out, err, n
}

// TestHostileRewriteStdin: post-rewrite's stdin is read up to
// MaxRewriteInput and no further, whatever it holds.
func TestHostileRewriteStdin(t *testing.T) {
	dir, _, _, _ := benchRepo(t, 5)
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	for _, tt := range []struct {
		name  string
		stdin endless
	}{
		{"endless pairs", endless{[]byte("0123456789abcdef0123456789abcdef01234567 76543210fedcba9876543210fedcba9876543210\n")}},
		{"one endless line", endless{[]byte("abcdefgh")}},
		{"endless escape sequences", endless{[]byte("\x1b]0;x\x07\x1b[2J \x00\xff\n")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// A budget a loaded machine cannot exhaust by reading the
			// capped input (it takes milliseconds idle): only a read that
			// does not stop at the cap runs out of it.
			_, err, n := runHostile(t, Request{Type: "post-rewrite", Args: []string{"rebase"}, Stdin: tt.stdin, Dir: dir, Env: env, Timeout: 30 * time.Second})
			if errors.Is(err, ErrTimeout) {
				t.Errorf("ran out of time reading stdin: %v", err)
			}
			// Bounded by the cap, not by what is offered: at most a fixed
			// multiple of MaxRewriteInput (the pairs kept and the lines
			// split cost about 17 bytes per byte read).
			if n > 32*MaxRewriteInput {
				t.Errorf("allocated %d bytes for a stdin capped at %d", n, MaxRewriteInput)
			}
			t.Logf("%v; %d bytes allocated", err, n)
		})
	}
}

// TestHostileHookEnvironment: what git hands the hook cannot make it hang
// or escape its budget: an index file that is a FIFO (a squash merge reads
// the index), a GIT_DIR that is not a repository, a work tree gone.
func TestHostileHookEnvironment(t *testing.T) {
	dir, base, _, config := benchRepo(t, 5)
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	fifo := filepath.Join(t.TempDir(), "index")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	notRepo := t.TempDir()
	with := func(kv string) []string { return append(append([]string(nil), env...), kv) }
	for _, tt := range []struct {
		name string
		req  Request
	}{
		{"index is a FIFO", Request{Type: "post-merge", Args: []string{"1"}, Dir: dir, Env: with("GIT_INDEX_FILE=" + fifo)}},
		{"GIT_DIR is not a repository", Request{Type: "post-checkout", Args: []string{base, config, "1"}, Dir: dir, Env: with("GIT_DIR=" + notRepo)}},
		{"GIT_DIR is a FIFO", Request{Type: "post-checkout", Args: []string{base, config, "1"}, Dir: dir, Env: with("GIT_DIR=" + fifo)}},
		{"directory gone", Request{Type: "post-checkout", Args: []string{base, config, "1"}, Dir: filepath.Join(notRepo, "gone"), Env: env}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err, _ := runHostile(t, tt.req)
			if err == nil {
				t.Errorf("no error")
			}
			t.Logf("%v", err)
		})
	}
}

// TestHostileHookArguments: arguments that are not revisions (escape
// sequences, options, newlines, paths) are refused as unknown revisions,
// never passed to git as options, and the manual command shown for them
// is escaped by the renderer (see report.FuzzHookProblem).
func TestHostileHookArguments(t *testing.T) {
	dir, base, _, config := benchRepo(t, 5)
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	marker := filepath.Join(t.TempDir(), "pwned")
	for _, rev := range []string{
		"--output=" + marker, "-h", "--git-dir=/", "HEAD\n--output=" + marker, "\x1b]0;t\x07",
		"HEAD:.agentty/mcp.json", "HEAD@{-1}", "..", "main..main", " " + base, base + "\x00", strings.Repeat("a", 1<<16),
	} {
		out, err, _ := runHostile(t, Request{Type: "post-checkout", Args: []string{rev, config, "1"}, Dir: dir, Env: env})
		if err == nil && (out == nil || len(out.Changes) > 0 && out.Event.Old != Rev(rev)) {
			t.Errorf("%q: %+v", rev, out)
		}
		if _, serr := os.Stat(marker); serr == nil {
			t.Fatalf("%q reached git as an option: %s was written", rev, marker)
		}
	}
}
