package gitobj

import (
	"errors"
	"fmt"
)

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
