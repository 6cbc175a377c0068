package client

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// VS Code as documented, never observed (docs/vscode.md):
//
//   - https://code.visualstudio.com/docs/copilot/reference/mcp-configuration
//     (.vscode/mcp.json, "servers", "inputs", type, envFile, dev, sandbox)
//   - https://code.visualstudio.com/docs/copilot/customization/mcp-servers
//     (server trust, chat.mcp.autostart, chat.mcp.discovery.enabled)
//   - https://code.visualstudio.com/docs/reference/variables-reference
//     (${workspaceFolder}, ${env:NAME}, ${input:ID}, …)
//   - https://code.visualstudio.com/docs/editing/workspaces/workspace-trust
//     (Restricted Mode; tasks)
//   - https://code.visualstudio.com/docs/editing/workspaces/multi-root-workspaces
//     (a .code-workspace file: folders, settings, launch, tasks)
//   - microsoft/vscode mcpConfigPathsService.ts (a workspace file's MCP
//     servers are its settings' "mcp" section)
//
// Questions the documentation leaves open are marked OPEN and decided in
// the direction that never under-reports what runs.
type vscodeClient struct{}

func (vscodeClient) ID() ID                   { return VSCode }
func (vscodeClient) Title() string            { return "VS Code" }
func (vscodeClient) Command() string          { return "" }
func (vscodeClient) Handover() Handover       { return HandNothing }
func (vscodeClient) Headless() string         { return "" }
func (vscodeClient) Unhanded([]string) string { return "" }
func (vscodeClient) Binds() string {
	return "VS Code's trust binds the workspace, not the code a server runs"
}

// VSCodeMCPFile is the workspace config, relative to the workspace folder.
const VSCodeMCPFile = ".vscode/mcp.json"

// VSCodeSettingsFile and VSCodeTasksFile are the workspace's settings and
// tasks, relative to the workspace folder.
const (
	VSCodeSettingsFile = ".vscode/settings.json"
	VSCodeTasksFile    = ".vscode/tasks.json"
)

// VS Code's surfaces: the workspace's servers, the settings that decide
// whether they start, and its tasks (a gitignored settings or tasks file
// is the user's own editor setup).
var (
	KindVSCodeMCP      = surface.Register(surface.Spec{Name: "vscode-mcp", Client: string(VSCode), Role: surface.Config, Patterns: []string{"**/" + VSCodeMCPFile}})
	KindVSCodeSettings = surface.Register(surface.Spec{Name: "vscode-settings", Client: string(VSCode), Role: surface.Governing, SharedOnly: true, Patterns: []string{"**/" + VSCodeSettingsFile}})
	KindVSCodeTasks    = surface.Register(surface.Spec{Name: "vscode-tasks", Client: string(VSCode), Role: surface.Sibling, SharedOnly: true, Entries: true, Patterns: []string{"**/" + VSCodeTasksFile}})
	// KindVSCodeWorkspace is a workspace file: its settings' MCP servers,
	// its tasks, its settings (modelled from documentation).
	KindVSCodeWorkspace = surface.Register(surface.Spec{Name: "vscode-workspace", Client: string(VSCode), Role: surface.Config, Entries: true, Patterns: []string{"**/*" + VSCodeWorkspaceExt}})
	_                   = registerDirs(VSCode, "**/.vscode")
)

// Parse reads .vscode/mcp.json as JSONC: comments and trailing commas
// accepted, a syntax error leaves what runs unknown (trust.VSCode).
//
// .vscode/tasks.json holds no servers: each task VS Code runs when the
// folder opens (ParseVSCodeTasks) is an entry, its command line and
// arguments run with a shell (a "process" task is spawned without one,
// which binds no more), one entry per platform override. A folder-open
// task that depends on others runs them too: then every task with a
// command is an entry.
func (vscodeClient) Parse(path string, data []byte) *trust.Config {
	if isVSCodeWorkspace(path) {
		return parseVSCodeWorkspace(path, data)
	}
	if !strings.EqualFold(filepath.Base(path), "tasks.json") {
		return trust.ParseDialect(path, data, trust.ScopeProject, trust.VSCode)
	}
	c := &trust.Config{Path: path, Scope: trust.ScopeProject, Dialect: trust.VSCode, SHA256: trust.FileHash(data)}
	tasks, err := ParseVSCodeTasks(data)
	if err != nil {
		return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("VS Code may still run tasks from it: %w", err))
	}
	addVSCodeTasks(c, "", tasks)
	return c
}

// VSCodeWorkspaceExt ends a VS Code workspace file's name.
const VSCodeWorkspaceExt = ".code-workspace"

// isVSCodeWorkspace reports whether p is a workspace file.
func isVSCodeWorkspace(p string) bool {
	b := filepath.Base(p)
	return len(b) > len(VSCodeWorkspaceExt) && strings.EqualFold(b[len(b)-len(VSCodeWorkspaceExt):], VSCodeWorkspaceExt)
}

// parseVSCodeWorkspace reads a .code-workspace file (JSONC) as VS Code
// applies it once you open it (documented, never observed): the MCP
// servers of its settings' "mcp" section, read as a .vscode/mcp.json is
// and at their place in the file, and the tasks of its "tasks" section
// that run when the workspace opens, named "tasks.tasks[N]". Its
// "launch" configurations run only when you start debugging, so they are
// not entries. A file VS Code's tolerant reader may still apply is
// unknown, as .vscode/mcp.json's is.
func parseVSCodeWorkspace(path string, data []byte) *trust.Config {
	root, err := trust.DecodeDialect(data, trust.VSCode)
	if err != nil || root.Kind() != "object" {
		// The dialect's own answer: unknown where VS Code may recover,
		// nothing where no entry could come from the bytes.
		return trust.ParseDialect(path, data, trust.ScopeProject, trust.VSCode)
	}
	c := &trust.Config{Path: path, Scope: trust.ScopeProject, Dialect: trust.VSCode, SHA256: trust.FileHash(data)}
	for _, k := range mustGet(root, "settings").Keys() {
		if strings.HasPrefix(k, "mcp.") {
			// VS Code's configuration model nests a dotted key: its
			// servers are the mcp section's, which is not read that way here.
			return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("settings.%s: VS Code reads a dotted key as part of the mcp section, which mcp-guard reads only as one object", k))
		}
	}
	if mcp, ok := Setting(mustGet(root, "settings"), "mcp"); ok && mcp.Kind() != "null" {
		raw, off := mcp.Source()
		if mcp.Kind() != "object" || off < 0 || off+len(raw) > len(data) || string(data[off:off+len(raw)]) != string(raw) {
			return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("settings.mcp is a %s VS Code may still read servers from", mcp.Kind()))
		}
		if _, has := mcp.Get("servers"); has {
			// The section alone, at its place: every other byte a space
			// (line breaks kept), so positions are the file's own.
			sub := make([]byte, len(data))
			for i, b := range data {
				switch {
				case i >= off && i < off+len(raw):
					sub[i] = b
				case b == '\n' || b == '\r':
					sub[i] = b
				default:
					sub[i] = ' '
				}
			}
			sc := trust.ParseDialect(path, sub, trust.ScopeProject, trust.VSCode)
			if sc.Err != nil {
				sc.SHA256 = c.SHA256
				return sc
			}
			c.Servers, c.Skipped, c.Findings = sc.Servers, sc.Skipped, sc.Findings
		}
	}
	if t, ok := root.Get("tasks"); ok && t.Kind() != "null" {
		tasks, err := vscodeTasks(t)
		if err != nil {
			return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("VS Code may still run tasks from it: tasks: %w", err))
		}
		addVSCodeTasks(c, "tasks.", tasks)
	}
	return c
}

// mustGet is v's member key, the zero Value when there is none.
func mustGet(v trust.Value, key string) trust.Value {
	m, _ := v.Get(key)
	return m
}

// addVSCodeTasks adds each task as entries of c, named prefix+"tasks[N]"
// (a platform override "tasks[N].linux").
func addVSCodeTasks(c *trust.Config, prefix string, tasks []FolderOpenTask) {
	path := c.Path
	add := func(name, line string, pos trust.Pos) {
		if strings.TrimSpace(line) == "" || c.Err != nil {
			return
		}
		s, err := trust.CommandEntry(path, trust.VSCode, EntryTask, name, "", "/bin/sh", line, pos, nil)
		if err != nil {
			c.Err = trust.Unreadable(err)
			return
		}
		c.Servers = append(c.Servers, s)
	}
	for _, t := range tasks {
		name := prefix + "tasks[" + strconv.Itoa(t.Index) + "]"
		add(name, strings.Join(append([]string{t.Command}, t.Args...), " "), t.Pos)
		for _, p := range []string{"linux", "osx", "windows"} {
			if cmd, ok := t.PlatformCommands[p]; ok {
				add(name+"."+p, strings.Join(append([]string{cmd}, t.Args...), " "), t.Pos)
			}
		}
	}
	uniqueEntries(c)
}

// EntryTask is a VS Code task that runs when the folder opens.
const EntryTask = "task"

// EntryNouns are VS Code's words for its entries: tasks.
func (vscodeClient) EntryNouns() map[string]string { return map[string]string{EntryTask: "tasks"} }

// TurnOff: VS Code runs a folder-open task while automatic tasks are
// allowed, which the user's own task.allowAutomaticTasks "off" keeps from
// happening (VS Code's tasks documentation; MG713's fix says the same);
// a server gets the default words.
func (vscodeClient) TurnOff(kind, config string) string {
	if kind != EntryTask {
		return ""
	}
	out := `set "task.allowAutomaticTasks": "off" in your VS Code user settings (no folder-open task runs then) or remove it`
	if config != "" {
		out += " from " + config
	}
	return out
}

// vscodeTaskWhy is when VS Code runs a folder-open task.
const vscodeTaskWhy = "VS Code runs this task when the folder opens, once the workspace is trusted and automatic tasks are allowed (task.allowAutomaticTasks, which it asks about once); mcp-guard cannot read either decision, so it counts as running without asking"

// Configs is the launch directory's .vscode/mcp.json and tasks.json: the
// launch directory is the folder VS Code opens (the workspace folder). VS
// Code does not walk up. Every *.code-workspace file in the launch
// directory counts too: VS Code applies one once you open it, which
// mcp-guard cannot tell (documented; more, never less). So do the
// .vscode/mcp.json and tasks.json of each folder such a file names inside
// the repository (vscodeFolders): VS Code opens each as a workspace folder
// and reads its MCP servers (mcpConfigPathsService: one config path per
// folder) and runs its folder-open tasks (runAutomaticTasks: the tasks of
// every folder). A folder it names outside the repository, or one
// mcp-guard cannot resolve, is in the state (State) and keeps the gate
// closed.
func (vscodeClient) Configs(launchDir, gitTop string, env Env) ([]string, error) {
	fsys := env.fs()
	out := append(workspaceFile(launchDir, VSCodeMCPFile, fsys), workspaceFile(launchDir, VSCodeTasksFile, fsys)...)
	files := listNamed(fsys, launchDir, VSCodeWorkspaceExt)
	out = append(out, files...)
	folders, _ := vscodeFolders(launchDir, gitTop, files, fsys)
	for _, p := range folderConfigs(folders, fsys) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// folderConfigs are the .vscode/mcp.json and tasks.json VS Code reads in
// each workspace folder of dirs.
func folderConfigs(dirs []string, fsys FS) []string {
	var out []string
	for _, d := range dirs {
		for _, rel := range []string{VSCodeMCPFile, VSCodeTasksFile} {
			out = append(out, workspaceFile(d, rel, fsys)...)
		}
	}
	return out
}

// Includes: a workspace file brings in the .vscode/mcp.json and
// tasks.json of each folder it lists inside the repository (Configs), so
// a change that only lists a folder makes VS Code run what that folder
// already held once the workspace opens.
func (vscodeClient) Includes(configPath, gitTop string, env Env) []Included {
	if !isVSCodeWorkspace(configPath) {
		return nil
	}
	fsys := env.fs()
	dir := filepath.Dir(configPath)
	folders, _ := vscodeFolders(dir, gitTop, []string{configPath}, fsys)
	var out []Included
	for _, d := range folders {
		for _, p := range folderConfigs([]string{d}, fsys) {
			out = append(out, Included{Path: p, Why: fmt.Sprintf("the workspace file %s lists the folder %s, which VS Code opens with that workspace", filepath.Base(configPath), folderName(realDir(dir, fsys), d))})
		}
	}
	return out
}

// folderName is a workspace folder as said to the user: relative to the
// workspace file's directory when below it.
func folderName(base, dir string) string {
	if r, err := filepath.Rel(base, dir); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return dir
}

// vscodeFolders are the workspace folders the workspace files name (each
// "folders" element's "path", relative to the file's directory or
// absolute, no variable resolved, as VS Code's toWorkspaceFolders reads
// it; a "file://" "uri"), that are directories inside the repository (the
// git work tree's top, else the launch directory) other than the launch
// directory itself, by real path. closed are the folders VS Code would
// read .vscode files from that mcp-guard does not follow: outside the
// repository (when they hold a .vscode/mcp.json or tasks.json), or a URI
// it cannot place (a remote folder), each a source with the reason.
// A workspace file that cannot be read is reported by Parse.
func vscodeFolders(launchDir, gitTop string, files []string, fsys FS) (dirs []string, closed []Source) {
	self := realDir(launchDir, fsys)
	root := self
	if gitTop != "" {
		root = realDir(gitTop, fsys)
	}
	for _, file := range files {
		data, err := fsys.ReadFile(file)
		if err != nil {
			continue
		}
		v, err := trust.DecodeDialect(data, trust.VSCode)
		if err != nil {
			continue
		}
		folders, _ := v.Get("folders")
		for i, f := range folders.Elems() {
			at := fmt.Sprintf("%s: folders[%d]", filepath.Base(file), i)
			var dir string
			if p, ok := strOf(f, "path"); ok {
				if p == "" {
					continue // VS Code skips it
				}
				dir = filepath.FromSlash(p)
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(filepath.Dir(file), dir)
				}
			} else if u, ok := strOf(f, "uri"); ok {
				pu, err := url.Parse(u)
				if err != nil || !strings.EqualFold(pu.Scheme, "file") || (pu.Host != "" && pu.Host != "localhost") {
					closed = append(closed, Source{Path: file, Display: at, RepoSide: true, Present: true,
						Err: fmt.Errorf("VS Code opens the folder %q this workspace file names and reads its .vscode/mcp.json and tasks.json; mcp-guard cannot place it", u)})
					continue
				}
				dir = filepath.FromSlash(pu.Path)
			} else {
				continue // neither: VS Code ignores the element
			}
			fi, err := fsys.Stat(dir)
			if err == nil && !fi.IsDir() || errors.Is(err, fs.ErrNotExist) {
				continue // no folder: VS Code shows it missing and reads nothing
			}
			real := realDir(dir, fsys)
			if err == nil && within(real, root) {
				if real != self && !slices.Contains(dirs, real) {
					dirs = append(dirs, real)
				}
				continue
			}
			if err != nil {
				closed = append(closed, Source{Path: file, Display: at, RepoSide: true, Present: true,
					Err: fmt.Errorf("VS Code opens the folder %s this workspace file names and reads its .vscode/mcp.json and tasks.json; mcp-guard cannot read it: %w", dir, err)})
				continue
			}
			if len(workspaceFile(real, VSCodeMCPFile, fsys))+len(workspaceFile(real, VSCodeTasksFile, fsys)) == 0 {
				continue // outside the repository, and nothing VS Code runs from it
			}
			closed = append(closed, Source{Path: file, Display: at, RepoSide: true, Present: true,
				Err: fmt.Errorf("VS Code opens the folder %s this workspace file names, outside the repository, and reads its .vscode/mcp.json and tasks.json; mcp-guard reviews only the repository's files", dir)})
		}
	}
	return dirs, closed
}

// workspaceFile is [dir/rel] when a file (or something mcp-guard cannot
// stat, which is read and reported rather than left out) is there.
func workspaceFile(dir, rel string, fsys FS) []string {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	fi, err := fsys.Stat(p)
	switch {
	case err == nil && !fi.IsDir():
		return []string{p}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		if _, lerr := fsys.Lstat(p); lerr == nil {
			return []string{p}
		}
	}
	return nil
}

// workspaceOf is the workspace folder of a config at <folder>/<dir>/<file>,
// or of a workspace file at <folder>/<name>.code-workspace (OPEN: in a
// workspace of several folders ${workspaceFolder} is ambiguous; the
// file's own directory is taken).
func workspaceOf(configPath string) string {
	if isVSCodeWorkspace(configPath) {
		return filepath.Dir(configPath)
	}
	return filepath.Dir(filepath.Dir(configPath))
}

// vscodeWorkspaceNote says that an entry of a workspace file runs once you
// open that file in VS Code, "" for any other file.
func vscodeWorkspaceNote(path string) string {
	if !isVSCodeWorkspace(path) {
		return ""
	}
	return " (from the workspace file " + filepath.Base(path) + ": VS Code applies it once you open that workspace, which mcp-guard cannot tell, so it counts as opened)"
}

// Spawn without a workspace folder leaves ${workspaceFolder} unresolved.
func (vscodeClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	return vsSpawn(s, "", lookup, true)
}

func (vscodeClient) spawnIn(s *trust.Server, configPath string, lookup Vars) Spawn {
	if s.Kind != "" {
		// OPEN: VS Code resolves ${workspaceFolder} and the like in a task
		// before the shell sees it; the line is bound as written.
		return rawSpawn(s)
	}
	return vsSpawn(s, workspaceOf(configPath), lookup, true)
}

// vsSpawn is the spawn view of VS Code (inputs true) or Cursor: the
// variables are expanded in command, args, env values and envFile.
// OPEN: whether envFile's variables or env win a clash, and what a
// relative envFile is relative to; EnvFile is reported as written.
func vsSpawn(s *trust.Server, workspace string, lookup Vars, inputs bool) Spawn {
	sp := rawSpawn(s)
	v := &vsExpander{x: expander{lookup: lookup}, workspace: workspace, inputs: inputs}
	sp.Command = v.expand(s.Command)
	for i, a := range sp.RawArgs {
		sp.Args[i] = v.expand(a)
	}
	for i, e := range sp.RawEnv {
		sp.Env[i].Value = v.expand(e.Value)
	}
	if f, ok := s.StringMember("envFile"); ok {
		sp.EnvFile = v.expand(f)
	}
	sp.Vars, sp.Missing = v.x.vars, v.x.missing
	sp.Inputs, sp.Unresolved = v.inputIDs, v.unresolved
	return sp
}

// vsExpander is VS Code's variable resolver for one server, which Cursor
// documents a subset of.
type vsExpander struct {
	x         expander
	workspace string // "" when unknown
	// inputs: ${input:ID} is VS Code's; Cursor documents no inputs, so
	// there it is an unresolved variable like any other.
	inputs               bool
	inputIDs, unresolved []string
	seen                 map[string]bool // "input:ID" or the unresolved name
}

// expand replaces every ${…} left to right, as VS Code's resolver does
// (/\$\{(.*?)\}/, one pass: a substituted value is not scanned again):
// ${env:NAME} (an undefined variable becomes "", and is Missing),
// ${userHome} ($HOME), ${workspaceFolder}, ${workspaceFolderBasename},
// ${pathSeparator} and ${/}. ${input:ID} and every other variable stay
// literal and are recorded.
func (v *vsExpander) expand(s string) string { return substitute(s, true, v.resolve) }

// resolve is one variable's value; false leaves it literal.
func (v *vsExpander) resolve(name string) (string, bool) {
	switch {
	case strings.HasPrefix(name, "env:"):
		k := name[len("env:"):]
		v.x.use(k)
		if val, ok := v.x.lookup(k); ok {
			return val, true
		}
		v.x.missed(k)
		return "", true
	case name == "userHome":
		v.x.use("HOME")
		if h, ok := v.x.lookup("HOME"); ok && h != "" {
			return h, true
		}
	case name == "workspaceFolder" && v.workspace != "":
		return v.workspace, true
	case name == "workspaceFolderBasename" && v.workspace != "":
		return filepath.Base(v.workspace), true
	case name == "pathSeparator" || name == "/":
		return string(filepath.Separator), true
	case v.inputs && strings.HasPrefix(name, "input:"):
		if v.first(name) {
			v.inputIDs = append(v.inputIDs, name[len("input:"):])
		}
		return "", false
	}
	if v.first("?" + name) {
		v.unresolved = append(v.unresolved, name)
	}
	return "", false
}

// first reports whether key is seen for the first time.
func (v *vsExpander) first(key string) bool {
	if v.seen == nil {
		v.seen = map[string]bool{}
	}
	if v.seen[key] {
		return false
	}
	v.seen[key] = true
	return true
}

// Autostart values of chat.mcp.autostart (VS Code's McpAutoStartValue).
const (
	AutostartNever          = "never"
	AutostartOnlyNew        = "onlyNew"
	AutostartNewAndOutdated = "newAndOutdated"
)

// VSCodeState is what mcp-guard knows of VS Code's gate for a workspace.
// Neither decision VS Code gates on can be read: Workspace Trust lives in
// VS Code's internal state database, and so do the per-server trust
// decisions (MCP: Reset Trust). Both are counted as given.
type VSCodeState struct {
	Workspace string
	// Settings is the workspace's .vscode/settings.json.
	Settings Source
	// Autostart is chat.mcp.autostart (or chat.mcp.autoStart) as the
	// workspace sets it, "" when it does not; a boolean reads as
	// newAndOutdated (true) or never (false).
	Autostart string
	// AutostartRaw is the setting's JSON text, for messages.
	AutostartRaw string
	// Discovery is chat.mcp.discovery.enabled as the workspace sets it
	// (its JSON text, "" when unset): VS Code then reads other
	// applications' MCP configurations too.
	Discovery string
	// AllowAutomaticTasks is task.allowAutomaticTasks as the workspace
	// sets it (JSON text, "" when unset).
	AllowAutomaticTasks string
	// Unknown is set when the settings file could not be read: then every
	// server counts as running without asking.
	Unknown *Source
}

// AutostartOn reports whether VS Code starts servers on its own when a
// chat message is sent. Only the workspace's own value is read; the
// user's is not, and the default (newAndOutdated in current releases)
// starts them, so only an explicit "never" turns it off.
// OPEN: whether a workspace may set it at all (its scope).
func (vs *VSCodeState) AutostartOn() bool { return vs.Autostart != AutostartNever }

// State reads .vscode/settings.json (JSONC). A file that cannot be read
// makes the state unknown.
func (vscodeClient) State(launchDir, gitTop string, env Env) *State {
	vs := &VSCodeState{Workspace: launchDir,
		Settings: Source{Path: filepath.Join(launchDir, filepath.FromSlash(VSCodeSettingsFile)), Display: VSCodeSettingsFile, RepoSide: true}}
	st := &State{Client: VSCode, LaunchDir: launchDir, VSCode: vs}
	if v, ok := readJSONFile(env.fs(), &vs.Settings, trust.VSCode); ok {
		vs.read(v)
	}
	if vs.Settings.Err != nil {
		src := vs.Settings
		vs.Unknown = &src
	}
	st.Sources = append(st.Sources, vs.Settings)
	_, closed := vscodeFolders(launchDir, gitTop, listNamed(env.fs(), launchDir, VSCodeWorkspaceExt), env.fs())
	st.Sources = append(st.Sources, closed...)
	return st
}

func (vs *VSCodeState) read(v trust.Value) {
	var errs []error
	for _, key := range []string{"chat.mcp.autostart", "chat.mcp.autoStart"} {
		a, ok := Setting(v, key)
		if !ok {
			continue
		}
		val, err := autostartValue(a)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
			continue
		}
		// Of the two spellings, the one that starts servers wins.
		if vs.Autostart == "" || vs.Autostart == AutostartNever {
			vs.Autostart, vs.AutostartRaw = val, key+" = "+a.JSON()
		}
	}
	if d, ok := Setting(v, "chat.mcp.discovery.enabled"); ok {
		vs.Discovery = d.JSON()
	}
	if t, ok := Setting(v, "task.allowAutomaticTasks"); ok {
		vs.AllowAutomaticTasks = t.JSON()
	}
	vs.Settings.Err = errors.Join(errs...)
}

// autostartValue reads chat.mcp.autostart's value; an unknown value is an
// error (the state is then unknown).
func autostartValue(v trust.Value) (string, error) {
	if b, ok := v.Bool(); ok {
		if b {
			return AutostartNewAndOutdated, nil
		}
		return AutostartNever, nil
	}
	s, ok := v.Str()
	switch {
	case !ok:
		return "", fmt.Errorf("a %s, not a string", v.Kind())
	case s == AutostartNever, s == AutostartOnlyNew, s == AutostartNewAndOutdated:
		return s, nil
	}
	return "", fmt.Errorf("unknown value %q", s)
}

// Setting looks a dotted setting up in a settings object as VS Code's
// configuration model does: "a.b.c" as one key, or split at any dot into
// nested objects ({"a": {"b.c": …}}). The last duplicate wins at each
// level; the flat key is tried first.
// OPEN: which wins when one file holds both forms.
func Setting(v trust.Value, key string) (trust.Value, bool) {
	if v.Kind() != "object" {
		return trust.Value{}, false
	}
	if x, ok := v.Get(key); ok {
		return x, true
	}
	for i := 0; i < len(key); i++ {
		if key[i] != '.' {
			continue
		}
		if sub, ok := v.Get(key[:i]); ok {
			if x, ok := Setting(sub, key[i+1:]); ok {
				return x, true
			}
		}
	}
	return trust.Value{}, false
}

func (vscodeClient) Gate(st *State, entries []Entry) []ServerVerdict {
	vs := st.VSCode
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		if e.Server != nil && e.Server.Kind != "" {
			out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server, Interactive: true, Headless: true, Why: vscodeTaskWhy + vscodeWorkspaceNote(e.Path)})
			continue
		}
		why, src := vs.runs(e.Name)
		why += vscodeWorkspaceNote(e.Path)
		v := ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server, Interactive: true, Headless: true, Why: why}
		if src != nil {
			v.Source, v.RepoSide = src.Display, src.RepoSide
		}
		if e.Server != nil {
			v.Why += vsServerNotes(e.Server)
		}
		out = append(out, v)
	}
	return out
}

// runs says why a workspace server runs without asking, and which file
// decided when one did.
func (vs *VSCodeState) runs(name string) (string, *Source) {
	if vs.Unknown != nil {
		return fmt.Sprintf("the state is unknown: %s cannot be read (%v); counted as running without asking", vs.Unknown.Display, vs.Unknown.Err), vs.Unknown
	}
	why := fmt.Sprintf("VS Code starts `%s` once the workspace is trusted (Workspace Trust) and the server is trusted; mcp-guard cannot read either decision, so it counts as running without asking", name)
	if vs.Autostart != "" && vs.AutostartOn() {
		return why + fmt.Sprintf("; %s sets %s: VS Code starts it by itself when a chat message is sent", vs.Settings.Display, vs.AutostartRaw), &vs.Settings
	}
	return why, nil
}

// vsServerNotes are the documented per-server keys that change what runs.
func vsServerNotes(s *trust.Server) string {
	var notes []string
	if s.Transport != trust.TransportStdio {
		notes = append(notes, "a remote server: connected, not spawned")
	}
	if m, ok := s.Member("sandboxEnabled"); ok && m == "true" {
		notes = append(notes, "sandboxEnabled: VS Code approves its tool calls without asking")
	}
	if _, ok := s.Member("dev"); ok {
		notes = append(notes, "dev mode: VS Code restarts it when watched files change")
	}
	if _, ok := s.Member("envFile"); ok {
		notes = append(notes, "envFile: its environment also comes from a file")
	}
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, "; ") + ")"
}

// Impact: once the workspace is trusted, a change runs without asking.
// VS Code also documents a trust prompt for a new or changed server;
// mcp-guard cannot read those decisions and does not count on the prompt.
func (vscodeClient) Impact(st *State, old, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: VS Code no longer starts it"}
	}
	if new.Kind != "" {
		return Impact{Interactive: true, Headless: true, Why: vscodeTaskWhy}
	}
	vs := st.VSCode
	im := Impact{Interactive: true, Headless: true}
	what := fmt.Sprintf("the new server `%s` runs", new.Name)
	if old != nil && old.Name == new.Name {
		what = changedPart(old, new)
	}
	switch {
	case vs.Unknown != nil:
		im.Why, im.Source, im.RepoSide = fmt.Sprintf("the state is unknown (%s cannot be read): %s without asking", vs.Unknown.Display, what), vs.Unknown.Display, vs.Unknown.RepoSide
	default:
		im.Why = fmt.Sprintf("VS Code trusts this workspace (as far as mcp-guard can tell): %s without asking; VS Code's own trust prompt for a new or changed server is not counted on", what)
		if vs.Autostart != "" && vs.AutostartOn() {
			im.Why += fmt.Sprintf("; %s sets %s, so it starts when a chat message is sent", vs.Settings.Display, vs.AutostartRaw)
			im.Source, im.RepoSide = vs.Settings.Display, true
		}
	}
	return im
}

// FolderOpenTask is a task of .vscode/tasks.json that VS Code runs when the
// folder is opened (runOptions.runOn "folderOpen"): in a trusted workspace,
// and, per the user's task.allowAutomaticTasks, without asking.
type FolderOpenTask struct {
	Label string
	// Type is "shell", "process" or an extension's task type.
	Type string
	// Command is the task's command; Args its arguments (a {"value": …}
	// argument as its value, any other non-string as its JSON text).
	Command string
	Args    []string
	// PlatformCommands are the command overrides under "linux", "osx" and
	// "windows", by platform.
	PlatformCommands map[string]string
	Pos              trust.Pos
	// Index is its place in the file's tasks.
	Index int
}

// ParseVSCodeTasks lists the folderOpen tasks of a tasks.json (JSONC). An
// error means the file could not be read as VS Code might: which tasks run
// when the folder opens is then unknown.
func ParseVSCodeTasks(data []byte) ([]FolderOpenTask, error) {
	root, err := trust.DecodeDialect(data, trust.VSCode)
	if err != nil {
		return nil, err
	}
	return vscodeTasks(root)
}

// vscodeTasks lists the folderOpen tasks of a tasks object (a tasks.json,
// a workspace file's "tasks").
func vscodeTasks(root trust.Value) ([]FolderOpenTask, error) {
	if root.Kind() != "object" {
		return nil, errors.New("the file is not an object")
	}
	tasks, ok := root.Get("tasks")
	if !ok {
		return nil, nil
	}
	if tasks.Kind() != "array" {
		return nil, fmt.Errorf("tasks is a %s, not an array", tasks.Kind())
	}
	var out []FolderOpenTask
	all := false // a folder-open task that depends on others runs them
	for _, t := range tasks.Elems() {
		if _, deps := t.Get("dependsOn"); deps && folderOpen(t) {
			all = true
		}
	}
	for i, t := range tasks.Elems() {
		if !folderOpen(t) && !all {
			continue
		}
		ft := FolderOpenTask{Index: i, Pos: t.Pos(), Command: taskString(t, "command")}
		ft.Label, _ = strOf(t, "label")
		ft.Type, _ = strOf(t, "type")
		if a, ok := t.Get("args"); ok {
			for _, e := range a.Elems() {
				ft.Args = append(ft.Args, taskValue(e))
			}
		}
		for _, p := range []string{"linux", "osx", "windows"} {
			if o, ok := t.Get(p); ok {
				if c := taskString(o, "command"); c != "" {
					if ft.PlatformCommands == nil {
						ft.PlatformCommands = map[string]string{}
					}
					ft.PlatformCommands[p] = c
				}
			}
		}
		out = append(out, ft)
	}
	return out, nil
}

// folderOpen reports whether a task runs when the folder opens; a
// runOptions of the wrong shape counts as running (OPEN).
func folderOpen(t trust.Value) bool {
	ro, ok := t.Get("runOptions")
	if !ok {
		return false
	}
	if ro.Kind() != "object" {
		return ro.Kind() != "null"
	}
	on, ok := ro.Get("runOn")
	if !ok {
		return false
	}
	s, isStr := on.Str()
	return !isStr || s == "folderOpen"
}

func strOf(v trust.Value, key string) (string, bool) {
	x, ok := v.Get(key)
	if !ok {
		return "", false
	}
	return x.Str()
}

func taskString(v trust.Value, key string) string {
	x, ok := v.Get(key)
	if !ok {
		return ""
	}
	return taskValue(x)
}

// taskValue is a command or argument: a string, {"value": string}, or the
// JSON text of anything else.
func taskValue(v trust.Value) string {
	if s, ok := v.Str(); ok {
		return s
	}
	if s, ok := strOf(v, "value"); ok {
		return s
	}
	return v.JSON()
}

// VSCodeFile is a VS Code settings or workspace file as the client reads
// it (State reads .vscode/settings.json so, Parse a .code-workspace): the
// positioned tree in VS Code's JSONC that the rules read too; an error
// where mcp-guard cannot read it as VS Code does.
func VSCodeFile(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, trust.VSCode)
}
