//go:build !unix

package gitobj

import (
	"errors"
	"os"
)

// mapFile is not available here: packs are read with pread throughout.
func mapFile(f *os.File) ([]byte, func() error, error) {
	return nil, nil, errors.New("memory mapping not supported")
}
