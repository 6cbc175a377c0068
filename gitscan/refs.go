package gitscan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// refStore reads refs the way git's files backend stores them: loose ref
// files (per-worktree ones in the worktree's git directory, the rest in the
// common directory) shadowing packed-refs. Repositories using another ref
// backend (reftable) are not read here.
type refStore struct {
	gitDir, commonDir string
	format            objectFormat
	packed            []byte // packed-refs content, read on first need
	packedRead        bool
}

// errNotNative means the native reader cannot answer with certainty (an
// unusual revision syntax, an odd ref file); the git engine then asks git
// (it wraps gitobj.ErrUnsupported, see fallsBackToGit), the in-process
// engine reports the revision as unsupported.
var errNotNative = fmt.Errorf("not handled natively: %w", gitobj.ErrUnsupported)

// isPerWorktreeRef reports whether git keeps ref name in the worktree's own
// git directory: HEAD and the other all-caps pseudo refs (ORIG_HEAD,
// FETCH_HEAD, ...), refs/bisect/, refs/worktree/ and refs/rewritten/.
func isPerWorktreeRef(name string) bool {
	if strings.HasPrefix(name, "refs/bisect/") || strings.HasPrefix(name, "refs/worktree/") || strings.HasPrefix(name, "refs/rewritten/") {
		return true
	}
	return isPseudoRefSyntax(name)
}

func isPseudoRefSyntax(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// validRefName is a conservative form of git's check_refname_format: names
// outside it are left to git.
func validRefName(name string) bool {
	if name == "" || name == "@" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") ||
		strings.HasSuffix(name, ".") || strings.Contains(name, "..") || strings.Contains(name, "//") ||
		strings.Contains(name, "@{") {
		return false
	}
	for _, comp := range strings.Split(name, "/") {
		if comp == "" || strings.HasPrefix(comp, ".") || strings.HasSuffix(comp, ".lock") {
			return false
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte("~^:?*[\\", c) >= 0 {
			return false
		}
	}
	return true
}

// readLoose reads one loose ref file: an id, or "ref: <target>".
func (s *refStore) readLoose(name string) (id, target string, ok bool, err error) {
	dir := s.commonDir
	if isPerWorktreeRef(name) {
		dir = s.gitDir
	}
	p := filepath.Join(dir, filepath.FromSlash(name))
	b, err := gitobj.ReadSmallFile(p, 64<<10)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return "", "", false, nil
		}
		if fi, serr := os.Stat(p); serr == nil && fi.IsDir() {
			return "", "", false, nil // a directory of refs is not a ref, as for git
		}
		return "", "", false, errNotNative // a special file, unreadable: let git say
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	l := strings.TrimRight(string(line), "\r")
	if t, found := strings.CutPrefix(l, "ref:"); found {
		t = strings.TrimSpace(t)
		if !validRefName(t) {
			return "", "", false, errNotNative
		}
		return "", t, true, nil
	}
	hl := s.format.hexLen()
	if len(l) < hl || !s.format.validID(l[:hl]) || (len(l) > hl && l[hl] != ' ' && l[hl] != '\t') {
		return "", "", false, errNotNative
	}
	return l[:hl], "", true, nil
}

// readPacked looks name up in packed-refs.
func (s *refStore) readPacked(name string) (string, bool, error) {
	if !s.packedRead {
		s.packedRead = true
		b, err := gitobj.ReadSmallFile(filepath.Join(s.commonDir, "packed-refs"), 1<<30)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", false, errNotNative
		}
		s.packed = b
	}
	hl := s.format.hexLen()
	key := " " + name
	b := s.packed
	for start := 0; start < len(b); {
		i := bytes.Index(b[start:], []byte(key))
		if i < 0 {
			return "", false, nil
		}
		i += start
		end := i + len(key)
		start = i + 1
		if end < len(b) && b[end] != '\n' && b[end] != '\r' {
			continue
		}
		ls := i - hl
		if ls < 0 || (ls > 0 && b[ls-1] != '\n') {
			continue
		}
		id := string(b[ls:i])
		if !s.format.validID(id) {
			return "", false, errNotNative
		}
		return id, true, nil
	}
	return "", false, nil
}

// resolveName follows a ref name (through symbolic refs) to an id.
func (s *refStore) resolveName(name string) (string, bool, error) {
	for depth := 0; depth < 6; depth++ {
		if !validRefName(name) {
			return "", false, errNotNative
		}
		id, target, ok, err := s.readLoose(name)
		if err != nil {
			return "", false, err
		}
		if !ok && !isPerWorktreeRef(name) {
			id, ok, err = s.readPacked(name)
			if err != nil {
				return "", false, err
			}
		}
		if !ok {
			return "", false, nil
		}
		if target == "" {
			return id, true, nil
		}
		name = target
	}
	return "", false, errNotNative // a loop of symbolic refs: git reports it
}

// headSymref is the branch HEAD points at ("" when detached).
func (s *refStore) headSymref() (string, error) {
	_, target, ok, err := s.readLoose("HEAD")
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errNotNative
	}
	return target, nil
}

// dwimRules are git's ref_rev_parse_rules.
var dwimRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// nativeResolve resolves the revision forms a hook and the CLI use: a full
// id, a ref name as git expands it, "@", each optionally followed by ~N, ^N
// and ^{commit}/^{}. Anything else (abbreviated ids, @{...}, :path, ranges,
// ^{/text}) is errNotNative. peel reads a commit or tag: it returns the
// object's type and, for a commit, its parents, for a tag its target.
func nativeResolve(s *refStore, f objectFormat, rev string, peel func(id string) (typ string, next []string, err error)) (string, error) {
	base, rest := rev, ""
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		base, rest = rev[:i], rev[i:]
	}
	if base == "@" || base == "" {
		if base == "" && rest != "" {
			return "", errNotNative
		}
		base = "HEAD"
	}
	var id string
	switch {
	case f.validID(base):
		id = base
	default:
		if !validRefName(base) {
			return "", errNotNative
		}
		for _, rule := range dwimRules {
			name := fmt.Sprintf(rule, base)
			if rule == "%s" && !isPseudoRefSyntax(name) && !strings.HasPrefix(name, "refs/") {
				// git would look for a file of that name at the top of the
				// git directory; leave such oddities to git.
				if fileExists(filepath.Join(s.commonDir, name)) {
					return "", errNotNative
				}
				continue
			}
			v, ok, err := s.resolveName(name)
			if err != nil {
				return "", err
			}
			if ok {
				id = v
				break
			}
		}
		if id == "" {
			if isHex(base) && len(base) >= 4 {
				return "", errNotNative // maybe an abbreviated id: git decides
			}
			return "", fmt.Errorf("revision %q: %w", rev, ErrUnknownRevision)
		}
	}
	// toCommit peels tags until a commit.
	toCommit := func(id string) (string, []string, error) {
		for i := 0; i < 16; i++ {
			typ, next, err := peel(id)
			if err != nil {
				return "", nil, err
			}
			switch typ {
			case "commit":
				return id, next, nil
			case "tag":
				if len(next) != 1 {
					return "", nil, fmt.Errorf("revision %q: malformed tag %s", rev, id)
				}
				id = next[0]
			default:
				return "", nil, fmt.Errorf("revision %q: names a %s, not a commit: %w", rev, typ, ErrUnknownRevision)
			}
		}
		return "", nil, fmt.Errorf("revision %q: tag chain too long: %w", rev, ErrUnknownRevision)
	}
	cur, parents, err := toCommit(id)
	if err != nil {
		return "", err
	}
	for rest != "" {
		op := rest[0]
		rest = rest[1:]
		if op != '~' && op != '^' {
			return "", errNotNative // a range, a path, junk: git's to answer
		}
		if op == '^' && strings.HasPrefix(rest, "{") {
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				return "", errNotNative
			}
			if what := rest[1:end]; what != "commit" && what != "" {
				return "", errNotNative
			}
			rest = rest[end+1:]
			continue
		}
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n := 1
		if j > 0 {
			v, err := strconv.Atoi(rest[:j])
			if err != nil || v > 1<<20 {
				return "", errNotNative
			}
			n = v
		}
		rest = rest[j:]
		if op == '^' {
			if n == 0 {
				continue
			}
			if n > len(parents) {
				return "", fmt.Errorf("revision %q: commit %s has no parent %d: %w", rev, cur, n, ErrUnknownRevision)
			}
			if cur, parents, err = toCommit(parents[n-1]); err != nil {
				return "", err
			}
			continue
		}
		for k := 0; k < n; k++ {
			if len(parents) == 0 {
				return "", fmt.Errorf("revision %q: history of %s ends before %d generations: %w", rev, cur, n, ErrUnknownRevision)
			}
			if cur, parents, err = toCommit(parents[0]); err != nil {
				return "", err
			}
		}
	}
	return cur, nil
}
