//go:build linux

package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/sys/unix"

	"github.com/mcp-guard/mcp-guard/trust"
)

// echoOn reports whether the terminal's line discipline echoes (it does
// not in raw mode, which the prompt uses).
func echoOn(t *testing.T, s *ptySession) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(s.ptmx.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0
}

// TestSignalsAtThePrompt: SIGINT, SIGTERM and SIGHUP (kill, a closed
// terminal), not the Ctrl-C key, at the review prompt restore the
// terminal, keep what was decided, and exit 128 + the signal's number.
func TestSignalsAtThePrompt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			t.Parallel()
			dir, environ := twoServers(t)
			s := startPTY(t, environ, "", "-C", dir, "review")
			s.waitPrompt(1)
			s.send("a")
			s.waitFor("approved agentty:a  /bin/echo", 1)
			s.waitPrompt(2)
			// The prompt reads a key in raw mode.
			deadline := time.Now().Add(10 * time.Second)
			for echoOn(t, s) {
				if time.Now().After(deadline) {
					t.Fatal("the prompt never put the terminal in raw mode")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := s.cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			code, out := s.wait()
			if code != tc.want || !strings.Contains(out, "interrupted ("+signalName(tc.sig)+")") {
				t.Errorf("exit %d, want %d:\n%s", code, tc.want, out)
			}
			if !echoOn(t, s) {
				t.Error("the terminal was left in raw mode (no echo)")
			}
			if st := reviewStates(t, dir, environ); st["a"] != trust.StateReviewed || st["b"] != trust.StateUnreviewed {
				t.Errorf("after the signal: %v, want a reviewed (decided before it) and b waiting", st)
			}
		})
	}
}

// TestSignalDuringLockWait: approve waits for the ledger's lock (held by
// another process) for up to trust.LockTimeout; SIGINT ends the wait at
// once with 130, writing nothing. The process starts with SIGINT ignored,
// as a background job does: mcp-guard handles it all the same.
func TestSignalDuringLockWait(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("mcp-guard")
	if err != nil {
		t.Skip("mcp-guard is not on PATH (testscript.Main puts it there)")
	}
	dir, environ := twoServers(t)
	home := strings.TrimPrefix(environ[0], "HOME=")
	ledgerDir := filepath.Join(home, ".local", "state", "mcp-guard")
	if err := os.MkdirAll(ledgerDir, 0o700); err != nil {
		t.Fatal(err)
	}
	lock := flock.New(filepath.Join(ledgerDir, trust.LedgerFileName+".lock"))
	if ok, err := lock.TryLock(); !ok || err != nil {
		t.Fatalf("cannot take the ledger's lock: %v", err)
	}
	defer lock.Unlock()

	// sh -c 'trap "" INT; exec …' starts mcp-guard with SIGINT ignored.
	cmd := exec.Command("sh", "-c", `trap "" INT; exec "$0" "$@"`, bin, "-C", dir, "approve", "a")
	cmd.Env = environ
	// Its stderr is read line by line: mcp-guard says when it starts
	// waiting for the lock, and the SIGINT is sent only then.
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	var stderr strings.Builder
	waiting := make(chan struct{})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(pr)
		once := false
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if !once && strings.Contains(sc.Text(), "waiting for the review ledger: another mcp-guard process holds") {
				once = true
				close(waiting)
			}
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Signal only once mcp-guard is waiting for the lock (it has the lock
	// file open; its handler was installed at start): a fixed sleep was
	// too short on a loaded machine, the SIGINT arrived while SIGINT was
	// still ignored, and the approve waited out the lock.
	select {
	case <-waiting:
	case <-time.After(time.Minute):
		t.Fatal("mcp-guard never said it waits for the review ledger's lock")
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	took := time.Since(start)
	pw.Close()
	<-readDone
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d (%v), want 130:\n%s", code, err, stderr.String())
	}
	if took > trust.LockTimeout/2 { // a hang guard: it does not wait out the lock
		t.Errorf("took %v after SIGINT", took)
	}
	if st := reviewStates(t, dir, environ); st["a"] != trust.StateUnreviewed {
		t.Errorf("a is %v after an interrupted approve, want unreviewed", st["a"])
	}
}
