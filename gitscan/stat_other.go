//go:build !linux

package gitscan

import (
	"os"
	"time"
)

func fileIno(fi os.FileInfo) uint64 { return 0 }

func fileCtime(fi os.FileInfo) (time.Time, bool) { return time.Time{}, false }

const openFlags = 0

const statCacheUsable = false
