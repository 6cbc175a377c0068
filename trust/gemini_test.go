package trust

import (
	"strings"
	"testing"
)

// The switches Gemini CLI's dialect adds, through the one JSON reader.
func TestGeminiSwitches(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"{// c\n\"a\":1}", true},
		{"{\"a\":1 /* c */}", true},
		{"{\"a\":/* c */ 1}/* unclosed", true},
		{"{\"a\":\"//x\"}", true},
		{"{\"a\":1}//", true},
		{"{\"a\":1} /", false},
		{"{\"a\":1,}", false},
		{"[1,]", false},
		{"\xEF\xBB\xBF{}", false},
	}
	for _, tt := range tests {
		_, err := DecodeDialect([]byte(tt.in), GeminiCLI)
		if (err == nil) != tt.ok {
			t.Errorf("%q: %v, want ok=%v", tt.in, err, tt.ok)
		}
		// agentty and Claude Code read no comments and take a BOM.
		if strings.Contains(tt.in, "/") {
			if _, err := DecodeDialect([]byte(tt.in), ClaudeCode); err == nil && !strings.Contains(tt.in, `"//x"`) {
				t.Errorf("%q: Claude Code reads comments", tt.in)
			}
		}
	}
	if _, err := DecodeDialect([]byte("\xEF\xBB\xBF{}"), ClaudeCode); err != nil {
		t.Errorf("Claude Code rejects a BOM: %v", err)
	}
	v, err := DecodeDialect([]byte(`{"b":1,"a":2,"b":3}`), GeminiCLI)
	if err != nil || strings.Join(v.Keys(), ",") != "a,b" {
		t.Errorf("keys %q %v", v.Keys(), err)
	}
	c := ParseDialect("/s.json", []byte(`{"mcpServers":{"x":{"command":"c","args":[1.0,[1,null,[2]],{},null],"cwd":"d"}}}`), ScopeProject, GeminiCLI)
	if c.Err != nil {
		t.Fatal(c.Err)
	}
	if got := strings.Join(c.Servers[0].SpawnArgs(), "|"); got != "1|1,,2|[object Object]|null" {
		t.Errorf("args %q", got)
	}
	if cwd, ok := c.Servers[0].Value("cwd"); !ok || cwd.Kind() != "string" {
		t.Error("Value(cwd)")
	}
}

// Gemini CLI's httpUrl is an endpoint (a Streamable HTTP server), and it
// wins over url, as createUrlTransport takes it first (0.61.0).
func TestGeminiHTTPURL(t *testing.T) {
	tests := []struct {
		entry, url string
		transport  Transport
		skipped    bool
	}{
		{`{"httpUrl":"https://a.example/mcp"}`, "https://a.example/mcp", TransportHTTP, false},
		{`{"httpUrl":"https://a.example/mcp","url":"https://b.example/sse","type":"sse"}`, "https://a.example/mcp", TransportHTTP, false},
		{`{"url":"https://b.example/sse","type":"sse"}`, "https://b.example/sse", TransportSSE, false},
		{`{"httpUrl":7}`, "", "", true},
		// A command beside it: reported as what spawns (the sound side).
		{`{"httpUrl":"https://a.example/mcp","command":"node"}`, "https://a.example/mcp", TransportStdio, false},
	}
	for _, tt := range tests {
		c := ParseDialect("/s.json", []byte(`{"mcpServers":{"x":`+tt.entry+`}}`), ScopeProject, GeminiCLI)
		if c.Err != nil {
			t.Fatalf("%s: %v", tt.entry, c.Err)
		}
		if tt.skipped {
			if len(c.Servers) != 0 || len(c.Skipped) != 1 {
				t.Errorf("%s: servers %d, skipped %v", tt.entry, len(c.Servers), c.Skipped)
			}
			continue
		}
		if len(c.Servers) != 1 {
			t.Fatalf("%s: skipped %v", tt.entry, c.Skipped)
		}
		if s := c.Servers[0]; s.URL != tt.url || s.Transport != tt.transport {
			t.Errorf("%s: url %q transport %q, want %q %q", tt.entry, s.URL, s.Transport, tt.url, tt.transport)
		}
	}
	// A changed endpoint changes what the server is.
	a := ParseDialect("/s.json", []byte(`{"mcpServers":{"x":{"httpUrl":"https://a.example/mcp"}}}`), ScopeProject, GeminiCLI)
	b := ParseDialect("/s.json", []byte(`{"mcpServers":{"x":{"httpUrl":"https://evil.example/mcp"}}}`), ScopeProject, GeminiCLI)
	if a.Servers[0].Fingerprint == b.Servers[0].Fingerprint {
		t.Error("the endpoint is not part of the fingerprint")
	}
}
