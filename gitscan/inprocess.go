package gitscan

import (
	"errors"
	"fmt"
	"sort"
)

// inProcessBackend is EngineInProcess: the repository read in process,
// without a git executable. Objects and refs come from gitscan's own
// reader (gitobj.Reader, refStore: pack indexes searched where they lie,
// so the cost of a read does not grow with the repository, unlike go-git
// v5's storage, which loads every pack index on the first read); the
// index, config files and ignore files are decoded by gitscan itself
// (decodeIndex, gitConfig, ignore.go); the work tree by walkWorktree.
//
// What it cannot read correctly it refuses with ErrUnsupported rather than
// answer wrongly (EngineWithGit asks git for exactly these, see
// fallsBackToGit):
//   - repository format versions above 1 and extensions git 2.39 does not
//     know (reftable ref storage among them);
//   - pack index versions other than 1 and 2, pack versions other than 2
//     and 3 (gitobj.ErrUnsupported);
//   - split or sparse index (index extensions "link", "sdir"): reported
//     when the index is read;
//   - revision syntax beyond names, full ids, ~N, ^N and ^{commit}
//     (abbreviated ids, @{upstream}, ranges): ErrUnknownRevision saying so.
//
// A partial clone's missing objects are ErrMissingObject, never absent
// files; nothing is ever fetched.
type inProcessBackend struct {
	nat       *native
	loc       *location
	indexFile string
	env       []string
}

func openInProcess(r *Repo, dir string) error {
	loc, err := discover(dir, r.opts.env)
	if err != nil {
		return err
	}
	rf, err := readRepoFormat(loc.commonDir)
	if err != nil {
		return err
	}
	if rf.unsupportedBy != "" {
		return fmt.Errorf("%s: %s: not understood by the in-process engine; install git: %w", loc.commonDir, rf.unsupportedBy, ErrUnsupported)
	}
	r.top, r.gitDir, r.commonDir, r.indexFile = loc.top, loc.gitDir, loc.commonDir, loc.indexFile
	r.format = rf.format
	nat, err := openNative(loc, rf, r.opts.env)
	if err != nil {
		return err
	}
	sh, err := readShallow(loc.commonDir, r.format)
	if err != nil {
		nat.close()
		return err
	}
	r.shallow = len(sh) > 0
	r.be = &inProcessBackend{nat: nat, loc: loc, indexFile: loc.indexFile, env: r.opts.env}
	return nil
}

func (g *inProcessBackend) readObject(id, typ string, limit int64) ([]byte, error) {
	data, err := g.nat.readObject(id, typ, limit)
	return data, asUnsupported(err)
}

func (g *inProcessBackend) readObjectRaw(raw, typ string, limit int64) ([]byte, error) {
	data, err := g.nat.readObjectRaw(raw, typ, limit)
	return data, asUnsupported(err)
}

func (g *inProcessBackend) resolve(rev string) (string, error) {
	id, err := g.nat.resolve(rev)
	if errors.Is(err, errNotNative) {
		return "", fmt.Errorf("revision %q: syntax not supported by the in-process engine (use a name or a full id, with ~N, ^N): %w", rev, ErrUnknownRevision)
	}
	return id, asUnsupported(err)
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

func (g *inProcessBackend) headUnborn() (bool, error) {
	unborn, err := g.nat.headUnborn()
	if errors.Is(err, errNotNative) {
		return false, nil
	}
	return unborn, err
}

func (g *inProcessBackend) indexEntries() (indexFile, error) {
	ix, err := readIndexFile(g.indexFile, g.nat.format)
	if errors.Is(err, ErrUnsupported) {
		return indexFile{}, fmt.Errorf("%w; the in-process engine cannot read it, install git", err)
	}
	return ix, err
}

func (g *inProcessBackend) worktreePaths() ([]string, error) {
	idx, err := g.indexEntries()
	if err != nil {
		return nil, err
	}
	paths, _, err := walkWorktree(g.loc.top, g.loc.commonDir, idx.entries, g.env, false)
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	return dedupSorted(paths), nil
}

func (g *inProcessBackend) ignoredSurfacePaths() ([]string, error) {
	idx, err := g.indexEntries()
	if err != nil {
		return nil, err
	}
	_, ignored, err := walkWorktree(g.loc.top, g.loc.commonDir, idx.entries, g.env, true)
	if err != nil {
		return nil, err
	}
	sort.Strings(ignored)
	return dedupSorted(ignored), nil
}

func (g *inProcessBackend) objects() objectStore { return g.nat.objects }

func (g *inProcessBackend) close() error { return g.nat.close() }
