//go:build !linux

package gitscan

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

func fileIno(fi os.FileInfo) uint64 { return 0 }

func fileCtime(fi os.FileInfo) (time.Time, bool) { return time.Time{}, false }

const openFlags = 0

const statCacheUsable = false

// sameFile is os.SameFile (lstatRel returns os.Lstat's FileInfo here).
func sameFile(a, b os.FileInfo) bool { return os.SameFile(a, b) }

// topDir is opened only on Linux (see stat_linux.go).
type topDir struct{}

func (t *topDir) close() {}

// lstatRel lstats the repository path p below the work tree's top.
func (r *Repo) lstatRel(p string) (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(r.top, filepath.FromSlash(p)))
}

// lstatScratch is lstatRel (see stat_linux.go).
func (r *Repo) lstatScratch(p string) (fs.FileInfo, error) { return r.lstatRel(p) }

// untrackedCandidates is Linux's (untracked_linux.go); here git lists
// the untracked files itself.
func (r *Repo) untrackedCandidates(idx *indexCache) ([]string, bool) { return nil, false }
