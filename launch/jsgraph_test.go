package launch

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// mapFS is an in-memory FS: file path → content. A content of "\x00outside"
// makes the path a symlink leading out of the repository; "\x00link:p" a
// symlink to the file p.
type mapFS map[string]string

// with is a copy of m with files added (or replacing m's).
func (m mapFS) with(files map[string]string) mapFS {
	out := make(mapFS, len(m)+len(files))
	for k, v := range m {
		out[k] = v
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

// real rewrites a path whose leading directory is a symlink.
func (m mapFS) real(p string) string {
	for n := 0; n < 8; n++ {
		changed := false
		for i := 0; i < len(p); i++ {
			if p[i] != '/' {
				continue
			}
			if c, ok := m[p[:i]]; ok && strings.HasPrefix(c, "\x00link:") {
				p = strings.TrimPrefix(c, "\x00link:") + p[i:]
				changed = true
				break
			}
		}
		if !changed {
			break
		}
	}
	return p
}

func (m mapFS) Stat(p string) (Info, error) {
	// A symlink loop is Outside, as the kernel's ELOOP is to the real FS.
	for range 40 {
		p = m.real(p)
		c, ok := m[p]
		if !ok {
			break
		}
		switch {
		case c == "\x00outside":
			return Info{Kind: Outside}, nil
		case strings.HasPrefix(c, "\x00link:"):
			p = strings.TrimPrefix(c, "\x00link:")
			continue
		}
		return Info{Kind: File, Path: p}, nil
	}
	if c, ok := m[p]; ok && strings.HasPrefix(c, "\x00link:") {
		return Info{Kind: Outside}, nil
	}
	for k := range m {
		if p == "" || strings.HasPrefix(k, p+"/") {
			return Info{Kind: Dir, Path: p}, nil
		}
	}
	return Info{Kind: Missing}, nil
}

func (m mapFS) ReadFile(p string, limit int64) ([]byte, error) {
	info, _ := m.Stat(p)
	if info.Kind != File {
		return nil, ErrNotExist
	}
	c := m[info.Path]
	if int64(len(c)) > limit {
		return nil, ErrTooLarge
	}
	return []byte(c), nil
}

func (m mapFS) ReadDir(p string) ([]DirEntry, error) {
	seen := map[string]bool{}
	var out []DirEntry
	for k := range m {
		rest, ok := strings.CutPrefix(k, p+"/")
		if p == "" {
			rest, ok = k, true
		}
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		if !seen[name] {
			seen[name] = true
			info, _ := m.Stat(strings.TrimPrefix(p+"/"+name, "/"))
			out = append(out, DirEntry{Name: name, Kind: info.Kind})
		}
	}
	if len(out) == 0 {
		return nil, ErrNotExist
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

type jsCase struct {
	name   string
	fs     mapFS
	entry  string
	ts     bool
	files  []string // exact
	dirs   []string // exact
	probes []string // each must be present
	noProb []string // each must be absent
	open   []string // each must be a substring of some Open; nil: closed
}

func runJSCases(t *testing.T, cases []jsCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runner := RunNode
			if c.ts {
				runner = RunTS
			}
			entry := c.entry
			if entry == "" {
				entry = "main.js"
			}
			g, err := ResolveJSFor(c.fs, entry, runner)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g.Files, c.files) {
				t.Errorf("Files = %q, want %q", g.Files, c.files)
			}
			if !reflect.DeepEqual(g.Dirs, c.dirs) {
				t.Errorf("Dirs = %q, want %q", g.Dirs, c.dirs)
			}
			has := map[string]bool{}
			for _, p := range g.Probes {
				has[p] = true
			}
			for _, p := range c.probes {
				if !has[p] {
					t.Errorf("Probes = %q, want %q in it", g.Probes, p)
				}
			}
			for _, p := range c.noProb {
				if has[p] {
					t.Errorf("Probes = %q, want no %q", g.Probes, p)
				}
			}
			if c.open == nil && len(g.Open) > 0 {
				t.Errorf("Open = %q, want closed", g.Open)
			}
			for _, want := range c.open {
				ok := false
				for _, o := range g.Open {
					ok = ok || strings.Contains(o, want)
				}
				if !ok {
					t.Errorf("Open = %q, want one containing %q", g.Open, want)
				}
			}
		})
	}
}

func TestResolveJSRelative(t *testing.T) {
	runJSCases(t, []jsCase{
		{
			// Checked with node 20: require.resolve('./lib') is lib/index.js,
			// and lib.js once it exists.
			name:   "directory index",
			fs:     mapFS{"main.js": "require('./lib')", "lib/index.js": ""},
			files:  []string{"lib/index.js", "main.js"},
			probes: []string{"lib.js", "lib.json", "lib.node", "lib/package.json"},
			noProb: []string{"lib/index", "lib/index.json"},
		},
		{
			name:   "shadowed by lib.js",
			fs:     mapFS{"main.js": "require('./lib')", "lib/index.js": "", "lib.js": ""},
			files:  []string{"lib.js", "main.js"},
			noProb: []string{"lib/package.json"},
		},
		{
			name:   "trailing slash names the directory",
			fs:     mapFS{"main.js": "require('./lib/')", "lib/index.js": "", "lib.js": ""},
			files:  []string{"lib/index.js", "main.js"},
			probes: []string{"lib/package.json"},
		},
		{
			name:   "package.json main",
			fs:     mapFS{"main.js": "require('./d')", "d/package.json": `{"main":"m"}`, "d/m.js": "", "d/index.js": ""},
			files:  []string{"d/m.js", "d/package.json", "main.js"},
			probes: []string{"d.js", "d/m"},
		},
		{
			// node 20 falls back to index.js, with a deprecation warning.
			name:   "package.json main missing",
			fs:     mapFS{"main.js": "require('./e')", "e/package.json": `{"main":"nope"}`, "e/index.js": ""},
			files:  []string{"e/index.js", "e/package.json", "main.js"},
			probes: []string{"e/nope", "e/nope.js", "e/nope/index.js"},
		},
		{
			name:  "parent directory and extension",
			fs:    mapFS{"src/app/main.js": "const u = require('../util')", "src/util.js": ""},
			entry: "src/app/main.js",
			files: []string{"src/app/main.js", "src/util.js"},
		},
		{
			name:  "json is data",
			fs:    mapFS{"main.js": "require('./conf.json')", "conf.json": `{"x": "require('./evil')"}`},
			files: []string{"conf.json", "main.js"},
		},
		{
			name:  "cycle",
			fs:    mapFS{"main.js": "require('./a')", "a.js": "require('./b')", "b.js": "require('./a'); require('./main')"},
			files: []string{"a.js", "b.js", "main.js"},
		},
		{
			name:   "missing module",
			fs:     mapFS{"main.js": "try { require('./gone') } catch {}"},
			files:  []string{"main.js"},
			probes: []string{"gone", "gone.js", "gone/index.js", "gone/package.json"},
		},
		{
			name:  "outside the repository",
			fs:    mapFS{"main.js": "require('../../etc/x')"},
			files: []string{"main.js"},
			open:  []string{"main.js:1: \"../../etc/x\" resolves outside the repository"},
		},
		{
			name:  "absolute path",
			fs:    mapFS{"main.js": "\n\nrequire('/etc/x')"},
			files: []string{"main.js"},
			open:  []string{"main.js:3: \"/etc/x\" is an absolute path"},
		},
		{
			name:  "symlink leading outside",
			fs:    mapFS{"main.js": "require('./x')", "x.js": "\x00outside"},
			files: []string{"main.js"},
			open:  []string{"x.js: a symlink leads outside"},
		},
		{
			name:  "symlink resolved to its target",
			fs:    mapFS{"main.js": "require('./x')", "x.js": "\x00link:real/x.js", "real/x.js": "require('./y')", "real/y.js": ""},
			files: []string{"main.js", "real/x.js", "real/y.js"},
		},
		{
			name:  "native addon",
			fs:    mapFS{"main.js": "require('./build/a.node')", "build/a.node": "\x7fELF"},
			files: []string{"build/a.node", "main.js"},
			open:  []string{"native addon"},
		},
		{
			name:   "entry without extension",
			fs:     mapFS{"main.js": ""},
			entry:  "main",
			files:  []string{"main.js"},
			probes: []string{"main"},
		},
		{
			name:  "missing entry",
			fs:    mapFS{},
			files: nil,
			open:  []string{"main.js: the entry point is not a file node can load"},
		},
		{
			name:  "esm import forms",
			fs:    mapFS{"main.mjs": "import a from './a.mjs'\nimport {b as c, d} from \"./b.mjs\";\nimport * as e from './e.mjs'\nimport './f.mjs'\nexport * from './g.mjs'\nexport { h } from './h.mjs'\nconst i = await import('./i.mjs')\nimport.meta.resolve('./j.mjs')\nexport const k = 1\nexport { k as default }\n", "a.mjs": "", "b.mjs": "", "e.mjs": "", "f.mjs": "", "g.mjs": "", "h.mjs": "", "i.mjs": "", "j.mjs": ""},
			entry: "main.mjs",
			files: []string{"a.mjs", "b.mjs", "e.mjs", "f.mjs", "g.mjs", "h.mjs", "i.mjs", "j.mjs", "main.mjs"},
		},
		{
			name:  "commonjs forms",
			fs:    mapFS{"main.js": "const a = require(`./a`);\nrequire.resolve('./b')\nmodule.require('./c')\nif (require.main === module) {}\nif (typeof require === 'function') {}\n", "a.js": "", "b.js": "", "c.js": ""},
			files: []string{"a.js", "b.js", "c.js", "main.js"},
		},
		{
			name:  "url specifier",
			fs:    mapFS{"main.mjs": "import 'data:text/javascript,console.log(1)'; import 'file:///etc/x.js'"},
			entry: "main.mjs",
			files: []string{"main.mjs"},
			open:  []string{"\"data:text/javascript,console.log(1)\" is a URL", "\"file:///etc/x.js\" is a URL"},
		},
	})
}

func TestResolveJSTS(t *testing.T) {
	runJSCases(t, []jsCase{
		{
			name:   "ts extensions and .js mapped to .ts",
			fs:     mapFS{"main.ts": "import {a} from './a.js'\nimport b from './b'\nimport c from './c'", "a.ts": "", "b.tsx": "", "c/index.ts": ""},
			entry:  "main.ts",
			ts:     true,
			files:  []string{"a.ts", "b.tsx", "c/index.ts", "main.ts"},
			probes: []string{"a.js", "b.js", "b.ts", "tsconfig.json"},
		},
		{
			// The order of tsx and ts-node differs; both candidates count.
			name:  "every present candidate counts",
			fs:    mapFS{"main.ts": "import './x'", "x.js": "", "x.ts": ""},
			entry: "main.ts",
			ts:    true,
			files: []string{"main.ts", "x.js", "x.ts"},
		},
		{
			name:  "node does not probe ts",
			fs:    mapFS{"main.js": "require('./x')", "x.ts": ""},
			files: []string{"main.js"},
		},
		{
			name:   "tsconfig paths to nothing",
			fs:     mapFS{"main.ts": "import 'app/x'", "tsconfig.json": `{"compilerOptions":{"paths":{"app/*":["src/*"]}}}`},
			entry:  "main.ts",
			ts:     true,
			files:  []string{"main.ts", "tsconfig.json"},
			probes: []string{"src/x.ts", "node_modules/app"},
			open:   []string{"\"app/x\" is not in the repository"},
		},
		{
			// tsx follows paths and baseUrl (checked with tsx 4): the
			// mapped files are in the graph, the configurations bound.
			name: "tsconfig paths and extends are followed",
			fs: mapFS{"src/main.ts": "import '@lib/m'", "tsconfig.json": "{\n // base\n \"extends\": \"./cfg/base\",\n}",
				"cfg/base.json": `{"compilerOptions":{"paths":{"@lib/*":["lib/good/*"]}}}`, "cfg/lib/good/m.ts": "export {}"},
			entry:  "src/main.ts",
			ts:     true,
			files:  []string{"cfg/base.json", "cfg/lib/good/m.ts", "src/main.ts", "tsconfig.json"},
			probes: []string{"src/tsconfig.json", "cfg/base"},
		},
		{
			// With baseUrl, paths are relative to it, and a bare name
			// resolves below it first.
			name: "tsconfig baseUrl",
			fs: mapFS{"src/main.ts": "import '@lib/m'\nimport 'util/u'", "tsconfig.json": `{"compilerOptions":{"baseUrl":"src","paths":{"@lib/*":["lib/*"]}}}`,
				"src/lib/m.ts": "1", "src/util/u.ts": "1"},
			entry: "src/main.ts",
			ts:    true,
			files: []string{"src/lib/m.ts", "src/main.ts", "src/util/u.ts", "tsconfig.json"},
		},
		{
			name:   "tsconfig extending a package: looked for in node_modules",
			fs:     mapFS{"main.ts": "1", "tsconfig.json": `{"extends":"@tsconfig/node20/tsconfig.json"}`, "a/node_modules/@tsconfig/node20/tsconfig.json": "{}"},
			entry:  "main.ts",
			ts:     true,
			files:  []string{"main.ts", "tsconfig.json"},
			probes: []string{"node_modules/@tsconfig/node20/tsconfig.json"},
		},
	})
}

func TestResolveJSPackages(t *testing.T) {
	runJSCases(t, []jsCase{
		{
			name:   "builtins ignored",
			fs:     mapFS{"main.js": "require('fs'); require('node:fs'); require('fs/promises'); import('node:path'); require('node:test/reporters')"},
			files:  []string{"main.js"},
			noProb: []string{"node_modules/fs"},
		},
		{
			// Checked with node 20: the nearest node_modules wins.
			name:   "nearest node_modules",
			fs:     mapFS{"a/b/main.js": "require('foo')", "a/node_modules/foo/index.js": "require('./evil')", "node_modules/foo/index.js": ""},
			entry:  "a/b/main.js",
			files:  []string{"a/b/main.js"},
			dirs:   []string{"a/node_modules/foo"},
			probes: []string{"a/b/node_modules/foo", "a/b/node_modules/foo.js", "a/node_modules/foo.js"},
			noProb: []string{"node_modules/foo", "a/node_modules/foo/package.json"},
		},
		{
			name:   "scoped package with subpath",
			fs:     mapFS{"main.js": "require('@s/p/sub')", "node_modules/@s/p/sub.js": ""},
			files:  []string{"main.js"},
			dirs:   []string{"node_modules/@s/p"},
			noProb: []string{"node_modules/@s/p/sub.js"},
		},
		{
			// Checked with node 20: foo/sub falls through to an outer foo
			// when the inner one lacks sub.
			name:  "subpath falls through",
			fs:    mapFS{"a/main.js": "require('foo/sub')", "a/node_modules/foo/index.js": "", "node_modules/foo/sub.js": ""},
			entry: "a/main.js",
			files: []string{"a/main.js"},
			dirs:  []string{"a/node_modules/foo", "node_modules/foo"},
		},
		{
			// Checked with node 20: node_modules/bar.js beats node_modules/bar/.
			name:  "file beats package directory",
			fs:    mapFS{"main.js": "require('bar')", "node_modules/bar.js": "require('./x')", "node_modules/x.js": "", "node_modules/bar/index.js": ""},
			files: []string{"main.js", "node_modules/bar.js", "node_modules/x.js"},
		},
		{
			// Checked with node 20: with "exports" the search stops there.
			name:   "exports stops the search",
			fs:     mapFS{"a/main.js": "require('ex/y')", "a/node_modules/ex/package.json": `{"exports":{"./z":"./z.js"}}`, "node_modules/ex/y.js": ""},
			entry:  "a/main.js",
			files:  []string{"a/main.js"},
			dirs:   []string{"a/node_modules/ex"},
			noProb: []string{"node_modules/ex"},
		},
		{
			name:   "not installed",
			fs:     mapFS{"main.js": "require('express')"},
			files:  []string{"main.js"},
			probes: []string{"node_modules/express", "node_modules/express.js"},
			open:   []string{"main.js:1: \"express\" is not in the repository"},
		},
		{
			name:   "package imports",
			fs:     mapFS{"src/main.js": "require('#db'); require('#util/str')", "package.json": `{"imports":{"#db":{"node":"./src/db.js","default":"./src/db-web.js"},"#util/*":"./src/util/*.js"}}`, "src/db.js": "", "src/db-web.js": "", "src/util/str.js": ""},
			entry:  "src/main.js",
			files:  []string{"package.json", "src/db-web.js", "src/db.js", "src/main.js", "src/util/str.js"},
			probes: []string{"src/package.json"},
		},
		{
			name:  "package imports to a package",
			fs:    mapFS{"main.js": "import '#dep'", "package.json": `{"imports":{"#dep":"dep"}}`, "node_modules/dep/index.js": ""},
			files: []string{"main.js", "package.json"},
			dirs:  []string{"node_modules/dep"},
		},
		{
			name:  "self-reference",
			fs:    mapFS{"bin/main.js": "require('me/lib')", "package.json": `{"name":"me","exports":{".":"./index.js","./lib":"./lib/index.js"}}`, "lib/index.js": ""},
			entry: "bin/main.js",
			files: []string{"bin/main.js", "lib/index.js", "package.json"},
		},
		{
			name:   "declared dependencies of a bound package",
			fs:     mapFS{"main.js": "require('express')", "node_modules/express/package.json": `{"dependencies":{"body-parser":"1"},"optionalDependencies":{"fsevents":"2"}}`, "node_modules/express/node_modules/qs/index.js": "", "node_modules/body-parser/package.json": `{"dependencies":{"qs":"6"}}`, "node_modules/qs/index.js": "", "node_modules/body-parser/index.js": "", "node_modules/express/index.js": ""},
			files:  []string{"main.js"},
			dirs:   []string{"node_modules/body-parser", "node_modules/express", "node_modules/qs"},
			probes: []string{"node_modules/fsevents", "package.json"},
			noProb: []string{"node_modules/body-parser/node_modules/qs"},
			open:   []string{"node_modules/express/package.json: \"fsevents\" is not in the repository"},
		},
		{
			name:  "node_modules symlinked to a workspace",
			fs:    mapFS{"main.js": "require('w')", "node_modules/w": "\x00link:packages/w", "packages/w/index.js": ""},
			files: []string{"main.js"},
			dirs:  []string{"packages/w"},
		},
	})
}

func TestResolveJSOpen(t *testing.T) {
	runJSCases(t, []jsCase{
		{
			name:  "dynamic require",
			fs:    mapFS{"main.js": "require('./a')\nconst m = require(name)\nrequire('./b')", "a.js": "", "b.js": ""},
			files: []string{"a.js", "b.js", "main.js"},
			open:  []string{"main.js:2: require() with a computed argument"},
		},
		{
			name:  "concatenated and template arguments",
			fs:    mapFS{"main.js": "require('./a' + x)\nimport(`./b/${x}`)"},
			files: []string{"main.js"},
			open:  []string{"main.js:1: require() with a computed argument", "main.js:2: import() with a computed argument"},
		},
		{
			name:  "require aliased",
			fs:    mapFS{"main.js": "const r = require\nr('./a')"},
			files: []string{"main.js"},
			open:  []string{"main.js:1: require is used as a value"},
		},
		{
			name:  "eval and Function",
			fs:    mapFS{"main.js": "eval(code)\nnew Function('return 1')\nconst f = Function('x')"},
			files: []string{"main.js"},
			open:  []string{"main.js:1: eval is used", "main.js:2: new Function", "main.js:3: new Function"},
		},
		{
			name:  "code-running builtins",
			fs:    mapFS{"main.js": "require('vm')\nrequire('node:child_process')\nimport('worker_threads')\nconst { createRequire } = require('module')\nprocess.dlopen(m, p)"},
			files: []string{"main.js"},
			open:  []string{"main.js:1: it loads the \"vm\" builtin", "main.js:2: it loads the \"node:child_process\"", "main.js:3: it loads the \"worker_threads\"", "main.js:4: createRequire", "main.js:4: it loads the \"module\"", "main.js:5: process.dlopen"},
		},
		{
			name:  "too large",
			fs:    mapFS{"main.js": "require('./big')", "big.js": strings.Repeat(" ", jsMaxFileSize+1)},
			files: []string{"big.js", "main.js"},
			open:  []string{"big.js: too large to read"},
		},
		{
			name:  "files budget",
			fs:    chain(jsMaxFiles + 10),
			entry: "m0.js",
			files: chainFiles(jsMaxFiles),
			open:  []string{"cut short: more than 5000 files"},
		},
	})
}

// chain is m0.js requiring m1.js requiring … m(n-1).js.
func chain(n int) mapFS {
	m := mapFS{}
	for i := 0; i < n; i++ {
		m["m"+strconv.Itoa(i)+".js"] = "require('./m" + strconv.Itoa(i+1) + "')"
	}
	return m
}

func chainFiles(n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, "m"+strconv.Itoa(i)+".js")
	}
	sort.Strings(out)
	return out
}

func TestScanJSLexer(t *testing.T) {
	for _, c := range []struct {
		name  string
		src   string
		specs []string
		open  int
	}{
		{"line comment", "// require('x')\nrequire('y')", []string{"y"}, 0},
		{"block comment", "/* require('x') \n import 'z' */ require('y')", []string{"y"}, 0},
		{"strings", `const s = "require('x')"; const t = 'import("z")'; require('y')`, []string{"y"}, 0},
		{"template", "const s = `require('x') ${ `nested ${ {a: 1}.a } require('w')` } import('z')`; require('y')", []string{"y"}, 0},
		{"template substitution code counts", "const s = `a ${require('x')} b`", []string{"x"}, 0},
		{"regexp", `const re = /require\('x'\)/g; require('y')`, []string{"y"}, 0},
		{"regexp with quote", `if (/'/.test(s)) require('y')`, []string{"y"}, 0},
		{"regexp class with slash", `const re = /[/'"]/; require('y')`, []string{"y"}, 0},
		{"division", `const a = b / 2; const c = d / require('y').n`, []string{"y"}, 0},
		{"division after paren", `const a = (b) / 2 / require('y')`, []string{"y"}, 0},
		{"regexp after return", "function f() { return /'/ }\nrequire('y')", []string{"y"}, 0},
		{"property require is not require", `obj.require('x'); a.import('z'); require('y')`, []string{"y"}, 0},
		{"object key", `const o = { require: 1, eval: 2 }; require('y')`, []string{"y"}, 0},
		{"escaped specifier", `require('./\x61')`, []string{"./a"}, 0},
		{"escaped identifier", `\u0072equire('y'); \u{65}val(s)`, []string{"y"}, 1},
		{"require.resolve with paths", `require.resolve('x', { paths: [d] })`, nil, 1},
		{"require.extensions", `require.extensions['.txt'] = load`, nil, 1},
		{"module.require as a value", `const r = module.require`, nil, 1},
		{"jsx apostrophe ends at the line", "const a = <p>it's</p>\nrequire('y')", []string{"y"}, 0},
		{"shebang", "#!/usr/bin/env node\nrequire('y')", []string{"y"}, 0},
		{"html comment", "<!-- require('x')\nrequire('y')", []string{"y"}, 0},
		{"import type and options", "import type { T } from './t'\nimport j from './j.json' with { type: 'json' }", []string{"./t", "./j.json"}, 0},
		{"export declarations are not imports", "export const from = 1\nexport default function () {}\nexport { a, b }", nil, 0},
		{"unterminated string", "require('x\nrequire('y')", []string{"y"}, 1},
		{"object then division", "x = {}\n/require('z')/g", []string{"z"}, 0},
		{"ambiguous slash hiding a loader", "if (a) {}\n/require('z')/g", nil, 1},
		{"a block statement then a regexp with a quote", "x = 1\n{a: 1}\n/re'/; require('./evil') //'", nil, 1},
		{"a property named like a keyword divides", "x.in / require('./evil') / 1", []string{"./evil"}, 0},
		{"a regexp after a block with a comment start", "if (a) {}\n/[/*]/; require('./y') // */", []string{"./y"}, 1},
		{"require.main.require", "require.main.require('./lib/log')", nil, 1},
		{"require.main === module is a check", "if (require.main === module) main()\nmodule.exports = { a }\nif (typeof module !== 'undefined') x()", nil, 0},
		{"process.mainModule.require", "process.mainModule.require('./x')", nil, 1},
		{"module aliased", "const m = module\nm.require('./x')", nil, 1},
		{"module.parent", "module.parent.require('./x')", nil, 1},
		{"module.require is followed", "module.require('./x')", []string{"./x"}, 0},
		{"TypeScript module declarations", "declare module 'x' { }\nmodule Foo { }", nil, 0},
		{"private field", "class A { #x = 1; f() { return this.#x / 2 } }\nrequire('y')", []string{"y"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var specs []string
			open := 0
			for _, r := range scanJS([]byte(c.src)) {
				if r.Open != "" {
					open++
				} else {
					specs = append(specs, r.Spec)
				}
			}
			if !reflect.DeepEqual(specs, c.specs) || open != c.open {
				t.Errorf("specs %q open %d, want %q open %d: %v", specs, open, c.specs, c.open, scanJS([]byte(c.src)))
			}
		})
	}
}

func FuzzResolveJS(f *testing.F) {
	for _, s := range []string{
		"require('./a')", "import x from './a'; export * from './b'", "`${`${require('./a')}`}`",
		"/'/.test(x); require('./a')", "x = a / b / require('./a')", "require(", "import(", "`${", "/*",
		"{}/require('./a')/", "\\u0072equire('./a')", "import.meta.resolve('#a')", "require('a/b/c')",
		"const { spawn, exec: e } = require('child_process'); spawn('node', ['./a']); e('sh x')",
		"import * as cp from 'node:child_process'; cp.fork('./a', ['x'], { stdio: 'pipe' })",
	} {
		f.Add(s, `{"main":"a","imports":{"#a":"./a.js"},"exports":{"./*":"./*.js"}}`)
	}
	f.Fuzz(func(t *testing.T, src, pkg string) {
		fsys := mapFS{"main.js": src, "a.js": src + "\nrequire('./main')", "package.json": pkg, "node_modules/a/index.js": src, "b/index.js": src}
		for _, runner := range []JSRunner{RunNode, RunTS} {
			g, err := ResolveJSFor(fsys, "main.js", runner)
			if err != nil {
				t.Fatal(err)
			}
			ok := false
			for _, p := range g.Files {
				ok = ok || p == "main.js"
			}
			for _, o := range g.Open {
				ok = ok || strings.Contains(o, "main.js")
			}
			if !ok {
				t.Fatalf("entry in neither Files nor Open: %+v", g)
			}
			if !sort.StringsAreSorted(g.Files) || !sort.StringsAreSorted(g.Probes) || !sort.StringsAreSorted(g.Dirs) {
				t.Fatalf("unsorted: %+v", g)
			}
		}
	})
}
