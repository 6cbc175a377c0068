package gitscan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// indexStat is the stat data git caches per index entry; a work tree file
// whose lstat still matches it (and is not racily clean) has the entry's
// blob id without being hashed, exactly as git decides.
type indexStat struct {
	mtime, ctime time.Time
	size         uint32
	ino          uint32
}

// decodeIndex reads an index file with go-git's decoder. Index formats the
// decoder does not know (split index, sparse index) are ErrUnsupported.
func decodeIndex(rd io.Reader, name string) ([]indexEntry, error) {
	idx := &index.Index{}
	if err := index.NewDecoder(bufio.NewReader(rd)).Decode(idx); err != nil {
		if errors.Is(err, index.ErrUnknownExtension) {
			return nil, fmt.Errorf("%s: split or sparse index (%v): the go-git engine cannot read it; install git: %w", name, err, ErrUnsupported)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := make([]indexEntry, 0, len(idx.Entries))
	for _, e := range idx.Entries {
		mode, ok := modeFromGit(uint32(e.Mode))
		if !ok {
			return nil, fmt.Errorf("%s: %s: unknown mode %o", name, e.Name, uint32(e.Mode))
		}
		if err := validPath(e.Name); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		stage := int(e.Stage)
		out = append(out, indexEntry{
			Entry:        Entry{Path: e.Name, Mode: mode, ID: e.Hash.String()},
			stage:        stage,
			skipWorktree: e.SkipWorktree,
			stat:         &indexStat{mtime: e.ModifiedAt, ctime: e.CreatedAt, size: e.Size, ino: e.Inode},
		})
	}
	return out, nil
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
	c := &indexCache{key: key, entries: entries, stats: map[string]*indexStat{}, stage0: map[string]Entry{}}
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
		// from the file itself when go-git can decode it. If it cannot
		// (split index...), every file is hashed: slower, never wrong.
		if f, err := os.Open(r.indexFile); err == nil {
			if dec, err := decodeIndex(f, r.indexFile); err == nil {
				for _, e := range dec {
					if e.stage == 0 {
						c.stats[e.Path] = e.stat
					}
				}
			}
			f.Close()
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
