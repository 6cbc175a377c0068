package gitscan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/go-git/go-billy/v5/osfs"
)

// goGitBackend is EngineGoGit: objects, refs and the index read in-process
// by go-git v5, work tree enumeration by our own walk (walkWorktree).
//
// Where go-git v5 is known to fail, checkGoGitSupport refuses up front with
// ErrUnsupported instead of letting it answer wrongly:
//   - extensions.worktreeConfig (turned on by `git sparse-checkout set`):
//     go-git refuses to open the repository at all;
//   - extensions.objectFormat=sha256: needs a go-git build with sha256 ids;
//   - extensions.partialClone (and remote.*.promisor): go-git reports a
//     blob the clone never fetched as an absent file, a false "deleted";
//   - extensions.refStorage (reftable): go-git reads only files refs;
//   - GIT_OBJECT_DIRECTORY / GIT_ALTERNATE_OBJECT_DIRECTORIES (receive-pack
//     quarantine): go-git would not see the quarantined objects;
//   - split or sparse index (index extensions "link", "sdir"): go-git's
//     decoder rejects them (reported when the index is read).
//
// go-git also fails at a shallow clone's boundary (its parents are
// missing); gitscan never asks it for those parents (see readShallow).
type goGitBackend struct {
	st        *filesystem.Storage
	repo      *git.Repository
	loc       *location
	indexFile string
	env       []string
}

func openGoGit(r *Repo, dir string) error {
	loc, err := discover(dir, r.opts.env)
	if err != nil {
		return err
	}
	if err := checkGoGitSupport(loc, r.opts.env); err != nil {
		return err
	}
	r.top, r.gitDir, r.commonDir, r.indexFile = loc.top, loc.gitDir, loc.commonDir, loc.indexFile
	r.format = formatSHA1
	fsys := dotgit.NewRepositoryFilesystem(osfs.New(loc.gitDir), osfs.New(loc.commonDir))
	st := filesystem.NewStorageWithOptions(fsys, cache.NewObjectLRU(16*cache.MiByte), filesystem.Options{})
	repo, err := git.Open(st, nil)
	if err != nil {
		return fmt.Errorf("%s: go-git: %w", loc.gitDir, err)
	}
	sh, err := readShallow(loc.commonDir, r.format)
	if err != nil {
		return err
	}
	r.shallow = len(sh) > 0
	r.be = &goGitBackend{st: st, repo: repo, loc: loc, indexFile: loc.indexFile, env: r.opts.env}
	return nil
}

// checkGoGitSupport refuses repositories go-git v5 would misread.
func checkGoGitSupport(loc *location, env []string) error {
	for _, k := range []string{"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"} {
		if v, ok := getenv(env, k); ok && v != "" {
			return fmt.Errorf("%s is set (a quarantined push?): the go-git engine cannot see those objects; install git: %w", k, ErrUnsupported)
		}
	}
	cfg, err := readGitConfig(loc.commonDir + "/config")
	if err != nil {
		return err
	}
	if v := cfg.Section("core").Options.Get("repositoryformatversion"); v != "" && v != "0" && v != "1" {
		return fmt.Errorf("%s: repository format version %s: %w", loc.commonDir, v, ErrUnsupported)
	}
	for _, o := range cfg.Section("extensions").Options {
		key := strings.ToLower(o.Key)
		val := strings.ToLower(o.Value)
		switch key {
		case "noop", "preciousobjects":
			continue
		case "objectformat":
			if val == "sha1" {
				continue
			}
			return fmt.Errorf("%s: extensions.objectFormat=%s: the go-git engine reads only sha1 repositories; install git: %w", loc.commonDir, o.Value, ErrUnsupported)
		case "worktreeconfig":
			if val == "false" {
				continue
			}
			return fmt.Errorf("%s: extensions.worktreeConfig (sparse checkout?): go-git cannot open it; install git: %w", loc.commonDir, ErrUnsupported)
		case "partialclone":
			return fmt.Errorf("%s: partial clone (extensions.partialClone): go-git would report unfetched files as deleted; install git: %w", loc.commonDir, ErrUnsupported)
		}
		return fmt.Errorf("%s: extensions.%s: not understood by the go-git engine; install git: %w", loc.commonDir, o.Key, ErrUnsupported)
	}
	for _, s := range cfg.Section("remote").Subsections {
		if strings.EqualFold(s.Options.Get("promisor"), "true") {
			return fmt.Errorf("%s: partial clone (remote.%s.promisor): go-git would report unfetched files as deleted; install git: %w", loc.commonDir, s.Name, ErrUnsupported)
		}
	}
	return nil
}

func (g *goGitBackend) readObject(id, typ string, limit int64) ([]byte, error) {
	h := plumbing.NewHash(id)
	want, err := plumbing.ParseObjectType(typ)
	if err != nil {
		return nil, err
	}
	if limit >= 0 {
		size, err := g.st.EncodedObjectSize(h)
		if err != nil {
			return nil, g.objErr(id, err)
		}
		if size > limit {
			return nil, &tooLargeError{id: id, size: size}
		}
	}
	obj, err := g.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return nil, g.objErr(id, err)
	}
	if obj.Type() != want {
		return nil, fmt.Errorf("object %s: is a %s, not a %s", id, obj.Type(), typ)
	}
	if limit >= 0 && obj.Size() > limit {
		return nil, &tooLargeError{id: id, size: obj.Size()}
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, g.objErr(id, err)
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, obj.Size()+1))
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", id, err)
	}
	if int64(len(data)) != obj.Size() {
		return nil, fmt.Errorf("object %s: size mismatch", id)
	}
	return data, nil
}

func (g *goGitBackend) objErr(id string, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return fmt.Errorf("object %s: %w", id, ErrMissingObject)
	}
	return fmt.Errorf("object %s: %w", id, err)
}

func (g *goGitBackend) resolve(rev string) (string, error) {
	// go-git's revision parser silently ignores syntax it does not know
	// (it resolves "HEAD:path" to HEAD): accept only what it parses right,
	// names and ids with ~N, ^N and ^{...} suffixes.
	if strings.ContainsAny(rev, ": \t\\") || strings.Contains(rev, "@{") || strings.Contains(rev, "..") {
		return "", fmt.Errorf("revision %q: syntax not supported by the go-git engine: %w", rev, ErrUnknownRevision)
	}
	// go-git tries a name as an abbreviated id before trying it as a ref
	// and takes the first of several matching objects; git does the
	// opposite and refuses ambiguity. Resolve the ref ourselves, in git's
	// order, and refuse abbreviated ids rather than risk the wrong commit.
	base, suffix := rev, ""
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		base, suffix = rev[:i], rev[i:]
	}
	if base == "@" || base == "" {
		base = "HEAD"
	}
	if !formatSHA1.validID(base) {
		name := ""
		for _, rule := range plumbing.RefRevParseRules {
			ref, err := g.st.Reference(plumbing.ReferenceName(fmt.Sprintf(rule, base)))
			if err == nil && ref != nil {
				name = ref.Name().String()
				break
			}
		}
		switch {
		case name != "":
			base = name
		case isHex(base):
			return "", fmt.Errorf("revision %q: abbreviated ids are not supported by the go-git engine (use the full id): %w", rev, ErrUnknownRevision)
		}
	}
	rev = base + suffix
	h, err := g.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return "", fmt.Errorf("revision %q: %v: %w", rev, err, ErrUnknownRevision)
	}
	// Peel tags; ResolveRevision may return a tag object id.
	for i := 0; i < 16; i++ {
		obj, err := g.st.EncodedObject(plumbing.AnyObject, *h)
		if err != nil {
			return "", fmt.Errorf("revision %q: %w", rev, g.objErr(h.String(), err))
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h.String(), nil
		case plumbing.TagObject:
			rd, err := obj.Reader()
			if err != nil {
				return "", err
			}
			b, err := io.ReadAll(rd)
			rd.Close()
			if err != nil {
				return "", err
			}
			line, _, _ := strings.Cut(string(b), "\n")
			t, ok := strings.CutPrefix(line, "object ")
			if !ok || !formatSHA1.validID(t) {
				return "", fmt.Errorf("revision %q: malformed tag object", rev)
			}
			nh := plumbing.NewHash(t)
			h = &nh
		default:
			return "", fmt.Errorf("revision %q: names a %s, not a commit: %w", rev, obj.Type(), ErrUnknownRevision)
		}
	}
	return "", fmt.Errorf("revision %q: tag chain too long: %w", rev, ErrUnknownRevision)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

func (g *goGitBackend) headUnborn() (bool, error) {
	ref, err := g.st.Reference(plumbing.HEAD)
	if err != nil {
		return false, nil
	}
	if ref.Type() != plumbing.SymbolicReference {
		return false, nil
	}
	_, err = g.st.Reference(ref.Target())
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return true, nil
	}
	return false, err
}

func (g *goGitBackend) indexEntries() ([]indexEntry, error) {
	f, err := os.Open(g.indexFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer f.Close()
	return decodeIndex(f, g.indexFile)
}

func (g *goGitBackend) worktreePaths() ([]string, error) {
	idx, err := g.indexEntries()
	if err != nil {
		return nil, err
	}
	paths, err := walkWorktree(g.loc.top, g.loc.commonDir, idx, g.env)
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	return dedupSorted(paths), nil
}

func (g *goGitBackend) close() error { return g.st.Close() }
