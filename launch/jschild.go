package launch

// A JSRun is a program a module starts through child_process with
// literal arguments: the graph binds what it runs instead of opening.
type JSRun struct {
	// Where names the file and line.
	Where string
	// Shell is a command line exec/execSync hands to /bin/sh.
	Shell string
	// Argv is what spawn/execFile (and their Sync forms) start.
	Argv []string
	// Fork is the module fork() runs in a new node process.
	Fork string
}

// childMethods are child_process's functions that start a program, and
// how each reads its arguments.
var childMethods = map[string]string{
	"exec": "shell", "execSync": "shell",
	"spawn": "argv", "spawnSync": "argv", "execFile": "argv", "execFileSync": "argv",
	"fork": "fork",
}

// childProcessRuns reads how a file uses child_process: every binding of
// the module (const cp = require(...), const { spawn } = require(...),
// import cp / * as cp / { spawn } from ...) must be used only to call
// one of its functions with a literal program and literal arguments, and
// without options that change the directory, the environment or the
// shell. It returns the runs, or ok false (the graph then stays open)
// when any use cannot be read that way.
func childProcessRuns(src []byte) (runs []jsRun, ok bool) {
	l := &jsLexer{src: src, line: 1}
	var toks []token
	for {
		t := l.next()
		if t.kind == tEOF {
			break
		}
		toks = append(toks, t)
		if len(toks) > 1<<20 {
			return nil, false
		}
	}
	at := func(i int) token {
		if i >= 0 && i < len(toks) {
			return toks[i]
		}
		return token{}
	}
	isSpec := func(t token) bool {
		return t.kind == tString && (t.val == "child_process" || t.val == "node:child_process")
	}
	modNames := map[string]bool{}  // bound to the module object
	fnNames := map[string]string{} // bound to one of its functions: local → method
	handled := map[int]bool{}      // token indexes already accounted for
	for i, t := range toks {
		if !isSpec(t) {
			continue
		}
		switch {
		case at(i-2).val == "require" && at(i-1).val == "(" && at(i+1).val == ")":
			req := i - 2
			handled[req] = true
			if at(req-1).val == "=" && at(req-2).kind == tIdent && isDecl(at(req-3)) {
				modNames[at(req-2).val] = true
				continue
			}
			if at(req-1).val == "=" && at(req-2).val == "}" {
				if !destructure(toks, req-2, fnNames) {
					return nil, false
				}
				continue
			}
			if at(i+2).val == "." && childMethods[at(i+3).val] != "" && at(i+4).val == "(" {
				run, ok := childCall(toks, i+3, at(i+3).val)
				if !ok {
					return nil, false
				}
				runs = append(runs, run)
				continue
			}
			return nil, false
		case at(i-1).val == "from":
			j := i - 2
			switch {
			case at(j).kind == tIdent && (at(j-1).val == "import" || at(j-1).val == "as" && at(j-2).val == "*"):
				modNames[at(j).val] = true
			case at(j).val == "}":
				if !destructure(toks, j, fnNames) {
					return nil, false
				}
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	for i, t := range toks {
		if t.kind != tIdent || t.prop || handled[i] {
			continue
		}
		prev := at(i - 1)
		if prev.val == "import" || prev.val == "as" || prev.val == "{" || prev.val == "," || prev.val == ":" || isDecl(prev) {
			if _, fn := fnNames[t.val]; fn || modNames[t.val] {
				if inBinding(toks, i) {
					continue
				}
			}
		}
		switch {
		case modNames[t.val]:
			m := at(i + 2).val
			if at(i+1).val != "." || childMethods[m] == "" || at(i+3).val != "(" {
				return nil, false
			}
			run, ok := childCall(toks, i+2, m)
			if !ok {
				return nil, false
			}
			runs = append(runs, run)
		case fnNames[t.val] != "":
			if at(i+1).val != "(" {
				return nil, false
			}
			run, ok := childCall(toks, i, fnNames[t.val])
			if !ok {
				return nil, false
			}
			runs = append(runs, run)
		}
	}
	return runs, true
}

func isDecl(t token) bool {
	return t.kind == tIdent && (t.val == "const" || t.val == "let" || t.val == "var")
}

// inBinding reports whether the identifier at i sits in the binding list
// of an import or a destructuring declaration (its name is being bound).
func inBinding(toks []token, i int) bool {
	for j := i; j >= 0 && j > i-64; j-- {
		switch toks[j].val {
		case "{":
			return j > 0 && (isDecl(toks[j-1]) || toks[j-1].val == "import" || toks[j-1].val == ",")
		case "}", ";", "(", ")":
			return false
		case "import":
			return true
		}
		if isDecl(toks[j]) {
			return true
		}
	}
	return false
}

// destructure reads { a, b: c } (or, for imports, { a, b as c }) ending
// at toks[end] == "}" into names; false for anything else (a rest
// element, a default value, nesting).
func destructure(toks []token, end int, names map[string]string) bool {
	start := end - 1
	for start >= 0 && toks[start].val != "{" {
		start--
	}
	if start < 0 {
		return false
	}
	parts := toks[start+1 : end]
	for len(parts) > 0 {
		if parts[0].kind != tIdent {
			return false
		}
		method, local := parts[0].val, parts[0].val
		n := 1
		if len(parts) >= 3 && (parts[1].val == ":" || parts[1].val == "as") && parts[2].kind == tIdent {
			local, n = parts[2].val, 3
		}
		if childMethods[method] != "" {
			names[local] = method
		}
		parts = parts[n:]
		if len(parts) > 0 {
			if parts[0].val != "," {
				return false
			}
			parts = parts[1:]
		}
	}
	return true
}

// childCall reads a call of child_process's method whose name is at
// toks[i] and whose '(' follows: a literal program (and a literal array
// of literal arguments), options without cwd, env or shell.
func childCall(toks []token, i int, method string) (jsRun, bool) {
	run := jsRun{Line: toks[i].line}
	j := i + 2
	if j >= len(toks) || toks[j].kind != tString {
		return run, false
	}
	first := toks[j].val
	j++
	var args []string
	if j+1 < len(toks) && toks[j].val == "," && toks[j+1].val == "[" && childMethods[method] != "shell" {
		j += 2
		for j < len(toks) && toks[j].val != "]" {
			if toks[j].kind != tString {
				return run, false
			}
			args = append(args, toks[j].val)
			j++
			if j < len(toks) && toks[j].val == "," {
				j++
			}
		}
		j++
	}
	// Options, a callback, or nothing: what follows up to the call's ')'
	// must not name the directory, environment or shell it runs with.
	depth := 1
	for ; j < len(toks) && depth > 0; j++ {
		switch toks[j].val {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case "cwd", "env", "shell", "execPath", "execArgv", "argv0":
			return run, false
		case "...":
			return run, false
		}
	}
	switch childMethods[method] {
	case "shell":
		run.Shell = first
	case "argv":
		run.Argv = append([]string{first}, args...)
	case "fork":
		run.Fork = first
		run.Argv = args
	}
	return run, true
}

// jsRun is a JSRun before the resolver places it.
type jsRun struct {
	Line  int
	Shell string
	Argv  []string
	Fork  string
}
