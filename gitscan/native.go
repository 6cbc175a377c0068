package gitscan

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// objectStore is what gitscan needs of an object reader: gitobj.Reader
// implements it. Errors wrap gitobj.ErrMissingObject, gitobj.ErrTooLarge
// (the same values as ErrMissingObject and ErrTooLarge) or
// gitobj.ErrUnsupported.
type objectStore interface {
	// Read returns an object's type and content (see gitobj.Reader.Read).
	Read(id string, limit int64) (typ string, data []byte, err error)
	// ReadRaw is Read by binary id; id is its hex form or "".
	ReadRaw(raw []byte, id string, limit int64) (typ string, data []byte, err error)
	// CommitGraph is the object store's commit-graph, nil when none.
	CommitGraph() *gitobj.CommitGraph
	Close() error
}

// native is gitscan's in-process reader of objects and refs (see
// gitobj.Reader and refStore). Both engines use it when the repository's
// format allows: EngineInProcess always (it has nothing else),
// EngineWithGit for every object read and revision, asking git's own
// `cat-file` only for what it declares unsupported (see fallsBackToGit).
// Either way a read costs the same in a repository of 10,000 objects and
// one of 10 million, and the hook starts no git process at all.
type native struct {
	objects objectStore
	refs    *refStore
	format  objectFormat
}

// errNativeUnsupported marks what gitscan's own in-process decoders (the
// index, the repository format) do not implement: it is ErrUnsupported for
// callers and gitobj.ErrUnsupported for the fallback rule (see
// fallsBackToGit).
var errNativeUnsupported = fmt.Errorf("%w (%w)", ErrUnsupported, gitobj.ErrUnsupported)

// fallsBackToGit is the one rule by which EngineWithGit asks git after
// the in-process reader failed: only for what the reader declares it does
// not implement (gitobj.ErrUnsupported: a pack or pack index version, a
// split or sparse index, a repository format or extension; errNotNative
// wraps it for unusual revision syntax). Anything else (a damaged object,
// a missing one, a type that does not match, an unreadable file) is the
// answer, surfaced to the caller: retrying with git would turn a bug in the
// reader, or damage git would not notice, into mere slowness.
func fallsBackToGit(err error) bool { return errors.Is(err, gitobj.ErrUnsupported) }

// asUnsupported is err for EngineInProcess, which has no git to fall back
// to: what the reader does not implement is ErrUnsupported for callers.
func asUnsupported(err error) error {
	if err != nil && errors.Is(err, gitobj.ErrUnsupported) && !errors.Is(err, ErrUnsupported) {
		return fmt.Errorf("%w: %w; install git to read it", err, ErrUnsupported)
	}
	return err
}

// repoFormat is what a repository's config says about how to read it.
type repoFormat struct {
	format        objectFormat
	worktreeCfg   bool
	unsupportedBy string // why the native reader must not read it ("" = it can)
}

// knownExtensions are the repository extensions of git 2.39 that do not
// change how objects and refs are stored, plus objectFormat (handled).
var knownExtensions = map[string]bool{"noop": true, "preciousobjects": true, "partialclone": true, "worktreeconfig": true, "objectformat": true}

// readRepoFormat reads core.repositoryformatversion and extensions.* as
// git's read_repository_format does (the repository's own config file).
func readRepoFormat(commonDir string) (repoFormat, error) {
	rf := repoFormat{format: formatSHA1}
	cfg, err := readGitConfig(filepath.Join(commonDir, "config"))
	if err != nil {
		return rf, err
	}
	version := 0
	if v := cfg.value("core", "repositoryformatversion"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			rf.unsupportedBy = fmt.Sprintf("core.repositoryformatversion=%q", v)
			return rf, nil
		}
		version = n
	}
	if version > 1 {
		rf.unsupportedBy = fmt.Sprintf("repository format version %d", version)
		return rf, nil
	}
	for _, o := range cfg.keys("extensions") {
		key, val := o.key, strings.ToLower(strings.TrimSpace(o.value))
		if !knownExtensions[key] {
			if version == 0 {
				continue // git ignores extensions in a version 0 repository
			}
			rf.unsupportedBy = "extensions." + o.key
			return rf, nil
		}
		switch key {
		case "objectformat":
			switch val {
			case "sha1":
			case "sha256":
				rf.format = formatSHA256
			default:
				rf.unsupportedBy = "extensions.objectFormat=" + o.value
				return rf, nil
			}
		case "worktreeconfig":
			rf.worktreeCfg = val != "false" && val != "no" && val != "off" && val != "0"
		}
	}
	return rf, nil
}

func openNative(loc *location, rf repoFormat, env []string) (*native, error) {
	if rf.unsupportedBy != "" {
		return nil, fmt.Errorf("%s: %s: %w", loc.commonDir, rf.unsupportedBy, errNativeUnsupported)
	}
	dir := filepath.Join(loc.commonDir, "objects")
	if v, ok := getenv(env, "GIT_OBJECT_DIRECTORY"); ok && v != "" {
		dir = v
	}
	alternates, _ := getenv(env, "GIT_ALTERNATE_OBJECT_DIRECTORIES")
	o, err := gitobj.Open(rf.format.obj(), dir, alternates)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %w", err, ErrNotRepository)
	}
	if err != nil {
		return nil, err
	}
	return &native{objects: o, refs: &refStore{gitDir: loc.gitDir, commonDir: loc.commonDir, format: rf.format}, format: rf.format}, nil
}

func (n *native) readObject(id, typ string, limit int64) ([]byte, error) {
	t, data, err := n.objects.Read(id, limit)
	if err != nil {
		return nil, err
	}
	if t != typ {
		return nil, fmt.Errorf("object %s: is a %s, not a %s", id, t, typ)
	}
	return data, nil
}

// readObjectRaw is readObject by binary id.
func (n *native) readObjectRaw(raw, typ string, limit int64) ([]byte, error) {
	t, data, err := n.objects.ReadRaw([]byte(raw), "", limit)
	if err != nil {
		return nil, err
	}
	if t != typ {
		return nil, fmt.Errorf("object %x: is a %s, not a %s", raw, t, typ)
	}
	return data, nil
}

// resolve peels rev to a commit id (errNotNative for syntax left to git).
func (n *native) resolve(rev string) (string, error) {
	return nativeResolve(n.refs, n.format, rev, func(id string) (string, []string, error) {
		t, data, err := n.objects.Read(id, -1)
		if err != nil {
			if errors.Is(err, ErrMissingObject) {
				return "", nil, fmt.Errorf("revision %q: %v: %w", rev, err, ErrUnknownRevision)
			}
			return "", nil, err
		}
		switch t {
		case "commit":
			c, err := parseCommit(n.format, data)
			if err != nil {
				return "", nil, fmt.Errorf("commit %s: %w", id, err)
			}
			return t, c.parents, nil
		case "tag":
			line, _, _ := strings.Cut(string(data), "\n")
			target, ok := strings.CutPrefix(line, "object ")
			if !ok || !n.format.validID(target) {
				return "", nil, fmt.Errorf("tag %s: malformed", id)
			}
			return t, []string{target}, nil
		}
		return t, nil, nil
	})
}

// headUnborn reports whether HEAD names a branch that does not exist.
func (n *native) headUnborn() (bool, error) {
	target, err := n.refs.headSymref()
	if err != nil || target == "" {
		return false, err
	}
	_, ok, err := n.refs.resolveName(target)
	if err != nil {
		return false, err
	}
	return !ok, nil
}

func (n *native) close() error { return n.objects.Close() }

// discoverForGit locates the repository without running git, for the git
// engine, and reports ok only where the answer is certainly git's own:
// otherwise (odd layouts, another user's repository, a file system
// boundary, ceiling directories) the caller asks `git rev-parse`, which
// also applies safe.directory with every configuration level.
//
// safe.directory: git checks ownership only when it discovers a repository,
// not when GIT_DIR is set (as it is inside a hook, after git itself checked).
// A discovered repository whose work tree, git directory and `.git` file
// are owned by the effective user passes git's check whatever
// safe.directory says; anything else goes to git, which applies
// safe.directory from every configuration level.
func discoverForGit(dir string, env []string) (*location, repoFormat, bool) {
	if runtime.GOOS == "windows" {
		return nil, repoFormat{}, false // ownership is a matter of SIDs there
	}
	if v, ok := getenv(env, "GIT_CEILING_DIRECTORIES"); ok && v != "" {
		return nil, repoFormat{}, false
	}
	_, gitDirSet := getenv(env, "GIT_DIR")
	loc, err := discover(dir, env)
	if err != nil {
		return nil, repoFormat{}, false
	}
	if !pathWithin(dir, loc.top) {
		return nil, repoFormat{}, false // not inside the work tree: git says how
	}
	rf, err := readRepoFormat(loc.commonDir)
	if err != nil || rf.unsupportedBy != "" {
		return nil, repoFormat{}, false
	}
	if rf.worktreeCfg {
		// config.worktree may move the work tree or make it bare.
		if cfg, err := readGitConfig(filepath.Join(loc.gitDir, "config.worktree")); err != nil ||
			cfg.value("core", "worktree") != "" || cfg.value("core", "bare") != "" {
			return nil, repoFormat{}, false
		}
	}
	if !gitDirSet {
		if !crossesNoFilesystem(dir, loc.top, env) {
			return nil, repoFormat{}, false
		}
		for _, p := range []string{loc.top, loc.gitDir, filepath.Join(loc.top, ".git")} {
			if !ownedByUs(p, env) {
				return nil, repoFormat{}, false
			}
		}
	}
	return loc, rf, true
}

// pathWithin reports whether dir is root or below it (both absolute; dir
// may contain symlinks that root has resolved).
func pathWithin(dir, root string) bool {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// crossesNoFilesystem reports whether discovery from dir up to top stayed
// on one file system, or GIT_DISCOVERY_ACROSS_FILESYSTEM allows crossing.
func crossesNoFilesystem(dir, top string, env []string) bool {
	if v, ok := getenv(env, "GIT_DISCOVERY_ACROSS_FILESYSTEM"); ok {
		if b, err := strconv.ParseBool(v); err == nil && b {
			return true
		}
	}
	first, ok := fileDev(dir)
	if !ok {
		return false
	}
	for d := dir; ; d = filepath.Dir(d) {
		dev, ok := fileDev(d)
		if !ok || dev != first {
			return false
		}
		if d == top || filepath.Dir(d) == d {
			return true
		}
	}
}
