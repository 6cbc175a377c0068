package launch

import (
	"path"
	"strings"
)

// argv analyses one program start: ws[0] is the program.
func (a *analyzer) argv(ws []word, cx context) {
	if cx.depth > maxDepth {
		if len(ws) > 0 {
			a.whole(ws[0].source, "programs nest too deeply to follow")
		}
		return
	}
	if len(ws) == 0 || !a.spend(ws[0].source) {
		return
	}
	ws, cx = a.unwrap(ws, cx)
	if len(ws) == 0 {
		return
	}
	cmd, args := ws[0], ws[1:]
	if !cmd.lit {
		a.whole(cmd.source, "the program it starts is computed at run time")
		return
	}
	name := progName(cmd.text)
	// Arguments that name repository files count whatever the program.
	for _, w := range args {
		a.fileWord(cx, w, "named on the command line")
	}
	// A repository program is bound and followed; its name still says how
	// it reads its arguments (.venv/bin/python -m x), so both count.
	found, followed := a.program(cmd, args, cx)
	if found && isPython(name) && strings.Count(cmd.text, "/") >= 2 {
		// A virtual environment's interpreter (.venv/bin/python) imports
		// the site-packages below it.
		if p, ok := a.resolve(cx, cmd.text); ok {
			if env := dirOf(dirOf(p)); env != "" {
				a.add(Item{Kind: KindCode, Lang: "python", Path: env, Source: cmd.source,
					Why: "the virtual environment's interpreter imports the packages installed below it"})
			}
		}
	}
	next := cx.with()
	next.depth++
	a.nestedCommands(name, args, next)
	if run := runnerOf(name); run != nil {
		run(a, name, args, next)
		return
	}
	if !followed {
		a.foreign(args, next)
	}
}

// runnerOf is how the model follows a program it knows by name, nil for
// one it does not (foreign follows that one's arguments).
func runnerOf(name string) func(a *analyzer, name string, args []word, cx context) {
	switch {
	case name == "node" || name == "nodejs":
		return (*analyzer).node
	case name == "tsx" || name == "ts-node" || name == "ts-node-esm" || name == "esno" || name == "vite-node":
		return (*analyzer).tsRunner
	case isPython(name):
		return (*analyzer).python
	case posixShells[name]:
		return (*analyzer).shell
	case name == "go":
		return func(a *analyzer, _ string, args []word, cx context) { a.goTool(args, cx) }
	case name == "cargo":
		return func(a *analyzer, _ string, args []word, cx context) { a.cargo(args, cx) }
	case name == "make" || name == "gmake":
		return (*analyzer).make
	case name == "npm" || name == "pnpm" || name == "yarn" || name == "bun":
		return (*analyzer).packageManager
	case name == "npx" || name == "pnpx" || name == "bunx":
		return (*analyzer).npx
	case name == "uv" || name == "uvx":
		return (*analyzer).uv
	case name == "deno":
		return func(a *analyzer, _ string, args []word, cx context) { a.deno(args, cx) }
	case name == "perl" || name == "ruby" || name == "php" || name == "lua" || name == "luajit" ||
		name == "rscript" || name == "tclsh" || name == "osascript":
		return (*analyzer).otherInterpreter
	case name == "java":
		return func(a *analyzer, _ string, args []word, cx context) { a.java(args, cx) }
	case name == "just" || name == "task" || name == "rake" || name == "mage":
		return (*analyzer).taskRunner
	case name == "poetry" || name == "pipenv" || name == "hatch" || name == "pdm" || name == "rye":
		return (*analyzer).projectEnv
	case name == "bundle":
		return func(a *analyzer, _ string, args []word, cx context) { a.bundle(args, cx) }
	case name == "mvn" || name == "gradle" || name == "sbt" || name == "dotnet" || name == "gradlew" || name == "mvnw":
		return (*analyzer).buildTool
	case name == "powershell" || name == "pwsh":
		return (*analyzer).powerShell
	case name == "docker" || name == "podman" || name == "docker-compose":
		return (*analyzer).container
	case name == "cmd":
		// cmd /c PROGRAM ...: the Windows launcher.
		return func(a *analyzer, _ string, args []word, cx context) {
			for i, w := range args {
				if t := strings.ToLower(w.text); t == "/c" || t == "/k" {
					a.argv(args[i+1:], cx)
					return
				}
			}
		}
	}
	return nil
}

// foreign follows what a program the model does not know (a local tool,
// or a package a runner fetches) may run from its arguments, beyond the
// files they name (bound by argv): a JavaScript or Python file named
// there is followed as the code it is (`nodemon server.js`); an argument
// that is a command line of a program the model knows is followed as
// that command (`supergateway --stdio "node server.js"`); and from a word
// naming such a program on, the rest is followed as its command line
// (`inspector node server.js`, `mcp-proxy -- python srv.py`). What it may
// run counts as what it runs: more, never less.
func (a *analyzer) foreign(args []word, cx context) {
	for i, w := range args {
		if !w.lit {
			continue
		}
		t := w.text
		if strings.ContainsAny(t, " \t\n") {
			if f := strings.Fields(t); len(f) > 1 && runnerOf(progName(f[0])) != nil {
				a.shellScript(t, "", w.source, cx, nil)
			}
			continue
		}
		if i+1 < len(args) && runnerOf(progName(t)) != nil && !strings.HasPrefix(t, "-") {
			a.argv(args[i:], cx)
			return
		}
		a.codeWord(w, cx)
	}
}

// codeWord follows a repository file a foreign program is given as the
// code its extension says it is: JavaScript and TypeScript as node's
// entry point, Python as a script (its directory's modules).
func (a *analyzer) codeWord(w word, cx context) {
	p, ok := a.resolve(cx, w.text)
	if !ok || p == "" || cx.unknown {
		return
	}
	if k := a.stat(p).Kind; k != File && k != Exec {
		return
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx":
		a.jsEntry(cx, p, w.source, "a program mcp-guard does not know is given it, and may run it")
	case ".py", ".pyw":
		a.pythonScript(w, "a program mcp-guard does not know", false, cx)
	}
}

// unwrap removes programs that only run the rest of their arguments (env,
// sudo, nohup, timeout, ...), applying what they change (variables, the
// working directory).
func (a *analyzer) unwrap(ws []word, cx context) ([]word, context) {
	for range 8 {
		if len(ws) == 0 || !ws[0].lit {
			return ws, cx
		}
		switch name := progName(ws[0].text); name {
		case "env":
			cx = cx.with()
			ws = a.unwrapEnv(ws[1:], &cx)
		case "timeout":
			ws = skipOptions(ws[1:], Wrappers[name]...)
			if len(ws) > 0 {
				ws = ws[1:] // the duration
			}
		case "command":
			for _, w := range ws[1:] {
				if w.text == "-v" || w.text == "-V" {
					return nil, cx // a lookup, nothing runs
				}
			}
			ws = skipOptions(ws[1:])
		case "busybox":
			ws = ws[1:]
		default:
			opts, ok := Wrappers[name]
			if !ok {
				return ws, cx
			}
			ws = skipOptions(ws[1:], opts...)
		}
	}
	return ws, cx
}

// unwrapEnv applies env's options and assignments to cx.
func (a *analyzer) unwrapEnv(ws []word, cx *context) []word {
	for len(ws) > 0 {
		w := ws[0]
		switch {
		case w.text == "--":
			return ws[1:]
		case w.text == "-u" || w.text == "--unset":
			if len(ws) < 2 {
				return nil
			}
			delete(cx.env, ws[1].text)
			ws = ws[2:]
		case w.text == "-C" || w.text == "--chdir" || strings.HasPrefix(w.text, "--chdir="):
			dir, rest := "", ws[1:]
			if v, ok := strings.CutPrefix(w.text, "--chdir="); ok {
				dir = v
			} else if len(rest) > 0 {
				dir, rest = rest[0].text, rest[1:]
				w.lit = w.lit && ws[1].lit
			}
			a.chdir(cx, dir, w.lit, "command")
			ws = rest
		case w.text == "-i" || w.text == "--ignore-environment" || w.text == "-":
			cx.env = map[string]string{}
			ws = ws[1:]
		case w.text == "-S" || w.text == "--split-string" || strings.HasPrefix(w.text, "--split-string="):
			s := strings.TrimPrefix(w.text, "--split-string=")
			rest := ws[1:]
			if s == w.text {
				if len(rest) == 0 {
					return nil
				}
				s, rest = rest[0].text, rest[1:]
			}
			var split []word
			for _, f := range strings.Fields(s) {
				split = append(split, word{text: f, lit: w.lit, source: w.source})
			}
			return append(split, rest...)
		case strings.HasPrefix(w.text, "-") && w.text != "-":
			ws = ws[1:]
		case strings.Contains(w.text, "=") && !strings.HasPrefix(w.text, "="):
			name, value, _ := strings.Cut(w.text, "=")
			cx.env[name] = value
			a.envVar(name, value, w.source, *cx)
			ws = ws[1:]
		default:
			return ws
		}
	}
	return ws
}

// chdir moves cx to dir (relative to its working directory). A computed
// directory makes it unknown and binds the whole repository; one outside
// the repository makes it unknown (what is relative to it is not the
// repository's).
func (a *analyzer) chdir(cx *context, dir string, lit bool, source string) {
	if cx.unknown {
		return
	}
	if !lit {
		// Anything relative from there may be anywhere in the repository.
		cx.unknown = true
		a.whole(source, "it changes to a directory known only at run time")
		return
	}
	p, ok := a.resolve(*cx, dir)
	if !ok {
		cx.unknown = true
		return
	}
	cx.cwd = p
}

// SkipOptions drops leading options (words starting with "-"), and the
// value of each option named in withValue, up to and including "--"; text
// gives a word's text. One rule for every walker of command lines.
func SkipOptions[W any](ws []W, text func(W) string, withValue ...string) []W {
	for len(ws) > 0 {
		t := text(ws[0])
		if t == "--" {
			return ws[1:]
		}
		if len(t) < 2 || t[0] != '-' {
			return ws
		}
		ws = ws[1:]
		for _, v := range withValue {
			if t == v && len(ws) > 0 {
				ws = ws[1:]
				break
			}
		}
	}
	return ws
}

func skipOptions(ws []word, withValue ...string) []word {
	return SkipOptions(ws, func(w word) string { return w.text }, withValue...)
}

// program binds the program file when the command is a repository path
// (it has a slash, or PATH has a relative directory holding it) and
// follows what that file runs. It reports whether the command was such a
// path (the program's name then says nothing about what runs), and whether
// what that file does with args was followed (script).
func (a *analyzer) program(cmd word, args []word, cx context) (found, followed bool) {
	if strings.Contains(cmd.text, "/") {
		// A backslash is an ordinary character of a Linux file name.
		p, ok := a.resolve(cx, cmd.text)
		if !ok {
			return false, false // an absolute program outside the repository
		}
		if a.unknownCwd(cx, cmd.source) {
			return true, true
		}
		a.runs(Item{Kind: KindFile, Path: p, Source: cmd.source, Why: "the command is a path inside the repository"})
		return true, a.script(p, cmd, args, cx)
	}
	pathVar, has := cx.env["PATH"]
	if !has {
		return false, false
	}
	for _, dir := range strings.Split(pathVar, ":") {
		if strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "/proc/") &&
			(a.opts.Root == "" || !strings.HasPrefix(dir+"/", a.opts.Root+"/")) {
			continue
		}
		if a.unknownCwd(cx, cmd.source) {
			return true, true
		}
		p, ok := a.resolve(cx, joinDir(dir, cmd.text))
		if !ok || p == "" {
			continue
		}
		a.add(Item{Kind: KindFile, Path: p, Source: "env.PATH", Why: "PATH lists a repository directory, searched for " + cmd.text})
		if !found && a.stat(p).Kind == Exec {
			found = true
			followed = a.script(p, cmd, args, cx)
		}
	}
	return found, followed
}

func joinDir(dir, name string) string {
	if dir == "" {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// nestedCommands follows the commands a program runs from its arguments
// (NestedCommands: find -exec, xargs, awk system(), ssh ProxyCommand, git
// -c core.pager, watch).
func (a *analyzer) nestedCommands(name string, args []word, cx context) {
	lw := make([]Word, len(args))
	for i, w := range args {
		lw[i] = Word{Text: w.text, Lit: w.lit, At: i}
	}
	source := func(at int) string {
		if at >= 0 && at < len(args) {
			return args[at].source
		}
		return "command"
	}
	for _, n := range NestedCommands(name, lw) {
		if n.Script != "" {
			a.shellScript(n.Script, "", source(n.At), cx, nil)
			continue
		}
		ws := make([]word, len(n.Words))
		for i, w := range n.Words {
			ws[i] = word{text: w.Text, lit: w.Lit, source: source(w.At)}
		}
		a.argv(ws, cx)
	}
}
