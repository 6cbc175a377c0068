package gitscan

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// indexStat is the stat data git caches per index entry; a work tree file
// whose lstat still matches it (and is not racily clean) has the entry's
// blob id without being hashed, exactly as git decides.
// The times are kept as the index stores them (32-bit seconds and
// nanoseconds): no pointer for the collector to follow, 24 bytes an entry.
type indexStat struct {
	mtimeSec, mtimeNsec uint32
	ctimeSec, ctimeNsec uint32
	size                uint32
	ino                 uint32
}

func (st *indexStat) mtime() time.Time { return time.Unix(int64(st.mtimeSec), int64(st.mtimeNsec)) }
func (st *indexStat) ctime() time.Time { return time.Unix(int64(st.ctimeSec), int64(st.ctimeNsec)) }

// maxIndexSize bounds the index file gitscan reads (git's own indexes of
// the largest repositories are a few hundred megabytes).
const maxIndexSize = 1 << 30

// indexFile is a decoded index: its entries, in the file's order, and the
// valid directories of its cache-tree extension (TREE).
type indexFile struct {
	entries []Entry
	meta    []indexMeta // meta[i] is entries[i]'s
	trees   cacheTrees
}

// cacheTrees are the valid entries of an index's cache-tree extension, by
// directory path ("" the root): the tree id git would write for the index
// entries below it, and how many entries those are. A directory git has
// invalidated since (an entry below it added, removed or changed) is
// absent, as is every directory of an index without the extension.
type cacheTrees map[string]cacheTree

type cacheTree struct {
	id      string // hex
	entries int
}

// decodeIndex parses an index file (git's index-format.txt, versions 2-4,
// SHA-1 or SHA-256 ids). The cache-tree extension (TREE) is decoded;
// other optional extensions (an upper-case first letter: REUC, UNTR,
// FSMN, EOIE, IEOT...) are skipped; required ones it does not know, among
// them split index ("link") and sparse index ("sdir", whose entries are
// whole directories), are ErrUnsupported: answering from half an index
// would be answering wrongly.
func decodeIndex(data []byte, f objectFormat, name string) (indexFile, error) {
	bad := func(what string) error { return fmt.Errorf("%s: damaged index: %s", name, what) }
	hl := f.rawLen
	if len(data) < 12+hl || string(data[:4]) != "DIRC" {
		return indexFile{}, bad("no header")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return indexFile{}, fmt.Errorf("%s: index version %d: %w", name, version, errNativeUnsupported)
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	end := len(data) - hl // the trailing checksum
	if count > end/(40+hl) {
		return indexFile{}, bad("more entries than bytes")
	}
	out := make([]Entry, 0, count)
	// Every entry's stat data, hex id and path live in three shared
	// buffers, the ids and paths written once into builders whose
	// strings the entries slice (no copy of either at the end): an index
	// of 20,000 files costs a handful of allocations, not 60,000.
	meta := make([]indexMeta, count)
	var hexIDs, paths strings.Builder
	hexIDs.Grow(count * 2 * hl)
	paths.Grow(max(0, end-12-count*(40+hl+2)))
	pathEnd := make([]int, count)
	var hexBuf [2 * 32]byte
	prevStart, prevEnd := 0, 0
	pathless := false
	p := 12
	for k := 0; k < count; k++ {
		start := p
		if p+40+hl+2 > end {
			return indexFile{}, bad("truncated entry")
		}
		be := binary.BigEndian
		m := &meta[k]
		m.hasStat = true
		m.stat = indexStat{
			ctimeSec: be.Uint32(data[p:]), ctimeNsec: be.Uint32(data[p+4:]),
			mtimeSec: be.Uint32(data[p+8:]), mtimeNsec: be.Uint32(data[p+12:]),
			ino:  be.Uint32(data[p+20:]),
			size: be.Uint32(data[p+36:]),
		}
		rawMode := be.Uint32(data[p+24:])
		hexIDs.Write(hexBuf[:hex.Encode(hexBuf[:], data[p+40:p+40+hl])])
		p += 40 + hl
		flags := binary.BigEndian.Uint16(data[p:])
		p += 2
		skip, ita := false, false
		if flags&0x4000 != 0 {
			if version < 3 || p+2 > end {
				return indexFile{}, bad("extended flags")
			}
			ext := binary.BigEndian.Uint16(data[p:])
			skip, ita = ext&0x4000 != 0, ext&0x2000 != 0
			p += 2
		}
		pathStart := paths.Len()
		if version == 4 {
			strip, n := indexVarint(data[p:end])
			if n <= 0 || strip > uint64(prevEnd-prevStart) {
				return indexFile{}, bad("path prefix")
			}
			p += n
			nul := bytes.IndexByte(data[p:end], 0)
			if nul < 0 {
				return indexFile{}, bad("path")
			}
			paths.WriteString(paths.String()[prevStart : prevEnd-int(strip)])
			paths.Write(data[p : p+nul])
			p += nul + 1
		} else {
			nul := bytes.IndexByte(data[p:end], 0)
			if nul < 0 {
				return indexFile{}, bad("path")
			}
			paths.Write(data[p : p+nul])
			p += nul + 1
			// Entries are padded with NULs to a multiple of 8 bytes.
			for (p-start)%8 != 0 {
				if p >= end || data[p] != 0 {
					return indexFile{}, bad("padding")
				}
				p++
			}
		}
		prevStart, prevEnd = pathStart, paths.Len()
		pathEnd[k] = paths.Len()
		mode, ok := modeFromGit(rawMode)
		if !ok || mode == ModeTree {
			if mode == ModeTree {
				return indexFile{}, fmt.Errorf("%s: a sparse index (directory entries): %w", name, errNativeUnsupported)
			}
			return indexFile{}, fmt.Errorf("%s: %s: unknown mode %o", name, paths.String()[pathStart:], rawMode)
		}
		// An entry without a path is damage, unless a split index's
		// extension (refused below, with its own message) explains it:
		// there an entry names a shared-index entry it replaces.
		pathless = pathless || pathStart == paths.Len()
		m.stage, m.skipWorktree, m.intentToAdd = uint8(flags>>12)&3, skip, ita
		out = append(out, Entry{Mode: mode})
	}
	allPaths, allIDs := paths.String(), hexIDs.String()
	pathStart := 0
	for k := range out {
		e := &out[k]
		e.Path, e.ID = allPaths[pathStart:pathEnd[k]], allIDs[k*2*hl:(k+1)*2*hl]
		pathStart = pathEnd[k]
		if err := validPath(e.Path); err != nil {
			return indexFile{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	var trees cacheTrees
	for p+8 <= end {
		sig := string(data[p : p+4])
		size := int(binary.BigEndian.Uint32(data[p+4:]))
		if size < 0 || p+8+size > end {
			return indexFile{}, bad("extension " + strconv.Quote(sig))
		}
		if sig[0] < 'A' || sig[0] > 'Z' {
			what := "an index extension gitscan does not know (" + strconv.Quote(sig) + ")"
			switch sig {
			case "link":
				what = "a split index"
			case "sdir":
				what = "a sparse index"
			}
			return indexFile{}, fmt.Errorf("%s: %s: %w", name, what, errNativeUnsupported)
		}
		if sig == "TREE" {
			// Optional: a cache tree gitscan cannot read is one it does
			// not use (every directory's id is then computed).
			trees, _ = decodeCacheTree(data[p+8:p+8+size], hl)
		}
		p += 8 + size
	}
	if p != end {
		return indexFile{}, bad("trailing bytes")
	}
	if pathless {
		return indexFile{}, bad("an entry without a path")
	}
	return indexFile{entries: out, meta: meta, trees: trees}, nil
}

// decodeCacheTree decodes the cache-tree extension (index-format.txt):
// directories in pre-order, each "name NUL entry_count SP subtrees LF",
// then its tree id when entry_count is not negative (-1: invalidated),
// then its subtrees. Only valid directories are kept, by full path; a
// malformed extension is none at all (ok false).
func decodeCacheTree(b []byte, hl int) (trees cacheTrees, ok bool) {
	trees = cacheTrees{}
	var node func(dir string, depth int) bool
	node = func(dir string, depth int) bool {
		if depth > 4096 {
			return false
		}
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return false
		}
		name := string(b[:nul])
		b = b[nul+1:]
		lf := bytes.IndexByte(b, '\n')
		if lf < 0 {
			return false
		}
		countText, subText, ok := strings.Cut(string(b[:lf]), " ")
		b = b[lf+1:]
		count, err1 := strconv.Atoi(countText)
		subs, err2 := strconv.Atoi(subText)
		if !ok || err1 != nil || err2 != nil || count < -1 || subs < 0 || subs > len(b) {
			return false
		}
		p := name
		switch {
		case depth == 0:
			if name != "" {
				return false
			}
		case name == "" || strings.Contains(name, "/"):
			return false
		case dir != "":
			p = dir + "/" + name
		}
		if count >= 0 {
			if len(b) < hl {
				return false
			}
			trees[p] = cacheTree{id: hex.EncodeToString(b[:hl]), entries: count}
			b = b[hl:]
		}
		for range subs {
			if !node(p, depth+1) {
				return false
			}
		}
		return true
	}
	if !node("", 0) || len(b) != 0 {
		return nil, false
	}
	return trees, true
}

// indexVarint is the offset encoding of index v4 path prefixes.
func indexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, -1
	}
	c := b[0]
	v := uint64(c & 0x7f)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || v > 1<<40 {
			return 0, -1
		}
		c = b[i]
		i++
		v = ((v + 1) << 7) | uint64(c&0x7f)
	}
	return v, i
}

// readIndexFile reads and decodes an index file; absent is empty.
func readIndexFile(path string, f objectFormat) (indexFile, error) {
	data, err := gitobj.ReadSmallFile(path, maxIndexSize)
	if errors.Is(err, os.ErrNotExist) {
		return indexFile{}, nil
	}
	if err != nil {
		return indexFile{}, fmt.Errorf("index: %w", err)
	}
	return decodeIndex(data, f, path)
}

// indexCache keeps the parsed index while the index file is unchanged.
// Its entries, sorted by path then stage as git writes them, are the one
// table every question about the index looks up (by binary search, or by
// a cursor when the question comes in path order): no map of 20,000 paths
// is built for an evaluation that asks about each path once.
type indexCache struct {
	key      string
	entries  []Entry
	meta     []indexMeta // meta[i] is entries[i]'s
	unmerged bool        // some entry is at a stage other than 0
	trees    cacheTrees  // the index's cache tree (see treeFromIndex)
	mtime    time.Time   // of the index file: entries modified at or after it are racy
	side     []Entry     // memo of indexSide
}

// find returns the position of p's first entry (lowest stage), or of the
// first entry after p when it has none (ok false). Positions before from
// are not looked at: a caller asking in path order passes the last
// answer, and a path that is the next entry costs one comparison.
func (c *indexCache) find(p string, from int) (int, bool) {
	if c == nil {
		return 0, false
	}
	es := c.entries
	if from < 0 || from > len(es) || (from > 0 && es[from-1].Path >= p) {
		from = 0 // not asked in path order: search it all
	}
	if from < len(es) && es[from].Path >= p {
		return from, es[from].Path == p
	}
	i := from + sort.Search(len(es)-from, func(k int) bool { return es[from+k].Path >= p })
	return i, i < len(es) && es[i].Path == p
}

// stage0 is p's stage-0 entry.
func (c *indexCache) stage0(p string) (Entry, bool) {
	e, _, ok := c.stage0At(p, 0)
	return e, ok
}

// stage0At is stage0 with find's hint; it also returns the position.
func (c *indexCache) stage0At(p string, from int) (Entry, int, bool) {
	i, ok := c.find(p, from)
	if !ok || c.meta[i].stage != 0 {
		return Entry{}, i, false
	}
	return c.entries[i], i, true
}

// index returns the index entries (all stages, sorted by path then stage)
// and, when the engine can read them, the stat data of stage-0 entries.
func (r *Repo) index() (*indexCache, error) {
	if r.wt.on && r.idx.key != "" {
		return r.idx, nil // a snapshot reads the index once
	}
	fi, err := os.Stat(r.indexFile)
	key := "absent"
	if err == nil {
		key = fmt.Sprintf("%d:%d:%d", fi.Size(), fi.ModTime().UnixNano(), fileIno(fi))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("index: %w", err)
	}
	if r.idx.key == key && r.idx.key != "" {
		return r.idx, nil
	}
	ix, err := r.be.indexEntries()
	if err != nil {
		return nil, err
	}
	entries, meta := ix.entries, ix.meta
	less := func(i, j int) int {
		if c := strings.Compare(entries[i].Path, entries[j].Path); c != 0 {
			return c
		}
		return int(meta[i].stage) - int(meta[j].stage)
	}
	// git writes its index sorted: sort only one that is not.
	sorted := true
	for i := 1; i < len(entries) && sorted; i++ {
		sorted = less(i-1, i) <= 0
	}
	if !sorted {
		perm := make([]int, len(entries))
		for i := range perm {
			perm[i] = i
		}
		slices.SortStableFunc(perm, less)
		es, ms := make([]Entry, len(perm)), make([]indexMeta, len(perm))
		for k, i := range perm {
			es[k], ms[k] = entries[i], meta[i]
		}
		entries, meta = es, ms
	}
	c := &indexCache{key: key, entries: entries, meta: meta, trees: ix.trees}
	if fi != nil {
		c.mtime = fi.ModTime()
	}
	haveStat := false
	for i := range meta {
		haveStat = haveStat || meta[i].hasStat
		c.unmerged = c.unmerged || meta[i].stage != 0
	}
	if !haveStat && fi != nil {
		// The git engine lists entries with ls-files; take the stat data
		// from the file itself when gitscan can decode it. If it cannot
		// (split index...), every file is hashed: slower, never wrong.
		if dec, err := readIndexFile(r.indexFile, r.format); err == nil {
			for k, d := range dec.entries {
				if dec.meta[k].stage != 0 {
					continue
				}
				if i, ok := c.find(d.Path, 0); ok && meta[i].stage == 0 {
					meta[i].stat, meta[i].hasStat = dec.meta[k].stat, true
				}
			}
		}
	}
	r.idx = c
	return c, nil
}

// treeFromIndex is the index's cache-tree id for dir ("" the root) when
// entries, the files below dir as listed (sorted by path), are exactly
// the index's entries below it: as many as the cache tree counted, each
// at stage 0 and not intent-to-add, with the same path, mode and id. git
// invalidates a directory's cache tree whenever an entry below it
// changes; comparing the listing with the entries is what ties the id to
// the work tree too (an edited, new, removed or re-moded file differs).
func (c *indexCache) treeFromIndex(dir string, entries []Entry) (string, bool) {
	if c == nil || len(entries) == 0 {
		return "", false
	}
	ct, ok := c.trees[dir]
	if !ok || ct.entries != len(entries) {
		return "", false
	}
	// The index's entries below dir, all of them (not only as many as
	// the cache tree counted), are the listing's.
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	lo, hi := prefixRun(c.entries, prefix)
	if hi-lo != len(entries) {
		return "", false
	}
	for k := range entries {
		ie, m := &c.entries[lo+k], &c.meta[lo+k]
		if m.stage != 0 || m.intentToAdd || ie.Path != entries[k].Path ||
			ie.Mode != entries[k].Mode || ie.ID != entries[k].ID {
			return "", false
		}
	}
	return ct.id, true
}

// indexSide is the Index side as a flat, sorted list: for an unmerged path
// the first present of stages 2 ("ours"), 3 and 1.
// Without unmerged entries that is the entries themselves (capped: an
// append never writes into them), no copy of the index.
func (c *indexCache) indexSide() []Entry {
	if !c.unmerged {
		return c.entries[:len(c.entries):len(c.entries)]
	}
	if c.side != nil {
		return c.side
	}
	out := []Entry{}
	for i := 0; i < len(c.entries); {
		j := i
		for j < len(c.entries) && c.entries[j].Path == c.entries[i].Path {
			j++
		}
		best := -1
		for _, want := range []uint8{0, 2, 3, 1} {
			for k := i; k < j; k++ {
				if c.meta[k].stage == want {
					best = k
					break
				}
			}
			if best >= 0 {
				break
			}
		}
		if best < 0 {
			best = i
		}
		out = append(out, c.entries[best])
		i = j
	}
	c.side = out
	return out
}
