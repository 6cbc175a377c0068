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

// scan reads a `.mcp.json` in the dialect of the client that declared it
// (Claude Code) and, through Escapes, every entry another reader (Copilot
// CLI, Qwen Code) reads otherwise, so that the server rules see what each
// client starts (policy.CheckReadings). The test holds both: whatever a
// reader starts is in Claude Code's reading or in what escapes it, for
// every case; and the readings that differ are exactly the ones a case
// names (docs/fidelity.md, "One .mcp.json, three readings"), so that a
// difference that appears or disappears is seen.
func TestSharedMCPJSONReadings(t *testing.T) {
	readers := map[string]func(string) *trust.Config{
		"Copilot CLI": parserOf(copilotClient{}, "/r/.mcp.json"),
		"Qwen Code":   parserOf(qwenClient{}, "/r/.mcp.json"),
	}
	for _, tc := range []struct {
		name, in string
		differs  []string // the readers whose reading holds an entry Claude Code's does not, or one mcp-guard cannot read
	}{
		{"plain", `{"mcpServers":{"db":{"command":"node","args":["a.js"]}}}`, nil},
		{"type stdio", `{"mcpServers":{"db":{"type":"stdio","command":"node"}}}`, nil},
		{"invalid UTF-8 (Claude Code's reader is lenient)", "{\"mcpServers\":{\"db\":{\"command\":\"n\xff\"}}}", nil},
		{"a number past a double", `{"mcpServers":{"db":{"command":"node","timeout":1e400}}}`, nil},
		// Claude Code skips a url without a type (MG307); Copilot CLI and
		// Qwen Code connect to it: the url rules apply to theirs.
		{"url and no command", `{"mcpServers":{"db":{"url":"https://x.example"}}}`, []string{"Copilot CLI", "Qwen Code"}},
		{"url and command, no type", `{"mcpServers":{"db":{"url":"https://x.example","command":"evil"}}}`, nil},
		{"unknown type with a command", `{"mcpServers":{"db":{"type":"pipe","command":"evil"}}}`, nil},
		// Claude Code fails the file; Qwen Code may load it (mcp-guard
		// cannot tell what it reads: unknown, said by its MG310).
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
		decl := parseClaude(tc.in)
		claude := spawned(decl)
		for who, read := range readers {
			o := read(tc.in)
			esc, unknown := Escapes(decl, o)
			if named := slices.Contains(tc.differs, who); named != (len(esc) > 0 || unknown) {
				t.Errorf("%s: %s's reading holds %q beyond Claude Code's (%q), unknown %v; named as differing: %v", tc.name, who, names(esc), claude, unknown, named)
			}
			if unknown != (o.Unreadable() && !decl.Unreadable()) {
				t.Errorf("%s: %s's reading unknown %v, but Unreadable says %v", tc.name, who, unknown, o.Unreadable())
			}
			if unknown {
				continue // said unknown: nothing to hold
			}
			// What scan's rules see: Claude Code's reading and what
			// escapes it.
			seen := append(claude, spawned(&trust.Config{Servers: esc})...)
			for _, s := range spawned(o) {
				if !slices.Contains(seen, s) && !slices.Contains(seen, "unknown") {
					t.Errorf("%s: %s starts %s, which neither Claude Code's reading nor what escapes it holds", tc.name, who, s)
				}
			}
		}
	}
}
