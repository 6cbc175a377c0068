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
