package gitscan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// History walks every commit reachable from to but not from since (Empty:
// the whole history) that changes a path matched by patterns, and returns
// them oldest first (by committer time, then id).
//
// The commit set is git's `rev-list --full-history -- <pathspecs>`: every
// commit compared with every parent, so a merge that discards a side
// branch's change is still reported (while plain `git log -- path` would
// simplify it away). A merge counts when it differs from a parent that is
// inside the range (from any parent when none is). Changes lists, for each
// parent in turn, the matched paths that differ (Change.Parent says which).
//
// patterns are git `:(glob)` patterns (`**/.agentty/mcp.json`, `src/*.js`,
// a plain path for itself and everything below it); nil means every agentty
// surface, matched ignoring ASCII case like surface.Of, including non-directory
// entries where a surface directory belongs (surface.KindLinkedDir).
//
// In a shallow clone the boundary commits in range are always reported with
// Boundary set (their Changes are against the empty tree): what came before
// them is unknown, and the caller must not take it for "no changes".
//
// The whole history (since = Empty) is walked in process: every commit is
// compared with every parent, descending only into subtrees whose ids
// differ (and, for patterns with a literal prefix, only into directories on
// that prefix), with trees cached by id across commits. On the
// 50,000-commit histories of BENCHMARKS.md that costs about the CPU of
// `git log --full-history -- <surface globs>` (1.01-1.11× in its latest
// run, against a target of 1.5×); `git rev-list` with the case-insensitive
// surface pathspecs History(nil) needs was slower than that in earlier
// measurements, and is not part of the benchmarks. A range (since set) is
// selected by `git rev-list --full-history to ^since -- <pathspecs>` when
// git is available, which stops where the range does, and each selected
// commit is compared with its parents in process; so is everything when
// the in-process reader does not read the repository (git's cat-file
// serves the objects then).
func (r *Repo) History(ctx context.Context, since, to Side, patterns []string) ([]HistoryCommit, error) {
	m, err := newMatcher(patterns)
	if err != nil {
		return nil, err
	}
	if !to.isTreeSide() || !since.isTreeSide() {
		return nil, fmt.Errorf("history: %s..%s: both ends must be commits (or empty)", since, to)
	}
	if to.kind == sideEmpty {
		return nil, nil
	}
	shallow, err := readShallow(r.commonDir, r.format)
	if err != nil {
		return nil, err
	}
	h := &historyWalk{r: r, m: m, shallow: shallow, commits: map[string]*commitObj{}, since: since.commit, graph: r.commitGraph()}
	var out []HistoryCommit
	if rl, ok := r.be.(revLister); ok && (since.kind != sideEmpty || !r.readsNatively()) {
		out, err = h.viaRevList(ctx, rl, to.commit)
	} else {
		out, err = h.walk(ctx, to.commit)
	}
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		ti, tj := h.commits[out[i].ID].commitTime, h.commits[out[j].ID].commitTime
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

type historyWalk struct {
	r       *Repo
	m       *matcher
	shallow map[string]bool
	commits map[string]*commitObj
	since   string
	uninter map[string]bool     // reachable from since
	graph   *gitobj.CommitGraph // nil: commits are read from their objects
}

func (h *historyWalk) commit(id string) (*commitObj, error) {
	if c, ok := h.commits[id]; ok {
		return c, nil
	}
	if h.graph != nil {
		gc, err := h.graph.Commit(id)
		if err != nil {
			h.graph = nil // it does not add up: objects from now on
		} else if gc != nil {
			c := &commitObj{tree: gc.Tree, parents: gc.Parents, commitTime: gc.CommitTime, fromGraph: true}
			h.commits[id] = c
			return c, nil
		}
	}
	c, err := h.r.readCommit(id)
	if err != nil {
		return nil, err
	}
	h.commits[id] = c
	return c, nil
}

// describe fills the author of a commit the walk returns when the graph
// (which does not record it) provided the rest.
func (h *historyWalk) describe(hc *HistoryCommit) error {
	c := h.commits[hc.ID]
	if c == nil || !c.fromGraph {
		return nil
	}
	full, err := h.r.readCommit(hc.ID)
	if err != nil {
		return err
	}
	if full.tree != c.tree || strings.Join(full.parents, " ") != strings.Join(c.parents, " ") {
		return fmt.Errorf("commit %s: the commit-graph disagrees with the object (run git commit-graph write)", hc.ID)
	}
	hc.Author, hc.AuthorEmail, hc.Time = full.author, full.authorEmail, full.authorTime
	return nil
}

// parents are the commit's parents as far as this repository knows them:
// none at a shallow boundary.
func (h *historyWalk) parents(id string, c *commitObj) (ps []string, boundary bool) {
	if h.shallow[id] {
		return nil, true
	}
	return c.parents, false
}

// compare lists the matched changes of commit id against each parent.
func (h *historyWalk) compare(id string) (hc HistoryCommit, differs []bool, err error) {
	c, err := h.commit(id)
	if err != nil {
		return hc, nil, err
	}
	ps, boundary := h.parents(id, c)
	hc = HistoryCommit{ID: id, Author: c.author, AuthorEmail: c.authorEmail, Time: c.authorTime,
		Parents: append([]string(nil), c.parents...), Boundary: boundary}
	if len(ps) == 0 {
		var ch []Change
		if err := h.r.diffTrees("", "", c.tree, h.m, &ch); err != nil {
			return hc, nil, err
		}
		sortChanges(ch)
		hc.Changes = ch
		return hc, []bool{len(ch) > 0}, nil
	}
	for _, p := range ps {
		pc, err := h.commit(p)
		if err != nil {
			return hc, nil, fmt.Errorf("parent %s of %s: %w", p, id, err)
		}
		var ch []Change
		if err := h.r.diffTrees("", pc.tree, c.tree, h.m, &ch); err != nil {
			return hc, nil, err
		}
		sortChanges(ch)
		for i := range ch {
			ch[i].Parent = p
		}
		hc.Changes = append(hc.Changes, ch...)
		differs = append(differs, len(ch) > 0)
	}
	return hc, differs, nil
}

func sortChanges(ch []Change) {
	sort.Slice(ch, func(i, j int) bool { return ch[i].Path < ch[j].Path })
}

// viaRevList lets git select the commits, then compares each with its
// parents; shallow boundary commits in range are added even when git does
// not list them.
func (h *historyWalk) viaRevList(ctx context.Context, rl revLister, to string) ([]HistoryCommit, error) {
	ids, err := rl.revList(ctx, to, h.since, h.m.pathspecs())
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for _, id := range ids {
		listed[id] = true
	}
	if len(h.shallow) > 0 {
		// Boundary commits in range: reachable from to, not from since.
		inRange, err := rl.revList(ctx, to, h.since, nil)
		if err != nil {
			return nil, err
		}
		for _, id := range inRange {
			if h.shallow[id] && !listed[id] {
				ids = append(ids, id)
				listed[id] = true
			}
		}
	}
	var out []HistoryCommit
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hc, _, err := h.compare(id)
		if err != nil {
			return nil, err
		}
		if err := h.describe(&hc); err != nil {
			return nil, err
		}
		out = append(out, hc)
	}
	return out, nil
}

// walk is the engine-independent history walk (in-process engine).
func (h *historyWalk) walk(ctx context.Context, to string) ([]HistoryCommit, error) {
	h.uninter = map[string]bool{}
	if h.since != "" {
		if err := h.mark(ctx, h.since, h.uninter, nil); err != nil {
			return nil, err
		}
	}
	var out []HistoryCommit
	err := h.mark(ctx, to, map[string]bool{}, func(id string) error {
		hc, differs, err := h.compare(id)
		if err != nil {
			return err
		}
		c := h.commits[id]
		ps, _ := h.parents(id, c)
		include := false
		switch {
		case hc.Boundary:
			include = true
		case len(ps) == 0:
			include = differs[0]
		default:
			relevant, relevantChange, anyChange := 0, false, false
			for i, p := range ps {
				rel := !h.uninter[p] || p == h.since
				if rel {
					relevant++
					relevantChange = relevantChange || differs[i]
				}
				anyChange = anyChange || differs[i]
			}
			if relevant > 0 {
				include = relevantChange
			} else {
				include = anyChange
			}
		}
		if include {
			if err := h.describe(&hc); err != nil {
				return err
			}
			out = append(out, hc)
		}
		return nil
	})
	return out, err
}

// mark visits every commit reachable from start that is not in stop's
// complement set h.uninter (when visiting the range), recording visited
// commits in seen and calling visit on each.
func (h *historyWalk) mark(ctx context.Context, start string, seen map[string]bool, visit func(string) error) error {
	stack := []string{start}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] || (visit != nil && h.uninter[id]) {
			continue
		}
		seen[id] = true
		if len(seen)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		c, err := h.commit(id)
		if err != nil {
			return err
		}
		if visit != nil {
			if err := visit(id); err != nil {
				return err
			}
		}
		ps, _ := h.parents(id, c)
		stack = append(stack, ps...)
	}
	return nil
}

// Identity returns the sorted root commit ids reachable from HEAD: a
// repository's identity across clones and forks. Empty when HEAD is unborn.
// In a shallow clone the boundary commits stand in for the roots.
func (r *Repo) Identity() ([]string, error) {
	head, err := r.Resolve("HEAD")
	if err != nil {
		return nil, err
	}
	if head.kind != sideCommit {
		return nil, nil
	}
	// A commit's roots never change, except when a shallow repository is
	// deepened: the cache is used only in complete ones.
	var cache *surfaceCache
	if !r.shallow {
		cache = r.surfCache()
	}
	if cache != nil {
		if roots, ok := cache.rootsOf(head.commit); ok {
			return roots, nil
		}
	}
	shallow, err := readShallow(r.commonDir, r.format)
	if err != nil {
		return nil, err
	}
	roots, err := r.findRoots(head.commit, shallow)
	if err == nil && cache != nil {
		cache.putRoots(head.commit, roots)
	}
	return roots, err
}

func (r *Repo) findRoots(head string, shallow map[string]bool) ([]string, error) {
	if rl, ok := r.be.(rootLister); ok {
		return rl.roots(head)
	}
	h := &historyWalk{r: r, shallow: shallow, commits: map[string]*commitObj{}, uninter: map[string]bool{}, graph: r.commitGraph()}
	var roots []string
	err := h.mark(context.Background(), head, map[string]bool{}, func(id string) error {
		if ps, _ := h.parents(id, h.commits[id]); len(ps) == 0 {
			roots = append(roots, id)
		}
		return nil
	})
	sort.Strings(roots)
	return roots, err
}

// rootLister is an optional backend fast path for Identity.
type rootLister interface {
	roots(head string) ([]string, error)
}

func (g *gitBackend) roots(head string) ([]string, error) {
	out, err := g.run(context.Background(), "rev-list", "--max-parents=0", head, "--")
	if err != nil {
		return nil, err
	}
	ids, err := g.parseIDs("rev-list", out)
	if err != nil {
		return nil, err
	}
	sort.Strings(ids)
	return ids, nil
}
