package client

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// spawned is what a reading of a config starts: each stdio server's name
// and command line, sorted; "unknown" when the reading cannot tell.
func spawned(c *trust.Config) []string {
	if c.Unreadable() {
		return []string{"unknown"}
	}
	var out []string
	for _, s := range c.Servers {
		if s.Transport == trust.TransportStdio && s.Command != "" {
			out = append(out, s.Name+"="+s.Command+" "+strings.Join(s.HashArgs(), " "))
		}
	}
	slices.Sort(out)
	return out
}

// project.Load reads a `.mcp.json` once, in the dialect of the client that
// declared it (Claude Code), for scan's findings; Copilot CLI and Qwen Code
// read the same file in their own (the gate, check, launch and the hook
// read it in each). Where the dialects differ, Claude Code's reading holds
// every server the others start, except where a case names the reader
// whose servers escape it (docs/fidelity.md, "One .mcp.json, three
// readings"): there scan's server rules do not see what that client
// starts, unless Claude Code cannot read the file at all (a comment: scan
// then reads the others' readings, project.Snapshot.Also). The test fails when a reading escapes that is not named, and
// when a named one no longer does.
func TestSharedMCPJSONReadings(t *testing.T) {
	readers := map[string]func(string) *trust.Config{
		"Copilot CLI": parserOf(copilotClient{}, "/r/.mcp.json"),
		"Qwen Code":   parserOf(qwenClient{}, "/r/.mcp.json"),
	}
	for _, tc := range []struct {
		name, in string
		escapes  []string // the readers whose servers Claude Code's reading does not hold
	}{
		{"plain", `{"mcpServers":{"db":{"command":"node","args":["a.js"]}}}`, nil},
		{"type stdio", `{"mcpServers":{"db":{"type":"stdio","command":"node"}}}`, nil},
		{"invalid UTF-8 (Claude Code's reader is lenient)", "{\"mcpServers\":{\"db\":{\"command\":\"n\xff\"}}}", nil},
		{"a number past a double", `{"mcpServers":{"db":{"command":"node","timeout":1e400}}}`, nil},
		{"url and no command", `{"mcpServers":{"db":{"url":"https://x.example"}}}`, nil},
		{"url and command, no type", `{"mcpServers":{"db":{"url":"https://x.example","command":"evil"}}}`, nil},
		{"unknown type with a command", `{"mcpServers":{"db":{"type":"pipe","command":"evil"}}}`, nil},
		{"a trailing comma", `{"mcpServers":{"db":{"command":"node"},}}`, []string{"Qwen Code"}},
		{"empty file", ``, nil},
		// Qwen Code strips comments before JSON.parse (0.24.4's
		// loadProjectMcpServers); Claude Code fails the file.
		{"a comment", "{\n// ours\n\"mcpServers\":{\"db\":{\"command\":\"node\"}}}", []string{"Qwen Code"}},
		// Claude Code and Copilot CLI skip the server; Qwen Code's reading
		// (Gemini CLI's) spawns String(1).
		{"a non-string arg", `{"mcpServers":{"db":{"command":"node","args":[1]}}}`, []string{"Qwen Code"}},
		// Claude Code connects to a url of type http, sse or ws, as
		// Copilot CLI does (ws observed on 1.0.102: ws-command); Qwen
		// Code's reading (Gemini CLI's settings, where a command beside a
		// url counts as spawned) spawns the command.
		{"http with a command", `{"mcpServers":{"db":{"type":"http","url":"https://x.example","command":"evil"}}}`, []string{"Qwen Code"}},
		{"sse with a command", `{"mcpServers":{"db":{"type":"sse","url":"https://x.example","command":"evil"}}}`, []string{"Qwen Code"}},
		{"ws with a command", `{"mcpServers":{"db":{"type":"ws","url":"wss://x.example","command":"evil"}}}`, []string{"Qwen Code"}},
	} {
		claude := spawned(parseClaude(tc.in))
		for who, read := range readers {
			got := spawned(read(tc.in))
			var escaped []string
			for _, s := range got {
				if !slices.Contains(claude, s) && !slices.Contains(claude, "unknown") {
					escaped = append(escaped, s)
				}
			}
			if named := slices.Contains(tc.escapes, who); named != (len(escaped) > 0) {
				t.Errorf("%s: %s starts %q, Claude Code's reading holds %q; named as escaping: %v", tc.name, who, got, claude, named)
			}
		}
	}
}
