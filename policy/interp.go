package policy

import (
	"strings"
)

// inlineInterpreter reports interpreters that run inline code (MG203) and
// interpreters that run a file of the repository (MG105).
func (a *analyzer) inlineInterpreter(name string, args []word) {
	switch {
	case name == "node" || name == "nodejs":
		a.node(name, args)
	case name == "bun":
		a.bun(args)
	case name == "deno":
		a.deno(args)
	case isPython(name):
		a.python(name, args)
	case name == "perl":
		a.letterFlags(name, args, "eE", "IMmxdDCV0l")
	case name == "ruby":
		a.letterFlags(name, args, "e", "IrCEFKTWx0i")
	case name == "php":
		a.simpleInterpreter(name, args, []string{"-r"}, []string{"-c", "-d", "-f", "-z", "-t", "-B", "-R", "-F", "-E"})
	case name == "lua" || name == "luajit":
		a.simpleInterpreter(name, args, []string{"-e"}, []string{"-l"})
	case name == "rscript":
		a.simpleInterpreter(name, args, []string{"-e"}, nil)
	case name == "osascript":
		a.simpleInterpreter(name, args, []string{"-e"}, []string{"-l", "-s"})
	case name == "tsx" || name == "ts-node" || name == "ts-node-esm" || name == "esno" || name == "vite-node":
		a.simpleInterpreter(name, args, []string{"-e", "--eval", "-p", "--print"}, []string{"-r", "--require", "--import", "--tsconfig", "-P", "--project"})
	case name == "java":
		a.java(args)
	case name == "dotnet":
		a.dotnet(args)
	}
}

// scriptOperand reports the repository file an interpreter runs.
func (a *analyzer) scriptOperand(name string, w word) {
	if w.lit && localOperand(w.text) {
		a.add("MG105", w.at, "%s runs the repository file %s, whose content agentty's approval does not cover", name, quote(w.text))
	}
}

func (a *analyzer) inline(name, flag string, code word) {
	a.add("MG203", code.at, "%s %s runs inline code: %s", name, flag, quote(code.text))
}

// simpleInterpreter handles interpreters whose options are separate words:
// an inline flag takes the code as the next word (or after "=" for a long
// flag); valueFlags take a value (the next word, or after "="), and the
// preload flags among them load a file; the first operand is a script.
func (a *analyzer) simpleInterpreter(name string, args []word, inlineFlags, valueFlags []string) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		flag, value, hasValue := strings.Cut(t, "=")
		if !strings.HasPrefix(t, "--") {
			flag, value, hasValue = t, "", false
		}
		for _, f := range inlineFlags {
			if flag == f {
				code := word{text: value, lit: args[i].lit, at: args[i].at}
				if !hasValue && i+1 < len(args) {
					code = args[i+1]
				}
				a.inline(name, f, code)
				return
			}
		}
		if t == "--" {
			if i+1 < len(args) {
				a.scriptOperand(name, args[i+1])
			}
			return
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			a.scriptOperand(name, args[i])
			return
		}
		for _, f := range valueFlags {
			if flag != f {
				continue
			}
			v := word{text: value, lit: args[i].lit, at: args[i].at}
			if !hasValue && i+1 < len(args) {
				i++
				v = args[i]
			}
			switch f {
			case "-r", "--require", "--import", "--loader", "--experimental-loader":
				a.preload(name, f, v)
			}
			break
		}
	}
}

// preload reports a module loaded before the program from the repository.
func (a *analyzer) preload(name, flag string, w word) {
	if w.lit && (relativePath(w.text) || strings.HasPrefix(w.text, ".")) {
		a.add("MG105", w.at, "%s %s loads the repository file %s before the program", name, flag, quote(w.text))
	}
}

func (a *analyzer) node(name string, args []word) {
	a.simpleInterpreter(name, args, []string{"-e", "--eval", "-p", "--print", "-pe", "-ep"},
		[]string{"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
			"--title", "--input-type", "--inspect-port", "--env-file", "--stack-size", "--max-old-space-size"})
}

func (a *analyzer) bun(args []word) {
	if len(args) == 0 {
		return
	}
	switch t := args[0].text; {
	case t == "-e" || t == "--eval" || t == "-p" || t == "--print":
		if len(args) > 1 {
			a.inline("bun", t, args[1])
		}
	case t == "run":
		rest := skipOptions(args[1:], "--cwd", "--env-file", "--config", "-c")
		if len(rest) > 0 {
			a.add("MG105", rest[0].at, "bun run runs %s from the repository (a package.json script or file)", quote(rest[0].text))
		}
	case t == "x" || t == "install" || t == "add" || t == "i" || t == "test" || t == "build" || t == "upgrade" || t == "pm" || t == "create" || t == "init" || t == "link" || t == "remove":
		// `bun x` is a package runner (runner); the rest do not start a server.
	case !strings.HasPrefix(t, "-"):
		a.add("MG105", args[0].at, "bun runs %s from the repository (a file or package.json script)", quote(t))
	}
}

func (a *analyzer) deno(args []word) {
	rest := skipOptions(args, "--config", "-c", "-L", "--log-level")
	if len(rest) == 0 {
		return
	}
	sub := rest[0]
	switch sub.text {
	case "eval":
		if len(rest) > 1 {
			code := skipOptions(rest[1:], "--config", "-c", "--ext", "--location", "--seed", "--import-map")
			if len(code) > 0 {
				a.inline("deno", "eval", code[0])
			}
		}
	case "task":
		a.add("MG105", sub.at, "deno task runs a task defined by the repository's deno.json")
	case "run", "serve":
		op := skipOptions(rest[1:], "--config", "-c", "--import-map", "--lock", "--cert", "--location", "--seed", "--ext", "--env-file", "--port", "--host")
		if len(op) == 0 {
			return
		}
		a.denoSpecifier(op[0])
	}
}

// denoSpecifier checks what `deno run` runs: a URL (MG205), an npm: or jsr:
// package (MG204 unless exact) or a repository file (MG105).
func (a *analyzer) denoSpecifier(w word) {
	if !w.lit {
		return
	}
	t := w.text
	switch {
	case strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://"):
		a.add("MG205", w.at, "deno runs code straight from %s", quote(t))
	case strings.HasPrefix(t, "npm:") || strings.HasPrefix(t, "jsr:"):
		spec := t[4:]
		if name, ver, pinned := npmPinned(spec); !pinned {
			a.add("MG204", w.at, "deno runs %s%s", t[:4]+name, versionNote(ver))
		}
	default:
		a.scriptOperand("deno", w)
	}
}

func (a *analyzer) python(name string, args []word) {
	isolated := false
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" {
			if i+1 < len(args) {
				a.scriptOperand(name, args[i+1])
			}
			return
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			if t != "-" {
				a.scriptOperand(name, args[i])
			}
			return
		}
		if strings.HasPrefix(t, "--") {
			if t == "--check-hash-based-pycs" {
				i++
			}
			continue
		}
		// Short options may be combined: -Bc "code", -um mod, -Wignore.
		for j := 1; j < len(t); j++ {
			c := t[j]
			val := func() word {
				if j+1 < len(t) {
					return word{text: t[j+1:], lit: args[i].lit, at: args[i].at}
				}
				if i+1 < len(args) {
					i++
					return args[i]
				}
				return word{}
			}
			switch c {
			case 'I', 'P':
				isolated = true
			case 'c':
				a.inline(name, "-c", val())
				return
			case 'm':
				mod := val()
				if !isolated {
					a.add("MG105", mod.at, "%s -m %s: python puts the launch directory first on sys.path, so a repository file or package of that name runs instead (use -I or -P to prevent it)", name, quote(mod.text))
				}
				return
			case 'W', 'X':
				val()
				j = len(t)
			}
		}
	}
}

// letterFlags handles perl and ruby: combined one-letter switches where
// some letters run inline code and others consume the rest of the word.
func (a *analyzer) letterFlags(name string, args []word, inlineLetters, valueLetters string) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" {
			if i+1 < len(args) {
				a.scriptOperand(name, args[i+1])
			}
			return
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			if t != "-" {
				a.scriptOperand(name, args[i])
			}
			return
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if strings.IndexByte(inlineLetters, c) >= 0 {
				code := word{text: t[j+1:], lit: args[i].lit, at: args[i].at}
				if j+1 == len(t) && i+1 < len(args) {
					code = args[i+1]
				}
				a.inline(name, "-"+string(c), code)
				return
			}
			if strings.IndexByte(valueLetters, c) >= 0 {
				if j+1 == len(t) && c == 'I' && i+1 < len(args) {
					i++ // -I dir
				}
				break
			}
		}
	}
}

func (a *analyzer) java(args []word) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "-jar" && i+1 < len(args):
			a.scriptOperand("java -jar", args[i+1])
			return
		case strings.HasPrefix(t, "-javaagent:"):
			v, _, _ := strings.Cut(strings.TrimPrefix(t, "-javaagent:"), "=")
			a.scriptOperand("java -javaagent", word{text: v, lit: args[i].lit, at: args[i].at})
		case t == "-cp" || t == "-classpath" || t == "--class-path" || t == "-p" || t == "--module-path" || t == "--add-opens" || t == "--add-exports" || t == "--add-modules":
			i++
		case strings.HasPrefix(t, "-"):
		default:
			if strings.HasSuffix(strings.ToLower(t), ".java") {
				a.scriptOperand("java", args[i])
			}
			return
		}
	}
}

func (a *analyzer) dotnet(args []word) {
	if len(args) == 0 {
		return
	}
	t := args[0].text
	switch {
	case t == "run":
		if !absoluteFlag(args[1:], "--project", "-p") {
			a.add("MG105", args[0].at, "dotnet run builds and runs a project from the repository")
		}
	case strings.HasSuffix(strings.ToLower(t), ".dll"):
		a.scriptOperand("dotnet", args[0])
	}
}

// absoluteFlag reports whether one of the flags is given an absolute path
// (as "--flag value" or "--flag=value").
func absoluteFlag(args []word, flags ...string) bool {
	for i, w := range args {
		for _, f := range flags {
			if w.text == f && i+1 < len(args) && absolutePath(args[i+1].text) {
				return true
			}
			if v, ok := strings.CutPrefix(w.text, f+"="); ok && absolutePath(v) {
				return true
			}
		}
	}
	return false
}

// projectRunner reports build and task tools that run code the repository
// defines (package.json scripts, Makefiles, Cargo and Go packages, uv and
// poetry projects): none of it is part of agentty's fingerprint (MG105).
func (a *analyzer) projectRunner(name string, args []word) {
	sub, subAt := "", 0
	if len(args) > 0 {
		sub, subAt = args[0].text, args[0].at
	}
	report := func(what string) { a.add("MG105", subAt, "%s", what) }
	switch name {
	case "go":
		if sub == "run" {
			rest := skipOptions(args[1:], "-C", "-exec", "-tags", "-ldflags", "-gcflags", "-mod", "-modfile", "-p", "-o", "-overlay", "-pkgdir", "-toolexec")
			if len(rest) > 0 && !strings.Contains(rest[0].text, "@") && !absolutePath(rest[0].text) {
				report("go run builds and runs the repository's package " + quote(rest[0].text))
			} else if len(rest) > 0 && strings.Contains(rest[0].text, "@") {
				a.goRunRemote(rest[0])
			}
		}
	case "cargo":
		if sub == "run" && !absoluteFlag(args[1:], "--manifest-path") {
			report("cargo run builds and runs the repository's Cargo package")
		}
	case "make", "gmake", "just", "task", "rake", "mage":
		if !absoluteFlag(args, "-f", "--file", "-C", "--directory", "--justfile", "--taskfile", "-t", "--rakefile") {
			report(name + " runs a target the repository defines")
		}
	case "npm":
		switch sub {
		case "start", "run", "run-script", "test", "restart", "stop":
			report("npm " + sub + " runs a script of the repository's package.json")
		}
	case "yarn":
		if sub != "dlx" && sub != "add" && sub != "install" && sub != "" && !strings.HasPrefix(sub, "-") {
			report("yarn " + sub + " runs a script or binary of the repository's package.json")
		}
	case "pnpm":
		switch sub {
		case "start", "run", "run-script", "test", "exec":
			report("pnpm " + sub + " runs a script or binary of the repository's package.json")
		}
	case "uv":
		if sub == "run" && !absoluteFlag(args[1:], "--project", "--directory") && !hasFlag(args[1:], "--no-project", "--isolated") {
			report("uv run runs in the launch directory's uv project: its pyproject.toml, lock file and code come from the repository")
		}
	case "poetry", "pipenv", "hatch", "pdm", "rye":
		if sub == "run" {
			report(name + " run runs in the repository's project environment")
		}
	case "bundle":
		if sub == "exec" {
			report("bundle exec runs with the gems of the repository's Gemfile")
		}
	case "mvn", "gradle", "sbt":
		report(name + " builds the repository's project and runs its plugins")
	}
}

// hasFlag reports whether any of the flags is present.
func hasFlag(args []word, flags ...string) bool {
	for _, w := range args {
		for _, f := range flags {
			if w.text == f {
				return true
			}
		}
	}
	return false
}
