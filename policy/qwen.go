package policy

import (
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
	// Read once, by the client model (client.QwenSettings: the tree its
	// State reads the approval mode from).
	root, err := client.QwenSettings(f.Data)
	if err != nil {
		return unparsedMention(f, err, "Qwen Code", `"trust"`)
	}
	var out []trust.Finding
	servers, _ := root.Get("mcpServers")
	for _, name := range servers.Keys() {
		entry, _ := servers.Get(name)
		if t, _ := entry.Get("trust"); t.Kind() == "boolean" {
			if b, _ := t.Bool(); b {
				pos, _ := entry.KeyPos("trust")
				out = append(out, trust.NewFinding("MG724", f.Path, pos, name, "trust",
					"mcpServers."+shortValue(name)+".trust: true: Qwen Code runs every tool call of this server without confirmation once the server is approved"))
			}
		}
	}
	// MG751: the mode as Qwen Code reads it (client.QwenYolo).
	if written, pos, ok := client.QwenYolo(root); ok {
		out = append(out, trust.NewFinding("MG751", f.Path, pos, "", "tools.approvalMode",
			"tools.approvalMode: "+quote(written)+" in the workspace settings: in a trusted folder Qwen Code starts every project server without asking for its approval and runs every tool call without confirmation"))
	}
	return out
}
