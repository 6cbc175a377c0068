// Package filekind is the one wording for a path mcp-guard will not read
// because it is not a regular file (a FIFO, device, socket or directory):
// the configuration readers on disk (trust), in the work tree (gitscan)
// and the scan's directory walk all say it the same way, so that check,
// review, scan and diff agree.
package filekind

import (
	"errors"
	"io/fs"
)

// ErrNotRegular is matched (errors.Is) by every *Error.
var ErrNotRegular = errors.New("not a regular file")

// Error says what a path is instead of a regular file.
type Error struct {
	// Kind is Describe's text: "a FIFO", "a directory", …
	Kind string
}

func (e *Error) Error() string { return ErrNotRegular.Error() + " (" + e.Kind + ")" }

// Unwrap makes errors.Is(err, ErrNotRegular) true.
func (e *Error) Unwrap() error { return ErrNotRegular }

// Of is the error for a file of mode m.
func Of(m fs.FileMode) *Error { return &Error{Kind: Describe(m)} }

// Describe names what a file of mode m is: "a directory", "a FIFO", "a
// device", "a socket", else its mode.
func Describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "mode " + m.String()
}
