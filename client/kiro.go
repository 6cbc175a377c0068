package client

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Kiro (the IDE) as documented, never observed (docs/kiro.md):
//
//   - https://kiro.dev/docs/mcp/configuration (.kiro/settings/mcp.json in
//     the workspace and ~/.kiro/settings/mcp.json, merged with the
//     workspace winning; mcpServers with command, args, env, url,
//     headers, disabled, autoApprove, disabledTools; ${VAR} in values)
//   - https://kiro.dev/docs/mcp/security (autoApprove skips the tool-call
//     confirmation; only approved variables are expanded)
//   - https://kiro.dev/docs/hooks (agent hooks in .kiro/hooks/: a
//     runCommand action runs a shell command on an IDE event)
//
// Nothing in the documentation says Kiro asks before it starts a
// workspace server, and it keeps no approval per server: every enabled
// server counts as running without asking, and every change runs. Kiro
// is an editor: launch hands it nothing. OPEN questions are decided in the
// direction that never under-reports what runs.
type kiroClient struct{}

func (kiroClient) ID() ID                   { return Kiro }
func (kiroClient) Title() string            { return "Kiro" }
func (kiroClient) Command() string          { return "" }
func (kiroClient) Handover() Handover       { return HandNothing }
func (kiroClient) Headless() string         { return "" }
func (kiroClient) Unhanded([]string) string { return "" }
func (kiroClient) Binds() string {
	return "Kiro binds nothing to a server: it starts every enabled workspace server"
}

// Editors are the programs that open Kiro: `mcp-guard launch` has no
// handover for them and says so.
func (kiroClient) Editors() []string { return []string{"kiro"} }

// KiroMCPFile is the workspace's MCP config, relative to the workspace
// folder; KiroHooksDir the directory of its agent hooks.
const (
	KiroMCPFile  = ".kiro/settings/mcp.json"
	KiroHooksDir = ".kiro/hooks"
)

// Kiro's surfaces: the workspace MCP config and the agent hooks, whose
// shell commands are entries (the `.kiro.hook` files of the 0.x
// documentation and the `.json` files of IDE 1.0).
var (
	KindKiroMCP  = surface.Register(surface.Spec{Name: "kiro-mcp", Client: string(Kiro), Role: surface.Config, Patterns: []string{"**/" + KiroMCPFile}})
	KindKiroHook = surface.Register(surface.Spec{Name: "kiro-hook", Client: string(Kiro), Role: surface.Sibling, Entries: true,
		Patterns: []string{"**/" + KiroHooksDir + "/*.kiro.hook", "**/" + KiroHooksDir + "/*.json"}})
	_ = registerDirs(Kiro, "**/.kiro", "**/.kiro/settings", "**/"+KiroHooksDir)
)

// kiroDialect is Kiro's reading of its JSON files. The documentation does
// not say how they are parsed: Kiro is a VS Code fork, so comments and
// trailing commas are accepted and a syntax error leaves what runs
// unknown; an entry with a url is a remote server.
var kiroDialect = &trust.Dialect{
	Client:          "Kiro",
	ServersKey:      "mcpServers",
	Lenient:         true,
	Infinity:        true,
	TrailingFails:   true,
	SkipBadServers:  true,
	ServersOptional: true,
	URLIsRemote:     true,
	Comments:        true,
	TrailingCommas:  true,
	Tolerant:        true,
	LineCommentCR:   true,
	// An editor that does not abort on its config files: whatever its
	// reader makes of no bytes, no server comes from it.
	EmptyNoServers: true,
}

func (kiroClient) dialect() *trust.Dialect { return kiroDialect }

// Parse reads .kiro/settings/mcp.json, or a hook file of .kiro/hooks:
// each hook whose action runs a shell command (0.x: `then` of type
// runCommand; 1.0: `hooks[i].action` of type command) is an entry, run
// with a shell from the workspace folder; a hook with `enabled: false`
// runs nothing, and an action that asks the agent (askAgent, agent) runs
// nothing here.
func (kiroClient) Parse(path string, data []byte) *trust.Config {
	if !strings.EqualFold(filepath.Base(filepath.Dir(path)), "hooks") {
		return trust.ParseDialect(path, data, trust.ScopeProject, kiroDialect)
	}
	c := &trust.Config{Path: path, Scope: trust.ScopeProject, Dialect: kiroDialect, SHA256: trust.FileHash(data)}
	root, err := trust.DecodeDialect(data, kiroDialect)
	if err != nil {
		return trust.UnreadableConfig(path, trust.ScopeProject, fmt.Errorf("Kiro may still run the hooks of a file with a syntax error: %w", err))
	}
	plainHookEntries(c, kiroDialect, kiroHookCommands(root))
	return c
}

// kiroHookCommands are the shell commands of a hook file's root, named by
// where they stand ("then.command", "hooks[0].action.command").
func kiroHookCommands(root trust.Value) []hookCommand {
	var out []hookCommand
	add := func(hook, action trust.Value, at string) {
		if en, ok := hook.Get("enabled"); ok {
			if b, isBool := en.Bool(); isBool && !b {
				return
			}
		}
		if t, ok := action.Get("type"); ok {
			if s, _ := t.Str(); s == "askAgent" || s == "agent" {
				return
			}
		}
		if cmd, ok := action.Get("command"); ok {
			if nonBlank(cmd) {
				line, _ := cmd.Str()
				out = append(out, hookCommand{name: at + ".command", line: line, pos: cmd.Pos()})
			} else if cmd.Kind() != "string" {
				out = append(out, hookCommand{name: at + ".command", line: cmd.JSON(), pos: cmd.Pos()}) // not a string: bound as text
			}
		}
	}
	if then, ok := root.Get("then"); ok {
		add(root, then, "then")
	}
	if hooks, ok := root.Get("hooks"); ok {
		for i, h := range hooks.Elems() {
			if a, ok := h.Get("action"); ok {
				add(h, a, fmt.Sprintf("hooks[%d].action", i))
			}
		}
	}
	return out
}

// Configs are the launch directory's .kiro/settings/mcp.json and the hook
// files of its .kiro/hooks: the launch directory is the folder Kiro
// opens. No walk up (OPEN: multi-root workspaces).
func (kiroClient) Configs(launchDir, _ string, env Env) ([]string, error) {
	fsys := env.fs()
	out := workspaceFile(launchDir, KiroMCPFile, fsys)
	return append(out, listNamed(fsys, filepath.Join(launchDir, filepath.FromSlash(KiroHooksDir)), ".kiro.hook", ".json")...), nil
}

// Spawn expands ${VAR} in command, args and env. OPEN: Kiro expands only
// the variables the user approved in its settings; expanding every
// defined one binds at least what Kiro runs.
func (kiroClient) Spawn(s *trust.Server, lookup Vars) Spawn { return dollarSpawn(s, lookup) }

// State: Kiro keeps no approval of a workspace server (its MCP panel
// shows them; the documentation describes no prompt before one starts).
func (kiroClient) State(launchDir, _ string, _ Env) *State {
	return &State{Client: Kiro, LaunchDir: launchDir, Plain: &PlainState{Runs: true, Source: KiroMCPFile, RepoSide: true,
		Why:     "Kiro starts every enabled server of the workspace's " + KiroMCPFile + " when it opens the folder, without asking (from its documentation; not observed)",
		HookWhy: "Kiro runs this agent hook's shell command on its event (a file saved, a prompt sent, …) without asking (from its documentation; not observed)"}}
}

// TurnOff: Kiro leaves out a server whose entry says "disabled": true.
func (kiroClient) TurnOff(kind, config string) string { return disabledOff(kind, config) }

func kiroOff(s *trust.Server) string { return plainOff(s, "Kiro", "disabled", true) }

// kiroNote names the tools a server's autoApprove lets run without
// confirmation.
func kiroNote(e Entry) string {
	if tools := autoApproved(e.Server, "autoApprove"); tools != "" {
		return "; its autoApprove runs " + tools + " without confirmation"
	}
	return ""
}

// autoApproved lists what an entry's key (an array of tool names) holds,
// "" when it holds nothing.
func autoApproved(s *trust.Server, key string) string {
	if s == nil {
		return ""
	}
	v, ok := s.Value(key)
	if !ok {
		return ""
	}
	var names []string
	for _, e := range v.Elems() {
		if n, ok := e.Str(); ok {
			if n == "*" {
				return "every tool"
			}
			names = append(names, "`"+n+"`")
		}
	}
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, ", ")
}

func (kiroClient) Gate(st *State, entries []Entry) []ServerVerdict {
	return plainGate(st, entries, kiroOff, kiroNote)
}

func (kiroClient) Impact(st *State, _, new *trust.Server) Impact {
	return plainImpact("Kiro", st, new, kiroOff)
}

// KiroFile is a Kiro file (.kiro/settings/mcp.json, a hook file) as the
// client reads it (Parse): the positioned tree in Kiro's dialect that the
// rules read too; an error where mcp-guard cannot read it as Kiro does.
func KiroFile(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, kiroDialect)
}
