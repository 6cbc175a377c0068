package gitscan

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// backend is what an engine must provide. Everything else (pruned walks,
// lookups, history comparisons, the work tree) is built on it once, so the
// engines can only disagree here.
type backend interface {
	// readObject returns the content of object id, which must have type typ
	// ("commit", "tree" or "blob"). When limit >= 0 and the object is
	// larger, it returns a *gitobj.TooLargeError without reading the content. A
	// missing object is an error wrapping ErrMissingObject.
	readObject(id, typ string, limit int64) ([]byte, error)
	// resolve peels rev to a commit id; an error wrapping
	// ErrUnknownRevision when rev names no commit.
	resolve(rev string) (string, error)
	// headUnborn reports whether HEAD points at a branch with no commit.
	headUnborn() (bool, error)
	// indexEntries lists the index (stage-0 entries and unmerged stages).
	indexEntries() (indexFile, error)
	// worktreePaths lists the work tree's candidate paths, sorted: tracked
	// and untracked-not-ignored files; untracked nested repositories end
	// in "/".
	worktreePaths() ([]string, error)
	// ignoredSurfacePaths lists the untracked files and symlinks that the
	// ignore rules hide but that match the surface patterns (agentty reads
	// a gitignored .agentty/mcp.json all the same), nested repositories
	// excluded.
	ignoredSurfacePaths() ([]string, error)
	// objects is the in-process object store the backend reads through,
	// nil when every object comes from git's cat-file.
	objects() objectStore
	close() error
}

// hooksDirLister is an optional backend fast path: the hooks directory
// and core.hooksPath as git itself resolves them (every configuration
// level), for HooksDir.
type hooksDirLister interface {
	hooksDir() (dir, hooksPath string, err error)
}

// treeLister is an optional backend fast path: every non-tree entry of a
// tree, recursively, sorted by path.
type treeLister interface {
	listTree(tree string) ([]Entry, error)
}

// revLister is an optional backend fast path: the commits git's own
// `rev-list --full-history` selects for pathspecs, in any order.
type revLister interface {
	revList(ctx context.Context, to, since string, pathspecs []string) ([]string, error)
}

// indexMeta is what the index says of one entry besides its Entry (kept
// beside the entries, not in them: the index's own entries are then the
// Index side's listing, and 28 bytes an entry with no pointer for the
// collector to follow).
type indexMeta struct {
	stat         indexStat // when hasStat: the engine could read it
	stage        uint8
	skipWorktree bool
	intentToAdd  bool // git add -N: in no tree git writes
	hasStat      bool
}

// readsNatively reports whether objects are read in process (not through
// git's cat-file).
func (r *Repo) readsNatively() bool { return r.be != nil && r.be.objects() != nil }

// commitGraph is the repository's commit-graph when objects are read in
// process and core.commitGraph does not turn it off (loaded once; nil when
// there is none or it does not add up).
func (r *Repo) commitGraph() *gitobj.CommitGraph {
	if r.graphLoaded {
		return r.graph
	}
	r.graphLoaded = true
	if !r.readsNatively() {
		return nil
	}
	if cfg, err := readGitConfig(r.commonDir + "/config"); err != nil {
		return nil
	} else if on, ok := cfg.boolean("core", "", "commitGraph"); ok && !on {
		return nil
	}
	r.graph = r.be.objects().CommitGraph()
	return r.graph
}

// readObject reads through the backend, counting the read.
func (r *Repo) readObject(id, typ string, limit int64) ([]byte, error) {
	if r.be == nil {
		return nil, errors.New("repository is closed")
	}
	if !r.format.validID(id) {
		return nil, fmt.Errorf("object id %q: malformed", id)
	}
	r.countRead()
	data, err := r.be.readObject(id, typ, limit)
	if err != nil {
		return r.missing(err, id, typ, limit)
	}
	return data, nil
}

// rawReader is the backends' fast path: a read by binary id, without
// hex on the way (a history walk descends into hundreds of thousands of
// subtrees).
type rawReader interface {
	readObjectRaw(raw, typ string, limit int64) ([]byte, error)
}

// readTree returns a parsed tree (hex id), from the cache when possible.
func (r *Repo) readTree(id string) ([]treeEntry, error) {
	raw := rawOf(id)
	if id != "" && len(raw) != r.format.rawLen {
		return nil, fmt.Errorf("tree id %q: malformed", id)
	}
	return r.readTreeRaw(raw)
}

// readTreeRaw is readTree by binary id ("" is the empty tree).
func (r *Repo) readTreeRaw(raw string) ([]treeEntry, error) {
	if raw == "" || raw == r.format.emptyTreeRaw() {
		return nil, nil
	}
	if t, ok := r.trees.get(raw); ok {
		return t, nil
	}
	if r.be == nil {
		return nil, errors.New("repository is closed")
	}
	var data []byte
	var err error
	if rr, ok := r.be.(rawReader); ok {
		r.countRead()
		data, err = rr.readObjectRaw(raw, "tree", -1)
		if err != nil {
			data, err = r.missing(err, hex.EncodeToString([]byte(raw)), "tree", -1)
		}
	} else {
		data, err = r.readObject(hex.EncodeToString([]byte(raw)), "tree", -1)
	}
	if err != nil {
		return nil, err
	}
	t, err := parseTree(r.format, data)
	if err != nil {
		return nil, fmt.Errorf("tree %x: %w", raw, err)
	}
	r.trees.put(raw, t)
	return t, nil
}

func (r *Repo) readCommit(id string) (*commitObj, error) {
	data, err := r.readObject(id, "commit", -1)
	if err != nil {
		return nil, err
	}
	c, err := parseCommit(r.format, data)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", id, err)
	}
	return c, nil
}

// treeCache is a small LRU-ish cache of parsed trees by binary id (trees
// are immutable, so a cache by id is always valid).
type treeCache struct {
	max  int
	m    map[string][]treeEntry
	keys []string
}

func newTreeCache(max int) *treeCache {
	return &treeCache{max: max, m: make(map[string][]treeEntry)}
}

func (c *treeCache) get(id string) ([]treeEntry, bool) {
	t, ok := c.m[id]
	return t, ok
}

func (c *treeCache) put(id string, t []treeEntry) {
	if _, ok := c.m[id]; ok {
		return
	}
	if len(c.keys) >= c.max {
		// drop the oldest half: simple and bounded
		half := len(c.keys) / 2
		for _, k := range c.keys[:half] {
			delete(c.m, k)
		}
		c.keys = append(c.keys[:0], c.keys[half:]...)
	}
	c.m[id] = t
	c.keys = append(c.keys, id)
}
