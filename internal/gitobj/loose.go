package gitobj

import (
	"bufio"
	"compress/zlib"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// readLoose reads a loose object: its header, and its content when max >= 0
// allows (max = 0 with a non-empty object reads the header only).
// looseHeaderOnly as readLoose's max reads the type and size only (a max
// of 0 is a limit like any other: an empty object fits, others are too large).
const looseHeaderOnly = -1

func (o *Reader) readLoose(path string, max int64) (string, int64, []byte, error) {
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
		return typ, size, nil, &TooLargeError{Size: size}
	}
	data, err := readExactly(br, size, nil)
	if err != nil {
		return "", 0, nil, fmt.Errorf("damaged loose object: %w", err)
	}
	if err := streamEnd(br); err != nil {
		return "", 0, nil, fmt.Errorf("loose object: %w", err)
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
