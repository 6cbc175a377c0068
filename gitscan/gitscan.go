// Package gitscan is the only package of mcp-guard that reads git
// repositories. It answers the few questions the rest of the program asks
// (which agentty surfaces exist at a revision, in the index or in the work
// tree; what changed between two states; which commits of a history touched
// a set of paths; the bytes of one path) at a cost proportional to what
// changed, never to the size of the repository.
//
// Two engines sit behind one internal interface: git's own plumbing (the
// default whenever a git executable is found) and a pure Go engine built on
// go-git (used when git is absent, or when asked for). Both give identical
// answers for commits and the index; a differential test holds them to it.
// Where an engine cannot answer correctly (repository formats it does not
// understand, missing objects, shallow boundaries) it returns an error rather
// than a guess: for a security tool a wrong answer is worse than none.
package gitscan

import (
	"context"
	"errors"
	"time"
)

// Errors callers branch on. Returned errors wrap them (use errors.Is).
var (
	// ErrNotRepository: the directory is not inside a git work tree.
	ErrNotRepository = errors.New("not a git repository")
	// ErrUnknownRevision: the revision does not name a commit.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrTooLarge: a blob is larger than the caller's limit; it was not read.
	ErrTooLarge = errors.New("file too large")
	// ErrNotRegular: a work tree path is a FIFO, device, socket or directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNotFound: the path does not exist at that side.
	ErrNotFound = errors.New("path not found")
	// ErrUnsupported: the repository uses a format or state the selected
	// engine cannot read correctly (the message names it).
	ErrUnsupported = errors.New("unsupported repository")
	// ErrMissingObject: an object the answer depends on is not in the
	// repository (partial or damaged clone).
	ErrMissingObject = errors.New("missing object")
)

// Engine selects how the repository is read.
type Engine int

const (
	// EngineAuto uses EngineGit when a git executable is on PATH, else EngineGoGit.
	EngineAuto Engine = iota
	// EngineGit drives git's plumbing commands (cat-file, diff-tree, log, ls-files).
	EngineGit
	// EngineGoGit reads the repository in-process with go-git.
	EngineGoGit
)

// Option configures Open.
type Option func(*options)

type options struct {
	engine  Engine
	counter *Counter
	env     []string
	envSet  bool
	gitPath string
	noCache bool
}

// WithEngine forces an engine.
func WithEngine(e Engine) Option { return func(o *options) { o.engine = e } }

// WithReadCounter counts every object the engine reads (tests assert the
// hook path reads O(change) objects).
func WithReadCounter(c *Counter) Option { return func(o *options) { o.counter = c } }

// WithEnv replaces the process environment Open consults (GIT_DIR,
// GIT_WORK_TREE, GIT_INDEX_FILE, HOME, ...) and passes to git.
func WithEnv(env []string) Option {
	return func(o *options) { o.env = append([]string(nil), env...); o.envSet = true }
}

// WithGitExecutable names the git binary for EngineGit (default: "git" on PATH).
func WithGitExecutable(path string) Option { return func(o *options) { o.gitPath = path } }

// WithoutCache disables the surface cache in the git directory.
func WithoutCache() Option { return func(o *options) { o.noCache = true } }

// Counter counts object reads. The zero value is ready; it is safe for
// concurrent use.
type Counter struct{ n atomicInt64 }

// Objects reports how many objects were read so far.
func (c *Counter) Objects() int64 { return c.n.Load() }

// Reset sets the count back to zero.
func (c *Counter) Reset() { c.n.Store(0) }

// Repo is an open repository. It is not safe for concurrent use.
type Repo struct {
	top, gitDir, commonDir string
	shallow                bool
	eng                    engine
	opts                   options
}

// Open finds the repository containing dir; see the package documentation.
func Open(dir string, opts ...Option) (*Repo, error) {
	return nil, errors.New("gitscan: not implemented yet")
}

// Close releases the engine's resources (the git processes it keeps).
func (r *Repo) Close() error { return nil }

// TopLevel is the absolute work tree root.
func (r *Repo) TopLevel() string { return r.top }

// GitDir is the per-worktree git directory.
func (r *Repo) GitDir() string { return r.gitDir }

// CommonDir is the git directory shared by all worktrees.
func (r *Repo) CommonDir() string { return r.commonDir }

// IsShallow reports whether the repository is a shallow clone.
func (r *Repo) IsShallow() bool { return r.shallow }

// Identity returns the sorted root commit ids reachable from HEAD (empty when
// HEAD is unborn).
func (r *Repo) Identity() ([]string, error) { return nil, errors.New("gitscan: not implemented yet") }

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
	// Index is the staged index.
	Index = Side{kind: sideIndex}
	// WorkTree is the files on disk.
	WorkTree = Side{kind: sideWorkTree}
)

// Commit is the full commit id of a commit side, "" otherwise.
func (s Side) Commit() string { return s.commit }

// Tree is the root tree id of a commit side, "" otherwise.
func (s Side) Tree() string { return s.tree }

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

// Resolve turns a revision into a Side.
func (r *Repo) Resolve(rev string) (Side, error) {
	return Empty, errors.New("gitscan: not implemented yet")
}

// Mode is the kind of a tree entry.
type Mode int

const (
	ModeRegular Mode = iota + 1
	ModeExecutable
	ModeSymlink
	ModeSubmodule
	ModeTree
)

// Entry is one path at one side.
type Entry struct {
	Path string // slash-separated, repository-relative
	Mode Mode
	ID   string
}

// Kind is the kind of agentty surface.
type Kind int

const (
	KindMCPConfig Kind = iota + 1
	KindHooks
	KindACPAgents
	KindPersona
)

// KindOf classifies a repository-relative path.
func KindOf(path string) (Kind, bool) { return 0, false }

// SurfacePatterns are the glob patterns of every agentty surface.
var SurfacePatterns = []string{
	"**/.agentty/mcp.json",
	"**/.agentty/hooks.json",
	"**/.agentty/acp-agents.json",
	"**/.agentty/agents/*.md",
	"**/.agents/agents/*.md",
	"**/.claude/agents/*.md",
}

// Surface is one agentty surface found at a side.
type Surface struct {
	Entry
	Kind Kind
}

// Surfaces lists every agentty surface at side, sorted by path.
func (r *Repo) Surfaces(side Side) (surfaces []Surface, skipped []string, err error) {
	return nil, nil, errors.New("gitscan: not implemented yet")
}

// Change is one path whose entry differs between two sides.
type Change struct {
	Path     string
	Old, New *Entry
	// Parent is set by History only: the parent commit this change is
	// relative to ("" for a root or shallow-boundary commit).
	Parent string
}

// Changes returns every file path that differs between old and new.
func (r *Repo) Changes(old, new Side) ([]Change, error) {
	return nil, errors.New("gitscan: not implemented yet")
}

// Lookup finds one path's entry at side.
func (r *Repo) Lookup(side Side, path string) (e Entry, ok bool, err error) {
	return Entry{}, false, errors.New("gitscan: not implemented yet")
}

// ReadBlob reads the content of a file at side.
func (r *Repo) ReadBlob(side Side, path string, limit int64) ([]byte, Entry, error) {
	return nil, Entry{}, errors.New("gitscan: not implemented yet")
}

// HistoryCommit is one commit of History.
type HistoryCommit struct {
	ID, Author, AuthorEmail string
	Time                    time.Time
	Parents                 []string
	// Boundary is true when the commit's parents are missing (a shallow
	// clone's boundary); Changes are then against the empty tree.
	Boundary bool
	// Changes against each parent in turn (Change.Parent says which).
	Changes []Change
}

// History walks the commits reachable from to but not since that change a
// path matched by patterns. Oldest first.
func (r *Repo) History(ctx context.Context, since, to Side, patterns []string) ([]HistoryCommit, error) {
	return nil, errors.New("gitscan: not implemented yet")
}

type engine interface{}
