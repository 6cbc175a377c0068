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

// decodeIndex parses an index file (git's index-format.txt, versions 2-4,
// SHA-1 or SHA-256 ids). Optional extensions (an upper-case first letter:
// TREE, REUC, UNTR, FSMN, EOIE, IEOT...) are skipped; required ones it
// does not know, among them split index ("link") and sparse index
// ("sdir", whose entries are whole directories), are ErrUnsupported:
// answering from half an index would be answering wrongly.
func decodeIndex(data []byte, f objectFormat, name string) ([]indexEntry, error) {
	bad := func(what string) error { return fmt.Errorf("%s: damaged index: %s", name, what) }
	hl := f.rawLen
	if len(data) < 12+hl || string(data[:4]) != "DIRC" {
		return nil, bad("no header")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("%s: index version %d: %w", name, version, errNativeUnsupported)
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	end := len(data) - hl // the trailing checksum
	if count > end/(40+hl) {
		return nil, bad("more entries than bytes")
	}
	out := make([]indexEntry, 0, count)
	// Every entry's stat data, hex id and path live in three shared
	// buffers (the paths' and ids' converted to one string each at the
	// end): an index of 20,000 files costs a handful of allocations, not
	// 60,000.
	stats := make([]indexStat, count)
	hexIDs := make([]byte, count*2*hl)
	paths := make([]byte, 0, max(0, end-12-count*(40+hl+2)))
	pathEnd := make([]int, count)
	prevStart, prevEnd := 0, 0
	pathless := false
	p := 12
	for k := 0; k < count; k++ {
		start := p
		if p+40+hl+2 > end {
			return nil, bad("truncated entry")
		}
		be := binary.BigEndian
		st := &stats[k]
		*st = indexStat{
			ctimeSec: be.Uint32(data[p:]), ctimeNsec: be.Uint32(data[p+4:]),
			mtimeSec: be.Uint32(data[p+8:]), mtimeNsec: be.Uint32(data[p+12:]),
			ino:  be.Uint32(data[p+20:]),
			size: be.Uint32(data[p+36:]),
		}
		rawMode := be.Uint32(data[p+24:])
		hex.Encode(hexIDs[k*2*hl:], data[p+40:p+40+hl])
		p += 40 + hl
		flags := binary.BigEndian.Uint16(data[p:])
		p += 2
		skip := false
		if flags&0x4000 != 0 {
			if version < 3 || p+2 > end {
				return nil, bad("extended flags")
			}
			ext := binary.BigEndian.Uint16(data[p:])
			skip = ext&0x4000 != 0
			p += 2
		}
		pathStart := len(paths)
		if version == 4 {
			strip, n := indexVarint(data[p:end])
			if n <= 0 || strip > uint64(prevEnd-prevStart) {
				return nil, bad("path prefix")
			}
			p += n
			nul := bytes.IndexByte(data[p:end], 0)
			if nul < 0 {
				return nil, bad("path")
			}
			paths = append(paths, paths[prevStart:prevEnd-int(strip)]...)
			paths = append(paths, data[p:p+nul]...)
			p += nul + 1
		} else {
			nul := bytes.IndexByte(data[p:end], 0)
			if nul < 0 {
				return nil, bad("path")
			}
			paths = append(paths, data[p:p+nul]...)
			p += nul + 1
			// Entries are padded with NULs to a multiple of 8 bytes.
			for (p-start)%8 != 0 {
				if p >= end || data[p] != 0 {
					return nil, bad("padding")
				}
				p++
			}
		}
		prevStart, prevEnd = pathStart, len(paths)
		pathEnd[k] = len(paths)
		mode, ok := modeFromGit(rawMode)
		if !ok || mode == ModeTree {
			if mode == ModeTree {
				return nil, fmt.Errorf("%s: a sparse index (directory entries): %w", name, errNativeUnsupported)
			}
			return nil, fmt.Errorf("%s: %s: unknown mode %o", name, paths[pathStart:], rawMode)
		}
		// An entry without a path is damage, unless a split index's
		// extension (refused below, with its own message) explains it:
		// there an entry names a shared-index entry it replaces.
		pathless = pathless || pathStart == len(paths)
		out = append(out, indexEntry{
			Entry:        Entry{Mode: mode},
			stage:        int(flags>>12) & 3,
			skipWorktree: skip,
			stat:         st,
		})
	}
	allPaths, allIDs := string(paths), string(hexIDs)
	pathStart := 0
	for k := range out {
		e := &out[k].Entry
		e.Path, e.ID = allPaths[pathStart:pathEnd[k]], allIDs[k*2*hl:(k+1)*2*hl]
		pathStart = pathEnd[k]
		if err := validPath(e.Path); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for p+8 <= end {
		sig := string(data[p : p+4])
		size := int(binary.BigEndian.Uint32(data[p+4:]))
		if size < 0 || p+8+size > end {
			return nil, bad("extension " + strconv.Quote(sig))
		}
		if sig[0] < 'A' || sig[0] > 'Z' {
			what := "an index extension gitscan does not know (" + strconv.Quote(sig) + ")"
			switch sig {
			case "link":
				what = "a split index"
			case "sdir":
				what = "a sparse index"
			}
			return nil, fmt.Errorf("%s: %s: %w", name, what, errNativeUnsupported)
		}
		p += 8 + size
	}
	if p != end {
		return nil, bad("trailing bytes")
	}
	if pathless {
		return nil, bad("an entry without a path")
	}
	return out, nil
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
func readIndexFile(path string, f objectFormat) ([]indexEntry, error) {
	data, err := gitobj.ReadSmallFile(path, maxIndexSize)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return decodeIndex(data, f, path)
}

// indexCache keeps the parsed index while the index file is unchanged.
// Its entries, sorted by path then stage as git writes them, are the one
// table every question about the index looks up (by binary search, or by
// a cursor when the question comes in path order): no map of 20,000 paths
// is built for an evaluation that asks about each path once.
type indexCache struct {
	key     string
	entries []indexEntry
	mtime   time.Time // of the index file: entries modified at or after it are racy
	side    []Entry   // memo of indexSide
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
	if !ok || c.entries[i].stage != 0 {
		return Entry{}, i, false
	}
	return c.entries[i].Entry, i, true
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
	entries, err := r.be.indexEntries()
	if err != nil {
		return nil, err
	}
	less := func(a, b indexEntry) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return a.stage - b.stage
	}
	// git writes its index sorted: sort only one that is not.
	if !slices.IsSortedFunc(entries, less) {
		slices.SortStableFunc(entries, less)
	}
	c := &indexCache{key: key, entries: entries}
	if fi != nil {
		c.mtime = fi.ModTime()
	}
	haveStat := false
	for _, e := range entries {
		if e.stat != nil {
			haveStat = true
			break
		}
	}
	if !haveStat && fi != nil {
		// The git engine lists entries with ls-files; take the stat data
		// from the file itself when gitscan can decode it. If it cannot
		// (split index...), every file is hashed: slower, never wrong.
		if dec, err := readIndexFile(r.indexFile, r.format); err == nil {
			for _, d := range dec {
				if d.stage != 0 {
					continue
				}
				if i, ok := c.find(d.Path, 0); ok && entries[i].stage == 0 {
					entries[i].stat = d.stat
				}
			}
		}
	}
	r.idx = c
	return c, nil
}

// indexSide is the Index side as a flat, sorted list: for an unmerged path
// the first present of stages 2 ("ours"), 3 and 1.
func (c *indexCache) indexSide() []Entry {
	if c.side != nil {
		return c.side
	}
	out := []Entry{}
	for i := 0; i < len(c.entries); {
		j := i
		for j < len(c.entries) && c.entries[j].Path == c.entries[i].Path {
			j++
		}
		group := c.entries[i:j]
		best := -1
		for _, want := range []int{0, 2, 3, 1} {
			for k, e := range group {
				if e.stage == want {
					best = k
					break
				}
			}
			if best >= 0 {
				break
			}
		}
		if best < 0 {
			best = 0
		}
		out = append(out, group[best].Entry)
		i = j
	}
	c.side = out
	return out
}
