package launch

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	yaml "go.yaml.in/yaml/v3"
)

// The configuration files the JavaScript runners read, from their own
// documentation (SECURITY.md, "What a runner reads", lists each with the
// rule that applies):
//
//   - npm, npx, pnpm, yarn 1: .npmrc in the project (npm's localPrefix, the
//     nearest directory with a package.json or node_modules at or above the
//     working directory) and the files its userconfig / globalconfig
//     settings name; node-options, script-shell, registry and the like
//     change what runs.
//   - yarn 1: .yarnrc in the working directory and each directory above
//     (yarn-path runs another yarn).
//   - yarn 2+: .yarnrc.yml in the working directory and each directory
//     above (yarnPath, plugins, injectEnvironmentFiles), the project's
//     .pnp.cjs / .pnp.loader.mjs (loaded into every node it starts) and
//     .env.yarn.
//   - pnpm: pnpm-workspace.yaml and .pnpmfile.cjs at the workspace root.
//   - corepack: package.json "packageManager" picks the package manager
//     (a version, or a URL).
//   - bun: bunfig.toml in the working directory (preload, plugins, the run
//     shell) and the .env files it loads by itself.
//
// Everything above the repository root (the user's ~/.npmrc and the
// like) is the user's own and not the repository's.

// jsRunnerConfig binds what a JavaScript runner (npm, npx, pnpm, yarn,
// bun and their exec forms) reads to decide what runs, from the working
// directory up to the repository root.
func (a *analyzer) jsRunnerConfig(name string, cx context) {
	if cx.unknown || a.read["rc:"+name+":"+cx.cwd] {
		return
	}
	a.read["rc:"+name+":"+cx.cwd] = true
	const src = "command"
	for d := cx.cwd; ; d = dirOf(d) {
		a.npmrc(joinDir(d, ".npmrc"), src, name, cx, 0)
		if name == "yarn" {
			// (A script that starts yarn is followed to here too.)
			a.yarnrc(d, name, cx)
		}
		for _, f := range []string{"pnpm-workspace.yaml", ".pnpmfile.cjs"} {
			if name == "pnpm" || name == "pnpx" {
				a.add(Item{Kind: KindFile, Path: joinDir(d, f), Source: src, Why: "pnpm reads its settings and install hooks from it"})
			}
		}
		if name == "pnpm" || name == "pnpx" {
			a.pnpmWorkspace(joinDir(d, "pnpm-workspace.yaml"), name, cx)
		}
		// corepack shims yarn and pnpm (npm only when told to) and runs
		// the package manager package.json's packageManager names.
		if name == "yarn" || name == "pnpm" || name == "pnpx" {
			a.corepack(d, src)
		}
		if d == "" {
			break
		}
	}
	if name == "bun" || name == "bunx" {
		a.bunfig(cx)
	}
}

// corepack binds the packageManager field of dir/package.json: corepack
// runs the package manager (a version, or a URL) it names. One too large
// to read binds its whole content: the field is not known, and the file
// is not absent.
func (a *analyzer) corepack(dir, source string) {
	p := joinDir(dir, "package.json")
	pj, ok, tooLarge := a.readPackageJSON(dir)
	switch {
	case tooLarge:
		a.b.gap(source, p+" is too large to read: the package manager corepack runs is bound by the whole file")
		a.add(Item{Kind: KindFile, Path: p, Source: source,
			Why: "corepack runs the package manager its packageManager names, which cannot be read: any change to it re-gates this server"})
	case ok || a.stat(p).Kind != Missing:
		a.add(Item{Kind: KindText, Path: p, Key: "packageManager", Text: pj.PackageManager,
			Source: source, Why: "corepack runs the package manager (version or URL) it names"})
	}
}

// npmrc binds one .npmrc and follows the settings that name code or more
// configuration.
func (a *analyzer) npmrc(p, source, runner string, cx context, depth int) {
	a.add(Item{Kind: KindFile, Path: p, Source: source,
		Why: runner + " reads its settings (registry, node-options, script-shell, userconfig) from it"})
	if depth > 4 || a.read["npmrc:"+p] {
		return
	}
	a.read["npmrc:"+p] = true
	data, ok := a.readConfig(p, source, cx, reachAny)
	if !ok {
		return
	}
	dir := dirOf(p)
	for _, kv := range parseIni(data) {
		a.npmSetting(kv[0], kv[1], p, dir, source, runner, cx, depth)
	}
}

// npmSetting follows one npm setting (from a .npmrc, or an npm_config_*
// variable): the ones that load code or name another configuration file.
func (a *analyzer) npmSetting(key, val, file, dir, source, runner string, cx context, depth int) {
	// npm expands ${VAR} in keys and values from its environment (npm
	// 11: `node${E}-options` with E empty, and `--require ${PWD}/x.js`,
	// both loaded x.js). ${PWD} and ${INIT_CWD} are the launch directory
	// in node-options; any other variable in a key that could name a
	// setting, or in a setting that loads code, is known only at run time.
	if strings.Contains(key, "${") && !strings.HasPrefix(key, "//") && !strings.HasPrefix(key, "@") {
		a.whole(source, file+": a setting named through an environment variable ("+Clip(key, 80)+")")
		return
	}
	key = strings.ReplaceAll(strings.ToLower(key), "_", "-")
	if strings.Contains(val, "${") && npmCodeSettings[key] {
		if key == "node-options" {
			val = strings.NewReplacer("${PWD}", ".", "${INIT_CWD}", ".").Replace(val)
		}
		if strings.Contains(val, "${") {
			a.whole(source, file+": "+key+" names a path through an environment variable")
			return
		}
	}
	from := cx
	from.cwd = dir
	switch key {
	case "node-options":
		a.nodeOptions(nodeOptionWords(val), source, cx)
	case "userconfig", "globalconfig":
		if p, ok := a.resolve(from, val); ok && p != "" {
			a.npmrc(p, source, runner, cx, depth+1)
		}
	case "script-shell", "shell", "init-module", "onload-script", "editor", "browser", "viewer", "git":
		if p, ok := a.resolve(from, val); ok && p != "" && (strings.ContainsAny(val, "/") || strings.HasPrefix(val, ".")) {
			a.runs(Item{Kind: KindFile, Path: p, Source: source, Why: file + ": " + key + " names a program " + runner + " runs"})
			a.scriptFile(p, source, cx, nil, shellRun{})
		}
	default:
		// Any other value naming a repository path (cafile, prefix, cache)
		// is bound as it is.
		if strings.HasPrefix(val, ".") || strings.Contains(val, "/") && !strings.Contains(val, "://") {
			if p, ok := a.resolve(from, val); ok && p != "" {
				a.add(Item{Kind: KindFile, Path: p, Source: source, Why: file + ": " + key + " names it"})
			}
		}
	}
}

// npmCodeSettings are the npm settings whose value names code npm (or
// the node it starts) runs, or more configuration.
var npmCodeSettings = map[string]bool{
	"node-options": true, "userconfig": true, "globalconfig": true, "script-shell": true, "shell": true,
	"init-module": true, "onload-script": true, "editor": true, "browser": true, "viewer": true, "git": true,
}

// pnpmWorkspace follows the settings pnpm 10 reads from
// pnpm-workspace.yaml, in camelCase, as their .npmrc spelling (pnpm
// 10.34 preloaded nodeOptions' --require and ran scriptShell from there).
func (a *analyzer) pnpmWorkspace(p, runner string, cx context) {
	const src = "command"
	data, ok := a.readConfig(p, src, cx, reachAny)
	if !ok {
		return
	}
	var cfg map[string]any
	if err := decodeTree(yaml.Unmarshal, data, &cfg); err != nil {
		a.unreadable(src, treeProblem(p, "YAML", err), cx, reachAny)
		return
	}
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
		if v, ok := cfg[k].(string); ok {
			a.npmSetting(kebab(k), v, p, dirOf(p), src, runner, cx, 0)
		}
	}
}

// kebab spells a camelCase setting name as .npmrc does (nodeOptions is
// node-options).
func kebab(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// parseIni reads npm's ini format: key = value lines, ';' and '#'
// comments, quoted values; [sections] are kept in the key ("sec.key").
func parseIni(data []byte) [][2]string {
	var out [][2]string
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if line[0] == '[' && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			var s string
			if v[0] == '"' && json.Unmarshal([]byte(v), &s) == nil {
				v = s
			} else {
				v = v[1 : len(v)-1]
			}
		}
		// ${VAR} in a value is expanded by npm from the environment.
		if section != "" {
			k = section + "." + k
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// yarnrc binds yarn's configuration files in dir and follows what they
// make yarn run: another yarn release, plugins, the PnP loader, an env
// file.
func (a *analyzer) yarnrc(dir, runner string, cx context) {
	const src = "command"
	rc := joinDir(dir, ".yarnrc")
	a.add(Item{Kind: KindFile, Path: rc, Source: src, Why: "yarn 1 reads its settings (yarn-path, script-shell) from it"})
	if data, ok := a.readConfig(rc, src, cx, reachAny); ok {
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || strings.HasPrefix(f[0], "#") {
				continue
			}
			key, val := strings.Trim(f[0], `"`), strings.Trim(strings.Join(f[1:], " "), `"'`)
			switch {
			case key == "yarn-path":
				a.yarnRelease(dir, val, rc, cx)
			case strings.HasPrefix(key, "--"):
				a.add(Item{Kind: KindFile, Path: rc, Source: src, Runs: true, Why: "yarn 1 adds the options it lists to every command"})
			default:
				// yarn 1 reads npm's settings from it too: yarn 1.22.22
				// ran its script-shell, a path relative to the script's
				// directory.
				a.npmSetting(key, val, rc, cx.cwd, src, runner, cx, 0)
			}
		}
	}
	yml := joinDir(dir, ".yarnrc.yml")
	a.add(Item{Kind: KindFile, Path: yml, Source: src, Why: "yarn reads its settings (yarnPath, plugins, registries) from it"})
	// yarn 4 adds .env.yarn to every script's environment unless told
	// otherwise.
	envs := []string{".env.yarn?"}
	data, ok := a.readConfig(yml, src, cx, reachAny)
	if ok {
		var cfg struct {
			YarnPath               string   `yaml:"yarnPath"`
			Plugins                []any    `yaml:"plugins"`
			InjectEnvironmentFiles []string `yaml:"injectEnvironmentFiles"`
		}
		var raw map[string]any
		if err := decodeTree(yaml.Unmarshal, data, &raw, &cfg); err != nil {
			// Its env files may set PATH: any program.
			a.unreadable(src, treeProblem(yml, "YAML", err), cx, reachAny)
		} else {
			// yarn expands ${NAME}, ${NAME:-fallback} and ${NAME-fallback}
			// in setting values: a path built that way is known only at
			// run time. A release or a plugin is JavaScript; an env file
			// may set PATH.
			computed := func(what, v string, r reach) bool {
				if strings.Contains(v, "${") {
					a.unreadable(src, yml+": "+what+" names a path through an environment variable", cx, r)
					return true
				}
				return false
			}
			if cfg.YarnPath != "" && !computed("yarnPath", cfg.YarnPath, reachJS) {
				a.yarnRelease(dir, cfg.YarnPath, yml, cx)
			}
			for _, pl := range cfg.Plugins {
				p, _ := pl.(string)
				if m, ok := pl.(map[string]any); ok {
					p, _ = m["path"].(string)
				}
				if p == "" {
					a.unsure(src, yml+": a plugin whose path cannot be read", cx)
					continue
				}
				if computed("a plugin", p, reachJS) {
					continue
				}
				if q, ok := repoPath(dir, p); ok && q != "" {
					a.jsEntry(cx, q, src, yml+": yarn loads this plugin")
				}
			}
			if _, set := raw["injectEnvironmentFiles"]; set {
				envs = slices.DeleteFunc(cfg.InjectEnvironmentFiles, func(e string) bool { return computed("injectEnvironmentFiles", e, reachAny) })
			}
		}
	}
	for _, e := range envs {
		if q, ok := repoPath(dir, strings.TrimSuffix(e, "?")); ok && q != "" {
			next := cx.with()
			a.envFile(q, src, "yarn adds its variables to every script's environment", false, &next)
		}
	}
	// yarn 2+ in PnP mode loads these into every node process it starts.
	for _, f := range []string{".pnp.cjs", ".pnp.js", ".pnp.loader.mjs"} {
		p := joinDir(dir, f)
		a.add(Item{Kind: KindFile, Path: p, Source: src, Why: "yarn loads its Plug'n'Play runtime into every node process it starts"})
		if k := a.stat(p).Kind; k == File || k == Exec {
			a.toolCode(cx, p, src, "yarn loads its Plug'n'Play runtime into every node process it starts")
		}
	}
	a.add(Item{Kind: KindFile, Path: joinDir(dir, ".pnp.data.json"), Source: src, Why: "the Plug'n'Play runtime maps packages to directories from it"})
}

// yarnRelease binds the yarn release a yarnPath / yarn-path runs instead
// of the installed yarn.
func (a *analyzer) yarnRelease(dir, val, file string, cx context) {
	p, ok := repoPath(dir, val)
	if !ok || p == "" {
		if !strings.HasPrefix(val, "/") {
			a.unsure("command", file+": yarn runs "+Clip(val, 120)+", which cannot be placed", cx)
		}
		return
	}
	a.toolCode(cx, p, "command", file+": yarn runs this release in place of the installed yarn")
}

// toolCode binds a package manager's own code and what it loads (RunTool).
func (a *analyzer) toolCode(cx context, p, source, why string) {
	a.runs(Item{Kind: KindFile, Path: p, Source: source, Why: why})
	a.jsScopeFor(cx, p, source, why, RunTool)
}

// bunfig binds bunfig.toml and the .env files bun loads by itself, and
// follows the preloads and plugins it names.
func (a *analyzer) bunfig(cx context) {
	for d := cx.cwd; ; d = dirOf(d) {
		a.bunfigIn(d, cx)
		if d == "" {
			return
		}
	}
}

// bunfigIn binds bunfig.toml and the .env files of one directory.
func (a *analyzer) bunfigIn(dir string, cx context) {
	const src = "command"
	p := joinDir(dir, "bunfig.toml")
	a.add(Item{Kind: KindFile, Path: p, Source: src, Why: "bun reads its settings (preload, plugins, the run shell, registries) from it"})
	for _, f := range []string{".env", ".env.local", ".env.development", ".env.development.local", ".env.production",
		".env.production.local", ".env.test", ".env.test.local"} {
		next := cx.with()
		a.envFile(joinDir(dir, f), src, "bun loads its variables into the environment", false, &next)
	}
	// A loader setting makes any extension JavaScript, so a preload may
	// be any file, and bun's TOML reader is not go-toml: one that cannot be
	// read may make bun run anything.
	data, ok := a.readConfig(p, src, cx, reachAny)
	if !ok {
		return
	}
	var cfg map[string]any
	if err := decodeTree(toml.Unmarshal, data, &cfg); err != nil {
		a.unreadable(src, treeProblem(p, "TOML", err), cx, reachAny)
		return
	}
	var mods []string
	eachString(cfg, "", func(key, v string) {
		if key == "preload" || key == "plugins" || key == "shell" && v != "bun" && v != "system" {
			mods = append(mods, v)
		}
	})
	for _, m := range mods {
		switch {
		case strings.HasPrefix(m, ".") || strings.HasPrefix(m, "/"):
			if q, ok := repoPath(dir, m); ok && q != "" {
				a.jsEntry(cx, q, src, p+": bun loads it before the program")
			}
		default:
			a.nodePackage(m, src, cx, p+": bun loads this package before the program")
		}
	}
}

// reach is what a runner's configuration file can name, and so what one
// the model cannot read binds in place of what it names.
type reach int

const (
	// reachJS: only JavaScript the runner loads (deno.json's import map,
	// a yarn release or plugin): all JavaScript of the repository.
	reachJS reach = iota
	// reachAny: a program the runner starts (.npmrc's and .yarnrc's
	// script-shell, an env file's PATH, .python-version's interpreter):
	// the whole repository.
	reachAny
)

// readConfig reads a runner's configuration file; one too large to read
// binds what it could name (r), never nothing: it is not absent.
func (a *analyzer) readConfig(p, source string, cx context, r reach) ([]byte, bool) {
	data, ok, tooLarge := a.readFile(p)
	if tooLarge {
		a.unreadable(source, p+" is too large to read", cx, r)
	}
	return stripBOM(data), ok
}

// unreadable binds what a configuration file the model cannot read (too
// large, not valid, a value known only at run time) could name: r says
// how far that reaches.
func (a *analyzer) unreadable(source, why string, cx context, r reach) {
	if r == reachAny {
		a.whole(source, why+": it may make the runner start any program of the repository")
		return
	}
	a.unsure(source, why, cx)
}

// stripBOM drops a UTF-8 byte order mark before a configuration file is
// parsed: node (package.json), npm (.npmrc), TypeScript and cargo skip
// it, so a reader that kept it would take the first key for another
// (`\ufeffnode-options`) or the file for invalid. Where a runner keeps it
// (node's --env-file), skipping it binds a superset.
func stripBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
}

// unsure binds all JavaScript of the repository where a runner's
// configuration cannot be read: it may name any of it.
func (a *analyzer) unsure(source, why string, cx context) {
	a.b.gap(source, "unsure: "+why)
	a.add(Item{Kind: KindCode, Lang: "javascript", Path: "", Source: source,
		Why: why + ": it may make the runner load any JavaScript in the repository"})
}

// stripJSONC removes // and /* */ comments and trailing commas outside
// strings, for tsconfig.json and deno.json.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(b) {
				j = len(b) - 1
			}
			out = append(out, b[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
		case c == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
