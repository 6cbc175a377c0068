package client

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Cline's CLI 3.0.65 as observed (docs/cline.md): marker files in every
// place it might read in an isolated HOME, `cline "PROMPT"` against a fake
// model on 127.0.0.1, strace, and the storage paths of its bundled
// @cline/shared and @cline/core. Cline reads no MCP server from a
// repository (its servers live in ~/.cline/data/settings/
// cline_mcp_settings.json only), but it runs the workspace's hook files,
// .clinerules/hooks/<Event> and .cline/hooks/<Event>, at every task with
// no approval and no setting that asks first: each hook file is an entry
// of kind "hook". It loads the plugins of .cline/plugins at every task
// too (observed), with no per-plugin switch: each plugin module, and each
// plugin package, is an entry of kind "plugin".
type clineClient struct{}

func (clineClient) ID() ID             { return Cline }
func (clineClient) Title() string      { return "Cline" }
func (clineClient) Command() string    { return "cline" }
func (clineClient) Handover() Handover { return HandNothing }
func (clineClient) Headless() string   { return "" }

// Unhanded: Cline runs the workspace's hooks and loads its plugins
// whatever it is handed, so launch starts it only when every one is
// reviewed.
func (clineClient) Unhanded([]string) string {
	return "Cline runs the repository's hook files and loads its plugins at every task whatever it is handed"
}
func (clineClient) Binds() string {
	return "Cline binds nothing to a hook or plugin: it runs every hook file and plugin of the workspace without asking"
}

// clineHookDirs are the workspace directories whose files Cline runs as
// hooks (@cline/shared resolveHooksConfigSearchPaths), and clinePluginDir
// the one whose modules it loads as plugins.
var (
	clineHookDirs  = []string{filepath.Join(".clinerules", "hooks"), filepath.Join(".cline", "hooks")}
	clinePluginDir = filepath.Join(".cline", "plugins")
)

// ClinePlugin is the plugin a file below a repository's plugin directory
// (a slash-separated path) belongs to, false for a file not below one:
// a file directly in .cline/plugins is a plugin module ("a.js", entry
// true), a package directory's package.json the plugin package ("pkg",
// entry true: Cline loads its cline.plugins entries, observed), and any
// other file below a package directory code that plugin may run ("pkg",
// entry false).
// OPEN: whether Cline loads a package directory without a package.json.
func ClinePlugin(p string) (name string, entry, ok bool) {
	parts := strings.Split(p, "/")
	for i := len(parts) - 2; i >= 1; i-- {
		if !strings.EqualFold(parts[i], "plugins") || !strings.EqualFold(parts[i-1], ".cline") {
			continue
		}
		rest := parts[i+1:]
		entry = len(rest) == 1 || len(rest) == 2 && strings.EqualFold(rest[1], "package.json")
		return rest[0], entry, true
	}
	return "", false, false
}

// Cline's surfaces: every file of its hook directories (Parse tells a hook
// by its name) and every file below its plugin directory (a plugin, or
// code one runs: ClinePlugin).
var (
	KindClineHook = surface.Register(surface.Spec{Name: "cline-hook", Client: string(Cline), Role: surface.Config,
		Patterns: []string{"**/.clinerules/hooks/*", "**/.cline/hooks/*"}})
	KindClinePlugin = surface.Register(surface.Spec{Name: "cline-plugin", Client: string(Cline), Role: surface.Sibling, Entries: true,
		Patterns: []string{"**/.cline/plugins/**"}})
	_ = registerDirs(Cline, "**/.clinerules", "**/.clinerules/hooks", "**/.cline", "**/.cline/hooks", "**/.cline/plugins")
)

// clineHookEvents are the hook file names Cline knows, matched ignoring
// case, and clineHookExts the extensions it runs them with ("" none).
var (
	clineHookEvents = []string{"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError",
		"PreToolUse", "PostToolUse", "UserPromptSubmit", "PreCompact", "SessionShutdown"}
	clineHookExts = []string{"", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"}
)

// ClineHookEvent is the event a file named base is Cline's hook for, ""
// when Cline does not run it (its name or extension is another).
func ClineHookEvent(base string) string {
	ext := filepath.Ext(base)
	if !containsFold(clineHookExts, ext) {
		// Cline takes the extension case-insensitively; a name with a dot
		// and an unknown extension is not a hook.
		return ""
	}
	stem := strings.ToLower(strings.TrimSpace(strings.TrimSuffix(base, ext)))
	for _, e := range clineHookEvents {
		if strings.ToLower(e) == stem {
			return e
		}
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// clineInterpreter is what Cline starts a hook file with: its #! line's
// command (through `env`, and with sh/bash/zsh/python named by their base
// name, as Cline does), else the interpreter its extension names, else
// bash. The file's path is appended.
func clineInterpreter(base string, data []byte) []string {
	line, _, _ := strings.Cut(string(data), "\n")
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	if rest, ok := strings.CutPrefix(line, "#!"); ok {
		if argv := strings.Fields(rest); len(argv) > 0 {
			return clineShebang(argv)
		}
	}
	switch strings.ToLower(filepath.Ext(base)) {
	case ".js", ".mjs", ".cjs":
		return []string{"node"}
	case ".ts", ".mts", ".cts":
		return []string{"bun", "run"}
	case ".py":
		return []string{"python3"}
	case ".ps1":
		return []string{"pwsh", "-File"}
	}
	return []string{"bash"}
}

func clineShebang(argv []string) []string {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(argv[0], `\`, "/")))
	switch base {
	case "env":
		if len(argv) == 1 {
			return argv
		}
		return clineShebang(argv[1:])
	case "bash", "sh", "zsh", "python3", "python":
		return append([]string{base}, argv[1:]...)
	}
	return argv
}

// Parse reads one file of a hook directory: a hook file is one entry, the
// hook named by its place (".clinerules/hooks/TaskStart"), started as
// Cline starts it from the workspace; any other file holds nothing.
func (clineClient) Parse(path string, data []byte) *trust.Config {
	if name, entry, ok := ClinePlugin(filepath.ToSlash(path)); ok {
		return parseClinePlugin(path, name, entry, data)
	}
	base := filepath.Base(path)
	event := ClineHookEvent(base)
	empty := trust.ParseDialect(path, []byte(`{}`), trust.ScopeProject, trust.Cline)
	if event == "" || len(data) == 0 {
		return empty // not a hook, or one that runs nothing
	}
	rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(filepath.Dir(path))), filepath.Base(filepath.Dir(path)), base))
	argv := clineInterpreter(base, data)
	args := append(append([]string(nil), argv[1:]...), rel)
	s, err := trust.ArgvEntry(path, trust.Cline, EntryHook, rel, "", argv[0], args, trust.Pos{Line: 1, Column: 1}, nil)
	if err != nil {
		return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("hook %s: %w", rel, err))
	}
	empty.Servers = []*trust.Server{s}
	return empty
}

// clinePluginKind is a Cline plugin (Claude Code's word too): a module
// of .cline/plugins, or a package directory there (its package.json).
const clinePluginKind = EntryPlugin

// TurnOff: a Cline hook or plugin is its file, and Cline has no switch
// that leaves one out: delete it.
func (clineClient) TurnOff(kind, config string) string {
	if kind != EntryHook && kind != clinePluginKind {
		return ""
	}
	noun := map[string]string{EntryHook: "hook", clinePluginKind: "plugin"}[kind]
	if config == "" {
		return "delete its file (the file is the " + noun + "; Cline has no switch that leaves one out)"
	}
	return "delete " + config + " (the file is the " + noun + "; Cline has no switch that leaves one out)"
}

// EntryNouns are Cline's words for its entries: hooks and plugins.
func (clineClient) EntryNouns() map[string]string {
	return map[string]string{EntryHook: "hooks", clinePluginKind: "plugins"}
}

// clinePluginExts are the extensions of the modules of .cline/plugins
// counted as plugins: Cline's sandbox opened the .js and .ts ones through
// jiti and not the .cjs and .mjs ones (observed on 3.0.65); every
// JavaScript and TypeScript extension counts (more, never less).
var clinePluginExts = []string{".js", ".cjs", ".mjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}

// clinePluginFile reports whether a file directly in .cline/plugins is a
// plugin module.
func clinePluginFile(base string) bool { return containsFold(clinePluginExts, filepath.Ext(base)) }

// parseClinePlugin reads one file below .cline/plugins: a module is the
// entry `tsx <module>` (jiti loads it with TypeScript's resolution, which
// the launch model follows for tsx), a package's package.json the entry
// running each module its cline.plugins names, the package directory
// bound whole (Trees); any other file holds nothing (a package's code,
// bound through its entry). Named by its place (".cline/plugins/a.js",
// ".cline/plugins/pkg"), run from its workspace.
func parseClinePlugin(path, name string, entry bool, data []byte) *trust.Config {
	empty := trust.ParseDialect(path, []byte(`{}`), trust.ScopeProject, trust.Cline)
	isPkg := strings.EqualFold(filepath.Base(path), "package.json") && !strings.EqualFold(filepath.Base(filepath.Dir(path)), "plugins")
	if !entry || !isPkg && !clinePluginFile(name) {
		return empty
	}
	rel := ".cline/plugins/" + name
	var s *trust.Server
	var err error
	if !isPkg {
		s, err = trust.ArgvEntry(path, trust.Cline, clinePluginKind, rel, "", "tsx", []string{rel}, trust.Pos{Line: 1, Column: 1}, nil)
	} else {
		mods, perr := clinePackageModules(data)
		if perr != nil {
			return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("plugin %s: Cline may still load modules of it: %w", rel, perr))
		}
		var runs []string
		for _, m := range mods {
			runs = append(runs, "tsx "+textsafe.ShellWord(rel+"/"+strings.TrimPrefix(filepath.ToSlash(m), "./")))
		}
		if len(runs) == 0 {
			runs = []string{"tsx " + textsafe.ShellWord(rel)} // its main, or index: OPEN which Cline takes
		}
		s, err = trust.CommandEntry(path, trust.Cline, clinePluginKind, rel, "", "/bin/sh", strings.Join(runs, "; "), trust.Pos{Line: 1, Column: 1}, nil)
		if s != nil {
			s.Trees = []string{rel}
		}
	}
	if err != nil {
		return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("plugin %s: %w", rel, err))
	}
	empty.Servers = []*trust.Server{s}
	return empty
}

// clinePackageModules are the module paths a plugin package's
// package.json lists under cline.plugins; an error when the file or the
// list is not what Cline reads.
func clinePackageModules(data []byte) ([]string, error) {
	root, err := trust.DecodeDialect(data, trust.Cline)
	if err != nil {
		return nil, err
	}
	if root.Kind() != "object" {
		return nil, errors.New("package.json is not an object")
	}
	c, ok := root.Get("cline")
	if !ok || c.Kind() == "null" {
		return nil, nil
	}
	mods, err := stringList(c, "plugins")
	if err != nil {
		return nil, fmt.Errorf("cline.%w", err)
	}
	return mods, nil
}

// clinePlugins lists the plugin files of the workspaces' plugin
// directories: each module directly in one, each package directory's
// package.json; and the places Cline may load plugins from that
// mcp-guard cannot read as entries (a directory it cannot list, a package
// directory without a package.json), each a source with the reason.
func clinePlugins(launchDir, gitTop string, env Env) (files []string, closed []Source) {
	fsys := env.fs()
	lister, _ := fsys.(dirLister)
	for _, ws := range clineWorkspaces(realDir(launchDir, fsys), gitTop) {
		p := filepath.Join(ws, clinePluginDir)
		if _, err := fsys.Lstat(p); err != nil {
			continue
		}
		var ents []fs.DirEntry
		err := errors.New("no listing")
		if lister != nil {
			ents, err = lister.ReadDir(p)
		}
		if err != nil {
			closed = append(closed, Source{Path: p, Display: p, RepoSide: true, Present: true,
				Err: errors.New("Cline loads the plugins of this directory at every task and mcp-guard could not list it")})
			continue
		}
		for _, e := range ents {
			f := filepath.Join(p, e.Name())
			fi, err := fsys.Stat(f)
			switch {
			case err != nil:
				if _, lerr := fsys.Lstat(f); lerr == nil && clinePluginFile(e.Name()) {
					files = append(files, f) // read and reported
				}
			case fi.IsDir():
				pkg := filepath.Join(f, "package.json")
				if present(fsys, pkg) {
					files = append(files, pkg)
					continue
				}
				closed = append(closed, Source{Path: f, Display: f, RepoSide: true, Present: true,
					Err: errors.New("a plugin package directory without a package.json: whether Cline loads a module of it is not known, so mcp-guard cannot review it")})
			case clinePluginFile(e.Name()):
				files = append(files, f)
			}
		}
	}
	return files, closed
}

// clineWorkspaces are the directories whose hook files Cline runs when
// started in dir: the git work tree's top (observed: started in a
// subdirectory, Cline ran the top's hooks), and, sound first, every
// directory from dir up to it (OPEN: whether a subdirectory's own hook
// directories run). Outside git, dir.
func clineWorkspaces(dir, gitTop string) []string {
	if gitTop == "" {
		return []string{dir}
	}
	return opencodeWalk(dir, gitTop)
}

// dirLister is the optional listing a FS offers; without it a hook
// directory's files cannot be named.
type dirLister interface {
	ReadDir(path string) ([]fs.DirEntry, error)
}

// Configs are the hook files of the workspace's hook directories,
// .clinerules/hooks before .cline/hooks as Cline lists them.
func (clineClient) Configs(launchDir, gitTop string, env Env) ([]string, error) {
	out, _ := clineHookFiles(launchDir, gitTop, env)
	plugins, _ := clinePlugins(launchDir, gitTop, env)
	return append(out, plugins...), nil
}

// clineHookFiles lists the hook files, and the hook directories it could
// not list.
func clineHookFiles(launchDir, gitTop string, env Env) (files, unlisted []string) {
	fsys := env.fs()
	lister, _ := fsys.(dirLister)
	for _, ws := range clineWorkspaces(realDir(launchDir, fsys), gitTop) {
		for _, d := range clineHookDirs {
			p := filepath.Join(ws, d)
			if _, err := fsys.Stat(p); err != nil && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if lister == nil {
				unlisted = append(unlisted, p)
				continue
			}
			ents, err := lister.ReadDir(p)
			if err != nil {
				unlisted = append(unlisted, p)
				continue
			}
			for _, e := range ents {
				if ClineHookEvent(e.Name()) == "" {
					continue
				}
				if f := filepath.Join(p, e.Name()); present(fsys, f) {
					files = append(files, f)
				}
			}
		}
	}
	return files, unlisted
}

// State: Cline keeps no approval for hooks or plugins. A hook or plugin
// directory that cannot be listed, and a plugin package directory without
// a package.json, leave what runs unknown.
func (clineClient) State(launchDir, gitTop string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	st := &State{Client: Cline, LaunchDir: dir}
	_, unlisted := clineHookFiles(launchDir, gitTop, env)
	for _, p := range unlisted {
		st.Sources = append(st.Sources, Source{Path: p, Display: p, RepoSide: true, Present: true,
			Err: errors.New("Cline runs the hook files of this directory and mcp-guard could not list it")})
	}
	_, closed := clinePlugins(launchDir, gitTop, env)
	st.Sources = append(st.Sources, closed...)
	return st
}

// unknownWithout: a hook or plugin directory that cannot be listed, or a
// plugin package without a package.json, leaves what Cline runs unknown
// with no hook file or plugin found.
func (clineClient) unknownWithout(dir, gitTop string, env Env) bool {
	if _, unlisted := clineHookFiles(dir, gitTop, env); len(unlisted) > 0 {
		return true
	}
	_, closed := clinePlugins(dir, gitTop, env)
	return len(closed) > 0
}

const (
	clineRuns       = "Cline runs this hook file at every task without asking (it has no approval for hooks)"
	clinePluginRuns = "Cline loads this plugin at every task without asking, and has no switch to leave one plugin out: launch starts Cline only when every plugin is reviewed"
)

func (clineClient) Gate(_ *State, entries []Entry) []ServerVerdict {
	var hooks, plugins []Entry
	for _, e := range entries {
		if e.Server != nil && e.Server.Kind == clinePluginKind {
			plugins = append(plugins, e)
		} else {
			hooks = append(hooks, e)
		}
	}
	out := append(unasked(hooks, true, clineRuns), unasked(plugins, true, clinePluginRuns)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// unasked are the verdicts of entries a client runs from the repository's
// own files with no approval at all (Cline's hooks, cn serve's install):
// headless always, interactive when it says so; the file decides.
func unasked(entries []Entry, interactive bool, why string) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: interactive, Headless: true, Why: why, Source: e.Path, RepoSide: true})
	}
	return out
}

// Impact: every change of a hook file runs at Cline's next task.
func (clineClient) Impact(_ *State, _, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: Cline no longer runs it"}
	}
	if new.Kind == clinePluginKind {
		return Impact{Interactive: true, Headless: true, RepoSide: true,
			Why: "Cline loads every plugin of the workspace at its next task without asking"}
	}
	return Impact{Interactive: true, Headless: true, RepoSide: true,
		Why: "Cline runs every hook file of the workspace at its next task without asking"}
}

// Spawn: Cline starts a hook file as it is, with no interpolation.
func (clineClient) Spawn(s *trust.Server, _ Vars) Spawn { return rawSpawn(s) }

// spawnIn: in the workspace the hook file belongs to (the directory
// holding its .clinerules or .cline), wherever Cline was started.
func (c clineClient) spawnIn(s *trust.Server, configPath string, lookup Vars) Spawn {
	sp := c.Spawn(s, lookup)
	sp.Cwd = filepath.FromSlash(trust.ConfigLaunchDir(trust.ClientCline, filepath.ToSlash(configPath)))
	return sp
}
