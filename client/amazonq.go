package client

import (
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Amazon Q Developer's CLI (`q chat`) as documented, never observed
// (docs/amazon-q.md):
//
//   - https://github.com/aws/amazon-q-developer-cli/blob/main/docs/agent-format.md
//     (an agent is a JSON file, its name the file's: mcpServers with
//     command, args, env, timeout; allowedTools run without prompting;
//     toolsSettings; hooks, commands run at agentSpawn, userPromptSubmit,
//     …; useLegacyMcpJson includes ~/.aws/amazonq/mcp.json and
//     cwd/.amazonq/mcp.json)
//   - https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/qdev-mcp.html
//     (servers load in the background when a chat starts; global agents
//     in ~/.aws/amazonq/cli-agents, workspace agents in
//     .amazonq/cli-agents, a workspace agent winning over a global one of
//     the same name)
//
// Amazon Q Developer keeps no approval of a server: it starts every server
// of the agent a chat uses, and runs its hooks, without asking. The agent
// a chat uses is chosen by the user (--agent, the default agent), so every
// workspace agent counts as one that runs (the side that never
// under-reports). mcp-guard hands it nothing: `launch` refuses `q` and
// says why.
type amazonqClient struct{}

func (amazonqClient) ID() ID                   { return AmazonQ }
func (amazonqClient) Title() string            { return "Amazon Q Developer" }
func (amazonqClient) Command() string          { return "" }
func (amazonqClient) Handover() Handover       { return HandNothing }
func (amazonqClient) Headless() string         { return "" }
func (amazonqClient) Unhanded([]string) string { return "" }
func (amazonqClient) Binds() string {
	return "Amazon Q Developer binds nothing to a server: it starts every server of the agent a chat uses"
}

// Editors are the programs that start Amazon Q Developer's chat: launch
// has no handover for them yet (its command line is not observed).
func (amazonqClient) Editors() []string { return []string{"q", "qchat"} }

// AmazonQMCPFile is the workspace's MCP config (the "legacy" file an agent
// with useLegacyMcpJson reads), AmazonQAgentsDir the workspace's agents,
// both relative to the directory `q chat` starts in.
const (
	AmazonQMCPFile   = ".amazonq/mcp.json"
	AmazonQAgentsDir = ".amazonq/cli-agents"
)

// Amazon Q Developer's surfaces: the workspace MCP config, and the
// workspace agents, whose servers and hook commands are entries.
var (
	KindAmazonQMCP   = surface.Register(surface.Spec{Name: "amazonq-mcp", Client: string(AmazonQ), Role: surface.Config, Patterns: []string{"**/" + AmazonQMCPFile}})
	KindAmazonQAgent = surface.Register(surface.Spec{Name: "amazonq-agent", Client: string(AmazonQ), Role: surface.Sibling, Entries: true,
		Patterns: []string{"**/" + AmazonQAgentsDir + "/*.json"}})
	_ = registerDirs(AmazonQ, "**/.amazonq", "**/"+AmazonQAgentsDir)
)

// amazonqDialect is Amazon Q Developer's reading of its files (a Rust
// program: serde_json, strict JSON, a value of the wrong type failing the
// file). OPEN: whether a file that fails is skipped or stops the chat; a
// syntax error leaves what runs unknown.
var amazonqDialect = &trust.Dialect{
	Client:          "Amazon Q Developer",
	ServersKey:      "mcpServers",
	TrailingFails:   true,
	StringsOnly:     true,
	ServersOptional: true,
	RemoteTypes:     []string{"http"},
	URLIsRemote:     true,
	Tolerant:        true,
	// OPEN: what a chat does with an empty file; no server comes from
	// no bytes either way.
	EmptyNoServers: true,
}

func (amazonqClient) dialect() *trust.Dialect { return amazonqDialect }

// Parse reads .amazonq/mcp.json, or a workspace agent: its mcpServers, and
// each hook command (`hooks.<trigger>[i].command`) as an entry run with a
// shell from the directory the chat started in.
func (amazonqClient) Parse(path string, data []byte) *trust.Config {
	c := trust.ParseDialect(path, data, trust.ScopeProject, amazonqDialect)
	if c.Err != nil || !strings.EqualFold(filepath.Base(filepath.Dir(path)), "cli-agents") {
		return c
	}
	root, err := trust.DecodeDialect(data, amazonqDialect)
	if err != nil || root.Kind() != "object" {
		return c
	}
	if hooks, ok := root.Get("hooks"); ok {
		plainHookEntries(c, amazonqDialect, hookCommands(hooks, "hooks", 0))
	}
	return c
}

// Configs are the launch directory's .amazonq/mcp.json and its workspace
// agents: `q chat` reads them from the directory it starts in. No walk up.
func (amazonqClient) Configs(launchDir, _ string, env Env) ([]string, error) {
	fsys := env.fs()
	out := workspaceFile(launchDir, AmazonQMCPFile, fsys)
	return append(out, listNamed(fsys, filepath.Join(launchDir, filepath.FromSlash(AmazonQAgentsDir)), ".json")...), nil
}

// Spawn: no interpolation is documented; the entry spawns as written
// (OPEN).
func (amazonqClient) Spawn(s *trust.Server, _ Vars) Spawn { return rawSpawn(s) }

func (amazonqClient) State(launchDir, _ string, _ Env) *State {
	return &State{Client: AmazonQ, LaunchDir: launchDir, Plain: &PlainState{Runs: true, Source: AmazonQMCPFile, RepoSide: true,
		Why:     "Amazon Q Developer starts it without asking when `q chat` starts here",
		HookWhy: "Amazon Q Developer runs this agent hook's command without asking (agentSpawn when the agent starts, userPromptSubmit on every prompt, …) when a chat uses the agent (from its documentation; not observed)"}}
}

func amazonqOff(s *trust.Server) string { return plainOff(s, "Amazon Q Developer", "disabled", true) }

// amazonqNote says which agent loads a server.
func amazonqNote(e Entry) string {
	if strings.EqualFold(filepath.Base(filepath.Dir(e.Path)), "cli-agents") {
		return " with this workspace agent (`q chat --agent` and its file's name, or as your default agent), from its documentation; not observed"
	}
	return " with an agent that reads " + AmazonQMCPFile + " (useLegacyMcpJson: the default agent does), from its documentation; not observed"
}

func (amazonqClient) Gate(st *State, entries []Entry) []ServerVerdict {
	return plainGate(st, entries, amazonqOff, amazonqNote)
}

func (amazonqClient) Impact(st *State, _, new *trust.Server) Impact {
	return plainImpact("Amazon Q Developer", st, new, amazonqOff)
}

// AmazonQFile is an Amazon Q Developer file (.amazonq/mcp.json, a
// workspace agent) as the client reads it (Parse): the positioned tree in
// its dialect that the rules read too; an error where mcp-guard cannot
// read it as Amazon Q Developer does.
func AmazonQFile(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, amazonqDialect)
}
