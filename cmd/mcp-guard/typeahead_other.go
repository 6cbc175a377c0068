//go:build !linux && !aix && !solaris && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd && !windows

package main

import "errors"

// discardTypeahead cannot drop type-ahead here, so terminalKeys refuses
// to take a key rather than let one typed earlier decide.
func discardTypeahead(fd int) error {
	return errors.ErrUnsupported
}
