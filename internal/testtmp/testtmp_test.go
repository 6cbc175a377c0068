package testtmp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

type fakeM func() int

func (f fakeM) Run() int { return f() }

// TestRun: the tests see TMPDIR under a directory of the process's own,
// and what they left there (read-only directories too) is gone after.
func TestRun(t *testing.T) {
	base := t.TempDir()
	t.Setenv("TMPDIR", base)
	var seen string
	code := Run(fakeM(func() int {
		seen = os.TempDir()
		d := filepath.Join(seen, "late", "ro")
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "lock"), nil, 0o644)
		os.Chmod(d, 0o500)
		return 3
	}))
	if code != 3 {
		t.Errorf("exit %d, want the tests' 3", code)
	}
	if filepath.Dir(seen) != base || os.Getenv("TMPDIR") != base {
		t.Errorf("TMPDIR during the tests %q, after %q; want below %q, then it back", seen, os.Getenv("TMPDIR"), base)
	}
	if left, _ := os.ReadDir(base); len(left) != 0 {
		t.Errorf("left %v", left)
	}
}

// TestSweep: a directory of a process that is gone is removed; one of a
// running process, or not Run's, is kept.
func TestSweep(t *testing.T) {
	base := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := cmd.Process.Pid
	for _, n := range []string{prefix + strconv.Itoa(dead) + "-1", prefix + strconv.Itoa(os.Getppid()) + "-2", "TestOther123", prefix + "x-3"} {
		os.MkdirAll(filepath.Join(base, n, "a"), 0o755)
	}
	Sweep(base)
	for n, want := range map[string]bool{prefix + strconv.Itoa(dead) + "-1": false, prefix + strconv.Itoa(os.Getppid()) + "-2": true, "TestOther123": true, prefix + "x-3": true} {
		if _, err := os.Stat(filepath.Join(base, n)); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", n, err == nil, want)
		}
	}
}
