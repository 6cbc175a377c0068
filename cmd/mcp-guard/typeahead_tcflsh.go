//go:build linux || aix || solaris

package main

import "golang.org/x/sys/unix"

// discardTypeahead drops the input waiting on terminal fd: tcflush(fd,
// TCIFLUSH). Output still queued for the screen is kept.
func discardTypeahead(fd int) error {
	return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)
}
