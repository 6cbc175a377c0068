package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// OpenCode 1.18.33 as observed (docs/opencode.md): marker servers in
// isolated homes, `opencode mcp list` and `opencode run` against a fake
// model on 127.0.0.1, and the config loader read from the shipped bundle.
// OpenCode has no approval for MCP servers: every enabled local entry of
// every project config starts when OpenCode starts, with no prompt, and
// the plugins of .opencode/plugin(s) and the `plugin` key are imported
// (run) at start the same way. Questions left open are marked OPEN and
// decided in the direction that never under-reports what runs.
type opencodeClient struct{}

func (opencodeClient) ID() ID                   { return OpenCode }
func (opencodeClient) Title() string            { return "OpenCode" }
func (opencodeClient) Command() string          { return "opencode" }
func (opencodeClient) Handover() Handover       { return HandDisableNames }
func (opencodeClient) Headless() string         { return "" }
func (opencodeClient) Unhanded([]string) string { return "" }
func (opencodeClient) Binds() string {
	return "OpenCode binds nothing to a server: it starts every enabled project server without asking"
}

// OpenCode's surfaces: its configs (opencode.json and opencode.jsonc in
// any directory, .opencode/ included) and its plugin directories, whose
// every file OpenCode imports at start.
var (
	KindOpenCodeConfig = surface.Register(surface.Spec{Name: "opencode-config", Client: string(OpenCode), Role: surface.Config,
		Patterns: []string{"**/opencode.json", "**/opencode.jsonc"}})
	KindOpenCodePlugin = surface.Register(surface.Spec{Name: "opencode-plugin", Client: string(OpenCode), Role: surface.Sibling,
		Patterns: []string{"**/.opencode/plugin/*", "**/.opencode/plugins/*"}})
	_ = registerDirs(OpenCode, "**/.opencode", "**/.opencode/plugin", "**/.opencode/plugins")
)

// OpenCodeDisableProject is the variable that keeps OpenCode from reading
// any project config, plugin or .opencode directory ("true" or "1").
const OpenCodeDisableProject = "OPENCODE_DISABLE_PROJECT_CONFIG"

// OpenCodeConfigContent is the variable whose JSON OpenCode merges after
// every file of the project: `mcp-guard launch` turns servers off there.
const OpenCodeConfigContent = "OPENCODE_CONFIG_CONTENT"

// opencodeNames are the config names, in the order OpenCode merges them
// within one directory: opencode.json, then opencode.jsonc over it.
var opencodeNames = []string{"opencode.json", "opencode.jsonc"}

// opencodePluginDirs are the directories below .opencode whose files
// OpenCode imports at start.
var opencodePluginDirs = []string{"plugin", "plugins"}

func opencodeFlag(env Env, name string) bool {
	v := strings.ToLower(env.getenv(name))
	return v == "true" || v == "1"
}

// opencodeWalk is the directories OpenCode reads project files from:
// the launch directory up to the git work tree's top (outside git, up to
// the file system's root; observed), nearest first.
func opencodeWalk(dir, gitTop string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == gitTop || filepath.Dir(d) == d {
			return out
		}
	}
}

// opencodeMergeOrder is every project config path OpenCode may read, in
// the order it merges them (later wins): opencode.json then .jsonc in
// each directory from the top down to the launch directory, then the
// .opencode directories from the launch directory up (the bundle's
// ConfigPaths.directories, not reversed), each json then jsonc.
func opencodeMergeOrder(dir, gitTop string) []string {
	walk := opencodeWalk(dir, gitTop)
	var out []string
	for i := len(walk) - 1; i >= 0; i-- {
		for _, n := range opencodeNames {
			out = append(out, filepath.Join(walk[i], n))
		}
	}
	for _, d := range walk {
		for _, n := range opencodeNames {
			out = append(out, filepath.Join(d, ".opencode", n))
		}
	}
	return out
}

// Configs are the project configs present, highest precedence first.
// OPENCODE_DISABLE_PROJECT_CONFIG reads none.
func (opencodeClient) Configs(launchDir, gitTop string, env Env) ([]string, error) {
	if opencodeFlag(env, OpenCodeDisableProject) {
		return nil, nil
	}
	fsys := env.fs()
	order := opencodeMergeOrder(realDir(launchDir, fsys), gitTop)
	var out []string
	for i := len(order) - 1; i >= 0; i-- {
		if present(fsys, order[i]) {
			out = append(out, order[i])
		}
	}
	return out, nil
}

// opencodeDoc is one config file read: its root, decoded, and the `mcp`
// object's entries as written.
type opencodeDoc struct {
	path string
	data []byte
	root trust.Value
	mcp  map[string]any
	err  error
}

// readOpenCodeDoc reads one OpenCode JSONC document of scope: a
// repository's within trust.MaxRepoValues, the user's own (their config
// files, $OPENCODE_CONFIG_CONTENT) within trust.MaxValues.
func readOpenCodeDoc(path string, data []byte, scope trust.Scope) *opencodeDoc {
	d := &opencodeDoc{path: path, data: data}
	if len(data) > trust.MaxFileSize {
		d.err = trust.ErrTooLarge
		return d
	}
	decode := trust.DecodeDialect
	if scope != trust.ScopeProject {
		decode = trust.DecodeUserDialect
	}
	v, err := decode(data, trust.OpenCode)
	if err == nil && v.Kind() != "object" {
		err = errors.New("the file is not an object")
	}
	if err != nil {
		d.err = err
		return d
	}
	d.root = v
	if m, ok := v.Get("mcp"); ok && m.Kind() == "object" {
		d.mcp = map[string]any{}
		for _, k := range m.Keys() {
			e, _ := m.Get(k)
			d.mcp[k] = decodeAny(e.JSON())
		}
	}
	return d
}

// decodeAny decodes one compact JSON text, numbers kept as written.
func decodeAny(text string) any {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil
	}
	return out
}

// Parse reads one config alone: its local entries normalised (command
// array split into command and args, environment as env); an entry that
// only switches a server on or off elsewhere (no command, url or type)
// is no server of this file.
func (opencodeClient) Parse(path string, data []byte) *trust.Config {
	d := readOpenCodeDoc(path, data, trust.ScopeProject)
	if d.err != nil || d.mcp == nil {
		return trust.ParseDialect(path, data, trust.ScopeProject, trust.OpenCode)
	}
	mine := map[string]any{}
	for name, e := range d.mcp {
		if !opencodeToggle(e) {
			mine[name] = e
		}
	}
	return d.config(mine)
}

// opencodeToggle reports whether an entry holds no server of its own
// (only enabled, timeout or the like): it changes a server another file
// defines.
func opencodeToggle(e any) bool {
	m, ok := e.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"command", "url", "type"} {
		if _, has := m[k]; has {
			return false
		}
	}
	return true
}

// opencodeNormal is an entry in trust.OpenCode's form: a local entry's
// command array becomes command and args, environment becomes env, and
// the keys OpenCode ignores for the entry's type are dropped (an `args`
// or `env` OpenCode never reads must not be taken for what it runs). A
// command array with anything but strings, or empty, stays as written:
// OpenCode rejects the whole config for it, and so does the dialect.
func opencodeNormal(e any) any {
	m, ok := e.(map[string]any)
	if !ok {
		return e
	}
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	delete(out, "args")
	delete(out, "env")
	delete(out, "disabled")
	if out["enabled"] == false {
		out["disabled"] = true
	}
	if env, ok := out["environment"]; ok {
		out["env"] = env
		delete(out, "environment")
	}
	switch out["type"] {
	case "remote":
		delete(out, "command")
	case "local":
		delete(out, "url")
	}
	if arr, ok := out["command"].([]any); ok && len(arr) > 0 {
		strs := true
		for _, a := range arr {
			if _, ok := a.(string); !ok {
				strs = false
			}
		}
		if strs {
			out["command"], out["args"] = arr[0], arr[1:]
		}
	}
	return out
}

// config parses the normalised entries as file d's servers, positions
// taken from d.
func (d *opencodeDoc) config(entries map[string]any) *trust.Config {
	norm := map[string]any{}
	for name, e := range entries {
		norm[name] = opencodeNormal(e)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"mcp": norm}); err != nil {
		return trust.UnreadableConfig(d.path, trust.ScopeProject, err)
	}
	c := trust.ParseDialect(d.path, buf.Bytes(), trust.ScopeProject, trust.OpenCode)
	c.SHA256 = trust.FileHash(d.data)
	mcp, _ := d.root.Get("mcp")
	// Each normalised key points at the key of the file it came from.
	from := map[string]string{"args": "command", "env": "environment"}
	at := func(server string) func(key string) trust.Pos {
		return func(key string) trust.Pos {
			e, ok := mcp.Get(server)
			if !ok {
				return trust.Pos{Line: 1, Column: 1}
			}
			if f, ok := from[key]; ok {
				key = f
			}
			if v, ok := e.Get(key); ok && key != "" {
				return v.Pos()
			}
			return e.Pos()
		}
	}
	for _, s := range c.Servers {
		s.Relocate(at(s.Name))
	}
	for i := range c.Findings {
		if f := &c.Findings[i]; f.Server != "" {
			p := at(f.Server)("")
			f.Line, f.Column = p.Line, p.Column
		}
	}
	return c
}

// opencodeMerge is the bundle's mergeDeep for what mcp-guard reads of it:
// objects merge key by key, anything else replaces.
func opencodeMerge(dst, src any) any {
	dm, ok1 := dst.(map[string]any)
	sm, ok2 := src.(map[string]any)
	if !ok1 || !ok2 {
		return src
	}
	out := make(map[string]any, len(dm)+len(sm))
	for k, v := range dm {
		out[k] = v
	}
	for k, v := range sm {
		if old, ok := out[k]; ok {
			out[k] = opencodeMerge(old, v)
		} else {
			out[k] = v
		}
	}
	return out
}

// opencodeNoPlugins is the way to start OpenCode in a checkout whose
// plugins mcp-guard cannot review (observed: disable-project): without
// any project config, so without the project's servers too.
var opencodeNoPlugins = "remove them, or start OpenCode without the project's configuration and plugins: " +
	OpenCodeDisableProject + "=1 opencode"

// opencodeShown is a plugin source as the user finds it: relative to the
// work tree's top (the launch directory outside git) when inside it.
func opencodeShown(p, dir, gitTop string) string {
	base := gitTop
	if base == "" {
		base = dir
	}
	if rel, err := filepath.Rel(base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return p
}

// OpenCodeState is what decides whether OpenCode starts each server: the
// merged entries of every config (the user's under the project's), who
// set `enabled` last, and the plugins the project makes it import.
type OpenCodeState struct {
	// Plugins are the project's plugin sources (a directory, or a config's
	// `plugin` key): OpenCode runs them at start without asking, and
	// mcp-guard cannot review them yet, so the gate stays closed.
	Plugins []string

	merged    map[string]any
	enabledBy map[string]string // name → the file that set enabled last
	repoSide  map[string]bool   // enabledBy is a project file
	paths     []string
	configs   []*trust.Config
}

// opencodeUserFiles are the user's own configs OpenCode merges under
// the project's (XDG config directory, ~/.opencode), lowest first, as
// (path, shown).
func opencodeUserFiles(env Env) [][2]string {
	home := trust.HomeDir(env.getenv)
	cfg, shown := filepath.Join(home, ".config", "opencode"), "~/.config/opencode"
	if x := env.getenv("XDG_CONFIG_HOME"); x != "" {
		cfg, shown = filepath.Join(x, "opencode"), "$XDG_CONFIG_HOME/opencode"
	}
	var out [][2]string
	for _, n := range append([]string{"config.json"}, opencodeNames...) {
		out = append(out, [2]string{filepath.Join(cfg, n), shown + "/" + n})
	}
	if p := env.getenv("OPENCODE_CONFIG"); p != "" {
		out = append(out, [2]string{p, "$OPENCODE_CONFIG"})
	}
	return out
}

// State reads every config OpenCode merges for launchDir. A user file
// that cannot be read leaves the state unknown (counted as running).
func (opencodeClient) State(launchDir, gitTop string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	ocs := &OpenCodeState{merged: map[string]any{}, enabledBy: map[string]string{}, repoSide: map[string]bool{}}
	st := &State{Client: OpenCode, LaunchDir: dir, OpenCode: ocs}
	type layer struct {
		doc   *opencodeDoc
		shown string
		repo  bool
	}
	var layers []layer
	for _, u := range opencodeUserFiles(env) {
		src := Source{Path: u[0], Display: u[1]}
		data, err := fsys.ReadFile(u[0])
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			src.Present, src.Err = true, err
		default:
			src.Present = true
			d := readOpenCodeDoc(u[0], data, trust.ScopeUser)
			if src.Err = d.err; d.err == nil {
				layers = append(layers, layer{doc: d, shown: u[1]})
			}
		}
		st.Sources = append(st.Sources, src)
	}
	project := map[string]*opencodeDoc{}
	if !opencodeFlag(env, OpenCodeDisableProject) {
		for _, p := range opencodeMergeOrder(dir, gitTop) {
			if !present(fsys, p) {
				continue
			}
			data, err := fsys.ReadFile(p)
			d := &opencodeDoc{path: p, err: err}
			if err == nil {
				d = readOpenCodeDoc(p, data, trust.ScopeProject)
			}
			project[p] = d
			if d.err == nil {
				layers = append(layers, layer{doc: d, shown: p, repo: true})
				if pl, ok := d.root.Get("plugin"); ok && (pl.Kind() != "array" || len(pl.Elems()) > 0) {
					ocs.Plugins = append(ocs.Plugins, p+": plugin")
				}
			}
		}
		for _, d := range opencodeWalk(dir, gitTop) {
			for _, n := range opencodePluginDirs {
				p := filepath.Join(d, ".opencode", n)
				if _, err := fsys.Lstat(p); err == nil {
					ocs.Plugins = append(ocs.Plugins, p)
				}
			}
		}
	}
	if c := env.getenv(OpenCodeConfigContent); c != "" {
		d := readOpenCodeDoc("$"+OpenCodeConfigContent, []byte(c), trust.ScopeUser)
		src := Source{Path: "$" + OpenCodeConfigContent, Display: "$" + OpenCodeConfigContent, Present: true, Err: d.err}
		st.Sources = append(st.Sources, src)
		if d.err == nil {
			layers = append(layers, layer{doc: d, shown: src.Display})
		}
	}
	for _, l := range layers {
		for name, e := range l.doc.mcp {
			ocs.merged[name] = opencodeMerge(ocs.merged[name], e)
			if m, ok := e.(map[string]any); ok {
				if _, set := m["enabled"]; set {
					ocs.enabledBy[name], ocs.repoSide[name] = l.shown, l.repo
				}
			}
		}
	}
	if len(ocs.Plugins) > 0 {
		shown := make([]string, len(ocs.Plugins))
		for i, p := range ocs.Plugins {
			shown[i] = opencodeShown(p, dir, gitTop)
		}
		st.Sources = append(st.Sources, Source{Display: "OpenCode plugins", RepoSide: true, Present: true,
			Err: fmt.Errorf("OpenCode imports the project's plugins at start without asking (%s), and mcp-guard cannot review plugins yet: %s",
				strings.Join(shown, ", "), opencodeNoPlugins)})
	}
	// Each merged server goes to the project file of highest precedence
	// naming it; a name only the user's files define is the user's own.
	paths, _ := opencodeClient{}.Configs(launchDir, gitTop, env)
	placed := map[string]bool{}
	for _, p := range paths {
		d := project[p]
		switch {
		case d == nil:
			ocs.configs = append(ocs.configs, trust.InvalidConfig(p, trust.ScopeProject, errors.New("not read")))
		case errors.Is(d.err, trust.ErrTooLarge):
			ocs.configs = append(ocs.configs, trust.UnreadableConfig(p, trust.ScopeProject, d.err))
		case d.err != nil:
			ocs.configs = append(ocs.configs, ParseFile(opencodeClient{}, p, d.data))
		default:
			mine := map[string]any{}
			for name := range d.mcp {
				if !placed[name] {
					placed[name] = true
					mine[name] = ocs.merged[name]
				}
			}
			ocs.configs = append(ocs.configs, d.config(mine))
		}
		ocs.paths = append(ocs.paths, p)
	}
	for name, e := range ocs.merged {
		if !placed[name] && !opencodeToggle(e) {
			raw, _ := json.Marshal(opencodeNormal(e))
			st.Own = append(st.Own, UserServer{Name: name, Scope: "user", Source: "OpenCode's user config", Entry: string(raw), Off: !ocs.enabled(name)})
		}
	}
	sort.Slice(st.Own, func(i, j int) bool { return st.Own[i].Name < st.Own[j].Name })
	return st
}

// files is the project configs with the merged servers, for Evaluate.
func (opencodeClient) files(st *State) ([]string, []*trust.Config) {
	return st.OpenCode.paths, st.OpenCode.configs
}

// enabled is the merged entry's `enabled`: on unless it is false.
func (ocs *OpenCodeState) enabled(name string) bool {
	m, ok := ocs.merged[name].(map[string]any)
	if !ok {
		return true
	}
	b, isBool := m["enabled"].(bool)
	return !isBool || b
}

// answer is one server's state.
func (ocs *OpenCodeState) answer(name string) (runs bool, why, src string, repo bool) {
	if _, known := ocs.merged[name]; known && !ocs.enabled(name) {
		by := ocs.enabledBy[name]
		return false, fmt.Sprintf("disabled (enabled: false in %s): OpenCode does not start it", by), by, ocs.repoSide[name]
	}
	return true, "OpenCode starts every enabled project server without asking (it has no approval for MCP servers)", "", false
}

func (opencodeClient) Gate(st *State, entries []Entry) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		runs, why, src, repo := st.OpenCode.answer(e.Name)
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: runs, Headless: runs, Why: why + remoteNote(e.Server), Source: src, RepoSide: repo})
	}
	return out
}

// Impact: OpenCode binds nothing to a server: any change, a new server
// included, starts at OpenCode's next start unless the entry is disabled.
func (opencodeClient) Impact(st *State, old, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: OpenCode no longer starts it"}
	}
	if v, ok := new.Value("enabled"); ok {
		if b, isBool := v.Bool(); isBool && !b {
			return Impact{Why: "disabled (enabled: false): OpenCode does not start it", RepoSide: true}
		}
	}
	runs, why, src, repo := st.OpenCode.answer(new.Name)
	if runs {
		why = "OpenCode starts every enabled project server without asking: this runs at its next start"
	}
	return Impact{Interactive: runs, Headless: runs, Why: why, Source: src, RepoSide: repo}
}

var (
	opencodeEnvRef  = lazyre.Regexp{Expr: `\{env:([^}]+)\}`}
	opencodeFileRef = lazyre.Regexp{Expr: `\{file:[^}]+\}`}
)

// Spawn substitutes {env:NAME} as OpenCode does in the file's text before
// parsing it (a defined variable's value, else ""), in command, args, env
// and cwd. {file:PATH} is replaced by a file's content relative to the
// config: mcp-guard leaves it literal and lists it in Unresolved.
// OPEN: OpenCode substitutes in the raw JSON text, so a value holding a
// quote changes the JSON; the spawn view substitutes in the decoded
// strings.
func (opencodeClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	sp := rawSpawn(s)
	x := &expander{lookup: lookup}
	var unresolved []string
	sub := func(str string) string {
		for _, m := range opencodeFileRef.Get().FindAllString(str, -1) {
			unresolved = append(unresolved, m)
		}
		return opencodeEnvRef.Get().ReplaceAllStringFunc(str, func(m string) string {
			name := opencodeEnvRef.Get().FindStringSubmatch(m)[1]
			x.use(name)
			v, _ := x.lookup(name)
			return v
		})
	}
	sp.Command = sub(s.Command)
	for i, a := range s.Args {
		if a.IsString {
			sp.Args[i] = sub(a.Str)
		}
	}
	for i, e := range sp.RawEnv {
		sp.Env[i].Value = sub(e.Value)
	}
	if v, ok := s.Value("cwd"); ok {
		if c, ok := v.Str(); ok {
			sp.Cwd = sub(c)
		}
	}
	sp.Vars, sp.Unresolved = x.vars, unresolved
	return sp
}

func (opencodeClient) disableLaunch(argv0 string, off, _, args, environ []string) ([]string, []string, error) {
	env, err := OpenCodeLaunchEnv(environ, off)
	return append([]string{argv0}, args...), env, err
}

// OpenCodeLaunchEnv is the environment `mcp-guard launch -- opencode`
// starts OpenCode in: OPENCODE_CONFIG_CONTENT set to {"mcp":{NAME:
// {"enabled":false},…}} for every project server that must not run,
// which OpenCode merges after every project file (observed on 1.18.33).
// A value the user set already is refused rather than replaced, and so is
// a name OpenCode would substitute into ({env:…}, {file:…}).
func OpenCodeLaunchEnv(environ, off []string) ([]string, error) {
	for _, kv := range environ {
		if k, v, _ := strings.Cut(kv, "="); k == OpenCodeConfigContent && v != "" {
			return nil, fmt.Errorf("%s is set already; mcp-guard does not merge into it", OpenCodeConfigContent)
		}
	}
	mcp := map[string]any{}
	for _, n := range off {
		if opencodeSubst.Get().MatchString(n) {
			return nil, fmt.Errorf("the OpenCode server name %q holds a {env:…} or {file:…} reference OpenCode would substitute", n)
		}
		mcp[n] = map[string]any{"enabled": false}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"mcp": mcp}); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k != OpenCodeConfigContent {
			out = append(out, kv)
		}
	}
	return append(out, OpenCodeConfigContent+"="+strings.TrimSpace(buf.String())), nil
}

var opencodeSubst = lazyre.Regexp{Expr: `\{(env|file):`}

// OpenCodeConfig is an OpenCode config file as the client reads it
// (readOpenCodeDoc): the positioned tree in OpenCode's dialect that the
// rules read too; an error where mcp-guard cannot read it as OpenCode does.
func OpenCodeConfig(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, trust.OpenCode)
}
