package client

import (
	"reflect"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// FuzzClaudeDialect: any bytes parse without a panic, twice the same, and
// the spawn view of every loaded server is deterministic.
func FuzzClaudeDialect(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"db":{"command":"${A:-x}","args":["${B}","$C"],"env":{"K":"${A}"}}}}`,
		"\xEF\xBB\xBF{\"mcpServers\":{\"a\":{\"command\":\"\\ud800\xff\"},\"a\":{\"command\":\"b\",\"args\":[1]}}}",
		`{"servers":{}}`, `{"mcpServers":{"x":{"url":"u","type":"http"}}} x`, `{"mcpServers":{"n":{"command":"c","t":1e400}}}`,
	} {
		f.Add([]byte(s))
	}
	look := vars("A", "1", "B", "")
	fuzzParser(f, parseClaude, func(s *trust.Server) Spawn { return claudeClient{}.Spawn(s, look) })
}

// fuzzParser: any bytes parse without a panic, twice the same; a failed
// file loads nothing; the spawn view is deterministic and keeps the raw
// view's shape.
func fuzzParser(f *testing.F, parse func(string) *trust.Config, spawn func(*trust.Server) Spawn) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c1, c2 := parse(string(data)), parse(string(data))
		if (c1.Err == nil) != (c2.Err == nil) || c1.Unreadable() != c2.Unreadable() || names(c1.Servers) != names(c2.Servers) ||
			len(c1.Skipped) != len(c2.Skipped) || len(c1.Findings) != len(c2.Findings) {
			t.Fatal("parse is not deterministic")
		}
		if c1.Err != nil && len(c1.Servers) != 0 {
			t.Fatal("a failed file loads servers")
		}
		for i, s := range c1.Servers {
			if s.Canonical() != c2.Servers[i].Canonical() {
				t.Fatal("canonical form differs")
			}
			a, b := spawn(s), spawn(c2.Servers[i])
			if !reflect.DeepEqual(a, b) {
				t.Fatal("spawn is not deterministic")
			}
			if len(a.Args) != len(a.RawArgs) || len(a.Env) != len(a.RawEnv) {
				t.Fatal("spawn and raw views differ in shape")
			}
		}
	})
}
