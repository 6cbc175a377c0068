package launch

import (
	"sort"
	"strings"
	"testing"
)

// itemString renders an item compactly: a kind letter (F file, T tree, C
// code, M modules, X text), "*" when the server runs it, and its label.
func itemString(it Item) string {
	k := map[ItemKind]string{KindFile: "F", KindTree: "T", KindCode: "C", KindModules: "M", KindText: "X"}[it.Kind]
	if it.Runs {
		k += "*"
	}
	return k + " " + it.Label()
}

func scopeStrings(sc *Scope) []string {
	var out []string
	for _, it := range sc.Items {
		out = append(out, itemString(it))
	}
	return out
}

type scopeCase struct {
	name    string
	fs      mapFS
	launch  string
	cmd     string
	args    []string
	env     map[string]string
	has     []string // items that must be there
	hasNot  []string // items that must not be there (also prefixes ending in "…")
	gap     bool     // a gap must (true) or must not (false) be reported
	inline  string   // inline code that must be found
	anyGaps bool     // do not check gaps
}

func runScopeCases(t *testing.T, cases []scopeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := Spawn{Command: c.cmd, Args: c.args}
			var names []string
			for k := range c.env {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				sp.Env = append(sp.Env, Var{Name: k, Value: c.env[k]})
			}
			var fsys FS
			if c.fs != nil {
				fsys = c.fs
			}
			sc, err := Analyze(sp, c.launch, fsys, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := scopeStrings(sc)
			set := map[string]bool{}
			for _, g := range got {
				set[g] = true
			}
			for _, h := range c.has {
				if !set[h] {
					t.Errorf("missing %q in\n  %s", h, strings.Join(got, "\n  "))
				}
			}
			for _, h := range c.hasNot {
				for _, g := range got {
					if g == h || (strings.HasSuffix(h, "…") && strings.HasPrefix(g, strings.TrimSuffix(h, "…"))) {
						t.Errorf("unexpected %q in\n  %s", g, strings.Join(got, "\n  "))
					}
				}
			}
			if !c.anyGaps && c.gap != (len(sc.Gaps) > 0) {
				t.Errorf("gaps %v, want gap=%v", sc.Gaps, c.gap)
			}
			if c.inline != "" {
				found := false
				for _, in := range sc.Inline {
					found = found || in.Code == c.inline
				}
				if !found {
					t.Errorf("inline code %q not found in %v", c.inline, sc.Inline)
				}
			}
			for i := 1; i < len(sc.Items); i++ {
				a, b := sc.Items[i-1], sc.Items[i]
				if a.Path > b.Path || (a.Path == b.Path && a.Kind > b.Kind) {
					t.Errorf("items not sorted: %v before %v", a, b)
				}
			}
		})
	}
}

// The attacks of issue 11: each changes what an approved server runs
// through a path the old model did not bind.
func TestScopeRunnersThatMoveOrLoad(t *testing.T) {
	runScopeCases(t, []scopeCase{
		{name: "uv --directory run script", cmd: "uv", args: []string{"--directory", "tools/weather", "run", "weather.py"},
			fs: mapFS{"tools/weather/weather.py": "import x", "tools/weather/pyproject.toml": "[project]"},
			has: []string{"F* tools/weather/weather.py", "M tools/weather/ (python modules)", "F tools/weather/pyproject.toml",
				"F tools/weather/uv.lock", "C* tools/weather/ (python code)"},
			hasNot: []string{"F* weather.py"}},
		{name: "uv run --directory after run", cmd: "uv", args: []string{"run", "--directory", "srv", "server.py"},
			fs:  mapFS{"srv/server.py": "x"},
			has: []string{"F* srv/server.py", "M srv/ (python modules)"}},
		{name: "npm --prefix start runs the package.json script", cmd: "npm", args: []string{"--prefix", "server", "start"},
			fs: mapFS{"server/package.json": `{"scripts":{"start":"node index.js"}}`, "server/index.js": "require('./lib')", "server/lib.js": "1"},
			has: []string{"X* server/package.json: scripts.start", "X* server/package.json: scripts.prestart",
				"F* server/index.js", "F* server/lib.js", "F server/.npmrc"},
			hasNot: []string{"F* index.js", "F server/package.json"}},
		{name: "npm run with --prefix after the script name", cmd: "npm", args: []string{"run", "start", "--prefix", "server"},
			fs:     mapFS{"server/package.json": `{"scripts":{"start":"node index.js"}}`, "server/index.js": "1"},
			has:    []string{"X* server/package.json: scripts.start", "F* server/index.js"},
			hasNot: []string{"X* package.json: scripts.start"}},
		{name: "npm run runs what the script names from node_modules/.bin", cmd: "npm", args: []string{"run", "serve"},
			fs:  mapFS{"package.json": `{"scripts":{"serve":"tsx src/main.ts"}}`, "src/main.ts": "export {}"},
			has: []string{"X* package.json: scripts.serve", "F node_modules/.bin/tsx", "F* src/main.ts"}},
		{name: "make -C", cmd: "make", args: []string{"-C", "tools", "serve"},
			fs:  mapFS{"tools/Makefile": "serve:\n\t./srv\n"},
			has: []string{"F* tools/Makefile", "T ./"}, gap: true},
		{name: "sh -c cd then run", cmd: "sh", args: []string{"-c", "cd tools && ./srv"},
			fs:     mapFS{"tools/srv": "\x7fELF"},
			has:    []string{"F* tools/srv"},
			hasNot: []string{"F* srv", "T ./"}},
		{name: "sh -c cd to a computed place", cmd: "sh", args: []string{"-c", `cd "$X" && ./srv`},
			fs: mapFS{}, has: []string{"T ./"}, gap: true},
		{name: "go run . binds the module's Go code", cmd: "go", args: []string{"run", "."},
			fs:  mapFS{"go.mod": "module x", "main.go": "package main"},
			has: []string{"C* ./ (go code)"}},
		{name: "go run ./cmd/x in a nested module", cmd: "go", args: []string{"run", "./cmd/x"}, launch: "svc",
			fs:  mapFS{"svc/go.mod": "module x", "svc/cmd/x/main.go": "package main"},
			has: []string{"C* svc/ (go code)"}, hasNot: []string{"C* ./ (go code)"}},
		{name: "go run with a local replace binds the repository", cmd: "go", args: []string{"run", "."}, launch: "svc",
			fs:  mapFS{"svc/go.mod": "module x\nreplace y => ../y\n", "svc/main.go": "package main"},
			has: []string{"C* ./ (go code)"}},
		// go 1.26 ran each of these: a tab, a quoted path, an absolute one.
		{name: "go run with a local replace after a tab, quoted", cmd: "go", args: []string{"run", "."}, launch: "svc",
			fs:  mapFS{"svc/go.mod": "module x\nreplace (\n\ty =>\t\"../y\"\n)\n", "svc/main.go": "package main"},
			has: []string{"C* ./ (go code)"}, hasNot: []string{"C* svc/ (go code)"}},
		{name: "go run with an absolute replace", cmd: "go", args: []string{"run", "."}, launch: "svc",
			fs:  mapFS{"svc/go.mod": "module x\nreplace y =>   /home/u/clone/y\n", "svc/main.go": "package main"},
			has: []string{"C* ./ (go code)"}, hasNot: []string{"C* svc/ (go code)"}},
		{name: "a replace with a module keeps the module's directory", cmd: "go", args: []string{"run", "."}, launch: "svc",
			fs:  mapFS{"svc/go.mod": "module x\nreplace y => example.com/z v1.0.0\n", "svc/main.go": "package main"},
			has: []string{"C* svc/ (go code)"}, hasNot: []string{"C* ./ (go code)"}},
		{name: "go run of a module at a version", cmd: "go", args: []string{"run", "example.com/x@v1.2.3"},
			fs: mapFS{"go.mod": "module x"}, hasNot: []string{"C…", "C*…"}},
		{name: "node . follows package.json main", cmd: "node", args: []string{"."},
			fs:  mapFS{"package.json": `{"main":"lib/index.js"}`, "lib/index.js": "require('./util')", "lib/util.js": "1"},
			has: []string{"F* lib/index.js", "F* lib/util.js", "F* package.json"}},
		{name: "node main.js with a transitive require", cmd: "node", args: []string{"main.js"},
			fs:  mapFS{"main.js": "require('./lib')", "lib/index.js": "require('../util/x')", "util/x.js": "1"},
			has: []string{"F* main.js", "F* lib/index.js", "F* util/x.js", "F lib.js"}},
		{name: "node main.js with a computed require binds all JavaScript", cmd: "node", args: []string{"main.js"},
			fs:  mapFS{"main.js": "require(process.env.X)"},
			has: []string{"F* main.js", "C ./ (javascript code)"}, gap: true},
		{name: "node of a missing script binds where node looks", cmd: "node", args: []string{"gone.js"},
			fs:  mapFS{"other.js": "1"},
			has: []string{"F* gone.js", "F gone.js.js"}, hasNot: []string{"C ./ (javascript code)"}},
		{name: "env NODE_OPTIONS --require", cmd: "env", args: []string{"NODE_OPTIONS=--require ./hook.js", "node", "server.js"},
			fs:  mapFS{"hook.js": "1", "server.js": "2"},
			has: []string{"F* hook.js", "F* server.js"}},
		{name: "NODE_OPTIONS in the entry's env, quoted", cmd: "node", args: []string{"server.js"},
			env: map[string]string{"NODE_OPTIONS": `--max-old-space-size=100 --import "./pre load.mjs"`},
			fs:  mapFS{"pre load.mjs": "1", "server.js": "2"},
			has: []string{"F* pre load.mjs", "F* server.js"}},
		{name: "npx runs a committed package through its real bin", cmd: "npx", args: []string{"-y", "@scope/server-filesystem"},
			fs: mapFS{"node_modules/@scope/server-filesystem/package.json": `{"name":"@scope/server-filesystem","bin":{"mcp-server-filesystem":"dist/index.js"}}`,
				"node_modules/@scope/server-filesystem/dist/index.js": "1"},
			has: []string{"T node_modules/@scope/server-filesystem/", "F node_modules/.bin/mcp-server-filesystem",
				"F* node_modules/@scope/server-filesystem/dist/index.js"}},
		{name: "npx in a nested launch dir looks up the tree", cmd: "npx", args: []string{"-y", "pkg@1.0.0"}, launch: "a/b",
			fs:  mapFS{},
			has: []string{"T a/b/node_modules/pkg/", "T a/node_modules/pkg/", "T node_modules/pkg/"}},
		{name: "npx of a file: spec runs the repository's package", cmd: "npx", args: []string{"-y", "file:tools/pkg"},
			fs: mapFS{"tools/pkg/index.js": "1"}, has: []string{"T* tools/pkg/"}},
		{name: "cmd /c npx is the Windows launcher", cmd: "cmd", args: []string{"/c", "npx", "-y", "@e2b/mcp-server"},
			fs: mapFS{}, has: []string{"T node_modules/@e2b/mcp-server/"}},
		{name: "python -m shadows the standard library", cmd: "python3", args: []string{"-m", "mcp_server_fetch"},
			fs:  mapFS{"argparse.py": "evil"},
			has: []string{"M* ./ (python modules)"}},
		{name: "python -Bm binds the module and the package", cmd: "python3", args: []string{"-Bm", "evil"},
			fs: mapFS{}, has: []string{"M* ./ (python modules)"}},
		{name: "python -I -m is isolated", cmd: "python3", args: []string{"-I", "-m", "srv"},
			fs: mapFS{}, hasNot: []string{"M* ./ (python modules)", "M ./ (python modules)"}},
		{name: "python -c imports from the launch directory", cmd: "python3", args: []string{"-c", "import server; server.main()"},
			fs: mapFS{}, has: []string{"M ./ (python modules)"}, inline: "import server; server.main()"},
		{name: "python script imports from its own directory", cmd: "python3", args: []string{"tools/srv.py"},
			fs:  mapFS{"tools/srv.py": "import helper", "tools/helper.py": "x"},
			has: []string{"F* tools/srv.py", "M tools/ (python modules)"}, hasNot: []string{"M ./ (python modules)"}},
		{name: "PYTHONPATH entries are search-path directories", cmd: "python3", args: []string{"-m", "x"},
			env: map[string]string{"PYTHONPATH": "lib:/opt/abs"}, fs: mapFS{},
			has: []string{"M lib/ (python modules)"}},
		{name: "ZDOTDIR: every zsh sources its .zshenv", cmd: "zsh", args: []string{"-c", "node x.js"},
			env: map[string]string{"ZDOTDIR": "cfg"}, fs: mapFS{"cfg/.zshenv": "node evil.js", "x.js": "1"},
			has: []string{"T cfg/", "F* x.js"}},
		{name: "a repository program's shebang", cmd: "./bin/srv",
			fs:  mapFS{"bin/srv": "#!/usr/bin/env node\nrequire('../lib/a')", "lib/a.js": "1"},
			has: []string{"F* bin/srv", "F* lib/a.js"}},
		{name: "a text program without a shebang runs in sh", cmd: "./run",
			fs:  mapFS{"run": "cd tools\nexec ./srv --x\n", "tools/srv": "\x7fELF"},
			has: []string{"F* run", "F* tools/srv"}},
		{name: "a sourced script is followed", cmd: "bash", args: []string{"start.sh"},
			fs:  mapFS{"start.sh": ". ./env.sh\nnode app.js", "env.sh": "export X=1", "app.js": "1"},
			has: []string{"F* start.sh", "F* env.sh", "F* app.js"}},
		{name: "a script that finds its own directory", cmd: "./bin/start.sh",
			fs: mapFS{"bin/start.sh": "#!/bin/sh\ncd \"$(dirname \"$0\")/..\" && node \"${0%/*}/../app.js\"\n. \"$(dirname -- \"${BASH_SOURCE[0]}\")/env.sh\"\n",
				"app.js": "1", "bin/env.sh": "x=1"},
			has: []string{"F* bin/start.sh", "F* app.js", "F* bin/env.sh"}, hasNot: []string{"T ./"}},
		{name: "bun run a file", cmd: "bun", args: []string{"run", "src/index.ts"},
			fs: mapFS{"src/index.ts": "import './a'", "src/a.ts": "1"}, has: []string{"F* src/index.ts", "F* src/a.ts"}},
		{name: "find -exec and xargs run what follows", cmd: "sh", args: []string{"-c", "find . -name '*.x' -exec ./tools/a.sh {} \\; ; xargs sh -c 'cd tools && ./srv'"},
			fs: mapFS{"tools/a.sh": "#!/bin/sh\n./b.sh\n", "tools/srv": "\x7fELF", "b.sh": "x"}, has: []string{"F* tools/a.sh", "F* tools/srv", "F* b.sh"}},
		{name: "git -c core.pager and ssh ProxyCommand run a script", cmd: "git", args: []string{"-c", "core.pager=sh ./tools/pager.sh", "log"},
			fs: mapFS{"tools/pager.sh": "x"}, has: []string{"F* tools/pager.sh"}},
		{name: "substitutions in nested statements and loop words", cmd: "sh", args: []string{"-c", "if true; then echo $(./tools/x.sh); fi; for f in $(./gen.sh); do :; done"},
			fs: mapFS{"tools/x.sh": "\x7fELF", "gen.sh": "\x7fELF"}, has: []string{"F* tools/x.sh", "F* gen.sh"}},
		{name: "a bare command with a relative PATH", cmd: "srv", env: map[string]string{"PATH": "bin:/usr/bin"},
			fs: mapFS{"bin/srv": "\x7fELF"}, has: []string{"F bin/srv"}},
		{name: "a .venv interpreter keeps python's rules", cmd: ".venv/bin/python", args: []string{"-m", "srv"},
			fs: mapFS{}, has: []string{"F* .venv/bin/python", "M* ./ (python modules)", "C .venv/ (python code)"}},
		{name: "a symlinked python script imports from its target's directory", cmd: "python3", args: []string{"srv.py"},
			fs:  mapFS{"srv.py": "\x00link:tools/real.py", "tools/real.py": "import helper", "tools/helper.py": "x"},
			has: []string{"F* srv.py", "M ./ (python modules)", "M tools/ (python modules)"}},
		{name: "docker mounts the repository", cmd: "docker", args: []string{"run", "-v", ".:/app", "img@sha256:0", "node", "/app/x.js"},
			fs: mapFS{}, has: []string{"T ./"}},
	})
}

// Everyday pulls must stay quiet: what a runner does not read is not
// bound, so editing it does not re-gate.
func TestScopePrecision(t *testing.T) {
	runScopeCases(t, []scopeCase{
		{name: "pinned npx does not read package.json or lock files", cmd: "npx", args: []string{"-y", "@scope/pkg@0.6.2"},
			fs:     mapFS{"package.json": `{"devDependencies":{"x":"1"}}`, "package-lock.json": "{}"},
			hasNot: []string{"F package.json", "F package-lock.json", "X…", "C…"}},
		{name: "uvx reads uv's settings, not the lock file", cmd: "uvx", args: []string{"mcp-server-fetch==1.2.0"},
			fs:     mapFS{"uv.lock": "x", "pyproject.toml": "[project]"},
			has:    []string{"F uv.toml"},
			hasNot: []string{"F uv.lock", "F pyproject.toml", "C…", "M…"}},
		{name: "an absolute script is not the repository's", cmd: "node", args: []string{"/opt/srv/index.js"},
			fs: mapFS{"index.js": "1"}, hasNot: []string{"F* index.js", "C…"}},
		{name: "a URL and a home path are not repository paths", cmd: "srv", args: []string{"https://example.com/x", "~/x", "/abs"},
			fs: mapFS{}, hasNot: []string{"F…", "F*…"}},
		{name: "a filesystem server's directory argument is data", cmd: "npx", args: []string{"-y", "@modelcontextprotocol/server-filesystem@1.0.0", "./docs"},
			fs: mapFS{"docs/a.md": "x"}, hasNot: []string{"T docs/", "C docs/…"}},
		{name: "a closed node graph binds only what it loads", cmd: "node", args: []string{"server.js"},
			fs:     mapFS{"server.js": "require('./lib')", "lib.js": "1", "README.md": "x", "test/a.test.js": "1"},
			has:    []string{"F* server.js", "F* lib.js"},
			hasNot: []string{"C ./ (javascript code)", "F README.md", "F test/a.test.js"}},
	})
}

func TestCodeFile(t *testing.T) {
	for _, c := range []struct {
		lang, rel string
		want      bool
	}{
		{"javascript", "src/a.js", true}, {"javascript", "a.mjs", true}, {"javascript", "x/package.json", true},
		{"javascript", "package-lock.json", false}, {"javascript", "README.md", false}, {"javascript", "data.json", false},
		{"python", "pkg/__init__.py", true}, {"python", "ext.cpython-312-x86_64-linux-gnu.so", true}, {"python", "uv.lock", false},
		{"python", "docs/index.md", false}, {"go", "main.go", true}, {"go", "main_test.go", false}, {"go", "go.sum", true},
		{"go", "vendor/modules.txt", true}, {"go", "README.md", false}, {"go", ".github/workflows/ci.yml", false},
		{"go", "third_party/libx.a", true}, {"go", "lib/x.o", true}, {"go", "lib/libx.so", true}, {"go", "asm/x.sx", true},
		{"rust", "src/main.rs", true}, {"rust", "Cargo.lock", true}, {"rust", ".cargo/config.toml", true},
		{"rust", "config.toml", false}, {"rust", "README.md", false},
		{"java", "com/x/Main.class", true}, {"java", "src/Util.java", true}, {"java", "lib/a.jar", false}, {"java", "README.md", false},
	} {
		if got := CodeFile(c.lang, c.rel); got != c.want {
			t.Errorf("CodeFile(%s, %s) = %v, want %v", c.lang, c.rel, got, c.want)
		}
	}
}

func TestImportable(t *testing.T) {
	for _, c := range []struct {
		name string
		dir  bool
		want bool
	}{
		{"argparse.py", false, true}, {"evil", true, true}, {"_x.pyc", false, true}, {"mod.abi3.so", false, true},
		{"README.md", false, false}, {"my-pkg", true, false}, {"2x.py", false, false}, {"docs", true, true},
		{"setup.cfg", false, false}, {"café.py", false, true},
	} {
		if got := Importable("python", c.name, c.dir); got != c.want {
			t.Errorf("Importable(%q, dir=%v) = %v, want %v", c.name, c.dir, got, c.want)
		}
	}
}

func TestNodeOptionWords(t *testing.T) {
	got := strings.Join(nodeOptionWords(`--require ./a.js  --import "./b c.mjs" "--x=\"q\""`), "|")
	if want := `--require|./a.js|--import|./b c.mjs|--x="q"`; got != want {
		t.Errorf("nodeOptionWords = %q, want %q", got, want)
	}
}

func TestRepoPathNeverEscapes(t *testing.T) {
	evil := []string{"..", "../..", "a/../../b", "./../x", "sub/../..", "/", "//x", "~", "-", "x/./../..", "../sub", "/proc/self/cwd/../../x"}
	for _, launch := range []string{"", "sub", "a/b"} {
		for _, v := range evil {
			p, ok := repoPath(launch, v)
			if ok && (p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/")) {
				t.Errorf("repoPath(%q, %q) = %q", launch, v, p)
			}
		}
	}
	if p, ok := repoPath("sub", "/proc/self/cwd/docs/x.sh"); !ok || p != "sub/docs/x.sh" {
		t.Errorf("/proc/self/cwd: %q %v", p, ok)
	}
}

// FuzzAnalyze: any command line and environment over a small repository
// terminates without panicking, keeps items sorted and inside the
// repository, and never leaves a repository program unbound.
func FuzzAnalyze(f *testing.F) {
	f.Add("node", "main.js\x00--x", "NODE_OPTIONS=--require ./h.js")
	f.Add("sh", "-c\x00cd tools && . ./env.sh && exec ./srv \"$@\"", "PATH=bin:")
	f.Add("./bin/srv", "", "")
	f.Add("npm", "--prefix\x00server\x00start", "")
	f.Add("python3", "-Bm\x00evil", "PYTHONPATH=lib")
	f.Add("uv", "--directory\x00tools\x00run\x00w.py", "")
	f.Add("env", "-C\x00tools\x00NODE_OPTIONS=-r ./x\x00node\x00.", "")
	f.Add("./bin/w", "x\x00./bin/w\x00node\x00main.js", "")
	f.Add("bash", "-c\x00f() { cd tools; f \"$@\"; }; while f x; do g() { f; }; g & done; trap g EXIT", "BASH_ENV=bin/w")
	f.Add("cargo", "+nightly\x00--config\x00../c.toml\x00-C\x00server\x00run\x00--config=x=1\x00--", "RUSTC_WRAPPER=./bin/srv\x00CARGO_HOME=server")
	fsys := mapFS{
		"main.js": "require('./lib'); require(x)", "lib/index.js": "import '../main.js'",
		"bin/srv": "#!/bin/sh\n./bin/srv\n. ./bin/srv\n", "bin/w": "#!/bin/sh\nshift\n. ./bin/w\ntrap 'exec \"$@\"' EXIT\nexec \"$@\"\n", "tools/srv": "#!/usr/bin/env python3 -u\nimport os",
		"server/package.json": `{"scripts":{"start":"npm start","prestart":"sh -c 'cd .. && node main.js'"}}`,
		"package.json":        `{"main":"main.js","scripts":{"start":"./bin/srv"}}`, "loop": "\x00link:loop2", "loop2": "\x00link:loop",
		"out":                "\x00outside",
		".cargo/config.toml": "include = [\"../../x.toml\", \"sub/i.toml\"]\n[build]\nrustc-wrapper = \"bin/srv\"\nrustflags = [\"-C\", \"linker=bin/srv\"]\n",
		".cargo/sub/i.toml":  "include = [\"../../.cargo/config.toml\"]\n[env]\nX = { value = \"../..\", relative = true }\n",
	}
	f.Fuzz(func(t *testing.T, cmd, args, env string) {
		sp := Spawn{Command: cmd}
		if args != "" {
			sp.Args = strings.Split(args, "\x00")
		}
		for _, kv := range strings.Split(env, "\x00") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				sp.Env = append(sp.Env, Var{Name: k, Value: v})
			}
		}
		for _, launch := range []string{"", "server"} {
			sc, err := Analyze(sp, launch, fsys, Options{})
			if err != nil {
				t.Fatalf("error from a map FS: %v", err)
			}
			for i, it := range sc.Items {
				if strings.HasPrefix(it.Path, "/") || it.Path == ".." || strings.HasPrefix(it.Path, "../") {
					t.Fatalf("item outside the repository: %+v", it)
				}
				if i > 0 && sc.Items[i-1].Path > it.Path {
					t.Fatalf("not sorted: %+v", sc.Items)
				}
			}
			c, _, _ := strings.Cut(cmd, "\x00")
			if p, ok := repoPath(launch, c); ok && p != "" && p != launch && strings.Contains(c, "/") && len(sc.Items) == 0 {
				t.Fatalf("the repository program %q is bound to nothing", cmd)
			}
		}
	})
}
