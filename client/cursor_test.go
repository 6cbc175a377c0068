package client

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

var (
	parseCursor = parserOf(cursorClient{}, "/r/.cursor/mcp.json")
	parseVSCode = parserOf(vscodeClient{}, "/r/.vscode/mcp.json")
)

// jsoncCase is one dialect fact; key is replaced by the client's servers
// key, so one table serves Cursor and VS Code.
type jsoncCase struct {
	name    string
	in      string
	err     string // substring of Err; "" for a valid file
	unknown bool   // Err is Unreadable: what runs is unknown
	servers string
	skipped string
	check   func(t *testing.T, c *trust.Config)
}

// jsoncCases are the facts Cursor and VS Code share (both read JSONC as
// VS Code does; docs/cursor.md says why Cursor is read so).
func jsoncCases() []jsoncCase {
	const db = `"db":{"command":"node","args":["srv.js"]}`
	return []jsoncCase{
		{name: "plain", in: `{"KEY":{` + db + `}}`, servers: "db"},
		{name: "line comment", in: "{\n// a comment\n\"KEY\":{" + db + "} // after\n}", servers: "db"},
		{name: "block comment", in: `{/* x */"KEY":/**/{` + db + `/* y */}}`, servers: "db"},
		{name: "comment after the value", in: `{"KEY":{` + db + `}} // end`, servers: "db"},
		{name: "comment with a brace inside", in: `{"KEY":{/* } */` + db + `}}`, servers: "db"},
		{name: "trailing comma in object", in: `{"KEY":{` + db + `,},}`, servers: "db"},
		{name: "trailing comma in array", in: `{"KEY":{"db":{"command":"node","args":["a",]}}}`, servers: "db",
			check: func(t *testing.T, c *trust.Config) {
				if a := c.Servers[0].SpawnArgs(); len(a) != 1 || a[0] != "a" {
					t.Errorf("args %q", a)
				}
			}},
		{name: "comment before a trailing comma's bracket", in: `{"KEY":{` + db + `, /* x */ }}`, servers: "db"},
		{name: "BOM accepted", in: "\xEF\xBB\xBF{\"KEY\":{" + db + "}}", servers: "db"},
		{name: "last duplicate server wins", in: `{"KEY":{"db":{"command":"a"},"db":{"command":"b"}}}`, servers: "db",
			check: func(t *testing.T, c *trust.Config) {
				if c.Servers[0].Command != "b" {
					t.Errorf("command %q, want b", c.Servers[0].Command)
				}
				if !hasRule(c, "MG302") {
					t.Error("no duplicate finding")
				}
			}},
		{name: "last duplicate args wins", in: `{"KEY":{"db":{"command":"a","args":["x"],"args":["y"]}}}`, servers: "db",
			check: func(t *testing.T, c *trust.Config) {
				if got := c.Servers[0].SpawnArgs(); len(got) != 1 || got[0] != "y" {
					t.Errorf("args %q, want [y]", got)
				}
			}},
		{name: "last duplicate servers key wins", in: `{"KEY":{"a":{"command":"a"}},"KEY":{"b":{"command":"b"}}}`, servers: "b"},
		{name: "syntax error: unknown", in: `{"KEY":{` + db + `}`, unknown: true},
		{name: "unterminated block comment: unknown", in: `{"KEY":{` + db + `}} /* x`, servers: "db"},
		{name: "unterminated block comment inside: unknown", in: `{"KEY":{` + db + `/* x`, unknown: true},
		{name: "a lone slash: unknown", in: `{"KEY":{` + db + `}/}`, unknown: true},
		{name: "bytes after the value: unknown", in: `{"KEY":{` + db + `}} x`, unknown: true},
		{name: "two leading commas: unknown", in: `{"KEY":{,` + db + `}}`, unknown: true},
		{name: "root not an object", in: `[]`, err: "not an object"},
		{name: "no servers key", in: `{}`, err: `Missing`},
		{name: "servers key not an object", in: `{"KEY":[]}`, err: "not an object"},
		{name: "invalid UTF-8 decoded as U+FFFD", in: "{\"KEY\":{\"db\":{\"command\":\"no\xffde\"}}}", servers: "db",
			check: func(t *testing.T, c *trust.Config) {
				if c.Servers[0].Command != "no\uFFFDde" || len(c.Lossy) != 1 {
					t.Errorf("command %q, lossy %v", c.Servers[0].Command, c.Lossy)
				}
			}},
		{name: "non-string arg kept as JSON text", in: `{"KEY":{"db":{"command":"node","args":["a",42,true]}}}`, servers: "db",
			check: func(t *testing.T, c *trust.Config) {
				if a := c.Servers[0].SpawnArgs(); !reflect.DeepEqual(a, []string{"a", "42", "true"}) {
					t.Errorf("args %q", a)
				}
			}},
		{name: "no command and no url skips", in: `{"KEY":{"bad":{"args":["x"]},` + db + `}}`, servers: "db", skipped: "bad"},
		{name: "entry not an object skips", in: `{"KEY":{"bad":"node",` + db + `}}`, servers: "db", skipped: "bad"},
		{name: "url without type is remote", in: `{"KEY":{"web":{"url":"https://x"}}}`, servers: "web",
			check: func(t *testing.T, c *trust.Config) {
				if s := c.Servers[0]; s.Gated || s.Transport == trust.TransportStdio {
					t.Errorf("gated %v transport %s", s.Gated, s.Transport)
				}
			}},
		{name: "url and command without type spawns", in: `{"KEY":{"x":{"url":"https://x","command":"node"}}}`, servers: "x",
			check: func(t *testing.T, c *trust.Config) {
				if s := c.Servers[0]; !s.Gated || s.Transport != trust.TransportStdio {
					t.Errorf("gated %v transport %s", s.Gated, s.Transport)
				}
			}},
		{name: "sse entry", in: `{"KEY":{"web":{"type":"sse","url":"https://x/sse"}}}`, servers: "web",
			check: func(t *testing.T, c *trust.Config) {
				if s := c.Servers[0]; s.Transport != trust.TransportSSE {
					t.Errorf("transport %s", s.Transport)
				}
			}},
		{name: "http entry", in: `{"KEY":{"web":{"type":"http","url":"https://x","headers":{"A":"${env:T}"}}}}`, servers: "web",
			check: func(t *testing.T, c *trust.Config) {
				if s := c.Servers[0]; s.Transport != trust.TransportHTTP || s.Gated {
					t.Errorf("transport %s", s.Transport)
				}
			}},
		{name: "stdio entry", in: `{"KEY":{"db":{"type":"stdio","command":"node","env":{"A":"1"},"envFile":"${workspaceFolder}/.env"}}}`, servers: "db",
			check: func(t *testing.T, c *trust.Config) {
				if s := c.Servers[0]; !s.Gated || s.Transport != trust.TransportStdio {
					t.Errorf("gated %v transport %s", s.Gated, s.Transport)
				}
			}},
		{name: "no type, a command: stdio", in: `{"KEY":{"memory":{"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}}}`, servers: "memory"},
	}
}

func hasRule(c *trust.Config, rule string) bool {
	for _, f := range c.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

func runJSONC(t *testing.T, key string, parse func(string) *trust.Config, extra []jsoncCase) {
	for _, tt := range append(jsoncCases(), extra...) {
		t.Run(tt.name, func(t *testing.T) {
			c := parse(strings.ReplaceAll(tt.in, "KEY", key))
			switch {
			case tt.unknown:
				if !c.Unreadable() || !hasRule(c, "MG310") {
					t.Fatalf("Err = %v, want Unreadable with MG310", c.Err)
				}
			case tt.err == "" && c.Err != nil:
				t.Fatalf("Err = %v, want a valid file", c.Err)
			case tt.err != "" && (c.Err == nil || c.Unreadable() || !strings.Contains(c.Err.Error(), tt.err)):
				t.Fatalf("Err = %v, want %q", c.Err, tt.err)
			}
			if c.Err != nil && len(c.Servers) != 0 {
				t.Errorf("a failed file loads %s", names(c.Servers))
			}
			if got := names(c.Servers); got != tt.servers {
				t.Errorf("servers %q, want %q", got, tt.servers)
			}
			if got := skippedNames(c); got != tt.skipped {
				t.Errorf("skipped %q, want %q", got, tt.skipped)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}

func TestCursorDialect(t *testing.T) {
	runJSONC(t, "mcpServers", parseCursor, []jsoncCase{
		{name: "servers instead of mcpServers", in: `{"servers":{"db":{"command":"n"}}}`, err: `found "servers" instead`},
		{name: "streamable-http entry", in: `{"mcpServers":{"web":{"type":"streamable-http","url":"https://x"}}}`, servers: "web",
			check: func(t *testing.T, c *trust.Config) {
				if c.Servers[0].Transport != trust.TransportHTTP {
					t.Errorf("transport %s", c.Servers[0].Transport)
				}
			}},
	})
}

// Cursor's interpolation: the documented variables, in command, args and
// env values; nothing else is resolved.
func TestCursorSpawn(t *testing.T) {
	look := vars("HOME", "/home/u", "TOKEN", "t0k", "EMPTY", "")
	tests := []struct {
		name               string
		entry              string
		command            string
		args               []string
		env                []EnvEntry
		vars, missing, unr []string
		envFile            string
	}{
		{name: "env", entry: `{"command":"${env:TOKEN}","args":["x${env:TOKEN}y"]}`, command: "t0k", args: []string{"xt0ky"}, vars: []string{"TOKEN"}},
		{name: "env defined empty", entry: `{"command":"a${env:EMPTY}b"}`, command: "ab", vars: []string{"EMPTY"}},
		{name: "env undefined becomes empty", entry: `{"command":"node","args":["${env:NOPE}"]}`, command: "node", args: []string{""}, vars: []string{"NOPE"}, missing: []string{"NOPE"}},
		{name: "userHome", entry: `{"command":"${userHome}/bin/srv"}`, command: "/home/u/bin/srv", vars: []string{"HOME"}},
		{name: "workspaceFolder", entry: `{"command":"node","args":["${workspaceFolder}/srv.js"]}`, command: "node", args: []string{"/w/proj/srv.js"}},
		{name: "workspaceFolderBasename", entry: `{"command":"node","args":["--name=${workspaceFolderBasename}"]}`, command: "node", args: []string{"--name=proj"}},
		{name: "pathSeparator and ${/}", entry: `{"command":"a${pathSeparator}b${/}c"}`, command: "a/b/c"},
		{name: "env values", entry: `{"command":"node","env":{"K":"${env:TOKEN}","H":"${userHome}"}}`, command: "node",
			env: []EnvEntry{{"H", "/home/u"}, {"K", "t0k"}}, vars: []string{"HOME", "TOKEN"}},
		{name: "input is not Cursor's", entry: `{"command":"node","args":["${input:key}"]}`, command: "node", args: []string{"${input:key}"}, unr: []string{"input:key"}},
		{name: "bare $VAR and ${VAR} untouched", entry: `{"command":"$TOKEN","args":["${TOKEN}"]}`, command: "$TOKEN", args: []string{"${TOKEN}"}, unr: []string{"TOKEN"}},
		{name: "unclosed", entry: `{"command":"a${env:TOKEN"}`, command: "a${env:TOKEN"},
		{name: "one pass", entry: `{"command":"${env:LOOP}"}`, command: "${env:TOKEN}", vars: []string{"LOOP"}},
		{name: "envFile", entry: `{"command":"node","envFile":"${workspaceFolder}/.env"}`, command: "node", envFile: "/w/proj/.env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serverIn(t, parseCursor, "mcpServers", tt.entry)
			l := look
			if tt.name == "one pass" {
				l = vars("LOOP", "${env:TOKEN}", "TOKEN", "x")
			}
			sp := cursorClient{}.spawnIn(s, "/w/proj/.cursor/mcp.json", l)
			if sp.Command != tt.command || !eqStrings(sp.Args, tt.args) || !eqEnv(sp.Env, tt.env) {
				t.Errorf("spawn %q %q %v", sp.Command, sp.Args, sp.Env)
			}
			if !eqStrings(sp.Vars, tt.vars) || !eqStrings(sp.Missing, tt.missing) || !eqStrings(sp.Unresolved, tt.unr) || len(sp.Inputs) != 0 {
				t.Errorf("vars %q missing %q unresolved %q inputs %q", sp.Vars, sp.Missing, sp.Unresolved, sp.Inputs)
			}
			if sp.EnvFile != tt.envFile {
				t.Errorf("envFile %q, want %q", sp.EnvFile, tt.envFile)
			}
			if sp.RawCommand != s.Command || len(sp.RawArgs) != len(sp.Args) {
				t.Errorf("raw view %q %q", sp.RawCommand, sp.RawArgs)
			}
		})
	}
	// Without the workspace (Client.Spawn), ${workspaceFolder} is unresolved.
	s := serverIn(t, parseCursor, "mcpServers", `{"command":"${workspaceFolder}/x"}`)
	if sp := (cursorClient{}).Spawn(s, look); sp.Command != "${workspaceFolder}/x" || !eqStrings(sp.Unresolved, []string{"workspaceFolder"}) {
		t.Errorf("spawn %q unresolved %q", sp.Command, sp.Unresolved)
	}
}

func serverIn(t *testing.T, parse func(string) *trust.Config, key, entry string) *trust.Server {
	t.Helper()
	c := parse(`{"` + key + `":{"s":` + entry + `}}`)
	if c.Err != nil || len(c.Servers) != 1 {
		t.Fatalf("%s: %v (skipped %v)", entry, c.Err, c.Skipped)
	}
	return c.Servers[0]
}

func eqStrings(a, b []string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

func eqEnv(a, b []EnvEntry) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

func TestCursorGate(t *testing.T) {
	st := cursorClient{}.State("/w", "", Env{})
	stdio := serverIn(t, parseCursor, "mcpServers", `{"command":"node"}`)
	web := serverIn(t, parseCursor, "mcpServers", `{"url":"https://x"}`)
	vs := cursorClient{}.Gate(st, []Entry{{Name: "db", Path: "/w/.cursor/mcp.json", Server: stdio}, {Name: "web", Server: web}})
	if len(vs) != 2 {
		t.Fatalf("%d verdicts", len(vs))
	}
	for _, v := range vs {
		if !v.Interactive || !v.Headless || v.RepoSide || !strings.Contains(v.Why, "Cursor asks before running a new or changed server") ||
			!strings.Contains(v.Why, "undocumented") || !strings.Contains(v.Source, "undocumented") {
			t.Errorf("%s: %+v", v.Name, v)
		}
	}
	if !strings.Contains(vs[1].Why, "remote") || strings.Contains(vs[0].Why, "remote") {
		t.Errorf("remote note: %q / %q", vs[0].Why, vs[1].Why)
	}
	if st.Cursor == nil || st.Cursor.ApprovalsKnown || len(st.Sources) != 0 {
		t.Errorf("state %+v", st)
	}
}

func TestCursorImpact(t *testing.T) {
	st := cursorClient{}.State("/w", "", Env{})
	a := `{"command":"node","args":["srv.js"]}`
	srv := func(name, entry string) *trust.Server {
		c := parseCursor(`{"mcpServers":{"` + name + `":` + entry + `}}`)
		if len(c.Servers) != 1 {
			t.Fatalf("%s: %v", entry, c.Err)
		}
		return c.Servers[0]
	}
	tests := []struct {
		name        string
		old, new    *trust.Server
		interactive bool
		why         string
	}{
		{name: "new server asks", new: srv("db", a), why: "Cursor asks before running the new server `db`;"},
		{name: "changed command asks again", old: srv("db", a), new: srv("db", `{"command":"sh","args":["-c","x"]}`), why: "asks again"},
		{name: "changed env asks again", old: srv("db", a), new: srv("db", `{"command":"node","args":["srv.js"],"env":{"X":"1"}}`), why: "asks again"},
		{name: "added envFile asks again", old: srv("db", a), new: srv("db", `{"command":"node","args":["srv.js"],"envFile":".env"}`), why: "asks again"},
		{name: "renamed asks again", old: srv("db", a), new: srv("db2", a), why: "renamed from `db`"},
		{name: "unchanged entry runs", old: srv("db", a), new: srv("db", `{"args":["srv.js"],"command":"node"}`), interactive: true, why: "whatever changed in the code"},
		{name: "removed", old: srv("db", a), why: "removed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := cursorClient{}.Impact(st, tt.old, tt.new)
			if im.Interactive != tt.interactive || !strings.Contains(im.Why, tt.why) {
				t.Errorf("impact %+v", im)
			}
			if tt.new != nil && !im.Headless {
				t.Error("cursor-agent --approve-mcps not counted")
			}
		})
	}
}

// FuzzCursorDialect: any bytes parse without a panic, twice the same; a
// failed file loads nothing; the spawn view is deterministic and keeps the
// raw view's shape.
func FuzzCursorDialect(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"db":{"command":"${env:A}","args":["${workspaceFolder}","${/}"],"env":{"K":"${userHome}"},"envFile":"${input:x}"}}}`,
		"\xEF\xBB\xBF{//c\n\"mcpServers\":{\"a\":{\"command\":\"\\ud800\xff\",},/*x*/}}",
		`{"servers":{}}`, `{"mcpServers":{"x":{"url":"u"}}} /*`, `{"mcpServers":{"n":{"command":"c","args":[1,{}],}}}`,
	} {
		f.Add([]byte(s))
	}
	fuzzParser(f, parseCursor, func(s *trust.Server) Spawn {
		return cursorClient{}.spawnIn(s, "/w/p/.cursor/mcp.json", vars("A", "1", "HOME", "/h"))
	})
}
