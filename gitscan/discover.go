package gitscan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// location is where a repository's pieces are, found without git.
type location struct {
	top, gitDir, commonDir, indexFile string
}

// discover locates the repository containing dir the way git does, for the
// in-process engine: GIT_DIR (relative to dir) with GIT_WORK_TREE, core.worktree
// or dir as the work tree; otherwise the nearest `.git` directory or
// `.git` file (gitdir: ...) above dir, stopping at GIT_CEILING_DIRECTORIES.
// A bare repository is refused; a `.git` file whose target is missing is a
// clear error rather than "not a repository".
func discover(dir string, env []string) (*location, error) {
	loc := &location{}
	if gd, ok := getenv(env, "GIT_DIR"); ok && gd != "" {
		d, err := resolveGitPath(absUnder(dir, gd))
		if err != nil {
			return nil, err
		}
		loc.gitDir = d
		loc.top = dir
	} else {
		ceil := map[string]bool{}
		if c, ok := getenv(env, "GIT_CEILING_DIRECTORIES"); ok {
			for _, p := range filepath.SplitList(c) {
				if p != "" && filepath.IsAbs(p) {
					ceil[filepath.Clean(p)] = true
				}
			}
		}
		for d := dir; ; {
			dotgit := filepath.Join(d, ".git")
			if _, err := os.Lstat(dotgit); err == nil {
				g, err := resolveGitPath(dotgit)
				if err != nil {
					return nil, err
				}
				loc.gitDir, loc.top = g, d
				break
			}
			if isGitDir(d) {
				return nil, fmt.Errorf("%s: bare repository or git directory, not a work tree: %w", d, ErrNotRepository)
			}
			parent := filepath.Dir(d)
			if parent == d || ceil[parent] {
				return nil, fmt.Errorf("%s: %w (or any of the parent directories)", dir, ErrNotRepository)
			}
			d = parent
		}
	}
	loc.commonDir = loc.gitDir
	if b, err := os.ReadFile(filepath.Join(loc.gitDir, "commondir")); err == nil {
		loc.commonDir = absUnder(loc.gitDir, strings.TrimSpace(string(b)))
		if !isDir(loc.commonDir) {
			return nil, fmt.Errorf("%s: commondir %s does not exist: the main repository moved or was deleted (run `git worktree prune` there)", loc.gitDir, loc.commonDir)
		}
	}
	if c, ok := getenv(env, "GIT_COMMON_DIR"); ok && c != "" {
		loc.commonDir = absUnder(dir, c)
	}
	cfg, err := readGitConfig(filepath.Join(loc.commonDir, "config"))
	if err != nil {
		return nil, err
	}
	wt, hasWT := getenv(env, "GIT_WORK_TREE")
	bare, _ := cfg.boolean("core", "", "bare")
	switch {
	case hasWT && wt != "":
		loc.top = absUnder(dir, wt)
	case cfg.value("core", "worktree") != "" && loc.gitDir == loc.commonDir:
		loc.top = absUnder(loc.gitDir, cfg.value("core", "worktree"))
	case bare && loc.gitDir == loc.commonDir:
		return nil, fmt.Errorf("%s: bare repository, not a work tree: %w", loc.gitDir, ErrNotRepository)
	}
	loc.indexFile = filepath.Join(loc.gitDir, "index")
	if v, ok := getenv(env, "GIT_INDEX_FILE"); ok && v != "" {
		loc.indexFile = absUnder(loc.top, v)
	}
	// Outside a linked worktree the common directory is the git
	// directory: resolved once (each resolution is an lstat of every
	// component of the path, on every hook).
	shared := loc.commonDir == loc.gitDir
	for _, p := range []*string{&loc.top, &loc.gitDir, &loc.commonDir} {
		if p == &loc.commonDir && shared {
			loc.commonDir = loc.gitDir
			continue
		}
		if real, err := evalSymlinks(*p); err == nil {
			*p = real
		}
	}
	return loc, nil
}

// evalSymlinks is filepath.EvalSymlinks; a test counts discover's.
var evalSymlinks = filepath.EvalSymlinks

// maxGitFileSize bounds a `.git` file ("gitdir: <path>"): git's own limit.
const maxGitFileSize = 1 << 20

// resolveGitPath turns a `.git` directory or `.git` file into the git
// directory it designates.
func resolveGitPath(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, ErrNotRepository)
	}
	if fi.IsDir() {
		if !isGitDir(p) {
			return "", fmt.Errorf("%s: not a git directory (no HEAD or objects): %w", p, ErrNotRepository)
		}
		return p, nil
	}
	// As git does: only a regular file of sane size is a gitfile. Reading
	// a FIFO would block for ever, a device would never end.
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file (a FIFO, device or socket), so not a gitfile: %w", p, ErrNotRepository)
	}
	if fi.Size() > maxGitFileSize {
		return "", fmt.Errorf("%s: %d bytes, too large to be a gitfile: %w", p, fi.Size(), ErrNotRepository)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	target, ok := strings.CutPrefix(strings.TrimRight(string(line), "\r \t"), "gitdir: ")
	if !ok || target == "" {
		return "", fmt.Errorf("%s: invalid gitfile format (expected \"gitdir: <path>\"): %w", p, ErrNotRepository)
	}
	g := absUnder(filepath.Dir(p), target)
	if !isDir(g) {
		return "", fmt.Errorf("%s: points to %s, which does not exist (a removed worktree or moved repository; run `git worktree prune` or fix the path): %w", p, g, ErrNotRepository)
	}
	if !isGitDir(g) {
		return "", fmt.Errorf("%s: points to %s, which is not a git directory: %w", p, g, ErrNotRepository)
	}
	return g, nil
}

// isGitDir reports whether d looks like a git directory: a HEAD file and
// either an objects directory or a commondir file.
func isGitDir(d string) bool {
	if fi, err := os.Stat(filepath.Join(d, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return isDir(filepath.Join(d, "objects")) || fileExists(filepath.Join(d, "commondir"))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// readShallow lists the boundary commits recorded in the shallow file.
func readShallow(commonDir string, f objectFormat) (map[string]bool, error) {
	b, err := os.ReadFile(filepath.Join(commonDir, "shallow"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("shallow file: %w", err)
	}
	set := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if !f.validID(l) {
			return nil, fmt.Errorf("shallow file: malformed line %q", l)
		}
		set[l] = true
	}
	return set, nil
}
