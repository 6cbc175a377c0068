// Package nearname finds the name a mistyped one most likely meant: a
// command, an option, a value, a server.
package nearname

import (
	"slices"
	"strings"
)

// Of is the candidate name is most likely a typo of: the one that
// starts with name, or else the nearest by edit distance when that is at
// most 2 (and less than half of name); "" when none is close. name itself
// is never suggested (a root-only option given to a command).
func Of(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	candidates = slices.DeleteFunc(slices.Clone(candidates), func(c string) bool { return c == name })
	var prefixed []string
	for _, c := range candidates {
		if strings.HasPrefix(c, name) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestD && 2*d < len(name) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Damerau–Levenshtein distance (optimal string
// alignment) between a and b: insertions, deletions, substitutions and
// swaps of adjacent bytes.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
