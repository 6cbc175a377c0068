package gitobj

import (
	"fmt"
	"io"
	"sync"
)

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
		n := p.format.RawLen
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
func (o *Reader) packInfo(p *packFile, off int64) (int, int64, error) {
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
func (o *Reader) deltaHeader(p *packFile, e packEntry) ([]byte, error) {
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

// packObject reads the object at off, resolving its delta chain.
func (o *Reader) packObject(p *packFile, off int64) (int, []byte, error) {
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
