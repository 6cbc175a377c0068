package client

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

func TestCommand(t *testing.T) {
	for argv0, want := range map[string]ID{
		"claude": ClaudeCode, "/usr/local/bin/claude": ClaudeCode, "claude.exe": ClaudeCode,
		"agentty": Agentty, "/opt/agentty": Agentty,
		"gemini": Gemini, "/usr/bin/gemini": Gemini, "codex": Codex, "codex.exe": Codex,
		"claude-code": "", "bash": "", "": "", "./claudex": "", "gemini-cli": "", "codex-cli": "",
	} {
		if got := Command(argv0); got != want {
			t.Errorf("Command(%q) = %q, want %q", argv0, got, want)
		}
	}
}

func TestClaudeArgv(t *testing.T) {
	got := ClaudeArgv("claude", "/v.json", "", []string{"-p", "say ok", "--model", "x"})
	want := []string{"claude", "--mcp-config", "/v.json", "--strict-mcp-config", "-p", "say ok", "--model", "x"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	got = ClaudeArgv("claude", "/v.json", "/s.json", []string{"-p", "say ok"})
	want = []string{"claude", "--mcp-config", "/v.json", "--strict-mcp-config", "--setting-sources", "user", "--settings", "/s.json", "-p", "say ok"}
	if !slices.Equal(got, want) {
		t.Errorf("with settings: got %q, want %q", got, want)
	}
}

func TestAllowArgv(t *testing.T) {
	for _, tc := range []struct {
		allowed []string
		want    []string
	}{
		{[]string{"db"}, []string{"gemini", "--allowed-mcp-server-names=db", "-p", "say ok"}},
		{[]string{"db", "My Server"}, []string{"gemini", "--allowed-mcp-server-names=db", "--allowed-mcp-server-names=My Server", "-p", "say ok"}},
		{nil, []string{"gemini", "--allowed-mcp-server-names=", "-p", "say ok"}},
	} {
		if got := AllowArgv("gemini", tc.allowed, []string{"-p", "say ok"}); !slices.Equal(got, tc.want) {
			t.Errorf("AllowArgv(%q) = %q, want %q", tc.allowed, got, tc.want)
		}
	}
}

func TestGeminiPassable(t *testing.T) {
	for name, want := range map[string]bool{
		"db": true, "My Server": true, "a.b": true, "ünï": true,
		"": false, "a,b": false, " db": false, "db ": false, "\tdb": false, ",": false,
	} {
		if got := GeminiPassable(name); got != want {
			t.Errorf("GeminiPassable(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestAllowPassable(t *testing.T) {
	for _, tc := range []struct {
		id   ID
		name string
		want bool
	}{
		{Gemini, "db", true}, {Gemini, "d*", true}, {Gemini, "a,b", false},
		{QwenCode, "db", true}, {QwenCode, "My Server", true}, {QwenCode, "a.b", true},
		{QwenCode, "d*", false}, {QwenCode, "d?", false}, {QwenCode, "*", false},
		{QwenCode, "a,b", false}, {QwenCode, " db", false}, {QwenCode, "", false},
	} {
		if got := AllowPassable(tc.id, tc.name); got != tc.want {
			t.Errorf("AllowPassable(%s, %q) = %v, want %v", tc.id, tc.name, got, tc.want)
		}
	}
}

func TestCodexArgv(t *testing.T) {
	got, err := CodexArgv("codex", []string{"db", "my-srv_2"}, []string{"exec", "say ok"})
	want := []string{"codex", "-c", "mcp_servers.db.enabled=false", "-c", "mcp_servers.my-srv_2.enabled=false", "exec", "say ok"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if got, err := CodexArgv("codex", nil, []string{"exec"}); err != nil || !slices.Equal(got, []string{"codex", "exec"}) {
		t.Errorf("no servers off: got %q, %v", got, err)
	}
	for _, name := range []string{"a.b", "", "a=b", "a b", `"x"`, "x]", "é", "a\nb"} {
		if got, err := CodexArgv("codex", []string{"db", name}, []string{"exec"}); err == nil {
			t.Errorf("CodexArgv(%q) = %q, want an error", name, got)
		}
	}
}

func TestClaudeHealthCheck(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"mcp", "list"}, true},
		{[]string{"mcp", "get", "db"}, true},
		{[]string{"--debug", "mcp", "--verbose", "list"}, true},
		{[]string{"--model", "mcp", "list"}, true}, // an option's value cannot hide it
		{[]string{"mcp", "add", "x", "--", "list"}, false},
		{[]string{"-p", "mcp list"}, false},
		{[]string{"-p", "hello"}, false},
		{nil, false},
	} {
		if got := ClaudeHealthCheck(tc.args); got != tc.want {
			t.Errorf("ClaudeHealthCheck(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestVettedConfigReadsBack: the vetted file reads back, in Claude Code's
// dialect, as exactly the entries it was built from.
func TestVettedConfigReadsBack(t *testing.T) {
	src := []byte(`{"mcpServers":{"b\"q":{"command":"node","args":["${X:-y}"],"env":{"K":"v"}},"a":{"url":"https://e.example/mcp","type":"http"}}}`)
	cfg := Lookup(ClaudeCode).Parse("src", src)
	if !cfg.Valid() {
		t.Fatal(cfg.Err)
	}
	data, _, _, err := VettedConfig(cfg.Servers, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := Lookup(ClaudeCode).Parse("vetted", data)
	if !back.Valid() || len(back.Servers) != len(cfg.Servers) {
		t.Fatalf("read back %v: %s", back.Err, data)
	}
	for i, s := range back.Servers {
		if s.Name != cfg.Servers[i].Name || s.Canonical() != cfg.Servers[i].Canonical() {
			t.Errorf("server %d: %q %s, want %q %s", i, s.Name, s.Canonical(), cfg.Servers[i].Name, cfg.Servers[i].Canonical())
		}
	}
	if empty, _, _, _ := VettedConfig([]*trust.Server{}, nil, nil); string(empty) != "{\"mcpServers\":{}}\n" {
		t.Errorf("empty: %q", empty)
	}
}

// TestVettedConfigOwn: the user's own servers are carried as written, in
// Claude Code's precedence: local beats project beats user; a server the
// user turned off is not carried.
func TestVettedConfigOwn(t *testing.T) {
	cfg := Lookup(ClaudeCode).Parse("src", []byte(`{"mcpServers":{"db":{"command":"node","args":["db.js"]},"both":{"command":"proj"},"pl":{"command":"p"}}}`))
	if !cfg.Valid() {
		t.Fatal(cfg.Err)
	}
	user := []UserServer{
		{Name: "both", Scope: "local", Entry: `{"command":"mine-local"}`},
		{Name: "mine", Scope: "local", Entry: `{"command":"mine","env":{"T":"${TOKEN}"}}`},
		{Name: "db", Scope: "user", Entry: `{"command":"user-db"}`},
		{Name: "left", Scope: "user", Entry: `{"command":"user-left"}`},
		{Name: "glob", Scope: "user", Entry: `{"type":"http","url":"https://x.example/mcp"}`},
		{Name: "off", Scope: "user", Entry: `{"command":"off"}`, Off: true},
	}
	data, own, shadowed, err := VettedConfig(cfg.Servers, []string{"left"}, user)
	if err != nil {
		t.Fatal(err)
	}
	back := Lookup(ClaudeCode).Parse("vetted", data)
	if !back.Valid() {
		t.Fatalf("read back %v: %s", back.Err, data)
	}
	got := map[string]string{}
	for _, s := range back.Servers {
		got[s.Name] = s.Command + s.URL
	}
	want := map[string]string{"db": "node", "pl": "p", "both": "mine-local", "mine": "mine", "glob": "https://x.example/mcp"}
	if !maps.Equal(got, want) {
		t.Errorf("vetted servers %v, want %v\n%s", got, want, data)
	}
	if !slices.Equal(own, []string{"both", "mine", "glob"}) || !slices.Equal(shadowed, []string{"both"}) {
		t.Errorf("own %v shadowed %v", own, shadowed)
	}
	if !strings.Contains(string(data), `"T":"${TOKEN}"`) {
		t.Errorf("the user's entry is not carried as written: %s", data)
	}
}

// TestCodexBypassesHookTrust: the flag and -c overrides that turn Codex's
// hook trust off, anywhere before `--`; the launch refuses them while a
// hook is not reviewed.
func TestCodexBypassesHookTrust(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"exec", "hi"}, ""},
		{[]string{"--dangerously-bypass-hook-trust"}, "--dangerously-bypass-hook-trust"},
		{[]string{"exec", "--dangerously-bypass-hook-trust", "hi"}, "--dangerously-bypass-hook-trust"},
		{[]string{"--dangerously-bypass-hook-trust=true"}, "--dangerously-bypass-hook-trust"},
		{[]string{"-c", "bypass_hook_trust=true"}, "-c bypass_hook_trust"},
		{[]string{"--config", "session_flags.bypass_hook_trust=false"}, "-c session_flags.bypass_hook_trust"},
		{[]string{"--config=bypass_hook_trust=1"}, "-c bypass_hook_trust"},
		{[]string{"-cbypass_hook_trust=true"}, "-c bypass_hook_trust"},
		{[]string{"-c", "model=o3", "exec", "bypass_hook_trust=true"}, ""},
		{[]string{"exec", "--", "--dangerously-bypass-hook-trust"}, ""},
		{[]string{"--dangerously-bypass-approvals-and-sandbox"}, ""},
		{[]string{"-c"}, ""},
	}
	for _, tt := range tests {
		if got := CodexBypassesHookTrust(tt.args); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.args, got, tt.want)
		}
	}
	c := Lookup(Codex)
	if _, _, err := DisableLaunch(c, "codex", nil, []string{"hooks.SessionStart[0].hooks[0]"}, []string{"--dangerously-bypass-hook-trust"}, nil); err == nil ||
		!strings.Contains(err.Error(), "hooks.SessionStart[0].hooks[0]") {
		t.Errorf("an unreviewed hook with the flag: %v", err)
	}
	if argv, _, err := DisableLaunch(c, "codex", []string{"db"}, nil, []string{"--dangerously-bypass-hook-trust"}, nil); err != nil || len(argv) != 4 {
		t.Errorf("every hook reviewed: %q %v", argv, err)
	}
	if _, _, err := DisableLaunch(c, "codex", nil, []string{"h"}, []string{"exec", "hi"}, nil); err != nil {
		t.Errorf("no flag: %v", err)
	}
}

// TestReadVettedPastRepositoryLimit: the vetted file is mcp-guard's own
// output, read back as the user's file: the most servers a repository
// file may declare (trust.MaxServers), all reviewed, plus one of the
// user's own still read back, where a repository file of as many does
// not (client.ParseFile refuses it).
func TestReadVettedPastRepositoryLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{`)
	for i := range trust.MaxServers {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"s%d":{"command":"node","args":["s%d.js"]}`, i, i)
	}
	b.WriteString(`}}`)
	cfg := ParseFile(Lookup(ClaudeCode), ".mcp.json", []byte(b.String()))
	if !cfg.Valid() || len(cfg.Servers) != trust.MaxServers {
		t.Fatalf("the repository file of %d servers: %v", trust.MaxServers, cfg.Err)
	}
	user := []UserServer{{Name: "mine", Scope: "user", Entry: `{"command":"mine"}`}}
	data, own, _, err := VettedConfig(cfg.Servers, nil, user)
	if err != nil || len(own) != 1 {
		t.Fatal(err, own)
	}
	if over := ParseFile(Lookup(ClaudeCode), ".mcp.json", data); over.Valid() {
		t.Fatalf("a repository file of %d servers reads: the test no longer crosses the limit", trust.MaxServers+1)
	}
	for _, id := range []ID{ClaudeCode, Agentty} {
		back := ReadVetted(id, data)
		if !back.Valid() || len(back.Servers) != trust.MaxServers+1 {
			t.Fatalf("%s: read back %d servers: %v", id, len(back.Servers), back.Err)
		}
	}
}
