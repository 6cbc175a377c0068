package client

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Cursor as documented, never observed (docs/cursor.md):
//
//   - https://cursor.com/docs/mcp (.cursor/mcp.json and
//     ~/.cursor/mcp.json, mcpServers, stdio and remote fields, envFile,
//     config interpolation)
//   - https://anysphere.mintlify.app/en/account/agent-security (Cursor's
//     agent security page: every MCP server is approved by the user before
//     it runs; tool calls are approved apart)
//   - https://cursor.com/docs/cli/mcp (the CLI reads the same files)
//
// Where Cursor keeps the approvals is not documented, so mcp-guard cannot
// read them. OPEN questions are decided in the direction that never
// under-reports what runs.
type cursorClient struct{}

func (cursorClient) ID() ID                   { return Cursor }
func (cursorClient) Title() string            { return "Cursor" }
func (cursorClient) Command() string          { return "" }
func (cursorClient) Handover() Handover       { return HandNothing }
func (cursorClient) Headless() string         { return "cursor-agent --approve-mcps" }
func (cursorClient) Unhanded([]string) string { return "" }
func (cursorClient) Binds() string            { return "Cursor's approval binds the entry, not the code it runs" }

// CursorMCPFile is the project config, relative to the workspace folder.
const CursorMCPFile = ".cursor/mcp.json"

// CursorHooksFile is the project's hooks file, relative to the
// workspace folder.
const CursorHooksFile = ".cursor/hooks.json"

// Cursor's surfaces: its project config (ignored or not, Cursor reads it)
// and the project hooks, whose commands are entries.
var (
	KindCursorMCP   = surface.Register(surface.Spec{Name: "cursor-mcp", Client: string(Cursor), Role: surface.Config, Patterns: []string{"**/" + CursorMCPFile}})
	KindCursorHooks = surface.Register(surface.Spec{Name: "cursor-hooks", Client: string(Cursor), Role: surface.Sibling, Entries: true, Patterns: []string{"**/" + CursorHooksFile}})
	_               = registerDirs(Cursor, "**/.cursor")
)

// CursorUserConfig is the user's own config (all projects): the user's,
// never gated, and not read here. A project server of the same name
// replaces it. OPEN: that precedence is stated by third-party guides only.
func CursorUserConfig(env Env) string {
	return filepath.Join(trust.HomeDir(env.getenv), ".cursor", "mcp.json")
}

// Parse reads .cursor/mcp.json. The documentation does not say how the
// file is parsed; comments and trailing commas are accepted and a syntax
// error leaves what runs unknown (trust.Cursor).
//
// .cursor/hooks.json ({"version": 1, "hooks": {"<event>": [{"command":
// …}]}}, https://cursor.com/docs/agent/hooks, never observed) holds no
// servers: each hook command is an entry, run with a shell from the
// workspace folder.
func (cursorClient) Parse(path string, data []byte) *trust.Config {
	if !strings.EqualFold(filepath.Base(path), "hooks.json") {
		return trust.ParseDialect(path, data, trust.ScopeProject, trust.Cursor)
	}
	c := &trust.Config{Path: path, Scope: trust.ScopeProject, Dialect: trust.Cursor, SHA256: trust.FileHash(data)}
	root, err := trust.DecodeDialect(data, trust.Cursor)
	if err != nil {
		// Cursor's reader is not known: what runs from it is unknown.
		return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("Cursor may still run hooks from a file with a syntax error: %w", err))
	}
	hooks, _ := root.Get("hooks")
	for _, h := range hookCommands(hooks, "hooks", 0) {
		s, err := hookEntry(path, trust.Cursor, EntryHook, h.name, h, false, nil)
		if err != nil {
			c.Err = trust.Unreadable(err)
			break
		}
		c.Servers = append(c.Servers, s)
	}
	uniqueEntries(c)
	return c
}

// Configs is the launch directory's .cursor/mcp.json: the launch directory
// is the folder Cursor opens (or the CLI's workspace). No walk up.
func (cursorClient) Configs(launchDir, _ string, env Env) ([]string, error) {
	return append(workspaceFile(launchDir, CursorMCPFile, env.fs()), workspaceFile(launchDir, CursorHooksFile, env.fs())...), nil
}

// Spawn expands Cursor's documented variables (${env:NAME}, ${userHome},
// ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator}, ${/})
// in command, args and env; any other ${…} stays literal and is listed in
// Unresolved. OPEN: what an undefined ${env:NAME} becomes (VS Code's
// resolver gives "", which is modelled).
func (cursorClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	return vsSpawn(s, "", lookup, false)
}

func (cursorClient) spawnIn(s *trust.Server, configPath string, lookup Vars) Spawn {
	if s.Kind != "" {
		return rawSpawn(s) // a hook's command line: the shell expands it
	}
	return vsSpawn(s, workspaceOf(configPath), lookup, false)
}

// CursorState is what mcp-guard knows of Cursor's approvals: nothing. The
// documentation says Cursor asks before it enables a new project server
// and, per issue #16, again when a server changes; where it stores what
// was approved is not documented.
type CursorState struct {
	Workspace string
	// ApprovalsKnown is always false: mcp-guard cannot read the store.
	ApprovalsKnown bool
}

func (cursorClient) State(launchDir, _ string, _ Env) *State {
	return &State{Client: Cursor, LaunchDir: launchDir, Cursor: &CursorState{Workspace: launchDir}}
}

// cursorStore names the approvals in messages.
const cursorStore = "Cursor's approvals (where Cursor stores them is undocumented)"

// Gate: Cursor runs a project server without asking only when the user
// approved that exact entry before; mcp-guard cannot see whether they did,
// so every server counts as running without asking. The CLI's
// --approve-mcps approves every server without asking (Headless).
func (cursorClient) Gate(_ *State, entries []Entry) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		if e.Server != nil && e.Server.Kind != "" {
			out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server, Interactive: true, Headless: true,
				Why: cursorHookWhy, Source: CursorHooksFile, RepoSide: true})
			continue
		}
		v := ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server, Interactive: true, Headless: true, Source: cursorStore,
			Why: fmt.Sprintf("Cursor asks before running a new or changed server; whether you approved this exact `%s` before is in %s, so it counts as running without asking; `cursor-agent --approve-mcps` runs it without asking", e.Name, cursorStore) + remoteNote(e.Server)}
		out = append(out, v)
	}
	return out
}

// Impact: approval is bound to the entry, so a new, renamed or changed
// entry asks again; an unchanged entry (the code it runs may still have
// changed) runs without asking if it was approved. OPEN: which fields the
// binding covers; every field of the entry is assumed to.
// cursorHookWhy is when Cursor runs a project hook, from its
// documentation: on its event, with no approval of its own.
// OPEN: whether Cursor asks before a project's hooks run was not
// observed; they count as running without asking.
const cursorHookWhy = "Cursor runs this project hook on its event without asking (from its documentation; not observed)"

func (cursorClient) Impact(_ *State, old, new *trust.Server) Impact {
	im := Impact{Headless: true, Source: cursorStore}
	switch {
	case new == nil:
		return Impact{Why: "removed: Cursor no longer starts it"}
	case new.Kind != "":
		return Impact{Interactive: true, Headless: true, Source: CursorHooksFile, RepoSide: true, Why: cursorHookWhy}
	case old == nil:
		im.Why = fmt.Sprintf("Cursor asks before running the new server `%s`; `cursor-agent --approve-mcps` runs it without asking", new.Name)
	case old.Name != new.Name:
		im.Why = fmt.Sprintf("renamed from `%s`: Cursor asks again before running `%s`; `cursor-agent --approve-mcps` runs it without asking", old.Name, new.Name)
	case old.Canonical() != new.Canonical():
		im.Why = fmt.Sprintf("`%s` changed: Cursor asks again before running it (its approval is bound to the entry); `cursor-agent --approve-mcps` runs it without asking", new.Name)
	default:
		im.Interactive = true
		im.Why = fmt.Sprintf("the entry of `%s` is unchanged: if you approved it, Cursor runs it without asking, whatever changed in the code it runs", new.Name)
	}
	return im
}
