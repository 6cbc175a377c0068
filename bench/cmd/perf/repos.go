package main

import (
	"os"
	"path/filepath"
)

// repo is one generated repository: a shape in one storage variant.
type repo struct {
	shape   shape
	storage storage
}

func (r repo) dir(out string) string {
	return filepath.Join(out, r.shape.name+"-"+string(r.storage))
}

func scaled(n int, f float64) int {
	v := int(float64(n) * f)
	if v < 1 {
		v = 1
	}
	return v
}

// The shapes. history: 50,000 commits over ~3,000 files, merges (a third
// of them discarding their side's changes), an agentty surface edited in
// about one commit in 180 (~250 commits, side branches more often).
// objects-1m and objects-450k: the same kind of history sized to about
// 1,000,000 and 450,000 objects, for the flatness of the hook.
func shapes(f float64) (history, big, mid shape) {
	history = shape{name: "history", files: scaled(3000, f), fanout: 12, commits: scaled(50000, f), configEvery: 220, seed: 1}
	big = shape{name: "objects-1m", files: scaled(20000, f), fanout: 30, commits: scaled(112000, f), configEvery: 400, seed: 2}
	mid = shape{name: "objects-450k", files: scaled(20000, f), fanout: 30, commits: scaled(49000, f), configEvery: 400, seed: 3}
	return
}

func repos(f float64) []repo {
	h, big, mid := shapes(f)
	return []repo{
		{h, onePack}, {h, manyPack}, {h, commitGraph}, {h, bloom},
		{mid, onePack}, {big, onePack},
	}
}

// ensure generates r under out unless it is already there, made by this
// generator.
func ensure(out string, r repo) error {
	d := r.dir(out)
	if b, err := os.ReadFile(filepath.Join(d, ".git", "perf-stamp")); err == nil && string(b) == stamp(r.shape, r.storage) {
		return nil
	}
	os.RemoveAll(d)
	return create(out, r, os.Stderr)
}
