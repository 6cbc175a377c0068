package policy

import "github.com/mcp-guard/mcp-guard/client"

func qwen(json string) File {
	return File{Path: ".qwen/settings.json", Kind: client.KindQwenSettings, Data: []byte(json)}
}

// The MG724 cases join the rule table.
func init() {
	ruleCases = append(ruleCases, []ruleCase{
		{"qwen trust", "MG724", true, qwen("{\n // ours\n \"mcpServers\": {\"db\": {\"command\": \"node\", \"trust\": true}}}"), Options{}, "mcpServers.db.trust"},
		{"qwen trust false", "MG724", false, qwen(`{"mcpServers": {"db": {"command": "node", "trust": false}}}`), Options{}, ""},
	}...)
}
