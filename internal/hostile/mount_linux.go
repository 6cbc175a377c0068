package hostile

import (
	"os"
	"strconv"
	"syscall"
	"testing"
)

// MountTmpfs mounts a tmpfs of size bytes on a new directory and unmounts
// it when the test ends: a filesystem small enough to fill (a full disk),
// or to remount read-only (which binds root too). It needs root on Linux
// and skips the test otherwise, saying why.
func MountTmpfs(t testing.TB, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a small tmpfs (full disk, read-only home) needs root on Linux")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)+",mode=0755"); err != nil {
		t.Skipf("cannot mount a tmpfs (%v): no way to make a full or read-only disk here", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// RemountReadOnly makes a MountTmpfs directory read-only.
func RemountReadOnly(t testing.TB, dir string) {
	t.Helper()
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remount %s read-only: %v", dir, err)
	}
}
