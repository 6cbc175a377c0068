//go:build linux

package gitscan

import (
	"encoding/binary"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// untrackedCandidates walks the work tree as git's untracked listing does
// (every directory read once, `.git` never entered, a gitlink's directory
// never entered) and returns what the index does not account for: each
// name that is not a tracked file nor a directory holding tracked files,
// at the highest level where it appears. Only these can be untracked files
// (what is tracked is listed from the index whatever the ignore rules
// say), so only these need git's ignore rules: an everyday tree with
// nothing untracked needs no git process at all. ok is false when the
// walk could not read a directory: the caller asks git about everything.
func (r *Repo) untrackedCandidates(idx *indexCache) (cands []string, ok bool) {
	top, ok := r.topDir.fd(r.top)
	if !ok {
		return nil, false
	}
	es := idx.entries
	buf := make([]byte, 32<<10) // shared: a directory is read to its end before its subdirectories
	type subdir struct {
		p    string
		a, b int
	}
	var walk func(dir string, lo, hi int) bool
	walk = func(dir string, lo, hi int) bool {
		var subs []subdir
		// es[lo:hi] are the index entries below dir (all when dir is "").
		plen := 0
		at := "."
		if dir != "" {
			plen, at = len(dir)+1, dir
		}
		fd, err := unix.Openat(top, at, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return false
		}
		for {
			n, err := unix.ReadDirent(fd, buf)
			if err != nil {
				unix.Close(fd)
				return false
			}
			if n == 0 {
				break
			}
			for off := 0; off+19 <= n; {
				reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
				if reclen < 19 || off+reclen > n {
					unix.Close(fd)
					return false
				}
				typ := buf[off+18]
				raw := buf[off+19 : off+reclen]
				if k := indexByte0(raw); k >= 0 {
					raw = raw[:k]
				}
				off += reclen
				if string(raw) == "." || string(raw) == ".." || string(raw) == ".git" {
					continue // git never lists nor enters a .git
				}
				// The index entry named raw (exact), and the run of
				// entries below raw/ (a directory's tracked files). The
				// name is a string of its own only where it is kept: a
				// tracked file costs no allocation.
				i := lo + sort.Search(hi-lo, func(k int) bool { return es[lo+k].Path[plen:] >= string(raw) })
				exact := i < hi && es[i].Path[plen:] == string(raw)
				var name string
				if exact {
					name = es[i].Path[plen:]
				} else {
					name = string(raw)
				}
				if typ == unix.DT_UNKNOWN {
					var st unix.Stat_t
					if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
						unix.Close(fd)
						return false
					}
					typ = dtypeOf(st.Mode)
				}
				path := func() string {
					if dir == "" {
						return name
					}
					return dir + "/" + name
				}
				switch typ {
				case unix.DT_DIR:
					if exact && es[i].Mode == ModeSubmodule {
						continue // a gitlink: its index entry stands for it
					}
					sub := name + "/"
					a := i + sort.Search(hi-i, func(k int) bool { return es[i+k].Path[plen:] >= sub })
					b := a + sort.Search(hi-a, func(k int) bool { return !strings.HasPrefix(es[a+k].Path[plen:], sub) })
					if exact || a == b {
						// Nothing tracked below (or a tracked file where
						// a directory is now): git decides what is there.
						cands = append(cands, path())
						continue
					}
					subs = append(subs, subdir{path(), a, b})
				default:
					if exact && es[i].Mode != ModeSubmodule {
						continue // a tracked file: listed from the index
					}
					cands = append(cands, path())
				}
			}
		}
		unix.Close(fd)
		for _, d := range subs {
			if !walk(d.p, d.a, d.b) {
				return false
			}
		}
		return true
	}
	if !walk("", 0, len(es)) {
		return nil, false
	}
	return cands, true
}

func indexByte0(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

// dtypeOf is the directory entry type of a stat mode.
func dtypeOf(mode uint32) uint8 {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return unix.DT_DIR
	case unix.S_IFREG:
		return unix.DT_REG
	case unix.S_IFLNK:
		return unix.DT_LNK
	}
	return unix.DT_UNKNOWN
}
