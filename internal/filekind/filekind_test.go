package filekind

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestDescribe(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		fs.ModeDir | 0o755:                "a directory",
		fs.ModeNamedPipe | 0o644:          "a FIFO",
		fs.ModeDevice | fs.ModeCharDevice: "a device",
		fs.ModeDevice:                     "a device",
		fs.ModeSocket:                     "a socket",
		0o644:                             "a regular file",
		fs.ModeIrregular:                  "mode ?---------",
	} {
		if got := Describe(m); got != want {
			t.Errorf("Describe(%v) = %q, want %q", m, got, want)
		}
	}
	err := fmt.Errorf("x: %w", Of(fs.ModeNamedPipe))
	var fe *Error
	if !errors.Is(err, ErrNotRegular) || !errors.As(err, &fe) || err.Error() != "x: not a regular file (a FIFO)" {
		t.Errorf("wrapped: %v", err)
	}
}
