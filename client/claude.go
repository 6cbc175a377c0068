package client

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Claude Code 2.1.328 as observed (clients-observed.md). Questions the
// contract leaves open are marked OPEN: each is decided in the direction
// that never under-reports what runs, for the fidelity suite to settle.
type claudeClient struct{}

func (claudeClient) ID() ID             { return ClaudeCode }
func (claudeClient) Title() string      { return "Claude Code" }
func (claudeClient) Command() string    { return "claude" }
func (claudeClient) Handover() Handover { return HandConfigFile }
func (claudeClient) Headless() string   { return "claude -p" }

// Unhanded: `claude mcp list|get` spawns the project's servers for its
// health check, and the flags launch adds do not reach it (observed); a
// --setting-sources of the user's own replaces the one that keeps the
// repository's settings (its hooks and helpers) out.
func (claudeClient) Unhanded(args []string) string {
	if ClaudeHealthCheck(args) {
		return "`claude mcp list|get` spawns the project's servers for its health check, whatever launch hands it"
	}
	if ClaudeSettingsFlag(args) {
		return "your --setting-sources replaces the one with which launch keeps the repository's own hooks and helpers out"
	}
	return ""
}
func (claudeClient) Binds() string { return "Claude Code's approval binds only the name" }

// Parse reads a `.mcp.json` (its servers, and each server's headersHelper
// as an entry of its own), a `.claude/settings*.json` (its hooks and
// command-valued settings as entries), a skill's SKILL.md or a subagent's
// `.claude/agents/<name>.md` (its frontmatter hooks, claude_skills.go).
func (claudeClient) Parse(p string, data []byte) *trust.Config {
	if isClaudeSkill(p) {
		return parseClaudeSkill(p, data, EntrySkillHook)
	}
	if isClaudeAgent(p) {
		return parseClaudeSkill(p, data, EntrySubagentHook)
	}
	if isClaudeSettings(p) {
		return parseClaudeSettings(p, data)
	}
	c := trust.ParseDialect(p, data, trust.ScopeProject, trust.ClaudeCode)
	var helpers []*trust.Server
	for _, s := range c.Servers {
		if line, ok := s.StringMember("headersHelper"); ok {
			helpers = addEntry(c, helpers, EntryHeadersHelper, s.Name+"."+EntryHeadersHelper, s.Name, line, s.KeyPos("headersHelper"))
		}
	}
	c.Servers = append(c.Servers, helpers...)
	uniqueEntries(c)
	return c
}

// ClaudeMCPFile is the project config's name in every directory.
const ClaudeMCPFile = ".mcp.json"

// Claude Code's entry kinds: what it runs from a repository's files
// besides its MCP servers, each with /bin/sh -c (docs/claude-code.md).
const (
	// EntryHook is a settings `hooks` command, of any event.
	EntryHook = "hook"
	// EntryHeadersHelper is a server's `headersHelper`: run to get the
	// headers whenever Claude Code connects to the server.
	EntryHeadersHelper = "headersHelper"
	// EntryPlugin is a plugin the settings enable from a marketplace they
	// declare: its hooks, servers and commands.
	EntryPlugin = "plugin"
	// EntryEnv is the settings' `env`: Claude Code sets it in its own
	// process, so it reaches every server and hook it starts and decides
	// where its model traffic goes (observed on 2.1.328). One entry per
	// file, bound to every variable and to the files they name.
	EntryEnv = "env"
)

// claudeHelperKeys are the settings whose string value Claude Code runs
// with /bin/sh; claudeCommandObjects hold a `command` of type "command".
// Together they are the list Claude Code 2.1.328 itself keeps of the
// settings that run a command (its bundle), but for processWrapper and
// policyHelpers, which it does not take from a repository's settings
// (claudeWithheldKeys). gcpAuthRefresh, proxyAuthHelper and
// subagentStatusLine were read from that list and are observed running
// (fidelity gcp-auth-refresh, proxy-auth-helper, subagent-status-line):
// each only when its condition holds (Vertex AI, an env switch, a running
// subagent), which the repository's own env can meet for the first two;
// they count whatever the environment.
var (
	claudeHelperKeys     = []string{"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh", "otelHeadersHelper", "proxyAuthHelper"}
	claudeCommandObjects = []string{"statusLine", "fileSuggestion", "subagentStatusLine"}
)

// claudeWithheldKeys are settings Claude Code does not take from a
// project's or local settings file but does from a `--settings` file
// (its schema's own words, 2.1.328): a launch's handoff, which is such a
// file, must not carry them from the repository, or launch would make
// them count. processWrapper is an argv prefix for its background
// processes; autoMemoryDirectory where it writes memory; the others
// widen what a repository may do.
var claudeWithheldKeys = []string{"processWrapper", "policyHelper", "policyHelpers", "autoMemoryDirectory",
	"footerLinksRegexes", "bashEditDiffEnabled", "enableArtifact", "spinnerTipsOverride",
	"pluginSuggestionMarketplaces", "prependPlugins", "appendPlugins", "remoteTools", "skipDangerousModePermissionPrompt"}

// EntryNouns are Claude Code's words for its entry kinds: hooks (of
// settings, skills and subagents), helpers, status line and file
// suggestion commands, plugins, and the settings env.
func (claudeClient) EntryNouns() map[string]string {
	out := map[string]string{
		EntryHook: "hooks", EntrySkillHook: "hooks", EntrySubagentHook: "hooks",
		EntryHeadersHelper: "helpers", EntryPlugin: "plugins", EntryEnv: "env settings",
		"statusLine": "status line commands", "subagentStatusLine": "status line commands", "fileSuggestion": "file suggestion commands",
	}
	for _, k := range claudeHelperKeys {
		out[k] = "helpers"
	}
	return out
}

// ClaudeHelperKeys are the settings whose string Claude Code runs with
// /bin/sh, ClaudeCommandObjects those whose `command` it runs: each one
// an entry kind of its own, for the rules that name them.
func ClaudeHelperKeys() []string     { return slices.Clone(claudeHelperKeys) }
func ClaudeCommandObjects() []string { return slices.Clone(claudeCommandObjects) }

// isClaudeSettings reports whether p is a `.claude/settings*.json`.
func isClaudeSettings(p string) bool {
	k, ok := surface.Of(filepath.ToSlash(p))
	if ok && k == KindClaudeSettings {
		return true
	}
	// An absolute path (the gate's) is matched by its last two elements.
	dir := filepath.Base(filepath.Dir(p))
	base := filepath.Base(p)
	return strings.EqualFold(dir, ".claude") && (strings.EqualFold(base, "settings.json") || strings.EqualFold(base, "settings.local.json"))
}

// parseClaudeSettings reads the entries of a settings file: every hook
// command (of every event), the command-valued settings. A file Claude
// Code cannot read runs nothing; one mcp-guard cannot is unreadable.
func parseClaudeSettings(p string, data []byte) *trust.Config {
	c := &trust.Config{Path: p, Scope: trust.ScopeProject, Dialect: trust.ClaudeCode, SHA256: trust.FileHash(data)}
	root, err := trust.DecodeDialect(data, trust.ClaudeCode)
	switch {
	case errors.Is(err, trust.ErrUnreadable):
		return trust.UnreadableConfig(p, trust.ScopeProject, err)
	case err != nil:
		// OPEN: whether Claude Code keeps other sources' settings and
		// ignores this file, or stops; either way it runs nothing from it.
		// The settings rules say it (MG707), not a config's MG301.
		c.Err = fmt.Errorf("Claude Code cannot read these settings: %w", err)
		return c
	case root.Kind() != "object":
		return c
	}
	var out []*trust.Server
	if hooks, ok := root.Get("hooks"); ok {
		for _, h := range hookCommands(hooks, "hooks", 0) {
			out = addHook(c, out, EntryHook, h, h.pos)
		}
	}
	for _, k := range claudeHelperKeys {
		if v, ok := root.Get(k); ok && nonBlank(v) {
			s, _ := v.Str()
			out = addEntry(c, out, k, k, "", s, v.Pos())
		}
	}
	for _, k := range claudeCommandObjects {
		o, _ := root.Get(k)
		if v, ok := o.Get("command"); ok && nonBlank(v) {
			s, _ := v.Str()
			out = addEntry(c, out, k, k, "", s, v.Pos())
		}
	}
	out = append(out, claudePlugins(c, root)...)
	if env, ok := root.Get("env"); ok && env.Kind() == "object" && len(env.Keys()) > 0 {
		out = addEnvEntry(c, out, env)
	} else if ok && env.Kind() != "object" && env.Kind() != "null" {
		// OPEN: what Claude Code makes of an env that is not an object;
		// it is bound as written.
		out = addEnvEntry(c, out, env)
	}
	c.Servers = out
	uniqueEntries(c)
	return c
}

// claudePlugins are the plugins the settings enable from a marketplace
// they declare (extraKnownMarketplaces): once the folder is trusted
// Claude Code offers to install them, and an installed plugin's hooks,
// servers and commands run without asking. A marketplace in the
// repository (a directory) binds that directory whole; one elsewhere
// (GitHub, git, a URL, a package) holds code mcp-guard cannot see: the
// entry binds where it comes from.
// Claude Code joins its settings sources (the user's, the project's,
// the local) before it reads enabledPlugins, so a file may enable a
// plugin from a marketplace another file declares: another repository
// settings file, the user's own, or one Claude Code knows itself. A file
// is read alone here (a pull's side holds no other), so such a plugin is
// an entry that waits, bound only to its name and marked Remote: its
// code is where this file cannot say. Reviewed, it cannot be handed over
// as reviewed (launch refuses when a handoff is needed); unreviewed,
// launch leaves it out with the file. Join binds it to the marketplace
// the project's other settings file declares. OPEN: one the user's
// settings declare is not joined in; a local `false` over a project
// `true` still counts the project's (over-reports).
func claudePlugins(c *trust.Config, root trust.Value) []*trust.Server {
	markets, _ := root.Get("extraKnownMarketplaces")
	enabled, _ := root.Get("enabledPlugins")
	var out []*trust.Server
	for _, id := range enabled.Keys() {
		on, _ := enabled.Get(id)
		if !truthy(on) {
			continue
		}
		at := strings.LastIndexByte(id, '@')
		if at < 0 {
			continue
		}
		m, ok := markets.Get(id[at+1:])
		if !ok {
			if s := undeclaredPlugin(c, id, on); s != nil {
				out = append(out, s)
			}
			continue
		}
		src, _ := m.Get("source")
		kind, _ := src.StringAt("source")
		name := "plugins." + id
		var extra map[string]any
		_ = json.Unmarshal([]byte(src.JSON()), &extra)
		s, err := trust.CommandEntry(c.Path, trust.ClaudeCode, EntryPlugin, name, "", "/bin/sh",
			": Claude Code plugin "+id, on.Pos(), map[string]any{"marketplace": extra})
		if err != nil {
			c.Err = trust.Unreadable(fmt.Errorf("plugin %q: %w", id, err))
			continue
		}
		s.Shown = pluginShown(id, kind, src)
		if dir, ok := marketplaceTree(src); ok {
			s.Trees = []string{dir}
		} else {
			s.Remote = "the marketplace " + src.JSON()
		}
		out = append(out, s)
	}
	return out
}

// marketplaceTree is the directory in the repository a marketplace's
// source (extraKnownMarketplaces.NAME.source) holds its plugins in, as
// written (relative to the launch directory); ok false for a source
// elsewhere (GitHub, git, a URL, a package).
func marketplaceTree(src trust.Value) (string, bool) {
	kind, _ := src.StringAt("source")
	dir, _ := src.StringAt("path")
	if kind != "directory" && kind != "file" || dir == "" {
		return "", false
	}
	if kind == "file" {
		// .claude-plugin/marketplace.json: its plugins' paths are
		// relative to the marketplace's root, above it.
		dir = filepath.Dir(filepath.FromSlash(dir))
		if strings.EqualFold(filepath.Base(dir), ".claude-plugin") {
			dir = filepath.Dir(dir)
		}
	}
	return filepath.ToSlash(dir), true
}

// Join binds a plugin a settings file enables from a marketplace it does
// not declare (undeclaredPlugin) to the marketplace the project's other
// settings file declares, when that is a directory in the repository:
// Claude Code joins .claude/settings.json and .claude/settings.local.json
// before it reads enabledPlugins, so the plugin's code is that
// directory, and a change under it re-gates the entry. The entry stays
// marked Remote (this file alone still cannot say where its code is: it
// is not handed over as reviewed). A marketplace declared by the user's
// settings, or elsewhere than a directory, leaves the entry bound by
// its name only.
func (claudeClient) Join(c *trust.Config, read func(path string) ([]byte, bool)) {
	if !isClaudeSettings(c.Path) || c.Err != nil {
		return
	}
	var undeclared []*trust.Server
	for _, s := range c.Servers {
		if s.Kind == EntryPlugin && s.Remote == undeclaredMarketplace {
			undeclared = append(undeclared, s)
		}
	}
	if len(undeclared) == 0 {
		return
	}
	other := "settings.local.json"
	if strings.EqualFold(path.Base(c.Path), other) {
		other = "settings.json"
	}
	data, ok := read(path.Join(path.Dir(c.Path), other))
	if !ok {
		return
	}
	root, err := trust.DecodeDialect(data, trust.ClaudeCode)
	if err != nil || root.Kind() != "object" {
		return
	}
	markets, _ := root.Get("extraKnownMarketplaces")
	for _, s := range undeclared {
		id := strings.TrimPrefix(s.Name, "plugins.")
		m, ok := markets.Get(id[strings.LastIndexByte(id, '@')+1:])
		if !ok {
			continue
		}
		src, _ := m.Get("source")
		if dir, ok := marketplaceTree(src); ok {
			s.Trees = []string{dir}
		}
	}
}

// undeclaredMarketplace is what a plugin entry says of a marketplace
// its file does not declare.
const undeclaredMarketplace = "a marketplace this file does not declare"

// ClaudePluginWhen says how Claude Code comes to run the code of the
// plugin entry s, for the rules that grade it: one its file enables from
// a marketplace the file does not declare loads, with no install and no
// prompt, from the user's marketplace of that name (observed on 2.1.328,
// claude_markets.go), or from one the other settings file declares.
func ClaudePluginWhen(s *trust.Server) string {
	if s.Remote == undeclaredMarketplace {
		return "Claude Code loads it from wherever a marketplace of that name is known (your own settings or plugin registry: with no install and no prompt, `claude -p` in a folder not trusted too; or the other settings file) and runs its hooks, servers and commands without asking"
	}
	return "once the folder is trusted Claude Code offers to install it, and its hooks, servers and commands run without asking"
}

// undeclaredPlugin is the entry of plugin id enabled by on, from a
// marketplace the file does not declare (claudePlugins); nil when it
// cannot be modelled (c says so).
func undeclaredPlugin(c *trust.Config, id string, on trust.Value) *trust.Server {
	s, err := trust.CommandEntry(c.Path, trust.ClaudeCode, EntryPlugin, "plugins."+id, "", "/bin/sh",
		": Claude Code plugin "+id, on.Pos(), map[string]any{"marketplace": "undeclared"})
	if err != nil {
		c.Err = trust.Unreadable(fmt.Errorf("plugin %q: %w", id, err))
		return nil
	}
	s.Shown = []string{"plugin", id, "(marketplace", "not", "declared", "in", "this", "file)"}
	s.Remote = undeclaredMarketplace
	return s
}

// pluginShown is what people are shown of a plugin entry, instead of its
// stand-in shell line: `plugin NAME@MARKETPLACE (source KIND WHERE)`,
// WHERE the marketplace source's path, repo, url or package as written
// (its JSON when it names none of them).
func pluginShown(id, kind string, src trust.Value) []string {
	where := ""
	for _, k := range []string{"path", "repo", "url", "package"} {
		if v, ok := src.StringAt(k); ok && v != "" {
			where = v
			break
		}
	}
	if kind == "" || where == "" {
		return []string{"plugin", id, "(source", src.JSON() + ")"}
	}
	return []string{"plugin", id, "(source", kind, where + ")"}
}

// hookCommand is one command of a settings file's hooks.
type hookCommand struct {
	name, line string
	pos        trust.Pos
	// argv is the exec form ({"command": "node", "args": ["x.js"]}):
	// the command and its arguments, set when the hook has `args`.
	argv []string
	// with are the hook's other members that change what its command
	// does: the shell that reads the line, the env it runs with, the
	// `args` of a client that runs no exec form. A change of one re-gates it.
	with map[string]any
}

// runsNoCommand reports whether a hook of type t runs no command here: a
// "prompt" or "agent" hook asks the model, an "http" one posts to a URL,
// an "mcp_tool" one calls a tool of a server already configured (gated
// as that server). Claude Code 2.1.328's list of them (its bundle).
func runsNoCommand(t string) bool {
	return t == "prompt" || t == "agent" || t == "http" || t == "mcp_tool"
}

// hookMembers are the members of a command hook, besides the command and
// its args, that change what runs: the shell that reads the line
// (Claude Code's "bash" or "powershell") and the env it runs with (Gemini
// CLI spreads a hook's `env` into its environment: a BASH_ENV or
// NODE_OPTIONS there runs a file of the repository).
var hookMembers = []string{"shell", "env"}

// hookEntry is the entry of the hook h of the file path, named name, of
// kind: a client that runs a hook's `args` as its exec form (exec:
// Claude Code, spawning the command with those arguments and no shell)
// gets the command and its arguments as they run (the line of those words,
// each quoted); any other reads the line with /bin/sh and binds the args
// as written. extra are more members
// the client binds (Codex's hash).
func hookEntry(path string, d *trust.Dialect, kind, name string, h hookCommand, exec bool, extra map[string]any) (*trust.Server, error) {
	m := map[string]any{}
	for k, v := range h.with {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	if exec && h.argv != nil {
		// The exec form as the line that runs the same argv: each word
		// quoted, so no shell reads it otherwise.
		words := make([]string, len(h.argv))
		for i, w := range h.argv {
			words[i] = textsafe.ShellWord(w)
		}
		s, err := trust.CommandEntry(path, d, kind, name, "", "/bin/sh", strings.Join(words, " "), h.pos, m)
		if err == nil {
			// Shown as it runs: the command and its arguments, no shell.
			s.Shown, s.Exec = h.argv, true
		}
		return s, err
	}
	if h.argv != nil {
		m["hookArgs"] = h.argv[1:]
	}
	return trust.CommandEntry(path, d, kind, name, "", "/bin/sh", h.line, h.pos, m)
}

// withHookMembers sets on each command of cmds, the commands of the hook
// object v, the exec form and the members that change what it runs. A
// member in a form no client reads binds the whole hook as its text:
// what runs from it is then bound, not modelled.
func withHookMembers(v trust.Value, cmds []hookCommand) []hookCommand {
	with := map[string]any{}
	text := false
	for _, k := range hookMembers {
		m, ok := v.Get(k)
		if !ok || m.Kind() == "null" {
			continue
		}
		var x any
		if json.Unmarshal([]byte(m.JSON()), &x) != nil {
			text = true
			continue
		}
		if env, isObj := x.(map[string]any); k == "env" && isObj {
			for _, e := range env {
				if _, isStr := e.(string); !isStr {
					text = true
				}
			}
		} else if k == "env" {
			text = true
		}
		with[k] = x
	}
	var args []string
	if a, ok := v.Get("args"); ok && a.Kind() != "null" {
		args = []string{}
		for _, e := range a.Elems() {
			s, isStr := e.Str()
			if e.Kind() != "string" || !isStr {
				text = true
			}
			args = append(args, s)
		}
		if a.Kind() != "array" {
			text = true
		}
	}
	out := make([]hookCommand, 0, len(cmds))
	for _, h := range cmds {
		if text {
			h.line, h.argv, h.with = v.JSON(), nil, nil
			out = append(out, h)
			continue
		}
		if args != nil {
			h.argv = append([]string{h.line}, args...)
		}
		if len(with) > 0 {
			h.with = with
		}
		out = append(out, h)
	}
	return out
}

// claudeHookCommands are the commands below v, named by where they
// stand ("hooks.PreToolUse[0].hooks[1]"): every string but a matcher,
// type or timeout, the early form ({"PreToolUse": {"Bash": "cmd"}})
// included; a hook of type "prompt" or "agent" asks the model, one of
// type "http" posts to a URL: they run nothing here. A type Claude Code does not run only reports more.
func hookCommands(v trust.Value, at string, depth int) []hookCommand {
	if depth > 64 {
		return []hookCommand{{name: at, line: v.JSON(), pos: v.Pos()}} // too deep to follow: bound as text
	}
	switch v.Kind() {
	case "string":
		if nonBlank(v) {
			s, _ := v.Str()
			return []hookCommand{{name: at, line: s, pos: v.Pos()}}
		}
	case "array":
		var out []hookCommand
		for i, e := range v.Elems() {
			out = append(out, hookCommands(e, fmt.Sprintf("%s[%d]", at, i), depth+1)...)
		}
		return out
	case "object":
		if t, ok := v.Get("type"); ok {
			if s, _ := t.Str(); runsNoCommand(s) {
				return nil
			}
		}
		if c, ok := v.Get("command"); ok {
			return withHookMembers(v, hookCommands(c, at, depth+1))
		}
		var out []hookCommand
		for _, k := range v.Keys() {
			if k == "matcher" || k == "type" || k == "timeout" {
				continue
			}
			m, _ := v.Get(k)
			out = append(out, hookCommands(m, at+"."+k, depth+1)...)
		}
		return out
	}
	return nil
}

// ClaudeSettingsEntries are the entries of kind (EntryHook,
// EntryPlugin, …) a Claude Code settings file holds, as Parse reads them,
// for the rules that count or grade them; nil when the file does not read.
func ClaudeSettingsEntries(p string, data []byte, kind string) []*trust.Server {
	var out []*trust.Server
	for _, s := range parseClaudeSettings(p, data).Servers {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// ClaudeSettings is a Claude Code settings file as the client reads it:
// the positioned tree the settings rules read (trust's reader in Claude
// Code's dialect); an error where Claude Code cannot read it either.
func ClaudeSettings(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, trust.ClaudeCode)
}

// addEnvEntry appends the settings' env as one entry that runs nothing
// itself and carries the variables as its own env, so that the launch
// model binds what they make programs load (NODE_OPTIONS' --require, a
// PATH into the repository) and a change of any of them re-gates it.
// People are shown it as what it is, `env NAME=VALUE …` (Shown), not
// the stand-in shell line it is modelled with.
func addEnvEntry(c *trust.Config, out []*trust.Server, env trust.Value) []*trust.Server {
	vars := map[string]string{}
	keys := env.Keys()
	for _, k := range keys {
		v, _ := env.Get(k)
		if s, ok := v.Str(); ok {
			vars[k] = s
		} else {
			vars[k] = v.JSON() // as written: bound all the same
		}
	}
	// What it is, in the file's order (a key set twice where its last
	// value stands).
	slices.SortStableFunc(keys, func(a, b string) int {
		pa, _ := env.KeyPos(a)
		pb, _ := env.KeyPos(b)
		return cmp.Compare(pa.Offset, pb.Offset)
	})
	shown := []string{"env"}
	for _, k := range keys {
		shown = append(shown, k+"="+vars[k])
	}
	extra := map[string]any{"env": vars}
	if env.Kind() != "object" {
		extra = map[string]any{"settingsEnv": env.JSON()}
		shown = append(shown, env.JSON())
	}
	s, err := trust.CommandEntry(c.Path, trust.ClaudeCode, EntryEnv, EntryEnv, "", "/bin/sh",
		": Claude Code sets this env for its session and every server and hook it starts", env.Pos(), extra)
	if err != nil {
		c.Err = trust.Unreadable(fmt.Errorf("env: %w", err))
		return out
	}
	s.Shown = shown
	return append(out, s)
}

// nonBlank reports whether v is a string with more than white space.
func nonBlank(v trust.Value) bool {
	s, ok := v.Str()
	return ok && strings.TrimSpace(s) != ""
}

// addEntry appends to out Claude Code's entry that runs line with
// /bin/sh -c; one it cannot model leaves what runs from c unknown.
func addEntry(c *trust.Config, out []*trust.Server, kind, name, of, line string, pos trust.Pos) []*trust.Server {
	s, err := trust.CommandEntry(c.Path, trust.ClaudeCode, kind, name, of, "/bin/sh", line, pos, nil)
	if err != nil {
		c.Err = trust.Unreadable(fmt.Errorf("%s %q: %w", kind, name, err))
		return out
	}
	return append(out, s)
}

// addHook appends Claude Code's hook h (its exec form as it runs it) at
// pos, as addEntry does a command line.
func addHook(c *trust.Config, out []*trust.Server, kind string, h hookCommand, pos trust.Pos) []*trust.Server {
	h.pos = pos
	s, err := hookEntry(c.Path, trust.ClaudeCode, kind, h.name, h, true, nil)
	if err != nil {
		c.Err = trust.Unreadable(fmt.Errorf("%s %q: %w", kind, h.name, err))
		return out
	}
	return append(out, s)
}

// uniqueEntries leaves what runs from c unknown when two of its entries
// share a name (a server named like another's headersHelper): the ledger
// could not tell them apart. A file whose entries are not all known
// loads none.
func uniqueEntries(c *trust.Config) {
	seen := map[string]bool{}
	for _, s := range c.Servers {
		if seen[s.Name] && c.Err == nil {
			c.Err = trust.Unreadable(fmt.Errorf("two entries are named %q", s.Name))
		}
		seen[s.Name] = true
	}
	if c.Err != nil {
		c.Servers = nil
	}
}

// Claude Code's surfaces: `.mcp.json` in every directory, and the
// project settings that approve its servers, read below the config's
// directory too. A gitignored settings file is the user's own state,
// which Claude Code writes there itself.
var (
	KindClaudeMCP      = surface.Register(surface.Spec{Name: "claude-mcp", Client: string(ClaudeCode), Role: surface.Config, Patterns: []string{"**/" + ClaudeMCPFile}})
	KindClaudeSettings = surface.Register(surface.Spec{Name: "claude-settings", Client: string(ClaudeCode), Role: surface.Governing, Below: true, SharedOnly: true, Entries: true,
		Patterns: []string{"**/.claude/settings.json", "**/.claude/settings.local.json"}})
	_ = registerDirs(ClaudeCode, "**/.claude")
)

// Configs walks from the launch directory's real path up to "/", through
// the git root and above it: every .mcp.json, nearest first (nearest wins).
// OPEN: whether Claude Code walks the real path (process.cwd()) or a
// logical $PWD through a symlink; the real one is walked.
//
// Then the settings files whose hooks and helpers it runs, as State reads
// them: `.claude/settings.local.json` of the launch directory and of the
// project key's, `.claude/settings.json` of the launch directory.
func (claudeClient) Configs(launchDir, gitTop string, env Env) ([]string, error) {
	fsys := env.fs()
	out := claudeMCPFiles(launchDir, fsys)
	dir := realDir(launchDir, fsys)
	key := gitTop
	if key == "" {
		key = dir
	}
	settings := []string{filepath.Join(dir, ".claude", "settings.local.json")}
	if key != dir {
		settings = append(settings, filepath.Join(key, ".claude", "settings.local.json"))
	}
	settings = append(settings, filepath.Join(dir, ".claude", "settings.json"))
	for _, p := range settings {
		if fi, err := fsys.Stat(p); err == nil && !fi.IsDir() {
			out = append(out, p)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			out = append(out, p) // read it, and say what cannot be known
		}
	}
	out = append(out, claudeSkills(dir, gitTop, fsys)...)
	nested, err := claudeNestedSkills(dir, gitTop, env)
	if err != nil {
		return nil, err
	}
	out = append(out, nested...)
	return append(out, claudeAgents(dir, gitTop, fsys)...), nil
}

// claudeMCPFiles are the `.mcp.json` files Claude Code reads from
// launchDir, nearest first.
func claudeMCPFiles(launchDir string, fsys FS) []string {
	var out []string
	for d := realDir(launchDir, fsys); ; {
		p := filepath.Join(d, ClaudeMCPFile)
		fi, err := fsys.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			out = append(out, p)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			// A loop or an unreadable directory: read it and report what
			// cannot be known, rather than leave it out.
			if _, lerr := fsys.Lstat(p); lerr == nil {
				out = append(out, p)
			}
		}
		up := filepath.Dir(d)
		if up == d {
			return out
		}
		d = up
	}
}

// Spawn expands ${VAR} and ${VAR:-default} in command, args and env values;
// the server runs in the launch directory with the full environment plus
// its env.
//
// An entry (a hook, a helper) is a shell command line: the shell expands
// it when it runs, Claude Code does not.
func (claudeClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	sp := dollarSpawn(s, lookup)
	if len(sp.Missing) > 0 {
		sp.Warning = "Missing environment variables: " + strings.Join(sp.Missing, ", ")
	}
	return sp
}

// ClaudeState is Claude Code's approval state for one launch directory.
type ClaudeState struct {
	// ProjectKey is the ~/.claude.json projects key: the real path of the
	// git root, or of the launch directory outside git.
	ProjectKey string
	// Trusted is projects[ProjectKey].hasTrustDialogAccepted (truthy).
	Trusted bool
	// Dirs are the directories whose .claude/settings.local.json is read:
	// the launch directory's and the project key's (observed on 2.1.328:
	// from repo/a both are read and their lists combined, an intermediate
	// directory's is not). .claude/settings.json is read from the launch
	// directory only (observed: the git root's is not).
	Dirs []string
	// Unknown is set when a state file could not be read: then every
	// server counts as running without asking.
	Unknown *Source

	user, global claudeFile
	shared       claudeFile   // the launch directory's .claude/settings.json
	local        []claudeFile // per Dirs
	// markets are the plugin marketplaces the user's state registers
	// (claude_markets.go).
	markets claudeMarkets
}

// claudeFile is what one file holds of the MCP approval keys.
type claudeFile struct {
	src                 Source
	root                trust.Value // the file as read (absent or unreadable: no value)
	enabled, disabled   []string
	disabledMcpServers  []string // ~/.claude.json projects[p] only
	enableAll, enableOK bool     // enableOK: the key is set
}

// has reports whether list holds name, exactly (case-sensitive).
func has(list []string, name string) bool {
	for _, n := range list {
		if n == name {
			return true
		}
	}
	return false
}

// claudeHome locates the user settings and ~/.claude.json, moved together
// by $CLAUDE_CONFIG_DIR.
// OPEN: CLAUDE_CONFIG_DIR (and where ~/.claude.json goes with it) was not
// observed; Claude Code's documented layout is followed.
func claudeHome(env Env) (settings, global string, settingsShown, globalShown string) {
	home := trust.HomeDir(env.getenv)
	if d := env.getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "settings.json"), filepath.Join(d, ".claude.json"),
			"$CLAUDE_CONFIG_DIR/settings.json", "$CLAUDE_CONFIG_DIR/.claude.json"
	}
	return filepath.Join(home, ".claude", "settings.json"), filepath.Join(home, ".claude.json"),
		"~/.claude/settings.json", "~/.claude.json"
}

// State reads ~/.claude/settings.json, ~/.claude.json's project entry and
// the repository's .claude/settings.json and .claude/settings.local.json.
func (claudeClient) State(launchDir, gitTop string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	key := gitTop
	if key == "" {
		key = dir
	}
	cs := &ClaudeState{ProjectKey: key, Dirs: []string{dir}}
	if dir != key {
		cs.Dirs = append(cs.Dirs, key)
	}
	userPath, globalPath, userShown, globalShown := claudeHome(env)
	// The user's own servers in ~/.claude.json: local scope
	// (projects[key].mcpServers) first, then user scope (the top-level
	// mcpServers), the local one winning a name as in Claude Code.
	var own []UserServer
	cs.user = readClaudeSettings(fsys, Source{Path: userPath, Display: userShown})
	cs.global = readClaudeGlobal(fsys, Source{Path: globalPath, Display: globalShown}, key, &cs.Trusted, &own)
	shown := func(d, name string) string {
		if d == key {
			return filepath.Join(".claude", name)
		}
		if rel, err := filepath.Rel(key, d); err == nil {
			return filepath.Join(rel, ".claude", name)
		}
		return filepath.Join(d, ".claude", name)
	}
	for _, d := range cs.Dirs {
		cs.local = append(cs.local, readClaudeSettings(fsys, Source{Path: filepath.Join(d, ".claude", "settings.local.json"), Display: shown(d, "settings.local.json"), RepoSide: true}))
	}
	cs.shared = readClaudeSettings(fsys, Source{Path: filepath.Join(dir, ".claude", "settings.json"), Display: shown(dir, "settings.json"), RepoSide: true})
	st := &State{Client: ClaudeCode, LaunchDir: dir, Claude: cs, Own: own}
	for _, f := range cs.files() {
		st.Sources = append(st.Sources, f.src)
		if f.src.Err != nil && cs.Unknown == nil {
			src := f.src
			cs.Unknown = &src
		}
	}
	// The plugin registry: unreadable, it closes the gate (where a
	// plugin the repository enables comes from is unknown) without making
	// every server's approval unknown.
	cs.markets = readClaudeMarkets(env, cs.user.root, userShown)
	if cs.markets.registry.Path != "" {
		st.Sources = append(st.Sources, cs.markets.registry)
	}
	return st
}

func (cs *ClaudeState) files() []*claudeFile {
	out := []*claudeFile{&cs.user, &cs.global, &cs.shared}
	for i := range cs.local {
		out = append(out, &cs.local[i])
	}
	return out
}

func readClaudeSettings(fsys FS, src Source) claudeFile {
	f := claudeFile{src: src}
	v, ok := readJSONFile(fsys, &f.src, trust.ClaudeCode)
	if ok {
		f.root = v
		f.read(v)
	}
	return f
}

// readClaudeGlobal reads ~/.claude.json: projects[key]'s approval keys
// and trust, and the user's own servers (local scope, then user scope)
// into own.
func readClaudeGlobal(fsys FS, src Source, key string, trusted *bool, own *[]UserServer) claudeFile {
	f := claudeFile{src: src}
	f.src.Display = src.Display + " projects[" + key + "]"
	v, ok := readJSONFile(fsys, &f.src, trust.ClaudeCode)
	if !ok {
		return f
	}
	var local trust.Value
	defer func() {
		if f.src.Err == nil {
			*own = claudeOwn(local, v, f.disabledMcpServers, src.Display)
		}
	}()
	projects, ok := v.Get("projects")
	if !ok {
		return f
	}
	if projects.Kind() != "object" {
		f.src.Err = errors.New("projects is not an object")
		return f
	}
	p, ok := projects.Get(key)
	if !ok {
		return f
	}
	if p.Kind() != "object" {
		f.src.Err = fmt.Errorf("projects[%q] is not an object", key)
		return f
	}
	if t, ok := p.Get("hasTrustDialogAccepted"); ok {
		*trusted = truthy(t)
	}
	f.read(p)
	if f.src.Err == nil {
		f.disabledMcpServers, f.src.Err = stringList(p, "disabledMcpServers")
	}
	local = p
	return f
}

// claudeOwn are the servers of the project entry's mcpServers (local
// scope) and of the file's top-level mcpServers (user scope), a name
// taken once (local wins); a name in disabledMcpServers is Off.
func claudeOwn(project, global trust.Value, disabled []string, shown string) []UserServer {
	var out []UserServer
	seen := map[string]bool{}
	for _, sc := range []struct {
		v     trust.Value
		scope string
	}{{project, "local"}, {global, "user"}} {
		if sc.v.Kind() != "object" {
			continue
		}
		m, ok := sc.v.Get("mcpServers")
		if !ok || m.Kind() != "object" {
			continue
		}
		for _, name := range m.Keys() {
			if seen[name] {
				continue
			}
			seen[name] = true
			e, _ := m.Get(name)
			out = append(out, UserServer{Name: name, Scope: sc.scope, Source: shown, Entry: e.JSON(), Off: has(disabled, name)})
		}
	}
	return out
}

// read takes the MCP approval keys of a settings object; a key of the
// wrong type makes the file's state unknown.
func (f *claudeFile) read(v trust.Value) {
	var errs []error
	var err error
	f.enabled, err = stringList(v, "enabledMcpjsonServers")
	errs = append(errs, err)
	f.disabled, err = stringList(v, "disabledMcpjsonServers")
	errs = append(errs, err)
	if b, ok := v.Get("enableAllProjectMcpServers"); ok {
		f.enableAll, f.enableOK = b.Bool()
		if !f.enableOK {
			errs = append(errs, fmt.Errorf("enableAllProjectMcpServers is a %s, not a boolean", b.Kind()))
		}
	}
	f.src.Err = errors.Join(errs...)
}

func stringList(v trust.Value, key string) ([]string, error) {
	l, ok := v.Get(key)
	if !ok || l.Kind() == "null" {
		return nil, nil
	}
	if l.Kind() != "array" {
		return nil, fmt.Errorf("%s is a %s, not an array", key, l.Kind())
	}
	var out []string
	for _, e := range l.Elems() {
		s, ok := e.Str()
		if !ok {
			return nil, fmt.Errorf("%s holds a %s, not a string", key, e.Kind())
		}
		out = append(out, s)
	}
	return out, nil
}

// truthy is JavaScript's truthiness of a JSON value.
func truthy(v trust.Value) bool {
	switch v.Kind() {
	case "boolean":
		b, _ := v.Bool()
		return b
	case "string":
		s, _ := v.Str()
		return s != ""
	case "number":
		return v.Num() != 0
	case "null", "":
		return false
	}
	return true
}

// claudeAnswer is one name's state.
type claudeAnswer struct {
	interactive, headless bool
	denied                bool
	byName, byAll         bool
	why                   string
	src                   *Source
}

func (cs *ClaudeState) answer(name string) claudeAnswer {
	if cs.Unknown != nil {
		return claudeAnswer{interactive: true, headless: true, src: cs.Unknown,
			why: fmt.Sprintf("the approval state is unknown: %s cannot be read (%v); counted as running without asking", cs.Unknown.Display, cs.Unknown.Err)}
	}
	// Denies, honoured even in an untrusted folder, beat every enable.
	if has(cs.global.disabled, name) {
		return cs.deny(name, &cs.global.src, "disabledMcpjsonServers")
	}
	if has(cs.global.disabledMcpServers, name) {
		// OPEN: observed under -p and in `mcp list` status; assumed to
		// stop the interactive session too.
		return cs.deny(name, &cs.global.src, "disabledMcpServers")
	}
	if src := cs.repoDeny(name); src != nil {
		return cs.deny(name, src, "disabledMcpjsonServers")
	}
	a := claudeAnswer{headless: true}
	// By name: the user's settings apply even untrusted; the others only
	// once the folder is trusted. Lists are unioned.
	named := []*claudeFile{}
	if cs.Trusted {
		for i := range cs.local {
			named = append(named, &cs.local[i])
		}
		named = append(named, &cs.shared, &cs.global)
	}
	named = append(named, &cs.user)
	for _, f := range named {
		if has(f.enabled, name) {
			a.interactive, a.byName, a.src = true, true, &f.src
			a.why = fmt.Sprintf("Claude Code approved `%s` by name in %s (enabledMcpjsonServers): it runs without asking", name, f.src.Display)
			return a
		}
	}
	if src := cs.enableAll(); src != nil {
		a.interactive, a.byAll, a.src = true, true, src
		a.why = fmt.Sprintf("%s sets enableAllProjectMcpServers: Claude Code runs every project server without asking", src.Display)
		return a
	}
	if !cs.Trusted {
		a.why = fmt.Sprintf("the folder is not trusted (~/.claude.json projects[%s].hasTrustDialogAccepted): Claude Code asks first; `claude -p` runs it without asking", cs.ProjectKey)
	} else {
		a.why = fmt.Sprintf("`%s` is not approved by name: Claude Code asks first; `claude -p` runs it without asking", name)
	}
	return a
}

func (cs *ClaudeState) deny(name string, src *Source, key string) claudeAnswer {
	return claudeAnswer{denied: true, src: src,
		why: fmt.Sprintf("%s denies `%s` (%s): Claude Code does not run it, not even under `claude -p`", src.Display, name, key)}
}

// repoDeny is the repository file that denies name: any of the settings
// files Claude Code reads (observed: a deny in either settings.local.json,
// or in the launch directory's settings.json, holds).
func (cs *ClaudeState) repoDeny(name string) *Source {
	for i := range cs.local {
		if has(cs.local[i].disabled, name) {
			return &cs.local[i].src
		}
	}
	if has(cs.shared.disabled, name) {
		return &cs.shared.src
	}
	return nil
}

// enableAll is the file whose enableAllProjectMcpServers makes every
// server run, nil when none does. The scalar follows Claude Code's
// settings precedence, the most specific file that sets it winning: local,
// then shared (only when trusted), then the user's. Of the two local
// files, either one's true counts (which one wins was not observed).
// ~/.claude.json's project entry counts on its own when trusted.
// OPEN: its place in that precedence; it is credited whenever true.
func (cs *ClaudeState) enableAll() *Source {
	for i := range cs.local {
		chain := []*claudeFile{&cs.user}
		if cs.Trusted {
			chain = []*claudeFile{&cs.local[i], &cs.shared, &cs.user}
		}
		for _, f := range chain {
			if f.enableOK {
				if f.enableAll {
					return &f.src
				}
				break
			}
		}
	}
	if cs.Trusted && cs.global.enableOK && cs.global.enableAll {
		return &cs.global.src
	}
	return nil
}

func (claudeClient) Gate(st *State, entries []Entry) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		a := st.Claude.entryAnswer(e.Server, e.Name)
		v := ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: a.interactive, Headless: a.headless, Why: a.why}
		if a.why != "" {
			v.Why += remoteNote(e.Server)
		}
		if a.src != nil {
			v.Source, v.RepoSide = a.src.Display, a.src.RepoSide
		}
		out = append(out, v)
	}
	return out
}

// Impact: Claude Code binds approval to a name, so any change under an
// approved name runs without asking; a new name asks again unless every
// project server is enabled; `claude -p` runs everything not denied.
func (claudeClient) Impact(st *State, old, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: Claude Code no longer starts it"}
	}
	a := st.Claude.entryAnswer(new, new.Name)
	im := Impact{Interactive: a.interactive, Headless: a.headless}
	if a.src != nil {
		im.Source, im.RepoSide = a.src.Display, a.src.RepoSide
	}
	if new.Kind != "" {
		// Claude Code binds nothing of a hook or helper: a change runs
		// whenever the entry would (its server's state for a
		// headersHelper, the folder's trust for the others).
		im.Why = a.why
		if old != nil && st.Claude.Unknown == nil {
			im.Why = changedEntry(old, new) + ": " + a.why
		}
		return im
	}
	runs := fmt.Sprintf("the new server `%s` runs", new.Name)
	if old != nil && old.Name == new.Name {
		runs = changedPart(old, new)
	}
	switch {
	case a.denied, st.Claude.Unknown != nil:
		im.Why = a.why
	case a.byName:
		im.Why = fmt.Sprintf("Claude Code approved `%s` by name: %s without asking", new.Name, runs)
	case a.byAll:
		im.Why = fmt.Sprintf("%s enables every project server: %s without asking", a.src.Display, runs)
	case old != nil && old.Name != new.Name:
		im.Why = fmt.Sprintf("renamed from `%s`: Claude Code asks again for the new name `%s`; `claude -p` runs it without asking", old.Name, new.Name)
	default:
		im.Why = fmt.Sprintf("`%s` is not approved: Claude Code asks before it runs; `claude -p` runs it without asking", new.Name)
	}
	return im
}

// changedPart says what of an entry changed under one name, as "… runs".
func changedPart(old, new *trust.Server) string {
	oa, _ := old.Member("args")
	na, _ := new.Member("args")
	oe, _ := old.Member("env")
	ne, _ := new.Member("env")
	switch {
	case old.Command != new.Command:
		return "the new command runs"
	case oa != na:
		return "it runs with the new arguments"
	case oe != ne:
		return "it runs with the new environment"
	case old.Canonical() == new.Canonical():
		return "the changed script runs" // the entry is the same: what it runs changed
	}
	return "the changed entry runs"
}

// entryAnswer is the state of one entry: a server's by its name; a
// server's own entry (its headersHelper) runs whenever the server is
// connected; a hook or helper of the settings runs in a trusted folder,
// and under `claude -p`, which does not ask for trust; a subagent's hook
// was observed only in a trusted folder, and counts as running like them
// (the trust dialog reviews nothing).
// OPEN: disableAllHooks (which would keep hooks off) is not modelled:
// every hook counts as running.
func (cs *ClaudeState) entryAnswer(s *trust.Server, name string) claudeAnswer {
	if s == nil || s.Kind == "" {
		return cs.answer(name)
	}
	what := entryWords(s)
	if s.Of != "" {
		a := cs.answer(s.Of)
		a.why = fmt.Sprintf("Claude Code runs %s whenever it connects to `%s`; %s", what, s.Of, a.why)
		return a
	}
	if cs.Unknown != nil {
		return cs.answer(name)
	}
	if s.Kind == EntryPlugin {
		if a, ok := cs.pluginAnswer(s); ok {
			return a
		}
	}
	if cs.Trusted {
		return claudeAnswer{interactive: true, headless: true,
			why: fmt.Sprintf("Claude Code runs %s in a trusted folder without asking", what)}
	}
	if s.Kind == EntrySubagentHook {
		// Observed on 2.1.328: an untrusted folder's subagent ran none of
		// its hooks, not even under `claude -p`. Trusting the folder in
		// Claude Code's dialog is no review of them, so they still count.
		return claudeAnswer{headless: true,
			why: fmt.Sprintf("the folder is not trusted (~/.claude.json projects[%s].hasTrustDialogAccepted): Claude Code runs %s once you trust it, without asking (untrusted, not even `claude -p` ran one: observed); counted as running", cs.ProjectKey, what)}
	}
	return claudeAnswer{headless: true,
		why: fmt.Sprintf("the folder is not trusted (~/.claude.json projects[%s].hasTrustDialogAccepted): Claude Code asks to trust it first, then runs %s without asking; `claude -p` runs it without asking", cs.ProjectKey, what)}
}

// entryWords names an entry in Claude Code's words ("this hook").
func entryWords(s *trust.Server) string {
	switch s.Kind {
	case EntryHook:
		return "this hook"
	case EntrySkillHook:
		return "this skill's hook (while the skill is in use)"
	case EntrySubagentHook:
		return "this subagent's hook (while the subagent runs)"
	case EntryHeadersHelper:
		return "this headersHelper"
	case EntryPlugin:
		if s.Remote == undeclaredMarketplace {
			return fmt.Sprintf("this plugin's hooks, servers and commands once it knows the marketplace `%s`, which neither this file nor your own settings and plugin registry declare (the repository's other settings file or Claude Code itself may)", pluginMarket(s))
		}
		return "this plugin's hooks, servers and commands (once installed: it offers to install it when you trust the folder)"
	case EntryEnv:
		return "with this env (in its session and every server and hook it starts; ANTHROPIC_BASE_URL sends your key there)"
	}
	return "this " + s.Kind + " command"
}

// changedEntry says what of an entry changed.
func changedEntry(old, new *trust.Server) string {
	switch {
	case old.Canonical() != new.Canonical():
		return "the new command"
	case new.Kind == EntryPlugin:
		return "the changed plugin"
	}
	return "the changed script"
}
