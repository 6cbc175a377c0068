package policy

import (
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
)

func opencode(json string) File {
	return File{Path: "opencode.json", Kind: client.KindOpenCodeConfig, Data: []byte(json)}
}

func opencodePlugin(path string) File {
	return File{Path: path, Kind: client.KindOpenCodePlugin, Data: []byte("export const P = async () => ({})\n")}
}

// The MG722-MG723 cases, and the server rules on OpenCode's command
// arrays, join the rule table.
func init() {
	ruleCases = append(ruleCases, []ruleCase{
		// MG722
		{"opencode plugin file", "MG722", true, opencodePlugin(".opencode/plugin/p.js"), Options{}, "imports this plugin"},
		{"opencode plugins file", "MG722", true, opencodePlugin("web/.opencode/plugins/x.ts"), Options{}, "without asking"},
		{"opencode plugin list", "MG722", true, opencode("{\n // ours\n \"plugin\": [\"opencode-helicone-session\", \"./lib/p.js\",],\n}"), Options{}, "`./lib/p.js`"},
		{"opencode empty plugin list", "MG722", false, opencode(`{"plugin": []}`), Options{}, ""},
		{"opencode plugin under mcp", "MG722", false, opencode(`{"mcp": {"plugin": {"type": "local", "command": ["x"]}}}`), Options{}, ""},
		// MG723
		{"opencode permission allow", "MG723", true, opencode(`{"permission": "allow"}`), Options{}, "every tool call"},
		{"opencode bash allow", "MG723", true, opencode(`{"permission": {"edit": "ask", "bash": "allow"}}`), Options{}, "permission.bash"},
		{"opencode bash pattern allow", "MG723", true, opencode(`{"permission": {"bash": {"git *": "allow", "*": "ask"}}}`), Options{}, "`bash` calls"},
		{"opencode agent allow", "MG723", true, opencode(`{"agent": {"build": {"permission": {"webfetch": "allow"}}}}`), Options{}, "agent.build.permission.webfetch"},
		{"opencode ask", "MG723", false, opencode(`{"permission": {"edit": "ask", "bash": "deny"}}`), Options{}, ""},
		// the server rules read OpenCode's command arrays
		{"opencode node script", "MG105", true, opencode(`{"mcp": {"db": {"type": "local", "command": ["node", "server.js"]}}}`), Options{}, "server.js"},
		{"opencode env preload", "MG101", true, opencode(`{"mcp": {"db": {"type": "local", "command": ["/usr/bin/srv"], "environment": {"LD_PRELOAD": "./x.so"}}}}`), Options{}, "LD_PRELOAD"},
		{"opencode ignored env key", "MG101", false, opencode(`{"mcp": {"db": {"type": "local", "command": ["/usr/bin/srv"], "env": {"LD_PRELOAD": "./x.so"}}}}`), Options{}, ""},
		{"opencode remote", "MG105", false, opencode(`{"mcp": {"docs": {"type": "remote", "url": "https://d.example/mcp", "command": ["node", "server.js"]}}}`), Options{}, ""},
	}...)
}

// TestOpenCodePositions: a finding on an OpenCode server points at its
// entry, through comments.
func TestOpenCodePositions(t *testing.T) {
	fs := CheckFile(opencode("{\n  // x\n  \"mcp\": {\n    \"db\": {\"type\": \"local\", \"command\": [\"node\", \"server.js\"]},\n  },\n}"), Options{})
	for _, f := range fs {
		if f.Rule == "MG105" && f.Line == 4 {
			return
		}
	}
	t.Fatalf("findings %+v, want MG105 on line 4", fs)
}
