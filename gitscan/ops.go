package gitscan

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
)

// Resolve turns a revision into a Side. "" and the all-zeros id are Empty
// (git passes zeros for "no commit", e.g. the old side of an initial
// clone), as is HEAD on an unborn branch. A revision that names no commit
// is an error wrapping ErrUnknownRevision.
func (r *Repo) Resolve(rev string) (Side, error) {
	if isZeroRev(rev) {
		return Empty, nil
	}
	if strings.ContainsAny(rev, "\n\r\x00") || strings.TrimSpace(rev) != rev {
		return Empty, fmt.Errorf("revision %q: %w", rev, ErrUnknownRevision)
	}
	if r.be == nil {
		return Empty, errors.New("repository is closed")
	}
	id, err := r.be.resolve(rev)
	if err != nil {
		if errors.Is(err, ErrUnknownRevision) && (rev == "HEAD" || rev == "@") {
			unborn, uerr := r.be.headUnborn()
			if uerr != nil {
				return Empty, uerr
			}
			if unborn {
				return Empty, nil
			}
		}
		return Empty, err
	}
	c, err := r.readCommit(id)
	if err != nil {
		return Empty, err
	}
	return Side{kind: sideCommit, commit: id, tree: c.tree}, nil
}

// Lookup finds one path's entry at side, walking its directories one at a
// time (a commit side reads one tree per path component). "" is the root
// directory. A path through a symlink does not exist, as in git's trees.
func (r *Repo) Lookup(side Side, path string) (e Entry, ok bool, err error) {
	if err := validPath(path); err != nil {
		return Entry{}, false, err
	}
	switch side.kind {
	case sideEmpty:
		return Entry{}, false, nil
	case sideCommit:
		return r.lookupTree(side.tree, path)
	case sideIndex:
		idx, err := r.index()
		if err != nil {
			return Entry{}, false, err
		}
		entries := idx.indexSide()
		return lookupFlat(r.format, entries, path, nil, idx)
	case sideWorkTree:
		return r.lookupWorktree(path)
	}
	return Entry{}, false, fmt.Errorf("side %v: unknown", side)
}

func (r *Repo) lookupTree(tree, path string) (Entry, bool, error) {
	if path == "" {
		return Entry{Path: "", Mode: ModeTree, ID: tree}, true, nil
	}
	cur := rawOf(tree)
	if len(cur) != r.format.rawLen {
		return Entry{}, false, fmt.Errorf("tree id %q: malformed", tree)
	}
	parts := strings.Split(path, "/")
	for i, name := range parts {
		entries, err := r.readTreeRaw(cur)
		if err != nil {
			return Entry{}, false, err
		}
		var found *treeEntry
		for k := range entries {
			if entries[k].name == name {
				found = &entries[k]
				break
			}
		}
		if found == nil {
			return Entry{}, false, nil
		}
		if i == len(parts)-1 {
			return Entry{Path: path, Mode: found.mode, ID: found.id()}, true, nil
		}
		if found.mode != ModeTree {
			return Entry{}, false, nil
		}
		cur = found.raw
	}
	return Entry{}, false, nil
}

// lookupFlat finds path in a sorted flat list of file entries; a directory
// gets the tree id git would write for the files below it (from idx's
// cache tree where it holds for them, see treeFromIndex; idx may be nil).
func lookupFlat(f objectFormat, entries []Entry, path string, memo map[string]string, idx *indexCache) (Entry, bool, error) {
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Path >= path })
	if i < len(entries) && entries[i].Path == path {
		return entries[i], true, nil
	}
	prefix := path + "/"
	if path == "" {
		prefix = ""
	}
	j, k := prefixRun(entries, prefix)
	if k == j {
		return Entry{}, false, nil
	}
	id, err := treeIDOf(f, entries[j:k], len(prefix), memo, idx)
	if err != nil {
		return Entry{}, false, err
	}
	return Entry{Path: path, Mode: ModeTree, ID: id}, true, nil
}

// treeIDOf computes the tree id git would write for entries (sorted by
// path, all sharing a prefix of length strip); memo (nil: none) keeps the
// ids of the subdirectories met, by path, for the next lookup below them.
// A directory whose entries are the index's, as its cache tree counted
// them, has the cache tree's id without being hashed (idx nil: none).
func treeIDOf(f objectFormat, entries []Entry, strip int, memo map[string]string, idx *indexCache) (string, error) {
	dir := ""
	if len(entries) > 0 && strip > 0 {
		dir = entries[0].Path[:strip-1]
	}
	if memo != nil && dir != "" {
		if id, ok := memo[dir]; ok {
			return id, nil
		}
	}
	id, ok := idx.treeFromIndex(dir, entries)
	var err error
	if !ok {
		id, err = treeIDOfOnce(f, entries, strip, memo, idx)
	}
	if err == nil && memo != nil && dir != "" {
		memo[dir] = id
	}
	return id, err
}

func treeIDOfOnce(f objectFormat, entries []Entry, strip int, memo map[string]string, idx *indexCache) (string, error) {
	// The entries' raw ids are decoded into one buffer, converted to one
	// string at the end (rawsOf): a directory costs a few allocations
	// however many files it holds.
	var out []treeEntry
	var ids []string
	for i := 0; i < len(entries); {
		rest := entries[i].Path[strip:]
		name, _, isDir := strings.Cut(rest, "/")
		if !isDir {
			out = append(out, treeEntry{name: name, mode: entries[i].Mode})
			ids = append(ids, entries[i].ID)
			i++
			continue
		}
		j := i
		sub := entries[i].Path[:strip+len(name)+1]
		for j < len(entries) && strings.HasPrefix(entries[j].Path, sub) {
			j++
		}
		id, err := treeIDOf(f, entries[i:j], len(sub), memo, idx)
		if err != nil {
			return "", err
		}
		out = append(out, treeEntry{name: name, mode: ModeTree})
		ids = append(ids, id)
		i = j
	}
	for k, raw := range rawsOf(f, ids) {
		out[k].raw = raw
	}
	for k := 1; k < len(out); k++ {
		if out[k].name == out[k-1].name {
			return "", fmt.Errorf("%s: both a file and a directory", out[k].name)
		}
	}
	sort.Slice(out, func(a, b int) bool { return gitLess(out[a], out[b]) })
	return f.hashObject("tree", encodeTree(f, out)), nil
}

func (r *Repo) lookupWorktree(path string) (Entry, bool, error) {
	if e, ok := r.wt.listed(path); ok {
		return e, true, nil // a file seen before
	}
	if m, ok := r.wt.entry[path]; ok && m.ok {
		return m.e, true, nil // a file seen before
	}
	if m, ok := r.wt.lookup[path]; ok {
		return m.e, m.ok, nil
	}
	e, ok, err := r.lookupWorktreeOnce(path)
	if err == nil && ok && e.Mode == ModeTree {
		// A directory's id hashes all below it; a file's answer is its
		// entry, and nothing there costs one lstat to find again (a
		// large configuration probes a hundred thousand such paths).
		r.wt.rememberLookup(path, e, ok)
	}
	return e, ok, err
}

func (r *Repo) lookupWorktreeOnce(path string) (Entry, bool, error) {
	idx, err := r.index()
	if err != nil {
		return Entry{}, false, err
	}
	fi, err := r.lstatPath(path)
	if errors.Is(err, fs.ErrNotExist) {
		if e, ok := idx.stage0(path); ok && r.isSkipWorktree(idx, path) {
			return e, true, nil
		}
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, err
	}
	if !fi.IsDir() {
		return r.worktreeEntry(path, idx)
	}
	if e, ok := idx.stage0(path); ok && e.Mode == ModeSubmodule {
		return e, true, nil
	}
	entries, err := r.flatWorktree(idx, path)
	if err != nil {
		return Entry{}, false, err
	}
	return lookupFlat(r.format, entries, path, r.wt.treeIDs(), idx)
}

func (r *Repo) isSkipWorktree(idx *indexCache, path string) bool {
	i := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].Path >= path })
	return i < len(idx.entries) && idx.entries[i].Path == path && idx.meta[i].skipWorktree
}

// ReadBlob reads the content of a file at side: a regular file's bytes or
// a symlink's target text (the caller decides what a symlink means).
// Directories and submodules are ErrNotRegular, absent paths ErrNotFound,
// and content larger than limit (limit < 0: no limit) ErrTooLarge, decided
// from the object's or file's size before it is read.
func (r *Repo) ReadBlob(side Side, path string, limit int64) ([]byte, Entry, error) {
	if err := validPath(path); err != nil {
		return nil, Entry{}, err
	}
	if side.kind == sideWorkTree {
		fi, err := r.lstatPath(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Entry{}, fmt.Errorf("%s: %w", path, ErrNotFound)
		}
		if err != nil {
			return nil, Entry{}, err
		}
		return r.readWorktreeFile(path, fi, limit)
	}
	e, ok, err := r.Lookup(side, path)
	if err != nil {
		return nil, Entry{}, err
	}
	if !ok {
		return nil, Entry{}, fmt.Errorf("%s at %s: %w", path, side, ErrNotFound)
	}
	if !e.Mode.IsFile() {
		return nil, e, fmt.Errorf("%s at %s: a %s: %w", path, side, e.Mode, ErrNotRegular)
	}
	data, err := r.readObject(e.ID, "blob", limit)
	if err != nil {
		return nil, e, fmt.Errorf("%s at %s: %w", path, side, err)
	}
	return data, e, nil
}

// Changes returns every non-directory path that differs between old and
// new, sorted by path. Between two commits (or a commit and Empty) it
// descends only into subtrees whose ids differ, so its cost follows the
// size of the change, not of the repository. Comparisons with the index or
// the work tree list both sides in full (the index is a flat list anyway);
// work tree files are hashed unless the index's stat data proves them
// unchanged, as git does.
func (r *Repo) Changes(old, new Side) ([]Change, error) {
	var out []Change
	if old.isTreeSide() && new.isTreeSide() {
		if err := r.diffTrees("", old.tree, new.tree, nil, &out); err != nil {
			return nil, err
		}
		if old.kind == sideCommit && new.kind == sideCommit {
			sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
			r.lastChanges = &changesMemo{from: old.tree, to: new.tree, changes: append([]Change(nil), out...)}
		}
	} else {
		a, err := r.flatten(old)
		if err != nil {
			return nil, err
		}
		b, err := r.flatten(new)
		if err != nil {
			return nil, err
		}
		out = diffFlat(a, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// pathFilter restricts a tree comparison (History): descend tells whether
// a directory may hold a matching path, match whether a path counts.
type pathFilter interface {
	descend(dir string) bool
	match(path string, mode Mode) bool
}

// diffTrees compares trees a and b ("" is the empty tree) under prefix,
// reading only subtrees whose ids differ. Trees are walked side by side in
// git's order (a merge, as git's diff-tree does); a tree that is not in
// that order (damage, or a hostile tree) is compared by name instead, so
// pairing never depends on order.
func (r *Repo) diffTrees(prefix, a, b string, filt pathFilter, out *[]Change) error {
	ra, rb := rawOf(a), rawOf(b)
	if (a != "" && len(ra) != r.format.rawLen) || (b != "" && len(rb) != r.format.rawLen) {
		return fmt.Errorf("tree ids %q, %q: malformed", a, b)
	}
	return r.diffTreesRaw(prefix, ra, rb, filt, out)
}

// diffTreesRaw is diffTrees by binary ids.
func (r *Repo) diffTreesRaw(prefix, a, b string, filt pathFilter, out *[]Change) error {
	if a == b {
		return nil
	}
	if err := r.checkBudget(filt); err != nil {
		return err
	}
	ta, err := r.readTreeRaw(a)
	if err != nil {
		return err
	}
	tb, err := r.readTreeRaw(b)
	if err != nil {
		return err
	}
	if !gitSorted(ta) || !gitSorted(tb) {
		return r.diffTreesByName(prefix, ta, tb, filt, out)
	}
	i, j := 0, 0
	for i < len(ta) || j < len(tb) {
		var ea, eb *treeEntry
		switch {
		case j >= len(tb):
			ea = &ta[i]
			i++
		case i >= len(ta):
			eb = &tb[j]
			j++
		default:
			switch c := compareEntries(&ta[i], &tb[j]); {
			case c < 0:
				ea = &ta[i]
				i++
			case c > 0:
				eb = &tb[j]
				j++
			default:
				ea, eb = &ta[i], &tb[j]
				i++
				j++
			}
		}
		if err := r.diffEntry(prefix, ea, eb, filt, out); err != nil {
			return err
		}
	}
	return nil
}

// compareEntries orders entries as git does (gitLess), except that a file
// and a directory of the same name compare equal (they are one path whose
// type changed, which diffEntry handles).
func compareEntries(a, b *treeEntry) int {
	if a.name == b.name {
		return 0
	}
	if gitLess(*a, *b) {
		return -1
	}
	return 1
}

// gitSorted reports whether t is strictly in git's order with unique names.
func gitSorted(t []treeEntry) bool {
	for k := 1; k < len(t); k++ {
		if !gitLess(t[k-1], t[k]) || t[k-1].name == t[k].name {
			return false
		}
	}
	return true
}

// diffTreesByName pairs entries by name (for trees out of git's order).
func (r *Repo) diffTreesByName(prefix string, ta, tb []treeEntry, filt pathFilter, out *[]Change) error {
	inB := make(map[string]int, len(tb))
	for i, e := range tb {
		inB[e.name] = i
	}
	inA := make(map[string]bool, len(ta))
	for i := range ta {
		ea := &ta[i]
		inA[ea.name] = true
		var eb *treeEntry
		if j, ok := inB[ea.name]; ok {
			eb = &tb[j]
		}
		if err := r.diffEntry(prefix, ea, eb, filt, out); err != nil {
			return err
		}
	}
	for j := range tb {
		if !inA[tb[j].name] {
			if err := r.diffEntry(prefix, nil, &tb[j], filt, out); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Repo) diffEntry(prefix string, ea, eb *treeEntry, filt pathFilter, out *[]Change) error {
	if ea != nil && eb != nil && ea.mode == eb.mode && ea.raw == eb.raw {
		return nil
	}
	name := ea
	if name == nil {
		name = eb
	}
	p := name.name
	if prefix != "" {
		p = prefix + "/" + name.name
	}
	var subA, subB string
	var fileA, fileB *treeEntry
	if ea != nil {
		if ea.mode == ModeTree {
			subA = ea.raw
		} else {
			fileA = ea
		}
	}
	if eb != nil {
		if eb.mode == ModeTree {
			subB = eb.raw
		} else {
			fileB = eb
		}
	}
	if (subA != "" || subB != "") && (filt == nil || filt.descend(p)) {
		if err := r.diffTreesRaw(p, subA, subB, filt, out); err != nil {
			return err
		}
	}
	if fileA != nil || fileB != nil {
		m := fileB
		if m == nil {
			m = fileA
		}
		keep := filt == nil || filt.match(p, m.mode)
		if !keep && fileA != nil && fileB != nil {
			keep = filt.match(p, fileA.mode)
		}
		if keep {
			c := Change{Path: p}
			if fileA != nil {
				c.Old = &Entry{Path: p, Mode: fileA.mode, ID: fileA.id()}
			}
			if fileB != nil {
				c.New = &Entry{Path: p, Mode: fileB.mode, ID: fileB.id()}
			}
			*out = append(*out, c)
		}
	}
	return nil
}

// flatten lists every non-directory entry of a side, sorted by path.
func (r *Repo) flatten(side Side) ([]Entry, error) {
	switch side.kind {
	case sideEmpty:
		return nil, nil
	case sideCommit:
		return r.flatTree(side.tree)
	case sideIndex:
		idx, err := r.index()
		if err != nil {
			return nil, err
		}
		return idx.indexSide(), nil
	case sideWorkTree:
		idx, err := r.index()
		if err != nil {
			return nil, err
		}
		return r.flatWorktree(idx, "")
	}
	return nil, fmt.Errorf("side %v: unknown", side)
}

// flatTree lists a whole tree (O(repository): only for sides that are not
// trees themselves, and for Surfaces on a cache miss).
func (r *Repo) flatTree(tree string) ([]Entry, error) {
	// In process when the native reader can (as fast as git's ls-tree at
	// 20,000 files, and no process), else git's ls-tree.
	if tl, ok := r.be.(treeLister); ok && !r.readsNatively() {
		r.countRead()
		return tl.listTree(tree)
	}
	var out []Change
	if err := r.diffTrees("", "", tree, nil, &out); err != nil {
		return nil, err
	}
	entries := make([]Entry, len(out))
	for i, c := range out {
		entries[i] = *c.New
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return entries, nil
}

// flatWorktree lists the work tree's files with their current ids. A
// gitlink stands for a checked-out submodule with its index id (gitscan
// never looks inside submodules); an index entry marked skip-worktree
// (sparse checkout) that is absent on disk keeps its index entry, as git
// does; untracked nested repositories are left out. Only paths below dir
// ("": all) are listed and hashed.
func (r *Repo) flatWorktree(idx *indexCache, dir string) ([]Entry, error) {
	if l, ok := r.wt.flat[dir]; ok {
		return l, nil
	}
	if dir == "" && r.wt.all != nil {
		return r.wt.all, nil
	}
	if dir != "" && r.wt.all != nil {
		// Below a directory is a run of the whole tree's listing.
		lo, hi := prefixRun(r.wt.all, dir+"/")
		l := r.wt.all[lo:hi:hi]
		r.wt.rememberListing(dir, l)
		return l, nil
	}
	paths, err := r.worktreePaths()
	if err != nil {
		return nil, err
	}
	if dir != "" {
		// paths are sorted: those below dir are one run of them.
		lo := sort.SearchStrings(paths, dir+"/")
		hi := lo
		for hi < len(paths) && strings.HasPrefix(paths[hi], dir+"/") {
			hi++
		}
		paths = paths[lo:hi]
	}
	// The whole tree's listing is itself the memo of its files' entries
	// (worktreeEntry looks there first): only a directory's listing
	// remembers each entry.
	whole := dir == ""
	out := make([]Entry, 0, len(paths))
	at := 0 // where the last path was in the index: paths come in its order
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			continue
		}
		ie, i, inIdx := idx.stage0At(p, at)
		at = i
		if inIdx && ie.Mode == ModeSubmodule {
			if fi, err := r.lstatPath(p); err == nil && fi.IsDir() {
				out = append(out, ie)
			}
			continue
		}
		var e Entry
		var ok bool
		if m, seen := r.wt.entry[p]; seen {
			e, ok = m.e, m.ok
		} else {
			e, ok, at, err = r.worktreeEntryOnce(p, idx, at)
			if err != nil {
				return nil, err
			}
			if !whole || !ok {
				r.wt.rememberEntry(p, e, ok)
			}
		}
		if ok {
			out = append(out, e)
		} else if inIdx && idx.meta[i].skipWorktree {
			out = append(out, ie)
		}
	}
	// paths come sorted (git's order is byte order): sort only when not.
	if !slices.IsSortedFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) }) {
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	}
	if whole {
		r.wt.rememberAll(out)
	} else {
		r.wt.rememberListing(dir, out)
	}
	return out, nil
}

// prefixRun is the run of the sorted entries whose paths start with prefix.
func prefixRun(es []Entry, prefix string) (int, int) {
	lo := sort.Search(len(es), func(i int) bool { return es[i].Path >= prefix })
	hi := lo + sort.Search(len(es)-lo, func(i int) bool { return !strings.HasPrefix(es[lo+i].Path, prefix) })
	return lo, hi
}

// diffFlat compares two sorted flat lists.
func diffFlat(a, b []Entry) []Change {
	var out []Change
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || (i < len(a) && a[i].Path < b[j].Path):
			e := a[i]
			out = append(out, Change{Path: e.Path, Old: &e})
			i++
		case i >= len(a) || b[j].Path < a[i].Path:
			e := b[j]
			out = append(out, Change{Path: e.Path, New: &e})
			j++
		default:
			if a[i].Mode != b[j].Mode || a[i].ID != b[j].ID {
				ea, eb := a[i], b[j]
				out = append(out, Change{Path: ea.Path, Old: &ea, New: &eb})
			}
			i++
			j++
		}
	}
	return out
}
