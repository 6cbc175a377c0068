//go:build unix

package gitscan

import (
	"errors"
	"os"
	"syscall"
)

// ownedByUs reports whether p is owned by the effective user, the case in
// which git's safe.directory check (is_path_owned_by_current_user) passes
// whatever the configuration says. Anything else (another owner, root
// running for SUDO_UID, whose handling depends on git's version) is left
// to git. A path that does not exist (no `.git` file in a GIT_DIR layout)
// passes.
func ownedByUs(p string, env []string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
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
