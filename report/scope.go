package report

import (
	"sort"

	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/trust"
)

// ScopeItem is one part of what a server runs from the repository, as
// `status` shows it.
type ScopeItem struct {
	// Item names it: a path, "tools/" for a directory, "tools/ (python
	// modules)", "package.json: scripts.start" (launch.Item.Label).
	Item string `json:"item"`
	// Kind is file, tree, code, modules or text.
	Kind string `json:"kind"`
	// Runs is true when the server runs or loads it as code; false for
	// what is bound to be safe.
	Runs bool `json:"runs"`
	// Source is the part of the entry that put it there; Why says how.
	Source string `json:"source"`
	Why    string `json:"why"`
}

// ServerScope is what one server runs from the repository: the items the
// repository holds (absent ones are bound too, but not listed) and what
// the launch model could not follow.
type ServerScope struct {
	Items      []ScopeItem
	Unresolved []string
}

// NewServerScope lists the items of sc that files holds (a server's
// resolved scope at one side).
func NewServerScope(sc *launch.Scope, files []trust.FileID) ServerScope {
	var out ServerScope
	if sc == nil {
		return out
	}
	present := map[string]bool{}
	for _, f := range files {
		present[f.Path] = true
	}
	for _, it := range sc.Items {
		if present[it.Label()] {
			out.Items = append(out.Items, ScopeItem{Item: it.Label(), Kind: it.Kind.String(), Runs: it.Runs, Source: it.Source, Why: it.Why})
		}
	}
	sort.SliceStable(out.Items, func(i, j int) bool { return out.Items[i].Runs && !out.Items[j].Runs })
	for _, g := range sc.Gaps {
		out.Unresolved = append(out.Unresolved, g.Source+": "+g.Why)
	}
	return out
}

// scopeLines renders a server's scope for people: what it runs, each
// directory a change anywhere under re-gates it, and what could not be
// followed. At most max items are named.
func scopeLines(sc ServerScope, max int) []string {
	var out []string
	shown := 0
	for _, it := range sc.Items {
		if !it.Runs && it.Kind == "file" {
			continue // bound to be safe: named on the command line
		}
		if shown == max {
			out = append(out, "…")
			break
		}
		shown++
		out = append(out, Sanitize(it.Item)+": "+Sanitize(it.Why))
	}
	for _, u := range sc.Unresolved {
		out = append(out, "cannot follow "+Sanitize(u))
	}
	return out
}

// whyText is a file change's reason, dimmed, after two spaces ("" none).
func whyText(why string, st Style) string {
	if why == "" {
		return ""
	}
	return "  " + st.Dim("("+Sanitize(why)+")")
}
