package launch

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// goTool follows `go [-C dir] run [build flags] PACKAGE|FILES [args]`: the
// main package and every package of its module (and any module the
// repository's go.work or a local replace brings in) are compiled.
func (a *analyzer) goTool(args []word, cx context) {
	if len(args) >= 2 && args[0].text == "-C" {
		a.chdir(&cx, args[1].text, args[1].lit, "command")
		args = args[2:]
	}
	if len(args) == 0 || args[0].text != "run" {
		return
	}
	rest := skipOptions(args[1:], "-C", "-exec", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-modfile",
		"-p", "-o", "-overlay", "-pkgdir", "-toolexec", "-pgo", "-buildmode", "-compiler", "-installsuffix")
	for _, w := range args[1:] {
		if strings.HasPrefix(w.text, "-exec") || strings.HasPrefix(w.text, "-toolexec") || strings.HasPrefix(w.text, "-overlay") || strings.HasPrefix(w.text, "-modfile") {
			a.fileWord(cx, w, "go run reads it")
		}
	}
	if len(rest) == 0 {
		return
	}
	pkg := rest[0]
	if !pkg.lit {
		a.whole(pkg.source, "go run builds a package named at run time")
		return
	}
	if strings.Contains(pkg.text, "@") && !strings.HasPrefix(pkg.text, ".") {
		return // a module from the proxy at a version: not the repository's
	}
	if a.unknownCwd(cx, pkg.source) {
		return
	}
	dir := cx.cwd
	if p, ok := a.resolve(cx, pkg.text); ok && (strings.HasPrefix(pkg.text, ".") || strings.HasSuffix(pkg.text, ".go")) {
		dir = p
		if strings.HasSuffix(pkg.text, ".go") {
			dir = dirOf(p)
		}
	}
	root := a.goModuleRoot(dir, pkg.source)
	a.runs(Item{Kind: KindCode, Lang: "go", Path: root, Source: pkg.source,
		Why: "go run compiles the module's packages: any change to its Go code re-gates this server"})
	a.goEmbeds(root, pkg.source)
}

// goModuleRoot is the directory whose code `go run` may compile: the
// nearest directory at or above dir with a go.mod, or the repository root
// when a go.work or a local replace can bring in other directories (or no
// go.mod is found, or the nearest is too large to read: its replaces are
// not known).
func (a *analyzer) goModuleRoot(dir, source string) string {
	if a.fs == nil {
		return ""
	}
	for d := dir; ; d = dirOf(d) {
		if a.stat(joinDir(d, "go.work")).Kind != Missing {
			return ""
		}
		data, ok, tooLarge := a.readFile(joinDir(d, "go.mod"))
		if tooLarge {
			a.b.gap(source, joinDir(d, "go.mod")+" is too large to read: a replace in it may bring in any Go code of the repository")
			return ""
		}
		if ok {
			if localReplace(data) {
				return ""
			}
			return d
		}
		if d == "" {
			return ""
		}
	}
}

// localReplace reports whether a go.mod replaces a module with a
// directory: after "=>" (spaces or tabs, perhaps a quote) a path starting
// with "." or "/", which a module path never does. go 1.26 took a tab, a
// quoted path and an absolute one alike. A "=>" in a comment counts too:
// the repository's Go code is then bound, a superset.
func localReplace(gomod []byte) bool {
	for rest := gomod; ; {
		i := bytes.Index(rest, []byte("=>"))
		if i < 0 {
			return false
		}
		rest = bytes.TrimLeft(rest[i+2:], " \t")
		rest = bytes.TrimLeft(rest, "\"`")
		if len(rest) > 0 && (rest[0] == '.' || rest[0] == '/') {
			return true
		}
	}
}

// cargoBuilds are cargo's subcommands that build the workspace: its build
// scripts and proc macros run (and, for run, the program; install --path
// builds a crate of the repository).
var cargoBuilds = map[string]bool{"run": true, "r": true, "build": true, "b": true, "check": true, "c": true,
	"test": true, "t": true, "bench": true, "doc": true, "d": true, "rustc": true, "rustdoc": true, "fix": true,
	"clippy": true, "miri": true, "package": true, "publish": true, "install": true}

// cargoOthers are cargo's other built-in subcommands (cargo 1.95's
// --list): they build nothing, and an alias of their name is ignored.
var cargoOthers = map[string]bool{"add": true, "clean": true, "config": true, "fetch": true, "fmt": true,
	"generate-lockfile": true, "git-checkout": true, "help": true, "info": true, "init": true,
	"locate-project": true, "login": true, "logout": true, "metadata": true, "new": true, "owner": true, "pkgid": true,
	"read-manifest": true, "remove": true, "rm": true, "report": true, "search": true, "tree": true, "uninstall": true,
	"update": true, "vendor": true, "verify-project": true, "version": true, "yank": true}

// cargoQuiet are the built-in subcommands cargo 1.95 was seen to start
// no program of the configuration for: run in a crate whose
// configuration set build.rustc-wrapper, again build.rustc, again
// RUSTC_WRAPPER, each finished without starting it. The others, metadata,
// tree, fetch, clean, info, add, remove, update, generate-lockfile and
// vendor among them, started it (rustc -vV and the target query); login,
// logout, owner, yank, search and report could not be seen finishing and
// count as starting it (a registry's credential provider runs for
// several), as does fmt (RUSTFMT).
var cargoQuiet = map[string]bool{"help": true, "version": true, "pkgid": true, "locate-project": true,
	"read-manifest": true, "verify-project": true, "new": true, "init": true, "uninstall": true, "config": true,
	"git-checkout": true}

// cargoStartsNothing reports whether the subcommand sub with its words
// args was seen to start no program of cargo's configuration: one of
// cargoQuiet, or metadata --no-deps (metadata alone started the wrapper).
func cargoStartsNothing(sub string, args []word) bool {
	if sub == "metadata" {
		for _, w := range args {
			if w.text == "--" {
				break
			}
			if w.text == "--no-deps" {
				return true
			}
		}
		return false
	}
	return cargoQuiet[sub]
}

// cargo follows `cargo run` and the other subcommands that build: the
// workspace's crates, build scripts and its .cargo/config.toml (runners,
// rustc wrappers) all come from the repository. Every subcommand but
// those seen to start nothing (cargoStartsNothing) binds the programs
// the configuration names, and every one the toolchain rustup picks. A
// subcommand cargo does not know is an alias the configuration defines,
// followed as what it expands to, or a cargo-NAME program from PATH (the
// user's own).
func (a *analyzer) cargo(args []word, cx context) {
	outer := cx
	// cargo's own options come first: rustup's +toolchain, then -C DIR
	// (nightly), --config, -Z and --color with a value. --config and -Z
	// may follow the subcommand too, up to "--".
	var cli []word
	var toolchain word
	i := 0
	if len(args) > 0 && strings.HasPrefix(args[0].text, "+") {
		toolchain = args[0]
		i++
	}
	option := func(ws []word, i int) (name string, val word, next int, ok bool) {
		t := ws[i].text
		for _, o := range []string{"--config", "--color", "--manifest-path", "--target", "--explain", "-C", "-Z"} {
			switch {
			case t == o && i+1 < len(ws):
				return o, ws[i+1], i + 1, true
			case strings.HasPrefix(o, "--") && strings.HasPrefix(t, o+"="):
				return o, word{text: t[len(o)+1:], lit: ws[i].lit, source: ws[i].source}, i, true
			case !strings.HasPrefix(o, "--") && strings.HasPrefix(t, o) && len(t) > len(o):
				return o, word{text: t[len(o):], lit: ws[i].lit, source: ws[i].source}, i, true
			}
		}
		return "", word{}, i, false
	}
	explain := false
	for ; i < len(args) && strings.HasPrefix(args[i].text, "-") && args[i].text != "--"; i++ {
		name, val, next, ok := option(args, i)
		switch {
		case !ok:
		case name == "-C":
			a.chdir(&cx, val.text, val.lit, val.source)
		case name == "--config":
			cli = append(cli, val)
		case name == "--explain":
			explain = true // cargo runs rustc --explain
		}
		i = next
	}
	source := "command"
	if len(args) > 0 {
		source = args[min(i, len(args)-1)].source
	}
	// rustup's proxy picks the toolchain whose cargo runs, whatever the
	// subcommand, from its own working directory; cargo's (-C) counts too.
	for _, d := range []context{outer, cx} {
		if a.unknownCwd(d, source) {
			return
		}
		a.rustupOverrides(d, toolchain, source)
	}
	sub := word{lit: true, source: source}
	switch {
	case i < len(args):
		sub = args[i]
		if cargoStartsNothing(sub.text, args[i+1:]) && !explain {
			return
		}
	case !explain:
		return
	}
	builds := cargoBuilds[sub.text]
	var manifest, target word
	for j := i + 1; j < len(args) && args[j].text != "--"; j++ {
		name, val, next, ok := option(args, j)
		switch {
		case !ok || !strings.HasPrefix(name, "--"):
			continue
		case name == "--config":
			cli = append(cli, val)
		case name == "--manifest-path":
			manifest = val
			a.fileWord(cx, val, "cargo "+sub.text+" builds this manifest")
		case name == "--target":
			target = val
		}
		j = next
	}
	if builds {
		a.runs(Item{Kind: KindCode, Lang: "rust", Path: "", Source: sub.source,
			Why: "cargo " + Clip(sub.text, 40) + " builds the workspace, its path dependencies and build scripts: any change to Rust code or Cargo files re-gates this server"})
		a.rustIncludes("", sub.source)
	}
	if a.cargoAliases == nil {
		a.cargoAliases = map[string][][]string{}
	}
	run := cargoRun{cx: cx, source: sub.source, aliases: a.cargoAliases}
	// rustc starts in the workspace root: the manifest's directory or one
	// above it.
	from := []string{cx.cwd}
	if p, ok := a.resolve(cx, manifest.text); ok && manifest.lit && manifest.text != "" {
		from = append(from, dirOf(p))
	}
	seen := map[string]bool{}
	for _, d := range from {
		for ; !seen[d]; d = dirOf(d) {
			seen[d] = true
			run.rustcDirs = append(run.rustcDirs, d)
			if d == "" {
				break
			}
		}
	}
	a.cargoRunConfig(run, cli)
	if target.lit && target.text != "" {
		a.cargoTarget(run, target.text, a.cargoAbs(cx.cwd), "--target "+Clip(target.text, 80))
	}
	if builds || cargoOthers[sub.text] || !sub.lit || sub.text == "" {
		return
	}
	// cargo 1.95 ran `[alias] serve = "run --quiet"` as `cargo serve`.
	// The definitions of every configuration read count (a superset).
	defs := slices.Clone(run.aliases[sub.text])
	if v := cx.env["CARGO_ALIAS_"+strings.ToUpper(strings.ReplaceAll(sub.text, "-", "_"))]; v != "" {
		defs = append(defs, strings.Fields(v))
	}
	key := "cargo-alias:" + cx.cwd + "\x00" + sub.text
	if a.read[key] {
		return // an alias that expands to itself: cargo stops
	}
	a.read[key] = true
	for _, words := range defs {
		exp := append([]word{}, args[:i]...)
		for _, w := range words {
			exp = append(exp, word{text: w, lit: true, source: sub.source})
		}
		next := outer
		next.depth++
		a.cargo(append(exp, args[i+1:]...), next)
	}
	delete(a.read, key)
}

// make follows `make [-C dir] [-f file] [target]`: the makefile is bound
// and its recipes run shell commands mcp-guard does not follow, so the
// repository is bound too.
func (a *analyzer) make(name string, args []word, cx context) {
	files := []string{}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case (t == "-C" || t == "--directory") && i+1 < len(args):
			a.chdir(&cx, args[i+1].text, args[i+1].lit, "command")
			i++
		case strings.HasPrefix(t, "--directory="):
			a.chdir(&cx, strings.TrimPrefix(t, "--directory="), args[i].lit, "command")
		case strings.HasPrefix(t, "-C") && len(t) > 2:
			a.chdir(&cx, t[2:], args[i].lit, "command")
		case (t == "-f" || t == "--file" || t == "--makefile") && i+1 < len(args):
			files = append(files, args[i+1].text)
			i++
		}
	}
	if a.unknownCwd(cx, "command") {
		return
	}
	if len(files) == 0 {
		files = []string{"GNUmakefile", "makefile", "Makefile"}
	}
	for _, f := range files {
		if p, ok := a.resolve(cx, f); ok && p != "" {
			a.runs(Item{Kind: KindFile, Path: p, Source: "command", Why: name + " runs its recipes"})
		}
	}
	a.whole("command", name+" runs recipes that are not followed")
}

// packageManager follows npm, pnpm, yarn and bun: `run`, `start`, `test`
// and friends run a package.json script (and its pre/post scripts) with
// node_modules/.bin first on PATH; `exec`, `dlx` and `x` are package
// runners.
func (a *analyzer) packageManager(name string, args []word, cx context) {
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if n, ok := a.dirOption(args, i, &cx); ok {
			i = n
			continue
		}
		switch {
		case name == "bun" && (t == "-e" || t == "--eval" || t == "-p" || t == "--print"):
			ops = append(ops, args[i:]...)
			i = len(args)
		case strings.HasPrefix(t, "-"):
		default:
			ops = append(ops, args[i:]...)
			i = len(args)
		}
	}
	// npm, pnpm and yarn take their directory option after the command too
	// (npm run start --prefix server), up to "--"; exec, x and dlx hand
	// what follows to the package.
	if len(ops) > 0 && ops[0].text != "exec" && ops[0].text != "x" && ops[0].text != "dlx" {
		for i := 1; i < len(ops) && ops[i].text != "--"; i++ {
			if n, ok := a.dirOption(ops, i, &cx); ok {
				i = n
			}
		}
	}
	if a.unknownCwd(cx, "command") {
		return
	}
	a.jsRunnerConfig(name, cx)
	if len(ops) == 0 {
		return
	}
	sub := ops[0].text
	switch {
	case sub == "exec" || sub == "x" || sub == "dlx":
		a.npx(name+" "+sub, ops[1:], cx)
		return
	case sub == "run" || sub == "run-script" || sub == "rum" || sub == "urn":
		rest := skipOptions(ops[1:])
		if len(rest) == 0 {
			return
		}
		if name == "bun" && rest[0].lit && strings.ContainsAny(rest[0].text, "./") {
			// bun run FILE runs the file when there is one, else a script.
			if p, ok := a.resolve(cx, rest[0].text); ok && p != "" {
				a.jsEntry(cx, p, rest[0].source, "bun runs it")
			}
		}
		a.packageScript(name, rest[0], cx)
	case sub == "start" || sub == "test" || sub == "t" || sub == "restart" || sub == "stop" || sub == "tst":
		script := map[string]string{"t": "test", "tst": "test"}[sub]
		if script == "" {
			script = sub
		}
		a.packageScript(name, word{text: script, lit: true, source: ops[0].source}, cx)
	case name == "npm":
		// Other npm commands (install, ci) run lifecycle scripts too.
		if sub == "install" || sub == "i" || sub == "ci" || sub == "rebuild" {
			a.whole(ops[0].source, "npm "+sub+" runs the packages' install scripts")
		}
	case sub == "install" || sub == "add" || sub == "i":
		a.whole(ops[0].source, name+" "+sub+" runs the packages' install scripts")
	case name == "bun" && (sub == "-e" || sub == "--eval" || sub == "-p" || sub == "--print"):
		if len(ops) > 1 {
			a.b.s.Inline = append(a.b.s.Inline, Inline{Program: "bun", Flag: sub, Code: ops[1].text, Source: ops[1].source})
		}
	default:
		// yarn X, pnpm X, bun X: a script of that name, else a bin (bun: a file).
		if name == "bun" {
			if p, ok := a.resolve(cx, sub); ok && a.stat(p).Kind != Missing && a.stat(p).Kind != Dir {
				a.jsEntry(cx, p, ops[0].source, "bun runs it")
				return
			}
		}
		a.packageScript(name, ops[0], cx)
	}
}

// dirOption applies a package manager's directory option at ws[i]
// (--prefix, -C, --cwd, --dir, with its value as the next word or after
// "="); it returns the index of the option's last word.
func (a *analyzer) dirOption(ws []word, i int, cx *context) (int, bool) {
	t := ws[i].text
	switch {
	case (t == "--prefix" || t == "-C" || t == "--cwd" || t == "--dir") && i+1 < len(ws):
		a.chdir(cx, ws[i+1].text, ws[i+1].lit, "command")
		return i + 1, true
	case strings.HasPrefix(t, "--prefix=") || strings.HasPrefix(t, "--cwd=") || strings.HasPrefix(t, "--dir="):
		_, v, _ := strings.Cut(t, "=")
		a.chdir(cx, v, ws[i].lit, "command")
		return i, true
	}
	return i, false
}

// packageScript binds the text of a package.json script, its pre and post
// scripts, and what they run (as sh runs them, from the package directory,
// with node_modules/.bin on PATH).
func (a *analyzer) packageScript(manager string, w word, cx context) {
	if !w.lit {
		a.whole(w.source, manager+" runs a script named at run time")
		return
	}
	pjPath := joinDir(cx.cwd, "package.json")
	if a.fs == nil {
		a.runs(Item{Kind: KindFile, Path: pjPath, Source: w.source, Why: manager + " runs a script from it"})
		return
	}
	pj, ok, tooLarge := a.readPackageJSON(cx.cwd)
	if !ok {
		// Unreadable or invalid: bind the file itself, and past the read
		// limit what its scripts could run too: they are not known.
		a.runs(Item{Kind: KindFile, Path: pjPath, Source: w.source, Why: manager + " runs a script from it"})
		if tooLarge {
			a.whole(w.source, pjPath+" is too large to read: its scripts may run any program of the repository")
		}
		return
	}
	next := cx.with()
	next.depth++
	bins := []string{}
	for d := cx.cwd; ; d = dirOf(d) {
		bins = append(bins, joinDir(d, "node_modules/.bin"))
		if d == "" {
			break
		}
	}
	if p := next.env["PATH"]; p != "" {
		next.env["PATH"] = strings.Join(relBins(cx.cwd, bins), ":") + ":" + p
	} else {
		next.env["PATH"] = strings.Join(relBins(cx.cwd, bins), ":")
	}
	for _, name := range []string{"pre" + w.text, w.text, "post" + w.text} {
		v, _ := pj.Scripts[name].(string)
		a.runs(Item{Kind: KindText, Path: pjPath, Key: "scripts." + name, Text: v, Source: w.source,
			Why: manager + " runs this script"})
		if v != "" {
			a.shellScript(v, pjPath, w.source, next, nil)
		}
	}
	if w.text == "start" && pj.Scripts["start"] == nil {
		// npm start without a script runs `node server.js`.
		a.jsEntry(cx, joinDir(cx.cwd, "server.js"), w.source, "npm start runs it when package.json has no start script")
	}
}

// relBins writes repository directories relative to dir, for PATH.
func relBins(dir string, bins []string) []string {
	out := make([]string, len(bins))
	for i, b := range bins {
		out[i] = relFrom(dir, b)
	}
	return out
}

// npxValueFlags are options of npx and its kin that take a value.
var npxValueFlags = map[string]bool{"-p": true, "--package": true, "-c": true, "--call": true, "--registry": true,
	"--cache": true, "--userconfig": true, "--prefix": true, "--node-options": true, "-w": true, "--workspace": true,
	"--scope": true, "--loglevel": true, "--include": true, "--omit": true, "--shell": true, "--cwd": true, "--dir": true, "-C": true}

// npx follows npx, npm exec, pnpm dlx, yarn dlx, bunx: a package that is
// installed in the repository's node_modules (here or in a directory
// above) runs from there, through its real bin.
func (a *analyzer) npx(runner string, args []word, cx context) {
	var pkgs []word
	named := false
	i := 0
	for ; i < len(args); i++ {
		t := args[i].text
		if t == "--" {
			i++
			break
		}
		if !strings.HasPrefix(t, "-") {
			break
		}
		opt, val, inline := strings.Cut(t, "=")
		if !npxValueFlags[opt] {
			continue
		}
		v := word{text: val, lit: args[i].lit, source: args[i].source}
		if !inline {
			if i+1 >= len(args) {
				break
			}
			i++
			v = args[i]
		}
		switch opt {
		case "-p", "--package":
			pkgs, named = append(pkgs, v), true
		case "-c", "--call":
			a.shellScript(v.text, "", v.source, cx, nil) // a shell command line (MG202's, not inline code)
		case "--prefix", "-C", "--cwd", "--dir":
			a.chdir(&cx, v.text, v.lit, "command")
		case "--node-options":
			a.nodeOptions(nodeOptionWords(v.text), v.source, cx)
		}
	}
	if a.unknownCwd(cx, "command") {
		return
	}
	a.jsRunnerConfig(strings.Fields(runner)[0], cx)
	var bin word
	if i < len(args) {
		bin = args[i]
		if !named {
			pkgs = append(pkgs, bin)
		}
	}
	for _, p := range pkgs {
		if !p.lit {
			a.whole(p.source, runner+" runs a package named at run time")
			continue
		}
		local := strings.TrimPrefix(p.text, "file:")
		if lp, ok := a.resolve(cx, local); ok && (local != p.text || strings.HasPrefix(local, ".") || strings.HasPrefix(local, "/")) {
			a.runs(Item{Kind: KindTree, Path: lp, Source: p.source, Why: runner + " runs this local package"})
			continue
		}
		a.nodePackage(p.text, p.source, cx, runner+" runs the copy installed here in place of the registry's")
		a.localBins(p.text, p.source, runner, cx)
	}
	if bin.lit && bin.text != "" && named {
		a.binLink(bin.text, bin.source, runner, cx)
	}
	// A fetched program whose arguments say what runs (tsx server.ts),
	// or one the model does not know, whose arguments may (foreign).
	if bin.lit && i < len(args) {
		switch b := binName(bin.text); b {
		case "tsx", "ts-node", "ts-node-esm", "esno", "vite-node", "node":
			a.argv(append([]word{{text: b, lit: true, source: bin.source}}, args[i+1:]...), cx)
		default:
			a.foreign(args[i+1:], cx)
		}
	}
}

// binName is the program a package spec runs by default: its unscoped
// name without a version.
func binName(spec string) string {
	name := packageName(spec)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// localBins binds the bins a locally installed package declares (its real
// names, read from its package.json), or the name npx guesses.
func (a *analyzer) localBins(spec, source, runner string, cx context) {
	name := packageName(spec)
	if name == "" {
		return
	}
	guess := name
	if i := strings.LastIndexByte(guess, '/'); i >= 0 {
		guess = guess[i+1:]
	}
	a.binLink(guess, source, runner, cx)
	for d := cx.cwd; ; d = dirOf(d) {
		dir := joinDir(d, "node_modules/"+name)
		pj, ok, tooLarge := a.readPackageJSON(dir)
		if tooLarge {
			// Its bins, and what their #! lines start, are not known.
			a.whole(source, joinDir(dir, "package.json")+" is too large to read: the bins "+runner+" may run are not known")
		}
		if ok {
			for b, target := range pj.bins() {
				a.binLink(b, source, runner, cx)
				if p, ok := repoPath(dir, target); ok && p != "" {
					a.jsEntry(cx, p, source, runner+" runs the installed package's bin "+b)
				}
			}
		}
		if d == "" {
			break
		}
	}
}

// binLink binds node_modules/.bin/NAME in the working directory and above.
func (a *analyzer) binLink(name, source, runner string, cx context) {
	if strings.ContainsAny(name, `/\`) || name == "" || name == "." || name == ".." {
		return
	}
	for d := cx.cwd; ; d = dirOf(d) {
		a.add(Item{Kind: KindFile, Path: joinDir(d, "node_modules/.bin/"+name), Source: source, Why: runner + " runs this installed bin"})
		if d == "" {
			break
		}
	}
}

// uv follows `uv [--directory D] [--project P] run ...` and uvx / `uv tool
// run`: a project run uses the project's pyproject.toml, lock file, code
// and the launch directory's modules; a tool run reads only uv's settings.
func (a *analyzer) uv(name string, args []word, cx context) {
	project := ""
	noProject := false
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		opt, val, inline := strings.Cut(t, "=")
		takes := opt == "--directory" || opt == "--project" || opt == "--config-file" || opt == "--env-file" ||
			opt == "--with" || opt == "--with-requirements" || opt == "--python" || opt == "-p" || opt == "--from" ||
			opt == "--index" || opt == "--index-url" || opt == "--default-index" || opt == "--extra-index-url" || opt == "--cache-dir" ||
			opt == "--package" || opt == "--group" || opt == "--extra"
		if takes && !inline && i+1 < len(args) {
			i++
			val = args[i].text
		}
		switch {
		case opt == "--directory":
			a.chdir(&cx, val, args[i].lit, "command")
		case opt == "--project":
			project = val
		case opt == "--config-file" || opt == "--env-file" || opt == "--with-requirements":
			a.fileWord(cx, word{text: val, lit: args[i].lit, source: args[i].source}, "uv reads it")
		case opt == "--from" || opt == "--with":
			if strings.HasPrefix(val, ".") || strings.HasPrefix(val, "/") {
				if p, ok := a.resolve(cx, val); ok {
					a.runs(Item{Kind: KindTree, Path: p, Source: args[i].source, Why: "uv installs and runs this local package"})
				}
			}
		case t == "--no-project" || t == "--isolated" || t == "--script":
			noProject = true
		case takes:
		case strings.HasPrefix(t, "-"):
		default:
			ops = append(ops, args[i])
		}
		// Options may follow the subcommand (uv run --project p x); the
		// first operand after it is the target, whose own arguments follow.
		if uvTarget(name, ops) {
			ops = append(ops, args[i+1:]...)
			break
		}
	}
	if a.unknownCwd(cx, "command") {
		return
	}
	for _, f := range []string{"uv.toml", "pyproject.toml"} {
		for d := cx.cwd; ; d = dirOf(d) {
			if f == "uv.toml" || name == "uv" {
				a.add(Item{Kind: KindFile, Path: joinDir(d, f), Source: "command", Why: "uv reads its settings (indexes, sources) from it"})
			}
			if d == "" {
				break
			}
		}
	}
	tool := name == "uvx"
	if !tool && len(ops) >= 2 && ops[0].text == "tool" && ops[1].text == "run" {
		tool, ops = true, ops[1:]
	}
	if tool {
		if name == "uvx" {
			ops = append([]word{{text: "run", lit: true, source: "command"}}, ops...)
		}
		if len(ops) > 1 {
			if p, ok := a.resolve(cx, ops[1].text); ok && (strings.HasPrefix(ops[1].text, ".") || strings.HasPrefix(ops[1].text, "/")) {
				a.runs(Item{Kind: KindTree, Path: p, Source: ops[1].source, Why: "uvx installs and runs this local package"})
			}
			// The tool is fetched: what its arguments may run is followed.
			a.foreign(ops[2:], cx)
		}
		return
	}
	if len(ops) == 0 || ops[0].text != "run" {
		return
	}
	a.projectVenv("uv run", ops[0].source, cx)
	a.uvPythonVersion(ops[0].source, cx)
	rest := ops[1:]
	pdir, inRepo := cx.cwd, true
	if project != "" {
		pdir, inRepo = a.resolve(cx, project)
	}
	if !noProject && inRepo {
		for _, f := range []string{"pyproject.toml", "uv.lock", ".python-version"} {
			a.add(Item{Kind: KindFile, Path: joinDir(pdir, f), Source: ops[0].source, Why: "uv run installs and runs the project it describes"})
		}
		a.runs(Item{Kind: KindCode, Lang: "python", Path: pdir, Source: ops[0].source,
			Why: "uv run installs the project itself: any change to its Python code re-gates this server"})
		a.uvSources(pdir, ops[0].source)
	}
	if len(rest) == 0 {
		return
	}
	// uv run SCRIPT.py runs python on it; uv run CMD runs CMD from the
	// environment (a project script, or a program).
	if strings.HasSuffix(rest[0].text, ".py") || strings.HasSuffix(rest[0].text, ".pyw") {
		a.python("python", rest, cx)
		return
	}
	a.argv(rest, cx)
}

// uvTarget reports whether ops ends with the target of the command.
func uvTarget(name string, ops []word) bool {
	switch {
	case len(ops) == 0:
		return false
	case name == "uvx":
		return true
	case ops[0].text == "run":
		return len(ops) == 2
	case ops[0].text == "tool":
		return len(ops) == 3 || (len(ops) == 2 && ops[1].text != "run")
	}
	return true
}

// deno follows `deno run|serve|task|x`: a file's import graph (URLs and
// npm: specifiers are not the repository's), deno.json's tasks and import
// map.
func (a *analyzer) deno(args []word, cx context) {
	rest := skipOptions(args, "--config", "-c", "-L", "--log-level")
	if a.unknownCwd(cx, "command") {
		return
	}
	for _, f := range []string{"deno.json", "deno.jsonc", "deno.lock", "package.json"} {
		a.add(Item{Kind: KindFile, Path: joinDir(cx.cwd, f), Source: "command", Why: "deno reads its import map, tasks and lock from it"})
		// An import map in a file of its own re-maps specifiers too.
		if data, ok := a.readConfig(joinDir(cx.cwd, f), "command", cx, reachJS); ok && strings.HasPrefix(f, "deno.json") {
			var cfg struct {
				ImportMap string `json:"importMap"`
			}
			if json.Unmarshal(stripJSONC(data), &cfg) == nil && cfg.ImportMap != "" {
				if p, ok := a.resolve(cx, cfg.ImportMap); ok && p != "" {
					a.runs(Item{Kind: KindFile, Path: p, Source: "command", Why: f + ": deno maps specifiers through this import map"})
				}
			}
		}
	}
	if len(rest) == 0 {
		return
	}
	switch rest[0].text {
	case "eval":
		if code := skipOptions(rest[1:], "--config", "-c", "--ext", "--location", "--seed", "--import-map"); len(code) > 0 {
			a.b.s.Inline = append(a.b.s.Inline, Inline{Program: "deno", Flag: "eval", Code: code[0].text, Source: code[0].source})
		}
	case "task":
		for _, f := range []string{"deno.json", "deno.jsonc"} {
			a.runs(Item{Kind: KindFile, Path: joinDir(cx.cwd, f), Source: rest[0].source, Why: "deno task runs a task defined by the repository's deno.json"})
		}
		a.whole(rest[0].source, "deno task runs a task that is not followed")
	case "run", "serve":
		op := skipOptions(rest[1:], "--config", "-c", "--import-map", "--lock", "--cert", "--location", "--seed", "--ext", "--env-file", "--port", "--host")
		if len(op) > 0 && op[0].lit && !strings.Contains(op[0].text, ":") {
			if p, ok := a.resolve(cx, op[0].text); ok {
				a.jsEntry(cx, p, op[0].source, "deno runs it")
			}
		}
	}
}

// otherInterpreter follows perl, ruby, php, lua and the like: the script
// operand is bound, and the directory it is in, which these interpreters
// load further files from (require_relative, include, use lib).
func (a *analyzer) otherInterpreter(name string, args []word, cx context) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if code, flag, ok := inlineFlag(name, args, i); ok {
			a.b.s.Inline = append(a.b.s.Inline, Inline{Program: name, Flag: flag, Code: code.text, Source: code.source})
			a.add(Item{Kind: KindTree, Path: cx.cwd, Source: args[i].source, Why: name + " " + t + " runs inline code that may load files from here"})
			return
		}
		if t == "--" && i+1 < len(args) {
			i++
		} else if strings.HasPrefix(t, "-") {
			continue
		}
		if !args[i].lit {
			a.whole(args[i].source, name+" runs a script named at run time")
			return
		}
		if a.unknownCwd(cx, args[i].source) {
			return
		}
		if p, ok := a.resolve(cx, args[i].text); ok && p != "" {
			a.runs(Item{Kind: KindFile, Path: p, Source: args[i].source, Why: name + " runs it"})
			a.b.gap(args[i].source, "what "+name+" loads beyond "+p+" is not followed")
			a.add(Item{Kind: KindTree, Path: dirOf(p), Source: args[i].source,
				Why: name + " may load other files from the script's directory: any change under it re-gates this server"})
		}
		return
	}
}

// inlineFlag finds an inline-code option at args[i]: perl's and ruby's
// -e may be combined with other letters (-ne, -lane) and hold the code in
// the rest of the word; php -r, lua -e, Rscript -e and osascript -e take
// the next word.
func inlineFlag(name string, args []word, i int) (code word, flag string, ok bool) {
	t := args[i].text
	next := func() word {
		if i+1 < len(args) {
			return args[i+1]
		}
		return word{}
	}
	switch name {
	case "perl", "ruby":
		if len(t) < 2 || t[0] != '-' || t[1] == '-' {
			return word{}, "", false
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if c == 'e' || c == 'E' {
				if j+1 < len(t) {
					return word{text: t[j+1:], lit: args[i].lit, source: args[i].source}, "-" + string(c), true
				}
				return next(), "-" + string(c), true
			}
			if strings.IndexByte("IMmxdDCV0lirFKTWx", c) >= 0 && c != 'l' && c != 'i' {
				return word{}, "", false // the rest of the word is this option's value
			}
		}
	case "php":
		if t == "-r" {
			return next(), t, true
		}
	default:
		if t == "-e" {
			return next(), t, true
		}
	}
	return word{}, "", false
}

// container follows docker/podman: a bind mount of a repository directory
// makes its content what the container runs; compose builds from the
// repository.
func (a *analyzer) container(name string, args []word, cx context) {
	sub := skipOptions(args, "-H", "--host", "--context", "-c", "--config", "-l", "--log-level")
	if name == "docker-compose" || (len(sub) > 0 && sub[0].text == "compose") {
		rest := sub
		if name != "docker-compose" {
			rest = sub[1:]
		}
		ops := skipOptions(rest, "-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--progress", "--parallel")
		for _, f := range []string{"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"} {
			it := Item{Kind: KindFile, Path: joinDir(cx.cwd, f), Source: "command", Why: name + " compose starts the services this file defines"}
			if len(ops) > 0 && (ops[0].text == "run" || ops[0].text == "up" || ops[0].text == "start" || ops[0].text == "create") {
				it.Source = ops[0].source
				a.runs(it)
			} else {
				a.add(it)
			}
		}
		a.whole("command", name+" compose builds and runs what the repository's compose files say")
		return
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		var src string
		switch {
		case (t == "-v" || t == "--volume") && i+1 < len(args):
			src, _, _ = strings.Cut(args[i+1].text, ":")
			i++
		case strings.HasPrefix(t, "--volume="):
			src, _, _ = strings.Cut(strings.TrimPrefix(t, "--volume="), ":")
		case t == "--mount" && i+1 < len(args):
			src = mountSource(args[i+1].text)
			i++
		case strings.HasPrefix(t, "--mount="):
			src = mountSource(strings.TrimPrefix(t, "--mount="))
		default:
			continue
		}
		if src == "$PWD" || src == "${PWD}" || src == "$(pwd)" {
			src = "."
		}
		if p, ok := a.resolve(cx, src); ok && (strings.HasPrefix(src, ".") || strings.HasPrefix(src, "/")) {
			a.add(Item{Kind: KindTree, Path: p, Source: args[i].source, Why: name + " mounts it into the container it runs"})
		}
	}
}

func mountSource(spec string) string {
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "source" || k == "src" {
			return v
		}
	}
	return ""
}
