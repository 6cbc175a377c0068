package gitscan

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// indexStat is the stat data git caches per index entry; a work tree file
// whose lstat still matches it (and is not racily clean) has the entry's
// blob id without being hashed, exactly as git decides.
type indexStat struct {
	mtime, ctime time.Time
	size         uint32
	ino          uint32
}

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
	p := 12
	prev := ""
	pathless := false
	for k := 0; k < count; k++ {
		start := p
		if p+40+hl+2 > end {
			return nil, bad("truncated entry")
		}
		u32 := func(at int) uint32 { return binary.BigEndian.Uint32(data[p+at:]) }
		st := &indexStat{
			ctime: time.Unix(int64(u32(0)), int64(u32(4))),
			mtime: time.Unix(int64(u32(8)), int64(u32(12))),
			ino:   u32(20),
			size:  u32(36),
		}
		rawMode := u32(24)
		id := hex.EncodeToString(data[p+40 : p+40+hl])
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
		var path string
		if version == 4 {
			strip, n := indexVarint(data[p:end])
			if n <= 0 || strip > uint64(len(prev)) {
				return nil, bad("path prefix")
			}
			p += n
			nul := bytes.IndexByte(data[p:end], 0)
			if nul < 0 {
				return nil, bad("path")
			}
			path = prev[:len(prev)-int(strip)] + string(data[p:p+nul])
			p += nul + 1
		} else {
			nul := bytes.IndexByte(data[p:end], 0)
			if nul < 0 {
				return nil, bad("path")
			}
			path = string(data[p : p+nul])
			p += nul + 1
			// Entries are padded with NULs to a multiple of 8 bytes.
			for (p-start)%8 != 0 {
				if p >= end || data[p] != 0 {
					return nil, bad("padding")
				}
				p++
			}
		}
		prev = path
		mode, ok := modeFromGit(rawMode)
		if !ok || mode == ModeTree {
			if mode == ModeTree {
				return nil, fmt.Errorf("%s: a sparse index (directory entries): %w", name, errNativeUnsupported)
			}
			return nil, fmt.Errorf("%s: %s: unknown mode %o", name, path, rawMode)
		}
		// An entry without a path is damage, unless a split index's
		// extension (refused below, with its own message) explains it:
		// there an entry names a shared-index entry it replaces.
		pathless = pathless || path == ""
		if err := validPath(path); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, indexEntry{
			Entry:        Entry{Path: path, Mode: mode, ID: id},
			stage:        int(flags>>12) & 3,
			skipWorktree: skip,
			stat:         st,
		})
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
type indexCache struct {
	key     string
	entries []indexEntry
	stats   map[string]*indexStat
	stage0  map[string]Entry
	mtime   time.Time // of the index file: entries modified at or after it are racy
	side    []Entry   // memo of indexSide
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
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].Path != entries[j].Path {
			return entries[i].Path < entries[j].Path
		}
		return entries[i].stage < entries[j].stage
	})
	c := &indexCache{key: key, entries: entries, stats: make(map[string]*indexStat, len(entries)), stage0: make(map[string]Entry, len(entries))}
	for _, e := range entries {
		if e.stage == 0 {
			c.stage0[e.Path] = e.Entry
		}
	}
	if fi != nil {
		c.mtime = fi.ModTime()
	}
	haveStat := false
	for _, e := range entries {
		if e.stat != nil {
			haveStat = true
			if e.stage == 0 {
				c.stats[e.Path] = e.stat
			}
		}
	}
	if !haveStat && fi != nil {
		// The git engine lists entries with ls-files; take the stat data
		// from the file itself when gitscan can decode it. If it cannot
		// (split index...), every file is hashed: slower, never wrong.
		if dec, err := readIndexFile(r.indexFile, r.format); err == nil {
			for _, e := range dec {
				if e.stage == 0 {
					c.stats[e.Path] = e.stat
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
