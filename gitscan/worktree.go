package gitscan

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/filekind"
)

// The work tree is read with lstat, one path component at a time, and
// files are opened through an os.Root at the work tree root with
// O_NOFOLLOW|O_NONBLOCK, then checked with fstat: a symlink is never
// followed (it is an entry whose content is its target text, as git stores
// it), a path through a symlinked directory does not exist (as in git's
// trees), nothing outside the work tree is opened, and a FIFO, device or
// socket is never read (ErrNotRegular).

// wtFile is one work tree path as lstat saw it.
type wtFile struct {
	fi   fs.FileInfo
	mode Mode // 0 for a directory or a non-regular file
}

// lstatPath lstats every component of a repository path. It returns
// fs.ErrNotExist when a component is missing or an intermediate component
// is not a real directory (a symlink, a file). Each path is lstat'ed once
// per Repo (see wtMemo): a launch model asks about the same directories
// for every file below them, and several clients' servers about the same
// files.
func (r *Repo) lstatPath(p string) (fs.FileInfo, error) {
	if err := validPath(p); err != nil {
		return nil, err
	}
	return r.lstatMemo(p)
}

func (r *Repo) lstatMemo(p string) (fs.FileInfo, error) {
	if m, ok := r.wt.stat[p]; ok {
		return m.fi, m.err
	}
	fi, err := r.lstatOnce(p, false)
	if err == nil && fi.IsDir() {
		// Directories are asked about again for every path below them;
		// a file's answer is kept as its entry (worktreeEntry).
		r.wt.rememberStat(p, fi, err)
	}
	return fi, err
}

// lstatParent is lstatMemo for a path asked about as the parent of
// another: its answer is kept whatever it is, an absent directory too. A
// large configuration's servers probe paths below the same missing
// directory (npx's node_modules/.bin at each level): 100,000 servers
// lstat'ed node_modules 600,000 times. Only parents are kept, so the memo
// grows with the directories asked about, not with every absent path.
func (r *Repo) lstatParent(p string) (fs.FileInfo, error) {
	if m, ok := r.wt.stat[p]; ok {
		return m.fi, m.err
	}
	fi, err := r.lstatOnce(p, false)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		r.wt.rememberStat(p, fi, err)
	}
	return fi, err
}

// lstatFile is lstatPath for a caller done with the answer before its
// next lstat (see lstatScratch): nothing is remembered, nor allocated.
func (r *Repo) lstatFile(p string) (fs.FileInfo, error) {
	if err := validPath(p); err != nil {
		return nil, err
	}
	if m, ok := r.wt.stat[p]; ok {
		return m.fi, m.err
	}
	return r.lstatOnce(p, true)
}

// lstatOnce lstats p after its parent directory (through the memo); with
// scratch, in lstatScratch's reused buffer.
func (r *Repo) lstatOnce(p string, scratch bool) (fs.FileInfo, error) {
	if p == "" {
		return os.Lstat(r.top)
	}
	parent, name := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		parent, name = p[:i], p[i+1:]
	}
	if asciiEqualFold(name, ".git") {
		return nil, fs.ErrNotExist // git never tracks a .git component
	}
	if parent != "" {
		pfi, err := r.lstatParent(parent)
		if err != nil {
			return nil, err
		}
		if !pfi.IsDir() {
			return nil, fs.ErrNotExist
		}
	}
	var fi fs.FileInfo
	var err error
	if scratch {
		fi, err = r.lstatScratch(p)
	} else {
		fi, err = r.lstatRel(p)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fs.ErrNotExist
	}
	return fi, err
}

// fileMode maps lstat information to a git mode; 0 for anything git would
// not store as a blob (directories, FIFOs, devices, sockets).
func fileMode(fi fs.FileInfo) Mode {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return ModeSymlink
	case fi.Mode().IsRegular():
		if fi.Mode().Perm()&0o100 != 0 {
			return ModeExecutable
		}
		return ModeRegular
	}
	return 0
}

// readWorktreeFile returns the content git would store for the file at p
// (a symlink's target text) and its entry. limit < 0 means no limit. The
// content is read once and the id computed from those same bytes.
func (r *Repo) readWorktreeFile(p string, fi fs.FileInfo, limit int64) ([]byte, Entry, error) {
	mode := fileMode(fi)
	switch mode {
	case 0:
		return nil, Entry{}, fmt.Errorf("%s: %w", p, filekind.Of(fi.Mode()))
	case ModeSymlink:
		target, err := os.Readlink(filepath.Join(r.top, filepath.FromSlash(p)))
		if err != nil {
			return nil, Entry{}, fmt.Errorf("%s: %w", p, err)
		}
		if limit >= 0 && int64(len(target)) > limit {
			return nil, Entry{}, fmt.Errorf("%s: %d bytes: %w", p, len(target), ErrTooLarge)
		}
		data := []byte(target)
		return data, Entry{Path: p, Mode: ModeSymlink, ID: r.format.hashObject("blob", data)}, nil
	}
	if limit >= 0 && fi.Size() > limit {
		return nil, Entry{}, fmt.Errorf("%s: %d bytes: %w", p, fi.Size(), ErrTooLarge)
	}
	f, err := r.openRegular(p, fi)
	if err != nil {
		return nil, Entry{}, err
	}
	defer f.Close()
	max := fi.Size()
	if limit >= 0 && limit < max {
		max = limit
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, Entry{}, fmt.Errorf("%s: %w", p, err)
	}
	if limit >= 0 && int64(len(data)) > limit {
		return nil, Entry{}, fmt.Errorf("%s: grew past %d bytes while read: %w", p, limit, ErrTooLarge)
	}
	return data, Entry{Path: p, Mode: mode, ID: r.format.hashObject("blob", data)}, nil
}

// openRegular opens p without following symlinks or blocking, inside the
// work tree root, and checks it is the regular file lstat saw.
func (r *Repo) openRegular(p string, fi fs.FileInfo) (*os.File, error) {
	root, err := os.OpenRoot(r.top)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(filepath.FromSlash(p), os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p, ErrNotRegular)
	}
	if !sameFile(st, fi) {
		f.Close()
		return nil, fmt.Errorf("%s: changed while being read", p)
	}
	return f, nil
}

// hashWorktreeFile computes the blob id of a file without keeping its
// content, streaming it through the hash.
func (r *Repo) hashWorktreeFile(p string, fi fs.FileInfo) (string, error) {
	if fileMode(fi) == ModeSymlink {
		_, e, err := r.readWorktreeFile(p, fi, -1)
		return e.ID, err
	}
	f, err := r.openRegular(p, fi)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := r.format.newHash()
	fmt.Fprintf(h, "blob %d\x00", fi.Size())
	n, err := io.Copy(h, f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if n != fi.Size() {
		return "", fmt.Errorf("%s: changed while being read", p)
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// worktreeEntry is the entry of one work tree file, using the index's stat
// cache when it proves the content is unchanged. ok is false for paths that
// do not exist or are not files git would store.
func (r *Repo) worktreeEntry(p string, idx *indexCache) (Entry, bool, error) {
	if e, ok := r.wt.listed(p); ok {
		return e, true, nil
	}
	if m, ok := r.wt.entry[p]; ok {
		return m.e, m.ok, nil
	}
	e, ok, _, err := r.worktreeEntryOnce(p, idx, 0)
	if err == nil {
		r.wt.rememberEntry(p, e, ok)
	}
	return e, ok, err
}

// worktreeEntryOnce looks at p; at is where p is (or would be) in the
// index, found from the hint from (see indexCache.find).
func (r *Repo) worktreeEntryOnce(p string, idx *indexCache, from int) (e Entry, ok bool, at int, err error) {
	fi, err := r.lstatFile(p) // fi is not kept: see lstatScratch
	if errors.Is(err, fs.ErrNotExist) {
		return Entry{}, false, from, nil
	}
	if err != nil {
		return Entry{}, false, from, err
	}
	mode := fileMode(fi)
	if mode == 0 {
		return Entry{}, false, from, nil
	}
	id, at, ok := idx.cleanID(p, fi, mode, from)
	if ok && (mode == ModeSymlink || !r.checkoutRewrites(p)) {
		return Entry{Path: p, Mode: mode, ID: id}, true, at, nil
	}
	// Not proven clean, or git wrote it through a transforming attribute
	// (eol=crlf, working-tree-encoding, ident, a filter): the index's id
	// is the blob's, not the bytes an agent reads. Those bytes count.
	id, err = r.hashWorktreeFile(p, fi)
	if err != nil {
		return Entry{}, false, at, err
	}
	return Entry{Path: p, Mode: mode, ID: id}, true, at, nil
}

// cleanID returns the index's blob id for p when lstat proves the file is
// the one the index recorded: same mode, size, mtime, ctime and inode, and
// modified strictly before the index was written (not racily clean). at
// is p's position in the index (see find, whose hint from is).
func (c *indexCache) cleanID(p string, fi fs.FileInfo, mode Mode, from int) (id string, at int, ok bool) {
	if !statCacheUsable || c == nil {
		return "", from, false
	}
	entry, at, ok := c.stage0At(p, from)
	if !ok {
		return "", at, false
	}
	m := &c.meta[at]
	if !m.hasStat || entry.Mode != mode {
		return "", at, false
	}
	st := &m.stat
	ctime, ok := fileCtime(fi)
	if !ok || !ctime.Equal(st.ctime()) || !fi.ModTime().Equal(st.mtime()) ||
		uint32(fi.Size()) != st.size || uint32(fileIno(fi)) != st.ino {
		return "", at, false
	}
	if c.mtime.IsZero() || !st.mtime().Before(c.mtime) {
		return "", at, false
	}
	if st.size == 0 && entry.ID != emptyBlobSHA1 && entry.ID != emptyBlobSHA256 {
		// git writes a racily clean entry with size 0 ("smudged") so that
		// it is never taken for clean again; only an empty blob's entry
		// says what a size of 0 means.
		return "", at, false
	}
	return entry.ID, at, true
}

// The ids of the empty blob in the two object formats.
const (
	emptyBlobSHA1   = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
	emptyBlobSHA256 = "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"
)

// walkWorktree enumerates the work tree for the in-process engine: every index
// path, plus untracked files and symlinks not excluded by .gitignore files,
// $GIT_COMMON_DIR/info/exclude and the user's core.excludesFile (or
// ~/.config/git/ignore). It honours nothing fancier: no negated patterns
// from other sources, no sparse-checkout cone rules. An untracked
// directory holding a `.git` (a nested repository) is listed once, with a
// trailing slash, and not entered; `.git` entries are never listed.
//
// With surfaces set it also walks what the ignore rules exclude and
// returns, in ignored, the untracked files and symlinks there that are
// agentty surfaces (see ignoredSurfacePaths).
func walkWorktree(top, commonDir string, idx []Entry, env []string, surfaces bool) (paths, ignored []string, err error) {
	tracked := map[string]bool{}
	for _, e := range idx {
		paths = append(paths, e.Path)
		tracked[e.Path] = true
	}
	var ps []ignorePattern
	ps = append(ps, readIgnoreFile(globalExcludesFile(env), "")...)
	ps = append(ps, readIgnoreFile(filepath.Join(commonDir, "info", "exclude"), "")...)
	var walk func(dir string, rel []string, ps []ignorePattern, hidden bool) error
	walk = func(dir string, rel []string, ps []ignorePattern, hidden bool) error {
		domain := ""
		if len(rel) > 0 {
			domain = strings.Join(rel, "/") + "/"
		}
		ps = append(ps[:len(ps):len(ps)], readIgnoreFile(filepath.Join(dir, ".gitignore"), domain)...)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, de := range ents {
			name := de.Name()
			if asciiEqualFold(name, ".git") {
				continue
			}
			child := append(append([]string(nil), rel...), name)
			p := strings.Join(child, "/")
			switch t := de.Type(); {
			case t.IsDir():
				if tracked[p] {
					continue // a gitlink: the index entry stands for it
				}
				full := filepath.Join(dir, name)
				isIgnored := hidden || ignoredBy(ps, p, true)
				if isIgnored && !surfaces {
					continue
				}
				if _, err := os.Lstat(filepath.Join(full, ".git")); err == nil {
					if !isIgnored {
						paths = append(paths, p+"/")
					}
					continue
				}
				if err := walk(full, child, ps, isIgnored); err != nil {
					return err
				}
			case t.IsRegular() || t&fs.ModeSymlink != 0:
				if tracked[p] {
					continue
				}
				if !hidden && !ignoredBy(ps, p, false) {
					paths = append(paths, p)
					continue
				}
				mode := ModeRegular
				if t&fs.ModeSymlink != 0 {
					mode = ModeSymlink
				}
				if k, ok := isSurfaceEntry(p, mode); ok && surfaces && !k.Spec().SharedOnly {
					ignored = append(ignored, p)
				}
			}
		}
		return nil
	}
	if err := walk(top, nil, ps, false); err != nil {
		return nil, nil, fmt.Errorf("work tree: %w", err)
	}
	return paths, ignored, nil
}

// globalExcludesFile is core.excludesFile from the user's configuration,
// or git's default $XDG_CONFIG_HOME/git/ignore.
func globalExcludesFile(env []string) string {
	home, _ := getenv(env, "HOME")
	xdg, _ := getenv(env, "XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	for _, cfgPath := range []string{filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config")} {
		if home == "" && !filepath.IsAbs(cfgPath) {
			continue
		}
		cfg, err := readGitConfig(cfgPath)
		if err != nil {
			continue
		}
		if v := cfg.value("core", "excludesfile"); v != "" {
			if strings.HasPrefix(v, "~/") {
				v = filepath.Join(home, v[2:])
			}
			return v
		}
	}
	if xdg == "" {
		return ""
	}
	return filepath.Join(xdg, "git", "ignore")
}
