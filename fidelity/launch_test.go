package fidelity

import (
	"encoding/json"
	"path/filepath"
	"sort"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// vetted writes the file `mcp-guard launch -- claude` hands Claude Code
// for servers (client.VettedConfig over the entries read in Claude Code's
// dialect), and makes the next runs exec exactly the argv launch builds
// around it (client.ClaudeArgv).
func (s *sandbox) vetted(servers obj) {
	s.t.Helper()
	data, err := json.Marshal(obj{"mcpServers": servers})
	if err != nil {
		s.t.Fatal(err)
	}
	cfg := client.Lookup(client.ClaudeCode).Parse("vetted", data)
	if !cfg.Valid() {
		s.t.Fatal(cfg.Err)
	}
	list := append([]*trust.Server(nil), cfg.Servers...)
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	out, _, _, err := client.VettedConfig(list, nil, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	s.vettedPath = filepath.Join(s.home, ".agentty", "mcp-guard", "launch", "vetted.json")
	s.write(s.vettedPath, string(out))
}

// launchArgv is argv as `mcp-guard launch -- claude` passes it on.
func (s *sandbox) launchArgv(argv []string) []string {
	if s.vettedPath == "" {
		return argv
	}
	return client.ClaudeArgv("claude", s.vettedPath, argv)[1:]
}
