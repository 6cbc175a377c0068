package gitscan

import (
	"fmt"
	"sort"
	"strings"
)

// Files lists every entry below dir at side that is not a directory
// (files, symlinks, submodules), sorted by path; "" lists the whole side.
// Symlinks are listed as entries, not followed. More than limit entries is
// an error wrapping ErrTooLarge, so a caller never binds less than is there.
func (r *Repo) Files(side Side, dir string, limit int) ([]Entry, error) {
	if err := validPath(dir); err != nil {
		return nil, err
	}
	var out []Entry
	switch side.kind {
	case sideEmpty:
		return nil, nil
	case sideCommit:
		e, ok, err := r.Lookup(side, dir)
		if err != nil || !ok || e.Mode != ModeTree {
			return nil, err
		}
		if err := r.walkTree(e.ID, dir, limit, &out); err != nil {
			return nil, err
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		return out, nil
	case sideIndex, sideWorkTree:
		idx, err := r.index()
		if err != nil {
			return nil, err
		}
		var all []Entry
		if side.kind == sideIndex {
			// The Index side is sorted by path: below dir is one run
			// of it (no copy of the index for a question about it).
			all = idx.indexSide()
			if dir != "" {
				lo, hi := prefixRun(all, dir+"/")
				all = all[lo:hi]
			}
		} else if all, err = r.flatWorktree(idx, dir); err != nil {
			return nil, err
		}
		// Exactly the entries below dir: no copy (capped, so that an
		// append never writes into the index or a memo).
		if len(all) > limit {
			return nil, fmt.Errorf("%s: more than %d files: %w", dir, limit, ErrTooLarge)
		}
		return all[:len(all):len(all)], nil
	}
	return nil, fmt.Errorf("side %v: unknown", side)
}

func (r *Repo) walkTree(id, prefix string, limit int, out *[]Entry) error {
	entries, err := r.readTree(id)
	if err != nil {
		return err
	}
	for i := range entries {
		e := &entries[i]
		p := e.name
		if prefix != "" {
			p = prefix + "/" + e.name
		}
		if e.mode == ModeTree {
			if err := r.walkTree(e.id(), p, limit, out); err != nil {
				return err
			}
			continue
		}
		if len(*out) >= limit {
			return fmt.Errorf("%s: more than %d files: %w", prefix, limit, ErrTooLarge)
		}
		*out = append(*out, Entry{Path: p, Mode: e.mode, ID: e.id()})
	}
	return nil
}

// ReadDir lists the entries directly in dir at side, sorted by name, each
// with its path, mode and id; a subdirectory is a tree entry, whose id is
// left empty at the index and the work tree. None when dir is not a
// directory there.
func (r *Repo) ReadDir(side Side, dir string) ([]Entry, error) {
	if err := validPath(dir); err != nil {
		return nil, err
	}
	if side.kind == sideCommit {
		e, ok, err := r.Lookup(side, dir)
		if err != nil || !ok || e.Mode != ModeTree {
			return nil, err
		}
		entries, err := r.readTree(e.ID)
		if err != nil {
			return nil, err
		}
		out := make([]Entry, 0, len(entries))
		for i := range entries {
			p := entries[i].name
			if dir != "" {
				p = dir + "/" + p
			}
			out = append(out, Entry{Path: p, Mode: entries[i].mode, ID: entries[i].id()})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		return out, nil
	}
	files, err := r.Files(side, dir, 1<<30)
	if err != nil {
		return nil, err
	}
	var out []Entry
	seen := map[string]bool{}
	for _, f := range files {
		rest := f.Path
		if dir != "" {
			rest = strings.TrimPrefix(f.Path, dir+"/")
		}
		name, _, sub := strings.Cut(rest, "/")
		if seen[name] {
			continue
		}
		seen[name] = true
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		if !sub {
			out = append(out, f)
			continue
		}
		out = append(out, Entry{Path: p, Mode: ModeTree})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// worktreePaths lists the work tree's candidate paths once per Repo.
func (r *Repo) worktreePaths() ([]string, error) {
	if r.wtListed {
		return r.wtPaths, nil
	}
	paths, ok, err := r.worktreePathsWalked()
	if err != nil {
		return nil, err
	}
	if !ok {
		if paths, err = r.be.worktreePaths(); err != nil {
			return nil, err
		}
	}
	r.wtPaths, r.wtListed = paths, true
	return paths, nil
}

// The most names untrackedCandidates may hand to git as pathspecs (and
// their bytes); beyond either, git lists the whole work tree itself.
const (
	maxUntrackedPathspecs     = 2000
	maxUntrackedPathspecBytes = 64 << 10
)

// worktreePathsWalked is what `git ls-files -c -o --exclude-standard`
// answers, for the git engine under a snapshot: the index's paths, plus
// git's own answer for the names the index does not account for
// (untrackedCandidates), only when there are any. The ignore rules stay
// git's. ok is false when the caller must ask git about everything.
func (r *Repo) worktreePathsWalked() ([]string, bool, error) {
	g, isGit := r.be.(*gitBackend)
	if !r.wt.on || !isGit {
		return nil, false, nil
	}
	idx, err := r.index()
	if err != nil {
		return nil, false, err
	}
	cands, ok := r.untrackedCandidates(idx)
	if !ok || len(cands) > maxUntrackedPathspecs {
		return nil, false, nil
	}
	size := 0
	for _, c := range cands {
		size += len(c) + len(":(literal)") + 1
	}
	if size > maxUntrackedPathspecBytes {
		return nil, false, nil
	}
	paths := make([]string, 0, len(idx.entries)+len(cands))
	for i, e := range idx.entries {
		if i == 0 || e.Path != idx.entries[i-1].Path {
			paths = append(paths, e.Path)
		}
	}
	if len(cands) > 0 {
		more, err := g.untrackedIn(cands)
		if err != nil {
			return nil, false, err
		}
		paths = append(paths, more...)
		sort.Strings(paths)
		paths = dedupSorted(paths)
	}
	return paths, true, nil
}
