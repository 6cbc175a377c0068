package gitscan

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

// ErrShallow reports a question whose answer lies beyond a shallow
// clone's boundary: the history needed is not in the repository.
var ErrShallow = errors.New("the answer lies beyond the shallow clone's boundary; fetch more history (git fetch --unshallow)")

// MergeBase returns a best common ancestor of a and b: a commit reachable
// from both that is not an ancestor of another such commit, as
// `git merge-base a b` defines it. When several are equally good it
// returns the one with the latest committer time (then the smallest id);
// git may print another of them, and every one of them is a correct
// merge base. Empty when a and b share no history. Both must be commit
// sides. In a shallow clone, when no common ancestor is found and the walk
// met the boundary, the error wraps ErrShallow rather than claiming the
// two are unrelated.
//
// It reads through the same object access as History, so both engines
// give the same answer; the cost is one walk of a's history.
func (r *Repo) MergeBase(a, b Side) (Side, error) {
	if a.kind != sideCommit || b.kind != sideCommit {
		return Side{}, fmt.Errorf("merge base of %s and %s: both must be commits", a, b)
	}
	shallow, err := readShallow(r.commonDir, r.format)
	if err != nil {
		return Side{}, err
	}
	h := &historyWalk{r: r, shallow: shallow, commits: map[string]*commitObj{}, uninter: map[string]bool{}}
	ctx := context.Background()
	ofA := map[string]bool{}
	if err := h.mark(ctx, a.commit, ofA, nil); err != nil {
		return Side{}, err
	}
	// Walk b's history breadth first, stopping at the first common commit
	// on each path: the candidates.
	var candidates []string
	seen := map[string]bool{b.commit: true}
	queue := []string{b.commit}
	hitBoundary := len(shallow) > 0 && shallowReached(ofA, shallow)
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if ofA[id] {
			candidates = append(candidates, id)
			continue
		}
		c, err := h.commit(id)
		if err != nil {
			return Side{}, err
		}
		ps, boundary := h.parents(id, c)
		if boundary {
			hitBoundary = true
		}
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	if len(candidates) == 0 {
		if hitBoundary {
			return Side{}, fmt.Errorf("merge base of %s and %s: %w", short(a.commit), short(b.commit), ErrShallow)
		}
		return Empty, nil
	}
	// Drop candidates that are ancestors of other candidates.
	best := candidates[:0:0]
	for _, c := range candidates {
		redundant := false
		for _, o := range candidates {
			if o == c {
				continue
			}
			anc := map[string]bool{}
			if err := h.mark(ctx, o, anc, nil); err != nil {
				return Side{}, err
			}
			if anc[c] {
				redundant = true
				break
			}
		}
		if !redundant {
			best = append(best, c)
		}
	}
	sort.Slice(best, func(i, j int) bool {
		ci, cj := h.commits[best[i]], h.commits[best[j]]
		if !ci.commitTime.Equal(cj.commitTime) {
			return ci.commitTime.After(cj.commitTime)
		}
		return best[i] < best[j]
	})
	c := h.commits[best[0]]
	return Side{kind: sideCommit, commit: best[0], tree: c.tree}, nil
}

// shallowReached reports whether a walk that marked seen met a shallow
// boundary commit.
func shallowReached(seen, shallow map[string]bool) bool {
	for id := range shallow {
		if seen[id] {
			return true
		}
	}
	return false
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
