//go:build unix

package gitobj

import (
	"errors"
	"os"
	"syscall"
)

// mapFile maps an open file read-only. Packs and their indexes are never
// modified in place (git writes new files and renames them), so a mapping
// stays valid even if the file is deleted meanwhile.
func mapFile(f *os.File) ([]byte, func() error, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if size <= 0 || int64(int(size)) != size {
		return nil, nil, errors.New("cannot map")
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
