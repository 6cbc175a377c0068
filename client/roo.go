package client

import (
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Roo Code (a VS Code extension) as documented, never observed
// (docs/roo-code.md):
//
//   - https://docs.roocode.com/features/mcp/using-mcp-in-roo (the
//     project's .roo/mcp.json, "automatically detected and loaded", wins
//     over the global mcp_settings.json for a name; mcpServers with
//     command, args, env, cwd, alwaysAllow, disabled, timeout; type sse or
//     streamable-http with url and headers)
//   - RooCodeInc/Roo-Code src/utils/config.ts (injectVariables: ${env:NAME}
//     and ${workspaceFolder} in the entries)
//
// Roo Code keeps no approval of a server: it starts every enabled server
// of the project file without asking, and `alwaysAllow` runs the tools it
// names without asking once the user's auto-approval of MCP tools is on.
// It runs inside VS Code: launch hands it nothing.
type rooClient struct{}

func (rooClient) ID() ID                   { return RooCode }
func (rooClient) Title() string            { return "Roo Code" }
func (rooClient) Command() string          { return "" }
func (rooClient) Handover() Handover       { return HandNothing }
func (rooClient) Headless() string         { return "" }
func (rooClient) Unhanded([]string) string { return "" }
func (rooClient) Binds() string {
	return "Roo Code binds nothing to a server: it starts every enabled project server"
}

// RooMCPFile is the project's MCP config, relative to the workspace
// folder.
const RooMCPFile = ".roo/mcp.json"

// Roo Code's surface: the project MCP config. (.roomodes holds custom
// modes, prompts and tool groups: nothing it runs.)
var (
	KindRooMCP = surface.Register(surface.Spec{Name: "roo-mcp", Client: string(RooCode), Role: surface.Config, Patterns: []string{"**/" + RooMCPFile}})
	_          = registerDirs(RooCode, "**/.roo")
)

// rooDialect is Roo Code's reading of .roo/mcp.json: JSON.parse, then a
// schema per entry. OPEN: whether one bad entry drops the file or the
// entry (the entry is modelled); a syntax error leaves what runs unknown.
var rooDialect = &trust.Dialect{
	Client:            "Roo Code",
	ServersKey:        "mcpServers",
	Lenient:           true,
	Infinity:          true,
	TrailingFails:     true,
	SkipBadServers:    true,
	StringsOnly:       true,
	RemoteTypes:       []string{"sse", "streamable-http"},
	RemoteWithoutType: true,
	Tolerant:          true,
	// An editor that does not abort on its config files: whatever its
	// reader makes of no bytes, no server comes from it.
	EmptyNoServers: true,
}

func (rooClient) dialect() *trust.Dialect { return rooDialect }

func (rooClient) Parse(path string, data []byte) *trust.Config {
	return trust.ParseDialect(path, data, trust.ScopeProject, rooDialect)
}

// Configs is the launch directory's .roo/mcp.json: the folder VS Code
// opens. No walk up (OPEN: multi-root workspaces).
func (rooClient) Configs(launchDir, _ string, env Env) ([]string, error) {
	return workspaceFile(launchDir, RooMCPFile, env.fs()), nil
}

// Spawn resolves ${env:NAME} (undefined: "") and ${workspaceFolder} as VS
// Code does; OPEN: the other VS Code variables Roo Code may resolve stay
// literal and are listed in Unresolved.
func (rooClient) Spawn(s *trust.Server, lookup Vars) Spawn { return vsSpawn(s, "", lookup, false) }

// spawnIn resolves the variables against the workspace folder of the
// config, and takes the entry's `cwd` as the directory the server starts
// in (as written).
func (rooClient) spawnIn(s *trust.Server, configPath string, lookup Vars) Spawn {
	sp := vsSpawn(s, workspaceOf(configPath), lookup, false)
	if d, ok := s.StringMember("cwd"); ok {
		sp.Cwd = d
	}
	return sp
}

func (rooClient) State(launchDir, _ string, _ Env) *State {
	return &State{Client: RooCode, LaunchDir: launchDir, Plain: &PlainState{Runs: true, Source: RooMCPFile, RepoSide: true,
		Why: "Roo Code starts every enabled server of the project's " + RooMCPFile + " without asking when VS Code opens the folder (from its documentation; not observed)"}}
}

// TurnOff: Roo Code leaves out a server whose entry says "disabled": true.
func (rooClient) TurnOff(kind, config string) string { return disabledOff(kind, config) }

func rooOff(s *trust.Server) string { return plainOff(s, "Roo Code", "disabled", true) }

func rooNote(e Entry) string {
	if tools := autoApproved(e.Server, "alwaysAllow"); tools != "" {
		return "; its alwaysAllow runs " + tools + " without asking once your auto-approval of MCP tools is on"
	}
	return ""
}

func (rooClient) Gate(st *State, entries []Entry) []ServerVerdict {
	return plainGate(st, entries, rooOff, rooNote)
}

func (rooClient) Impact(st *State, _, new *trust.Server) Impact {
	return plainImpact("Roo Code", st, new, rooOff)
}

// RooMCP is a .roo/mcp.json as the client reads it (Parse): the
// positioned tree in Roo Code's dialect that the rules read too; an error
// where mcp-guard cannot read it as Roo Code does.
func RooMCP(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, rooDialect)
}
