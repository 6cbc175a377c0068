package client

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// qwenDBHash is what Qwen Code 0.24.4 writes for TestQwenGate's db entry
// (SHA-256 of {"args":["db.js"],"command":"node","trust":true}, computed
// outside Go); fidelity/qwen_test.go holds the hash against the real CLI.
const qwenDBHash = "c22578625989b40c3596e2c08ccbe7080b93ed2afd7101c4aa99bdebed094e36"

// Folder trust off by default; with folder trust on, only in a trusted
// folder (Gemini CLI's rules); and then only a server the user approved in
// ~/.qwen/mcpApprovals.json for this project, name and entry hash.
func TestQwenGate(t *testing.T) {
	const ws = `{
  // the team's servers
  "mcpServers": {"db": {"command": "node", "args": ["db.js"], "trust": true}}
}`
	const on = `{"security": {"folderTrust": {"enabled": true}}}`
	approved := `{"$ROOT/repo": {"db": {"hash": "` + qwenDBHash + `", "status": "approved"}}}`
	tests := []struct {
		name, user, folders, approvals string
		runs                           bool
		why                            string
	}{
		{"default: folder trust off, approved", "", "", approved, true, "folder trust is off"},
		{"default: not approved", "", "", "", false, "holds no approval"},
		{"approved under another hash", "", "", strings.Replace(approved, "c2", "00", 1), false, "holds no approval"},
		{"rejected", "", "", strings.Replace(approved, `"approved"`, `"rejected"`, 1), false, "holds no approval"},
		{"approved for another project", "", "", strings.Replace(approved, "/repo", "/other", 1), false, "holds no approval"},
		{"unreadable approvals count as approved", "", "", `{"x": `, true, "cannot be read"},
		{"folder trust on, untrusted", on, "", approved, false, "not trusted"},
		{"folder trust on, trusted", on, `{"$ROOT/repo": "TRUST_FOLDER"}`, approved, true, "TRUST_FOLDER"},
		{"folder trust on, do not trust", on, `{"$ROOT/repo": "DO_NOT_TRUST"}`, approved, false, "DO_NOT_TRUST"},
		{"unreadable user settings count as trusted", `{"security": `, "", approved, true, "cannot be read"},
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
			if tt.approvals != "" {
				f.write("home/.qwen/mcpApprovals.json", tt.approvals)
			}
			v := verdict(f.evaluate(QwenCode, "repo"), "db")
			if v == nil || v.Interactive != tt.runs || v.Headless != tt.runs || !strings.Contains(v.Why, tt.why) {
				t.Fatalf("verdict %+v; want runs=%v, why with %q", v, tt.runs, tt.why)
			}
			if tt.runs && !strings.Contains(v.Why, "trust: true") {
				t.Errorf("trust: true is not named: %s", v.Why)
			}
		})
	}
}

// Where Go's JSON could differ from JavaScript's, mcp-guard cannot compute
// Qwen Code's hash: an approval under the name counts, whatever its hash.
func TestQwenHashUnknown(t *testing.T) {
	for _, entry := range []string{`{"command": "node", "timeout": 5}`, `{"command": "n\u00e9"}`, `{"command": "n", "env": {"1": "x"}}`} {
		f := newFixture(t)
		f.write("repo/.qwen/settings.json", `{"mcpServers": {"db": `+entry+`}}`)
		f.write("home/.qwen/mcpApprovals.json", `{"$ROOT/repo": {"db": {"hash": "00", "status": "approved"}}}`)
		if v := verdict(f.evaluate(QwenCode, "repo"), "db"); v == nil || !v.Headless {
			t.Errorf("%s approved under another hash: %+v; want counted as runs", entry, v)
		}
	}
}

// Read up to the git top (the side that never under-reports), not from
// the home directory.
func TestQwenConfigs(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.qwen/settings.json", `{"mcpServers": {"db": {"command": "x"}}}`)
	f.write("repo/sub/.keep", "")
	// An approval recorded at the git top counts from a subdirectory too.
	f.write("home/.qwen/mcpApprovals.json", `{"$ROOT/repo": {"db": {"hash": "cf35b664f0e85cbf24dfda38ea6991fa01d9d315e402baacd2c02f2e92d0947a", "status": "approved"}}}`)
	if v := verdict(f.evaluate(QwenCode, "repo/sub"), "db"); v == nil || !v.Interactive {
		t.Fatalf("from a subdirectory: %+v", v)
	}
	im := qwenClient{}.Impact(&State{Qwen: &QwenState{Trusted: true, TrustedBy: "x"}}, nil, parserOf(qwenClient{}, "/r/.qwen/settings.json")(`{"mcpServers": {"db": {"command": "y"}}}`).Servers[0])
	if im.Interactive || im.Headless || !strings.Contains(im.Why, "asks before") {
		t.Errorf("a changed, unapproved entry: impact %+v; want it to wait for approval", im)
	}
}

// qwenSum is SHA-256 of text, as Qwen Code records an approval of the
// entry whose sorted JSON text it is.
func qwenSum(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// Qwen Code reads the launch directory's `.mcp.json` as a project source
// behind the same approval, hashed as it normalises Claude Code's entry;
// the workspace settings win a name; YOLO approval mode asks for none
// (all observed on 0.24.4, fidelity/qwen_test.go).
func TestQwenMCPJSON(t *testing.T) {
	plain := qwenSum(`{"args":["db.js"],"command":"node"}`)
	typed := qwenSum(`{"args":["db.js"],"command":"node","type":"stdio"}`)
	approve := func(dir, hash string) string {
		return `{"$ROOT/` + dir + `": {"db": {"hash": "` + hash + `", "status": "approved"}}}`
	}
	const entry = `{"command": "node", "args": ["db.js"]}`
	const typedEntry = `{"type": "stdio", "command": "node", "args": ["db.js"]}`
	tests := []struct {
		name  string
		files map[string]string
		dir   string
		runs  bool
		from  string // the file the verdict is about ("" none)
		why   string
	}{
		{"approved", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + entry + `}}`, "home/.qwen/mcpApprovals.json": approve("repo", plain)},
			"repo", true, ".mcp.json", "approves this entry"},
		{"pending", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + entry + `}}`},
			"repo", false, ".mcp.json", "holds no approval"},
		{"comments, as Qwen Code reads it", map[string]string{"repo/.mcp.json": "{\n// ours\n\"mcpServers\": {\"db\": " + entry + `}}`, "home/.qwen/mcpApprovals.json": approve("repo", plain)},
			"repo", true, ".mcp.json", "approves this entry"},
		{"type dropped before the hash", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + typedEntry + `}}`, "home/.qwen/mcpApprovals.json": approve("repo", plain)},
			"repo", true, ".mcp.json", "approves this entry"},
		{"the hash with type is not Qwen Code's", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + typedEntry + `}}`, "home/.qwen/mcpApprovals.json": approve("repo", typed)},
			"repo", false, ".mcp.json", "holds no approval"},
		{"settings win a name", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": {"command": "evil"}}}`,
			"repo/.qwen/settings.json": `{"mcpServers": {"db": ` + entry + `}}`, "home/.qwen/mcpApprovals.json": approve("repo", plain)},
			"repo", true, ".qwen/settings.json", "approves this entry"},
		{"not read from a subdirectory", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + entry + `}}`, "repo/sub/.qwen/settings.json": `{"mcpServers": {"other": {"command": "x"}}}`,
			"home/.qwen/mcpApprovals.json": approve("repo/sub", plain)}, "repo/sub", false, "", ""},
		{"yolo in the workspace settings", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + entry + `}}`,
			"repo/.qwen/settings.json": `{"tools": {"approvalMode": " YOLO "}}`}, "repo", true, ".mcp.json", `tools.approvalMode "yolo"`},
		{"yolo in the user's settings", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + entry + `}}`,
			"home/.qwen/settings.json": `{"tools": {"approvalMode": "yolo"}}`}, "repo", true, ".mcp.json", "~/.qwen/settings.json sets"},
		{"the workspace's mode wins over the user's yolo", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + entry + `}}`,
			"repo/.qwen/settings.json": `{"tools": {"approvalMode": "default"}}`, "home/.qwen/settings.json": `{"tools": {"approvalMode": "yolo"}}`},
			"repo", false, ".mcp.json", "holds no approval"},
		{"yolo in a folder not trusted", map[string]string{"repo/.mcp.json": `{"mcpServers": {"db": ` + entry + `}}`,
			"repo/.qwen/settings.json": `{"tools": {"approvalMode": "yolo"}}`, "home/.qwen/settings.json": `{"security": {"folderTrust": {"enabled": true}}}`},
			"repo", false, ".mcp.json", "not trusted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for p, data := range tt.files {
				f.write(p, data)
			}
			v := verdict(f.evaluate(QwenCode, tt.dir), "db")
			if tt.from == "" {
				if v != nil {
					t.Fatalf("verdict %+v; want no server", v)
				}
				return
			}
			if v == nil || v.Interactive != tt.runs || v.Headless != tt.runs || !strings.Contains(v.Why, tt.why) ||
				v.Path != filepath.Join(f.repo, tt.from) {
				t.Fatalf("verdict %+v; want runs=%v from %s, why with %q", v, tt.runs, tt.from, tt.why)
			}
		})
	}
}

// The launch directory's settings, its `.mcp.json`, then the settings
// above it: a settings file Qwen Code may not read never hides a server
// of `.mcp.json` it does start.
func TestQwenConfigOrder(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"repo/.qwen/settings.json", "repo/sub/.qwen/settings.json"} {
		f.write(p, `{"mcpServers": {"db": {"command": "x"}}}`)
	}
	f.write("repo/sub/.mcp.json", `{"mcpServers": {"db": {"command": "x"}}}`)
	f.write("repo/.mcp.json", `{"mcpServers": {"db": {"command": "x"}}}`)
	got, err := qwenClient{}.Configs(filepath.Join(f.root, "repo/sub"), f.repo, f.env())
	want := []string{filepath.Join(f.repo, "sub/.qwen/settings.json"), filepath.Join(f.repo, "sub/.mcp.json"), filepath.Join(f.repo, ".qwen/settings.json")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Configs = %q, %v; want %q", got, err, want)
	}
}

// Qwen Code's normalizeClaudeMcpServer, as read from 0.24.4's bundle.
func TestQwenNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"command":"n","type":"stdio"}`, `{"command":"n"}`},
		{`{"command":"n","type":null}`, `{"command":"n"}`},
		{`{"command":"n","type":"sdk"}`, `{"command":"n","type":"sdk"}`},
		{`{"command":"","type":"stdio"}`, `{"command":"","type":"stdio"}`},
		{`{"httpUrl":"h","type":"x"}`, `{"httpUrl":"h"}`},
		{`{"url":"u","type":"http"}`, `{"httpUrl":"u"}`},
		{`{"url":"u","type":"sse"}`, `{"url":"u"}`},
		{`{"url":"u","type":"sdk"}`, `{"type":"sdk","url":"u"}`},
		{`{"url":"u"}`, `{"url":"u"}`},
		{`{"url":true,"type":"http"}`, `{"type":"http","url":true}`},
	} {
		var e map[string]any
		if err := json.Unmarshal([]byte(tc.in), &e); err != nil {
			t.Fatal(err)
		}
		qwenNormalize(e)
		if got, _ := json.Marshal(e); string(got) != tc.want {
			t.Errorf("qwenNormalize(%s) = %s; want %s", tc.in, got, tc.want)
		}
	}
}
