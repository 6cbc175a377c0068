// Package lazyre holds regular expressions compiled on first use instead
// of at program start. Go runs every linked package's initialisers on
// every start of mcp-guard, the git hook's included, so an expression
// compiled at package level is paid by commands that never match it
// (BENCHMARKS.md, "Process start"; cmd/mcp-guard's TestHookStartInitialisesLittle).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time Get is called.
// Declare it as a package-level value (no initialiser runs for it):
//
//	var word = lazyre.Regexp{Expr: `\bword\b`}
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression; it panics on first use if Expr
// does not compile, as regexp.MustCompile would at start.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Expr) })
	return r.re
}
