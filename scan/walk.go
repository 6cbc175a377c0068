package scan

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/filekind"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// walkDir lists every agentty surface below root on disk, for a directory
// that is not in a git repository: `.git` directories are skipped, symlinks
// are reported and followed only while they stay inside root, and nothing
// but regular files is ever opened (trust.ReadFile never blocks on a FIFO).
func walkDir(ctx context.Context, root string) ([]policy.File, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	var files []policy.File
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			// An unreadable directory may hold surfaces: say so.
			return fmt.Errorf("read %s: %w", p, err)
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil || rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		kind, isSurface := surface.Of(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0 && surface.LinkedDir(rel):
			files = append(files, linkedDir(realRoot, p, rel)...)
		case !isSurface:
		case d.Type()&fs.ModeSymlink != 0:
			f := policy.File{Path: rel, Kind: kind, Symlink: true}
			f.Target, _ = os.Readlink(p)
			f.Data, f.Err = readInside(realRoot, p)
			files = append(files, f)
		case !d.Type().IsRegular():
			files = append(files, policy.File{Path: rel, Kind: kind, Err: fmt.Errorf("%s: %w", rel, filekind.Of(d.Type()))})
		default:
			data, err := trust.ReadFile(p)
			files = append(files, policy.File{Path: rel, Kind: kind, Data: data, Err: err})
		}
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, err
}

// linkedDir reports a symlink standing where a surface directory belongs
// and, when it stays inside root, the surfaces agentty reads through it.
func linkedDir(realRoot, p, rel string) []policy.File {
	target, _ := os.Readlink(p)
	out := []policy.File{{Path: rel, Kind: surface.KindLinkedDir, Symlink: true, Target: target}}
	dir, err := filepath.EvalSymlinks(p)
	if err != nil || !inside(realRoot, dir) {
		return out
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return out
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		sub := rel + "/" + e.Name()
		kind, ok := surface.Of(sub)
		if !ok {
			continue
		}
		data, err := readInside(realRoot, filepath.Join(p, e.Name()))
		out = append(out, policy.File{Path: sub, Kind: kind, Data: data, Err: err, Symlink: true, Target: target})
	}
	return out
}

// readInside reads a file through symlinks only while they stay inside
// realRoot.
func readInside(realRoot, p string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, err
	}
	if !inside(realRoot, real) {
		return nil, policy.ErrOutside
	}
	return trust.ReadFile(real)
}

func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
