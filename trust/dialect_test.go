package trust

import (
	"strings"
	"testing"
)

func TestMaximalSubpart(t *testing.T) {
	for _, tt := range []struct {
		in string
		n  int
	}{
		{"\xff", 1}, {"\x80", 1}, {"\xc0\xaf", 1}, {"\xe2\x82", 2}, {"\xe2\x82x", 2},
		{"\xe0\x80", 1}, {"\xed\xa0\x80", 1}, {"\xf0\x9f\x98", 3}, {"\xf4\x90", 1}, {"\xf5", 1},
	} {
		if got := maximalSubpart([]byte(tt.in)); got != tt.n {
			t.Errorf("%q: %d, want %d", tt.in, got, tt.n)
		}
	}
}

func TestDecodeDialect(t *testing.T) {
	v, err := DecodeDialect([]byte("\xEF\xBB\xBF{\"a\":[\"x\",true],\"a\":[\"\xff\"],\"n\":1e400,\"b\":false}"), ClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := v.Get("a")
	if e := a.Elems(); len(e) != 1 {
		t.Fatalf("last duplicate does not win: %d elements", len(e))
	} else if s, _ := e[0].Str(); s != "\uFFFD" {
		t.Errorf("invalid UTF-8 read as %q", s)
	}
	if n, _ := v.Get("n"); n.Num() < 1e308 {
		t.Errorf("1e400 read as %v", n.Num())
	}
	if b, ok := v.Get("b"); ok {
		if x, isBool := b.Bool(); x || !isBool {
			t.Error("false")
		}
	}
	for _, bad := range []string{`{} x`, `{"a":1,}`, `// c` + "\n{}", `{"a":1e400}`} {
		d := ClaudeCode
		if strings.Contains(bad, "1e400") {
			d = nil // agentty's: out of range
		}
		if _, err := DecodeDialect([]byte(bad), d); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The JSONC switches (Comments, TrailingCommas) and Tolerant, and that they
// stay off for agentty and Claude Code.
func TestJSONCSwitches(t *testing.T) {
	jsonc := &Dialect{Client: "X", ServersKey: "s", Comments: true, TrailingCommas: true, Tolerant: true, TrailingFails: true}
	for _, tt := range []struct {
		in       string
		jsoncErr string // "" accepted by jsonc
	}{
		{in: "// c\n{\"a\":1}"},
		{in: "{/* c */\"a\":/**/[1,/* x */2,],}"},
		{in: "{\"a\":\"//not a comment\",\"b\":\"/* nor */\"}"},
		{in: "{\"a\":1} // end"},
		{in: "{\"a\":1} /* unterminated"},
		{in: "{\"a\":1,,}", jsoncErr: "expected a string key"},
		{in: "[1,,]", jsoncErr: "expected a value, found ','"},
		{in: "{\"a\":1}/", jsoncErr: "after the JSON value"},
		{in: "{\"a\":/ 1}", jsoncErr: "expected a value, found '/'"},
		{in: "[,]", jsoncErr: "expected a value, found ','"},
	} {
		_, err := DecodeDialect([]byte(tt.in), jsonc)
		if (err == nil) != (tt.jsoncErr == "") || (err != nil && !strings.Contains(err.Error(), tt.jsoncErr)) {
			t.Errorf("%q: jsonc err %v, want %q", tt.in, err, tt.jsoncErr)
		}
		if tt.jsoncErr == "" && !strings.Contains(tt.in, "//not") {
			for _, d := range []*Dialect{nil, ClaudeCode} {
				if _, err := DecodeDialect([]byte(tt.in), d); err == nil {
					t.Errorf("%q accepted without the switches (%v)", tt.in, d)
				}
			}
		}
	}
	// Tolerant: a syntax error or trailing bytes make the file Unreadable
	// (MG310), not invalid; a wrong shape is still invalid.
	for in, unreadable := range map[string]bool{
		`{"s":{"a":{"command":"x"}}`:    true,
		`{"s":{"a":{"command":"x"}}} x`: true,
		`{"s":[]}`:                      false,
		`[]`:                            false,
	} {
		c := ParseDialect("p", []byte(in), ScopeProject, jsonc)
		if c.Err == nil || c.Unreadable() != unreadable || c.Dialect != jsonc || c.SHA256 == "" {
			t.Errorf("%q: err %v unreadable %v", in, c.Err, c.Unreadable())
		}
		if unreadable && (len(c.Findings) != 1 || c.Findings[0].Rule != "MG310" || !strings.Contains(c.Err.Error(), "X may still load servers")) {
			t.Errorf("%q: findings %+v", in, c.Findings)
		}
	}
	c := ParseDialect("p", []byte(`{"s":{"a":{"command":"x"}}`), ScopeProject, ClaudeCode)
	if c.Unreadable() {
		t.Error("Claude Code's syntax error became unknown")
	}
}

func TestRemoteWithoutType(t *testing.T) {
	d := &Dialect{Client: "X", ServersKey: "s", SkipBadServers: true, RemoteWithoutType: true}
	c := ParseDialect("p", []byte(`{"s":{"r":{"url":"https://x"},"c":{"url":"https://x","command":"n"},"t":{"url":"u","type":"odd"}}}`), ScopeProject, d)
	if len(c.Servers) != 2 || len(c.Skipped) != 1 || c.Skipped[0].Name != "t" {
		t.Fatalf("servers %d skipped %+v", len(c.Servers), c.Skipped)
	}
	for _, s := range c.Servers {
		if remote := s.Transport != TransportStdio; remote != (s.Name == "r") || s.Gated == remote {
			t.Errorf("%s: transport %s gated %v", s.Name, s.Transport, s.Gated)
		}
	}
	if v, ok := c.Servers[0].StringMember("url"); !ok || v != "https://x" {
		t.Errorf("StringMember %q %v", v, ok)
	}
	if _, ok := c.Servers[0].StringMember("nope"); ok {
		t.Error("StringMember of an absent key")
	}
}

// A line comment ends at a newline for Gemini CLI (strip-json-comments)
// and at a carriage return too for the JSONC readers: the same bytes hold
// a different member.
func TestLineCommentCarriageReturn(t *testing.T) {
	data := []byte("{\"a\":1 // note\r,\"b\":2\n}")
	for _, tt := range []struct {
		d     *Dialect
		withB bool
	}{{GeminiCLI, false}, {VSCode, true}, {Cursor, true}} {
		v, err := DecodeDialect(data, tt.d)
		if err != nil {
			t.Fatalf("%s: %v", tt.d.Client, err)
		}
		if _, ok := v.Get("b"); ok != tt.withB {
			t.Errorf("%s: member b present %v, want %v", tt.d.Client, ok, tt.withB)
		}
	}
}
