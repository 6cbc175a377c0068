package policy

import (
	_ "embed"
	"strings"
	"sync"
)

// The well-known MCP server packages (MG211) and the edit distance that
// makes another name a lookalike of one. The list and where it comes from
// are in wellknown-mcp-packages.txt.

//go:embed wellknown-mcp-packages.txt
var wellKnownText string

var wellKnown = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, line := range strings.Split(wellKnownText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		reg, name, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		out[reg] = append(out[reg], normalName(reg, name))
	}
	return out
})

// normalName is how a registry compares names: npm's are lower case, PyPI
// folds case and treats runs of -, _ and . alike (PEP 503).
func normalName(registry, name string) string {
	name = strings.ToLower(name)
	if registry != "pypi" {
		return name
	}
	var b strings.Builder
	sep := false
	for _, r := range name {
		if r == '-' || r == '_' || r == '.' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteRune(r)
	}
	return b.String()
}

// lookalikeOf returns the well-known package of registry ("npm", "pypi")
// that name imitates: not equal to any listed name, and within one edit
// (two for names of 16 characters or more) of one. "" when none.
func lookalikeOf(registry, name string) string {
	n := normalName(registry, name)
	if len(n) < 5 {
		return ""
	}
	known := wellKnown()[registry]
	for _, k := range known {
		if k == n {
			return ""
		}
	}
	for _, k := range known {
		limit := 1
		if len(k) >= 16 {
			limit = 2
		}
		if abs(len(k)-len(n)) <= limit && editDistance(n, k, limit) <= limit {
			return k
		}
	}
	return ""
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the optimal-string-alignment distance of a and b (an
// adjacent transposition counts as one edit), or limit+1 once it exceeds
// limit.
func editDistance(a, b string, limit int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// lookalike reports a package a runner fetches whose name imitates a
// well-known MCP server's (MG211).
func (a *analyzer) lookalike(runner, registry, name string, at int) {
	if k := lookalikeOf(registry, name); k != "" {
		a.add("MG211", at, "%s runs %s, one or two letters away from the well-known MCP server package %s: a lookalike name runs whatever its publisher uploaded, while a reader sees the package they know", runner, quote(name), quote(k))
	}
}
