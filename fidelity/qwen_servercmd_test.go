package fidelity

import "strings"

// serverCommandLine is an mcp.serverCommand that starts the marker as name.
func (s *sandbox) serverCommandLine(name string) string {
	return `'` + strings.ReplaceAll(s.marker, "'", "") + `' ` + markerFlag + ` ` + name
}

// qwenServerCommandScenarios observe Qwen Code's `mcp.serverCommand` (its
// bundle's populateMcpServerCommand, as Gemini CLI's): whether the server
// `mcp` it makes starts, and behind which approval.
func qwenServerCommandScenarios() []agentScenario {
	beside := func(approveEntry bool) func(s *sandbox) {
		return func(s *sandbox) {
			s.write(".qwen/settings.json", obj{
				"mcpServers": obj{"mcp": s.server("mcp-entry"), "db": s.server("db")},
				"mcp":        obj{"serverCommand": s.serverCommandLine("mcp")},
			})
			s.qwenApprove("db")
			if approveEntry {
				s.qwenApproveAt(s.repo, obj{"mcp": s.server("mcp-entry")})
			}
		}
	}
	return []agentScenario{
		{
			name:     "server-command/-p",
			contract: "`qwen -p` with only the workspace's mcp.serverCommand (no mcpServers, nothing approved): does the server `mcp` it makes start?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".qwen/settings.json", obj{"mcp": obj{"serverCommand": s.serverCommandLine("mcp")}})
			},
			want:   []string{"mcp"},
			open:   true,
			answer: "Yes, without asking: Qwen Code's approval gate holds the names of the workspace's mcpServers entries, and `mcp` is none.",
		},
		{
			name: "server-command-pending-entry/-p",
			contract: "the same beside a workspace mcpServers entry named `mcp` the user never approved (and an approved `db`): " +
				"does the serverCommand start in its place?",
			mode:       headless,
			setup:      beside(false),
			want:       []string{"db"},
			open:       true,
			answer:     "No: the name `mcp` waits for approval, and the gate skips by name whatever runs under it; neither the entry nor the command starts.",
			overcounts: []string{"mcp"},
			overcountsWhy: "which waited here behind the pending entry of its name (observed headless only, the interactive client not: " +
				"mcp-guard keeps counting the server mcp.serverCommand starts as running unasked: more, never less)",
		},
		{
			name:     "server-command-approved-entry/-p",
			contract: "the same with the `mcp` entry approved (its own hash): what starts under the name `mcp`?",
			mode:     headless,
			setup:    beside(true),
			want:     []string{"db", "mcp"},
			open:     true,
			answer:   "The serverCommand, in place of the approved entry: an approval of the entry `mcp` starts a command it never hashed, without asking.",
		},
	}
}
