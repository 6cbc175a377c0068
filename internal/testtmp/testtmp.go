// Package testtmp keeps what a test binary leaves in the temporary
// directory under one directory of its own, removed when its tests end.
//
// t.TempDir removes its directory when the test ends, but not what is
// written there later: a hook run that outlived its budget (a FIFO
// holding it) writing its cache, an agent CLI's background process
// writing its lock files. A run killed before its cleanups (a timeout,
// ^C) leaves everything. Run points TMPDIR at a directory named after
// the process, removes it when the tests end, and first removes those
// that processes no longer running left behind.
package testtmp

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// prefix names the directories Run makes: prefix, the process id, "-".
const prefix = "mcp-guard-test-"

// M is what Run runs: a *testing.M.
type M interface{ Run() int }

// Run runs m's tests with TMPDIR set to a directory of this process's own
// and removes it after them, whatever they left there.
func Run(m M) int {
	base := os.TempDir()
	Sweep(base)
	root, err := os.MkdirTemp(base, fmt.Sprintf("%s%d-", prefix, os.Getpid()))
	if err != nil {
		fmt.Fprintf(os.Stderr, "testtmp: %v\n", err)
		return m.Run()
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", root)
	code := m.Run()
	if had {
		os.Setenv("TMPDIR", old)
	} else {
		os.Unsetenv("TMPDIR")
	}
	if err := removeAll(root); err != nil {
		fmt.Fprintf(os.Stderr, "testtmp: %v\n", err)
	}
	return code
}

// Sweep removes the directories Run made in base for processes that no
// longer run (a test binary killed before its cleanups).
func Sweep(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pid, _, _ := strings.Cut(rest, "-")
		n, err := strconv.Atoi(pid)
		if err != nil || n <= 0 || n == os.Getpid() || running(n) {
			continue
		}
		removeAll(filepath.Join(base, e.Name()))
	}
}

// removeAll is os.RemoveAll after making every directory writable (an
// agent CLI's read-only cache, a test's chmod).
func removeAll(dir string) error {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
