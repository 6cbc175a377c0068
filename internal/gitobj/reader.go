package gitobj

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Reader reads objects straight from a repository's object directories:
// loose objects and packs, no git process and no go-git storage. It exists
// for the hook's sake: go-git's first read loads every pack index into
// memory (about 300 ms at 450,000 objects, growing linearly), and each git
// process costs about as much as the whole `git rev-parse A:p B:p` the hook
// is measured against. Here a pack index is memory-mapped and
// binary-searched where it lies, so the cost of a read does not grow with
// the repository.
//
// What it reads: pack index versions 1 and 2, pack versions 2 and 3 with
// offset and reference deltas (bases in any pack, or loose), zlib loose
// objects, alternates (objects/info/alternates and the caller's list, as
// in GIT_ALTERNATE_OBJECT_DIRECTORIES), SHA-1 and SHA-256 ids. What it
// does not read is ErrUnsupported (see the package documentation). A pack
// whose index is missing (being written or removed) is not read, as git
// does not read it. Nothing is ever fetched: a partial clone's missing
// object is ErrMissingObject.
//
// Every length and offset in a pack or index is checked before use: a
// damaged or hostile object store yields errors, not panics or huge
// allocations. A Reader is not safe for concurrent use.
type Reader struct {
	format  Format
	dirs    []string // object directories: the primary one, then alternates
	packs   []*packFile
	seen    map[string]bool // pack index paths already opened
	scanned bool            // the pack directories were listed once (re-listed on a miss)
	zr      io.ReadCloser   // a zlib reader, reset for every object
	scratch []byte          // inflated deltas, reused
	reads   int             // objects read so far
	mapped  bool            // packs are mapped (see mapThreshold)
	bases   *baseCache
	maxObj  int64 // largest object read without a caller's limit
}

// maxObjectSize bounds what is read when the caller sets no limit (trees,
// commits): git itself would need that much memory too, and a hostile
// pack's size field must not make us allocate gigabytes.
const maxObjectSize = 1 << 30

// maxDeltaChain bounds a delta chain (git's default depth is 50; packs
// from `git gc --aggressive` use 250): a longer chain, or a cycle of
// reference deltas, is damage.
const maxDeltaChain = 10000

// errNoObject is returned by lookups that did not find an id anywhere.
var errNoObject = errors.New("object not found")

// Open opens the object database whose primary directory is objectsDir
// (the repository's objects directory, or GIT_OBJECT_DIRECTORY when set).
// alternates is a list of further directories in the syntax of
// GIT_ALTERNATE_OBJECT_DIRECTORIES ("" for none); each directory's
// info/alternates is followed as git follows it. A missing objectsDir is
// an error wrapping fs.ErrNotExist.
func Open(f Format, objectsDir, alternates string) (*Reader, error) {
	o := &Reader{format: f, seen: map[string]bool{}, bases: newBaseCache(32 << 20), maxObj: maxObjectSize}
	if !isDir(objectsDir) {
		return nil, fmt.Errorf("object directory %s: missing: %w", objectsDir, fs.ErrNotExist)
	}
	o.addDir(objectsDir, 0)
	for _, d := range splitPathList(alternates) {
		if d != "" {
			o.addDir(d, 0)
		}
	}
	return o, nil
}

// Format is the hash function the reader was opened with.
func (o *Reader) Format() Format { return o.format }

// ObjectDir is the primary object directory (where the commit-graph is).
func (o *Reader) ObjectDir() string { return o.dirs[0] }

// CommitGraph opens the commit-graph of the primary object directory; nil
// when there is none or it does not add up (see OpenCommitGraph).
func (o *Reader) CommitGraph() *CommitGraph { return OpenCommitGraph(o.dirs[0], o.format) }

// scanPacks opens the indexes of packs not seen yet. It reports whether
// any was added.
func (o *Reader) scanPacks() (bool, error) {
	o.scanned = true
	added := false
	for _, dir := range o.dirs {
		ents, err := os.ReadDir(filepath.Join(dir, "pack"))
		if err != nil {
			continue
		}
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".idx") || !strings.HasPrefix(name, "pack-") {
				continue
			}
			idx := filepath.Join(dir, "pack", name)
			if o.seen[idx] {
				continue
			}
			pk, err := openPack(o.format, idx)
			if errors.Is(err, fs.ErrNotExist) {
				continue // an index whose pack is being written or removed
			}
			if err != nil {
				return added, err
			}
			o.seen[idx] = true
			if o.mapped {
				pk.mapAll()
			}
			o.packs = append(o.packs, pk)
			added = true
		}
	}
	return added, nil
}

// Close releases the packs and their mappings.
func (o *Reader) Close() error {
	var errs []error
	for _, p := range o.packs {
		if err := p.close(); err != nil {
			errs = append(errs, err)
		}
	}
	o.packs = nil
	o.bases = newBaseCache(0)
	return errors.Join(errs...)
}

// objLocation is where an object lives: a pack and offset, or a loose file.
type objLocation struct {
	pack  *packFile
	off   int64
	loose string
}

// find locates raw id. On a miss it looks for packs written since the
// last scan, as git does, before it gives up.
func (o *Reader) find(raw []byte) (objLocation, error) {
	if !o.scanned {
		if _, err := o.scanPacks(); err != nil {
			return objLocation{}, err
		}
	}
	for attempt := 0; attempt < 2; attempt++ {
		for i, p := range o.packs {
			off, ok, err := p.find(raw)
			if err != nil {
				return objLocation{}, err
			}
			if ok {
				if i > 0 { // most recently used first, as git does
					copy(o.packs[1:i+1], o.packs[:i])
					o.packs[0] = p
				}
				return objLocation{pack: p, off: off}, nil
			}
		}
		h := hex.EncodeToString(raw)
		for _, dir := range o.dirs {
			p := filepath.Join(dir, h[:2], h[2:])
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				return objLocation{loose: p}, nil
			}
		}
		if attempt == 0 {
			added, err := o.scanPacks()
			if err != nil {
				return objLocation{}, err
			}
			if !added {
				break
			}
		}
	}
	return objLocation{}, errNoObject
}

// Object types as packs number them.
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

var typeNames = map[int]string{objCommit: "commit", objTree: "tree", objBlob: "blob", objTag: "tag"}

func typeCode(name string) int {
	for k, v := range typeNames {
		if v == name {
			return k
		}
	}
	return 0
}

// Info returns an object's type and size without reading its content
// (for a delta, the start of the delta alone).
func (o *Reader) Info(id string) (string, int64, error) {
	raw, err := o.rawID(id)
	if err != nil {
		return "", 0, err
	}
	loc, err := o.find(raw)
	if err != nil {
		return "", 0, o.wrap(id, err)
	}
	if loc.loose != "" {
		typ, size, _, err := o.readLoose(loc.loose, looseHeaderOnly)
		return typ, size, o.wrap(id, err)
	}
	typ, size, err := o.packInfo(loc.pack, loc.off)
	if err != nil {
		return "", 0, o.wrap(id, err)
	}
	return typeNames[typ], size, nil
}

// Read returns an object's type and content. When limit >= 0 and the
// object is larger, it returns a *TooLargeError without inflating it.
func (o *Reader) Read(id string, limit int64) (string, []byte, error) {
	raw, err := o.rawID(id)
	if err != nil {
		return "", nil, err
	}
	return o.ReadRaw(raw, id, limit)
}

// ReadRaw is Read by binary id (id, its hex form, for messages: computed
// when empty).
func (o *Reader) ReadRaw(raw []byte, id string, limit int64) (string, []byte, error) {
	if len(raw) != o.format.RawLen {
		return "", nil, fmt.Errorf("object id %x: malformed", raw)
	}
	if id == "" {
		id = hex.EncodeToString(raw)
	}
	if o.reads++; o.reads == mapThreshold {
		for _, p := range o.packs {
			p.mapAll()
		}
		o.mapped = true
	}
	loc, err := o.find(raw)
	if err != nil {
		return "", nil, o.wrap(id, err)
	}
	max := o.maxObj
	if limit >= 0 && limit < max {
		max = limit
	}
	if loc.loose != "" {
		typ, size, data, err := o.readLoose(loc.loose, max)
		if err != nil {
			var tl *TooLargeError
			if errors.As(err, &tl) && limit >= 0 {
				return "", nil, &TooLargeError{ID: id, Size: size}
			}
			return "", nil, o.wrap(id, err)
		}
		return typ, data, nil
	}
	if limit >= 0 {
		_, size, err := o.packInfo(loc.pack, loc.off)
		if err != nil {
			return "", nil, o.wrap(id, err)
		}
		if size > limit {
			return "", nil, &TooLargeError{ID: id, Size: size}
		}
	}
	typ, data, err := o.packObject(loc.pack, loc.off)
	if err != nil {
		return "", nil, o.wrap(id, err)
	}
	return typeNames[typ], data, nil
}

func (o *Reader) rawID(id string) ([]byte, error) {
	if !o.format.ValidID(id) {
		return nil, fmt.Errorf("object id %q: malformed", id)
	}
	raw, err := hex.DecodeString(id)
	if err != nil {
		return nil, fmt.Errorf("object id %q: malformed", id)
	}
	return raw, nil
}

func (o *Reader) wrap(id string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, errNoObject) {
		return fmt.Errorf("object %s: %w", id, ErrMissingObject)
	}
	return fmt.Errorf("object %s: %w", id, err)
}
