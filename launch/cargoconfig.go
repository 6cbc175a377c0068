package launch

import (
	"errors"
	"maps"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// What `cargo run` reads besides the Rust code, from cargo's and rustup's
// documentation (SECURITY.md, "What a runner reads"), each checked with
// cargo 1.95 and rustup 1.29:
//
//   - .cargo/config.toml (and the older .cargo/config) in the working
//     directory and each directory above: build.rustc, build.rustc-wrapper,
//     build.rustc-workspace-wrapper, target.<triple or cfg>.runner and
//     .linker, host.linker name programs cargo runs (a path with a slash is
//     relative to the directory holding .cargo); rustflags pass rustc
//     paths it runs or links (-C linker=…, -L); [env] sets variables for
//     rustc, build scripts and the program run; include names more
//     configuration files.
//   - rust-toolchain.toml (or rust-toolchain) in the working directory and
//     above, read by the rustup proxy that `cargo` is: [toolchain] path
//     names a directory whose bin/cargo and bin/rustc run in place of the
//     installed ones. rustup takes only an absolute path there, and
//     /proc/self/cwd/… is one that lands in the launch directory.
//
// The files themselves are Rust code of the repository (CodeFile); what
// they name is not, so it is followed here.

// cargoPrograms are the configuration keys whose value is a program cargo
// runs, with its arguments when the value is a list or (runner) a string
// of words.
var cargoPrograms = map[string]bool{
	"rustc": true, "rustc-wrapper": true, "rustc-workspace-wrapper": true, "runner": true, "linker": true,
}

// cargoRunConfig binds what cargo and rustup read from the working
// directory up to the repository root.
func (a *analyzer) cargoRunConfig(cx context, source string) {
	for d := cx.cwd; ; d = dirOf(d) {
		for _, f := range []string{".cargo/config.toml", ".cargo/config"} {
			a.cargoConfig(joinDir(d, f), d, source, cx, 0)
		}
		for _, f := range []string{"rust-toolchain.toml", "rust-toolchain"} {
			a.rustToolchain(joinDir(d, f), source, cx)
		}
		if d == "" {
			return
		}
	}
}

// cargoConfig follows one cargo configuration file; base is the directory
// program paths in it are relative to (the one holding .cargo).
func (a *analyzer) cargoConfig(p, base, source string, cx context, depth int) {
	if depth > 4 || a.read["cargo:"+p] {
		return
	}
	a.read["cargo:"+p] = true
	a.add(Item{Kind: KindFile, Path: p, Source: source,
		Why: "cargo reads its settings (runner, rustc-wrapper, linker, env) from it"})
	data, ok, tooLarge := a.readFile(p)
	if tooLarge {
		a.whole(source, p+" is too large to read")
	}
	if !ok {
		return
	}
	var cfg map[string]any
	if err := decodeTree(toml.Unmarshal, data, &cfg); err != nil {
		a.whole(source, treeProblem(p, "TOML", err)+": the programs it makes cargo run are not known")
		return
	}
	var walk func(v any, prefix string, n int)
	walk = func(v any, prefix string, n int) {
		m, ok := v.(map[string]any)
		if !ok || n > 8 {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			val := m[k]
			switch {
			case cargoPrograms[k]:
				a.cargoProgram(val, base, source, p+": "+prefix+k+" names a program cargo runs", cx)
			case k == "rustflags":
				// -C linker=tools/ld, -L lib, --extern x=lib.rlib: rustc
				// runs or links what they name (relative to where cargo
				// starts it: the workspace root, or the launch directory).
				at := cx
				at.cwd = base
				eachString(val, k, func(_, s string) {
					for _, f := range strings.Fields(s) {
						w := word{text: f, lit: true, source: source}
						a.fileWord(cx, w, p+": "+prefix+k+" passes it to rustc")
						a.fileWord(at, w, p+": "+prefix+k+" passes it to rustc")
					}
				})
			case k == "env" && n == 0:
				a.cargoEnv(val, base, source, cx)
			case k == "include" && n == 0:
				eachString(val, k, func(_, s string) {
					if q, ok := repoPath(dirOf(p), s); ok && q != "" {
						a.cargoConfig(q, base, source, cx, depth+1)
					}
				})
			default:
				walk(val, prefix+k+".", n+1)
			}
		}
	}
	walk(cfg, "", 0)
}

// cargoProgram follows a program a cargo setting names: a string (a
// runner's is split at spaces) or a list of program and arguments.
func (a *analyzer) cargoProgram(v any, base, source, why string, cx context) {
	var words []string
	switch t := v.(type) {
	case string:
		words = strings.Fields(t)
	case []any:
		for _, e := range t {
			s, _ := e.(string)
			words = append(words, s)
		}
	case map[string]any:
		// target.<triple>.runner may hold {path, args} in some tools'
		// own files; cargo reads only the forms above.
		return
	}
	if len(words) == 0 || words[0] == "" {
		return
	}
	ws := make([]word, len(words))
	for i, s := range words {
		ws[i] = word{text: s, lit: true, source: source}
	}
	if strings.Contains(words[0], "/") {
		q, ok := repoPath(base, words[0])
		if !ok || q == "" {
			return // outside the repository: the user's own
		}
		a.runs(Item{Kind: KindFile, Path: q, Source: source, Why: why})
		ws[0].text = fromDir(cx.cwd, q)
	}
	a.argv(ws, cx)
}

// cargoEnv feeds [env] to the model as the environment cargo gives rustc,
// build scripts and the program it runs; relative = true values are
// relative to the directory holding .cargo.
func (a *analyzer) cargoEnv(v any, base, source string, cx context) {
	m, _ := v.(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(m)) {
		val := m[name]
		at := cx.with()
		s, ok := val.(string)
		if t, isTable := val.(map[string]any); isTable {
			s, ok = t["value"].(string)
			if rel, _ := t["relative"].(bool); rel {
				at.cwd = base
			}
		}
		if ok {
			a.envVar(name, s, source, at)
		}
	}
}

// rustToolchain follows a toolchain file's [toolchain] path: the
// toolchain there runs in place of the installed one.
func (a *analyzer) rustToolchain(p, source string, cx context) {
	data, ok, tooLarge := a.readFile(p)
	if tooLarge {
		a.whole(source, p+" is too large to read")
	}
	if !ok {
		return
	}
	var cfg struct {
		Toolchain struct {
			Path string `toml:"path"`
		} `toml:"toolchain"`
	}
	if err := decodeTree(toml.Unmarshal, data, &cfg); err != nil {
		// The one-line form names a channel, not a path.
		if errors.Is(err, errTreeTooLarge) || strings.Contains(string(data), "path") {
			a.whole(source, treeProblem(p, "TOML", err)+": the toolchain it makes rustup run is not known")
		}
		return
	}
	if cfg.Toolchain.Path == "" {
		return
	}
	if q, ok := a.resolve(cx, cfg.Toolchain.Path); ok {
		a.runs(Item{Kind: KindTree, Path: q, Source: source, Why: p + ": rustup runs this toolchain's cargo and rustc in place of the installed ones"})
	}
}

// fromDir is the relative path that reaches the repository path q from
// the directory dir.
func fromDir(dir, q string) string {
	if dir == "" {
		return q
	}
	return strings.Repeat("../", strings.Count(dir, "/")+1) + q
}
