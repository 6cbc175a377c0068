package project

import (
	"slices"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
)

// TestSpawnViewsAsWritten: a client that expands nothing (agentty, Codex:
// client.Interpolates) has its entry analysed as written, one view in its
// cwd, with no variables, even where Codex's base environment and a
// variable-looking argument would make a spawn view differ; a client that
// expands (Claude Code) has both views and the variables they used.
func TestSpawnViewsAsWritten(t *testing.T) {
	vars := func(k string) (string, bool) {
		switch k {
		case "HOME":
			return "/home/u", true
		case "PATH":
			return "/bin", true
		}
		return "", false
	}
	json := []byte(`{"mcpServers":{"s":{"command":"node","args":["${HOME}/x.js"],"env":{"K":"v"}}}}`)
	toml := []byte("[mcp_servers.s]\ncommand = \"node\"\nargs = [\"${HOME}/x.js\"]\nenv = { K = \"v\" }\ncwd = \"sub\"\n")
	for _, tc := range []struct {
		id        client.ID
		path      string
		data      []byte
		views     int
		used      []string
		cwd       string
		expanding bool
	}{
		{client.Agentty, ".agentty/mcp.json", json, 1, nil, "", false},
		{client.Codex, ".codex/config.toml", toml, 1, nil, "sub", false},
		{client.ClaudeCode, ".mcp.json", json, 2, []string{"HOME"}, "", true},
	} {
		c := client.Lookup(tc.id)
		if got := client.Interpolates(c); got != tc.expanding {
			t.Errorf("%s: Interpolates = %v, want %v", tc.id, got, tc.expanding)
		}
		cfg := c.Parse(tc.path, tc.data)
		s := cfg.Server("s")
		if s == nil {
			t.Fatalf("%s: no server s in %s (%v)", tc.id, tc.path, cfg.Err)
		}
		views, used, cwd, _ := spawnViews(tc.id, s, "/repo/"+tc.path, vars)
		if len(views) != tc.views || !slices.Equal(used, tc.used) || cwd != tc.cwd {
			t.Errorf("%s: %d views, used %q, cwd %q; want %d, %q, %q", tc.id, len(views), used, cwd, tc.views, tc.used, tc.cwd)
		}
		if views[0].Args[0] != "${HOME}/x.js" {
			t.Errorf("%s: the first view is not the entry as written: %q", tc.id, views[0].Args)
		}
	}
}
