package gitscan

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestOpenWalksPathOnce: Open looks git up on PATH once, to choose the
// engine, and the engine uses what it found; and it resolves the symlinks
// of the git directory once when it is also the common directory (every
// repository but a linked worktree). Each PATH walk is a stat of git in
// every PATH directory, each resolution an lstat of every component of
// the path; the hook opens a repository on every checkout and pull, and
// did both twice (strace of the quiet path: 52 stat calls, now 37).
func TestOpenWalksPathOnce(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	run(t, env, dir, nil, "commit", "-q", "--allow-empty", "-m", "one")
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, env, dir, nil, "worktree", "add", "-q", "--detach", wt)
	walks, resolved := 0, map[string]int{}
	lookPath = func(file string) (string, error) {
		walks++
		return exec.LookPath(file)
	}
	evalSymlinks = func(p string) (string, error) {
		resolved[p]++
		return filepath.EvalSymlinks(p)
	}
	t.Cleanup(func() { lookPath, evalSymlinks = exec.LookPath, filepath.EvalSymlinks })
	for _, c := range []struct {
		dir     string
		resolve int // the work tree, the git directory, the common directory
	}{{dir, 2}, {wt, 3}} {
		walks, resolved = 0, map[string]int{}
		r, err := Open(c.dir, WithEnv(env))
		if err != nil {
			t.Fatal(err)
		}
		if r.Engine() != EngineWithGit {
			t.Fatalf("engine %v with git on PATH", r.Engine())
		}
		if walks != 1 {
			t.Errorf("%s: Open walked PATH for git %d times, want 1", c.dir, walks)
		}
		n := 0
		for p, k := range resolved {
			n += k
			if k > 1 {
				t.Errorf("%s: %s resolved %d times", c.dir, p, k)
			}
		}
		if n != c.resolve {
			t.Errorf("%s: %d symlink resolutions %v, want %d", c.dir, n, resolved, c.resolve)
		}
		if c.dir == wt && r.CommonDir() == r.GitDir() {
			t.Errorf("linked worktree: common directory %s is its git directory", r.CommonDir())
		}
		r.Close()
	}
}
