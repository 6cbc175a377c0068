package client

import (
	"reflect"
	"testing"
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
	f.Fuzz(func(t *testing.T, data []byte) {
		c1, c2 := parseClaude(string(data)), parseClaude(string(data))
		if (c1.Err == nil) != (c2.Err == nil) || len(c1.Servers) != len(c2.Servers) || len(c1.Skipped) != len(c2.Skipped) {
			t.Fatal("parse is not deterministic")
		}
		if c1.Err != nil && len(c1.Servers) != 0 {
			t.Fatal("a failed file loads servers")
		}
		for i, s := range c1.Servers {
			if s.Canonical() != c2.Servers[i].Canonical() {
				t.Fatal("canonical form differs")
			}
			a, b := claudeClient{}.Spawn(s, look), claudeClient{}.Spawn(c2.Servers[i], look)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("spawn is not deterministic")
			}
			if len(a.Args) != len(a.RawArgs) || len(a.Env) != len(a.RawEnv) {
				t.Fatal("spawn and raw views differ in shape")
			}
		}
	})
}
