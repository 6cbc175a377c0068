package gitscan

import (
	"os/exec"
	"testing"
)

// TestOpenWalksPathOnce: Open looks git up on PATH once, to choose the
// engine, and the engine uses what it found. Each walk is a stat of git in
// every PATH directory; the hook opens a repository on every checkout and
// pull, and looked twice (26 stat calls on a 13-directory PATH).
func TestOpenWalksPathOnce(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	walks := 0
	lookPath = func(file string) (string, error) {
		walks++
		return exec.LookPath(file)
	}
	t.Cleanup(func() { lookPath = exec.LookPath })
	r, err := Open(dir, WithEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Engine() != EngineWithGit {
		t.Fatalf("engine %v with git on PATH", r.Engine())
	}
	if walks != 1 {
		t.Errorf("Open walked PATH for git %d times, want 1", walks)
	}
}
