//go:build unix

package testtmp

import (
	"errors"
	"syscall"
)

// running reports whether process pid exists (signal 0 reaches it, or
// it belongs to another user).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
