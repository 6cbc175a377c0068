package launch

import (
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
	if a.program(cmd, args, cx) && isPython(name) && strings.Count(cmd.text, "/") >= 2 {
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
	switch {
	case name == "node" || name == "nodejs":
		a.node(name, args, next)
	case name == "tsx" || name == "ts-node" || name == "ts-node-esm" || name == "esno" || name == "vite-node":
		a.tsRunner(name, args, next)
	case isPython(name):
		a.python(name, args, next)
	case posixShells[name]:
		a.shell(name, args, next)
	case name == "go":
		a.goTool(args, next)
	case name == "cargo":
		a.cargo(args, next)
	case name == "make" || name == "gmake":
		a.make(name, args, next)
	case name == "npm" || name == "pnpm" || name == "yarn" || name == "bun":
		a.packageManager(name, args, next)
	case name == "npx" || name == "pnpx" || name == "bunx":
		a.npx(name, args, next)
	case name == "uv" || name == "uvx":
		a.uv(name, args, next)
	case name == "deno":
		a.deno(args, next)
	case name == "perl" || name == "ruby" || name == "php" || name == "lua" || name == "luajit" ||
		name == "rscript" || name == "tclsh" || name == "osascript":
		a.otherInterpreter(name, args, next)
	case name == "java":
		a.java(args, next)
	case name == "just" || name == "task" || name == "rake" || name == "mage":
		a.taskRunner(name, args, next)
	case name == "poetry" || name == "pipenv" || name == "hatch" || name == "pdm" || name == "rye":
		a.projectEnv(name, args, next)
	case name == "bundle":
		a.bundle(args, next)
	case name == "mvn" || name == "gradle" || name == "sbt" || name == "dotnet" || name == "gradlew" || name == "mvnw":
		a.buildTool(name, args, next)
	case name == "powershell" || name == "pwsh":
		a.powerShell(name, args, next)
	case name == "docker" || name == "podman" || name == "docker-compose":
		a.container(name, args, next)
	case name == "cmd":
		// cmd /c PROGRAM ...: the Windows launcher.
		for i, w := range args {
			if t := strings.ToLower(w.text); t == "/c" || t == "/k" {
				a.argv(args[i+1:], next)
				return
			}
		}
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
// path (the program's name then says nothing about what runs).
func (a *analyzer) program(cmd word, args []word, cx context) bool {
	if strings.Contains(cmd.text, "/") {
		// A backslash is an ordinary character of a Linux file name.
		p, ok := a.resolve(cx, cmd.text)
		if !ok {
			return false // an absolute program outside the repository
		}
		if a.unknownCwd(cx, cmd.source) {
			return true
		}
		a.runs(Item{Kind: KindFile, Path: p, Source: cmd.source, Why: "the command is a path inside the repository"})
		a.script(p, cmd, args, cx)
		return true
	}
	pathVar, has := cx.env["PATH"]
	if !has {
		return false
	}
	var found bool
	for _, dir := range strings.Split(pathVar, ":") {
		if strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "/proc/") &&
			(a.opts.Root == "" || !strings.HasPrefix(dir+"/", a.opts.Root+"/")) {
			continue
		}
		if a.unknownCwd(cx, cmd.source) {
			return true
		}
		p, ok := a.resolve(cx, joinDir(dir, cmd.text))
		if !ok || p == "" {
			continue
		}
		a.add(Item{Kind: KindFile, Path: p, Source: "env.PATH", Why: "PATH lists a repository directory, searched for " + cmd.text})
		if !found && a.stat(p).Kind == Exec {
			found = true
			a.script(p, cmd, args, cx)
		}
	}
	return found
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
