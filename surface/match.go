package surface

import (
	"fmt"
	"slices"
	"strings"
)

// compiled is one pattern, split into segments and matched against a
// path's last components without allocating.
type compiled struct {
	kind     Kind
	anyDepth bool      // a leading `**/`
	below    bool      // a trailing `/**`: any path below what segs match
	segs     []segment // in path order
}

// index finds the first of its patterns a path matches. Of runs per
// path of every tree walk, so the patterns are bucketed by what their last
// segment allows: a literal name by its length and first byte (ASCII
// lower case), a `*suffix` by nothing; most paths then compare with
// nothing at all.
type index struct {
	pats    []compiled
	literal map[uint16][]int
	star    []int
}

func bucket(name string) uint16 {
	if len(name) == 0 || len(name) > 255 {
		return 0
	}
	return uint16(len(name))<<8 | uint16(lower(name[0]))
}

func (x *index) add(c compiled) {
	if x.literal == nil {
		x.literal = map[uint16][]int{}
	}
	i := len(x.pats)
	x.pats = append(x.pats, c)
	if last := c.segs[len(c.segs)-1]; last.star || c.below {
		x.star = append(x.star, i)
	} else {
		b := bucket(last.lit)
		x.literal[b] = append(x.literal[b], i)
	}
}

// find is the index of the first pattern (in the order added) that
// matches path, -1 when none does.
func (x *index) find(path string) int {
	best := -1
	base := path[strings.LastIndexByte(path, '/')+1:]
	if b := bucket(base); b != 0 {
		for _, i := range x.literal[b] {
			if x.pats[i].match(path) {
				best = i
				break
			}
		}
	}
	for _, i := range x.star {
		if best >= 0 && i > best {
			break
		}
		if x.pats[i].match(path) {
			return i
		}
	}
	return best
}

// segment is a literal name, `*` (any one name), `*<suffix>`, or `**`
// (any number of names, none included) between two others.
type segment struct {
	lit   string
	star  bool // lit is then the suffix
	stars bool // `**`
}

// compile accepts the subset of git's `:(glob)` syntax the taxonomy needs;
// anything else is refused rather than matched differently from git.
func compile(p string) (compiled, error) {
	c := compiled{}
	if strings.HasPrefix(p, "**/") {
		c.anyDepth, p = true, p[3:]
	}
	if q, ok := strings.CutSuffix(p, "/**"); ok {
		c.below, p = true, q
	}
	if p == "" || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		return c, fmt.Errorf("pattern %q: not a relative path", p)
	}
	parts := strings.Split(p, "/")
	for i, s := range parts {
		switch {
		case s == "" || s == "." || s == "..":
			return c, fmt.Errorf("pattern %q: empty, . or .. component", p)
		case s == "**":
			// git's `/**/`: zero or more directories. Only between two
			// other segments, and once (a second would make the match
			// cost grow with the path's depth squared).
			if i == 0 || i == len(parts)-1 || slices.ContainsFunc(c.segs, func(g segment) bool { return g.stars }) {
				return c, fmt.Errorf("pattern %q: `**` only once, between two other components", p)
			}
			c.segs = append(c.segs, segment{stars: true})
		case strings.ContainsAny(s, "?[\\"):
			return c, fmt.Errorf("pattern %q: only `*` and `*suffix` wildcards are supported", p)
		case strings.HasPrefix(s, "*"):
			if strings.ContainsRune(s[1:], '*') {
				return c, fmt.Errorf("pattern %q: only `*` and `*suffix` wildcards are supported", p)
			}
			c.segs = append(c.segs, segment{lit: s[1:], star: true})
		case strings.ContainsRune(s, '*'):
			return c, fmt.Errorf("pattern %q: only `*` and `*suffix` wildcards are supported", p)
		default:
			c.segs = append(c.segs, segment{lit: s})
		}
	}
	return c, nil
}

// match reports whether path (slash-separated, repository-relative)
// matches, ignoring ASCII case: with a trailing `/**`, whether a directory
// above it does.
func (c *compiled) match(path string) bool {
	if !c.below {
		return c.matchAt(len(c.segs)-1, path, len(path))
	}
	for end := strings.LastIndexByte(path, '/'); end > 0; end = strings.LastIndexByte(path[:end], '/') {
		if c.matchAt(len(c.segs)-1, path, end) {
			return true
		}
	}
	return false
}

// matchAt reports whether segs[:i+1] match path[:end] (end < 0: nothing
// is left of the path).
func (c *compiled) matchAt(i int, path string, end int) bool {
	for ; i >= 0; i-- {
		if c.segs[i].stars {
			// Zero names, then one more at a time: the segments before
			// it must match what is left.
			for {
				if c.matchAt(i-1, path, end) {
					return true
				}
				if end < 0 {
					return false
				}
				end = strings.LastIndexByte(path[:end], '/')
			}
		}
		if end < 0 {
			return false
		}
		start := strings.LastIndexByte(path[:end], '/') + 1
		if !c.segs[i].match(path[start:end]) {
			return false
		}
		end = start - 1
	}
	return c.anyDepth || end < 0
}

func (s segment) match(name string) bool {
	if !s.star {
		return EqualFold(name, s.lit)
	}
	return len(name) >= len(s.lit) && EqualFold(name[len(name)-len(s.lit):], s.lit)
}

// EqualFold compares ASCII case-insensitively (git's icase; not Unicode
// folding, which no file system the agents run on applies to these names).
func EqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
