package launch

import (
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// python follows `python [options] (-c CODE | -m MODULE | SCRIPT | -) [args]`
// as the interpreter documents it: sys.path[0] is the script's directory
// (for -c, -m and stdin the working directory) unless -P or -I, and
// PYTHONPATH is ignored with -E or -I.
func (a *analyzer) python(name string, args []word, cx context) {
	// -E and -I make python ignore PYTHONPATH; its items stay bound (a
	// superset), as another python the server starts may read it.
	isolated := false
	first := func(source, why string, runs bool) {
		// The working directory is first on sys.path: every module there
		// shadows the standard library and site-packages.
		if !isolated {
			a.add(Item{Kind: KindModules, Lang: "python", Path: cx.cwd, Source: source, Why: why, Runs: runs})
		}
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" || (!strings.HasPrefix(t, "-") || t == "-") {
			if t == "--" {
				i++
				if i >= len(args) {
					return
				}
			}
			if args[i].text == "-" {
				first(args[i].source, "python reads the program from stdin and imports from the working directory first", false)
				return
			}
			a.pythonScript(args[i], name, isolated, cx)
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
			val := func() (word, bool) {
				if j+1 < len(t) {
					return word{text: t[j+1:], lit: args[i].lit, source: args[i].source}, true
				}
				if i+1 < len(args) {
					i++
					return args[i], true
				}
				return word{}, false
			}
			switch t[j] {
			case 'I':
				isolated = true
			case 'P':
				isolated = true
			case 'c':
				code, ok := val()
				if ok {
					a.b.s.Inline = append(a.b.s.Inline, Inline{Program: name, Flag: "-c", Code: code.text, Source: code.source})
				}
				first(args[i].source, name+" -c imports from the working directory first", false)
				return
			case 'm':
				mod, ok := val()
				if !ok {
					return
				}
				first(mod.source, name+" -m "+mod.text+": python puts the launch directory first on sys.path, so a repository module or package of that name (or of any module it imports) runs instead; -I or -P prevents it", true)
				if !mod.lit {
					a.whole(mod.source, name+" -m runs a module named at run time")
				}
				return
			case 'W', 'X':
				val()
				j = len(t)
			}
		}
	}
}

// pythonScript binds a script python runs and the directory it imports
// from first (the script's own).
func (a *analyzer) pythonScript(w word, name string, isolated bool, cx context) {
	p, ok := a.scriptPath(w, name, cx)
	if !ok {
		return
	}
	a.runs(Item{Kind: KindFile, Path: p, Source: w.source, Why: name + " runs it"})
	dir := dirOf(p)
	if a.stat(p).Kind == Dir {
		// A directory (or zip) with __main__.py is its own sys.path[0].
		dir = p
	}
	if !isolated {
		a.add(Item{Kind: KindModules, Lang: "python", Path: dir, Source: w.source,
			Why: name + " imports from the script's directory first: any module there can run"})
		// sys.path[0] is the directory of the script's real path.
		if info := a.stat(p); (info.Kind == File || info.Kind == Exec) && dirOf(info.Path) != dir {
			a.add(Item{Kind: KindModules, Lang: "python", Path: dirOf(info.Path), Source: w.source,
				Why: name + " imports from the directory the script's symlink leads to"})
		}
	}
}

// uvSources follows what uv run installs besides the project: path
// sources ([tool.uv.sources] x = { path = "../lib" }), workspace members,
// and an in-tree build backend (backend-path), each Python code that runs.
func (a *analyzer) uvSources(pdir, source string) {
	p := joinDir(pdir, "pyproject.toml")
	data, ok, tooLarge := a.readFile(p)
	if !ok {
		if tooLarge {
			a.whole(source, p+" is too large to read")
		}
		return
	}
	var cfg struct {
		BuildSystem struct {
			BackendPath []string `toml:"backend-path"`
		} `toml:"build-system"`
		Tool struct {
			UV struct {
				Sources   map[string]any `toml:"sources"`
				Workspace struct {
					Members []string `toml:"members"`
				} `toml:"workspace"`
			} `toml:"uv"`
		} `toml:"tool"`
	}
	if err := decodeTree(toml.Unmarshal, data, &cfg); err != nil {
		a.b.gap(source, "unsure: "+treeProblem(p, "TOML", err))
		a.add(Item{Kind: KindCode, Lang: "python", Path: "", Source: source,
			Why: treeProblem(p, "TOML", err) + ": uv may install any Python code of the repository"})
		return
	}
	dirs := append([]string{}, cfg.BuildSystem.BackendPath...)
	eachString(cfg.Tool.UV.Sources, "", func(key, v string) {
		if key == "path" {
			dirs = append(dirs, v)
		}
	})
	for _, m := range cfg.Tool.UV.Workspace.Members {
		if i := strings.IndexAny(m, "*?["); i >= 0 {
			m = m[:i]
		}
		dirs = append(dirs, m)
	}
	for _, d := range dirs {
		if q, ok := repoPath(pdir, dirWord(d)); ok {
			a.runs(Item{Kind: KindCode, Lang: "python", Path: q, Source: source, Why: p + ": uv installs and runs the Python code there"})
			a.add(Item{Kind: KindFile, Path: joinDir(q, "pyproject.toml"), Source: source, Why: p + ": uv builds the package it describes"})
		}
	}
}

// projectVenv binds the virtual environment a project runner (uv run,
// poetry, pdm, pipenv and hatch run) uses when one sits in the project: a
// .venv in the working directory or above. The runner starts its
// interpreter (uv runs it first to ask what it is) and puts its bin/
// first on PATH, so a committed .venv/bin/python or console script runs in
// place of the installed one: bin/ is bound whole, and what the
// interpreter imports below it (site-packages, .pth, pyvenv.cfg) as
// Python code. Its absence is bound too, so one a pull adds re-gates.
func (a *analyzer) projectVenv(runner, source string, cx context) {
	for d := cx.cwd; ; d = dirOf(d) {
		venv := joinDir(d, ".venv")
		bin := Item{Kind: KindTree, Path: joinDir(venv, "bin"), Source: source,
			Why: runner + " runs the project environment's interpreter and puts its bin/ first on PATH"}
		if a.stat(venv).Kind == Missing {
			a.add(bin) // its absence: one a pull adds re-gates
		} else {
			a.runs(bin)
			a.runs(Item{Kind: KindCode, Lang: "python", Path: venv, Source: source,
				Why: runner + " runs the project environment's interpreter, which imports the packages installed below it"})
		}
		if d == "" {
			return
		}
	}
}

// uvPythonVersion follows the .python-version (or .python-versions) files
// uv reads from the working directory up: a line naming a path is the
// interpreter uv runs (`/proc/self/cwd/tools/python` lands in the
// repository), bound and followed as a program; a version is not the
// repository's.
func (a *analyzer) uvPythonVersion(source string, cx context) {
	for d := cx.cwd; ; d = dirOf(d) {
		for _, f := range []string{".python-version", ".python-versions"} {
			p := joinDir(d, f)
			a.add(Item{Kind: KindFile, Path: p, Source: source, Why: "uv picks the interpreter it runs from it"})
			data, ok := a.readConfig(p, source, cx, reachAny)
			if !ok {
				continue
			}
			for _, line := range strings.Split(string(data), "\n") {
				line = strings.TrimSpace(line)
				if line == "" || line[0] == '#' || !strings.ContainsAny(line, `/\`) {
					continue
				}
				if q, ok := a.resolve(cx, line); ok && q != "" {
					a.runs(Item{Kind: KindFile, Path: q, Source: source, Why: p + ": uv runs this interpreter"})
					a.argv([]word{{text: fromDir(cx.cwd, q), lit: true, source: source}}, cx)
				}
			}
		}
		if d == "" {
			return
		}
	}
}
