package policy

import (
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Qwen Code's repository-side switch (modelled from its documentation,
// docs/qwen-code.md; the server approval it sits behind is observed on 0.24.4): a workspace server marked `trust: true` runs its
// tool calls without confirmation (MG724); YOLO approval mode
// (`tools.approvalMode: "yolo"`) asks no server's approval at all (MG751). The settings are JSON with
// comments, read as Gemini CLI reads them.
func init() {
	declareContent(client.KindQwenSettings, contentRule{check: func(f File, _ Options) []trust.Finding { return checkQwenSettings(f) }})
}

func checkQwenSettings(f File) []trust.Finding {
	root, err := decodePositioned(stripJSONC(f.Data, false))
	if err != nil {
		return unparsedMention(f, err, "Qwen Code", `"trust"`)
	}
	out := trustedServers(f, root, "MG724",
		"mcpServers.%s.trust: true: Qwen Code runs every tool call of this server without confirmation once the server is approved")
	// MG751: the mode as Qwen Code reads it (trimmed, any case; client/qwen.go).
	if m, ok := lookupPath(root, "tools", "approvalMode"); ok && m.val.kind == 's' && strings.EqualFold(strings.TrimSpace(m.val.str), "yolo") {
		out = append(out, trust.NewFinding("MG751", f.Path, m.keyPos, "", "tools.approvalMode",
			"tools.approvalMode: "+quote(m.val.str)+" in the workspace settings: in a trusted folder Qwen Code starts every project server without asking for its approval and runs every tool call without confirmation"))
	}
	return out
}
