package client

import (
	"slices"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

func TestCommand(t *testing.T) {
	for argv0, want := range map[string]ID{
		"claude": ClaudeCode, "/usr/local/bin/claude": ClaudeCode, "claude.exe": ClaudeCode,
		"agentty": Agentty, "/opt/agentty": Agentty,
		"claude-code": "", "bash": "", "": "", "./claudex": "",
	} {
		if got := Command(argv0); got != want {
			t.Errorf("Command(%q) = %q, want %q", argv0, got, want)
		}
	}
}

func TestClaudeArgv(t *testing.T) {
	got := ClaudeArgv("claude", "/v.json", []string{"-p", "say ok", "--model", "x"})
	want := []string{"claude", "--mcp-config", "/v.json", "--strict-mcp-config", "-p", "say ok", "--model", "x"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
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
	data, err := VettedConfig(cfg.Servers)
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
	if empty, _ := VettedConfig([]*trust.Server{}); string(empty) != "{\"mcpServers\":{}}\n" {
		t.Errorf("empty: %q", empty)
	}
}
