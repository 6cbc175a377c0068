package policy

import (
	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Roo Code's repository-side switch (modelled from its documentation,
// docs/roo-code.md): a project server's `alwaysAllow`, which runs the
// tools it names without asking once the user's auto-approval of MCP
// tools is on (MG737 for every tool or one that acts, MG739 for tools
// that read).
func init() {
	declareContent(client.KindRooMCP, contentRule{check: func(f File, _ Options) []trust.Finding { return checkRooMCP(f) }})
}

func checkRooMCP(f File) []trust.Finding {
	root, err := clientTree(client.RooMCP, f.Data)
	if err != nil {
		return unparsedMention(f, err, "Roo Code", `"alwaysAllow"`)
	}
	return toolLists(f, root, "mcpServers", "alwaysAllow", [2]string{"MG737", "MG739"},
		"mcpServers.%s.alwaysAllow: Roo Code runs %s of this server without asking once your auto-approval of MCP tools is on, and the server itself starts without asking")
}
