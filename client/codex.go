package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Codex 0.169.0 as observed (clients-observed.md). Questions the contract
// leaves open are marked OPEN and decided in the direction that never
// under-reports what runs.
type codexClient struct{}

func (codexClient) ID() ID                   { return Codex }
func (codexClient) Title() string            { return "Codex" }
func (codexClient) Command() string          { return "codex" }
func (codexClient) Handover() Handover       { return HandDisableNames }
func (codexClient) Headless() string         { return "" }
func (codexClient) Unhanded([]string) string { return "" }
func (codexClient) Binds() string            { return "Codex binds nothing to a server" }

// CodexConfigFile is a project layer below a directory.
var CodexConfigFile = filepath.Join(".codex", "config.toml")

// CodexHooksFile is a project's hooks file below a directory.
var CodexHooksFile = filepath.Join(".codex", "hooks.json")

// Codex's surfaces: a project layer below any directory, and the hooks
// file beside it, whose commands are entries.
var (
	KindCodexConfig = surface.Register(surface.Spec{Name: "codex-config", Client: string(Codex), Role: surface.Config, Patterns: []string{"**/.codex/config.toml"}})
	KindCodexHooks  = surface.Register(surface.Spec{Name: "codex-hooks", Client: string(Codex), Role: surface.Sibling, Entries: true, Patterns: []string{"**/.codex/hooks.json"}})
	_               = registerDirs(Codex, "**/.codex")
)

// codexAppServer is what every verdict of a running server says.
const codexAppServer = "interactive Codex starts it from a background `codex app-server` process that keeps running after the UI exits"

// Configs are the .codex/config.toml layers from the launch directory's
// real path up to the git root, not above (only the launch directory's
// outside git), nearest first, each followed by the .codex/hooks.json
// beside it. The user's own files are never a layer.
// OPEN: a hooks.json below the git root was observed only in the launch
// directory; it is read wherever a layer is.
func (codexClient) Configs(launchDir, gitTop string, env Env) ([]string, error) {
	fsys := env.fs()
	user, _ := codexHome(env)
	var out []string
	for _, d := range codexDirs(realDir(launchDir, fsys), gitTop) {
		for _, f := range []string{CodexConfigFile, CodexHooksFile} {
			p := filepath.Join(d, f)
			if filepath.Dir(p) != filepath.Dir(user) && present(fsys, p) {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// isCodexHooks reports whether p is a .codex/hooks.json.
func isCodexHooks(p string) bool {
	return strings.EqualFold(filepath.Base(p), "hooks.json") && strings.EqualFold(filepath.Base(filepath.Dir(p)), ".codex")
}

// codexDirs are the directories whose layers Codex reads, nearest first.
func codexDirs(dir, gitTop string) []string {
	if gitTop == "" || !within(dir, gitTop) {
		return []string{dir}
	}
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == gitTop || filepath.Dir(d) == d {
			return out
		}
	}
}

// codexHome is the user's config.toml ($CODEX_HOME relocates it).
func codexHome(env Env) (path, shown string) {
	if d := env.getenv("CODEX_HOME"); d != "" {
		return filepath.Join(d, "config.toml"), "$CODEX_HOME/config.toml"
	}
	return filepath.Join(trust.HomeDir(env.getenv), ".codex", "config.toml"), "~/.codex/config.toml"
}

// Parse reads one layer alone: its [mcp_servers] as Codex validates them
// and its [hooks] commands as entries; or a .codex/hooks.json's hooks.
// A layer's `notify` (the argv Codex runs when a turn ends) is no entry:
// Codex 0.169.0 drops the key from every project layer, whatever its
// value, and says so ("Ignored unsupported project-local config keys in
// …: notify"), in `codex exec` and in the interactive client alike
// (fidelity notify/-p, notify/tui, notify-not-strings/-p); only the
// user's own config.toml runs one.
func (codexClient) Parse(path string, data []byte) *trust.Config {
	if isCodexHooks(path) {
		return parseCodexHooks(path, data)
	}
	l := readCodexTOML(path, data, trust.ScopeProject)
	if l.err != nil {
		return l.failed()
	}
	return l.withHooks(l.config(codexServers(l.root)))
}

// EntryHTTPHeadersHelper is a server's `http_headers_helper`: a shell
// line Codex runs with `sh -c` (sh found on its PATH), from the launch
// directory, whenever it connects to the server, to get the headers it
// sends (observed on 0.169.0 for a remote server of a trusted project's
// layer). Its name is the server's, then ".http_headers_helper".
const EntryHTTPHeadersHelper = "http_headers_helper"

// EntryNouns are Codex's words for its entry kinds.
func (codexClient) EntryNouns() map[string]string {
	return map[string]string{EntryHook: "hooks", EntryHTTPHeadersHelper: "helpers"}
}

// withHelpers adds each server's http_headers_helper to c as an entry of
// its own, bound to its line and to what the line runs; codexValidate
// has made sure each is a line Codex accepts.
func (d *codexDoc) withHelpers(c *trust.Config) *trust.Config {
	if c.Err != nil {
		return c
	}
	var helpers []*trust.Server
	for _, s := range c.Servers {
		line, ok := s.StringMember(EntryHTTPHeadersHelper)
		if !ok {
			continue
		}
		name := s.Name + "." + EntryHTTPHeadersHelper
		e, err := trust.CommandEntry(d.path, trust.Codex, EntryHTTPHeadersHelper, name, s.Name, "sh", line,
			d.at("mcp_servers", s.Name, EntryHTTPHeadersHelper), nil)
		if err != nil {
			c.Err, c.Servers = trust.Unreadable(fmt.Errorf("%s: %w", name, err)), nil
			return c
		}
		helpers = append(helpers, e)
	}
	return withEntries(c, helpers, "helper")
}

// codexHelperWhy is what a verdict on a server's http_headers_helper adds.
func codexHelperWhy(server string) string {
	return "Codex runs this http_headers_helper whenever it connects to `" + server + "`"
}

// parseCodexHooks reads a .codex/hooks.json ({"hooks": {"<Event>":
// [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]}}, the
// form Claude Code's settings use): every command is an entry Codex runs
// with a shell. A file Codex cannot parse runs nothing (it reports "Error
// parsing project hooks config file").
func parseCodexHooks(path string, data []byte) *trust.Config {
	c := &trust.Config{Path: path, Scope: trust.ScopeProject, Dialect: trust.Codex, SHA256: trust.FileHash(data)}
	root, err := trust.DecodeDialect(data, trust.ClaudeCode)
	switch {
	case errors.Is(err, trust.ErrUnreadable):
		return trust.UnreadableConfig(path, trust.ScopeProject, err)
	case err != nil:
		c.Err = fmt.Errorf("Codex cannot read these hooks: %w", err)
		return c
	}
	hooks, _ := root.Get("hooks")
	c.Servers, c.Err = codexHookEntries(path, hooks, nil)
	if c.Err != nil {
		c.Servers = nil
	}
	return c
}

// withHooks adds the layer's [hooks] commands to c as entries (read as
// hooks.json's: the same tables in TOML). A [hooks] that is not a table
// leaves what runs from the layer unknown.
func (d *codexDoc) withHooks(c *trust.Config) *trust.Config {
	if c.Err != nil {
		return c // Codex aborts on this layer: nothing of it runs
	}
	h, ok := d.root["hooks"]
	if !ok {
		return c
	}
	m, isTbl := h.(map[string]any)
	if !isTbl {
		c.Err, c.Servers = trust.Unreadable(fmt.Errorf("hooks is %s, not a table", tomlKind(h))), nil
		return c
	}
	events := map[string]any{}
	for k, v := range m {
		if k != "state" && k != "managed_dir" && k != "windows_managed_dir" {
			events[k] = v
		}
	}
	js, err := json.Marshal(jsonable(events))
	var v trust.Value
	if err == nil {
		v, err = trust.DecodeDialect(js, trust.ClaudeCode)
	}
	if err != nil {
		c.Err, c.Servers = trust.Unreadable(fmt.Errorf("hooks: %w", err)), nil
		return c
	}
	hooks, err := codexHookEntries(d.path, v, func(name string) trust.Pos {
		ev, _, _, _ := codexHookParts(name)
		return d.at("hooks", ev)
	})
	if err != nil {
		c.Err, c.Servers = trust.Unreadable(err), nil
		return c
	}
	return withEntries(c, hooks, "hook")
}

// withEntries adds a layer's entries of one kind (noun) to c; one named
// like an entry c holds leaves what the layer runs unknown (the ledger
// could not tell them apart).
func withEntries(c *trust.Config, entries []*trust.Server, noun string) *trust.Config {
	for _, s := range entries {
		if c.Server(s.Name) != nil {
			c.Err, c.Servers = trust.Unreadable(fmt.Errorf("a server and a %s are both named %q", noun, s.Name)), nil
			return c
		}
	}
	c.Servers = append(c.Servers, entries...)
	return c
}

// codexHookEntries are the commands of hooks (a file's "hooks" object) as
// entries, each with Codex's hash of it when mcp-guard can tell it; at,
// when set, is a command's position in the file (TOML's, its own being
// the JSON copy's).
func codexHookEntries(path string, hooks trust.Value, at func(name string) trust.Pos) ([]*trust.Server, error) {
	var out []*trust.Server
	for _, h := range hookCommands(hooks, "hooks", 0) {
		pos := h.pos
		if at != nil {
			pos = at(h.name)
		}
		var extra map[string]any
		if hash := codexHookHash(hooks, h.name); hash != "" {
			extra = map[string]any{codexHashKey: hash}
		}
		h.pos = pos
		s, err := hookEntry(path, trust.Codex, EntryHook, h.name, h, false, extra)
		if err != nil {
			return nil, fmt.Errorf("hook %q: %w", h.name, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// codexHookParts splits an entry name "hooks.SessionStart[0].hooks[1]"
// into its event, matcher group and handler; ok is false for any other
// shape (Codex's early or unknown forms).
func codexHookParts(name string) (event string, group, handler int, ok bool) {
	rest, found := strings.CutPrefix(name, "hooks.")
	if !found {
		return "", 0, 0, false
	}
	ev, rest, found := strings.Cut(rest, "[")
	if !found || ev == "" {
		return "", 0, 0, false
	}
	if _, err := fmt.Sscanf(rest, "%d].hooks[%d]", &group, &handler); err != nil ||
		rest != fmt.Sprintf("%d].hooks[%d]", group, handler) {
		return ev, 0, 0, false
	}
	return ev, group, handler, true
}

// CodexProjectHookTrust is where a project layer sets hooks.state (the
// record of hooks you trusted, which Codex writes in the user's config
// only), false when it does not or the file does not read.
func CodexProjectHookTrust(path string, data []byte) (trust.Pos, bool) {
	d := readCodexTOML(path, data, trust.ScopeProject)
	if d.err != nil {
		return trust.Pos{}, false
	}
	h, _ := d.root["hooks"].(map[string]any)
	if _, ok := h["state"]; !ok {
		return trust.Pos{}, false
	}
	return d.at("hooks", "state"), true
}

// CodexHookKey is the key under which Codex keeps its review of a hook in
// the user's config.toml ([hooks.state."<key>"] trusted_hash), observed on
// 0.169.0: the hook file's absolute path, the event in snake case, the
// matcher group and the handler ("/r/.codex/hooks.json:session_start:0:0").
func CodexHookKey(path, name string) (string, bool) {
	ev, g, h, ok := codexHookParts(name)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s:%s:%d:%d", path, codexEventLabel(ev), g, h), true
}

// codexDoc is one TOML file: its tables, where each key is, and why it
// could not be read.
type codexDoc struct {
	path, sha string
	root      map[string]any
	pos       map[string]trust.Pos // key path parts joined by "\x00"
	err       error
	errPos    trust.Pos
	// unreadable: mcp-guard's own limit, not Codex's error.
	unreadable bool
}

// MaxTOMLDepth is how deep tables, arrays and inline tables may nest in a
// TOML file mcp-guard reads; the TOML reader and the merge recurse, and no
// Codex config nests more than a few levels.
const MaxTOMLDepth = 64

// readCodexTOML reads one TOML file of scope: a repository's layer
// (trust.ScopeProject) within trust.MaxRepoValues, the user's own
// config.toml within trust.MaxValues.
func readCodexTOML(path string, data []byte, scope trust.Scope) *codexDoc {
	d := &codexDoc{path: path, sha: trust.FileHash(data), pos: map[string]trust.Pos{}}
	if len(data) > trust.MaxFileSize {
		d.err, d.unreadable = fmt.Errorf("%w: %d bytes, the limit is %d", trust.ErrTooLarge, len(data), trust.MaxFileSize), true
		return d
	}
	// Codex accepts a BOM; the TOML reader does not.
	data = []byte(strings.TrimPrefix(string(data), "\ufeff"))
	if n := tomlDepth(data); n > MaxTOMLDepth {
		d.err, d.unreadable = fmt.Errorf("arrays or inline tables nest %d deep, the limit is %d", n, MaxTOMLDepth), true
		return d
	}
	if line, over := tomlOverBudget(data, trust.ValueBudget(scope)); over {
		d.err, d.unreadable = trust.TooManyValues(scope, "TOML", line), true
		return d
	}
	if err := toml.Unmarshal(data, &d.root); err != nil {
		d.err, d.errPos = err, trust.Pos{Line: 1, Column: 1}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			r, c := de.Position()
			d.errPos = trust.Pos{Line: r, Column: c}
		}
		return d
	}
	if n := tomlNesting(d.root); n > MaxTOMLDepth {
		d.err, d.unreadable = fmt.Errorf("tables nest %d deep, the limit is %d", n, MaxTOMLDepth), true
		return d
	}
	d.positions(data)
	return d
}

// tomlOverBudget reports whether the TOML text holds more than budget
// values (every key part, table header and value, an element of an array
// or inline table: each is at most one thing the decoder builds), and the
// line where it passed it. go-toml's streaming parser holds one
// expression at a time, so counting costs no more than the largest
// expression. Nesting is bounded by tomlDepth first; dotted keys are
// siblings here, walked without recursion. A text that does not parse is
// left to the decoder, which says where.
func tomlOverBudget(data []byte, budget int) (line int, over bool) {
	p := &unstable.Parser{}
	p.Reset(data)
	n, at := 0, 0 // at: the furthest offset a node names (keys always do)
	var stack []*unstable.Node
	for p.NextExpression() {
		stack = append(stack[:0], p.Expression())
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for ; e != nil && e.Valid(); e = e.Next() {
				if e.Raw.Length > 0 {
					at = max(at, int(e.Raw.Offset))
				}
				if n++; n > budget {
					return 1 + bytes.Count(data[:min(at, len(data))], []byte("\n")), true
				}
				if c := e.Child(); c != nil && c.Valid() {
					stack = append(stack, c)
				}
			}
		}
	}
	return 0, false
}

// tomlNesting is how deep tables and arrays nest in a decoded value,
// counted without recursion: a dotted key can nest a million tables.
func tomlNesting(root any) int {
	type open struct {
		v     any
		depth int
	}
	max := 0
	stack := []open{{root, 0}}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if o.depth > max {
			max = o.depth
		}
		if max > MaxTOMLDepth {
			return max
		}
		switch t := o.v.(type) {
		case map[string]any:
			for _, e := range t {
				stack = append(stack, open{e, o.depth + 1})
			}
		case []any:
			for _, e := range t {
				stack = append(stack, open{e, o.depth + 1})
			}
		}
	}
	return max
}

// positions records where each key is defined (its first definition).
func (d *codexDoc) positions(data []byte) {
	p := &unstable.Parser{}
	p.Reset(data)
	at := func(n *unstable.Node) trust.Pos {
		s := p.Shape(n.Raw)
		return trust.Pos{Offset: s.Start.Offset, Line: s.Start.Line, Column: s.Start.Column}
	}
	var walk func(prefix []string, kv *unstable.Node, depth int)
	record := func(prefix []string, key unstable.Iterator) []string {
		parts := append([]string(nil), prefix...)
		for key.Next() {
			parts = append(parts, string(key.Node().Data))
			k := strings.Join(parts, "\x00")
			if _, ok := d.pos[k]; !ok {
				d.pos[k] = at(key.Node())
			}
		}
		return parts
	}
	walk = func(prefix []string, kv *unstable.Node, depth int) {
		parts := record(prefix, kv.Key())
		if v := kv.Value(); v.Kind == unstable.InlineTable && depth < MaxTOMLDepth {
			for c := v.Children(); c.Next(); {
				if c.Node().Kind == unstable.KeyValue {
					walk(parts, c.Node(), depth+1)
				}
			}
		}
	}
	var prefix []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			prefix = record(nil, e.Key())
		case unstable.ArrayTable:
			prefix = append(record(nil, e.Key()), "[]")
		case unstable.KeyValue:
			walk(prefix, e, 0)
		}
	}
}

// at is where a key path is, falling back to its nearest defined parent.
func (d *codexDoc) at(parts ...string) trust.Pos {
	for n := len(parts); n > 0; n-- {
		if p, ok := d.pos[strings.Join(parts[:n], "\x00")]; ok {
			return p
		}
	}
	return trust.Pos{Line: 1, Column: 1}
}

// failed is the layer Codex cannot read: the whole run aborts.
func (d *codexDoc) failed() *trust.Config {
	if d.unreadable {
		c := trust.UnreadableConfig(d.path, trust.ScopeProject, d.err)
		c.SHA256, c.Dialect = d.sha, trust.Codex
		return c
	}
	c := &trust.Config{Path: d.path, Scope: trust.ScopeProject, SHA256: d.sha, Dialect: trust.Codex, Err: d.err}
	c.Findings = append(c.Findings, trust.CodexUnparsable(d.path, d.errPos, d.err))
	return c
}

// codexServers is a file's [mcp_servers] table (nil when absent; a value
// that is not a table is kept for the validation to fail on).
func codexServers(root map[string]any) any {
	if v, ok := root["mcp_servers"]; ok {
		return v
	}
	return nil
}

// codexProblem is why Codex fails on the merged servers.
type codexProblem struct {
	server, key, msg string
}

// validate checks the merged [mcp_servers] as Codex deserializes them: any
// problem is fatal for every server of every config.
// OPEN: an entry with both command and url; it counts as spawned.
func codexValidate(servers any) []codexProblem {
	if servers == nil {
		return nil
	}
	tbl, ok := servers.(map[string]any)
	if !ok {
		return []codexProblem{{key: "mcp_servers", msg: fmt.Sprintf("mcp_servers is %s, not a table", tomlKind(servers))}}
	}
	var out []codexProblem
	for _, name := range slices.Sorted(maps.Keys(tbl)) {
		e, ok := tbl[name].(map[string]any)
		if !ok {
			out = append(out, codexProblem{name, "", fmt.Sprintf("the entry is %s, not a table", tomlKind(tbl[name]))})
			continue
		}
		bad := func(key, want string) {
			out = append(out, codexProblem{name, key, fmt.Sprintf("%s is %s, not %s (invalid type)", key, tomlKind(e[key]), want)})
		}
		for _, k := range []string{"command", "url", "cwd"} {
			if v, ok := e[k]; ok {
				if _, isStr := v.(string); !isStr {
					bad(k, "a string")
				}
			}
		}
		if v, ok := e["enabled"]; ok {
			if _, isBool := v.(bool); !isBool {
				bad("enabled", "a boolean")
			}
		}
		for _, k := range []string{"args", "env_vars"} {
			if v, ok := e[k]; ok {
				l, isList := v.([]any)
				if !isList {
					bad(k, "an array of strings")
					continue
				}
				for i, el := range l {
					if _, isStr := el.(string); !isStr {
						out = append(out, codexProblem{name, k, fmt.Sprintf("%s[%d] is %s, not a string (invalid type)", k, i, tomlKind(el))})
					}
				}
			}
		}
		if v, ok := e["env"]; ok {
			m, isTbl := v.(map[string]any)
			if !isTbl {
				bad("env", "a table of strings")
			}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if _, isStr := m[k].(string); !isStr {
					out = append(out, codexProblem{name, "env", fmt.Sprintf("env.%s is %s, not a string (invalid type)", k, tomlKind(m[k]))})
				}
			}
		}
		_, hasCmd := e["command"]
		_, hasURL := e["url"]
		if !hasCmd && !hasURL {
			out = append(out, codexProblem{name, "", "it has neither command nor url (invalid transport)"})
		}
		// Observed on 0.169.0: each of these stops Codex loading its
		// config ("http_headers_helper must not be empty", "… is not
		// supported for stdio").
		if v, ok := e[EntryHTTPHeadersHelper]; ok {
			line, isStr := v.(string)
			switch {
			case !isStr:
				bad(EntryHTTPHeadersHelper, "a string")
			case strings.TrimSpace(line) == "":
				out = append(out, codexProblem{name, EntryHTTPHeadersHelper, "http_headers_helper must not be empty"})
			case hasCmd:
				out = append(out, codexProblem{name, EntryHTTPHeadersHelper, "http_headers_helper is not supported for stdio"})
			}
		}
	}
	return out
}

func tomlKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// config is the Config of one layer holding servers (a validated
// [mcp_servers] value), read through trust's Codex dialect so that its
// servers have a canonical form; positions are the TOML file's.
func (d *codexDoc) config(servers any) *trust.Config {
	return d.configWith(servers, codexValidate(servers))
}

func (d *codexDoc) configWith(servers any, problems []codexProblem) *trust.Config {
	c := &trust.Config{Path: d.path, Scope: trust.ScopeProject, SHA256: d.sha, Dialect: trust.Codex}
	for _, k := range []string{"servers", "mcpServers"} {
		if _, ok := d.root[k]; ok {
			c.Findings = append(c.Findings, trust.CodexIgnoredTable(d.path, d.at(k), k))
		}
	}
	if len(problems) > 0 {
		var errs []error
		for _, p := range problems {
			errs = append(errs, fmt.Errorf("server %q: %w: %s", p.server, trust.ErrWrongType, p.msg))
			parts := []string{"mcp_servers"}
			if p.server != "" {
				parts = append(parts, p.server)
			}
			if p.key != "" && p.key != "mcp_servers" {
				parts = append(parts, p.key)
			}
			c.Findings = append(c.Findings, trust.CodexWrongType(d.path, d.at(parts...), p.server, strings.Join(parts, "."), p.msg))
		}
		c.Err = errors.Join(errs...)
		return c
	}
	tbl, _ := servers.(map[string]any)
	if len(tbl) == 0 {
		return c
	}
	tbl = codexMerge(nil, tbl)
	dropType(tbl)
	js, err := json.Marshal(map[string]any{"mcp_servers": jsonable(tbl)})
	if err != nil { // every value is made encodable above; stay closed anyway
		c.Err = trust.Unreadable(err)
		return c
	}
	p := trust.ParseDialect(d.path, js, trust.ScopeProject, trust.Codex)
	p.SHA256, p.Findings = d.sha, append(c.Findings, p.Findings...)
	for i := range p.Findings {
		if f := &p.Findings[i]; f.Server != "" {
			pos := d.keyPos(f.Server, f.Key)
			f.Line, f.Column = pos.Line, pos.Column
		}
	}
	for _, s := range p.Servers {
		s.NamePos = d.at("mcp_servers", s.Name)
		for i := range s.Args {
			s.Args[i].Pos = d.at("mcp_servers", s.Name, "args")
		}
		for i := range s.Env {
			s.Env[i].Pos = d.at("mcp_servers", s.Name, "env", s.Env[i].Name)
		}
	}
	return d.withHelpers(p)
}

// keyPos is the TOML position of a finding's key ("mcp_servers.<name>.env.X").
func (d *codexDoc) keyPos(server, key string) trust.Pos {
	rest := strings.TrimPrefix(key, "mcp_servers."+server)
	parts := []string{"mcp_servers", server}
	if rest = strings.TrimPrefix(rest, "."); rest != "" {
		first, tail, _ := strings.Cut(rest, ".")
		first, _, _ = strings.Cut(first, "[")
		parts = append(parts, first)
		if tail != "" {
			parts = append(parts, tail)
		}
	}
	return d.at(parts...)
}

// jsonable makes TOML values JSON-encodable: a non-finite float or a date
// becomes its text (Codex ignores the keys that can hold them). A
// non-string `type` is dropped: Codex reads no type key, and trust's
// reader would fail on it.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = jsonable(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = jsonable(e)
		}
		return out
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return fmt.Sprint(t)
		}
		return t
	case string, bool, int64:
		return t
	}
	return fmt.Sprint(v)
}

// dropType removes non-string type keys from each server entry.
func dropType(servers map[string]any) {
	for _, e := range servers {
		if m, ok := e.(map[string]any); ok {
			if _, isStr := m["type"].(string); !isStr {
				delete(m, "type")
			}
		}
	}
}

// codexMerge merges src into dst key by key, tables recursively (Codex
// merges its config layers this way); dst is modified.
func codexMerge(dst, src map[string]any) map[string]any {
	if dst == nil {
		dst = map[string]any{}
	}
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				dst[k] = codexMerge(dm, sm)
				continue
			}
			dst[k] = codexMerge(nil, sm)
			continue
		}
		dst[k] = v
	}
	return dst
}

// codexBaseEnv are the variables Codex passes a server from its own
// environment (unix), before env_vars and env.
var codexBaseEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "USER", "__CF_USER_TEXT_ENCODING", "LANG", "LC_ALL", "TERM", "TMPDIR", "TZ"}

// Spawn: no interpolation at all. The server gets a minimal environment
// (codexBaseEnv and the env_vars forwarded, when set) plus env, and runs
// in cwd when set.
func (codexClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	sp := rawSpawn(s)
	sp.InheritEnv = false
	names := append([]string(nil), codexBaseEnv...)
	if v, ok := s.Value("env_vars"); ok {
		for _, e := range v.Elems() {
			if n, ok := e.Str(); ok {
				names = append(names, n)
			}
		}
	}
	var env []EnvEntry
	index := map[string]int{}
	set := func(n, v string) {
		if i, ok := index[n]; ok {
			env[i].Value = v
			return
		}
		index[n] = len(env)
		env = append(env, EnvEntry{n, v})
	}
	for _, n := range names {
		if v, ok := lookup(n); ok {
			set(n, v)
		}
		if !contains(sp.Vars, n) {
			sp.Vars = append(sp.Vars, n)
		}
	}
	for _, e := range sp.RawEnv {
		set(e.Name, e.Value)
	}
	sp.Env = env
	if v, ok := s.Value("cwd"); ok {
		sp.Cwd, _ = v.Str()
	}
	return sp
}

func (codexClient) interpolates() bool { return false }

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// CodexState is Codex's project trust for one launch directory, and the
// layers it loads.
type CodexState struct {
	// UserConfig is the user's config.toml.
	UserConfig string
	// Layers are the project layers, nearest first.
	Layers []CodexLayer
	// Abort is why Codex aborts the run (a layer it loads does not parse,
	// or a server of the merged config is invalid): nothing runs.
	Abort error
	// Unknown is set when the user's config could not be read: then every
	// server counts as running without asking.
	Unknown *Source
	// AppServer says that interactive Codex spawns its servers from a
	// background process that outlives the UI: a server may keep running
	// after the launch ends.
	AppServer string

	// Hooks are the project's .codex/hooks.json files, nearest first.
	Hooks []CodexHooks

	userShown string
	trusted   map[string]bool
	// hookTrust: what hooks.state says of each hook key (its trusted_hash
	// and the file holding it, enabled = false).
	hookTrust map[string]codexHookState
	user      *codexDoc
	merged    map[string]any
	// configs are the layers' Configs, with the merged servers (files).
	configs []*trust.Config
	// enabledBy is the file whose `enabled` key the merged server took.
	enabledBy map[string]string
}

// CodexHooks is one .codex/hooks.json between the launch directory and
// the git root: Codex loads it where it loads the layer beside it.
type CodexHooks struct {
	Dir, Path string
	Loads     bool
	TrustedBy string

	cfg *trust.Config
}

// CodexLayer is one .codex/config.toml between the launch directory and
// the git root.
type CodexLayer struct {
	Dir, Path string
	// Loads is whether Codex reads it: its directory, or a directory
	// between it and the git root, is trusted.
	Loads bool
	// TrustedBy is the trusted directory that loads it.
	TrustedBy string

	doc *codexDoc
	cfg *trust.Config // the layer alone, when mcp-guard could not read it
}

func (codexClient) State(launchDir, gitTop string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	userPath, userShown := codexHome(env)
	cs := &CodexState{UserConfig: userPath, userShown: userShown, AppServer: codexAppServer,
		trusted: map[string]bool{}, enabledBy: map[string]string{}, hookTrust: map[string]codexHookState{}}
	st := &State{Client: Codex, LaunchDir: dir, Codex: cs}
	src := Source{Path: userPath, Display: userShown}
	data, err := fsys.ReadFile(userPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		src.Present, src.Err = true, err
	default:
		src.Present = true
		cs.user = readCodexTOML(userPath, data, trust.ScopeUser)
		if cs.user.err != nil {
			src.Err = cs.user.err
		} else if err := cs.readTrust(); err != nil {
			src.Err = err
		} else if err := cs.readHookTrust(cs.user.root); err != nil {
			src.Err = err
		}
	}
	if src.Err != nil {
		s := src
		cs.Unknown = &s
	}
	st.Sources = append(st.Sources, src)

	dirs := codexDirs(dir, gitTop)
	paths, _ := codexClient{}.Configs(launchDir, gitTop, env)
	for _, p := range paths {
		l := CodexLayer{Dir: filepath.Dir(filepath.Dir(p)), Path: p}
		l.Loads, l.TrustedBy = cs.loads(l.Dir, dirs)
		if isCodexHooks(p) {
			h := CodexHooks{Dir: l.Dir, Path: p, Loads: l.Loads, TrustedBy: l.TrustedBy}
			h.cfg = readConfig(codexClient{}, p, fsys)
			cs.Hooks = append(cs.Hooks, h)
			continue
		}
		raw, err := fsys.ReadFile(p)
		switch {
		case errors.Is(err, trust.ErrTooLarge):
			l.cfg = trust.UnreadableConfig(p, trust.ScopeProject, err)
		case err != nil:
			l.cfg = trust.InvalidConfig(p, trust.ScopeProject, err)
		default:
			l.doc = readCodexTOML(p, raw, trust.ScopeProject)
		}
		cs.Layers = append(cs.Layers, l)
	}
	cs.merge()
	return st
}

// loads is whether Codex loads the project files of dir: it, or a
// directory between it and the git root, is trusted; and which one.
func (cs *CodexState) loads(dir string, dirs []string) (bool, string) {
	for _, d := range dirs {
		if within(dir, d) && cs.trusted[d] {
			return true, d
		}
	}
	return false, ""
}

// readHookTrust takes the user's [hooks.state."<key>"] entries (the key
// trimmed, as Codex does): a trusted_hash is a hook you trusted in Codex
// (its "Hooks need review" dialog, /hooks); enabled = false one you turned
// off, which Codex skips. Codex reads hooks.state only from the user's
// config (its source, config_rules.rs): a project layer's own
// trusted_hash, Codex's hash of the hook it records, neither ran the hook
// under `codex exec` nor spared it the interactive review (observed on
// 0.169.0, fidelity hooks-state-project), so it counts for nothing.
func (cs *CodexState) readHookTrust(root map[string]any) error {
	h, ok := root["hooks"].(map[string]any)
	if !ok {
		return nil
	}
	st, ok := h["state"]
	if !ok {
		return nil
	}
	tbl, ok := st.(map[string]any)
	if !ok {
		return fmt.Errorf("hooks.state is %s, not a table", tomlKind(st))
	}
	for k, v := range tbl {
		e, ok := v.(map[string]any)
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			continue
		}
		st := cs.hookTrust[k]
		if hash, _ := e["trusted_hash"].(string); hash != "" && st.hash == "" {
			st.hash = hash
		}
		if off, isBool := e["enabled"].(bool); isBool && !off {
			st.off = true
		}
		cs.hookTrust[k] = st
	}
	return nil
}

// readTrust takes [projects."<path>"] trust_level = "trusted" entries.
func (cs *CodexState) readTrust() error {
	p, ok := cs.user.root["projects"]
	if !ok {
		return nil
	}
	projects, ok := p.(map[string]any)
	if !ok {
		return fmt.Errorf("projects is %s, not a table", tomlKind(p))
	}
	for k, v := range projects {
		if e, ok := v.(map[string]any); ok && e["trust_level"] == "trusted" {
			// The key is compared with the real path as written; a
			// trailing slash is forgiven (OPEN, the side that trusts).
			cs.trusted[filepath.Clean(k)] = true
		}
	}
	return nil
}

// merge builds what Codex runs: the user's [mcp_servers] under every
// loaded layer, farthest first, key by key; then the Configs per layer.
func (cs *CodexState) merge() {
	var merged map[string]any
	if cs.user != nil && cs.user.err == nil {
		if t, ok := codexServers(cs.user.root).(map[string]any); ok {
			merged = codexMerge(nil, t)
			cs.noteEnabled(t, cs.userShown)
		}
	}
	var mergeErr []codexProblem
	for i := len(cs.Layers) - 1; i >= 0; i-- {
		l := &cs.Layers[i]
		if !l.Loads {
			continue
		}
		if l.doc == nil || l.doc.err != nil {
			if l.doc != nil && !l.doc.unreadable {
				cs.Abort = fmt.Errorf("%s does not parse: %w", l.Path, l.doc.err)
			}
			continue
		}
		switch t := codexServers(l.doc.root).(type) {
		case nil:
		case map[string]any:
			merged = codexMerge(merged, t)
			cs.noteEnabled(t, l.Path)
		default:
			mergeErr = append(mergeErr, codexProblem{key: "mcp_servers", msg: l.Path + ": mcp_servers is " + tomlKind(t) + ", not a table"})
		}
	}
	problems := append(mergeErr, codexValidate(merged)...)
	if cs.Abort == nil && len(problems) > 0 {
		cs.Abort = fmt.Errorf("server %q: %s", problems[0].server, problems[0].msg)
	}
	cs.merged = merged
	// Each merged server goes to the nearest loaded layer naming it; a
	// layer Codex does not load keeps its own servers, for review.
	placed := map[string]bool{}
	cs.configs = make([]*trust.Config, len(cs.Layers))
	for pass := 0; pass < 2; pass++ {
		for i := range cs.Layers {
			if l := &cs.Layers[i]; l.Loads == (pass == 0) {
				cs.configs[i] = l.config(merged, problems, placed)
				if l.doc != nil && l.doc.err == nil {
					cs.configs[i] = l.doc.withHooks(cs.configs[i])
				}
			}
		}
	}
}

// config is the layer's Config: the merged servers it is the nearest to
// name when it loads, its own otherwise; problems of the merged config
// are reported on the layer holding their server.
func (l *CodexLayer) config(merged map[string]any, problems []codexProblem, placed map[string]bool) *trust.Config {
	switch {
	case l.cfg != nil:
		return l.cfg
	case l.doc.err != nil:
		return l.doc.failed()
	}
	m := codexServers(l.doc.root)
	own, isTbl := m.(map[string]any)
	if !isTbl && m != nil {
		return l.doc.config(m)
	}
	mine := map[string]any{}
	for name, e := range own {
		if placed[name] {
			continue
		}
		placed[name] = true
		mine[name] = e
		if l.Loads {
			mine[name] = merged[name]
		}
	}
	if !l.Loads {
		return l.doc.config(mine)
	}
	var mp []codexProblem
	for _, p := range problems {
		if _, ok := mine[p.server]; ok {
			mp = append(mp, p)
		}
	}
	return l.doc.configWith(mine, mp)
}

// noteEnabled records which file sets each server's enabled key (later
// calls are nearer layers and win).
func (cs *CodexState) noteEnabled(servers map[string]any, src string) {
	for name, e := range servers {
		if m, ok := e.(map[string]any); ok {
			if _, ok := m["enabled"]; ok {
				cs.enabledBy[name] = src
			}
		}
	}
}

// files is the layers with the merged servers, for Evaluate: the loaded
// layers first, nearest first, then those Codex does not load.
func (codexClient) files(st *State) (paths []string, cfgs []*trust.Config) {
	cs := st.Codex
	for pass := 0; pass < 2; pass++ {
		for i, l := range cs.Layers {
			if l.Loads == (pass == 0) {
				paths = append(paths, l.Path)
				cfgs = append(cfgs, cs.configs[i])
			}
		}
		for _, h := range cs.Hooks {
			if h.Loads == (pass == 0) {
				paths = append(paths, h.Path)
				cfgs = append(cfgs, h.cfg)
			}
		}
	}
	return paths, cfgs
}

// fileLoads is whether Codex loads the project file at path.
func (cs *CodexState) fileLoads(path string) bool {
	for _, l := range cs.Layers {
		if l.Path == path {
			return l.Loads
		}
	}
	for _, h := range cs.Hooks {
		if h.Path == path {
			return h.Loads
		}
	}
	return false
}

// loadedFiles are the project files Codex loads: layers, then hooks files.
func (cs *CodexState) loadedFiles() []string {
	var out []string
	for _, l := range cs.Layers {
		if l.Loads {
			out = append(out, l.Path)
		}
	}
	for _, h := range cs.Hooks {
		if h.Loads {
			out = append(out, h.Path)
		}
	}
	return out
}

// hookState is what hooks.state says of the hook name of the file at
// path ("" for any file that loads: a change under review); known is
// false when it says nothing of it.
func (cs *CodexState) hookState(path, name string) (st codexHookState, known bool) {
	files := []string{path}
	if path == "" {
		files = cs.loadedFiles()
	}
	for _, f := range files {
		if key, ok := CodexHookKey(f, name); ok {
			if st, ok := cs.hookTrust[key]; ok && (st.hash != "" || st.off) {
				return st, true
			}
		} else {
			for _, st := range cs.hookTrust {
				if st.hash != "" { // a hook Codex may key otherwise: counted as trusted
					return codexHookState{hash: st.hash}, true
				}
			}
		}
	}
	return codexHookState{}, false
}

// codexHookWhy says how Codex treats a hook it trusts: it keeps a hash of
// the hook's command (with its event, matcher and timeout), not of the
// script the command runs.
const codexHookWhy = "Codex trusts it by a hash of its command, not of the script the command runs: it runs without asking, and so does any change to that script"

// hookAnswer is a hook's state: loaded with its project, run only once
// you trusted it in Codex and while its hash is the one you trusted
// (observed on 0.169.0: interactive Codex asks "Hooks need review" for a
// new or changed one; `codex exec` skips it silently), never when you
// turned it off. hash is Codex's hash of the hook, "" when mcp-guard
// cannot tell it: then any trusted_hash for its key counts.
func (cs *CodexState) hookAnswer(path, name, hash string) (runs bool, why, src string, repo bool) {
	if cs.Unknown != nil {
		return cs.answer(path, name, nil)
	}
	if (path != "" && !cs.fileLoads(path)) || (path == "" && len(cs.loadedFiles()) == 0) {
		return false, fmt.Sprintf("the project is not trusted (%s has no [projects.\"<dir>\"] trust_level = \"trusted\" for this file's directory or a parent up to the git root): Codex does not load its hooks", cs.userShown), cs.userShown, false
	}
	if cs.Abort != nil {
		return false, "Codex aborts the whole run (" + cs.Abort.Error() + "): no hook runs", path, true
	}
	st, _ := cs.hookState(path, name)
	switch {
	case st.off:
		return false, fmt.Sprintf("you turned this hook off in Codex (enabled = false in %s hooks.state): Codex skips it", cs.userShown), cs.userShown, false
	case st.hash != "" && hash != "" && st.hash != hash:
		return false, fmt.Sprintf("the hook is not the one you trusted in Codex (the trusted_hash in %s hooks.state is of another command, matcher or timeout): Codex asks you to review it again (\"Hooks need review\"); `codex exec` skips it", cs.userShown), cs.userShown, false
	case st.hash != "":
		return true, fmt.Sprintf("you trusted this hook in Codex (hooks.state in %s): %s", cs.userShown, codexHookWhy), cs.userShown, false
	}
	return false, fmt.Sprintf("Codex asks you to review this hook before it runs (\"Hooks need review\"; none is trusted in %s hooks.state); `codex exec` skips it", cs.userShown), cs.userShown, false
}

// layer is the layer a server comes from (nil when none names it).
func (cs *CodexState) layer(path, name string) *CodexLayer {
	for i := range cs.Layers {
		l := &cs.Layers[i]
		if path != "" && l.Path != path {
			continue
		}
		if path != "" || (l.doc != nil && l.doc.err == nil && hasServer(l.doc.root, name)) {
			return l
		}
	}
	return nil
}

func hasServer(root map[string]any, name string) bool {
	t, ok := codexServers(root).(map[string]any)
	if !ok {
		return false
	}
	_, ok = t[name]
	return ok
}

// answer is one server's state, from the layer at path ("" when unknown).
func (cs *CodexState) answer(path, name string, s *trust.Server) (runs bool, why, src string, repo bool) {
	if cs.Unknown != nil {
		return true, fmt.Sprintf("Codex's state is unknown: %s cannot be read (%v); counted as running without asking; %s",
			cs.Unknown.Display, cs.Unknown.Err, codexAppServer), cs.Unknown.Display, false
	}
	l := cs.layer(path, name)
	if l == nil {
		// A server no current layer names (a change under review): it
		// runs if any layer loads.
		for i := range cs.Layers {
			if cs.Layers[i].Loads {
				l = &cs.Layers[i]
				break
			}
		}
	}
	if l == nil || !l.Loads {
		return false, fmt.Sprintf("the project is not trusted (%s has no [projects.\"<dir>\"] trust_level = \"trusted\" for this layer's directory or a parent up to the git root): Codex does not load it", cs.userShown), cs.userShown, false
	}
	if cs.Abort != nil {
		return false, "Codex aborts the whole run (" + cs.Abort.Error() + "): no server of any config runs", l.Path, true
	}
	if s != nil {
		if v, ok := s.Value("enabled"); ok {
			if b, _ := v.Bool(); !b {
				by := cs.enabledBy[name]
				return false, fmt.Sprintf("disabled (enabled = false in %s): Codex does not start it", by), by, by != cs.userShown
			}
		}
	}
	return true, fmt.Sprintf("Codex trusts this project (%s in %s): every change runs without asking; %s", l.TrustedBy, cs.userShown, codexAppServer), cs.userShown, false
}

func (codexClient) Gate(st *State, entries []Entry) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	servers := map[string]*trust.Server{}
	for _, e := range entries {
		if e.Server != nil && e.Server.Kind == "" {
			servers[e.Path+"\x00"+e.Name] = e.Server
		}
	}
	for _, e := range entries {
		var runs, repo bool
		var why, src string
		switch {
		case e.Server != nil && e.Server.Kind == EntryHTTPHeadersHelper:
			// It runs whenever its server is connected: the server's
			// answer (its enabled key included).
			runs, why, src, repo = st.Codex.answer(e.Path, e.Server.Of, servers[e.Path+"\x00"+e.Server.Of])
			why = codexHelperWhy(e.Server.Of) + "; " + why
		case e.Server != nil && e.Server.Kind != "":
			runs, why, src, repo = st.Codex.hookAnswer(e.Path, e.Name, codexEntryHash(e.Server))
		default:
			runs, why, src, repo = st.Codex.answer(e.Path, e.Name, e.Server)
		}
		why += remoteNote(e.Server)
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: runs, Headless: runs, Why: why, Source: src, RepoSide: repo})
	}
	return out
}

// Impact: Codex binds nothing to a server: in a trusted project any change,
// a new server included, runs without asking.
func (codexClient) Impact(st *State, old, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: Codex no longer starts it"}
	}
	if new.Kind != "" && new.Kind != EntryHTTPHeadersHelper {
		return codexHookImpact(st.Codex, old, new)
	}
	var runs, repo bool
	var why, src string
	if new.Kind == EntryHTTPHeadersHelper {
		runs, why, src, repo = st.Codex.answer("", new.Of, nil)
	} else {
		runs, why, src, repo = st.Codex.answer("", new.Name, new)
	}
	if runs && st.Codex.Unknown == nil {
		why = "Codex trusts this project: every change runs without asking"
	}
	if new.Kind == EntryHTTPHeadersHelper {
		why = codexHelperWhy(new.Of) + "; " + why
	}
	return Impact{Interactive: runs, Headless: runs, Why: why, Source: src, RepoSide: repo}
}

// tomlDepth is how deep arrays and inline tables nest in a TOML text,
// skipping strings (escapes in basic ones) and comments.
func tomlDepth(b []byte) int {
	depth, max := 0, 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case '"', '\'':
			multi := i+2 < len(b) && b[i+1] == c && b[i+2] == c
			if multi {
				i += 3
			} else {
				i++
			}
			for ; i < len(b); i++ {
				if c == '"' && b[i] == '\\' {
					i++
					continue
				}
				if !multi && (b[i] == c || b[i] == '\n') {
					break
				}
				if multi && i+2 < len(b) && b[i] == c && b[i+1] == c && b[i+2] == c {
					i += 2
					for i+1 < len(b) && b[i+1] == c { // up to two quotes end the text
						i++
					}
					break
				}
			}
		case '[', '{':
			depth++
			if depth > max {
				max = depth
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return max
}

// codexHookImpact: Codex binds a trusted hook to a hash of its command.
// A new command (at a position you trusted) asks again, and `codex exec`
// skips it (observed); the same command running a changed script runs
// without asking. Where mcp-guard cannot tell Codex's hash of the hook,
// any hash recorded for its key counts (more, never less).
func codexHookImpact(cs *CodexState, old, new *trust.Server) Impact {
	hash := codexEntryHash(new)
	runs, why, src, repo := cs.hookAnswer("", new.Name, hash)
	im := Impact{Interactive: runs, Headless: runs, Why: why, Source: src, RepoSide: repo}
	if cs.Unknown != nil || old == nil {
		return im
	}
	sameCommand := old.Canonical() == new.Canonical()
	switch {
	case !runs && sameCommand:
		return im
	case !runs:
		if st, _ := cs.hookState("", new.Name); !st.off && st.hash != "" {
			im.Why = "the new command: Codex asks you to review the changed hook before it runs (\"Hooks need review\"); `codex exec` skips it"
		}
	case sameCommand:
		im.Why = "Codex trusts this hook's command; the script it runs changed: it runs without asking (Codex keeps a hash of the command, not of the script)"
	case hash != "":
		im.Why = "the new command is one you already trusted in Codex (its hash is in " + src + " hooks.state): it runs without asking"
	default:
		im.Why = "the changed hook runs without asking: mcp-guard cannot tell Codex's hash of it, so the trust you gave this hook in Codex counts"
	}
	return im
}
