//go:build linux && !(amd64 || arm64)

package gitscan

import "golang.org/x/sys/unix"

// lstatAt is fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW) (see fstatat_raw.go).
func lstatAt(dirfd int, name string, st *unix.Stat_t, _ *[]byte) error {
	return unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
}
