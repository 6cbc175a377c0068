package gitscan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
)

// surfaceCache remembers the surfaces of a few recently seen root trees in
// $GIT_COMMON_DIR/mcp-guard/surfaces.v1, so the git hook does not list a
// whole tree on every checkout. Trees are immutable, so an entry keyed by
// tree id never goes stale; the file is still treated as untrusted input:
// it is size-capped, checksummed and every entry re-validated (ids, paths,
// kinds, order) on read, and any defect makes the whole file count as
// absent. Writes go to a temporary file renamed into place (atomic on
// POSIX), so a reader sees the old file or the new one, never a mix.
type surfaceCache struct {
	path    string
	format  objectFormat
	entries []cacheEntry
}

const (
	cacheVersion    = 1
	cacheMaxEntries = 8
	cacheMaxBytes   = 8 << 20
)

type cacheFile struct {
	Version int          `json:"version"`
	Format  string       `json:"format"`
	Entries []cacheEntry `json:"entries"`
	Sum     string       `json:"sum"`
}

type cacheEntry struct {
	Tree     string         `json:"tree"`
	Surfaces []cacheSurface `json:"surfaces"`
	Skipped  []string       `json:"skipped"`
}

type cacheSurface struct {
	Path string `json:"path"`
	Mode Mode   `json:"mode"`
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
}

func openSurfaceCache(commonDir string, f objectFormat) *surfaceCache {
	c := &surfaceCache{path: filepath.Join(commonDir, "mcp-guard", "surfaces.v1"), format: f}
	c.entries = c.load()
	return c
}

func entriesSum(entries []cacheEntry) string {
	b, _ := json.Marshal(entries)
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
	if dec.Decode(&cf) != nil || cf.Version != cacheVersion || cf.Format != c.format.name ||
		len(cf.Entries) > cacheMaxEntries || cf.Sum != entriesSum(cf.Entries) {
		return nil
	}
	for _, e := range cf.Entries {
		if !c.valid(e) {
			return nil
		}
	}
	return cf.Entries
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
		if k, ok := isSurfaceEntry(s.Path, s.Mode); !ok || k != s.Kind {
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
	return true
}

func (c *surfaceCache) get(tree string) ([]Surface, []string, bool) {
	for _, e := range c.entries {
		if e.Tree == tree {
			s, sk := e.decode()
			return s, sk, true
		}
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
		s = append(s, Surface{Entry: Entry{Path: cs.Path, Mode: cs.Mode, ID: cs.ID}, Kind: cs.Kind})
	}
	return s, append([]string(nil), e.Skipped...)
}

// put stores an entry and rewrites the file atomically; failures are
// ignored (the cache is an optimisation).
func (c *surfaceCache) put(tree string, s []Surface, sk []string) {
	e := cacheEntry{Tree: tree, Surfaces: []cacheSurface{}, Skipped: []string{}}
	for _, v := range s {
		e.Surfaces = append(e.Surfaces, cacheSurface{Path: v.Path, Mode: v.Mode, ID: v.ID, Kind: v.Kind})
	}
	e.Skipped = append(e.Skipped, sk...)
	sort.Slice(e.Surfaces, func(i, j int) bool { return e.Surfaces[i].Path < e.Surfaces[j].Path })
	sort.Strings(e.Skipped)
	if !c.valid(e) {
		return
	}
	var kept []cacheEntry
	for _, old := range c.entries {
		if old.Tree != tree {
			kept = append(kept, old)
		}
	}
	kept = append(kept, e)
	if len(kept) > cacheMaxEntries {
		kept = kept[len(kept)-cacheMaxEntries:]
	}
	c.entries = kept
	cf := cacheFile{Version: cacheVersion, Format: c.format.name, Entries: kept, Sum: entriesSum(kept)}
	b, err := json.Marshal(cf)
	if err != nil || len(b) > cacheMaxBytes {
		return
	}
	dir := filepath.Dir(c.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "surfaces.tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), c.path) != nil {
		os.Remove(tmp.Name())
	}
}
