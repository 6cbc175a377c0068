package project

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/gitscan"
)

// Commit is one commit that changed what a server runs. Author and
// Subject are raw from the repository: renderers sanitise them.
type Commit struct {
	ID, Author, Subject string
	Time                time.Time
}

// Provenance names the commits through which a change arrived.
type Provenance struct {
	// Since is the commit the range starts after.
	Since string
	// Commits are the newest first, at most the limit asked for.
	Commits []Commit
	// More counts the commits left out.
	More int
	// Boundary: a shallow clone's boundary is in range, so older commits
	// may have changed the paths too.
	Boundary bool
	// Undone are the commits of Since that the other end lacks and that
	// changed the paths, newest first (walked only when Commits is empty:
	// the other end is an older commit, as after a reset), at most the
	// limit; UndoneMore counts the ones left out.
	Undone     []Commit
	UndoneMore int
	// Uncommitted: the change's new side is the work tree or the index,
	// so it may hold a change no commit made. Set by the caller.
	Uncommitted bool
}

// ChangeProvenance finds the commits reachable from to but not from since
// that changed any of paths (a path stands for itself and everything below
// it), newest first, keeping at most limit (default 10). Both sides must be
// commits; ctx bounds the walk.
func ChangeProvenance(ctx context.Context, repo *gitscan.Repo, since, to gitscan.Side, paths []string, limit int) (*Provenance, error) {
	if since.Commit() == "" || to.Commit() == "" {
		return nil, fmt.Errorf("provenance %s..%s: both ends must be commits", since, to)
	}
	if limit <= 0 {
		limit = 10
	}
	var patterns []string
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "" {
			p = "**" // the repository root: a file at any depth
		}
		// History refuses pathspec magic; such a path is never a server's.
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "/") || strings.IndexByte(p, 0) >= 0 || seen[p] {
			continue
		}
		seen[p] = true
		patterns = append(patterns, p)
	}
	// A symlink's own commits are not its target's: follow each path at
	// both ends and walk the entries that decided what it leads to too.
	// (/proc/self/cwd in a link is taken as the repository root here.)
	for _, side := range []gitscan.Side{since, to} {
		rd := newReader(repo, side, Options{})
		for _, p := range patterns[:len(patterns):len(patterns)] {
			if p == "**" {
				continue
			}
			res, err := rd.resolvePath(p)
			if err != nil || res.link.Mode == 0 {
				continue
			}
			for _, v := range append(res.visited, res.entry.Path) {
				if v != "" && !seen[v] {
					seen[v] = true
					patterns = append(patterns, v)
				}
			}
		}
	}
	pv := &Provenance{Since: since.Commit()}
	if len(patterns) == 0 || since == to {
		return pv, nil
	}
	var err error
	if pv.Commits, pv.More, pv.Boundary, err = commitsOf(ctx, repo, since, to, patterns, limit); err != nil {
		return nil, err
	}
	if len(pv.Commits) == 0 && pv.More == 0 {
		// Nothing new on the way to "to": what changed may be commits
		// of since that "to" does not have.
		var boundary bool
		if pv.Undone, pv.UndoneMore, boundary, err = commitsOf(ctx, repo, to, since, patterns, limit); err != nil {
			return nil, err
		}
		pv.Boundary = pv.Boundary || boundary
	}
	return pv, nil
}

// commitsOf are the commits reachable from to but not from since that
// changed patterns, newest first, at most limit of them, with how many
// were left out and whether a shallow boundary is in range.
func commitsOf(ctx context.Context, repo *gitscan.Repo, since, to gitscan.Side, patterns []string, limit int) (commits []Commit, more int, boundary bool, err error) {
	hist, err := repo.History(ctx, since, to, patterns)
	if err != nil {
		return nil, 0, false, fmt.Errorf("history %s..%s: %w", shortID(since.Commit()), shortID(to.Commit()), err)
	}
	for i := len(hist) - 1; i >= 0; i-- {
		h := hist[i]
		if h.Boundary {
			boundary = true
		}
		if len(commits) == limit {
			more++
			continue
		}
		subject, err := repo.CommitSubject(h.ID)
		if err != nil {
			return nil, 0, false, err
		}
		commits = append(commits, Commit{ID: h.ID, Author: h.Author, Subject: subject, Time: h.Time})
	}
	return commits, more, boundary, nil
}
