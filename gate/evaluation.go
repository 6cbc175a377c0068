package gate

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/project"
)

// evaluation is what one Evaluate shares between agentty's configuration
// and every other client's: each repository opened once, as a snapshot of
// its work tree (each path stat'ed, and hashed unless the index's stat
// data proves it clean, once), and project's cache of what was resolved
// and bound there. Four clients running the same server cost what one
// does.
type evaluation struct {
	env   Env
	repos []*sharedRepo
}

type sharedRepo struct {
	repo  *gitscan.Repo
	cache *project.Cache
}

// open opens the repository containing dir, or returns the one already
// open for the same work tree and git directory.
func (e *evaluation) open(dir string) (*gitscan.Repo, *project.Cache, error) {
	r, err := gitscan.Open(dir, gitscan.WithEnv(e.env.Environ), gitscan.WithWorktreeSnapshot())
	if err != nil {
		return nil, nil, err
	}
	for _, s := range e.repos {
		if s.repo.TopLevel() == r.TopLevel() && s.repo.GitDir() == r.GitDir() {
			r.Close()
			return s.repo, s.cache, nil
		}
	}
	s := &sharedRepo{repo: r, cache: project.NewCache()}
	e.repos = append(e.repos, s)
	return r, s.cache, nil
}

// shared lists what the repository at top carries below rel (client.Env.Shared):
// its index's entries, from the repository the evaluation shares, and
// those of each submodule checked out below rel (a gitlink is one entry
// of the index, but its files are on disk like any other, and an agent
// reads them alike), at their place in top's work tree.
func (e *evaluation) shared(top, rel string) ([]client.SharedFile, error) {
	out, err := e.sharedIn(top, rel, "", 0)
	if len(out) > sharedLimit && err == nil {
		err = fmt.Errorf("more than %d files below %s with its submodules", sharedLimit, filepath.Join(top, rel))
	}
	return out, err
}

// sharedIn is shared for the repository at top, each path prefixed with
// prefix (where top lies in the work tree first asked about).
func (e *evaluation) sharedIn(top, rel, prefix string, depth int) ([]client.SharedFile, error) {
	repo, _, err := e.open(top)
	if err != nil {
		return nil, err
	}
	ents, err := repo.Files(gitscan.Index, rel, sharedLimit)
	if err != nil {
		return nil, err
	}
	out := make([]client.SharedFile, 0, len(ents))
	for _, en := range ents {
		out = append(out, client.SharedFile{Path: prefix + en.Path, Link: en.Mode == gitscan.ModeSymlink})
	}
	for _, en := range ents {
		if en.Mode != gitscan.ModeSubmodule || len(out) > sharedLimit {
			continue
		}
		dir := filepath.Join(top, filepath.FromSlash(en.Path))
		if !checkedOut(dir) {
			continue // not initialised: nothing of it is on disk
		}
		if depth >= maxSubmoduleDepth {
			return nil, fmt.Errorf("submodules nest more than %d deep at %s", maxSubmoduleDepth, dir)
		}
		sub, err := e.sharedIn(dir, "", prefix+en.Path+"/", depth+1)
		if err != nil {
			return nil, fmt.Errorf("submodule %s: %w", en.Path, err)
		}
		out = append(out, sub...)
	}
	return out, nil
}

// checkedOut reports whether a submodule's directory holds a checkout of
// its own (a .git file or directory); an uninitialised one is empty.
func checkedOut(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// sharedLimit bounds what shared lists: a scope item's own bound.
const sharedLimit = 1_000_000

// maxSubmoduleDepth bounds how deep shared follows submodules within
// submodules: past it what they carry is unknown.
const maxSubmoduleDepth = 8

func (e *evaluation) close() {
	for _, s := range e.repos {
		s.repo.Close()
	}
	e.repos = nil
}
