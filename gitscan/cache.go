package gitscan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
)

// surfaceCache remembers, for a few recently seen root trees, their
// surfaces and the dependency lists callers recorded (see Dependencies),
// in $GIT_COMMON_DIR/mcp-guard/trees.v2, so the git hook neither lists a
// whole tree nor re-reads unchanged configurations on every checkout.
// Trees are immutable, so an entry keyed by tree id never goes stale; the
// file is still treated as untrusted input: it is size-capped, checksummed
// and every entry re-validated (ids, paths, kinds, order) on read, and any
// defect makes the whole file count as absent. Changes are written once,
// when the repository is closed, to a temporary file renamed into place
// (atomic on POSIX), so a reader sees the old file or the new one, never a
// mix.
//
// It also remembers the root commits of the last few HEADs (Identity):
// the launch gate asks for them on every agent start, and finding them
// walks the whole history (a first `mcp-guard check` at a new HEAD takes
// 36 ms in BENCHMARKS.md's 50,000-commit clone with a commit-graph, 7.5 ms
// once the roots are remembered; seconds at the Linux kernel's size). A commit's roots never change
// (Identity does not use the cache in a shallow repository, where
// deepening would change them).
type surfaceCache struct {
	path    string
	format  objectFormat
	entries []cacheEntry
	roots   []rootsEntry
	dirty   bool
}

type rootsEntry struct {
	Commit string   `json:"commit"`
	Roots  []string `json:"roots"`
}

const (
	cacheVersion    = 5
	cacheFileName   = "trees.v2"
	cacheMaxEntries = 8
	cacheMaxBytes   = 8 << 20
	// cacheMaxDeps bounds one dependency list (paths).
	cacheMaxDeps = 1 << 14
	// cacheMaxRoots bounds the HEADs whose roots are kept, and the roots
	// of one HEAD.
	cacheMaxRoots   = 8
	maxRootsPerHead = 1 << 10
)

type cacheFile struct {
	Version int    `json:"version"`
	Format  string `json:"format"`
	// Taxonomy is surface.Digest() when the file was written: a tree's
	// surfaces depend on what is declared a surface, so a file written
	// under other declarations counts as absent.
	Taxonomy string       `json:"taxonomy"`
	Entries  []cacheEntry `json:"entries"`
	Roots    []rootsEntry `json:"roots,omitempty"`
	Sum      string       `json:"sum"`
}

type cacheEntry struct {
	Tree     string              `json:"tree"`
	Surfaces []cacheSurface      `json:"surfaces"`
	Skipped  []string            `json:"skipped"`
	Deps     map[string][]string `json:"deps,omitempty"`
}

// cacheSurface is one surface of a tree. Its kind is not stored: it is
// what the surface registry says of the path now (the file is keyed by the
// registry's digest, so a kind never changes under a stored entry).
type cacheSurface struct {
	Path string `json:"path"`
	Mode Mode   `json:"mode"`
	ID   string `json:"id"`
}

func openSurfaceCache(commonDir string, f objectFormat) *surfaceCache {
	c := &surfaceCache{path: filepath.Join(commonDir, "mcp-guard", cacheFileName), format: f}
	c.entries = c.load()
	return c
}

func entriesSum(entries []cacheEntry, roots []rootsEntry) string {
	b, _ := json.Marshal(entries)
	if len(roots) > 0 {
		r, _ := json.Marshal(roots)
		b = append(b, r...)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// load reads and validates the file; any problem yields no entries.
func (c *surfaceCache) load() []cacheEntry {
	fi, err := os.Lstat(c.path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > cacheMaxBytes {
		return nil
	}
	b, err := os.ReadFile(c.path)
	if err != nil {
		return nil
	}
	var cf cacheFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if dec.Decode(&cf) != nil || cf.Version != cacheVersion || cf.Format != c.format.name || cf.Taxonomy != surface.Digest() ||
		len(cf.Entries) > cacheMaxEntries || len(cf.Roots) > cacheMaxRoots || cf.Sum != entriesSum(cf.Entries, cf.Roots) {
		return nil
	}
	for _, e := range cf.Entries {
		if !c.valid(e) {
			return nil
		}
	}
	for _, e := range cf.Roots {
		if !c.validRoots(e) {
			return nil
		}
	}
	c.roots = cf.Roots
	return cf.Entries
}

func (c *surfaceCache) validRoots(e rootsEntry) bool {
	if !c.format.validID(e.Commit) || len(e.Roots) == 0 || len(e.Roots) > maxRootsPerHead {
		return false
	}
	for i, r := range e.Roots {
		if !c.format.validID(r) || (i > 0 && e.Roots[i-1] >= r) {
			return false
		}
	}
	return true
}

// rootsOf returns the root commits recorded for commit.
func (c *surfaceCache) rootsOf(commit string) ([]string, bool) {
	for _, e := range c.roots {
		if e.Commit == commit {
			return append([]string(nil), e.Roots...), true
		}
	}
	return nil, false
}

// putRoots records the root commits of commit (sorted) as the most recent.
func (c *surfaceCache) putRoots(commit string, roots []string) {
	e := rootsEntry{Commit: commit, Roots: append([]string(nil), roots...)}
	if !c.validRoots(e) {
		return
	}
	c.roots = keepLast(c.roots, e, func(old rootsEntry) bool { return old.Commit == commit }, cacheMaxRoots)
	c.dirty = true
}

// keepLast appends e to list as its most recent element, dropping the
// elements same reports and the oldest beyond max.
func keepLast[T any](list []T, e T, same func(T) bool, max int) []T {
	var kept []T
	for _, old := range list {
		if !same(old) {
			kept = append(kept, old)
		}
	}
	kept = append(kept, e)
	if len(kept) > max {
		kept = kept[len(kept)-max:]
	}
	return kept
}

func (c *surfaceCache) valid(e cacheEntry) bool {
	if !c.format.validID(e.Tree) {
		return false
	}
	for i, s := range e.Surfaces {
		if validPath(s.Path) != nil || s.Path == "" || !c.format.validID(s.ID) || s.Mode == ModeTree || s.Mode == ModeSubmodule {
			return false
		}
		if _, ok := modeFromGit(s.Mode.gitMode()); !ok || s.Mode.gitMode() == 0 {
			return false
		}
		if _, ok := isSurfaceEntry(s.Path, s.Mode); !ok {
			return false
		}
		if i > 0 && e.Surfaces[i-1].Path >= s.Path {
			return false
		}
	}
	for i, p := range e.Skipped {
		if validPath(p) != nil || p == "" || (i > 0 && e.Skipped[i-1] >= p) {
			return false
		}
	}
	if len(e.Deps) > 16 {
		return false
	}
	for k, paths := range e.Deps {
		if k == "" || len(k) > 128 || len(paths) > cacheMaxDeps {
			return false
		}
		for i, p := range paths {
			if validPath(p) != nil || p == "" || (i > 0 && paths[i-1] >= p) {
				return false
			}
		}
	}
	return true
}

func (c *surfaceCache) find(tree string) *cacheEntry {
	for i := range c.entries {
		if c.entries[i].Tree == tree {
			return &c.entries[i]
		}
	}
	return nil
}

func (c *surfaceCache) get(tree string) ([]Surface, []string, bool) {
	if e := c.find(tree); e != nil {
		s, sk := e.decode()
		return s, sk, true
	}
	return nil, nil, false
}

// latest is the most recently stored entry.
func (c *surfaceCache) latest() (tree string, s []Surface, sk []string, ok bool) {
	if len(c.entries) == 0 {
		return "", nil, nil, false
	}
	e := c.entries[len(c.entries)-1]
	s, sk = e.decode()
	return e.Tree, s, sk, true
}

func (e cacheEntry) decode() ([]Surface, []string) {
	var s []Surface
	for _, cs := range e.Surfaces {
		k, _ := isSurfaceEntry(cs.Path, cs.Mode) // valid: a surface
		s = append(s, Surface{Entry: Entry{Path: cs.Path, Mode: cs.Mode, ID: cs.ID}, Kind: k})
	}
	return s, append([]string(nil), e.Skipped...)
}

// put stores the surfaces of tree (keeping its dependency lists) as the
// most recent entry.
func (c *surfaceCache) put(tree string, s []Surface, sk []string) {
	e := cacheEntry{Tree: tree, Surfaces: []cacheSurface{}, Skipped: []string{}}
	for _, v := range s {
		e.Surfaces = append(e.Surfaces, cacheSurface{Path: v.Path, Mode: v.Mode, ID: v.ID})
	}
	e.Skipped = append(e.Skipped, sk...)
	sort.Slice(e.Surfaces, func(i, j int) bool { return e.Surfaces[i].Path < e.Surfaces[j].Path })
	sort.Strings(e.Skipped)
	if old := c.find(tree); old != nil {
		e.Deps = old.Deps
		if sameSurfaces(*old, e) {
			return // already known: nothing to write
		}
	}
	if !c.valid(e) {
		return
	}
	c.store(e)
}

func sameSurfaces(a, b cacheEntry) bool {
	if len(a.Surfaces) != len(b.Surfaces) || len(a.Skipped) != len(b.Skipped) {
		return false
	}
	for i := range a.Surfaces {
		if a.Surfaces[i] != b.Surfaces[i] {
			return false
		}
	}
	for i := range a.Skipped {
		if a.Skipped[i] != b.Skipped[i] {
			return false
		}
	}
	return true
}

// setDeps records a dependency list for a tree already in the cache.
func (c *surfaceCache) setDeps(tree, key string, paths []string) bool {
	old := c.find(tree)
	if old == nil {
		return false
	}
	if d, ok := old.Deps[key]; ok && strings.Join(d, "\x00") == strings.Join(paths, "\x00") {
		return true // already recorded: nothing to write
	}
	e := *old
	e.Deps = map[string][]string{}
	for k, v := range old.Deps {
		e.Deps[k] = v
	}
	e.Deps[key] = paths
	if !c.valid(e) {
		return false
	}
	c.store(e)
	return true
}

func (c *surfaceCache) deps(tree, key string) ([]string, bool) {
	if e := c.find(tree); e != nil {
		if d, ok := e.Deps[key]; ok {
			return append([]string(nil), d...), true
		}
	}
	return nil, false
}

func (c *surfaceCache) store(e cacheEntry) {
	c.entries = keepLast(c.entries, e, func(old cacheEntry) bool { return old.Tree == e.Tree }, cacheMaxEntries)
	c.dirty = true
}

// flush writes the file if anything changed; failures are ignored (the
// cache is an optimisation: a read-only repository still works).
func (c *surfaceCache) flush() {
	if !c.dirty {
		return
	}
	c.dirty = false
	cf := cacheFile{Version: cacheVersion, Format: c.format.name, Taxonomy: surface.Digest(), Entries: c.entries, Roots: c.roots, Sum: entriesSum(c.entries, c.roots)}
	b, err := json.Marshal(cf)
	if err != nil || len(b) > cacheMaxBytes {
		return
	}
	dir := filepath.Dir(c.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "trees.tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), c.path) != nil {
		os.Remove(tmp.Name())
		return
	}
	os.Remove(filepath.Join(dir, "surfaces.v1")) // the first version's file
}
