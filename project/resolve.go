package project

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// maxHops bounds the symlinks followed while resolving one path, as the
// kernel's ELOOP limit does.
const maxHops = 16

// maxLinkTarget is the longest symlink target text read (PATH_MAX).
const maxLinkTarget = 4096

// resolveKey keys a resolution: a symlink's `/proc/self/cwd` depends on
// the launch directory. Two strings, not one joined: no allocation per
// lookup (a configuration of 100,000 servers resolves a million paths).
type resolveKey struct{ launch, path string }

// reader reads one side of a repository.
type reader struct {
	repo  *gitscan.Repo
	side  gitscan.Side
	cache map[resolveKey]*resolution
	// items are the scope items bound at this side (nil: not kept).
	items map[itemKey]itemMemo
	deps  map[string]bool // every path resolve visited (see recordDeps)
	// keepDeps: what the answers depended on is remembered (rd.deps, each
	// config's visited), for Compare; a load for the gate never asks, and
	// at 100,000 servers each list held a few hundred thousand paths.
	keepDeps bool
	// launch is the launch directory of the configuration being read:
	// `/proc/self/cwd` in a symlink target means it.
	launch string
	// top is the work tree's location on this machine ("" unknown) and
	// tops the forms it is reached by (as given, and its real path).
	top  string
	tops []string
	// vars is the environment the clients' interpolation reads; env
	// the whole of it, whose HOME holds the user's state a client's
	// entries may run code from (client.UserJoiner).
	vars client.Vars
	env  client.Env
	// runDir is Options.RunDir.
	runDir *string
	// blobs are the configs read (configBlob).
	blobs map[string]configBlob
}

// resolution is one repository path resolved at a side the way the kernel
// resolves it when agentty opens or spawns it: symlinks are followed,
// inside the repository only.
type resolution struct {
	// entry is the final entry; Mode 0 when nothing is there.
	entry gitscan.Entry
	// link is the first symlink met (the path's own entry or a directory
	// on the way), Mode 0 when none.
	link gitscan.Entry
	// outside is true when a symlink leads out of the repository (or
	// loops): what is there cannot be known from the repository.
	outside bool
	// visited are the repository paths whose entries decided the answer;
	// a change at, below or above any of them may change it.
	visited []string
}

// resolvePath follows p through symlinks at the reader's side.
func (rd *reader) resolvePath(p string) (resolution, error) {
	var res resolution
	for hops := 0; ; hops++ {
		if hops > maxHops {
			res.outside, res.entry = true, gitscan.Entry{}
			return res, nil
		}
		res.visited = append(res.visited, p)
		e, ok, err := rd.repo.Lookup(rd.side, p)
		if err != nil {
			return res, err
		}
		if ok && e.Mode != gitscan.ModeSymlink {
			res.entry = e
			return res, nil
		}
		if ok {
			// The path itself is a symlink.
			if res.link.Mode == 0 {
				res.link = e
			}
			next, inside, err := rd.follow(e.Path)
			if err != nil {
				return res, err
			}
			if !inside {
				res.outside, res.entry = true, e
				return res, nil
			}
			p = next
			continue
		}
		// Absent: a directory on the way may be a symlink (git stores it
		// as one entry, so the path below it does not exist in the tree).
		dir, rest, found, err := rd.linkedAncestor(p)
		if err != nil {
			return res, err
		}
		if found.Mode == gitscan.ModeSubmodule && rd.side != gitscan.WorkTree {
			// Inside a submodule, at a commit or the index: what is
			// there is the submodule's commit, all the repository
			// decides (its files are read from disk in the work tree
			// only, once checked out).
			res.visited = append(res.visited, dir)
			res.entry = found
			return res, nil
		}
		if found.Mode != gitscan.ModeSymlink {
			return res, nil
		}
		if res.link.Mode == 0 {
			res.link = found
		}
		res.visited = append(res.visited, dir)
		next, inside, err := rd.follow(dir)
		if err != nil {
			return res, err
		}
		if !inside {
			res.outside, res.entry = true, found
			return res, nil
		}
		p = path.Join(next, rest)
		if p == "." || strings.HasPrefix(p, "../") {
			res.outside = true
			return res, nil
		}
	}
}

// linkedAncestor finds the first directory of p (from the root down) that
// is not a real directory. It returns that entry when it is a symlink.
func (rd *reader) linkedAncestor(p string) (dir, rest string, e gitscan.Entry, err error) {
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		dir = strings.Join(parts[:i], "/")
		e, ok, err := rd.repo.Lookup(rd.side, dir)
		if err != nil || !ok {
			return "", "", gitscan.Entry{}, err
		}
		if e.Mode != gitscan.ModeTree {
			return dir, strings.Join(parts[i:], "/"), e, nil
		}
	}
	return "", "", gitscan.Entry{}, nil
}

// follow reads the symlink at p and resolves its target the way the kernel
// does for a process started in the launch directory: relative to p's
// directory, `/proc/self/cwd/…` relative to the launch directory, and an
// absolute target, or one that climbs out and back in (`../../<clone
// name>/x`), inside the repository when it lands in its work tree on this
// machine. inside is false for what lands anywhere else.
func (rd *reader) follow(p string) (next string, inside bool, err error) {
	data, _, err := rd.repo.ReadBlob(rd.side, p, maxLinkTarget)
	if errors.Is(err, gitscan.ErrTooLarge) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read symlink %s: %w", p, err)
	}
	t := string(data)
	if t == "" || strings.ContainsRune(t, 0) {
		return "", false, nil
	}
	for _, pre := range []string{"/proc/self/cwd", "/proc/thread-self/cwd"} {
		if t == pre || strings.HasPrefix(t, pre+"/") {
			return rd.inRepo(path.Join(rd.launch, "."+strings.TrimPrefix(t, pre)))
		}
	}
	if strings.HasPrefix(t, "/proc/self/root/") {
		t = strings.TrimPrefix(t, "/proc/self/root")
	}
	if strings.HasPrefix(t, "/") {
		return rd.absolute(t)
	}
	return rd.inRepo(path.Join(path.Dir(p), t))
}

// inRepo accepts a cleaned repository-relative path, or maps one that
// climbs out through the work tree's real location.
func (rd *reader) inRepo(next string) (string, bool, error) {
	if next == "." {
		return "", true, nil
	}
	if next != ".." && !strings.HasPrefix(next, "../") {
		return next, true, nil
	}
	if rd.top == "" {
		return "", false, nil
	}
	return rd.absolute(filepath.ToSlash(filepath.Join(rd.top, next)))
}

// absolute maps an absolute target into the repository when it, or what a
// directory on its way resolves to on this machine, lies in the work tree.
func (rd *reader) absolute(t string) (string, bool, error) {
	if rd.top == "" {
		return "", false, nil
	}
	t = path.Clean(t)
	for _, top := range rd.tops {
		if t == top {
			return "", true, nil
		}
		if rest, ok := strings.CutPrefix(t, top+"/"); ok {
			return rest, true, nil
		}
	}
	// A directory outside the work tree may be a link into it: resolve the
	// part outside on disk, one component at a time.
	parts := strings.Split(strings.TrimPrefix(t, "/"), "/")
	for i := 1; i <= len(parts) && i <= maxHops*4; i++ {
		prefix := "/" + strings.Join(parts[:i], "/")
		real, err := filepath.EvalSymlinks(prefix)
		if err != nil {
			return "", false, nil
		}
		real = filepath.ToSlash(real)
		for _, top := range rd.tops {
			if real == top || strings.HasPrefix(real, top+"/") {
				rel := strings.TrimPrefix(strings.TrimPrefix(real, top), "/")
				return path.Clean(path.Join(rel, strings.Join(parts[i:], "/"))), true, nil
			}
		}
	}
	return "", false, nil
}

// object is what counts at a resolved reference: a file (its content), a
// submodule (its commit), a directory only when dirOK, and a symlink that
// leads out of the repository as the link itself (its target text is all
// the repository decides).
func (res resolution) object(dirOK bool) trust.Object {
	e := res.entry
	switch {
	case e.Mode == 0:
		return trust.Object{}
	case e.Mode == gitscan.ModeTree && !dirOK:
		return trust.Object{}
	}
	return trust.Object{Mode: e.Mode.String(), ID: e.ID}
}

// changeSet answers whether a change touches a path.
type changeSet struct {
	paths map[string]bool
	dirs  map[string]bool // every directory holding a changed path
}

func newChangeSet(changes []gitscan.Change) *changeSet {
	cs := &changeSet{paths: make(map[string]bool, len(changes)), dirs: map[string]bool{}}
	for _, c := range changes {
		cs.add(c.Path)
	}
	return cs
}

// add counts paths as changed.
func (cs *changeSet) add(paths ...string) {
	for _, p := range paths {
		cs.paths[p] = true
		for d := path.Dir(p); d != "." && !cs.dirs[d]; d = path.Dir(d) {
			cs.dirs[d] = true
		}
	}
}

// touches reports whether a changed path is p, lies below p, or is an
// ancestor of p (a directory turned into a file or symlink).
func (cs *changeSet) touches(p string) bool {
	if p == "" {
		return len(cs.paths) > 0 // the root holds every change
	}
	if cs.paths[p] || cs.dirs[p] {
		return true
	}
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if cs.paths[d] {
			return true
		}
	}
	return false
}

func (cs *changeSet) touchesAny(ps []string) bool {
	for _, p := range ps {
		if cs.touches(p) {
			return true
		}
	}
	return false
}
