package client

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

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
// of kind "hook". It opens the Cline plugin modules of .cline/plugins too;
// whether it runs them is OPEN, so their presence leaves what runs unknown.
type clineClient struct{}

func (clineClient) ID() ID             { return Cline }
func (clineClient) Title() string      { return "Cline" }
func (clineClient) Command() string    { return "cline" }
func (clineClient) Handover() Handover { return HandNothing }
func (clineClient) Headless() string   { return "" }

// Unhanded: Cline runs the workspace's hooks whatever it is handed, so
// launch starts it only when every one is reviewed.
func (clineClient) Unhanded([]string) string {
	return "Cline runs the repository's hook files at every task whatever it is handed"
}
func (clineClient) Binds() string {
	return "Cline binds nothing to a hook: it runs every hook file of the workspace without asking"
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
	KindClinePlugin = surface.Register(surface.Spec{Name: "cline-plugin", Client: string(Cline), Role: surface.Sibling,
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
	return out, nil
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

// State: Cline keeps no approval for hooks. A hook directory that cannot
// be listed, and a plugin directory (modules Cline opens at start, OPEN
// whether it runs them), leave what runs unknown.
func (clineClient) State(launchDir, gitTop string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	st := &State{Client: Cline, LaunchDir: dir}
	_, unlisted := clineHookFiles(launchDir, gitTop, env)
	for _, p := range unlisted {
		st.Sources = append(st.Sources, Source{Path: p, Display: p, RepoSide: true, Present: true,
			Err: errors.New("Cline runs the hook files of this directory and mcp-guard could not list it")})
	}
	for _, ws := range clineWorkspaces(dir, gitTop) {
		p := filepath.Join(ws, clinePluginDir)
		if _, err := fsys.Lstat(p); err == nil {
			st.Sources = append(st.Sources, Source{Path: p, Display: p, RepoSide: true, Present: true,
				Err: errors.New("Cline loads the project's plugin modules from here at start, and mcp-guard cannot review plugins yet")})
		}
	}
	return st
}

// unknownWithout: a plugin directory, or a hook directory that cannot be
// listed, leaves what Cline runs unknown with no hook file found.
func (clineClient) unknownWithout(dir, gitTop string, env Env) bool {
	fsys := env.fs()
	if _, unlisted := clineHookFiles(dir, gitTop, env); len(unlisted) > 0 {
		return true
	}
	for _, ws := range clineWorkspaces(realDir(dir, fsys), gitTop) {
		if _, err := fsys.Lstat(filepath.Join(ws, clinePluginDir)); err == nil {
			return true
		}
	}
	return false
}

const clineRuns = "Cline runs this hook file at every task without asking (it has no approval for hooks)"

func (clineClient) Gate(_ *State, entries []Entry) []ServerVerdict {
	return unasked(entries, true, clineRuns)
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
	return Impact{Interactive: true, Headless: true, RepoSide: true,
		Why: "Cline runs every hook file of the workspace at its next task without asking"}
}

// Spawn: Cline starts a hook file as it is, with no interpolation.
func (clineClient) Spawn(s *trust.Server, _ Vars) Spawn { return rawSpawn(s) }

// spawnIn: in the workspace the hook file belongs to (the directory
// holding its .clinerules or .cline), wherever Cline was started.
func (c clineClient) spawnIn(s *trust.Server, configPath string, lookup Vars) Spawn {
	sp := c.Spawn(s, lookup)
	sp.Cwd = filepath.Dir(filepath.Dir(filepath.Dir(configPath)))
	return sp
}
