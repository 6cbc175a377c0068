package launch

import "strings"

// followJSFor binds the modules the JavaScript entry point at p loads, as
// ResolveJS follows them (with the TypeScript runners' extensions too: a
// superset of node's). It returns false when there is no FS or the graph
// is not closed: the caller then binds a scope that holds whatever the
// entry could load.
func (a *analyzer) followJSFor(cx context, p, source, why string, runner JSRunner) bool {
	if a.fs == nil || a.read["js:"+p] {
		return a.fs != nil
	}
	a.read["js:"+p] = true
	var tsDirs []string
	if !cx.unknown {
		tsDirs = []string{cx.cwd} // tsx and bun take the working directory's tsconfig.json
	}
	g, err := resolveJS(a.fs, p, runner, tsDirs)
	if err != nil {
		a.fail(err)
		return true
	}
	if len(g.Files) == 0 && a.stat(p).Kind == Missing {
		// Nothing node could load is there: node fails and runs nothing.
		// What appears at any of the places it looks re-gates.
		g.Open = nil
	}
	if len(g.Open) > 0 {
		a.b.gap(source, displayPath(p)+": "+strings.Join(g.Open, "; "))
		// What was read to get this far (tsconfig.json, package.json)
		// still decides what runs; the caller binds the code.
		for _, f := range g.Files {
			a.add(Item{Kind: KindFile, Path: f, Source: source, Why: why + " (or a module or configuration it reads)"})
		}
		for _, d := range g.Dirs {
			a.add(Item{Kind: KindTree, Path: d, Source: source, Why: "a package it loads"})
		}
		return false
	}
	for _, f := range g.Files {
		a.runs(Item{Kind: KindFile, Path: f, Source: source, Why: why + " (or a module it loads)"})
	}
	a.childRuns(g.Runs, source, cx)
	for _, d := range g.Dirs {
		a.runs(Item{Kind: KindTree, Path: d, Source: source, Why: "a package it loads"})
	}
	for _, pr := range g.Probes {
		a.add(Item{Kind: KindFile, Path: pr, Source: source, Why: "node looks for a module here first"})
	}
	return true
}

// childRuns follows the programs a module starts with literal arguments,
// from the server's working directory, as the shell or execvp would.
func (a *analyzer) childRuns(runs []JSRun, source string, cx context) {
	for _, r := range runs {
		next := cx.with()
		next.depth++
		src := source + " (" + r.Where + ")"
		switch {
		case r.Shell != "":
			a.shellScript(r.Shell, "", src, next, nil)
		case r.Fork != "":
			ws := []word{{text: "node", lit: true, source: src}, {text: r.Fork, lit: true, source: src}}
			for _, v := range r.Argv {
				ws = append(ws, word{text: v, lit: true, source: src})
			}
			a.argv(ws, next)
		default:
			var ws []word
			for _, v := range r.Argv {
				ws = append(ws, word{text: v, lit: true, source: src})
			}
			a.argv(ws, next)
		}
	}
}
