package gitobj

import (
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// inflate decompresses exactly size bytes from r.
func (o *Reader) inflate(r io.Reader, size int64) ([]byte, error) {
	if err := o.resetZ(r); err != nil {
		return nil, err
	}
	buf, err := readExactly(o.zr, size, nil)
	if err != nil {
		return nil, fmt.Errorf("damaged object (inflated to fewer bytes than its size): %w", err)
	}
	if err := streamEnd(o.zr); err != nil {
		return nil, err
	}
	return buf, nil
}

// streamEnd checks that a zlib stream ends where its object does. zlib
// verifies its Adler-32 checksum only when the stream is read to its end,
// and a damaged entry can inflate to exactly its size in wrong bytes (one
// flipped bit in a compressed blob changes a letter of its content): git
// rejects such an entry (it requires Z_STREAM_END), and so must we.
func streamEnd(r io.Reader) error {
	var b [1]byte
	for range 4 { // a Reader may return 0, nil; zlib's does not loop on it
		n, err := r.Read(b[:])
		switch {
		case n > 0:
			return errors.New("damaged object (inflates to more bytes than its size)")
		case err == io.EOF:
			return nil
		case err != nil:
			return fmt.Errorf("damaged object (zlib): %w", err)
		}
	}
	return errors.New("damaged object (zlib stream does not end)")
}

// inflateDelta is inflate into a buffer reused from one delta to the next
// (a delta is garbage once applied).
func (o *Reader) inflateDelta(r io.Reader, size int64) ([]byte, error) {
	if err := o.resetZ(r); err != nil {
		return nil, err
	}
	buf, err := readExactly(o.zr, size, o.scratch)
	if err != nil {
		return nil, fmt.Errorf("damaged object (inflated to fewer bytes than its size): %w", err)
	}
	if err := streamEnd(o.zr); err != nil {
		return nil, err
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

func (o *Reader) resetZ(r io.Reader) error {
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
