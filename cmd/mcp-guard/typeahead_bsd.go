//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// fread is FREAD of <sys/fcntl.h>, which x/sys/unix does not export: with
// TIOCFLUSH it selects the input queue only (0 would flush output too).
const fread = 0x1

// discardTypeahead drops the input waiting on terminal fd, as tcflush(fd,
// TCIFLUSH) does on the BSDs. Output still queued for the screen is kept.
func discardTypeahead(fd int) error {
	return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread)
}
