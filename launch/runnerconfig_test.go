package launch

import (
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// What a runner reads besides the code (issue 27): each configuration
// file a runner's documentation says it reads to decide what runs is
// bound, and what it names is followed.
func TestScopeRunnerConfiguration(t *testing.T) {
	runScopeCases(t, []scopeCase{
		{name: "pinned npx binds .npmrc here and above", cmd: "npx", args: []string{"-y", "pkg@1.2.3"}, launch: "a/b",
			fs:     mapFS{"a/b/x": "1"},
			has:    []string{"F .npmrc", "F a/.npmrc", "F a/b/.npmrc"},
			hasNot: []string{"X package.json…", "C javascript…", "F .yarnrc.yml", "F pnpm-workspace.yaml"}, anyGaps: true},
		{name: "npx follows .npmrc node-options", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:      mapFS{".npmrc": "registry=https://r.example\nnode-options=--require ./x.js\n", "x.js": "require('./y')", "y.js": "1"},
			has:     []string{"F .npmrc", "F* x.js", "F* y.js"},
			anyGaps: true},
		{name: "a byte order mark does not hide .npmrc's first setting (npm skips it)", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:  mapFS{".npmrc": "\ufeffnode-options=--require ./x.js\n", "x.js": "1"},
			has: []string{"F* x.js"}, anyGaps: true},
		{name: "a byte order mark does not hide package.json's main (node skips it)", cmd: "node", args: []string{"nd"},
			fs:  mapFS{"nd/package.json": "\ufeff{\"main\":\"srv.js\"}", "nd/srv.js": "require('./lib')", "nd/lib.js": "1", "nd/index.js": "1"},
			has: []string{"F* nd/srv.js", "F* nd/lib.js"}, hasNot: []string{"F* nd/index.js"}},
		{name: "a byte order mark before an env file's first variable", cmd: "bun", args: []string{"s.ts"},
			fs:  mapFS{".env": "\ufeffNODE_OPTIONS=-r ./e.js\n", "e.js": "1", "s.ts": "1"},
			has: []string{"F* e.js"}, anyGaps: true},
		{name: "npm expands ${PWD} in node-options to the launch directory", cmd: "npx", args: []string{"-y", "pkg@1.2.3"}, launch: "srv",
			fs:  mapFS{".npmrc": "node-options=--require ${PWD}/x.js\n", "srv/x.js": "1"},
			has: []string{"F* srv/x.js"}, hasNot: []string{"T ./"}, anyGaps: true},
		{name: "another variable in node-options is known only at run time", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:  mapFS{".npmrc": "node-options=--require ${HOME}/x.js\n"},
			has: []string{"T ./"}, gap: true},
		{name: "a key spelled through a variable may be node-options", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:  mapFS{".npmrc": "node${E}-options=--require ./x.js\n"},
			has: []string{"T ./"}, gap: true},
		{name: "a registry token through a variable is not code", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:     mapFS{".npmrc": "//${HOST}/:_authToken=${NPM_TOKEN}\n@acme:registry=https://${HOST}/\n"},
			hasNot: []string{"T ./"}, anyGaps: true},
		{name: "pnpm 10 reads nodeOptions and scriptShell from pnpm-workspace.yaml", cmd: "pnpm", args: []string{"start"},
			fs: mapFS{"pnpm-workspace.yaml": "packages:\n  - pkgs/*\nnodeOptions: \"--require ./x.js\"\nscriptShell: ./sh.sh\n",
				"x.js": "require('./y')", "y.js": "1", "sh.sh": "#!/bin/sh\n", "package.json": `{"scripts":{"start":"node s.js"}}`, "s.js": "1"},
			has: []string{"F pnpm-workspace.yaml", "F* x.js", "F* y.js", "F* sh.sh", "F* s.js"}, hasNot: []string{"T ./"}, anyGaps: true},
		{name: "an unreadable pnpm-workspace.yaml binds the repository (its scriptShell may be any program)", cmd: "pnpm", args: []string{"start"},
			fs:  mapFS{"pnpm-workspace.yaml": "nodeOptions: [\n", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"T ./"}, gap: true},
		{name: "npm follows a userconfig pointer and its node-options", cmd: "npm", args: []string{"start"},
			fs: mapFS{".npmrc": "userconfig = ./conf/npmrc\n", "conf/npmrc": "node-options=\"--import ./hook.mjs\"\n",
				"hook.mjs": "export {}", "package.json": `{"scripts":{"start":"node s.js"}}`, "s.js": "1"},
			has: []string{"F conf/npmrc", "F* hook.mjs", "F* s.js"}},
		{name: "npm_config_node_options in the entry's env", cmd: "npx", args: []string{"-y", "pkg@1"},
			env: map[string]string{"npm_config_node_options": "-r ./pre.js"},
			fs:  mapFS{"pre.js": "1"}, has: []string{"F* pre.js"}, anyGaps: true},
		{name: "script-shell names a repository program", cmd: "npm", args: []string{"run", "x"},
			fs:  mapFS{".npmrc": "script-shell=./sh.sh\n", "sh.sh": "#!/bin/sh\n./tools/run\n", "package.json": `{"scripts":{"x":"true"}}`},
			has: []string{"F* sh.sh", "F* tools/run"}, anyGaps: true},
		{name: "yarnPath runs the committed release", cmd: "yarn", args: []string{"start"},
			fs: mapFS{".yarnrc.yml": "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n", ".yarn/releases/yarn-4.1.0.cjs": "module.exports=1",
				"package.json": `{"scripts":{"start":"node s.js"},"packageManager":"yarn@4.1.0"}`, "s.js": "1"},
			has: []string{"F* .yarn/releases/yarn-4.1.0.cjs", "F .yarnrc.yml", "X package.json: packageManager", "F* s.js"}},
		{name: "a yarn release's child_process does not open the graph", cmd: "yarn", args: []string{"start"},
			fs: mapFS{".yarnrc.yml": "yarnPath: y.cjs\n", "y.cjs": "require('child_process'); require('./y2')", "y2.cjs": "1",
				"package.json": `{"scripts":{"start":"node s.js"}}`, "s.js": "1"},
			has: []string{"F* y.cjs", "F* y2.cjs", "F* s.js"}, hasNot: []string{"C ./ (javascript code)"}},
		{name: "yarnPath in a parent directory's .yarnrc.yml", cmd: "yarn", args: []string{"start"}, launch: "srv",
			fs: mapFS{".yarnrc.yml": "yarnPath: tools/yarn.cjs\nplugins:\n  - path: .yarn/plugins/p.cjs\n", "tools/yarn.cjs": "1",
				".yarn/plugins/p.cjs": "1", "srv/package.json": `{"scripts":{"start":"node s.js"}}`, "srv/s.js": "1"},
			has: []string{"F* tools/yarn.cjs", "F* .yarn/plugins/p.cjs", "F srv/.yarnrc.yml"}},
		{name: "yarn 1 yarn-path", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc": "yarn-path \"./bin/yarn.js\"\n", "bin/yarn.js": "1", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"F* bin/yarn.js", "F .yarnrc"}},
		{name: "yarn 1 runs .yarnrc's script-shell, relative to the script's directory (yarn 1.22.22)", cmd: "yarn", args: []string{"start"}, launch: "sub",
			fs: mapFS{".yarnrc": "# yarn config\nscript-shell \"./sh.sh\"\n", "sub/sh.sh": "#!/bin/sh\n. ./env.sh\n", "sub/env.sh": "x", "sh.sh": "x",
				"sub/package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"F* sub/sh.sh", "F* sub/env.sh"}, hasNot: []string{"T ./"}, anyGaps: true},
		{name: "yarn's injected env file puts NODE_OPTIONS in scripts", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".env.yarn": "NODE_OPTIONS=--require ./t.js\n", "t.js": "1", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"F .env.yarn", "F* t.js"}},
		{name: "the PnP runtime is loaded into node", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".pnp.cjs": "require('./pnp-extra')", "pnp-extra.js": "1", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"F* .pnp.cjs", "F* pnp-extra.js"}},
		{name: "a yarnPath through an environment variable is unsure", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc.yml": "yarnPath: ${NOPE:-.yarn/releases/r.cjs}\n", ".yarn/releases/r.cjs": "1", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"C ./ (javascript code)"}, gap: true},
		{name: "a plugin through an environment variable is unsure", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc.yml": "plugins:\n  - path: ${PWD}/p.cjs\n", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"C ./ (javascript code)"}, gap: true},
		{name: "an unreadable .yarnrc.yml binds the repository (its env files may set PATH)", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc.yml": "yarnPath: [\n", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"T ./"}, gap: true},
		{name: "an env file named through an environment variable binds the repository", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc.yml": "injectEnvironmentFiles:\n  - ${ENVF}\n", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"T ./"}, gap: true},
		{name: "bunfig preload", cmd: "bun", args: []string{"server.ts"},
			fs: mapFS{"bunfig.toml": "preload = [\"./instrument.ts\"]\n[test]\npreload = \"./t.ts\"\n", "instrument.ts": "import './more'",
				"more.ts": "1", "t.ts": "1", "server.ts": "1"},
			has: []string{"F bunfig.toml", "F* instrument.ts", "F* more.ts", "F* t.ts", "F* server.ts", "F .env"}},
		{name: "bun loads .env: NODE_OPTIONS there reaches node children", cmd: "bun", args: []string{"run", "start"},
			fs:  mapFS{".env.local": "export NODE_OPTIONS='-r ./e.js'\n", "e.js": "1", "package.json": `{"scripts":{"start":"node s.js"}}`, "s.js": "1"},
			has: []string{"F* e.js"}},
		{name: "pnpm binds workspace settings and corepack's field", cmd: "pnpm", args: []string{"start"},
			fs:  mapFS{"package.json": `{"scripts":{"start":"true"},"packageManager":"pnpm@9.0.0"}`},
			has: []string{"F pnpm-workspace.yaml", "F .pnpmfile.cjs", "X package.json: packageManager"}},
		{name: "tsx binds tsconfig and its extends chain", cmd: "tsx", args: []string{"server.ts"},
			fs: mapFS{"tsconfig.json": "{\n // c\n \"extends\": \"./cfg/base\",\n}", "cfg/base.json": `{"extends":"@tsconfig/node20/tsconfig.json","compilerOptions":{"paths":{"@x/*":["src/*"]}}}`,
				"server.ts": "import x from '@x/y'", "cfg/src/y.ts": "1"},
			has: []string{"F* tsconfig.json", "F* cfg/base.json", "F node_modules/@tsconfig/node20/tsconfig.json", "F* cfg/src/y.ts"}},
		{name: "tsx with --tsconfig is unsure", cmd: "tsx", args: []string{"--tsconfig", "alt.json", "server.ts"},
			fs:  mapFS{"alt.json": "{}", "server.ts": "1"},
			has: []string{"F alt.json", "C ./ (javascript code)"}, gap: true},
		{name: "deno's importMap file", cmd: "deno", args: []string{"run", "main.ts"},
			fs:  mapFS{"deno.jsonc": "{ // c\n \"importMap\": \"./maps/import_map.json\", }", "maps/import_map.json": "{}", "main.ts": "1"},
			has: []string{"F deno.jsonc", "F* maps/import_map.json", "F* main.ts"}},
		{name: "node --env-file NODE_OPTIONS", cmd: "node", args: []string{"--env-file=.env", "s.js"},
			fs:  mapFS{".env": "NODE_OPTIONS=\"--require ./tel.js\"\n", "tel.js": "1", "s.js": "1"},
			has: []string{"F .env", "F* tel.js", "F* s.js"}},
	})
}

func TestParseEnvFile(t *testing.T) {
	got := ParseEnvFile([]byte("# c\nexport A=1\nB = 'x y'\nC=\"l1\nl2\"\n  D=v # note\nnot a line\nE\n"))
	want := []Var{{"A", "1"}, {"B", "x y"}, {"C", "l1\nl2"}, {"D", "v # note"}, {"D", "v"}}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// What a compiled program or an installed project takes from files that
// are not its language's code.
func TestScopeLanguageIncludes(t *testing.T) {
	runScopeCases(t, []scopeCase{
		{name: "cargo include! and include_str! bind the data files", cmd: "cargo", args: []string{"run"},
			fs: mapFS{"Cargo.toml": "[package]", "src/main.rs": "include!(\"tables.in\");\nconst S: &str = include_str!(\"../assets/q.sql\");\n",
				"src/tables.in": "fn x(){}", "assets/q.sql": "select", "docs/README.md": "x"},
			has:    []string{"F* src/tables.in", "F* assets/q.sql", "C* ./ (rust code)"},
			hasNot: []string{"T ./", "F* docs/README.md"}},
		{name: "cargo #[path] and a migrations macro", cmd: "cargo", args: []string{"run"},
			fs: mapFS{"Cargo.toml": "[package]", "src/main.rs": "#[path = \"gen/table.txt\"]\nmod t;\nfn m(){ sqlx::migrate!(\"./migrations\"); println!(\"hello\"); }\n#[derive(RustEmbed)]\n#[folder = \"public/\"]\nstruct A;",
				"src/gen/table.txt": "fn x(){}", "migrations/1.sql": "x", "hello": "x"},
			has:    []string{"F* src/gen/table.txt", "T* migrations/", "T* public/"},
			hasNot: []string{"F* hello"}},
		{name: "cargo include! of a computed path binds the crate", cmd: "cargo", args: []string{"run"},
			fs:  mapFS{"Cargo.toml": "[package]", "src/main.rs": "include!(concat!(\"x\", \"y\"));\ninclude!(concat!(env!(\"OUT_DIR\"), \"/gen.rs\"));"},
			has: []string{"T ./"}, gap: true},
		{name: "cargo config programs: runner, rustc-wrapper, linker, relative to the directory holding .cargo", cmd: "cargo", args: []string{"run"},
			launch: "srv",
			fs: mapFS{"Cargo.toml": "[package]", "srv/src/main.rs": "fn main(){}",
				".cargo/config.toml": "[build]\nrustc-wrapper = \"tools/wrap.sh\"\n[target.'cfg(all())']\nrunner = \"tools/run.sh --quiet\"\n" +
					"[target.x86_64-unknown-linux-gnu]\nlinker = \"tools/ld\"\n[env]\nNODE_OPTIONS = \"-r ./x.js\"\n" +
					"LD_PRELOAD = { value = \"lib/p.so\", relative = true }\n",
				"tools/wrap.sh": "#!/bin/sh\n. ./tools/common.sh\n", "tools/common.sh": "true", "tools/run.sh": "#!/bin/sh\ntrue\n",
				"tools/ld": "x", "lib/p.so": "x", "srv/x.js": "1"},
			has: []string{"F .cargo/config.toml", "F srv/.cargo/config.toml", "F* tools/wrap.sh", "F* srv/tools/common.sh", "F* tools/run.sh",
				"F* tools/ld", "F lib/p.so", "F* srv/x.js", "C* ./ (rust code)"},
			hasNot: []string{"T ./"}},
		{name: "cargo rustflags bind the files they name", cmd: "cargo", args: []string{"run"},
			fs:  mapFS{"Cargo.toml": "[package]", ".cargo/config.toml": "[build]\nrustflags = [\"-C\", \"linker=tools/ld\", \"-L\", \"native\"]\n[target.x86_64-unknown-linux-gnu]\nrustflags = \"-C link-arg=tools/evil.o\"\n", "tools/ld": "x", "tools/evil.o": "x"},
			has: []string{"F* tools/ld", "F native", "F tools/evil.o"}},
		{name: "cargo config include is read the same way", cmd: "cargo", args: []string{"run"},
			fs: mapFS{"Cargo.toml": "[package]", ".cargo/config.toml": "include = [\"more.toml\"]\n",
				".cargo/more.toml": "[build]\nrustc = \"bin/rustc\"\n", "bin/rustc": "x"},
			has: []string{"F .cargo/more.toml", "F* bin/rustc"}},
		{name: "an unreadable cargo config binds the repository", cmd: "cargo", args: []string{"run"},
			fs:  mapFS{"Cargo.toml": "[package]", ".cargo/config.toml": "[build\nrunner = \"x\""},
			has: []string{"T ./"}, gap: true},
		{name: "rust-toolchain.toml path runs the repository's toolchain", cmd: "cargo", args: []string{"run"}, launch: "srv",
			fs:  mapFS{"Cargo.toml": "[package]", "rust-toolchain.toml": "[toolchain]\npath = \"/proc/self/cwd/../tc\"\n", "tc/bin/cargo": "x"},
			has: []string{"T* tc/", "C* ./ (rust code)"}, hasNot: []string{"T ./"}},
		{name: "a channel-only rust-toolchain binds nothing more", cmd: "cargo", args: []string{"run"},
			fs:     mapFS{"Cargo.toml": "[package]", "rust-toolchain": "nightly-2026-01-01\n"},
			hasNot: []string{"T ./", "T* …"}},
		{name: "go:embed binds what the binary embeds", cmd: "go", args: []string{"run", "."},
			fs: mapFS{"go.mod": "module x", "main.go": "package main\n//go:embed scripts/*.js \"a b.txt\"\nvar f embed.FS\n",
				"scripts/x.js": "1", "a b.txt": "1", "x_test.go": "//go:embed testdata\n"},
			has:    []string{"T* scripts/", "F* a b.txt", "C* ./ (go code)"},
			hasNot: []string{"T* testdata/"}},
		{name: "uv run follows path sources, workspace members and an in-tree backend", cmd: "uv", args: []string{"run", "srv"},
			fs:     mapFS{"pyproject.toml": "[build-system]\nbackend-path = [\"_build\"]\n[tool.uv.sources]\nlib = { path = \"../outside\" }\nhelper = { path = \"libs/helper\" }\n[tool.uv.workspace]\nmembers = [\"packages/*\"]\n"},
			has:    []string{"C* _build/ (python code)", "C* libs/helper/ (python code)", "C* packages/ (python code)"},
			hasNot: []string{"C* ../outside/…"}},
		{name: "uv run binds the project's .venv: its bin/ runs", cmd: "uv", args: []string{"run", "srv"}, launch: "pkg",
			fs: mapFS{"pyproject.toml": "[project]", ".venv/pyvenv.cfg": "home = /usr/bin", ".venv/bin/python": "#!/bin/sh\n",
				".venv/bin/srv": "#!/bin/sh\n", "pkg/x.py": "1"},
			has: []string{"T* .venv/bin/", "C* .venv/ (python code)", "T pkg/.venv/bin/"}, hasNot: []string{"C* pkg/.venv/ (python code)"}, anyGaps: true},
		{name: "uv run follows an interpreter path in .python-version", cmd: "uv", args: []string{"run", "server.py"}, launch: "srv",
			fs: mapFS{"srv/server.py": "1", ".python-version": "# pinned\n/proc/self/cwd/../tools/py\n", "tools/py": "#!/bin/sh\n. ./tools/env.sh\n",
				"srv/.python-version": "3.12\n"},
			has:    []string{"F .python-version", "F srv/.python-version", "F* tools/py", "F* srv/tools/env.sh"},
			hasNot: []string{"F* 3.12", "T ./"}, anyGaps: true},
		{name: "poetry run binds the project's .venv too", cmd: "poetry", args: []string{"run", "srv"},
			fs:  mapFS{"pyproject.toml": "[tool.poetry]", ".venv/bin/srv": "#!/bin/sh\n"},
			has: []string{"T* .venv/bin/", "C* .venv/ (python code)"}, anyGaps: true},
		{name: "a venv interpreter binds pyvenv.cfg", cmd: ".venv/bin/python", args: []string{"-m", "srv"},
			fs:  mapFS{".venv/bin/python": "x", ".venv/pyvenv.cfg": "home = /usr/bin"},
			has: []string{"C .venv/ (python code)"}, anyGaps: true},
	})
	if !CodeFile("python", ".venv/pyvenv.cfg") {
		t.Error("pyvenv.cfg is not python code")
	}
}

// An argument no file name can be is not a file of the repository: a
// 2,000-character inline JSON after --config binds nothing (approve
// failed with "file name too long" before), a long path of short
// elements still binds its absence.
func TestScopeImpossibleNames(t *testing.T) {
	long := `{"servers":"` + strings.Repeat("x", 2000) + `"}`
	runScopeCases(t, []scopeCase{
		{name: "inline JSON after --config", cmd: "node", args: []string{"server.js", "--config", long, "--token=" + strings.Repeat("t", 300)},
			fs: mapFS{"server.js": "1"}, has: []string{"F* server.js"}, hasNot: []string{"F {…", "F --token…", "F " + strings.Repeat("t", 300)}},
		{name: "a long path of short elements", cmd: "node", args: []string{"server.js", strings.Repeat("a/", 200) + "b"},
			fs: mapFS{"server.js": "1"}, has: []string{"F " + strings.Repeat("a/", 200) + "b"}},
	})
	if got := Clip("héllo", 2); got != "h…" {
		t.Errorf("Clip cut inside a character: %q", got)
	}
}

// child_process with literal programs: what they run is bound, and the
// graph stays closed (a JavaScript change elsewhere does not re-gate);
// a computed command opens it.
func TestScopeChildProcess(t *testing.T) {
	runScopeCases(t, []scopeCase{
		{name: "spawn of node with a literal script", cmd: "node", args: []string{"server.js"},
			fs: mapFS{"server.js": "require('./lib/run')", "lib/run.js": "const { spawn, execFile: ef } = require('child_process')\nspawn('node', ['worker.js'], { stdio: 'inherit' })\nef('git', ['status'])",
				"worker.js": "require('./w2')", "w2.js": "1", "test/x.test.js": "1"},
			has:    []string{"F* lib/run.js", "F* worker.js", "F* w2.js"},
			hasNot: []string{"C ./ (javascript code)", "F* test/x.test.js"}},
		{name: "exec of a shell command line, fork of a module", cmd: "node", args: []string{"server.mjs"},
			fs:  mapFS{"server.mjs": "import cp from 'node:child_process'\ncp.exec('sh ./tools/gen.sh')\ncp.fork('./child.js')", "tools/gen.sh": "echo", "child.js": "1"},
			has: []string{"F* tools/gen.sh", "F* child.js"}, hasNot: []string{"C ./ (javascript code)"}},
		{name: "a computed command opens the graph", cmd: "node", args: []string{"server.js"},
			fs:  mapFS{"server.js": "const cp = require('child_process')\ncp.spawn(process.env.CMD)"},
			has: []string{"C ./ (javascript code)"}, gap: true},
		{name: "options that set cwd or env open the graph", cmd: "node", args: []string{"server.js"},
			fs:  mapFS{"server.js": "const { spawn } = require('child_process')\nspawn('node', ['w.js'], { cwd: dir })"},
			has: []string{"C ./ (javascript code)"}, gap: true},
		{name: "the module passed on opens the graph", cmd: "node", args: []string{"server.js"},
			fs:  mapFS{"server.js": "const cp = require('child_process')\nmodule.exports = cp"},
			has: []string{"C ./ (javascript code)"}, gap: true},
		{name: "promisify(exec) opens the graph", cmd: "node", args: []string{"server.js"},
			fs:  mapFS{"server.js": "const { exec } = require('child_process')\nconst run = util.promisify(exec)"},
			has: []string{"C ./ (javascript code)"}, gap: true},
	})
}

// TestScopeConfigPastTreeSize: a runner's TOML or YAML configuration one
// byte past trust.MaxRepoYAML (a comment pads it: the decoders would build
// every value of a real one) is not decoded and binds what it could name,
// never a guess from part of it: pyproject.toml, .cargo/config.toml,
// rust-toolchain.toml, bunfig.toml, pnpm-workspace.yaml, .yarnrc.yml.
func TestScopeConfigPastTreeSize(t *testing.T) {
	over := func(body string) string {
		pad := "# " + strings.Repeat("x", trust.MaxRepoYAML-len(body)-2) + "\n"
		if s := body + pad; len(s) != trust.MaxRepoYAML+1 {
			t.Fatalf("padded to %d bytes", len(s))
		}
		return body + pad
	}
	js := `{"scripts":{"start":"true"}}`
	runScopeCases(t, []scopeCase{
		{name: "pyproject.toml", cmd: "uv", args: []string{"run", "srv"},
			fs:  mapFS{"pyproject.toml": over("[tool.uv.sources]\nlib = { path = \"libs/lib\" }\n")},
			has: []string{"C* ./ (python code)"}, gap: true},
		{name: "cargo config", cmd: "cargo", args: []string{"run"},
			fs:  mapFS{"Cargo.toml": "[package]", ".cargo/config.toml": over("[build]\nrustc = \"bin/rustc\"\n")},
			has: []string{"T ./"}, gap: true},
		{name: "rust-toolchain.toml", cmd: "cargo", args: []string{"run"},
			fs:  mapFS{"Cargo.toml": "[package]", "rust-toolchain.toml": over("[toolchain]\nchannel = \"stable\"\n")},
			has: []string{"T ./"}, gap: true},
		{name: "bunfig.toml", cmd: "bun", args: []string{"server.ts"},
			fs:  mapFS{"bunfig.toml": over("preload = [\"./instrument.ts\"]\n"), "server.ts": "1", "instrument.ts": "1"},
			has: []string{"T ./"}, gap: true},
		{name: "pnpm-workspace.yaml", cmd: "pnpm", args: []string{"start"},
			fs:  mapFS{"pnpm-workspace.yaml": over("nodeOptions: \"--require ./x.js\"\n"), "x.js": "1", "package.json": js},
			has: []string{"T ./"}, gap: true},
		{name: ".yarnrc.yml", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc.yml": over("yarnPath: y.cjs\n"), "y.cjs": "1", "package.json": js},
			has: []string{"T ./"}, gap: true},
	})
}

// TestScopePackageJSONPastReadSize: a package.json past maxReadSize whose
// script npm runs binds the whole repository (its scripts are not known),
// not only the file.
func TestScopePackageJSONPastReadSize(t *testing.T) {
	body := `{"scripts":{"start":"node s.js"},"x":"`
	big := body + strings.Repeat("x", maxReadSize-len(body)-1) + `"}`
	runScopeCases(t, []scopeCase{
		{name: "past", cmd: "npm", args: []string{"start"}, fs: mapFS{"package.json": big, "s.js": "1"},
			has: []string{"F* package.json", "T ./"}, gap: true},
	})
}

// TestScopeConfigPastReadSize: every other file the model reads to learn
// what runs, one byte past maxReadSize, binds what it could name, never
// nothing: the file cannot be read, not absent. A file that can name a
// program (.npmrc's script-shell, .yarnrc's script-shell, yarn's env
// files, a bin's #! line, .python-version's interpreter) binds the whole
// repository; one that names only a package manager's version (corepack's
// packageManager) binds its whole content; one that names only
// JavaScript (deno.json) all JavaScript.
func TestScopeConfigPastReadSize(t *testing.T) {
	past := func(body string) string {
		s := body + strings.Repeat("#", maxReadSize+1-len(body))
		if len(s) != maxReadSize+1 {
			t.Fatalf("padded to %d bytes", len(s))
		}
		return s
	}
	pastJSON := func(body string) string {
		return body + `,"x":"` + strings.Repeat("x", maxReadSize-len(body)-6) + `"}`
	}
	runScopeCases(t, []scopeCase{
		{name: "corepack's packageManager in a package.json past the limit binds the file", cmd: "pnpm", args: []string{"dlx", "pkg@1.2.3"},
			fs:     mapFS{"package.json": pastJSON(`{"packageManager":"pnpm@9.0.0"`)},
			has:    []string{"F package.json"},
			hasNot: []string{"X package.json: packageManager", "T ./"}, anyGaps: true},
		{name: "an installed package's package.json past the limit: its bins are not known", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:  mapFS{"node_modules/pkg/package.json": pastJSON(`{"name":"pkg","bin":{"pkg":"cli.js"}`), "node_modules/pkg/cli.js": "1"},
			has: []string{"T ./"}, gap: true},
		{name: "a go.mod past the limit may replace with any directory", cmd: "go", args: []string{"run", "."}, launch: "svc/cmd",
			fs:  mapFS{"svc/go.mod": "module svc\n", "svc/cmd/go.mod": past("module cmd\nreplace x => ../../lib\n"), "svc/cmd/main.go": "package main", "lib/x.go": "package x"},
			has: []string{"C* ./ (go code)"}, hasNot: []string{"C* svc/ (go code)", "C* svc/cmd/ (go code)"}, gap: true},
		{name: ".npmrc past the limit: its script-shell may be any program", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:  mapFS{".npmrc": past("script-shell=./sh.sh\n"), "sh.sh": "#!/bin/sh\n"},
			has: []string{"T ./"}, gap: true},
		{name: ".yarnrc past the limit: yarn 1 runs its script-shell", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc": past("script-shell \"./sh.sh\"\n"), "sh.sh": "#!/bin/sh\n", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"T ./"}, gap: true},
		{name: ".python-version past the limit may name any interpreter", cmd: "uv", args: []string{"run", "srv"},
			fs:  mapFS{"pyproject.toml": "[project]", ".python-version": past("/proc/self/cwd/tools/py\n"), "tools/py": "#!/bin/sh\n"},
			has: []string{"T ./"}, gap: true},
		{name: "deno.json past the limit names only JavaScript", cmd: "deno", args: []string{"run", "main.ts"},
			fs:     mapFS{"deno.json": pastJSON(`{"importMap":"./m.json"`), "main.ts": "1"},
			has:    []string{"C ./ (javascript code)"},
			hasNot: []string{"T ./"}, gap: true},
	})
}
