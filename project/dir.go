package project

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Bounds on what LoadDir hashes from disk for one reference. Past them the
// load fails (the launch gate then refuses) rather than binding less than
// the server runs.
const (
	// MaxRefFileSize is the largest referenced file hashed.
	MaxRefFileSize = 512 << 20
	// MaxRefDirFiles and MaxRefDirBytes bound a referenced directory.
	MaxRefDirFiles = 20000
	MaxRefDirBytes = 512 << 20
)

// ErrRefTooLarge reports a referenced file or directory past the bounds.
var ErrRefTooLarge = errors.New("referenced path is too large to fingerprint")

// LoadDir reads dir/.agentty/mcp.json from disk, for a launch directory
// that is not inside a git repository. Paths are followed as agentty
// follows them (symlinks included). References are resolved against dir
// (which stands for the repository: candidates outside it are not
// considered) and hashed from disk: a file as the git blob id of its
// content (SHA-1 object format), a directory as a SHA-256 over its sorted
// entries; both bounded (MaxRefFileSize, MaxRefDirFiles, MaxRefDirBytes).
// It returns nil, nil when there is no configuration file.
func LoadDir(ctx context.Context, dir string, opts Options) (*Config, error) {
	rel := filepath.Join(".agentty", "mcp.json")
	full := filepath.Join(dir, rel)
	if _, err := os.Stat(full); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	p := filepath.ToSlash(rel)
	k := client.Keeper()
	c := &Config{Client: k.ID(), Path: p}
	for _, q := range []string{filepath.Join(dir, ".agentty"), full} {
		if fi, err := os.Lstat(q); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			c.Linked = true
		}
	}
	if c.Linked {
		if t, err := filepath.EvalSymlinks(full); err == nil {
			c.Target = t
		}
	}
	data, err := trust.ReadFile(full)
	if err != nil {
		c.Config = trust.InvalidConfig(p, trust.ScopeProject, err)
	} else {
		c.Config = client.ParseFile(k, p, data)
		c.Entry = gitscan.Entry{Path: p, Mode: gitscan.ModeRegular, ID: gitBlobID(data)}
	}
	src := &diskSource{root: dir, ctx: ctx}
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := resolveServers(c, src, launch.Options{Root: filepath.ToSlash(root)}, opts.Env.Vars()); err != nil {
		return nil, err
	}
	return c, nil
}

// diskSource reads a directory on disk for the launch model, following
// symlinks as the kernel does (the directory stands for the repository:
// what lies outside it is not looked at).
type diskSource struct {
	root string
	ctx  context.Context
	// rootReal is root with its symlinks resolved, once per load (every
	// server's every lookup needs it: 100,000 servers resolved the same
	// directory 100,000 times); rootErr says it could not be resolved.
	rootReal string
	rootErr  error
	rootDone bool
}

func (d *diskSource) visited() []string { return nil }

func (d *diskSource) item(it launch.Item) (trust.Object, error) { return itemObject(d, it) }

func (d *diskSource) full(p string) string { return filepath.Join(d.root, filepath.FromSlash(p)) }

// rel is p's real location relative to the root, or ok false when it
// leads outside.
func (d *diskSource) rel(p string) (string, bool) {
	real, err := filepath.EvalSymlinks(d.full(p))
	if err != nil {
		return p, true // absent: the path as named
	}
	if !d.rootDone {
		d.rootReal, d.rootErr = filepath.EvalSymlinks(d.root)
		d.rootDone = true
	}
	if d.rootErr != nil {
		return "", false
	}
	r, err := filepath.Rel(d.rootReal, real)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	if r == "." {
		return "", true
	}
	return filepath.ToSlash(r), true
}

func (d *diskSource) Stat(p string) (launch.Info, error) {
	if err := d.ctx.Err(); err != nil {
		return launch.Info{}, err
	}
	r, inside := d.rel(p)
	if !inside {
		return launch.Info{Kind: launch.Outside}, nil
	}
	fi, err := os.Stat(d.full(p))
	switch {
	case err != nil:
		return launch.Info{Kind: launch.Missing, Path: r}, nil
	case fi.IsDir():
		return launch.Info{Kind: launch.Dir, Path: r}, nil
	case fi.Mode().IsRegular() && fi.Mode().Perm()&0o100 != 0:
		return launch.Info{Kind: launch.Exec, Path: r}, nil
	case fi.Mode().IsRegular():
		return launch.Info{Kind: launch.File, Path: r}, nil
	}
	return launch.Info{Kind: launch.Other, Path: r}, nil
}

func (d *diskSource) ReadFile(p string, limit int64) ([]byte, error) {
	info, err := d.Stat(p)
	if err != nil {
		return nil, err
	}
	if info.Kind != launch.File && info.Kind != launch.Exec {
		return nil, launch.ErrNotExist
	}
	if fi, err := os.Stat(d.full(p)); err == nil && fi.Size() > limit {
		return nil, launch.ErrTooLarge
	}
	data, err := trust.ReadFile(d.full(p))
	if errors.Is(err, trust.ErrTooLarge) || int64(len(data)) > limit {
		return nil, launch.ErrTooLarge
	}
	return data, err
}

func (d *diskSource) ReadDir(p string) ([]launch.DirEntry, error) {
	info, err := d.Stat(p)
	if err != nil {
		return nil, err
	}
	if info.Kind != launch.Dir {
		return nil, launch.ErrNotExist
	}
	des, err := os.ReadDir(d.full(info.Path))
	if err != nil {
		return nil, err
	}
	var out []launch.DirEntry
	for _, de := range des {
		if de.Name() == ".git" {
			continue
		}
		ei, err := d.Stat(joinPath(info.Path, de.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, launch.DirEntry{Name: de.Name(), Kind: ei.Kind})
	}
	return out, nil
}

func (d *diskSource) object(p string, dirOK bool) (trust.Object, error) {
	if err := d.ctx.Err(); err != nil {
		return trust.Object{}, err
	}
	if _, inside := d.rel(p); !inside {
		t, err := os.Readlink(d.full(p))
		if err != nil {
			return trust.Object{}, nil
		}
		return trust.Object{Mode: "120000", ID: gitBlobID([]byte(t))}, nil
	}
	o, _, err := diskObject(d.full(p), dirOK)
	return o, err
}

func (d *diskSource) below(dir string) ([]gitscan.Entry, error) {
	var out []gitscan.Entry
	base := d.full(dir)
	err := filepath.WalkDir(base, func(fp string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() {
			if de.Name() == ".git" && fp != base {
				return filepath.SkipDir
			}
			return nil
		}
		if len(out) >= maxScopeFiles {
			return fmt.Errorf("%s: more than %d files: %w", dir, maxScopeFiles, ErrRefTooLarge)
		}
		r, err := filepath.Rel(d.root, fp)
		if err != nil {
			return err
		}
		e := gitscan.Entry{Path: filepath.ToSlash(r), Mode: gitscan.ModeRegular}
		if de.Type()&fs.ModeSymlink != 0 {
			e.Mode = gitscan.ModeSymlink
		}
		out = append(out, e)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return out, err
}

// diskObject hashes what is at p, following symlinks as exec and open do.
func diskObject(p string, dirOK bool) (trust.Object, []string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP) ||
			errors.Is(err, syscall.ENAMETOOLONG) {
			return trust.Object{}, nil, nil // a name that cannot exist here holds nothing
		}
		return trust.Object{}, nil, err
	}
	switch {
	case fi.Mode().IsRegular():
		id, err := hashFile(p, fi)
		if err != nil {
			return trust.Object{}, nil, err
		}
		return trust.Object{Mode: fileMode(fi), ID: id}, nil, nil
	case fi.IsDir() && dirOK:
		id, err := hashDir(p)
		if err != nil {
			return trust.Object{}, nil, err
		}
		return trust.Object{Mode: "040000", ID: id}, nil, nil
	}
	return trust.Object{}, nil, nil
}

func fileMode(fi fs.FileInfo) string {
	if fi.Mode().Perm()&0o100 != 0 {
		return "100755"
	}
	return "100644"
}

// gitBlobID is the id git gives content as a blob (SHA-1 object format).
func gitBlobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// hashFile streams a regular file through git's blob hash, refusing to
// block on anything swapped in after the Stat.
func hashFile(p string, fi fs.FileInfo) (string, error) {
	if fi.Size() > MaxRefFileSize {
		return "", fmt.Errorf("%s: %d bytes: %w", p, fi.Size(), ErrRefTooLarge)
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() || st.Size() != fi.Size() {
		return "", fmt.Errorf("%s: changed while being read", p)
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", st.Size())
	n, err := io.Copy(h, io.LimitReader(f, st.Size()+1))
	if err != nil {
		return "", err
	}
	if n != st.Size() {
		return "", fmt.Errorf("%s: changed while being read", p)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashDir is a SHA-256 over the sorted entries below p: each entry's
// slash-separated relative path, git mode and content id (a symlink's id
// is that of its target text; FIFOs, devices and sockets count by their
// kind only). Symlinked directories are not entered.
func hashDir(root string) (string, error) {
	type entry struct{ path, mode, id string }
	var entries []entry
	var total int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root || d.IsDir() {
			return nil
		}
		if len(entries) >= MaxRefDirFiles {
			return fmt.Errorf("%s: more than %d files: %w", root, MaxRefDirFiles, ErrRefTooLarge)
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		e := entry{path: filepath.ToSlash(rel)}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			e.mode, e.id = "120000", gitBlobID([]byte(t))
		case fi.Mode().IsRegular():
			total += fi.Size()
			if total > MaxRefDirBytes {
				return fmt.Errorf("%s: more than %d bytes: %w", root, MaxRefDirBytes, ErrRefTooLarge)
			}
			id, err := hashFile(p, fi)
			if err != nil {
				return err
			}
			e.mode, e.id = fileMode(fi), id
		default:
			e.mode = "special:" + fi.Mode().Type().String()
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	h := sha256.New()
	for _, e := range entries {
		writeLen(h, e.path)
		writeLen(h, e.mode)
		writeLen(h, e.id)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func writeLen(h hash.Hash, s string) {
	h.Write([]byte(strconv.Itoa(len(s)) + ":" + s))
}
