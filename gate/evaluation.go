package gate

import (
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
// its index's entries, from the repository the evaluation shares.
func (e *evaluation) shared(top, rel string) ([]client.SharedFile, error) {
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
		out = append(out, client.SharedFile{Path: en.Path, Link: en.Mode == gitscan.ModeSymlink})
	}
	return out, nil
}

// sharedLimit bounds what shared lists: a scope item's own bound.
const sharedLimit = 1_000_000

func (e *evaluation) close() {
	for _, s := range e.repos {
		s.repo.Close()
	}
	e.repos = nil
}
