// Package gitscan is the only package of mcp-guard that reads git
// repositories. It answers the few questions the rest of the program asks
// (which agentty surfaces exist at a revision, in the index or in the work
// tree; what changed between two states; which commits of a history touched
// a set of paths; the bytes of one path) at a cost proportional to what
// changed, never to the size of the repository.
//
// # Engines
//
// Two engines sit behind one internal interface (backend):
//
//   - EngineWithGit: objects and refs are read in process by gitscan's own
//     reader (internal/gitobj, refStore: pack indexes binary-searched with
//     pread, packs memory-mapped once a process has read enough to make mapping pay) when
//     the repository's format allows, which costs the same at 10,000 objects
//     and at 10 million and starts no process; the repository is located
//     without git when git certainly agrees (see discoverForGit). Git itself
//     serves the rest, started only when needed, with a deliberately built
//     environment (see gitEnv): `rev-parse` to locate unusual layouts, a
//     long-lived `cat-file --batch-command` for objects and revisions the
//     in-process reader declares unsupported (gitobj.ErrUnsupported,
//     errNotNative: nothing else is retried with git), `rev-list --full-history` for history
//     ranges, `ls-files` for the index and the work tree (untracked cache,
//     fsmonitor-free, every ignore rule), `ls-tree -r` to list a tree.
//     Nothing it runs writes to the repository or can reach the network.
//   - EngineInProcess reads the repository in process for machines without
//     git: the same object and ref reader, gitscan's own decoders for the
//     index, config and ignore files, and a directory walk for the work
//     tree; gitscan depends on nothing outside the standard library. It
//     refuses what it cannot read correctly (see inProcessBackend) instead
//     of answering wrongly. (It was once EngineGoGit, when it used go-git;
//     that name remains as a deprecated alias.)
//
// Everything that must cost O(change) is implemented once, above the
// engines, on top of object reads: the pruned tree comparison behind
// Changes and History (descend only into subtrees whose ids differ), Lookup
// (walk the path one directory at a time) and the per-parent comparisons of
// History. Both engines therefore give identical answers for commits and the
// index; differential tests against git and go-git's own full-tree diff
// hold them (and EngineWithGit with cat-file only) to it. WithReadCounter
// counts object reads so tests can assert the cost.
//
// # Sides
//
// A Side is a commit, the staged index, the work tree or Empty. The work tree
// is read with lstat and never through a symlink: a symlink is an entry of
// mode ModeSymlink whose content is its target text, exactly as git stores
// it. FIFOs, devices and sockets are never opened.
//
// For a security tool a wrong answer is worse than none: where an engine
// cannot answer correctly (unsupported repository formats, missing objects,
// a damaged `.git` file) it returns an error; shallow boundaries are
// reported (HistoryCommit.Boundary), never taken for "no changes".
package gitscan

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/filekind"
	"github.com/mcp-guard/mcp-guard/internal/gitobj"
	"github.com/mcp-guard/mcp-guard/surface"
)

// Errors callers branch on. Returned errors wrap them (use errors.Is).
var (
	// ErrNotRepository: the directory is not inside a git work tree.
	ErrNotRepository = errors.New("not a git repository")
	// ErrUnknownRevision: the revision does not name a commit.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrTooLarge: a blob is larger than the caller's limit; it was not read.
	ErrTooLarge = gitobj.ErrTooLarge
	// ErrNotRegular: the path is a FIFO, device, socket, directory or
	// submodule, not a file with content (the work tree's errors say
	// which: a *filekind.Error).
	ErrNotRegular = filekind.ErrNotRegular
	// ErrNotFound: the path does not exist at that side.
	ErrNotFound = errors.New("path not found")
	// ErrUnsupported: the repository uses a format or state the selected
	// engine cannot read correctly (the message names it).
	ErrUnsupported = errors.New("unsupported repository")
	// ErrMissingObject: an object the answer depends on is not in the
	// repository (partial or damaged clone).
	ErrMissingObject = gitobj.ErrMissingObject
)

// Engine selects how the repository is read.
type Engine int

const (
	// EngineAuto uses EngineWithGit when a git executable is on PATH (or
	// WithGitExecutable names one), else EngineInProcess.
	EngineAuto Engine = iota
	// EngineWithGit reads objects and refs in process (internal/gitobj,
	// refStore) and runs git for the rest: locating unusual layouts, the
	// work tree and ignore rules (ls-files), history ranges (rev-list), and
	// whatever the in-process reader declares unsupported (cat-file).
	EngineWithGit
	// EngineInProcess reads the repository entirely in process, without a
	// git executable: the same object and ref reader, gitscan's own index,
	// config and ignore-file decoders and a directory walk for the work
	// tree. What it does not implement is ErrUnsupported.
	EngineInProcess

	// EngineGit is the former name of EngineWithGit.
	//
	// Deprecated: use EngineWithGit.
	EngineGit = EngineWithGit
	// EngineGoGit is the former name of EngineInProcess (which has not
	// used go-git for a long time: gitscan reads repositories with the
	// standard library alone).
	//
	// Deprecated: use EngineInProcess.
	EngineGoGit = EngineInProcess

	// engineGitCatFile is EngineWithGit reading every object and revision
	// through git's cat-file, never in process: tests hold the in-process
	// reader to git's own answers with it.
	engineGitCatFile Engine = 100
)

// String names the engine.
func (e Engine) String() string {
	switch e {
	case EngineWithGit:
		return "with-git"
	case EngineInProcess:
		return "in-process"
	case engineGitCatFile:
		return "git-cat-file-only"
	}
	return "auto"
}

// Option configures Open.
type Option func(*options)

type options struct {
	engine  Engine
	counter *Counter
	env     []string
	envSet  bool
	gitPath string
	noCache bool
	// catFileOnly keeps EngineWithGit from reading objects and refs itself
	// (tests hold the native reader to git's own answers with it).
	catFileOnly bool
	// noFetch: see WithoutFetch.
	noFetch bool
	// snapshot: see WithWorktreeSnapshot.
	snapshot bool
}

// WithEngine forces an engine.
func WithEngine(e Engine) Option { return func(o *options) { o.engine = e } }

// WithReadCounter counts every object the engine reads (tests assert that
// the hook path reads O(change) objects).
func WithReadCounter(c *Counter) Option { return func(o *options) { o.counter = c } }

// WithEnv replaces the process environment that Open consults (GIT_DIR,
// GIT_WORK_TREE, GIT_INDEX_FILE, HOME, ...) and that git runs with.
func WithEnv(env []string) Option {
	return func(o *options) { o.env = append([]string(nil), env...); o.envSet = true }
}

// WithWorktreeSnapshot makes the Repo look at the work tree and the index
// once: each path is lstat'ed and hashed (or its id taken from the index's
// stat data) the first time it is asked about, and later questions are
// answered from what was seen then, as for one evaluation that asks about
// the same files for several servers and clients (the launch gate). Without
// it every question looks again. Open a new Repo to see later changes.
func WithWorktreeSnapshot() Option { return func(o *options) { o.snapshot = true } }

// WithGitExecutable names the git binary for EngineWithGit (default: "git" on PATH).
func WithGitExecutable(path string) Option { return func(o *options) { o.gitPath = path } }

// WithoutCache disables the surface cache kept in the git directory.
func WithoutCache() Option { return func(o *options) { o.noCache = true } }

// Repo is an open repository. It is not safe for concurrent use.
type Repo struct {
	top, gitDir, commonDir string
	indexFile              string
	shallow                bool
	format                 objectFormat
	engine                 Engine
	be                     backend
	opts                   options
	trees                  *treeCache
	idx                    *indexCache
	cache                  *surfaceCache       // opened on first use, written at Close
	lastChanges            *changesMemo        // the last comparison of two trees
	graph                  *gitobj.CommitGraph // see commitGraph
	graphLoaded            bool
	// wtPaths is the work tree's candidate paths, listed once per Repo
	// (a launch model walks several directories of the same work tree).
	wtPaths  []string
	wtListed bool
	// wt is what the Repo learned of the work tree (see wtMemo).
	wt wtMemo
	// topDir is the work tree's top directory, opened for lstatRel.
	topDir topDir
	// attrs memoises .gitattributes reads (see attrFiles).
	attrs map[string]attrMemo
	// attrDirs memoises, per directory, whether the index's attribute
	// stack there transforms anything on checkout (checkoutRewrites).
	attrDirs map[string]bool
	// promisor is a partial clone's promisor remote, read on the first
	// missing object (partial.go).
	promisor        string
	promisorChecked bool
}

// changesMemo is the result of Changes between two trees.
type changesMemo struct {
	from, to string
	changes  []Change
}

// lookPath is exec.LookPath; a test counts the PATH walks of an Open.
var lookPath = exec.LookPath

// Open finds the repository containing dir (any directory inside its work
// tree). Linked worktrees (a `.git` file naming a directory with a
// `commondir`) are supported; bare repositories are refused. GIT_DIR,
// GIT_WORK_TREE and GIT_INDEX_FILE are honoured as git honours them inside a
// hook: relative GIT_DIR and GIT_WORK_TREE are taken relative to dir, a
// relative GIT_INDEX_FILE relative to the work tree root (git changes to the
// root before it reads it). Outside a repository the error wraps
// ErrNotRepository.
func Open(dir string, opts ...Option) (*Repo, error) {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if !o.envSet {
		o.env = os.Environ()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open repository %s: not a directory", dir)
	}
	if surface.Empty() {
		// A program that reads repositories without importing package
		// client would see no surface and call every tree clean.
		return nil, fmt.Errorf("open repository %s: no agent surfaces are declared (the program does not import package client)", dir)
	}
	eng := o.engine
	if eng == EngineAuto {
		eng = EngineInProcess
		if o.gitPath != "" {
			eng = EngineWithGit
		} else if p, err := lookPath("git"); err == nil {
			// Found once: openGit and a partial clone's fetch use this
			// path instead of walking PATH again (each walk is a stat of
			// git in every PATH directory, on every hook).
			eng, o.gitPath = EngineWithGit, p
		}
	}
	if eng == engineGitCatFile {
		eng, o.catFileOnly = EngineWithGit, true
	}
	r := &Repo{opts: o, engine: eng, trees: newTreeCache(4096), idx: &indexCache{}, wt: wtMemo{on: o.snapshot}}
	switch eng {
	case EngineWithGit:
		err = openGit(r, abs)
	case EngineInProcess:
		err = openInProcess(r, abs)
	default:
		err = fmt.Errorf("engine %d: unknown", int(eng))
	}
	if err != nil {
		if r.be != nil {
			r.be.close()
		}
		return nil, err
	}
	return r, nil
}

// Close writes the surface cache if it changed and releases the engine's
// resources (files, the git processes it keeps).
func (r *Repo) Close() error {
	r.topDir.close()
	if r.cache != nil {
		r.cache.flush()
	}
	if r.graph != nil {
		r.graph.Close()
		r.graph = nil
	}
	if r.be == nil {
		return nil
	}
	err := r.be.close()
	r.be = nil
	return err
}

// Engine reports the engine in use.
func (r *Repo) Engine() Engine { return r.engine }

// TopLevel is the absolute work tree root.
func (r *Repo) TopLevel() string { return r.top }

// GitDir is the per-worktree git directory.
func (r *Repo) GitDir() string { return r.gitDir }

// CommonDir is the git directory shared by all worktrees (hooks, objects,
// refs live here).
func (r *Repo) CommonDir() string { return r.commonDir }

// IsShallow reports whether the repository is a shallow clone: its history
// stops at boundary commits whose parents are missing.
func (r *Repo) IsShallow() bool { return r.shallow }

type sideKind uint8

const (
	sideEmpty sideKind = iota
	sideCommit
	sideIndex
	sideWorkTree
)

// A Side is one state of the repository: a commit, the staged index, the
// work tree, or nothing at all. Sides are comparable with ==.
type Side struct {
	kind   sideKind
	commit string
	tree   string
}

var (
	// Empty is the state with no files (the all-zeros revision, an unborn HEAD).
	Empty = Side{kind: sideEmpty}
	// Index is the staged index (GIT_INDEX_FILE when set).
	Index = Side{kind: sideIndex}
	// WorkTree is the files on disk: tracked and untracked files that are
	// not ignored (see Surfaces for how each engine enumerates them).
	WorkTree = Side{kind: sideWorkTree}
)

// Commit is the full commit id of a commit side, "" otherwise.
func (s Side) Commit() string { return s.commit }

// Tree is the root tree id of a commit side, "" otherwise.
func (s Side) Tree() string { return s.tree }

// isTreeSide reports whether s is a commit or Empty (the empty tree).
func (s Side) isTreeSide() bool { return s.kind == sideCommit || s.kind == sideEmpty }

// String is the commit id, "index", "worktree" or "empty".
func (s Side) String() string {
	switch s.kind {
	case sideCommit:
		return s.commit
	case sideIndex:
		return "index"
	case sideWorkTree:
		return "worktree"
	}
	return "empty"
}

// Mode is the kind of an entry. The zero Mode means "no entry".
type Mode int

const (
	ModeRegular    Mode = iota + 1 // 100644
	ModeExecutable                 // 100755
	ModeSymlink                    // 120000: content is the link target
	ModeSubmodule                  // 160000: gitlink, ID is a commit of another repository
	ModeTree                       // 040000
	// ModeSpecial is a work tree entry git cannot store standing where a
	// surface file belongs: a FIFO, device, socket or directory. It has no
	// id and is never read (ReadBlob: ErrNotRegular); only work tree
	// surfaces carry it, so that a configuration an agent cannot read is
	// reported rather than taken for absent.
	ModeSpecial
)

// Entry is one path at one side.
type Entry struct {
	Path string // slash-separated, repository-relative
	Mode Mode
	// ID is the object id in hex: blob id, tree id or gitlink commit. In the
	// work tree it is the blob id of the file's current content (as `git
	// hash-object` computes it) and, for a directory, the id `git write-tree`
	// would give its files (so an unmodified directory has its commit's id).
	ID string
}

// Surface is one agentty surface found at a side. A symlink is reported
// with Mode ModeSymlink: its target text is not configuration, and what
// agentty would read through it is for the caller to decide.
type Surface struct {
	Entry
	Kind surface.Kind
}

// Change is one path whose entry differs between two sides. Old or New is
// nil when the path is absent on that side. Only non-directory entries
// (files, symlinks, gitlinks) are reported.
type Change struct {
	Path     string
	Old, New *Entry
	// Parent is set by History only: the parent commit this change is
	// relative to ("" for a root or shallow-boundary commit).
	Parent string
}

// HistoryCommit is one commit found by History.
type HistoryCommit struct {
	ID, Author, AuthorEmail string
	Time                    time.Time // author time
	Parents                 []string
	// Boundary is true when the commit's parents are missing (a shallow
	// clone's boundary); its Changes are then against the empty tree, and
	// whatever happened before it is unknown.
	Boundary bool
	// Changes against each parent in turn (Change.Parent says which), only
	// for paths the patterns match.
	Changes []Change
}

func (r *Repo) countRead() { r.opts.counter.add(1) }

// isZeroRev reports whether rev is "" or an all-zeros id (git's "no commit").
func isZeroRev(rev string) bool {
	return rev == "" || ((len(rev) == 40 || len(rev) == 64) && strings.Trim(rev, "0") == "")
}
