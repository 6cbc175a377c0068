//go:build !linux

package hostile

import "testing"

// MountTmpfs skips the test: a small tmpfs needs Linux.
func MountTmpfs(t testing.TB, size int) string {
	t.Helper()
	t.Skip("a small tmpfs (full disk, read-only home) needs root on Linux")
	return ""
}

// RemountReadOnly is never reached off Linux (MountTmpfs skips).
func RemountReadOnly(t testing.TB, dir string) {
	t.Helper()
	t.Skip("needs Linux")
}
