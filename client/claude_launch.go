package client

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// What `mcp-guard launch -- claude` hands Claude Code besides the vetted
// file of servers, when an entry of the repository's settings must be
// kept out (declined): its settings. Started with `--setting-sources
// user`, Claude Code reads no project or local settings file (observed on
// 2.1.328: neither `.claude/settings.json`'s nor `settings.local.json`'s
// hooks run, those of ~/.claude/settings.json do; nor does it load the
// project's CLAUDE.md or skills), and `--settings FILE`
// adds the handoff: those files' settings joined as Claude Code joins its
// sources, but of what they run (hooks, helpers, plugins) only the
// reviewed entries, each as the file writes it.

// ClaudeSettingSources is the --setting-sources value a launch passes.
const ClaudeSettingSources = "user"

// HandoffFile is one settings file as launch reads it again.
type HandoffFile struct {
	Path string
	Data []byte
}

// EntryHandoff is what a launch hands a client of its entries: Data, the
// settings object (nil: the client takes no entries this way); Carried
// and Left name the entries handed over and those left out.
type EntryHandoff struct {
	Data          []byte
	Carried, Left []string
	// Note is what else the handoff leaves out, in the client's words.
	Note string
}

// entryHandover is a client whose launch hands over its reviewed entries
// (not only its servers), so that the others do not run.
type entryHandover interface {
	handsEntry(config string, s *trust.Server) bool
	entryHandoff(files []HandoffFile, reviewed func(config string, s *trust.Server) bool) (*EntryHandoff, error)
}

// HandsEntry reports whether a launch of client id decides whether the
// entry s of the file config runs (it hands it over when reviewed, else it does not run), so
// that an entry left out does not block the launch as one the client runs
// from its own files would.
func HandsEntry(id ID, config string, s *trust.Server) bool {
	h, ok := Lookup(id).(entryHandover)
	return ok && s != nil && s.Kind != "" && h.handsEntry(config, s)
}

// HandoffEntries builds client id's entry handoff from the files it reads
// (read again now: an entry is carried only when reviewed says so of it as
// it reads now); nil when the client hands over no entries. An error
// refuses the launch.
func HandoffEntries(id ID, files []HandoffFile, reviewed func(config string, s *trust.Server) bool) (*EntryHandoff, error) {
	h, ok := Lookup(id).(entryHandover)
	if !ok {
		return nil, nil
	}
	return h.entryHandoff(files, reviewed)
}

// handsEntry: a hook, helper or plugin of a `.claude/settings*.json`. A
// server's headersHelper travels with its server in the vetted file.
func (claudeClient) handsEntry(config string, s *trust.Server) bool {
	return s.Of == "" && isClaudeSettings(config)
}

// entryHandoff is the --settings object: of each settings file, in Claude
// Code's precedence (local first), its reviewed entries in the file's own
// form. A hook is carried whole (matcher, timeout) when its commands are
// all reviewed; a hook of type prompt, agent, http or mcp_tool is no entry and is
// left out with the file. A helper key is decided by the first file that
// sets it. A reviewed plugin whose marketplace lies outside the
// repository cannot be handed over as reviewed (its content is not): when
// a handoff is needed, that refuses the launch. None is needed when every
// entry is reviewed (nil): Claude Code then reads the files itself.
func (claudeClient) entryHandoff(files []HandoffFile, reviewed func(config string, s *trust.Server) bool) (*EntryHandoff, error) {
	out := &EntryHandoff{}
	obj := map[string]any{}
	read := false
	hooks := map[string]any{}
	plugins, markets := map[string]any{}, map[string]any{}
	taken := map[string]bool{}
	var remote error // a reviewed plugin from outside the repository
	for _, f := range files {
		if !isClaudeSettings(f.Path) {
			continue
		}
		cfg := parseClaudeSettings(f.Path, f.Data)
		root, err := trust.DecodeDialect(f.Data, trust.ClaudeCode)
		if cfg.Err != nil || err != nil || root.Kind() != "object" {
			continue // Claude Code runs nothing from it; nor does the handoff
		}
		read = true
		for _, k := range root.Keys() {
			if !claudeRunsKey(k) && !slices.Contains(claudeWithheldKeys, k) {
				v, _ := root.Get(k)
				obj[k] = joinSettings(obj[k], v)
			}
		}
		keep := map[string]bool{}
		for _, s := range cfg.Servers {
			if reviewed(f.Path, s) {
				keep[s.Name] = true
			}
		}
		carry := func(s *trust.Server) {
			if keep[s.Name] {
				out.Carried = append(out.Carried, s.Name)
			} else {
				out.Left = append(out.Left, s.Name)
			}
		}
		var shown []*trust.Server
		for _, s := range cfg.Servers {
			if s.Kind == EntryHook {
				carry(s)
			}
		}
		if h, ok := root.Get("hooks"); ok {
			kept, ok := filterHooks(h, "hooks", keep, 0)
			if m, isObj := kept.(map[string]any); ok && isObj {
				for ev, v := range m {
					merged, err := mergeHooks(hooks[ev], v)
					if err != nil {
						return nil, fmt.Errorf("the hooks of %s for %s: %w", f.Path, ev, err)
					}
					hooks[ev] = merged
				}
			} else if ok {
				return nil, fmt.Errorf("the hooks of %s are not an object", f.Path)
			}
		}
		for _, s := range cfg.Servers {
			switch {
			case s.Kind == EntryHook:
			case s.Kind == EntryEnv:
				// Claude Code joins the env of its sources variable by
				// variable; a file's env is carried whole when reviewed.
				carry(s)
				if keep[s.Name] {
					v, _ := root.Get(EntryEnv)
					obj[EntryEnv] = joinSettings(obj[EntryEnv], v)
				}
			case s.Kind == EntryPlugin:
				carry(s)
				if !keep[s.Name] {
					continue
				}
				if s.Remote != "" {
					remote = fmt.Errorf("the plugin %q comes from %s: launch cannot hand Claude Code only what was reviewed of it, its content is not in the repository",
						strings.TrimPrefix(s.Name, "plugins."), s.Remote)
					continue
				}
				id := strings.TrimPrefix(s.Name, "plugins.")
				enabled, _ := root.Get("enabledPlugins")
				on, _ := enabled.Get(id)
				plugins[id] = json.RawMessage(on.JSON())
				mk := id[strings.LastIndexByte(id, '@')+1:]
				ms, _ := root.Get("extraKnownMarketplaces")
				m, _ := ms.Get(mk)
				markets[mk] = json.RawMessage(m.JSON())
			default: // a helper key: the first file that sets it decides
				shown = append(shown, s)
			}
		}
		for _, s := range shown {
			if taken[s.Name] {
				continue
			}
			taken[s.Name] = true
			carry(s)
			if keep[s.Name] {
				v, _ := root.Get(s.Name)
				obj[s.Name] = json.RawMessage(v.JSON())
			}
		}
	}
	if !read || len(out.Left) == 0 {
		// Nothing to keep out: Claude Code reads the files itself, and
		// with them the project's CLAUDE.md, skills and commands, which
		// --setting-sources user would drop too (observed on 2.1.328).
		return nil, nil
	}
	if remote != nil {
		return nil, remote
	}
	if len(hooks) > 0 {
		obj["hooks"] = hooks
	}
	if len(plugins) > 0 {
		obj["enabledPlugins"], obj["extraKnownMarketplaces"] = plugins, markets
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	out.Data = append(data, '\n')
	out.Note = "with them Claude Code loads none of the project's own settings sources: not its CLAUDE.md, skills or commands either"
	return out, nil
}

// vettedNote names the reviewed plugins Claude Code loads under the
// vetted argv: their hooks and commands run, but --strict-mcp-config
// keeps their MCP servers out as it does every server the vetted file
// does not hold (observed on 2.1.328, fidelity plugin-launch-vetted).
func (claudeClient) vettedNote(runs []*trust.Server) string {
	var ids []string
	for _, s := range runs {
		if s != nil && s.Kind == EntryPlugin {
			ids = append(ids, strings.TrimPrefix(s.Name, "plugins."))
		}
	}
	if len(ids) == 0 {
		return ""
	}
	slices.Sort(ids)
	return "the reviewed plugins " + strings.Join(ids, ", ") + " run their hooks and commands, not their MCP servers (--strict-mcp-config keeps them out)"
}

// claudeRunsKey reports whether the settings key k holds what Claude Code
// runs (the entries): the handoff carries only the reviewed ones.
func claudeRunsKey(k string) bool {
	return k == "hooks" || k == "enabledPlugins" || k == "extraKnownMarketplaces" || k == EntryEnv ||
		slices.Contains(claudeHelperKeys, k) || slices.Contains(claudeCommandObjects, k)
}

// joinSettings joins a settings value of a file of lower precedence (v)
// into the value taken so far (have), as Claude Code joins its sources:
// objects member by member, arrays concatenated (an element once), any
// other value kept from the file that set it first.
func joinSettings(have any, v trust.Value) any {
	switch h := have.(type) {
	case nil:
		if v.Kind() == "object" {
			m := map[string]any{}
			for _, k := range v.Keys() {
				e, _ := v.Get(k)
				m[k] = joinSettings(nil, e)
			}
			return m
		}
		return json.RawMessage(v.JSON())
	case map[string]any:
		if v.Kind() == "object" {
			for _, k := range v.Keys() {
				e, _ := v.Get(k)
				h[k] = joinSettings(h[k], e)
			}
		}
		return h
	case json.RawMessage:
		var first []json.RawMessage
		if v.Kind() != "array" || json.Unmarshal(h, &first) != nil {
			return h
		}
		for _, e := range v.Elems() {
			raw := json.RawMessage(e.JSON())
			if !slices.ContainsFunc(first, func(x json.RawMessage) bool { return string(x) == string(raw) }) {
				first = append(first, raw)
			}
		}
		data, err := json.Marshal(first)
		if err != nil {
			return h
		}
		return json.RawMessage(data)
	}
	return have
}

// filterHooks is v (the hooks below at, named as hookCommands names them)
// with only the commands keep names; false when nothing is left.
func filterHooks(v trust.Value, at string, keep map[string]bool, depth int) (any, bool) {
	if depth > 64 {
		return nil, false // too deep: hookCommands bound it whole, never carried
	}
	switch v.Kind() {
	case "string":
		if keep[at] && nonBlank(v) {
			return json.RawMessage(v.JSON()), true
		}
	case "array":
		var out []any
		for i, e := range v.Elems() {
			if k, ok := filterHooks(e, fmt.Sprintf("%s[%d]", at, i), keep, depth+1); ok {
				out = append(out, k)
			}
		}
		return out, len(out) > 0
	case "object":
		if t, ok := v.Get("type"); ok {
			if s, _ := t.Str(); runsNoCommand(s) {
				return nil, false
			}
		}
		if c, ok := v.Get("command"); ok {
			cmds := hookCommands(c, at, depth+1)
			all := len(cmds) > 0
			for _, h := range cmds {
				all = all && keep[h.name]
			}
			if all {
				return json.RawMessage(v.JSON()), true
			}
			return nil, false
		}
		out := map[string]any{}
		some := false
		for _, k := range v.Keys() {
			m, _ := v.Get(k)
			if k == "matcher" || k == "type" || k == "timeout" {
				out[k] = json.RawMessage(m.JSON())
				continue
			}
			if kept, ok := filterHooks(m, at+"."+k, keep, depth+1); ok {
				out[k], some = kept, true
			}
		}
		return out, some
	}
	return nil, false
}

// mergeHooks joins one event's hooks of two settings files, as Claude
// Code joins them across its sources: arrays are concatenated.
func mergeHooks(a, b any) (any, error) {
	if a == nil {
		return b, nil
	}
	x, ok1 := a.([]any)
	y, ok2 := b.([]any)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("two settings files set them in a form that cannot be joined")
	}
	return append(slices.Clip(x), y...), nil
}

// ClaudeSettingsFlag reports whether args set Claude Code's settings
// sources themselves (--setting-sources, in either form): the sources the
// launch passes would then not be the ones Claude Code reads.
func ClaudeSettingsFlag(args []string) bool {
	for _, a := range args {
		if a == "--setting-sources" || strings.HasPrefix(a, "--setting-sources=") {
			return true
		}
	}
	return false
}
