//go:build unix

package gitscan

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

// ownedByUs is git's is_path_owned_by_current_user (git 2.39): the owner
// is the effective user, or SUDO_UID when running as root. A path that
// does not exist (no `.git` file in a GIT_DIR layout) passes.
func ownedByUs(p string, env []string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	euid := os.Geteuid()
	if int(st.Uid) == euid {
		return true
	}
	if euid == 0 {
		if v, ok := getenv(env, "SUDO_UID"); ok {
			if u, err := strconv.ParseUint(v, 10, 32); err == nil && uint32(u) == uint32(st.Uid) {
				return true
			}
		}
	}
	return false
}

// fileDev is the device a path lives on.
func fileDev(p string) (uint64, bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true
}
