//go:build linux

package gitscan

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func fileIno(fi os.FileInfo) uint64 {
	switch st := fi.Sys().(type) {
	case *syscall.Stat_t:
		return uint64(st.Ino)
	case *lstatInfo:
		return st.ino
	}
	return 0
}

func fileCtime(fi os.FileInfo) (time.Time, bool) {
	switch st := fi.Sys().(type) {
	case *syscall.Stat_t:
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)), true
	case *lstatInfo:
		return time.Unix(int64(st.ctime.Sec), int64(st.ctime.Nsec)), true
	}
	return time.Time{}, false
}

// sameFile is os.SameFile for the FileInfo of os.Stat and of lstatRel.
func sameFile(a, b os.FileInfo) bool {
	devIno := func(fi os.FileInfo) (uint64, uint64, bool) {
		switch st := fi.Sys().(type) {
		case *syscall.Stat_t:
			return st.Dev, st.Ino, true
		case *lstatInfo:
			return st.dev, st.ino, true
		}
		return 0, 0, false
	}
	da, ia, oka := devIno(a)
	db, ib, okb := devIno(b)
	return oka && okb && da == db && ia == ib
}

const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// statCacheUsable: the stat cache is trusted only where ctime and inode
// are available to check (Linux); elsewhere every file is hashed.
const statCacheUsable = true

// lstatInfo is what one fstatat saw, as an fs.FileInfo: only the fields
// gitscan reads (80 bytes, not a 144-byte stat buffer and a name per
// file of the work tree).
type lstatInfo struct {
	name         string
	mode         uint32
	size         int64
	mtime, ctime unix.Timespec
	ino, dev     uint64
}

func (s *lstatInfo) Name() string       { return s.name }
func (s *lstatInfo) Size() int64        { return s.size }
func (s *lstatInfo) ModTime() time.Time { return time.Unix(int64(s.mtime.Sec), int64(s.mtime.Nsec)) }
func (s *lstatInfo) IsDir() bool        { return s.mode&unix.S_IFMT == unix.S_IFDIR }
func (s *lstatInfo) Sys() any           { return s }

// Mode is os.Lstat's FileMode for the same stat data.
func (s *lstatInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.mode & 0o777)
	switch s.mode & unix.S_IFMT {
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// topDir is the work tree's top directory, opened once (O_PATH) so that
// each lstat below it walks only the repository path, not the directories
// above the work tree again: at 20,000 files those were half of the
// kernel's path walk. Nil when it cannot be opened (lstatRel then lstats
// the whole path).
type topDir struct {
	f      *os.File
	fdNum  int
	opened bool
	st     unix.Stat_t // lstatRel's buffers, reused
	path   []byte
	file   lstatInfo // lstatScratch's answer, reused
}

func (t *topDir) fd(top string) (int, bool) {
	if !t.opened {
		t.opened = true
		fd, err := unix.Open(top, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err == nil {
			t.f = os.NewFile(uintptr(fd), top) // closed by close, or when the Repo is collected
			t.fdNum = fd
		}
	}
	if t.f == nil {
		return 0, false
	}
	return t.fdNum, true
}

func (t *topDir) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

// lstatRel lstats the repository path p (not "") below the work tree's
// top: what os.Lstat of the joined path answers.
func (r *Repo) lstatRel(p string) (fs.FileInfo, error) {
	return r.lstatInto(p, nil)
}

// lstatScratch is lstatRel answered in a buffer the next call reuses: for
// a caller that is done with the answer before it lstats again (the
// whole tree's listing, 80 bytes a file otherwise).
func (r *Repo) lstatScratch(p string) (fs.FileInfo, error) {
	return r.lstatInto(p, &r.topDir.file)
}

// lstatInto is lstatRel, answered in into when not nil.
func (r *Repo) lstatInto(p string, into *lstatInfo) (fs.FileInfo, error) {
	fd, ok := r.topDir.fd(r.top)
	if !ok {
		return os.Lstat(filepath.Join(r.top, filepath.FromSlash(p)))
	}
	st := &r.topDir.st
	for {
		err := lstatAt(fd, p, st, &r.topDir.path)
		if err == nil {
			if into == nil {
				into = new(lstatInfo)
			}
			*into = lstatInfo{
				name: p[strings.LastIndexByte(p, '/')+1:],
				mode: uint32(st.Mode), size: int64(st.Size), mtime: st.Mtim, ctime: st.Ctim, ino: uint64(st.Ino), dev: uint64(st.Dev),
			}
			return into, nil
		}
		if !errors.Is(err, unix.EINTR) {
			return nil, &fs.PathError{Op: "lstat", Path: filepath.Join(r.top, filepath.FromSlash(p)), Err: err}
		}
	}
}
