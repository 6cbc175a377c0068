package gitscan

import (
	"errors"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMergeBaseMatchesGit compares MergeBase with `git merge-base --all` on
// pairs of commits of a generated history with merges: every engine must
// return one of git's best common ancestors, and exactly git's when there
// is only one.
func TestMergeBaseMatchesGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir, _ := genRepo(t, env, 11, 300, 60)
	all := strings.Fields(run(t, env, dir, nil, "rev-list", "--all"))
	if len(all) < 20 {
		t.Fatalf("generated history too small: %d commits", len(all))
	}
	if merges := strings.Fields(run(t, env, dir, nil, "rev-list", "--merges", "--all")); len(merges) == 0 {
		t.Fatal("generated history has no merges: the test would prove little")
	}
	rng := rand.New(rand.NewSource(3))
	type pair struct{ a, b string }
	var pairs []pair
	for range 25 {
		pairs = append(pairs, pair{all[rng.Intn(len(all))], all[rng.Intn(len(all))]})
	}
	for _, e := range engines {
		r := openT(t, dir, env, e)
		for _, p := range pairs {
			want := strings.Fields(run(t, env, dir, nil, "merge-base", "--all", p.a, p.b))
			got, err := r.MergeBase(resolveT(t, r, p.a), resolveT(t, r, p.b))
			if err != nil {
				t.Fatalf("%v: MergeBase(%s, %s): %v", e, short(p.a), short(p.b), err)
			}
			if !slices.Contains(want, got.Commit()) {
				t.Errorf("%v: MergeBase(%s, %s) = %s, git says one of %v", e, short(p.a), short(p.b), got, want)
			}
		}
	}
}

func TestMergeBaseUnrelatedAndShallow(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	run(t, env, dir, nil, "checkout", "-q", "--orphan", "other")
	writeFile(t, dir, "x.txt", "x")
	run(t, env, dir, nil, "add", "x.txt")
	run(t, env, dir, nil, "commit", "-q", "-m", "orphan")
	for _, e := range engines {
		r := openT(t, dir, env, e)
		got, err := r.MergeBase(resolveT(t, r, "main"), resolveT(t, r, "other"))
		if err != nil || got != Empty {
			t.Errorf("%v: unrelated histories: %v, %v; want Empty", e, got, err)
		}
		if _, err := r.MergeBase(resolveT(t, r, "main"), WorkTree); err == nil {
			t.Errorf("%v: a work tree side was accepted", e)
		}
	}

	// A depth-1 clone of two diverged branches cannot know their base.
	src, _ := genRepo(t, env, 5, 100, 20)
	run(t, env, src, nil, "branch", "side", "HEAD~5")
	run(t, env, src, nil, "checkout", "-q", "side")
	writeFile(t, src, "side.txt", "side")
	run(t, env, src, nil, "add", "side.txt")
	run(t, env, src, nil, "commit", "-q", "-m", "side")
	dst := filepath.Join(t.TempDir(), "clone")
	run(t, env, src, nil, "clone", "-q", "--no-single-branch", "--depth", "1", "file://"+src, dst)
	for _, e := range engines {
		r := openT(t, dst, env, e)
		_, err := r.MergeBase(resolveT(t, r, "origin/main"), resolveT(t, r, "origin/side"))
		if !errors.Is(err, ErrShallow) {
			t.Errorf("%v: shallow clone: %v, want ErrShallow", e, err)
		}
	}
}
