package gitobj

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
)

// packFile is one pack and its index. Both are read with pread until the
// Reader has read mapThreshold objects, then memory-mapped: a lookup reads a
// few dozen bytes of the index where the binary search lands, an object
// the chunk of the pack it lies in. On the virtual machines this runs on,
// a page fault on a fresh mapping costs 15-25 µs against 2-3 µs for a
// pread, and a hook is a fresh process that reads a hundred objects, each
// once; a history walk reads hundreds of thousands.
type packFile struct {
	format  Format
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
	// idxMap and packMap are the files mapped into memory, once the Reader
	// has read enough objects for mapping to pay (see mapThreshold).
	idxMap, packMap []byte
	unmap           []func() error
}

func openPack(f Format, idxPath string) (*packFile, error) {
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
	if fi.Size() < int64(12+f.RawLen) {
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
		return nil, fmt.Errorf("pack %s: version %d: %w", packPath, v, ErrUnsupported)
	}
	if n := binary.BigEndian.Uint32(hdr[8:12]); int(n) != p.n {
		p.close()
		return nil, fmt.Errorf("pack %s: holds %d objects, its index %d", packPath, n, p.n)
	}
	p.end = fi.Size() - int64(f.RawLen)
	return p, nil
}

func (p *packFile) parseIndex() error {
	fi, err := p.idx.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	hl := int64(p.format.RawLen)
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
			return fmt.Errorf("version %d: %w", v, ErrUnsupported)
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
	hl := int64(p.format.RawLen)
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
	hl := p.format.RawLen
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

// mapThreshold: after this many object reads, a Reader maps its packs and
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
