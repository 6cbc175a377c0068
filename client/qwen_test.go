package client

import (
	"strings"
	"testing"
)

// Folder trust off by default: the workspace's servers run; with folder
// trust on, only in a trusted folder (Gemini CLI's rules).
func TestQwenGate(t *testing.T) {
	const ws = `{
  // the team's servers
  "mcpServers": {"db": {"command": "node", "args": ["db.js"], "trust": true}}
}`
	tests := []struct {
		name, user, folders string
		runs                bool
		why                 string
	}{
		{"default: folder trust off", "", "", true, "folder trust is off"},
		{"folder trust on, untrusted", `{"security": {"folderTrust": {"enabled": true}}}`, "", false, "not trusted"},
		{"folder trust on, trusted", `{"security": {"folderTrust": {"enabled": true}}}`, `{"$ROOT/repo": "TRUST_FOLDER"}`, true, "TRUST_FOLDER"},
		{"folder trust on, do not trust", `{"security": {"folderTrust": {"enabled": true}}}`, `{"$ROOT/repo": "DO_NOT_TRUST"}`, false, "DO_NOT_TRUST"},
		{"unreadable user settings count as trusted", `{"security": `, "", true, "cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.qwen/settings.json", ws)
			if tt.user != "" {
				f.write("home/.qwen/settings.json", tt.user)
			}
			if tt.folders != "" {
				f.write("home/.qwen/trustedFolders.json", tt.folders)
			}
			v := verdict(f.evaluate(QwenCode, "repo"), "db")
			if v == nil || v.Interactive != tt.runs || !strings.Contains(v.Why, tt.why) {
				t.Fatalf("verdict %+v; want runs=%v, why with %q", v, tt.runs, tt.why)
			}
			if tt.runs && !strings.Contains(v.Why, "trust: true") {
				t.Errorf("trust: true is not named: %s", v.Why)
			}
		})
	}
}

// Read up to the git top (the side that never under-reports), not from
// the home directory.
func TestQwenConfigs(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.qwen/settings.json", `{"mcpServers": {"db": {"command": "x"}}}`)
	f.write("repo/sub/.keep", "")
	if v := verdict(f.evaluate(QwenCode, "repo/sub"), "db"); v == nil || !v.Interactive {
		t.Fatalf("from a subdirectory: %+v", v)
	}
	im := qwenClient{}.Impact(&State{Qwen: &QwenState{Trusted: true, TrustedBy: "x"}}, nil, parserOf(qwenClient{}, "/r/.qwen/settings.json")(`{"mcpServers": {"db": {"command": "y"}}}`).Servers[0])
	if !im.Interactive || !strings.Contains(im.Why, "every change runs") {
		t.Errorf("impact %+v", im)
	}
}
