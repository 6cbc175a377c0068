package launch

import (
	"errors"
	"maps"
	"path"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// What `cargo run` reads besides the Rust code, from cargo's and rustup's
// documentation (SECURITY.md, "What a runner reads"), each checked with
// cargo 1.95 and rustup 1.29:
//
//   - .cargo/config.toml (and the older .cargo/config) in the working
//     directory and each directory above, the files their include lists
//     name, a --config FILE or KEY=VALUE, $CARGO_HOME/config.toml and the
//     CARGO_* variables: build.rustc, build.rustc-wrapper,
//     build.rustc-workspace-wrapper, target.<triple>.linker and host.linker
//     name one program each (the whole string, spaces and all; a list is
//     refused); target.<triple or cfg>.runner, a registry's
//     credential-provider, registry.global-credential-providers and
//     credential-alias name a program and its arguments (a list, or a
//     string split at white space). rustflags pass rustc paths it runs or
//     links (-C linker=…, -L); [env] sets variables for rustc, build
//     scripts and the program run; a build.target ending in .json is a
//     custom target specification, which names rustc's linker.
//   - Cargo's rule for a program path ("Config-relative paths"): one
//     without a slash is found in PATH; one with a slash is relative to
//     the parent of the directory holding the file that sets it, taken
//     lexically from the path cargo joined (Definition::root: the
//     directory holding .cargo, for an included ../x.toml the .cargo
//     directory itself), and relative to cargo's working directory when a
//     variable or --config KEY=VALUE sets it. rustc resolves the paths its
//     flags name from where cargo starts it: the workspace root. cargo
//     runs a wrapper in its own working directory (rustc -vV) and in the
//     workspace root (each compilation), the linker in the workspace root,
//     the runner in its working directory. The model follows each from
//     cargo's working directory (once: a script is followed once), so what
//     a wrapper or linker script reaches by a relative path from another
//     workspace root is not followed; the script itself is bound.
//   - rust-toolchain.toml (or rust-toolchain) in the working directory and
//     above, read by the rustup proxy that `cargo` is: [toolchain] path
//     names a directory whose bin/cargo and bin/rustc run in place of the
//     installed ones. rustup takes only an absolute path there, and
//     /proc/self/cwd/… is one that lands in the launch directory.
//
// The files themselves are Rust code of the repository (CodeFile); what
// they name is not, so it is followed here.

// cargoRun is one cargo invocation the model follows.
type cargoRun struct {
	// cx is where cargo starts: its working directory and environment.
	cx     context
	source string
	// rustcDirs are the directories rustc may start in: cargo starts it in
	// the workspace root, the working directory or one above it (or the
	// manifest's directory or one above that). Each is bound.
	rustcDirs []string
	// aliases are the [alias] definitions its configuration holds, by
	// name, each a command line of cargo's.
	aliases map[string][][]string
}

// cargoForm is how a configuration value names programs.
type cargoForm int

const (
	// oneProgram: the value is one path (cargo's ConfigRelativePath).
	oneProgram cargoForm = iota
	// programArgs: a program and its arguments (PathAndArgs).
	programArgs
	// programArgsList: a list of such strings.
	programArgsList
)

// cargoPrograms are the configuration keys whose value names a program
// cargo runs.
var cargoPrograms = map[string]cargoForm{
	"rustc": oneProgram, "rustc-wrapper": oneProgram, "rustc-workspace-wrapper": oneProgram, "rustdoc": oneProgram, "linker": oneProgram,
	"runner": programArgs, "credential-provider": programArgs, "global-credential-providers": programArgsList,
}

// commands are the command lines a value of this form names; nil for a
// value of another type, which cargo refuses (nothing runs).
func (f cargoForm) commands(v any) [][]string {
	switch t := v.(type) {
	case string:
		if f == oneProgram {
			return [][]string{{t}}
		}
		return [][]string{strings.Fields(t)}
	case []any:
		if f == oneProgram {
			return nil
		}
		var words []string
		for _, e := range t {
			s, _ := e.(string)
			words = append(words, s)
		}
		if f == programArgs {
			return [][]string{words}
		}
		var out [][]string
		for _, w := range words {
			out = append(out, strings.Fields(w))
		}
		return out
	}
	return nil
}

// cargoVarForm is how a variable cargo reads names a program (RUSTC_WRAPPER
// and the CARGO_* spelling of each key above).
func cargoVarForm(name string) (cargoForm, bool) {
	switch name {
	case "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTC_WRAPPER",
		"CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "CARGO_HOST_LINKER", "RUSTDOC", "CARGO_BUILD_RUSTDOC", "RUSTFMT":
		return oneProgram, true
	case "CARGO_REGISTRY_CREDENTIAL_PROVIDER":
		return programArgs, true
	}
	switch {
	case strings.HasPrefix(name, "CARGO_TARGET_") && strings.HasSuffix(name, "_LINKER"):
		return oneProgram, true
	case strings.HasPrefix(name, "CARGO_TARGET_") && strings.HasSuffix(name, "_RUNNER"),
		strings.HasPrefix(name, "CARGO_REGISTRIES_") && strings.HasSuffix(name, "_CREDENTIAL_PROVIDER"):
		return programArgs, true
	}
	return 0, false
}

// cargoRustcFlags reports whether a key passes flags to rustc: rustflags,
// and a links override's rustc-link-search, rustc-link-arg…, rustc-flags.
func cargoRustcFlags(k string) bool {
	return k == "rustflags" || k == "rustc-flags" || strings.HasPrefix(k, "rustc-link-") || k == "rustc-cdylib-link-arg"
}

// cargoRunConfig binds what cargo and rustup read: the configuration of
// the working directory and each directory above it up to the repository
// root, what --config adds (cli), and the entry's variables.
func (a *analyzer) cargoRunConfig(run cargoRun, cli []word) {
	cx := run.cx
	for d := cx.cwd; ; d = dirOf(d) {
		for _, f := range []string{".cargo/config.toml", ".cargo/config"} {
			p := joinDir(d, f)
			a.cargoConfig(run, p, a.cargoAbs(p), 0)
		}
		if d == "" {
			break
		}
	}
	for _, w := range cli {
		a.cargoCLIConfig(run, w)
	}
	cwd := a.cargoAbs(cx.cwd)
	for _, name := range slices.Sorted(maps.Keys(cx.env)) {
		v := cx.env[name]
		why := name + " names a program cargo runs"
		form, program := cargoVarForm(name)
		switch {
		case v == "":
		case program:
			for _, words := range form.commands(v) {
				a.cargoProgram(run, words, cwd, why)
			}
		case name == "CARGO_REGISTRY_GLOBAL_CREDENTIAL_PROVIDERS":
			for _, f := range strings.Fields(v) {
				a.cargoProgram(run, []string{f}, cwd, why)
			}
		case name == "RUSTFLAGS" || name == "CARGO_BUILD_RUSTFLAGS" || name == "CARGO_HOST_RUSTFLAGS" ||
			strings.HasPrefix(name, "CARGO_TARGET_") && strings.HasSuffix(name, "_RUSTFLAGS"):
			a.rustcFlags(run, strings.Fields(v), name+" passes it to rustc")
		case name == "CARGO_ENCODED_RUSTFLAGS":
			a.rustcFlags(run, strings.Split(v, "\x1f"), name+" passes it to rustc")
		case name == "CARGO_BUILD_TARGET":
			a.cargoTarget(run, v, cwd, name)
		case name == "CARGO_HOME":
			// $CARGO_HOME/config.toml: its paths are relative to
			// CARGO_HOME's parent, as a .cargo directory's.
			home := cargoJoin(cwd, v)
			for _, f := range []string{"config.toml", "config"} {
				raw := home + "/" + f
				if q, ok := a.cargoRepo(raw, cx); ok && q != "" {
					a.cargoConfig(run, q, raw, 0)
				}
			}
		}
	}
}

// cargoCLIConfig follows one --config value: an existing path is a
// configuration file (relative to cargo's working directory), anything
// else a KEY=VALUE setting whose paths are relative to that directory.
func (a *analyzer) cargoCLIConfig(run cargoRun, w word) {
	if !w.lit {
		a.whole(w.source, "cargo --config takes a value known only at run time")
		return
	}
	cwd := a.cargoAbs(run.cx.cwd)
	raw := cargoJoin(cwd, w.text)
	if q, ok := a.cargoRepo(raw, run.cx); ok && q != "" {
		switch a.stat(q).Kind {
		case File, Exec:
			a.cargoConfig(run, q, raw, 0)
			return
		case Missing:
			// Its absence: a file appearing there is read instead.
			a.add(Item{Kind: KindFile, Path: q, Source: w.source, Why: "cargo --config reads it as its configuration when it exists"})
		default:
			return // cargo cannot read it as either: it stops
		}
	}
	var cfg map[string]any
	if err := decodeTree(toml.Unmarshal, []byte(w.text), &cfg); err != nil {
		if strings.Contains(w.text, "=") {
			a.whole(w.source, "cargo --config "+Clip(w.text, 80)+" cannot be read as TOML: the programs it makes cargo run are not known")
		}
		return // a path outside the repository (the user's own), or nothing cargo reads
	}
	a.cargoValues(run, cfg, "--config "+Clip(w.text, 80), cwd, cwd, 0)
}

// cargoConfig follows one cargo configuration file at the repository path
// p, which cargo spells raw (absolute, unnormalised: cargoAbs, cargoJoin).
func (a *analyzer) cargoConfig(run cargoRun, p, raw string, depth int) {
	if depth > 4 || a.read["cargo:"+raw] {
		return
	}
	a.read["cargo:"+raw] = true
	source := run.source
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
	dir := cargoParent(raw)
	a.cargoValues(run, cfg, p, cargoParent(dir), dir, depth)
}

// cargoValues follows the settings of one configuration (a file's, or
// --config's): file names it, root is the directory its paths are
// relative to, incDir the one its includes are.
func (a *analyzer) cargoValues(run cargoRun, cfg map[string]any, file, root, incDir string, depth int) {
	var walk func(v any, prefix string, n int)
	walk = func(v any, prefix string, n int) {
		m, ok := v.(map[string]any)
		if !ok || n > 8 {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			val := m[k]
			why := file + ": " + prefix + k
			form, program := cargoPrograms[k]
			switch {
			case program:
				for _, words := range form.commands(val) {
					a.cargoProgram(run, words, root, why+" names a program cargo runs")
				}
			case k == "credential-alias" && n == 0:
				alias, _ := val.(map[string]any)
				for _, name := range slices.Sorted(maps.Keys(alias)) {
					for _, words := range programArgs.commands(alias[name]) {
						a.cargoProgram(run, words, root, why+"."+name+" names a program cargo runs")
					}
				}
			case cargoRustcFlags(k):
				var flags []string
				eachString(val, k, func(_, s string) { flags = append(flags, strings.Fields(s)...) })
				a.rustcFlags(run, flags, why+" passes it to rustc")
			case k == "target" && prefix == "build.":
				eachString(val, k, func(_, s string) { a.cargoTarget(run, s, root, why) })
			case k == "env" && n == 0:
				a.cargoEnv(run, val, root)
			case k == "alias" && n == 0:
				defs, _ := val.(map[string]any)
				for _, name := range slices.Sorted(maps.Keys(defs)) {
					if words := programArgs.commands(defs[name]); len(words) == 1 {
						run.aliases[name] = append(run.aliases[name], words[0])
					}
				}
			case k == "include" && n == 0:
				// A list of paths, or of {path, optional} tables, each
				// relative to the including file's directory.
				eachString(val, k, func(key, s string) {
					if key != "include" && key != "path" {
						return
					}
					raw := cargoJoin(incDir, s)
					if q, ok := a.cargoRepo(raw, run.cx); ok && q != "" {
						a.cargoConfig(run, q, raw, depth+1)
					}
				})
			default:
				walk(val, prefix+k+".", n+1)
			}
		}
	}
	walk(cfg, "", 0)
}

// cargoProgram follows a program a cargo setting names (words: the
// program and its arguments) whose path is relative to root: the file is
// bound and followed as a command line from cargo's working directory.
// Without a slash it is found in PATH.
func (a *analyzer) cargoProgram(run cargoRun, words []string, root, why string) {
	if len(words) == 0 || words[0] == "" {
		return
	}
	ws := make([]word, len(words))
	for i, s := range words {
		ws[i] = word{text: s, lit: true, source: run.source}
	}
	if strings.Contains(words[0], "/") {
		q, ok := a.cargoRepo(cargoJoin(root, words[0]), run.cx)
		if !ok || q == "" {
			return // outside the repository: the user's own
		}
		a.runs(Item{Kind: KindFile, Path: q, Source: run.source, Why: why})
		ws[0].text = fromDir(run.cx.cwd, q)
	}
	a.argv(ws, run.cx)
}

// rustcFlags binds the paths flags rustc receives name, from each
// directory rustc may start in, and follows the linker -C linker= names
// (cargo 1.95 ran `-C linker=tools/ld` from the workspace root when
// started in its src/).
func (a *analyzer) rustcFlags(run cargoRun, flags []string, why string) {
	for i, f := range flags {
		linker := ""
		switch {
		case strings.HasPrefix(f, "-Clinker="):
			linker = strings.TrimPrefix(f, "-Clinker=")
		case strings.HasPrefix(f, "linker=") && i > 0 && flags[i-1] == "-C":
			linker = strings.TrimPrefix(f, "linker=")
		}
		for _, d := range run.rustcDirs {
			at := run.cx
			at.cwd = d
			a.fileWord(at, word{text: f, lit: true, source: run.source}, why)
			if !strings.Contains(linker, "/") {
				continue
			}
			if q, ok := a.resolve(at, linker); ok && q != "" {
				if k := a.stat(q).Kind; k == File || k == Exec {
					a.runs(Item{Kind: KindFile, Path: q, Source: run.source, Why: why + ": rustc runs it as the linker"})
					a.argv([]word{{text: fromDir(d, q), lit: true, source: run.source}}, at)
				}
			}
		}
	}
}

// cargoTarget binds a custom target specification (a target ending in
// .json, relative to root) and the whole repository: rustc runs the
// linker and links the objects it names, which are not followed.
func (a *analyzer) cargoTarget(run cargoRun, target, root, why string) {
	if !strings.HasSuffix(target, ".json") {
		return
	}
	if q, ok := a.cargoRepo(cargoJoin(root, target), run.cx); ok && q != "" {
		a.add(Item{Kind: KindFile, Path: q, Source: run.source, Why: why + " names this target specification"})
	}
	a.whole(run.source, why+" names a custom target specification: the linker and objects it makes rustc use are not followed")
}

// cargoEnv feeds [env] to the model as the environment cargo gives rustc,
// build scripts and the program it runs; relative = true values are
// relative to root, the configuration's directory.
func (a *analyzer) cargoEnv(run cargoRun, v any, root string) {
	rel, inRepo := a.cargoRepo(root, run.cx)
	m, _ := v.(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(m)) {
		val := m[name]
		at := run.cx.with()
		s, ok := val.(string)
		if t, isTable := val.(map[string]any); isTable {
			s, ok = t["value"].(string)
			if r, _ := t["relative"].(bool); r {
				at.cwd, at.unknown = rel, !inRepo
			}
		}
		if ok {
			a.envVar(name, s, run.source, at)
		}
	}
}

// Paths as cargo spells them: absolute, with ".." kept, as Rust's Path
// takes them (its parent() drops the last component lexically). A
// repository path is spelt below Options.Root, or, when that is unknown,
// below a root no real path has, so what lies above it is outside.
const cargoNoRoot = "/\x00repository"

// cargoAbs spells the repository path p as cargo does.
func (a *analyzer) cargoAbs(p string) string {
	root := a.opts.Root
	if root == "" {
		root = cargoNoRoot
	}
	if p == "" {
		return root
	}
	return root + "/" + p
}

// cargoJoin joins v to the directory dir as Rust's Path::join does (an
// absolute v replaces it), dropping empty and "." components as its
// components() do; ".." is kept.
func cargoJoin(dir, v string) string {
	if !strings.HasPrefix(v, "/") {
		v = dir + "/" + v
	}
	var keep []string
	for _, c := range strings.Split(v, "/") {
		if c != "" && c != "." {
			keep = append(keep, c)
		}
	}
	return "/" + strings.Join(keep, "/")
}

// cargoParent is Rust's Path::parent of a path cargoJoin spelt: the last
// component dropped, ".." too.
func cargoParent(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

// cargoRepo is the repository path a path cargo spelt reaches (its ".."
// resolved); false outside the repository.
func (a *analyzer) cargoRepo(p string, cx context) (string, bool) {
	c := path.Clean(p)
	root := a.cargoAbs("")
	if c == root {
		return "", true
	}
	if rest, ok := strings.CutPrefix(c, root+"/"); ok {
		return repoPath("", rest)
	}
	return a.resolve(cx, c) // /proc/self/cwd/…: cargo's working directory
}

// rustToolchain follows a toolchain file's [toolchain] path, or the path
// the one-line form names: the toolchain there runs in place of the
// installed one.
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
		line := strings.TrimSpace(string(stripBOM(data)))
		switch {
		case errors.Is(err, errTreeTooLarge):
			a.whole(source, treeProblem(p, "TOML", err)+": the toolchain it makes rustup run is not known")
		case line != "" && !strings.ContainsAny(line, "\n\r"):
			// The one-line form names a channel or, as rustup 1.29 ran
			// it, an absolute path.
			a.rustupToolchain(line, source, p+": rustup runs this toolchain's cargo and rustc in place of the installed ones", cx)
		case strings.Contains(line, "path"):
			a.whole(source, treeProblem(p, "TOML", err)+": the toolchain it makes rustup run is not known")
		}
		return
	}
	a.rustupToolchain(cfg.Toolchain.Path, source, p+": rustup runs this toolchain's cargo and rustc in place of the installed ones", cx)
}

// rustupOverrides binds the toolchain rustup's proxy runs cargo from for
// a cargo started in cx, whatever its subcommand (rustup 1.29 ran a
// rust-toolchain.toml's for cargo version): cargo +TOOLCHAIN
// (toolchain), RUSTUP_TOOLCHAIN, and rust-toolchain.toml or
// rust-toolchain in the directory or one above it.
func (a *analyzer) rustupOverrides(cx context, toolchain word, source string) {
	const why = ": rustup runs this toolchain's cargo and rustc in place of the installed ones"
	if toolchain.lit && toolchain.text != "" {
		a.rustupToolchain(toolchain.text[1:], toolchain.source, "cargo "+Clip(toolchain.text, 80)+why, cx)
	}
	if v := cx.env["RUSTUP_TOOLCHAIN"]; v != "" {
		a.rustupToolchain(v, source, "RUSTUP_TOOLCHAIN"+why, cx)
	}
	for d := cx.cwd; ; d = dirOf(d) {
		for _, f := range []string{"rust-toolchain.toml", "rust-toolchain"} {
			a.rustToolchain(joinDir(d, f), source, cx)
		}
		if d == "" {
			break
		}
	}
}

// rustupToolchain binds the toolchain a rustup override names when it is
// a path (rust-toolchain's path, cargo +TOOLCHAIN, RUSTUP_TOOLCHAIN):
// rustup takes only an absolute one, which /proc/self/cwd/… is.
func (a *analyzer) rustupToolchain(name, source, why string, cx context) {
	if !strings.Contains(name, "/") {
		return // a channel or an installed toolchain: the user's own
	}
	if q, ok := a.resolve(cx, name); ok {
		a.runs(Item{Kind: KindTree, Path: q, Source: source, Why: why})
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
