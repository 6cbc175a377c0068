package launch

import "testing"

// What a runner reads besides the code (issue 27): each configuration
// file a runner's documentation says it reads to decide what runs is
// bound, and what it names is followed.
func TestScopeRunnerConfiguration(t *testing.T) {
	runScopeCases(t, []scopeCase{
		{name: "pinned npx binds .npmrc here and above", cmd: "npx", args: []string{"-y", "pkg@1.2.3"}, launch: "a/b",
			fs:     mapFS{"a/b/x": "1"},
			has:    []string{"F .npmrc", "F a/.npmrc", "F a/b/.npmrc", "F .yarnrc.yml"},
			hasNot: []string{"X package.json…", "C javascript…"}, anyGaps: true},
		{name: "npx follows .npmrc node-options", cmd: "npx", args: []string{"-y", "pkg@1.2.3"},
			fs:      mapFS{".npmrc": "registry=https://r.example\nnode-options=--require ./x.js\n", "x.js": "require('./y')", "y.js": "1"},
			has:     []string{"F .npmrc", "F* x.js", "F* y.js"},
			anyGaps: true},
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
		{name: "yarnPath in a parent directory's .yarnrc.yml", cmd: "yarn", args: []string{"start"}, launch: "srv",
			fs: mapFS{".yarnrc.yml": "yarnPath: tools/yarn.cjs\nplugins:\n  - path: .yarn/plugins/p.cjs\n", "tools/yarn.cjs": "1",
				".yarn/plugins/p.cjs": "1", "srv/package.json": `{"scripts":{"start":"node s.js"}}`, "srv/s.js": "1"},
			has: []string{"F* tools/yarn.cjs", "F* .yarn/plugins/p.cjs", "F srv/.yarnrc.yml"}},
		{name: "yarn 1 yarn-path", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc": "yarn-path \"./bin/yarn.js\"\n", "bin/yarn.js": "1", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"F* bin/yarn.js", "F .yarnrc"}},
		{name: "yarn's injected env file puts NODE_OPTIONS in scripts", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".env.yarn": "NODE_OPTIONS=--require ./t.js\n", "t.js": "1", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"F .env.yarn", "F* t.js"}},
		{name: "the PnP runtime is loaded into node", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".pnp.cjs": "require('./pnp-extra')", "pnp-extra.js": "1", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"F* .pnp.cjs", "F* pnp-extra.js"}},
		{name: "an unreadable .yarnrc.yml is unsure", cmd: "yarn", args: []string{"start"},
			fs:  mapFS{".yarnrc.yml": "yarnPath: [\n", "package.json": `{"scripts":{"start":"true"}}`},
			has: []string{"C ./ (javascript code)"}, gap: true},
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
				"server.ts": "import x from '@x/y'", "src/y.ts": "1"},
			has: []string{"F tsconfig.json", "F cfg/base.json", "T node_modules/@tsconfig/node20/", "C ./ (javascript code)"}, gap: true},
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
