package gitscan

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// odb reads objects straight from a repository's object directories: loose
// objects and packs, no git process and no go-git storage. It exists for
// the hook's sake: go-git's first read loads every pack index into memory
// (about 300 ms at 450,000 objects, growing linearly), and each git process
// costs about as much as the whole `git rev-parse A:p B:p` the hook is
// measured against. Here a pack index is memory-mapped and binary-searched
// where it lies, so the cost of a read does not grow with the repository.
//
// What it reads: pack index versions 1 and 2, pack versions 2 and 3 with
// offset and reference deltas (bases in any pack, or loose), zlib loose
// objects, alternates (objects/info/alternates, GIT_ALTERNATE_OBJECT_DIRECTORIES,
// GIT_OBJECT_DIRECTORY), SHA-1 and SHA-256 ids. A pack whose index is
// missing (a multi-pack index without per-pack indexes, a pack being
// written) is not read; a missing object is then an error, never an
// absence, and the caller falls back to git where git is available.
// Nothing is ever fetched: a partial clone's missing object is
// ErrMissingObject.
//
// Every length and offset in a pack or index is checked before use: a
// damaged or hostile object store yields errors, not panics or huge
// allocations.
type odb struct {
	format  objectFormat
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

func newODB(f objectFormat, objectsDir string, env []string) (*odb, error) {
	o := &odb{format: f, seen: map[string]bool{}, bases: newBaseCache(32 << 20), maxObj: maxObjectSize}
	primary := objectsDir
	if v, ok := getenv(env, "GIT_OBJECT_DIRECTORY"); ok && v != "" {
		primary = v
	}
	if !isDir(primary) {
		return nil, fmt.Errorf("object directory %s: missing: %w", primary, ErrNotRepository)
	}
	var extra []string
	if v, ok := getenv(env, "GIT_ALTERNATE_OBJECT_DIRECTORIES"); ok && v != "" {
		for _, p := range splitPathList(v) {
			if p != "" {
				extra = append(extra, p)
			}
		}
	}
	o.addDir(primary, 0)
	for _, d := range extra {
		o.addDir(d, 0)
	}
	return o, nil
}

// addDir adds an object directory and, recursively (as deep as git goes),
// the alternates it names.
func (o *odb) addDir(dir string, depth int) {
	dir = filepath.Clean(dir)
	for _, d := range o.dirs {
		if d == dir {
			return
		}
	}
	if !isDir(dir) {
		return // git warns and goes on; a missing object is reported later
	}
	o.dirs = append(o.dirs, dir)
	if depth >= 5 {
		return
	}
	b, err := readSmallFile(filepath.Join(dir, "info", "alternates"), 1<<20)
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimRight(l, "\r")
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, `"`) {
			u, err := unquoteC(l)
			if err != nil {
				continue
			}
			l = u
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(dir, l)
		}
		o.addDir(l, depth+1)
	}
}

// splitPathList splits a colon-separated list of directories, each
// possibly C-quoted, as git splits GIT_ALTERNATE_OBJECT_DIRECTORIES.
func splitPathList(s string) []string {
	var out []string
	for s != "" {
		if strings.HasPrefix(s, `"`) {
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end < len(s) {
				if u, err := unquoteC(s[:end+1]); err == nil {
					out = append(out, u)
				}
				s = strings.TrimPrefix(s[end+1:], string(filepath.ListSeparator))
				continue
			}
		}
		p, rest, _ := strings.Cut(s, string(filepath.ListSeparator))
		out = append(out, p)
		s = rest
	}
	return out
}

// unquoteC undoes git's C-style quoting of a path ("a\tb", "\303\251").
func unquoteC(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", errors.New("not quoted")
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", errors.New("trailing backslash")
		}
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '"', '\\':
			b.WriteByte(c)
		default:
			if c < '0' || c > '3' || i+2 >= len(s) {
				return "", fmt.Errorf("bad escape \\%c", c)
			}
			v := 0
			for k := 0; k < 3; k++ {
				d := s[i+k]
				if d < '0' || d > '7' {
					return "", errors.New("bad octal escape")
				}
				v = v*8 + int(d-'0')
			}
			b.WriteByte(byte(v))
			i += 2
		}
	}
	return b.String(), nil
}

// scanPacks opens the indexes of packs not seen yet. It reports whether
// any was added.
func (o *odb) scanPacks() (bool, error) {
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

func (o *odb) close() error {
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

// location is where an object lives: a pack and offset, or a loose file.
type objLocation struct {
	pack  *packFile
	off   int64
	loose string
}

// find locates raw id. On a miss it looks for packs written since the
// last scan, as git does, before it gives up.
func (o *odb) find(raw []byte) (objLocation, error) {
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

// info returns an object's type and size without reading its content
// (for a delta, the start of the delta alone).
func (o *odb) info(id string) (string, int64, error) {
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

// read returns an object's type and content. When limit >= 0 and the
// object is larger, it returns a *tooLargeError without inflating it.
func (o *odb) read(id string, limit int64) (string, []byte, error) {
	raw, err := o.rawID(id)
	if err != nil {
		return "", nil, err
	}
	return o.readRaw(raw, id, limit)
}

// readRaw is read by binary id (id, its hex form, for messages: computed
// when empty).
func (o *odb) readRaw(raw []byte, id string, limit int64) (string, []byte, error) {
	if len(raw) != o.format.rawLen {
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
			var tl *tooLargeError
			if errors.As(err, &tl) && limit >= 0 {
				return "", nil, &tooLargeError{id: id, size: size}
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
			return "", nil, &tooLargeError{id: id, size: size}
		}
	}
	typ, data, err := o.packObject(loc.pack, loc.off)
	if err != nil {
		return "", nil, o.wrap(id, err)
	}
	return typeNames[typ], data, nil
}

func (o *odb) rawID(id string) ([]byte, error) {
	if !o.format.validID(id) {
		return nil, fmt.Errorf("object id %q: malformed", id)
	}
	raw, err := hex.DecodeString(id)
	if err != nil {
		return nil, fmt.Errorf("object id %q: malformed", id)
	}
	return raw, nil
}

func (o *odb) wrap(id string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, errNoObject) {
		return fmt.Errorf("object %s: %w", id, ErrMissingObject)
	}
	return fmt.Errorf("object %s: %w", id, err)
}

// inflate decompresses exactly size bytes from r.
func (o *odb) inflate(r io.Reader, size int64) ([]byte, error) {
	if err := o.resetZ(r); err != nil {
		return nil, err
	}
	buf, err := readExactly(o.zr, size, nil)
	if err != nil {
		return nil, fmt.Errorf("damaged object (inflated to fewer bytes than its size): %w", err)
	}
	return buf, nil
}

// inflateDelta is inflate into a buffer reused from one delta to the next
// (a delta is garbage once applied).
func (o *odb) inflateDelta(r io.Reader, size int64) ([]byte, error) {
	if err := o.resetZ(r); err != nil {
		return nil, err
	}
	buf, err := readExactly(o.zr, size, o.scratch)
	if err != nil {
		return nil, fmt.Errorf("damaged object (inflated to fewer bytes than its size): %w", err)
	}
	o.scratch = buf
	return buf, nil
}

// readExactly reads exactly size bytes from r, into buf when it can hold
// them. Beyond the first MiB it grows its buffer as data arrives rather
// than trusting size: a damaged or hostile header that claims a gigabyte
// then costs what the stream really holds, not a gigabyte (found by
// FuzzPackedObjects). Honest objects under a MiB are one allocation, as
// before.
func readExactly(r io.Reader, size int64, buf []byte) ([]byte, error) {
	if int64(cap(buf)) >= size {
		buf = buf[:size]
		_, err := io.ReadFull(r, buf)
		return buf, err
	}
	buf = make([]byte, 0, min(size, 1<<20))
	for int64(len(buf)) < size {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(size, 2*int64(cap(buf))))
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil && int64(len(buf)) < size {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return buf, nil
}

func (o *odb) resetZ(r io.Reader) error {
	if o.zr == nil {
		zr, err := zlib.NewReader(r)
		if err != nil {
			return fmt.Errorf("damaged object (zlib): %w", err)
		}
		o.zr = zr
		return nil
	}
	if err := o.zr.(zlib.Resetter).Reset(r, nil); err != nil {
		return fmt.Errorf("damaged object (zlib): %w", err)
	}
	return nil
}

// readLoose reads a loose object: its header, and its content when max >= 0
// allows (max = 0 with a non-empty object reads the header only).
// looseHeaderOnly as readLoose's max reads the type and size only (a max
// of 0 is a limit like any other: an empty object fits, others are too large).
const looseHeaderOnly = -1

func (o *odb) readLoose(path string, max int64) (string, int64, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", 0, nil, errNoObject // removed since (packed by gc)
		}
		return "", 0, nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReaderSize(f, 4096))
	if err != nil {
		return "", 0, nil, fmt.Errorf("damaged loose object: %w", err)
	}
	defer zr.Close()
	br := bufio.NewReaderSize(zr, 512)
	hdr, err := br.ReadSlice(0)
	if err != nil || len(hdr) > 64 {
		return "", 0, nil, errors.New("damaged loose object: no header")
	}
	typ, sz, ok := strings.Cut(string(hdr[:len(hdr)-1]), " ")
	size, perr := parseDecimal(sz)
	if !ok || perr != nil || typeCode(typ) == 0 {
		return "", 0, nil, fmt.Errorf("damaged loose object: header %q", hdr)
	}
	if max == looseHeaderOnly {
		return typ, size, nil, nil
	}
	if size > max {
		return typ, size, nil, &tooLargeError{size: size}
	}
	data, err := readExactly(br, size, nil)
	if err != nil {
		return "", 0, nil, fmt.Errorf("damaged loose object: %w", err)
	}
	return typ, size, data, nil
}

func parseDecimal(s string) (int64, error) {
	if s == "" || len(s) > 18 || (len(s) > 1 && s[0] == '0') {
		return 0, errors.New("bad number")
	}
	var v int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errors.New("bad number")
		}
		v = v*10 + int64(s[i]-'0')
	}
	return v, nil
}

// packEntry is a parsed pack entry header.
type packEntry struct {
	typ     int
	size    int64 // inflated size of the entry's data (a delta's own size for deltas)
	data    int64 // offset of the zlib stream
	baseOff int64 // objOfsDelta
	baseID  []byte
	head    []byte // the first bytes of the zlib stream, read with the header
	chunk   *[]byte
}

// chunks are the buffers entry headers are read into, reused: a hook is a
// short process, and fresh heap pages cost a page fault each.
var chunks = sync.Pool{New: func() any { b := make([]byte, entryChunk); return &b }}

func getChunk() *[]byte { return chunks.Get().(*[]byte) }

// release returns the entry's buffer; head is invalid afterwards.
func (e *packEntry) release() {
	if e.chunk != nil {
		chunks.Put(e.chunk)
		e.chunk, e.head = nil, nil
	}
}

// entryChunk is how much of a pack is read at an entry: its header and,
// for the small objects a hook reads (trees, commits, configs), all of
// its compressed data in the same system call.
const entryChunk = 4096

// entry reads and parses the entry header at off. The caller releases it.
func (p *packFile) entry(off int64) (packEntry, error) {
	e, err := p.parseEntry(off)
	if err != nil {
		e.release()
	}
	return e, err
}

func (p *packFile) parseEntry(off int64) (packEntry, error) {
	var e packEntry
	if off < 12 || off >= p.end {
		return e, fmt.Errorf("damaged pack %s: offset %d out of range", p.name, off)
	}
	n := p.end - off
	if n > entryChunk {
		n = entryChunk
	}
	var b []byte
	if p.packMap != nil {
		b = p.packMap[off : off+n]
	} else {
		e.chunk = getChunk()
		b = (*e.chunk)[:n]
		if _, err := p.f.ReadAt(b, off); err != nil {
			e.release()
			return e, fmt.Errorf("pack %s: %w", p.name, err)
		}
	}
	i := 0
	c := b[i]
	i++
	e.typ = int(c>>4) & 7
	e.size = int64(c & 15)
	shift := uint(4)
	for c&0x80 != 0 {
		if i >= len(b) || shift > 56 {
			return e, fmt.Errorf("damaged pack %s: bad entry header at %d", p.name, off)
		}
		c = b[i]
		i++
		e.size |= int64(c&0x7f) << shift
		shift += 7
	}
	switch e.typ {
	case objCommit, objTree, objBlob, objTag:
	case objOfsDelta:
		if i >= len(b) {
			return e, fmt.Errorf("damaged pack %s: bad delta at %d", p.name, off)
		}
		c = b[i]
		i++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(b) || rel > 1<<48 {
				return e, fmt.Errorf("damaged pack %s: bad delta offset at %d", p.name, off)
			}
			c = b[i]
			i++
			rel = ((rel + 1) << 7) | int64(c&0x7f)
		}
		if rel <= 0 || rel > off-12 {
			return e, fmt.Errorf("damaged pack %s: delta base out of range at %d", p.name, off)
		}
		e.baseOff = off - rel
	case objRefDelta:
		n := p.format.rawLen
		if i+n > len(b) {
			return e, fmt.Errorf("damaged pack %s: bad delta at %d", p.name, off)
		}
		e.baseID = append([]byte(nil), b[i:i+n]...)
		i += n
	default:
		return e, fmt.Errorf("damaged pack %s: unknown entry type %d at %d", p.name, e.typ, off)
	}
	e.data = off + int64(i)
	e.head = b[i:]
	return e, nil
}

// stream is the zlib input of an entry: the bytes read with its header,
// then the rest of the pack, read on demand into the entry's own chunk.
func (p *packFile) stream(e packEntry) *packStream {
	if p.packMap != nil {
		return &packStream{f: p, buf: p.packMap[e.data:p.end], next: p.end}
	}
	return &packStream{f: p, buf: e.head, next: e.data + int64(len(e.head)), chunk: e.chunk}
}

// packStream reads a pack from an offset; it is an io.ByteReader, so the
// inflater reads no further than the stream's end.
type packStream struct {
	f     *packFile
	buf   []byte
	next  int64 // pack offset of the byte after buf
	chunk *[]byte
}

func (s *packStream) fill() error {
	if s.next >= s.f.end {
		return io.ErrUnexpectedEOF
	}
	if s.chunk == nil {
		s.chunk = getChunk()
	}
	b := *s.chunk
	n := s.f.end - s.next
	if n > int64(len(b)) {
		n = int64(len(b))
	}
	if _, err := s.f.f.ReadAt(b[:n], s.next); err != nil {
		return err
	}
	s.buf, s.next = b[:n], s.next+n
	return nil
}

func (s *packStream) Read(b []byte) (int, error) {
	if len(s.buf) == 0 {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(b, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *packStream) ReadByte() (byte, error) {
	if len(s.buf) == 0 {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	c := s.buf[0]
	s.buf = s.buf[1:]
	return c, nil
}

// packInfo is the type and size of the object at off, following a delta
// chain through entry headers only.
func (o *odb) packInfo(p *packFile, off int64) (int, int64, error) {
	e, err := p.entry(off)
	if err != nil {
		return 0, 0, err
	}
	defer func() { e.release() }()
	if e.typ != objOfsDelta && e.typ != objRefDelta {
		return e.typ, e.size, nil
	}
	// The result size is the second varint of the delta data.
	hdr, err := o.deltaHeader(p, e)
	if err != nil {
		return 0, 0, err
	}
	_, n := deltaVarint(hdr)
	if n <= 0 {
		return 0, 0, fmt.Errorf("damaged pack %s: bad delta header at %d", p.name, off)
	}
	size, m := deltaVarint(hdr[n:])
	if m <= 0 {
		return 0, 0, fmt.Errorf("damaged pack %s: bad delta header at %d", p.name, off)
	}
	for depth := 0; ; depth++ {
		if depth > maxDeltaChain {
			return 0, 0, fmt.Errorf("damaged pack %s: delta chain too long at %d", p.name, off)
		}
		var next packEntry
		switch e.typ {
		case objOfsDelta:
			if next, err = p.entry(e.baseOff); err != nil {
				return 0, 0, err
			}
		case objRefDelta:
			loc, err := o.find(e.baseID)
			if err != nil {
				return 0, 0, fmt.Errorf("delta base %x: %w", e.baseID, err)
			}
			if loc.loose != "" {
				typ, _, _, err := o.readLoose(loc.loose, looseHeaderOnly)
				return typeCode(typ), int64(size), err
			}
			p = loc.pack
			if next, err = p.entry(loc.off); err != nil {
				return 0, 0, err
			}
		default:
			return e.typ, int64(size), nil
		}
		e.release()
		e = next
	}
}

// deltaHeader inflates the first bytes of a delta: its two size varints.
func (o *odb) deltaHeader(p *packFile, e packEntry) ([]byte, error) {
	n := e.size
	if n > 20 {
		n = 20
	}
	if err := o.resetZ(p.stream(e)); err != nil {
		return nil, fmt.Errorf("pack %s: %w", p.name, err)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(o.zr, buf); err != nil {
		return nil, fmt.Errorf("damaged pack %s: %w", p.name, err)
	}
	return buf, nil
}

// deltaVarint decodes a delta header size; n <= 0 when malformed.
func deltaVarint(b []byte) (uint64, int) {
	var v uint64
	var shift uint
	for i, c := range b {
		if shift > 63 {
			return 0, -1
		}
		v |= uint64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, -1
}

// packObject reads the object at off, resolving its delta chain.
func (o *odb) packObject(p *packFile, off int64) (int, []byte, error) {
	type link struct {
		p   *packFile
		off int64
		e   packEntry
	}
	var chain []link
	defer func() {
		for i := range chain {
			chain[i].e.release()
		}
	}()
	var typ int
	var data []byte
	cp, coff := p, off
	for {
		if len(chain) > maxDeltaChain {
			return 0, nil, fmt.Errorf("damaged pack %s: delta chain too long at %d", p.name, off)
		}
		if t, d, ok := o.bases.get(cp, coff); ok {
			typ, data = t, d
			if len(chain) == 0 {
				data = append([]byte(nil), d...) // the caller owns what it gets
			}
			break
		}
		e, err := cp.entry(coff)
		if err != nil {
			return 0, nil, err
		}
		if e.typ == objOfsDelta || e.typ == objRefDelta {
			chain = append(chain, link{cp, coff, e})
			if e.typ == objOfsDelta {
				coff = e.baseOff
				continue
			}
			loc, err := o.find(e.baseID)
			if err != nil {
				return 0, nil, fmt.Errorf("delta base %x: %w", e.baseID, err)
			}
			if loc.loose != "" {
				t, _, d, err := o.readLoose(loc.loose, o.maxObj)
				if err != nil {
					return 0, nil, fmt.Errorf("delta base %x: %w", e.baseID, err)
				}
				typ, data = typeCode(t), d
				break
			}
			cp, coff = loc.pack, loc.off
			continue
		}
		if e.size > o.maxObj {
			e.release()
			return 0, nil, fmt.Errorf("damaged pack %s: object at %d claims %d bytes", cp.name, coff, e.size)
		}
		d, err := o.inflate(cp.stream(e), e.size)
		e.release()
		if err != nil {
			return 0, nil, fmt.Errorf("pack %s at %d: %w", cp.name, coff, err)
		}
		typ, data = e.typ, d
		if len(chain) > 0 {
			o.bases.put(cp, coff, typ, data)
		}
		break
	}
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		if l.e.size > o.maxObj+1024 {
			return 0, nil, fmt.Errorf("damaged pack %s: delta at %d claims %d bytes", l.p.name, l.off, l.e.size)
		}
		delta, err := o.inflateDelta(l.p.stream(l.e), l.e.size)
		chain[i].e.release()
		if err != nil {
			return 0, nil, fmt.Errorf("pack %s at %d: %w", l.p.name, l.off, err)
		}
		out, err := applyDelta(data, delta, o.maxObj)
		if err != nil {
			return 0, nil, fmt.Errorf("damaged pack %s: delta at %d: %w", l.p.name, l.off, err)
		}
		data = out
		if i > 0 {
			o.bases.put(l.p, l.off, typ, data)
		}
	}
	return typ, data, nil
}

// applyDelta applies a git delta to base.
func applyDelta(base, delta []byte, max int64) ([]byte, error) {
	srcSize, n := deltaVarint(delta)
	if n <= 0 {
		return nil, errors.New("bad header")
	}
	delta = delta[n:]
	dstSize, n := deltaVarint(delta)
	if n <= 0 {
		return nil, errors.New("bad header")
	}
	delta = delta[n:]
	if srcSize != uint64(len(base)) {
		return nil, fmt.Errorf("base is %d bytes, delta expects %d", len(base), srcSize)
	}
	if dstSize > uint64(max) {
		return nil, fmt.Errorf("result of %d bytes", dstSize)
	}
	out := make([]byte, 0, min(dstSize, 1<<20)) // grown by append past a MiB: dstSize is the delta's claim
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			for k := uint(0); k < 4; k++ {
				if op&(1<<k) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("truncated copy")
					}
					off |= uint64(delta[0]) << (8 * k)
					delta = delta[1:]
				}
			}
			for k := uint(0); k < 3; k++ {
				if op&(0x10<<k) != 0 {
					if len(delta) == 0 {
						return nil, errors.New("truncated copy")
					}
					size |= uint64(delta[0]) << (8 * k)
					delta = delta[1:]
				}
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || uint64(len(out))+size > dstSize {
				return nil, errors.New("copy out of range")
			}
			out = append(out, base[off:off+size]...)
		case op != 0:
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dstSize {
				return nil, errors.New("insert out of range")
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errors.New("reserved opcode 0")
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, fmt.Errorf("result is %d bytes, delta promised %d", len(out), dstSize)
	}
	return out, nil
}

// packFile is one pack and its index. Both are read with pread until the
// odb has read mapThreshold objects, then memory-mapped: a lookup reads a
// few dozen bytes of the index where the binary search lands, an object
// the chunk of the pack it lies in. On the virtual machines this runs on,
// a page fault on a fresh mapping costs 15-25 µs against 2-3 µs for a
// pread, and a hook is a fresh process that reads a hundred objects, each
// once; a history walk reads hundreds of thousands.
type packFile struct {
	format  objectFormat
	name    string // the pack's path, for messages
	idx, f  *os.File
	end     int64 // where entries end: the pack's length less its trailing checksum
	n       int
	version int // index version
	fanout  [256]uint32
	names   int64 // offset of the first name (v2) or entry (v1) in the index
	offsets int64 // v2: offset of the 32-bit offset table
	large   int64 // v2: offset of the 64-bit offset table
	idxEnd  int64 // v2: end of the large offset table
	scratch []byte
	// idxMap and packMap are the files mapped into memory, once the odb
	// has read enough objects for mapping to pay (see mapThreshold).
	idxMap, packMap []byte
	unmap           []func() error
}

func openPack(f objectFormat, idxPath string) (*packFile, error) {
	packPath := strings.TrimSuffix(idxPath, ".idx") + ".pack"
	pf, err := os.Open(packPath)
	if err != nil {
		return nil, err
	}
	p := &packFile{format: f, name: packPath, f: pf}
	if p.idx, err = os.Open(idxPath); err != nil {
		p.close()
		return nil, err
	}
	if err := p.parseIndex(); err != nil {
		p.close()
		return nil, fmt.Errorf("pack index %s: %w", idxPath, err)
	}
	fi, err := pf.Stat()
	if err != nil {
		p.close()
		return nil, err
	}
	var hdr [12]byte
	if fi.Size() < int64(12+f.rawLen) {
		p.close()
		return nil, fmt.Errorf("pack %s: not a pack file", packPath)
	}
	if _, err := pf.ReadAt(hdr[:], 0); err != nil {
		p.close()
		return nil, fmt.Errorf("pack %s: %w", packPath, err)
	}
	if string(hdr[:4]) != "PACK" {
		p.close()
		return nil, fmt.Errorf("pack %s: not a pack file", packPath)
	}
	if v := binary.BigEndian.Uint32(hdr[4:8]); v != 2 && v != 3 {
		p.close()
		return nil, fmt.Errorf("pack %s: version %d not supported", packPath, v)
	}
	if n := binary.BigEndian.Uint32(hdr[8:12]); int(n) != p.n {
		p.close()
		return nil, fmt.Errorf("pack %s: holds %d objects, its index %d", packPath, n, p.n)
	}
	p.end = fi.Size() - int64(f.rawLen)
	return p, nil
}

func (p *packFile) parseIndex() error {
	fi, err := p.idx.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	hl := int64(p.format.rawLen)
	var head [8 + 1024]byte
	if size < 1024+2*hl {
		return errors.New("truncated")
	}
	n, err := p.idx.ReadAt(head[:], 0)
	if n < 1024 {
		return fmt.Errorf("truncated: %v", err)
	}
	fan := head[:]
	if binary.BigEndian.Uint32(head[:]) == 0xff744f63 {
		if n < len(head) {
			return errors.New("truncated")
		}
		if v := binary.BigEndian.Uint32(head[4:]); v != 2 {
			return fmt.Errorf("version %d not supported", v)
		}
		p.version, fan = 2, head[8:]
	} else {
		p.version = 1
	}
	var ok bool
	if p.fanout, p.n, ok = parseFanout(fan); !ok {
		return errors.New("fan-out table not sorted")
	}
	N := int64(p.n)
	if p.version == 2 {
		p.names = 8 + 1024
		p.offsets = p.names + N*hl + N*4
		p.large = p.offsets + N*4
		p.idxEnd = size - 2*hl
		if p.large > p.idxEnd || (p.idxEnd-p.large)%8 != 0 {
			return errors.New("truncated")
		}
	} else {
		p.names = 1024
		if p.names+N*(hl+4)+2*hl > size {
			return errors.New("truncated")
		}
	}
	return nil
}

// findWindow: below this many candidates, the binary search reads them all
// at once (20 KiB) instead of one name per system call: a lookup in a
// million-object pack is then three preads (a probe, the window, the
// offset), in ten million six.
const findWindow = 1024

// find binary-searches the index for raw.
func (p *packFile) find(raw []byte) (int64, bool, error) {
	hl := int64(p.format.rawLen)
	stride, at := hl, int64(0) // where entry i's name is: names + i*stride + at
	if p.version == 1 {
		stride, at = hl+4, 4
	}
	first := int(raw[0])
	lo := 0
	if first > 0 {
		lo = int(p.fanout[first-1])
	}
	hi := int(p.fanout[first])
	if p.idxMap != nil && p.version == 2 {
		return p.findMapped(raw, lo, hi)
	}
	if len(p.scratch) < findWindow*int(stride) {
		p.scratch = make([]byte, findWindow*int(stride))
	}
	for hi-lo > findWindow {
		mid := lo + (hi-lo)/2
		name, err := p.idxAt(p.scratch[:hl], p.names+int64(mid)*stride+at)
		if err != nil {
			return 0, false, err
		}
		switch bytes.Compare(name, raw) {
		case 0:
			lo, hi = mid, mid+1
		case -1:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	if lo >= hi {
		return 0, false, nil
	}
	win, err := p.idxAt(p.scratch[:int64(hi-lo)*stride], p.names+int64(lo)*stride)
	if err != nil {
		return 0, false, err
	}
	k := sort.Search(hi-lo, func(k int) bool {
		return bytes.Compare(win[int64(k)*stride+at:int64(k)*stride+at+hl], raw) >= 0
	})
	if k >= hi-lo || !bytes.Equal(win[int64(k)*stride+at:int64(k)*stride+at+hl], raw) {
		return 0, false, nil
	}
	if p.version == 1 {
		return int64(binary.BigEndian.Uint32(win[int64(k)*stride:])), true, nil
	}
	return p.offsetAt(int64(lo + k))
}

// findMapped is find in a mapped version 2 index: an interpolation search
// (object ids are uniformly distributed, so a probe lands within a few
// entries of the id: a handful of comparisons instead of a binary search's
// seventeen in a million-object pack), falling back to halving whenever the
// guess is not between the bounds.
func (p *packFile) findMapped(raw []byte, lo, hi int) (int64, bool, error) {
	hl := p.format.rawLen
	if int64(len(p.idxMap)) < p.names+int64(p.n*hl) {
		return 0, false, fmt.Errorf("pack index of %s: truncated", p.name)
	}
	names := p.idxMap[p.names : p.names+int64(p.n*hl)]
	name := func(i int) []byte { return names[i*hl : i*hl+hl] }
	key := binary.BigEndian.Uint64(raw)
	for lo < hi {
		a, b := binary.BigEndian.Uint64(name(lo)), binary.BigEndian.Uint64(name(hi-1))
		mid := lo + (hi-lo)/2
		if key < a || key > b {
			return 0, false, nil
		}
		if b > a && hi-lo > 8 {
			mid = lo + int(float64(key-a)/float64(b-a)*float64(hi-1-lo))
		}
		switch c := bytes.Compare(name(mid), raw); {
		case c == 0:
			return p.offsetAt(int64(mid))
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false, nil
}

// offsetAt is the pack offset of index entry i (version 2).
func (p *packFile) offsetAt(i int64) (int64, bool, error) {
	var buf [8]byte
	b, err := p.idxAt(buf[:4], p.offsets+4*i)
	if err != nil {
		return 0, false, err
	}
	off := binary.BigEndian.Uint32(b)
	if off&0x80000000 == 0 {
		return int64(off), true, nil
	}
	ls := p.large + 8*int64(off&0x7fffffff)
	if ls+8 > p.idxEnd {
		return 0, false, fmt.Errorf("pack index of %s: large offset out of range", p.name)
	}
	if b, err = p.idxAt(buf[:], ls); err != nil {
		return 0, false, err
	}
	return int64(binary.BigEndian.Uint64(b)), true, nil
}

// idxAt returns len(buf) bytes of the index at off: a slice of the mapping
// when the index is mapped, else read into buf.
func (p *packFile) idxAt(buf []byte, off int64) ([]byte, error) {
	if p.idxMap != nil {
		if off < 0 || off+int64(len(buf)) > int64(len(p.idxMap)) {
			return nil, fmt.Errorf("pack index of %s: offset %d out of range", p.name, off)
		}
		return p.idxMap[off : off+int64(len(buf))], nil
	}
	if _, err := p.idx.ReadAt(buf, off); err != nil {
		return nil, fmt.Errorf("pack index of %s: %w", p.name, err)
	}
	return buf, nil
}

// parseFanout reads a 256-entry fan-out table (pack index, commit-graph):
// entry i counts the ids whose first byte is <= i, so it never decreases;
// n is the last entry, the number of ids. ok is false when it decreases or
// b is short.
func parseFanout(b []byte) (fan [256]uint32, n int, ok bool) {
	if len(b) < 256*4 {
		return fan, 0, false
	}
	prev := uint32(0)
	for i := range fan {
		v := binary.BigEndian.Uint32(b[4*i:])
		if v < prev {
			return fan, 0, false
		}
		fan[i], prev = v, v
	}
	return fan, int(prev), true
}

// mapThreshold: after this many object reads, an odb maps its packs and
// indexes into memory. A hook reads a hundred objects, each once, and a
// page fault on a fresh mapping costs far more than a pread; a history
// walk reads hundreds of thousands, and then a system call per read costs
// more than faulting each page in once.
const mapThreshold = 4096

// mapAll maps every pack and index; failures leave pread in place.
func (p *packFile) mapAll() {
	if p.idxMap == nil {
		if b, unmap, err := mapFile(p.idx); err == nil {
			p.idxMap, p.unmap = b, append(p.unmap, unmap)
		}
	}
	if p.packMap == nil {
		if b, unmap, err := mapFile(p.f); err == nil && int64(len(b)) >= p.end {
			p.packMap, p.unmap = b, append(p.unmap, unmap)
		}
	}
}

func (p *packFile) close() error {
	var errs []error
	for _, u := range p.unmap {
		errs = append(errs, u())
	}
	p.unmap, p.idxMap, p.packMap = nil, nil, nil
	for _, f := range []*os.File{p.idx, p.f} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	p.idx, p.f = nil, nil
	return errors.Join(errs...)
}

// baseCache keeps recently inflated delta bases (trees mostly: a path's
// directories are deltas of each other), bounded in bytes.
type baseCache struct {
	max, used int
	m         map[baseKey]baseVal
	order     []baseKey
}

type baseKey struct {
	p   *packFile
	off int64
}

type baseVal struct {
	typ  int
	data []byte
}

func newBaseCache(max int) *baseCache { return &baseCache{max: max, m: map[baseKey]baseVal{}} }

func (c *baseCache) get(p *packFile, off int64) (int, []byte, bool) {
	v, ok := c.m[baseKey{p, off}]
	return v.typ, v.data, ok
}

func (c *baseCache) put(p *packFile, off int64, typ int, data []byte) {
	if len(data) > c.max/4 {
		return
	}
	k := baseKey{p, off}
	if _, ok := c.m[k]; ok {
		return
	}
	for c.used+len(data) > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.used -= len(c.m[old].data)
		delete(c.m, old)
	}
	c.m[k] = baseVal{typ, data}
	c.order = append(c.order, k)
	c.used += len(data)
}

// readSmallFile reads a regular file of at most max bytes.
func readSmallFile(p string, max int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, too large", p, fi.Size())
	}
	return io.ReadAll(io.LimitReader(f, max+1))
}
