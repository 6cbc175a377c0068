package trust

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// parseProject parses s as a project config named .agentty/mcp.json.
func parseProject(t *testing.T, s string) *Config {
	t.Helper()
	return Parse(".agentty/mcp.json", []byte(s), ScopeProject)
}

// rules lists the rule ids of c's findings in order.
func rules(c *Config) []string {
	var out []string
	for _, f := range c.Findings {
		out = append(out, f.Rule)
	}
	return out
}

func findingsOf(c *Config, rule string) []Finding {
	var out []Finding
	for _, f := range c.Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

func serverNames(c *Config) []string {
	var out []string
	for _, s := range c.Servers {
		out = append(out, s.Name)
	}
	return out
}

func mustServer(t *testing.T, c *Config, name string) *Server {
	t.Helper()
	if !c.Valid() {
		t.Fatalf("config invalid: %v", c.Err)
	}
	s := c.Server(name)
	if s == nil {
		t.Fatalf("no server %q; have %q", name, serverNames(c))
	}
	return s
}

// wantInvalid checks that c is invalid with an MG301 or MG307 finding and
// no servers at all (no half result).
func wantInvalid(t *testing.T, c *Config, rule string) {
	t.Helper()
	if c.Valid() {
		t.Fatalf("config valid with servers %q, want invalid (%s)", serverNames(c), rule)
	}
	if len(c.Servers) != 0 {
		t.Errorf("invalid config has servers %q", serverNames(c))
	}
	if len(findingsOf(c, rule)) == 0 {
		t.Errorf("no %s finding; findings %q (err %v)", rule, rules(c), c.Err)
	}
}

type posWant struct{ line, col int }

func wantFindingsAt(t *testing.T, c *Config, rule string, want ...posWant) {
	t.Helper()
	fs := findingsOf(c, rule)
	var got []posWant
	for _, f := range fs {
		got = append(got, posWant{f.Line, f.Column})
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s findings at %v, want %v", rule, got, want)
	}
}

func TestParseDuplicates(t *testing.T) {
	t.Run("top-level mcpServers twice: last replaces, not merges", func(t *testing.T) {
		c := parseProject(t, `{"mcpServers":{"a":{"command":"x"}},`+"\n"+
			`  "mcpServers":{"b":{"command":"y"}}}`)
		if got := serverNames(c); !slices.Equal(got, []string{"b"}) {
			t.Errorf("servers %q, want [b]", got)
		}
		wantFindingsAt(t, c, "MG302", posWant{2, 3})
		if f := findingsOf(c, "MG302"); len(f) == 1 && f[0].Key != "mcpServers" {
			t.Errorf("MG302 key %q, want mcpServers", f[0].Key)
		}
	})
	t.Run("server name twice", func(t *testing.T) {
		c := parseProject(t, `{"mcpServers":{
  "a":{"command":"x","args":["1"],"env":{"K":"v"}},
  "b":{"command":"z"},
    "a":{"command":"y"}}}`)
		if got := serverNames(c); !slices.Equal(got, []string{"a", "b"}) {
			t.Errorf("servers %q, want [a b]", got)
		}
		a := mustServer(t, c, "a")
		if a.Command != "y" || len(a.Args) != 0 || len(a.Env) != 0 {
			t.Errorf("a = %q %v %v, want the last entry only (command y, no args, no env)", a.Command, a.Args, a.Env)
		}
		if a.NamePos.Line != 4 || a.NamePos.Column != 5 {
			t.Errorf("a named at %d:%d, want the winning key 4:5", a.NamePos.Line, a.NamePos.Column)
		}
		wantFindingsAt(t, c, "MG302", posWant{4, 5})
		if f := findingsOf(c, "MG302"); len(f) == 1 && f[0].Server != "a" {
			t.Errorf("MG302 server %q, want a", f[0].Server)
		}
		if a.Fingerprint != Fingerprint("y", "", nil) {
			t.Errorf("fingerprint of the replaced entry does not match its last value")
		}
	})
	t.Run("key inside an entry twice", func(t *testing.T) {
		c := parseProject(t, "{\"mcpServers\":{\"a\":{\n\"command\":\"x\", \"args\":[\"1\"],\n\"command\":\"y\", \"args\":[\"2\",\"3\"]}}}")
		a := mustServer(t, c, "a")
		if a.Command != "y" || !slices.Equal(a.HashArgs(), []string{"2", "3"}) {
			t.Errorf("a = %q %q, want y [2 3]", a.Command, a.HashArgs())
		}
		wantFindingsAt(t, c, "MG302", posWant{3, 1}, posWant{3, 16})
		for _, f := range findingsOf(c, "MG302") {
			if f.Server != "a" {
				t.Errorf("MG302 %s server %q, want a", f.Key, f.Server)
			}
		}
		if got := a.KeyPos("command"); got.Line != 3 || got.Column != 1 {
			t.Errorf("KeyPos(command) = %d:%d, want the winning duplicate 3:1", got.Line, got.Column)
		}
	})
	t.Run("inside env", func(t *testing.T) {
		c := parseProject(t, `{"mcpServers":{"a":{"command":"x","env":{"K":"1","L":"2","K":"3"}}}}`)
		a := mustServer(t, c, "a")
		want := []EnvVar{{Name: "K", Value: "3", IsString: true}, {Name: "L", Value: "2", IsString: true}}
		if len(a.Env) != 2 || a.Env[0].Name != want[0].Name || a.Env[0].Value != want[0].Value || a.Env[1].Name != "L" {
			t.Errorf("env %+v, want K=3 L=2", a.Env)
		}
		wantFindingsAt(t, c, "MG302", posWant{1, 58})
		if f := findingsOf(c, "MG302"); len(f) == 1 && (f[0].Key != "mcpServers.a.env.K" || f[0].Server != "a") {
			t.Errorf("MG302 key %q server %q", f[0].Key, f[0].Server)
		}
	})
	t.Run("three times is two findings", func(t *testing.T) {
		c := parseProject(t, `{"a":1,"a":2,"a":3}`)
		wantFindingsAt(t, c, "MG302", posWant{1, 8}, posWant{1, 14})
	})
	t.Run("in an array element and unrelated keys", func(t *testing.T) {
		c := parseProject(t, `{"x":[{"k":1,"k":2}],"mcpServers":{}}`)
		wantFindingsAt(t, c, "MG302", posWant{1, 14})
		if !c.Valid() {
			t.Errorf("invalid: %v", c.Err)
		}
	})
	t.Run("key paths through arrays", func(t *testing.T) {
		c := parseProject(t, `[{"a":{"b":[1,{"k":1,"k":2}]}},[{"x":0,"x":0}]]`)
		var keys []string
		for _, f := range findingsOf(c, "MG302") {
			keys = append(keys, f.Key)
		}
		if want := []string{"[0].a.b[1].k", "[1][0].x"}; !slices.Equal(keys, want) {
			t.Errorf("MG302 keys %q, want %q", keys, want)
		}
		c = parseProject(t, `{"mcpServers":{"s":{"command":"x","tools":[{"n":1,"n":2}]}}}`)
		if fs := findingsOf(c, "MG302"); len(fs) != 1 || fs[0].Key != "mcpServers.s.tools[0].n" || fs[0].Server != "s" {
			t.Errorf("MG302 %+v, want key mcpServers.s.tools[0].n for server s", fs)
		}
	})
	t.Run("server name with a dot", func(t *testing.T) {
		c := parseProject(t, `{"mcpServers":{"a.b":{"command":"x","command":"y"}}}`)
		fs := findingsOf(c, "MG302")
		if len(fs) != 1 || fs[0].Server != "a.b" {
			t.Errorf("MG302 findings %+v, want one naming server a.b", fs)
		}
	})
	t.Run("duplicates in the ignored table name no server", func(t *testing.T) {
		c := parseProject(t, `{"mcpServers":{"a":{"command":"x"}},"servers":{"z":{"command":"x","command":"y"}}}`)
		for _, f := range findingsOf(c, "MG302") {
			if c.Server(f.Server) == nil && f.Server != "" {
				t.Errorf("MG302 names server %q, which agentty does not read", f.Server)
			}
		}
	})
	t.Run("keys differing only in case are not duplicates", func(t *testing.T) {
		c := parseProject(t, `{"mcpServers":{"a":{"command":"x","Command":"y"},"A":{"command":"z"}}}`)
		if n := len(findingsOf(c, "MG302")); n != 0 {
			t.Errorf("%d MG302 findings for case variants", n)
		}
		if got := serverNames(c); !slices.Equal(got, []string{"A", "a"}) {
			t.Errorf("servers %q", got)
		}
		if a := mustServer(t, c, "a"); a.Command != "x" || !slices.Contains(a.Keys, "Command") {
			t.Errorf("a: command %q keys %q", a.Command, a.Keys)
		}
	})
}

func TestParseTrailing(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		servers []string
		at      posWant
	}{
		{"second object", `{"mcpServers":{"a":{"command":"x"}}} {"mcpServers":{"b":{"command":"y"}}}`, []string{"a"}, posWant{1, 38}},
		{"junk", "{\"mcpServers\":{\"a\":{\"command\":\"x\"}}}\n\njunk", []string{"a"}, posWant{3, 1}},
		{"no space", `{"mcpServers":{"a":{"command":"x"}}}}`, []string{"a"}, posWant{1, 37}},
		{"broken json after", `{"mcpServers":{"a":{"command":"x"}}}{"mcpServers":`, []string{"a"}, posWant{1, 37}},
		{"comment after", "{\"mcpServers\":{}}\n// note", nil, posWant{2, 1}},
		{"after multibyte", `{"mcpServers":{"é":{"command":"日本"}}} x`, []string{"é"}, posWant{1, 39}},
		{"bom then trailing", "\xEF\xBB\xBF{} x", nil, posWant{1, 4}},
		{"NUL after", "{}\x00", nil, posWant{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseProject(t, tt.in)
			if !c.Valid() {
				t.Fatalf("invalid: %v (agentty's connect loop reads the first value)", c.Err)
			}
			if got := serverNames(c); !slices.Equal(got, tt.servers) {
				t.Errorf("servers %q, want %q", got, tt.servers)
			}
			wantFindingsAt(t, c, "MG303", tt.at)
			if c.TrailingOffset == 0 || c.TrailingOffset >= len(tt.in) {
				t.Errorf("TrailingOffset %d", c.TrailingOffset)
			}
		})
	}
	// A NUL ends the text for every agentty reader (nlohmann's lexer maps
	// it to end of input), so the listing does not hide anything there:
	// the message must not claim it does.
	for in, wantNUL := range map[string]bool{"{}\x00{\"mcpServers\":{}}": true, "{} \n\x00junk": true, "{} junk\x00": false} {
		c := parseProject(t, in)
		fs := findingsOf(c, "MG303")
		if len(fs) != 1 {
			t.Fatalf("%q: %d MG303 findings", in, len(fs))
		}
		if got := strings.Contains(fs[0].Message, "NUL byte ends the JSON text"); got != wantNUL {
			t.Errorf("%q: message %q", in, fs[0].Message)
		}
		if got := strings.Contains(fs[0].Message, "plugin list` shows nothing"); got == wantNUL {
			t.Errorf("%q: message %q", in, fs[0].Message)
		}
	}
	for _, in := range []string{"{}", "{}\n", "{} \t\r\n ", "\xEF\xBB\xBF{}\n"} {
		c := parseProject(t, in)
		if len(findingsOf(c, "MG303")) != 0 || c.TrailingOffset != 0 {
			t.Errorf("%q: trailing reported for whitespace only", in)
		}
	}
}

func TestParseBOM(t *testing.T) {
	in := "\xEF\xBB\xBF{\"mcpServers\":{\"a\":{\"command\":\"x\"}}}"
	c := parseProject(t, in)
	a := mustServer(t, c, "a")
	if a.NamePos != (Pos{Offset: 18, Line: 1, Column: 16}) {
		t.Errorf("name pos %+v", a.NamePos)
	}
	if c.SHA256 != FileHash([]byte(in)) {
		t.Errorf("SHA256 is not the hash of the raw bytes (BOM included)")
	}
	if c.SHA256 == FileHash([]byte(in[3:])) {
		t.Errorf("SHA256 ignores the BOM")
	}
}

func TestParseInvalid(t *testing.T) {
	wrap := func(cmd string) string { return `{"mcpServers":{"a":{"command":"x"},"b":{"command":` + cmd + `}}}` }
	tests := []struct {
		name string
		in   string
		at   posWant
	}{
		{"invalid utf8", wrap("\"\xff\""), posWant{1, 52}},
		{"invalid utf8 in a name", "{\"mcpServers\":{\"\xc3\":{\"command\":\"x\"}}}", posWant{1, 17}},
		{"lone high surrogate", wrap(`"\ud800"`), posWant{1, 52}},
		{"lone low surrogate", wrap(`"\udc00"`), posWant{1, 52}},
		{"high followed by non-low", wrap(`"\ud83d\u0041"`), posWant{1, 52}},
		{"raw tab", wrap("\"a\tb\""), posWant{1, 53}},
		{"raw newline", wrap("\"a\nb\""), posWant{1, 53}},
		{"raw ESC", wrap("\"\x1b[31m\""), posWant{1, 52}},
		{"1e400", `{"mcpServers":{"a":{"command":"x","args":[1e400]}}}`, posWant{1, 43}},
		{"-1e400", `{"mcpServers":{"a":{"command":"x","args":[-1e400]}}}`, posWant{1, 43}},
		{"1e400 in an unknown key", `{"x":1e400,"mcpServers":{"a":{"command":"x"}}}`, posWant{1, 6}},
		{"trailing comma", `{"mcpServers":{"a":{"command":"x"},}}`, posWant{1, 36}},
		{"comment", "{\"mcpServers\":{\"a\":{\"command\":\"x\"}} /* c */}", posWant{1, 37}},
		{"empty file", ``, posWant{1, 1}},
		{"truncated", `{"mcpServers":{"a":{"command":"x"}`, posWant{1, 35}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseProject(t, tt.in)
			wantInvalid(t, c, "MG301")
			wantFindingsAt(t, c, "MG301", tt.at)
			if c.SHA256 != FileHash([]byte(tt.in)) {
				t.Errorf("SHA256 not set on an invalid file")
			}
		})
	}
}

func TestParseTinyNumberAccepted(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"a":{"command":"x","args":[1e-400,-1e-400,"s"]}}}`)
	a := mustServer(t, c, "a")
	if got := a.SpawnArgs(); !slices.Equal(got, []string{"0.0", "-0.0", "s"}) {
		t.Errorf("spawn %q", got)
	}
}

func TestParseKeysCaseSensitive(t *testing.T) {
	for _, in := range []string{
		`{"MCPServers":{"a":{"command":"x"}}}`,
		`{"mcpservers":{"a":{"command":"x"}}}`,
		`{"Servers":{"a":{"command":"x"}}}`,
		`{"mcpServers ":{"a":{"command":"x"}}}`,
	} {
		c := parseProject(t, in)
		if !c.Valid() || len(c.Servers) != 0 || c.ServersKey != "" {
			t.Errorf("%s: valid %v servers %q key %q, want valid with no servers", in, c.Valid(), serverNames(c), c.ServersKey)
		}
	}
	c := parseProject(t, `{"mcpServers":{"a":{"Command":"x","URL":"http://h","Disabled":true,"Args":["y"]}}}`)
	a := mustServer(t, c, "a")
	if a.Command != "" || a.URL != "" || a.Disabled || len(a.Args) != 0 || a.Gated || a.Fingerprint != "" {
		t.Errorf("case variants of known keys were honoured: %+v", a)
	}
	if !slices.Equal(a.Keys, []string{"Args", "Command", "Disabled", "URL"}) {
		t.Errorf("keys %q", a.Keys)
	}
}

func TestParseServerTableSelection(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		key     string
		servers []string
		mg304   bool
	}{
		{"mcpServers", `{"mcpServers":{"a":{"command":"x"}}}`, "mcpServers", []string{"a"}, false},
		{"servers", `{"servers":{"b":{"command":"x"}}}`, "servers", []string{"b"}, false},
		{"both objects: mcpServers wins", `{"servers":{"b":{"command":"x"}},"mcpServers":{"a":{"command":"x"}}}`, "mcpServers", []string{"a"}, true},
		{"mcpServers null beside servers", `{"mcpServers":null,"servers":{"b":{"command":"x"}}}`, "servers", []string{"b"}, true},
		{"mcpServers array beside servers", `{"mcpServers":[{"command":"x"}],"servers":{"b":{"command":"x"}}}`, "servers", []string{"b"}, true},
		{"mcpServers string beside servers", `{"mcpServers":"a","servers":{"b":{"command":"x"}}}`, "servers", []string{"b"}, true},
		{"mcpServers array alone", `{"mcpServers":[{"command":"x"}]}`, "", nil, false},
		{"mcpServers null alone", `{"mcpServers":null}`, "", nil, false},
		{"servers array alone", `{"servers":[{"command":"x"}]}`, "", nil, false},
		{"both not objects", `{"mcpServers":1,"servers":[]}`, "", nil, true},
		{"empty mcpServers beats servers", `{"mcpServers":{},"servers":{"b":{"command":"x"}}}`, "mcpServers", nil, true},
		{"duplicate mcpServers, last null", `{"mcpServers":{"a":{"command":"x"}},"mcpServers":null,"servers":{"b":{"command":"x"}}}`, "servers", []string{"b"}, true},
		{"root array", `[{"mcpServers":{"a":{"command":"x"}}}]`, "", nil, false},
		{"root string", `"mcpServers"`, "", nil, false},
		{"root null", `null`, "", nil, false},
		{"nested is not top level", `{"x":{"mcpServers":{"a":{"command":"x"}}}}`, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseProject(t, tt.in)
			if !c.Valid() {
				t.Fatalf("invalid: %v", c.Err)
			}
			if c.ServersKey != tt.key {
				t.Errorf("ServersKey %q, want %q", c.ServersKey, tt.key)
			}
			if got := serverNames(c); !slices.Equal(got, tt.servers) {
				t.Errorf("servers %q, want %q", got, tt.servers)
			}
			if got := len(findingsOf(c, "MG304")) > 0; got != tt.mg304 {
				t.Errorf("MG304 %v, want %v", got, tt.mg304)
			}
		})
	}
}

func TestParseServerOrder(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"z":{},"é":{},"a":{},"B":{},"_":{},"0":{},"Z":{},"ab":{},"a b":{},"":{}}}`)
	want := []string{"", "0", "B", "Z", "_", "a", "a b", "ab", "z", "é"}
	if got := serverNames(c); !slices.Equal(got, want) {
		t.Errorf("order %q, want bytewise %q", got, want)
	}
}

func TestParseArgs(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"a":{"command":"node","args":[
		"s1", 8080, true, false, null, ["a"], {"b":1}, 1e5, 1.5, -0, 1e20, 0.00001,
		12345678901234567890123, "s2", {"z":[1,{"y":null}],"a":"q\"x"}, "", -7, 2.50
	]}}}`)
	a := mustServer(t, c, "a")
	wantSpawn := []string{"s1", "8080", "true", "false", "null", `["a"]`, `{"b":1}`, "100000.0", "1.5", "0", "1e+20", "1e-05",
		"1.2345678901234568e+22", "s2", `{"a":"q\"x","z":[1,{"y":null}]}`, "", "-7", "2.5"}
	if got := a.SpawnArgs(); !slices.Equal(got, wantSpawn) {
		t.Errorf("spawn view\n got %q\nwant %q", got, wantSpawn)
	}
	if got := a.HashArgs(); !slices.Equal(got, []string{"s1", "s2", ""}) {
		t.Errorf("hash view %q, want [s1 s2 \"\"]", got)
	}
	if a.Fingerprint != Fingerprint("node", "", []string{"s1", "s2", ""}) {
		t.Errorf("fingerprint covers more than the string args")
	}
	for i, arg := range a.Args {
		if arg.IsString != (i == 0 || i == 13 || i == 15) {
			t.Errorf("args[%d] IsString %v", i, arg.IsString)
		}
	}
	if p := a.Args[1].Pos; p.Line != 2 || p.Column != 9 {
		t.Errorf("args[1] at %d:%d, want 2:9", p.Line, p.Column)
	}
	if p := a.Args[12].Pos; p.Line != 3 || p.Column != 3 {
		t.Errorf("args[12] at %d:%d, want 3:3", p.Line, p.Column)
	}
	if n := len(findingsOf(c, "MG307")); n != 0 {
		t.Errorf("non-string args are not a type error for agentty; got %d MG307", n)
	}
}

func TestParseNUL(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"a":{"command":"/opt/srv","args":["--root","/safe\u0000--read-only"]}}}`)
	a := mustServer(t, c, "a")
	if got := a.SpawnArgs(); !slices.Equal(got, []string{"--root", "/safe"}) {
		t.Errorf("spawn %q, want argv cut at the NUL", got)
	}
	if got := a.HashArgs(); !slices.Equal(got, []string{"--root", "/safe\x00--read-only"}) {
		t.Errorf("hash %q, want the NUL and what follows kept", got)
	}
	if a.Args[1].Str != "/safe\x00--read-only" {
		t.Errorf("Str %q", a.Args[1].Str)
	}
	fs := findingsOf(c, "MG104")
	if len(fs) != 1 || fs[0].Server != "a" || fs[0].Line != 1 || fs[0].Column != 59 {
		t.Errorf("MG104 %+v, want one at 1:59 for server a", fs)
	}

	c = parseProject(t, `{"mcpServers":{"a":{"command":"/bin/sh\u0000x","env":{"K":"v\u0000w"}}}}`)
	a = mustServer(t, c, "a")
	if a.SpawnCommand() != "/bin/sh" || a.Command != "/bin/sh\x00x" {
		t.Errorf("command %q spawn %q", a.Command, a.SpawnCommand())
	}
	if a.Fingerprint != Fingerprint("/bin/sh\x00x", "", nil) {
		t.Errorf("fingerprint does not hash the whole command")
	}
	if n := len(findingsOf(c, "MG104")); n != 2 {
		t.Errorf("%d MG104 findings, want 2 (command, env)", n)
	}
	c = parseProject(t, `{"mcpServers":{"a":{"command":"x","args":["ok"]}}}`)
	if n := len(findingsOf(c, "MG104")); n != 0 {
		t.Errorf("MG104 without a NUL")
	}
}

func TestParseDisabled(t *testing.T) {
	tests := []struct {
		val      string
		disabled bool
		mg309    bool
	}{
		{`true`, true, false},
		{`false`, false, false},
		{`"true"`, false, true},
		{`1`, false, true},
		{`"yes"`, false, true},
		{`0`, false, true},
		{`null`, false, true},
		{`"false"`, false, true},
		{`[true]`, false, true},
		{`{}`, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.val, func(t *testing.T) {
			c := parseProject(t, `{"mcpServers":{"a":{"command":"x","disabled":`+tt.val+`}}}`)
			a := mustServer(t, c, "a")
			if a.Disabled != tt.disabled {
				t.Errorf("Disabled %v, want %v", a.Disabled, tt.disabled)
			}
			if a.Gated == tt.disabled {
				t.Errorf("Gated %v with disabled %v", a.Gated, a.Disabled)
			}
			fs := findingsOf(c, "MG309")
			if (len(fs) > 0) != tt.mg309 {
				t.Errorf("MG309 %v, want %v", len(fs) > 0, tt.mg309)
			}
			if tt.mg309 && (fs[0].Line != 1 || fs[0].Column != 35 || fs[0].Server != "a") {
				t.Errorf("MG309 %+v, want at 1:35 for a", fs[0])
			}
			if a.Fingerprint == "" {
				t.Errorf("a disabled server still has a fingerprint")
			}
		})
	}
	c := parseProject(t, `{"mcpServers":{"a":{"command":"x","disabled":true,"disabled":false}}}`)
	if a := mustServer(t, c, "a"); a.Disabled || !a.Gated {
		t.Errorf("the last disabled wins: got Disabled %v", a.Disabled)
	}
}

func TestParseWrongTypes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		at   posWant
	}{
		{"entry string", `{"mcpServers":{"ok":{"command":"x"},"a":"npx srv"}}`, posWant{1, 37}},
		{"entry array", `{"mcpServers":{"a":["x"]}}`, posWant{1, 16}},
		{"entry null", `{"mcpServers":{"a":null}}`, posWant{1, 16}},
		{"entry number", `{"mcpServers":{"a":1}}`, posWant{1, 16}},
		{"entry true", `{"mcpServers":{"a":true}}`, posWant{1, 16}},
		{"command null", `{"mcpServers":{"a":{"command":null}}}`, posWant{1, 21}},
		{"command 5", `{"mcpServers":{"a":{"command":5}}}`, posWant{1, 21}},
		{"command array", `{"mcpServers":{"a":{"command":["x"]}}}`, posWant{1, 21}},
		{"url []", `{"mcpServers":{"a":{"command":"x","url":[]}}}`, posWant{1, 35}},
		{"url null", `{"mcpServers":{"a":{"url":null}}}`, posWant{1, 21}},
		{"type {}", `{"mcpServers":{"a":{"command":"x","type":{}}}}`, posWant{1, 35}},
		{"type null", `{"mcpServers":{"a":{"command":"x","type":null}}}`, posWant{1, 35}},
		{"type true", `{"mcpServers":{"a":{"url":"http://h","type":true}}}`, posWant{1, 38}},
		{"in the other server", `{"mcpServers":{"a":{"command":"x"},"b":{"command":1}}}`, posWant{1, 41}},
		{"in servers table", `{"servers":{"a":{"command":false}}}`, posWant{1, 18}},
		{"last duplicate wrong", `{"mcpServers":{"a":{"command":"x","command":null}}}`, posWant{1, 35}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseProject(t, tt.in)
			wantInvalid(t, c, "MG307")
			if !errors.Is(c.Err, ErrWrongType) {
				t.Errorf("Err %v is not ErrWrongType", c.Err)
			}
			wantFindingsAt(t, c, "MG307", tt.at)
		})
	}
	// The earlier duplicate being wrong does not matter: it is replaced.
	c := parseProject(t, `{"mcpServers":{"a":{"command":null,"command":"x"}}}`)
	if a := mustServer(t, c, "a"); a.Command != "x" {
		t.Errorf("command %q", a.Command)
	}
	// A wrong-typed entry in the table agentty does not read is harmless.
	c = parseProject(t, `{"mcpServers":{"a":{"command":"x"}},"servers":{"b":null}}`)
	mustServer(t, c, "a")
	// Types of keys agentty does not read as strings are not its problem.
	c = parseProject(t, `{"mcpServers":{"a":{"command":"x","headers":5,"timeoutMs":"1","trustAnnotations":"yes","cwd":1}}}`)
	mustServer(t, c, "a")
}

func TestParseTransportAndGate(t *testing.T) {
	tests := []struct {
		name      string
		entry     string
		transport Transport
		gated     bool
	}{
		{"command", `{"command":"x"}`, TransportStdio, true},
		{"command and url: url wins", `{"command":"x","url":"https://h/mcp"}`, TransportHTTP, false},
		{"url only", `{"url":"https://h/mcp"}`, TransportHTTP, false},
		{"empty url is no url", `{"command":"x","url":""}`, TransportStdio, true},
		{"type http with a command and no url", `{"type":"http","command":"x"}`, TransportHTTP, true},
		{"type streamable-http with a command", `{"type":"streamable-http","command":"x"}`, TransportHTTP, true},
		{"type sse with url", `{"type":"sse","url":"https://h/sse"}`, TransportSSE, false},
		{"type sse with a command", `{"type":"sse","command":"x"}`, TransportSSE, true},
		{"type stdio with url", `{"type":"stdio","url":"https://h","command":"x"}`, TransportHTTP, false},
		{"type stdio", `{"type":"stdio","command":"x"}`, TransportStdio, true},
		{"type HTTP is not http", `{"type":"HTTP","command":"x"}`, TransportStdio, true},
		{"type unknown", `{"type":"ws","command":"x"}`, TransportStdio, true},
		{"nothing", `{}`, TransportStdio, false},
		{"empty command", `{"command":""}`, TransportStdio, false},
		{"disabled", `{"command":"x","disabled":true}`, TransportStdio, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseProject(t, `{"mcpServers":{"s":`+tt.entry+`}}`)
			s := mustServer(t, c, "s")
			if s.Transport != tt.transport || s.Gated != tt.gated {
				t.Errorf("transport %s gated %v, want %s %v", s.Transport, s.Gated, tt.transport, tt.gated)
			}
			for _, scope := range []Scope{ScopeUser, ScopeExplicit} {
				c := Parse("mcp.json", []byte(`{"mcpServers":{"s":`+tt.entry+`}}`), scope)
				if s := mustServer(t, c, "s"); s.Gated {
					t.Errorf("gated in %s scope", scope)
				}
			}
		})
	}
	c := parseProject(t, `{"mcpServers":{"s":{"command":"x","url":"https://h/mcp","args":["a"]}}}`)
	if s := mustServer(t, c, "s"); s.Fingerprint != Fingerprint("x", "https://h/mcp", []string{"a"}) {
		t.Errorf("fingerprint of a command+url entry does not hash both")
	}
	c = parseProject(t, `{"mcpServers":{"s":{}}}`)
	if s := mustServer(t, c, "s"); s.Fingerprint != "" {
		t.Errorf("fingerprint %q for an entry with neither command nor url", s.Fingerprint)
	}
}

func TestParseEnv(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"a":{"command":"x","env":{
  "S":"s","N":8080,"B":true,"F":false,"Z":null,"E":1e5,"A":["x"],"O":{"k":"v"},"é":"日本","":"empty"}}}}`)
	a := mustServer(t, c, "a")
	type kv struct {
		k, v string
		str  bool
	}
	want := []kv{{"", "empty", true}, {"A", `["x"]`, false}, {"B", "true", false}, {"E", "100000.0", false},
		{"F", "false", false}, {"N", "8080", false}, {"O", `{"k":"v"}`, false}, {"S", "s", true},
		{"Z", "null", false}, {"é", "日本", true}}
	var got []kv
	for _, e := range a.Env {
		got = append(got, kv{e.Name, e.Value, e.IsString})
	}
	if !slices.Equal(got, want) {
		t.Errorf("env\n got %v\nwant %v", got, want)
	}
	if p := a.Env[7].Pos; p.Line != 2 || p.Column != 3 {
		t.Errorf("env S at %d:%d, want 2:3", p.Line, p.Column)
	}
	if a.Fingerprint != Fingerprint("x", "", nil) {
		t.Errorf("env changed the fingerprint")
	}
}

func TestParseUnknownKeys(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"a":{"trustAnnotations":true,"tools":["r"],"timeoutMs":5000,"command":"x","zz":{"b":2,"a":1}}}}`)
	a := mustServer(t, c, "a")
	if want := []string{"command", "timeoutMs", "tools", "trustAnnotations", "zz"}; !slices.Equal(a.Keys, want) {
		t.Errorf("keys %q, want %q", a.Keys, want)
	}
	if want := `{"command":"x","timeoutMs":5000,"tools":["r"],"trustAnnotations":true,"zz":{"a":1,"b":2}}`; a.Canonical() != want {
		t.Errorf("canonical %s, want %s", a.Canonical(), want)
	}
	if v, ok := a.Member("trustAnnotations"); !ok || v != "true" {
		t.Errorf("Member(trustAnnotations) = %q %v", v, ok)
	}
	if _, ok := a.Member("cwd"); ok {
		t.Errorf("Member(cwd) present")
	}
	if p := a.KeyPos("tools"); p.Column != 45 {
		t.Errorf("KeyPos(tools) column %d, want 45", p.Column)
	}
	if p := a.KeyPos("missing"); p != a.NamePos {
		t.Errorf("KeyPos(missing) = %+v, want the name's position", p)
	}
	if a.Fingerprint != Fingerprint("x", "", nil) {
		t.Errorf("unknown keys changed the fingerprint")
	}
}

func TestParseCanonical(t *testing.T) {
	// Entries agentty treats identically have the same canonical form.
	same := []string{
		`{"command":"x","args":["a",1e5],"env":{"K":"v"}}`,
		"{ \"env\" : {\"K\":\"v\"},\n \"args\":[\"\\u0061\", 100000.0], \"command\":\"x\" }",
		`{"command":"y","command":"x","args":["a",1E5],"env":{"K":"w","K":"v"}}`,
	}
	var first string
	for i, e := range same {
		c := parseProject(t, `{"mcpServers":{"s":`+e+`}}`)
		got := mustServer(t, c, "s").Canonical()
		if i == 0 {
			first = got
			if want := `{"args":["a",100000.0],"command":"x","env":{"K":"v"}}`; got != want {
				t.Errorf("canonical %s, want %s", got, want)
			}
		} else if got != first {
			t.Errorf("canonical of %s = %s, want %s", e, got, first)
		}
	}
	// And different ones differ, even where the fingerprint does not.
	c := parseProject(t, `{"mcpServers":{"s":{"command":"x","args":["a",100001]}}}`)
	if got := mustServer(t, c, "s").Canonical(); got == first {
		t.Errorf("canonical ignores a non-string arg")
	}
}

func TestParseLimits(t *testing.T) {
	t.Run("too large", func(t *testing.T) {
		data := make([]byte, MaxFileSize+1)
		copy(data, `{"mcpServers":{"a":{"command":"x"}}}`)
		for i := 36; i < len(data); i++ {
			data[i] = ' '
		}
		c := Parse("big.json", data, ScopeProject)
		if !errors.Is(c.Err, ErrTooLarge) || !c.Unreadable() {
			t.Fatalf("Err %v, want ErrTooLarge, unreadable", c.Err)
		}
		wantInvalid(t, c, "MG310")
		// One byte less is read.
		c = Parse("big.json", data[:MaxFileSize], ScopeProject)
		mustServer(t, c, "a")
	})
	t.Run("deep is read", func(t *testing.T) {
		in := `{"mcpServers":{"a":{"command":"x","tools":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}}`
		mustServer(t, parseProject(t, in), "a")
	})
}

func TestParsePositions(t *testing.T) {
	in := "{\n" +
		"  \"mcpServers\": {\n" +
		"    \"日本\": {\"command\": \"x\", \"disabled\": \"no\"},\n" +
		"\t\"😀\": {\n" +
		"      \"command\": \"y\", \"command\": \"z\"\n" +
		"    }\n" +
		"  }\n" +
		"}\n"
	c := parseProject(t, in)
	if s := mustServer(t, c, "日本"); s.NamePos.Line != 3 || s.NamePos.Column != 5 {
		t.Errorf("日本 at %d:%d, want 3:5", s.NamePos.Line, s.NamePos.Column)
	}
	if s := mustServer(t, c, "😀"); s.NamePos.Line != 4 || s.NamePos.Column != 2 {
		t.Errorf("😀 at %d:%d, want 4:2", s.NamePos.Line, s.NamePos.Column)
	}
	wantFindingsAt(t, c, "MG309", posWant{3, 28})
	wantFindingsAt(t, c, "MG302", posWant{5, 23})
	for _, f := range c.Findings {
		if f.Path != ".agentty/mcp.json" {
			t.Errorf("finding path %q", f.Path)
		}
		if r := RuleByID(f.Rule); f.Slug != r.Slug || f.Severity != r.Severity || f.Slug == "" {
			t.Errorf("finding %s slug %q severity %q, want the catalog's", f.Rule, f.Slug, f.Severity)
		}
	}
}

func TestParseDeceptive(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"a\u202e":{"command":"x\u001b[2K","args":["ok","\u200b"],"env":{"K":"\u0007"}},"b":{"command":"café 日本 😀"}}}`)
	fs := findingsOf(c, "MG308")
	var keys []string
	for _, f := range fs {
		keys = append(keys, f.Key)
	}
	want := []string{"mcpServers.a\u202e.name", "mcpServers.a\u202e.command", "mcpServers.a\u202e.args[1]", "mcpServers.a\u202e.env.K"}
	if !slices.Equal(keys, want) {
		t.Errorf("MG308 keys %q, want %q", keys, want)
	}
}

// describe renders everything Parse says about a file, for golden files.
func describe(c *Config) string {
	var b strings.Builder
	q := strconv.Quote
	fmt.Fprintf(&b, "valid: %v\n", c.Valid())
	if c.Err != nil {
		fmt.Fprintf(&b, "err: %s\n", q(c.Err.Error()))
	}
	fmt.Fprintf(&b, "scope: %s\nservers-key: %s\ntrailing-offset: %d\nsha256: %s\n", c.Scope, q(c.ServersKey), c.TrailingOffset, c.SHA256)
	for _, s := range c.Servers {
		fmt.Fprintf(&b, "server %s @%d:%d\n", q(s.Name), s.NamePos.Line, s.NamePos.Column)
		fmt.Fprintf(&b, "  transport: %s gated: %v disabled: %v\n", s.Transport, s.Gated, s.Disabled)
		fmt.Fprintf(&b, "  command: %s url: %s type: %s\n", q(s.Command), q(s.URL), q(s.Type))
		for i, a := range s.Args {
			if a.IsString {
				fmt.Fprintf(&b, "  args[%d] @%d:%d string %s spawn %s\n", i, a.Pos.Line, a.Pos.Column, q(a.Str), q(a.Spawn))
			} else {
				fmt.Fprintf(&b, "  args[%d] @%d:%d other spawn %s\n", i, a.Pos.Line, a.Pos.Column, q(a.Spawn))
			}
		}
		for _, e := range s.Env {
			fmt.Fprintf(&b, "  env %s @%d:%d = %s string=%v\n", q(e.Name), e.Pos.Line, e.Pos.Column, q(e.Value), e.IsString)
		}
		fmt.Fprintf(&b, "  keys: %s\n", strings.Join(quoteAll(s.Keys), " "))
		fmt.Fprintf(&b, "  fingerprint: %s\n", s.Fingerprint)
		fmt.Fprintf(&b, "  canonical: %s\n", s.Canonical())
	}
	for _, f := range c.Findings {
		fmt.Fprintf(&b, "finding %s %s %s @%d:%d server=%s key=%s: %s\n", f.Rule, f.Slug, f.Severity, f.Line, f.Column, q(f.Server), q(f.Key), f.Message)
	}
	return b.String()
}

// TestParseGolden parses every testdata/parse/*.json as a project config
// and compares the full description with the .golden file beside it.
// Regenerate with: go test ./trust -run ParseGolden -update (then review
// the diff by eye: the golden files are the specification of record).
func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/parse/*.json")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := describe(Parse(".agentty/mcp.json", data, ScopeProject))
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n%s", file, golden, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows the lines that differ between want and got.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d\n  want: %s\n   got: %s\n", i+1, w, g)
		}
	}
	return b.String()
}

// BenchmarkParseDeepWide is a hostile shape: a wide array 990 levels down.
// Work must stay linear in the size of the file.
func BenchmarkParseDeepWide(b *testing.B) {
	in := []byte(strings.Repeat("[", 990) + strings.Repeat("0,", 100000) + "0" + strings.Repeat("]", 990))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if c := Parse("x", in, ScopeProject); !c.Valid() {
			b.Fatal(c.Err)
		}
	}
}
