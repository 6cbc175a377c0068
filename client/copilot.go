package client

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// GitHub Copilot CLI (npm @github/copilot) as observed on 1.0.102 with
// marker servers, isolated homes and a local model endpoint
// (docs/copilot-cli.md, fidelity/copilot_test.go):
//
//   - its workspace servers are in `.mcp.json`, or where a directory has
//     none, `.github/mcp.json` (never both of one directory), in the
//     launch directory and each one above it up to the git top, the
//     nearest winning a name (outside git: the launch directory only);
//     `.vscode/mcp.json` is no longer read;
//   - it reads none of them, and runs no repository hook, unless the
//     folder is trusted: a folder of `trustedFolders` in
//     ~/.copilot/config.json ($COPILOT_HOME) holding the config's
//     directory, --trust-folder for one prompt-mode session, or
//     COPILOT_ALLOW_ALL=true; in a trusted folder every server starts
//     without asking, interactive and under -p alike;
//   - `--disable-mcp-server NAME` keeps exactly that name from starting
//     (case-sensitive, no list syntax, over --enable-mcp-server);
//   - command, args and env values expand $VAR, ${VAR} and
//     ${VAR:-default}, the server's own env included; an undefined
//     variable stays literal;
//   - repository hooks (`.github/hooks/*.json` and `hooks` of
//     `.github/copilot/settings*.json`, of the project root, the git top)
//     run in a
//     trusted folder without asking: each command an entry of kind
//     "hook" (copilotHooks); no flag keeps them from running, so launch
//     starts Copilot CLI only when every one is reviewed;
//   - `hookDirectories` and the plugins the repository's settings enable
//     carry hooks and servers mcp-guard does not see: while any is there
//     the gate stays closed for Copilot CLI.
type copilotClient struct{}

func (copilotClient) ID() ID             { return CopilotCLI }
func (copilotClient) Title() string      { return "Copilot CLI" }
func (copilotClient) Command() string    { return "copilot" }
func (copilotClient) Handover() Handover { return HandDisableNames }
func (copilotClient) Headless() string   { return "" }
func (copilotClient) Binds() string {
	return "Copilot CLI binds nothing to a server or hook: a trusted folder runs every server and hook of its configs"
}

func (copilotClient) Unhanded([]string) string { return "" }

// The files Copilot CLI reads in a workspace, below a directory.
var (
	CopilotMCPFile      = ".mcp.json"
	CopilotGitHubMCP    = filepath.Join(".github", "mcp.json")
	CopilotSettingsFile = filepath.Join(".github", "copilot", "settings.json")
	CopilotLocalFile    = filepath.Join(".github", "copilot", "settings.local.json")
	CopilotHooksDir     = filepath.Join(".github", "hooks")
)

// Copilot CLI's surfaces: `.github/mcp.json`, Claude Code's `.mcp.json`
// (declared there; Copilot CLI reads it too), the repository settings
// and the hook files, whose findings are MG725-MG726.
var (
	_                   = surface.AlsoRead(string(CopilotCLI), KindClaudeMCP)
	KindCopilotMCP      = surface.Register(surface.Spec{Name: "copilot-mcp", Client: string(CopilotCLI), Role: surface.Config, Patterns: []string{"**/.github/mcp.json"}})
	KindCopilotSettings = surface.Register(surface.Spec{Name: "copilot-settings", Client: string(CopilotCLI), Role: surface.Sibling, Entries: true,
		Patterns: []string{"**/.github/copilot/settings.json", "**/.github/copilot/settings.local.json"}})
	KindCopilotHooks = surface.Register(surface.Spec{Name: "copilot-hooks", Client: string(CopilotCLI), Role: surface.Sibling, Entries: true, Patterns: []string{"**/.github/hooks/*.json"}})
	_                = registerDirs(CopilotCLI, "**/.github", "**/.github/copilot", "**/.github/hooks")
)

func (copilotClient) Parse(path string, data []byte) *trust.Config {
	switch {
	case isCopilotHookFile(path):
		return parseCopilotHooks(path, data, trust.CopilotCLI)
	case isCopilotSettings(path):
		return parseCopilotHooks(path, data, trust.VSCode)
	}
	return trust.ParseDialect(path, data, trust.ScopeProject, trust.CopilotCLI)
}

// isCopilotHookFile is true for a `.github/hooks/*.json`, isCopilotSettings
// for a `.github/copilot/settings*.json`.
func isCopilotHookFile(p string) bool {
	d := filepath.Dir(p)
	return strings.EqualFold(filepath.Ext(p), ".json") && strings.EqualFold(filepath.Base(d), "hooks") &&
		strings.EqualFold(filepath.Base(filepath.Dir(d)), ".github")
}

func isCopilotSettings(p string) bool {
	b, d := filepath.Base(p), filepath.Dir(p)
	return (strings.EqualFold(b, "settings.json") || strings.EqualFold(b, "settings.local.json")) &&
		strings.EqualFold(filepath.Base(d), "copilot") && strings.EqualFold(filepath.Base(filepath.Dir(d)), ".github")
}

// parseCopilotHooks reads the `hooks` of a hook file (strict JSON, d
// CopilotCLI) or of the repository settings (JSON with comments): every
// command hook is an entry of kind "hook", named by where it stands
// ("hooks.sessionStart[0]", Claude Code's nested form
// "hooks.PreToolUse[0].hooks[1]"). Observed on 1.0.102: on Linux and
// macOS Copilot CLI runs a hook's `bash` line, else its `command` (a
// `powershell` line alone runs nothing there), with the hook's `env`
// added, in the project root or the hook's `cwd` below it; event names
// are camelCase or PascalCase, the nested form runs too. An `http` or
// `prompt` hook runs nothing here; a hook of another type with a line
// still counts. A file mcp-guard cannot read closes the gate (Copilot CLI
// may read more of it than mcp-guard does).
func parseCopilotHooks(path string, data []byte, d *trust.Dialect) *trust.Config {
	c := &trust.Config{Path: path, Scope: trust.ScopeProject, Dialect: trust.CopilotCLI, SHA256: trust.FileHash(data)}
	if len(strings.TrimSpace(string(data))) == 0 {
		return c
	}
	root, err := trust.DecodeDialect(data, d)
	if err == nil && root.Kind() != "object" {
		err = errors.New("the file is not an object")
	}
	if err != nil {
		return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("Copilot CLI's hooks: %w", err))
	}
	hooks, ok := root.Get("hooks")
	if !ok || hooks.Kind() == "null" {
		return c
	}
	if hooks.Kind() != "object" {
		return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("hooks is %s, not an object", hooks.Kind()))
	}
	for _, ev := range hooks.Keys() {
		v, _ := hooks.Get(ev)
		for _, h := range copilotHookItems(v, "hooks."+ev, 0) {
			s, err := trust.CommandEntry(path, trust.CopilotCLI, EntryHook, h.name, "", "bash", h.line, h.pos, h.extra)
			if err != nil {
				return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("hook %q: %w", h.name, err))
			}
			c.Servers = append(c.Servers, s)
		}
	}
	return c
}

// copilotHook is one command hook: its name, line, position and the
// members that change how it runs (env, cwd).
type copilotHook struct {
	name, line string
	pos        trust.Pos
	extra      map[string]any
}

// copilotHookItems are the command hooks of one event's value: a list of
// hooks, or of Claude Code's matcher groups ({"matcher": …, "hooks": […]}).
func copilotHookItems(v trust.Value, at string, depth int) []copilotHook {
	switch v.Kind() {
	case "array":
		var out []copilotHook
		for i, e := range v.Elems() {
			out = append(out, copilotHookItems(e, fmt.Sprintf("%s[%d]", at, i), depth+1)...)
		}
		return out
	case "object":
		if inner, ok := v.Get("hooks"); ok && depth < 4 {
			return copilotHookItems(inner, at+".hooks", depth+1)
		}
		if t, ok := v.Get("type"); ok {
			if s, _ := t.Str(); s == "http" || s == "prompt" || s == "agent" {
				return nil
			}
		}
		line, ok := v.Get("bash")
		if !ok || !nonBlank(line) {
			line, ok = v.Get("command")
		}
		if !ok || !nonBlank(line) {
			return nil
		}
		s, _ := line.Str()
		h := copilotHook{name: at, line: s, pos: line.Pos(), extra: map[string]any{}}
		if env, ok := v.Get("env"); ok && env.Kind() == "object" {
			m := map[string]any{}
			for _, k := range env.Keys() {
				if x, _ := env.Get(k); x.Kind() == "string" {
					m[k], _ = x.Str()
				}
			}
			h.extra["env"] = m
		}
		if cwd, ok := v.Get("cwd"); ok && nonBlank(cwd) {
			h.extra["cwd"], _ = cwd.Str()
		}
		return []copilotHook{h}
	}
	return nil
}

// copilotWalk is the directories Copilot CLI reads workspace configs
// from, nearest first: the launch directory up to the git top (observed),
// only the launch directory outside git (observed). In the home
// directory a `.mcp.json` is the user's own.
func copilotWalk(dir, gitTop string, env Env) []string {
	fsys := env.fs()
	home := ""
	if h := trust.HomeDir(env.getenv); h != "" {
		home = realDir(h, fsys)
	}
	if gitTop == "" {
		if dir == home {
			return nil
		}
		return []string{dir}
	}
	var out []string
	for _, d := range opencodeWalk(dir, gitTop) {
		if d == home {
			break
		}
		out = append(out, d)
	}
	return out
}

// Configs is, for each directory of the walk, its `.mcp.json`, else its
// `.github/mcp.json`: a directory with a `.mcp.json` (even one that does
// not parse, which Copilot CLI then skips) never has its
// `.github/mcp.json` read (observed). Then the files of the project root
// that hold hooks: the repository settings and the hook files.
func (copilotClient) Configs(launchDir, gitTop string, env Env) ([]string, error) {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	var out []string
	for _, d := range copilotWalk(dir, gitTop, env) {
		for _, n := range []string{CopilotMCPFile, CopilotGitHubMCP} {
			if p := filepath.Join(d, n); present(fsys, p) {
				out = append(out, p)
				break
			}
		}
	}
	hooks, _ := copilotHookFiles(dir, gitTop, env)
	return append(out, hooks...), nil
}

// copilotRoot is the project root Copilot CLI runs hooks from and in: the
// git top, else the launch directory. Observed: started in repo/sub, it
// ran repo's .github/hooks and not sub's, each hook in repo.
func copilotRoot(dir, gitTop string) string {
	if gitTop != "" {
		return gitTop
	}
	return dir
}

// copilotHookFiles are the repository's files that hold Copilot CLI
// hooks, all of the project root (observed: started in repo/sub, neither
// sub's .github/hooks nor its settings' hooks ran):
// `.github/copilot/settings.json` and `settings.local.json`, then
// `.github/hooks/*.json`; unlisted is a hooks directory that is there and
// cannot be listed.
func copilotHookFiles(dir, gitTop string, env Env) (files []string, unlisted string) {
	fsys := env.fs()
	root := copilotRoot(dir, gitTop)
	for _, n := range []string{CopilotSettingsFile, CopilotLocalFile} {
		if p := filepath.Join(root, n); present(fsys, p) {
			files = append(files, p)
		}
	}
	hd := filepath.Join(root, CopilotHooksDir)
	if _, err := fsys.Lstat(hd); err != nil {
		return files, ""
	}
	lister, _ := fsys.(dirLister)
	if lister == nil {
		return files, hd
	}
	ents, err := lister.ReadDir(hd)
	if err != nil {
		return files, hd
	}
	for _, e := range ents {
		if p := filepath.Join(hd, e.Name()); isCopilotHookFile(p) && present(fsys, p) {
			files = append(files, p)
		}
	}
	return files, ""
}

// Spawn expands $VAR, ${VAR} and ${VAR:-default} in command, args and
// env values, looking a name up in the server's own env first, then in
// Copilot CLI's environment (observed: an arg "$K" with env {"K": "v"}
// spawns "v"); an undefined variable stays literal. OPEN: which wins when
// both define a name, and whether cwd expands (read as expanded).
func (copilotClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	if s.Kind != "" {
		return rawSpawn(s)
	}
	own := map[string]string{}
	for _, e := range s.Env {
		if e.IsString {
			own[e.Name] = e.Value
		}
	}
	return geminiClient{}.Spawn(s, func(k string) (string, bool) {
		if v, ok := own[k]; ok {
			return v, true
		}
		return lookup(k)
	})
}

// CopilotState is Copilot CLI's folder trust for one launch directory and
// what the repository makes it run besides its servers.
type CopilotState struct {
	// Trusted are the trusted folders (real paths) from the user's
	// config; All is set when COPILOT_ALLOW_ALL=true trusts the launch
	// directory (and, read soundly, every config of the walk).
	Trusted []string
	All     bool
	// Source is how messages name the file that decides.
	Source string
	// Extras are the repository's hook directories and plugin settings,
	// which run in a trusted folder and which mcp-guard does not review.
	Extras []string
	// Root is the project root Copilot CLI runs the hooks from.
	Root string
	// Used: Copilot CLI's home directory is there (~/.copilot), or launch
	// is starting it now (Env.uses), so its session may be trusted at its
	// prompt.
	Used bool
}

// copilotHome is $COPILOT_HOME, else ~/.copilot, and how messages name it.
func copilotHome(env Env) (dir, shown string) {
	if h := env.getenv("COPILOT_HOME"); h != "" {
		return h, "$COPILOT_HOME"
	}
	return filepath.Join(trust.HomeDir(env.getenv), ".copilot"), "~/.copilot"
}

// State reads `trustedFolders` of ~/.copilot/config.json (JSON with
// comments: Copilot CLI writes a comment header) and COPILOT_ALLOW_ALL,
// and looks for the repository's hooks and plugin settings from the
// launch directory up to the git top. A config file that cannot be read
// leaves trust unknown, which closes the gate.
func (copilotClient) State(launchDir, gitTop string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	home, shown := copilotHome(env)
	cs := &CopilotState{Source: shown + "/config.json", Root: copilotRoot(dir, gitTop)}
	st := &State{Client: CopilotCLI, LaunchDir: dir, Copilot: cs}
	cfg := Source{Path: filepath.Join(home, "config.json"), Display: shown + "/config.json"}
	if v, ok := readJSONFile(fsys, &cfg, trust.VSCode); ok {
		if tf, ok := v.Get("trustedFolders"); ok {
			if tf.Kind() != "array" {
				cfg.Err = errors.New("trustedFolders is not a list")
			}
			for _, e := range tf.Elems() {
				if s, ok := e.Str(); ok && filepath.IsAbs(s) {
					cs.Trusted = append(cs.Trusted, realDir(s, fsys))
				}
			}
		}
	}
	st.Sources = append(st.Sources, cfg)
	cs.Used = env.uses(CopilotCLI, home)
	if env.getenv("COPILOT_ALLOW_ALL") == "true" {
		cs.All, cs.Source = true, "COPILOT_ALLOW_ALL=true"
	}
	if _, unlisted := copilotHookFiles(dir, gitTop, env); unlisted != "" {
		cs.Extras = append(cs.Extras, unlisted+" (cannot be listed)")
	}
	for _, d := range opencodeWalk(dir, gitTop) {
		for _, n := range []string{CopilotSettingsFile, CopilotLocalFile} {
			p := filepath.Join(d, n)
			src := Source{Path: p, Display: p, RepoSide: true}
			v, ok := readJSONFile(fsys, &src, trust.VSCode)
			if src.Err != nil {
				cs.Extras = append(cs.Extras, p+" (cannot be read: "+src.Err.Error()+")")
			}
			for _, k := range copilotExtraKeys {
				if x, set := v.Get(k); ok && set && nonEmpty(x) {
					cs.Extras = append(cs.Extras, p+": "+k)
				}
			}
		}
		if gitTop == "" {
			break
		}
	}
	if len(cs.Extras) > 0 {
		st.Sources = append(st.Sources, Source{Display: "the repository's hook directories and plugins", RepoSide: true, Present: true,
			Err: fmt.Errorf("Copilot CLI runs them in a trusted folder without asking (%s), and mcp-guard cannot review them", strings.Join(cs.Extras, ", "))})
	}
	return st
}

// unknownWithout: hook directories, plugins or settings mcp-guard cannot
// read leave what Copilot CLI runs unknown with no server or hook found.
func (c copilotClient) unknownWithout(dir, gitTop string, env Env) bool {
	return len(c.State(dir, gitTop, env).Copilot.Extras) > 0
}

// copilotExtraKeys are the repository settings that make Copilot CLI run
// more than the servers and hooks of its files (the settings a repository
// may set, `copilot config --repo`, observed): hooks in directories it
// names, and plugins.
var copilotExtraKeys = []string{"hookDirectories", "enabledPlugins", "extraKnownMarketplaces"}

// nonEmpty is false for null, false, "" and an empty list or object.
func nonEmpty(v trust.Value) bool {
	switch v.Kind() {
	case "null":
		return false
	case "array":
		return len(v.Elems()) > 0
	case "object":
		return len(v.Keys()) > 0
	case "string":
		s, _ := v.Str()
		return s != ""
	case "bool":
		b, _ := v.Bool()
		return b
	}
	return true
}

// trustedBy is the trusted folder holding dir ("" when none).
func (cs *CopilotState) trustedBy(dir string) string {
	if cs.All {
		return "COPILOT_ALLOW_ALL=true"
	}
	for _, t := range cs.Trusted {
		if within(dir, t) {
			return t
		}
	}
	return ""
}

// configDir is the directory whose trust decides a config: the one
// holding `.mcp.json` or `.github`.
func copilotConfigDir(path string) string {
	d := filepath.Dir(path)
	if filepath.Base(path) == "mcp.json" && filepath.Base(d) == ".github" {
		d = filepath.Dir(d)
	}
	return d
}

func (cs *CopilotState) answer(dir string) (runs bool, why string) {
	if by := cs.trustedBy(dir); by != "" {
		if cs.All {
			return true, "Copilot CLI runs the workspace's servers without asking: COPILOT_ALLOW_ALL=true trusts the folder"
		}
		return true, fmt.Sprintf("Copilot CLI runs the workspace's servers without asking: %s is a trusted folder (%s)", by, cs.Source)
	}
	return false, fmt.Sprintf("the folder is not trusted (no entry of %s's trustedFolders holds %s): Copilot CLI reads none of its servers until you trust it at its prompt", cs.Source, dir)
}

func (copilotClient) Gate(st *State, entries []Entry) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		runs, why := st.Copilot.answer(copilotConfigDir(e.Path))
		session, started := runs, false
		if e.Server != nil && e.Server.Kind != "" {
			session, runs, why = st.Copilot.hookAnswer(st.LaunchDir, st.Copilot.Used)
			started, _, _ = st.Copilot.hookAnswer(st.LaunchDir, true)
		}
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: session, Headless: runs, Started: started && !session, Why: why + remoteNote(e.Server), Source: st.Copilot.Source})
	}
	return out
}

// hookAnswer: Copilot CLI runs the repository's hooks once the folder it
// starts in is trusted (observed), interactive and under -p alike. Read
// soundly, a hook runs when the launch directory or the project root is
// trusted. In a folder not trusted yet, `copilot -p` runs none, but the
// session of a user who runs Copilot CLI here (its home directory is
// there) asks only "Do you trust the files in this folder?", never
// about a hook, and then runs every hook (observed, in tmux): no flag of
// launch keeps one out, so the session counts as running it unasked.
func (cs *CopilotState) hookAnswer(launchDir string, used bool) (session, headless bool, why string) {
	by := cs.trustedBy(launchDir)
	if by == "" {
		by = cs.trustedBy(cs.Root)
	}
	switch {
	case cs.All:
		return true, true, "Copilot CLI runs this hook without asking: COPILOT_ALLOW_ALL=true trusts the folder, and no flag keeps a hook from running"
	case by != "":
		return true, true, fmt.Sprintf("Copilot CLI runs this hook without asking in this trusted folder (%s, %s); no flag keeps a hook from running", by, cs.Source)
	case used:
		return true, false, fmt.Sprintf("the folder is not trusted yet (no entry of %s's trustedFolders holds %s): a Copilot CLI session asks only whether you trust the folder, never about this hook, and then runs it; `copilot -p` runs none", cs.Source, launchDir)
	}
	return false, false, fmt.Sprintf("the folder is not trusted (no entry of %s's trustedFolders holds %s): Copilot CLI runs none of its hooks until you trust it at its prompt", cs.Source, launchDir)
}

// Impact: Copilot CLI binds nothing to a server or a hook; in a trusted
// folder every change runs.
func (copilotClient) Impact(st *State, _, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: Copilot CLI no longer runs it"}
	}
	if new.Kind != "" {
		session, runs, why := st.Copilot.hookAnswer(st.LaunchDir, st.Copilot.Used)
		if runs {
			why = "Copilot CLI runs this hook without asking in this trusted folder: every change runs at its next session"
		}
		return Impact{Interactive: session, Headless: runs, Why: why, Source: st.Copilot.Source}
	}
	// The grader's launch directory is the config's own (the directory
	// holding `.github`).
	runs, why := st.Copilot.answer(st.LaunchDir)
	if runs {
		why = fmt.Sprintf("Copilot CLI runs `%s` without asking in this trusted folder: every change runs", new.Name)
	}
	return Impact{Interactive: runs, Headless: runs, Why: why, Source: st.Copilot.Source}
}

// spawnIn: a hook runs in the project root, or in its `cwd` resolved
// there (observed: "cwd": "sub" ran in repo/sub), with its `env` added;
// its line is the shell's to expand. A server expands as Spawn says.
func (c copilotClient) spawnIn(s *trust.Server, configPath string, lookup Vars) Spawn {
	if s.Kind == "" {
		return c.Spawn(s, lookup)
	}
	sp := rawSpawn(s)
	root := copilotHookRoot(configPath)
	sp.Cwd = root
	if v, ok := s.Value("cwd"); ok {
		if c, _ := v.Str(); c != "" {
			sp.Cwd = c
			if !filepath.IsAbs(c) {
				sp.Cwd = filepath.Join(root, c)
			}
		}
	}
	return sp
}

// copilotHookRoot is the directory holding the `.github` of a hook file or
// of the repository settings.
func copilotHookRoot(configPath string) string {
	d := filepath.Dir(filepath.Dir(filepath.Dir(configPath))) // .github/hooks/x.json
	if isCopilotSettings(configPath) {
		d = filepath.Dir(d) // .github/copilot/settings.json
	}
	return d
}

// CopilotArgv is what `mcp-guard launch -- copilot ARGS…` execs: one
// --disable-mcp-server=NAME per project server that must not run, before
// the user's arguments. Copilot CLI matches the name exactly (no list
// syntax, case-sensitive) and a disable wins over --enable-mcp-server
// (observed on 1.0.102); the value is joined by "=", so a name that
// starts with "-" is still a value. An empty name cannot be passed: the
// launch is refused.
func CopilotArgv(argv0 string, off []string, args []string) ([]string, error) {
	out := []string{argv0}
	for _, n := range off {
		if n == "" {
			return nil, errors.New("a Copilot CLI server with an empty name cannot be named in --disable-mcp-server")
		}
		out = append(out, "--disable-mcp-server="+n)
	}
	return append(out, args...), nil
}

// disableLaunch refuses -C: Copilot CLI changes to that directory before
// it reads anything, so the servers it would run are not the ones the
// gate checked here, reviewed or not.
func (copilotClient) disableLaunch(argv0 string, off, _, args, environ []string) ([]string, []string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-C" || (strings.HasPrefix(a, "-C") && !strings.HasPrefix(a, "--")) {
			return nil, nil, HintError{Err: errors.New("copilot -C reads another directory's configuration than the one mcp-guard checked"),
				Hint: "start it from that directory instead: mcp-guard -C DIR launch -- copilot"}
		}
	}
	argv, err := CopilotArgv(argv0, off, args)
	return argv, environ, err
}

// CopilotSettings is a `.github/copilot/settings*.json` as the client
// reads it (Parse reads its hooks so): the positioned tree in its dialect
// (JSON with comments and trailing commas) that the settings rules read
// too; an error where mcp-guard cannot read it as Copilot CLI does.
func CopilotSettings(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, trust.VSCode)
}
