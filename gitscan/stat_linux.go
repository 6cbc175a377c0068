//go:build linux

package gitscan

import (
	"os"
	"syscall"
	"time"
)

func fileIno(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

func fileCtime(fi os.FileInfo) (time.Time, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)), true
	}
	return time.Time{}, false
}

const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// statCacheUsable: the stat cache is trusted only where ctime and inode
// are available to check (Linux); elsewhere every file is hashed.
const statCacheUsable = true
