package policy

import "github.com/mcp-guard/mcp-guard/client"

func qwen(json string) File {
	return File{Path: ".qwen/settings.json", Kind: client.KindQwenSettings, Data: []byte(json)}
}

// The MG724 and MG751 cases join the rule table.
func init() {
	ruleCases = append(ruleCases, []ruleCase{
		{"qwen trust", "MG724", true, qwen("{\n // ours\n \"mcpServers\": {\"db\": {\"command\": \"node\", \"trust\": true}}}"), Options{}, "mcpServers.db.trust"},
		{"qwen yolo", "MG751", true, qwen("{\n \"tools\": {\"approvalMode\": \" YOLO \"}}"), Options{}, "tools.approvalMode"},
		{"qwen yolo not", "MG751", false, qwen(`{"tools": {"approvalMode": "auto-edit"}}`), Options{}, ""},
		{"qwen trust false", "MG724", false, qwen(`{"mcpServers": {"db": {"command": "node", "trust": false}}}`), Options{}, ""},
	}...)
}
