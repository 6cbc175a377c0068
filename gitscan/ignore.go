package gitscan

import (
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// ignorePattern is one line of a gitignore file (gitignore(5)), for the
// in-process engine's work tree walk: `!` negates, a trailing `/` matches
// directories only, a slash at the start or in the middle anchors the
// pattern to the directory of its file (matched against the path below
// it with wildmatch's pathname rules), and any other pattern matches a
// name at any depth below that directory. It replaces go-git's gitignore
// package (see gitConfig for why).
type ignorePattern struct {
	glob     string
	domain   string // the directory of the ignore file, "" or "a/b/"
	negate   bool
	dirOnly  bool
	anchored bool
}

// parseIgnoreLine parses one line; ok is false for blanks and comments.
func parseIgnoreLine(line, domain string) (ignorePattern, bool) {
	line = strings.TrimSuffix(line, "\r")
	// Trailing spaces are dropped unless escaped with a backslash.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-1]
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return ignorePattern{}, false
	}
	p := ignorePattern{domain: domain}
	if strings.HasPrefix(line, "!") {
		p.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return ignorePattern{}, false
	}
	if strings.Contains(line, "/") {
		p.anchored, line = true, strings.TrimPrefix(line, "/")
	}
	p.glob = line
	return p, true
}

// match reports whether the pattern matches a repository path (below its
// domain).
func (p *ignorePattern) match(path string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if !strings.HasPrefix(path, p.domain) {
		return false
	}
	rel := path[len(p.domain):]
	if p.anchored {
		return wildmatch(p.glob, rel, false)
	}
	base := rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		base = rel[i+1:]
	}
	return wildmatch(p.glob, base, false)
}

// ignoredBy reports whether the patterns (in the order git reads them:
// lowest precedence first) exclude path; the last matching pattern
// decides.
func ignoredBy(ps []ignorePattern, path string, isDir bool) bool {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].match(path, isDir) {
			return !ps[i].negate
		}
	}
	return false
}

// readIgnoreFile reads the patterns of one ignore file (a missing or odd
// file has none); domain is the directory it applies to ("" or "a/b/").
func readIgnoreFile(path, domain string) []ignorePattern {
	b, err := gitobj.ReadSmallFile(path, 8<<20)
	if err != nil {
		return nil
	}
	var ps []ignorePattern
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := parseIgnoreLine(line, domain); ok {
			ps = append(ps, p)
		}
	}
	return ps
}
