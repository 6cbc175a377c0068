package gitscan

import (
	"io/fs"
	"sort"
)

// wtMemo is what a Repo opened WithWorktreeSnapshot learned of the work
// tree: each directory's lstat, each file's entry (mode and blob id, from
// the index's stat data or by hashing), each lookup of a directory and its
// tree id, and each listing below a directory. One evaluation (the launch gate) asks about the same paths
// many times, once per server and client that runs them: it stats and
// hashes each path once. Without the option (on false) nothing is kept.
type wtMemo struct {
	on     bool
	stat   map[string]statMemo
	entry  map[string]entryMemo
	lookup map[string]entryMemo
	flat   map[string][]Entry
	all    []Entry           // the whole work tree's listing, once made (rememberAll)
	trees  map[string]string // a directory's tree id, by path
}

type statMemo struct {
	fi  fs.FileInfo
	err error
}

type entryMemo struct {
	e  Entry
	ok bool
}

func (m *wtMemo) rememberStat(p string, fi fs.FileInfo, err error) {
	remember(m.on, &m.stat, p, statMemo{fi, err})
}

func (m *wtMemo) rememberEntry(p string, e Entry, ok bool) {
	remember(m.on, &m.entry, p, entryMemo{e, ok})
}

func (m *wtMemo) rememberLookup(p string, e Entry, ok bool) {
	remember(m.on, &m.lookup, p, entryMemo{e, ok})
}

func (m *wtMemo) rememberListing(dir string, l []Entry) {
	remember(m.on, &m.flat, dir, l)
}

// treeIDs is the memo of directories' tree ids (nil when off).
func (m *wtMemo) treeIDs() map[string]string {
	if !m.on {
		return nil
	}
	if m.trees == nil {
		m.trees = map[string]string{}
	}
	return m.trees
}

// rememberAll keeps the whole work tree's listing (sorted by path): it
// answers for each file in it (listed) and for every directory below
// (flatWorktree), in place of a memo entry per file.
func (m *wtMemo) rememberAll(l []Entry) {
	if m.on {
		m.all = l[:len(l):len(l)]
	}
}

// listed is p's entry in the whole work tree's listing, if it is there.
func (m *wtMemo) listed(p string) (Entry, bool) {
	i := sort.Search(len(m.all), func(i int) bool { return m.all[i].Path >= p })
	if i < len(m.all) && m.all[i].Path == p {
		return m.all[i], true
	}
	return Entry{}, false
}

// remember sets (*memo)[k] = v when the memo is on.
func remember[V any](on bool, memo *map[string]V, k string, v V) {
	if !on {
		return
	}
	if *memo == nil {
		*memo = map[string]V{}
	}
	(*memo)[k] = v
}
