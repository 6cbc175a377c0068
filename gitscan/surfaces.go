package gitscan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
)

// Surfaces lists every agentty surface at side, sorted by path: the files
// surface.Of recognises at any depth, plus non-directory entries standing where
// a surface directory belongs (surface.KindLinkedDir). Symlinks are reported with
// ModeSymlink and never followed. Submodules (gitlinks) are not entered:
// their paths are returned in skipped, as are untracked nested
// repositories in the work tree. FIFOs, devices and sockets are invisible
// to git's enumeration, but where one (or a directory) stands at a surface
// file's path in the work tree, it is listed with ModeSpecial (see
// specialSurfaces; ReadBlob on such a path is ErrNotRegular), since an
// agent started there tries to read it.
//
// Commit sides: the result is cached in the git directory keyed by root
// tree id (see surfaceCache); on a miss it is derived from a cached tree by
// the pruned comparison when that is cheap, else listed in full. The work
// tree is enumerated as tracked plus untracked-not-ignored files: with the
// git engine by `git ls-files -co --exclude-standard`, with the
// in-process engine by a directory walk honouring .gitignore files, info/exclude and
// core.excludesFile only (see walkWorktree). Untracked files the ignore
// rules hide are surfaces all the same when they match the surface patterns
// (agentty reads a gitignored `.agentty/mcp.json` like any other): they are
// listed too, by `git ls-files -o -i --exclude-standard -- <surface
// pathspecs>` or by walking the ignored directories (nested repositories
// are never entered).
func (r *Repo) Surfaces(side Side) (surfaces []Surface, skipped []string, err error) {
	switch side.kind {
	case sideEmpty:
		return nil, nil, nil
	case sideCommit:
		return r.commitSurfaces(side.tree)
	case sideIndex:
		idx, err := r.index()
		if err != nil {
			return nil, nil, err
		}
		s, sk := surfacesOf(idx.indexSide())
		return s, sk, nil
	case sideWorkTree:
		return r.worktreeSurfaces()
	}
	return nil, nil, fmt.Errorf("side %v: unknown", side)
}

// surfacesOf filters a sorted flat list.
func surfacesOf(entries []Entry) (surfaces []Surface, skipped []string) {
	for _, e := range entries {
		if e.Mode == ModeSubmodule {
			skipped = append(skipped, e.Path)
			continue
		}
		if k, ok := isSurfaceEntry(e.Path, e.Mode); ok {
			surfaces = append(surfaces, Surface{Entry: e, Kind: k})
		}
	}
	return surfaces, skipped
}

// treeCache opens the cache file on first use (nil WithoutCache).
func (r *Repo) surfCache() *surfaceCache {
	if r.opts.noCache {
		return nil
	}
	if r.cache == nil {
		r.cache = openSurfaceCache(r.commonDir, r.format)
	}
	return r.cache
}

func (r *Repo) commitSurfaces(tree string) ([]Surface, []string, error) {
	cache := r.surfCache()
	if cache != nil {
		if s, sk, ok := cache.get(tree); ok {
			return s, sk, nil
		}
	}
	s, sk, derived, err := r.deriveSurfaces(cache, tree)
	if err != nil {
		return nil, nil, err
	}
	if !derived {
		entries, err := r.flatTree(tree)
		if err != nil {
			return nil, nil, err
		}
		s, sk = surfacesOf(entries)
	}
	if cache != nil {
		cache.put(tree, s, sk) // written when the repository is closed
	}
	return s, sk, nil
}

// Dependencies returns the repository paths a caller recorded for the tree
// of a commit side with SetDependencies under key: typically every path
// whose entry its answer about that tree depends on, so that when a later
// comparison changes none of them (and no surface), the answer is known
// without reading anything. ok is false when nothing is recorded (other
// sides, WithoutCache, a cache that was dropped or damaged).
func (r *Repo) Dependencies(side Side, key string) (paths []string, ok bool) {
	cache := r.surfCache()
	if side.kind != sideCommit || cache == nil {
		return nil, false
	}
	return cache.deps(side.tree, key)
}

// SetDependencies records paths for the tree of a commit side under key
// (a short name that changes whenever the caller's rules change). It is
// kept with the tree's surfaces in the cache file (written at Close), so
// Surfaces(side) must have been called first; otherwise, or for other
// sides, or past the cache's bounds, it records nothing.
func (r *Repo) SetDependencies(side Side, key string, paths []string) {
	cache := r.surfCache()
	if side.kind != sideCommit || cache == nil {
		return
	}
	p := append([]string(nil), paths...)
	sort.Strings(p)
	cache.setDeps(side.tree, key, dedupSorted(p))
}

// IsSurface reports whether an entry is an agentty surface, and of which
// kind: surface.Of for files, surface.KindLinkedDir for a non-directory entry where a
// surface directory belongs. A change to a surface (either side of it) is
// what callers must never take for "nothing relevant changed".
func IsSurface(e Entry) (surface.Kind, bool) { return isSurfaceEntry(e.Path, e.Mode) }

// maxDeriveReads bounds the pruned comparison used to derive a tree's
// surfaces from a cached one: past it, listing the tree is cheaper.
const maxDeriveReads = 2000

// deriveSurfaces computes the surfaces of tree from the most recently
// cached tree plus the changes between the two (the hook case: the tree
// before a pull is cached, the one after differs by what the pull changed).
func (r *Repo) deriveSurfaces(cache *surfaceCache, tree string) ([]Surface, []string, bool, error) {
	if cache == nil {
		return nil, nil, false, nil
	}
	var base string
	var s0 []Surface
	var sk0 []string
	var changes []Change
	if m := r.lastChanges; m != nil && m.to == tree {
		// The comparison just made (the hook: ORIG_HEAD to HEAD) leads
		// here from a tree whose surfaces are known: no reads at all.
		if s, sk, ok := cache.get(m.from); ok {
			base, s0, sk0, changes = m.from, s, sk, m.changes
		}
	}
	if base == "" {
		var ok bool
		if base, s0, sk0, ok = cache.latest(); !ok {
			return nil, nil, false, nil
		}
		budget := &budgetFilter{left: maxDeriveReads}
		err := r.diffTrees("", base, tree, budget, &changes)
		if errors.Is(err, errBudget) {
			return nil, nil, false, nil
		}
		if err != nil {
			return nil, nil, false, err
		}
	}
	byPath := map[string]Surface{}
	for _, s := range s0 {
		byPath[s.Path] = s
	}
	skip := map[string]bool{}
	for _, p := range sk0 {
		skip[p] = true
	}
	for _, c := range changes {
		delete(byPath, c.Path)
		delete(skip, c.Path)
		if c.New == nil {
			continue
		}
		if c.New.Mode == ModeSubmodule {
			skip[c.Path] = true
		} else if k, ok := isSurfaceEntry(c.Path, c.New.Mode); ok {
			byPath[c.Path] = Surface{Entry: *c.New, Kind: k}
		}
	}
	var s []Surface
	for _, v := range byPath {
		s = append(s, v)
	}
	sort.Slice(s, func(i, j int) bool { return s[i].Path < s[j].Path })
	var sk []string
	for p := range skip {
		sk = append(sk, p)
	}
	sort.Strings(sk)
	return s, sk, true, nil
}

var errBudget = errors.New("read budget exhausted")

// budgetFilter lets a comparison descend everywhere, counting directories,
// and stops it once the budget is spent.
type budgetFilter struct{ left int }

func (b *budgetFilter) descend(string) bool     { b.left--; return true }
func (b *budgetFilter) match(string, Mode) bool { return true }
func (b *budgetFilter) exhausted() bool         { return b.left < 0 }
func (r *Repo) checkBudget(f pathFilter) error {
	if b, ok := f.(*budgetFilter); ok && b.exhausted() {
		return errBudget
	}
	return nil
}

func (r *Repo) worktreeSurfaces() ([]Surface, []string, error) {
	idx, err := r.index()
	if err != nil {
		return nil, nil, err
	}
	paths, err := r.worktreePaths()
	if err != nil {
		return nil, nil, err
	}
	ignored, err := r.be.ignoredSurfacePaths()
	if err != nil {
		return nil, nil, err
	}
	paths = append(paths, ignored...)
	sort.Strings(paths)
	paths = dedupSorted(paths)
	var out []Surface
	var skipped []string
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			skipped = append(skipped, strings.TrimSuffix(p, "/"))
			continue
		}
		if e, ok := idx.stage0(p); ok && e.Mode == ModeSubmodule {
			skipped = append(skipped, p)
			continue
		}
		fi, err := r.lstatPath(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		mode := fileMode(fi)
		if mode == 0 {
			// A directory or FIFO where a tracked file was.
			if k, ok := surface.Of(p); ok {
				out = append(out, Surface{Entry: Entry{Path: p, Mode: ModeSpecial}, Kind: k})
			}
			continue
		}
		k, ok := isSurfaceEntry(p, mode)
		if !ok {
			continue
		}
		e, ok, err := r.worktreeEntry(p, idx)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			out = append(out, Surface{Entry: e, Kind: k})
		}
	}
	out = append(out, r.specialSurfaces(paths, out)...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	sort.Strings(skipped)
	return out, skipped, nil
}

// specialSurfaces finds what git's listing cannot show: a FIFO, device,
// socket or empty directory standing where a surface file of a fixed name
// (`.agentty/mcp.json`, `.mcp.json`, …) belongs, in the root or any
// directory the listing holds files in, that is not among found. Its
// directory must be a real one (a symlinked `.agentty` is a surface of its
// own). Such a path is what an agent started there tries to read, so it is
// reported (ModeSpecial), never taken for absent.
func (r *Repo) specialSurfaces(paths []string, found []Surface) []Surface {
	have := make(map[string]bool, len(found))
	for _, s := range found {
		have[s.Path] = true
	}
	dirs := map[string]bool{"": true}
	for _, p := range paths {
		for d := path.Dir(strings.TrimSuffix(p, "/")); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	var out []Surface
	for d := range dirs {
		if d != "" && asciiEqualFold(path.Base(d), ".git") {
			continue
		}
		for sub, names := range fixedSurfaceNames() {
			base := filepath.Join(r.top, filepath.FromSlash(d))
			if sub != "" {
				fi, err := os.Lstat(filepath.Join(base, sub))
				if err != nil || !fi.IsDir() {
					continue
				}
			}
			for _, name := range names {
				p := path.Join(d, sub, name)
				if have[p] {
					continue
				}
				fi, err := os.Lstat(filepath.Join(r.top, filepath.FromSlash(p)))
				if err != nil || fileMode(fi) != 0 {
					continue
				}
				if k, ok := surface.Of(p); ok {
					out = append(out, Surface{Entry: Entry{Path: p, Mode: ModeSpecial}, Kind: k})
				}
			}
		}
	}
	return out
}

// fixedSurfaceNames are the surface files of a fixed name that can be in
// any directory (`**/.agentty/mcp.json`), by their directory below it ("",
// ".agentty", ".vscode", …).
func fixedSurfaceNames() map[string][]string {
	out := map[string][]string{}
	for _, k := range surface.Kinds() {
		for _, pat := range k.Spec().Patterns {
			rest, ok := strings.CutPrefix(pat, "**/")
			if !ok || strings.ContainsAny(rest, "*?[\\") || strings.Count(rest, "/") > 1 {
				continue
			}
			dir, name := path.Split(rest)
			out[strings.TrimSuffix(dir, "/")] = append(out[strings.TrimSuffix(dir, "/")], name)
		}
	}
	return out
}
