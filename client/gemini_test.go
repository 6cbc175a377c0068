package client

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

var parseGemini = parserOf(geminiClient{}, "/r/.gemini/settings.json")

// Every dialect fact of clients-observed.md's Gemini CLI table.
func TestGeminiDialect(t *testing.T) {
	tests := []struct {
		name, in      string
		ok            bool
		servers, skip string
	}{
		{"plain", `{"mcpServers":{"db":{"command":"node"}}}`, true, "db", ""},
		{"line comment", "{\n// c\n\"mcpServers\":{\"db\":{\"command\":\"node\"}} // end\n}", true, "db", ""},
		{"block comment", `{/* a */"mcpServers":/*b*/{"db":{"command":"node"/* c */}}}/* tail`, true, "db", ""},
		{"comment text in a string is text", `{"mcpServers":{"db":{"command":"a//b/*c*/"}}}`, true, "db", ""},
		{"slash alone fails", `{"mcpServers":{"db":{"command":"node"}}/}`, false, "", ""},
		{"trailing comma in object fails whole", `{"mcpServers":{"db":{"command":"node"},}}`, false, "", ""},
		{"trailing comma in array fails whole", `{"mcpServers":{"db":{"command":"node","args":["a",]}}}`, false, "", ""},
		{"BOM fails whole", "\xEF\xBB\xBF{\"mcpServers\":{\"db\":{\"command\":\"node\"}}}", false, "", ""},
		{"last duplicate wins", `{"mcpServers":{"db":{"command":"a"},"db":{"command":"b"}}}`, true, "db", ""},
		{"servers is ignored: no servers, no error", `{"servers":{"db":{"command":"node"}}}`, true, "", ""},
		{"no mcpServers at all", `{"theme":"dark"}`, true, "", ""},
		{"non-string args still spawn", `{"mcpServers":{"db":{"command":"n","args":[42,true]}}}`, true, "db", ""},
		{"non-string env stops that server only", `{"mcpServers":{"db":{"command":"n","env":{"FOO":5}},"ok":{"command":"n"}}}`, true, "ok", "db"},
		{"no command: skipped", `{"mcpServers":{"db":{"args":[]},"ok":{"command":"n"}}}`, true, "ok", "db"},
		{"url only: remote", `{"mcpServers":{"r":{"url":"http://x"}}}`, true, "r", ""},
		{"trailing bytes fail", `{"mcpServers":{}} x`, false, "", ""},
		{"mcpServers an array: unknown", `{"mcpServers":[{"command":"n"}]}`, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseGemini(tt.in)
			if (c.Err == nil) != tt.ok || names(c.Servers) != tt.servers || skippedNames(c) != tt.skip {
				t.Errorf("err %v servers %q skipped %q; want ok=%v %q %q", c.Err, names(c.Servers), skippedNames(c), tt.ok, tt.servers, tt.skip)
			}
		})
	}
	c := parseGemini(`{"mcpServers":{"db":{"command":"a"},"db":{"command":"b"}}}`)
	if c.Servers[0].Command != "b" {
		t.Errorf("duplicate: command %q", c.Servers[0].Command)
	}
	if c := parseGemini(`{"mcpServers":[]}`); !c.Unreadable() {
		t.Error("an array of servers is not unknown")
	}
	if c := parseGemini(`{"mcpServers":{"r":{"url":"http://x"}}}`); c.Servers[0].Transport == trust.TransportStdio {
		t.Error("a url-only entry is spawned")
	}
}

func TestGeminiSpawn(t *testing.T) {
	c := parseGemini(`{"mcpServers":{"db":{"command":"$BIN dir/x","cwd":"${D:-/tmp}","trust":true,
		"args":[42,true,null,1.50,1e21,[1,[2,null]],{"a":1},"${A}","$A-$NOPE","${NOPE}","${X:-def}","${E:-d}","${A-B}","${X:-}"],
		"env":{"K":"$A","L":"${NOPE:-z}"}}}}`)
	if c.Err != nil || len(c.Servers) != 1 {
		t.Fatalf("%v", c.Err)
	}
	sp := geminiClient{}.Spawn(c.Servers[0], vars("A", "1", "BIN", "/bin/node", "E", ""))
	want := []string{"42", "true", "null", "1.5", "1e+21", "1,2,", "[object Object]", "1", "1-$NOPE", "${NOPE}", "def", "", "${A-B}", "${X:-}"}
	if !reflect.DeepEqual(sp.Args, want) {
		t.Errorf("args %q\nwant %q", sp.Args, want)
	}
	if sp.Command != "/bin/node dir/x" || sp.RawCommand != "$BIN dir/x" {
		t.Errorf("command %q raw %q: not split, expanded", sp.Command, sp.RawCommand)
	}
	if sp.Cwd != "/tmp" || !sp.InheritEnv {
		t.Errorf("cwd %q inherit %v", sp.Cwd, sp.InheritEnv)
	}
	if sp.Env[0] != (EnvEntry{"K", "1"}) || sp.Env[1] != (EnvEntry{"L", "z"}) || sp.RawEnv[0].Value != "$A" {
		t.Errorf("env %v raw %v", sp.Env, sp.RawEnv)
	}
	if !reflect.DeepEqual(sp.Missing, []string{"NOPE"}) {
		t.Errorf("missing %q", sp.Missing)
	}
	if !GeminiServerTrusted(c.Servers[0]) {
		t.Error("trust: true not seen")
	}
}

func TestExpandGemini(t *testing.T) {
	tests := []struct{ in, out, missing string }{
		{"$A", "1", ""},
		{"${A}", "1", ""},
		{"${U:-d}", "d", ""},
		{"${E:-d}", "", ""},
		{"${U}", "${U}", "U"},
		{"$U", "$U", "U"},
		{"$$A", "$1", ""},
		{"${A}${A}", "11", ""},
		{"${R}", "1", ""}, // R holds "$A": the later pass expands it (OPEN)
		{"pre${A}post$A.x", "pre1post1.x", ""},
	}
	look := vars("A", "1", "E", "", "R", "$A")
	for _, tt := range tests {
		out, _, missing := ExpandGemini(tt.in, look)
		if out != tt.out || strings.Join(missing, ",") != tt.missing {
			t.Errorf("%q: %q missing %q; want %q %q", tt.in, out, missing, tt.out, tt.missing)
		}
	}
}

func TestJSNumber(t *testing.T) {
	for f, want := range map[float64]string{0: "0", 1: "1", -2.5: "-2.5", 1e21: "1e+21", 1e20: "100000000000000000000",
		1e-7: "1e-7", 1.5e-6: "0.0000015", 123.456: "123.456", 1.2345e25: "1.2345e+25"} {
		if got := trust.JSNumber(f); got != want {
			t.Errorf("%v: %q, want %q", f, got, want)
		}
	}
}

// gemini evaluates Gemini CLI in dir (relative to root) with extra env.
func (f *fixture) gemini(dir string, kv ...string) ClientEvaluation {
	f.t.Helper()
	return f.evaluate(Gemini, dir, kv...)
}

func (f *fixture) evaluate(id ID, dir string, kv ...string) ClientEvaluation {
	f.t.Helper()
	m := map[string]string{"HOME": f.home}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = strings.ReplaceAll(kv[i+1], "$ROOT", f.root)
	}
	env := Env{LookupEnv: func(k string) (string, bool) { v, ok := m[k]; return v, ok }}
	ev, err := Evaluate(filepath.Join(f.root, dir), env)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range ev.Clients {
		if c.Client == id {
			return c
		}
	}
	f.t.Fatalf("no %s in %s", id, dir)
	return ClientEvaluation{}
}

// Each trust source and each suppression of Gemini CLI.
func TestGeminiGate(t *testing.T) {
	const ws = `{"mcpServers":{"db":{"command":"node"},"DB2":{"command":"node"}}}`
	tests := []struct {
		name  string
		files map[string]string
		env   []string
		dir   string
		runs  string // servers that run, comma-separated
		why   string
	}{
		{"untrusted by default", nil, nil, "", "", "not trusted"},
		{"TRUST_FOLDER", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`}, nil, "", "DB2,db", "every change runs without asking"},
		{"TRUST_PARENT of a child", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY/child":"TRUST_PARENT"}`}, nil, "", "DB2,db", "TRUST_PARENT"},
		{"TRUST_PARENT does not trust the child's sibling", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY/a/child":"TRUST_PARENT"}`}, nil, "", "", "not trusted"},
		{"ancestor inherited", map[string]string{"home/.gemini/trustedFolders.json": `{"$ROOT":"TRUST_FOLDER"}`}, nil, "", "DB2,db", "TRUST_FOLDER"},
		{"DO_NOT_TRUST", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"DO_NOT_TRUST"}`}, nil, "", "", "DO_NOT_TRUST"},
		{"child DO_NOT_TRUST beats parent", map[string]string{"home/.gemini/trustedFolders.json": `{"$ROOT":"TRUST_FOLDER","$KEY":"DO_NOT_TRUST"}`}, nil, "", "", "DO_NOT_TRUST"},
		{"child TRUST beats parent DO_NOT", map[string]string{"home/.gemini/trustedFolders.json": `{"$ROOT":"DO_NOT_TRUST","$KEY":"TRUST_FOLDER"}`}, nil, "", "DB2,db", "TRUST_FOLDER"},
		{"trust of a sibling does not count", map[string]string{"home/.gemini/trustedFolders.json": `{"$ROOT/other":"TRUST_FOLDER","$KEY-x":"TRUST_FOLDER"}`}, nil, "", "", "not trusted"},
		{"user folder trust off", map[string]string{"home/.gemini/settings.json": `{"security":{"folderTrust":{"enabled":false}}}`}, nil, "", "DB2,db", "folder trust off"},
		{"env switch", nil, []string{"GEMINI_CLI_TRUST_WORKSPACE", "true"}, "", "DB2,db", "GEMINI_CLI_TRUST_WORKSPACE"},
		{"env switch false", nil, []string{"GEMINI_CLI_TRUST_WORKSPACE", "false"}, "", "", "not trusted"},
		{"path override", map[string]string{"elsewhere.json": `{"$KEY":"TRUST_FOLDER"}`}, []string{"GEMINI_CLI_TRUSTED_FOLDERS_PATH", "$ROOT/elsewhere.json"}, "", "DB2,db", "TRUST_FOLDER"},
		{"override replaces the default file", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`}, []string{"GEMINI_CLI_TRUSTED_FOLDERS_PATH", "$ROOT/none.json"}, "", "", "not trusted"},
		{"workspace folderTrust ignored", map[string]string{"repo/.gemini/settings.json": `{"security":{"folderTrust":{"enabled":false}},"folderTrust":false,"mcpServers":{"db":{"command":"node"}}}`}, nil, "", "", "not trusted"},
		{"legacy user folderTrust ignored", map[string]string{"home/.gemini/settings.json": `{"folderTrust":false}`}, nil, "", "", "not trusted"},
		{"malformed trustedFolders: unknown, counts as running", map[string]string{"home/.gemini/trustedFolders.json": `{`}, nil, "", "DB2,db", "unknown"},
		{"unknown trust level: unknown", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_ME"}`}, nil, "", "DB2,db", "unknown"},
		{"malformed user settings: unknown", map[string]string{"home/.gemini/settings.json": `{"a":1,}`}, nil, "", "DB2,db", "unknown"},
		{"enablement disables, lower-cased", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`,
			"home/.gemini/mcp-server-enablement.json": `{"db2":{"enabled":false},"DB":{"enabled":false}}`}, nil, "", "db", "mcp-server-enablement"},
		// Observed on 0.61.0 (fidelity gemini excluded-case): the lists
		// match names exactly; "Db" excludes neither db nor DB2.
		{"user excluded, case-sensitive", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`,
			"home/.gemini/settings.json": `{"mcp":{"excluded":["Db"]}}`}, nil, "", "DB2,db", ""},
		{"user excluded, exact name", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`,
			"home/.gemini/settings.json": `{"mcp":{"excluded":["db"]}}`}, nil, "", "DB2", "mcp.excluded"},
		{"workspace excluded unions", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`,
			"home/.gemini/settings.json": `{"mcp":{"excluded":["db"]}}`,
			"repo/.gemini/settings.json": `{"mcp":{"excluded":["DB2"]},"mcpServers":{"db":{"command":"node"},"DB2":{"command":"node"}}}`}, nil, "", "", "mcp.excluded"},
		{"allowed intersect: workspace only narrows", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`,
			"home/.gemini/settings.json": `{"mcp":{"allowed":["db"]}}`,
			"repo/.gemini/settings.json": `{"mcp":{"allowed":["db","db2"]},"mcpServers":{"db":{"command":"node"},"DB2":{"command":"node"}}}`}, nil, "", "db", "mcp.allowed"},
		{"user exclude beats workspace allow", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`,
			"home/.gemini/settings.json": `{"mcp":{"excluded":["db"]}}`,
			"repo/.gemini/settings.json": `{"mcp":{"allowed":["db"]},"mcpServers":{"db":{"command":"node"},"DB2":{"command":"node"}}}`}, nil, "", "", "mcp."},
		{"allowed with a non-string restricts nothing", map[string]string{"home/.gemini/trustedFolders.json": `{"$KEY":"TRUST_FOLDER"}`,
			"home/.gemini/settings.json": `{"mcp":{"allowed":["db",1]}}`}, nil, "", "DB2,db", "every change"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.gemini/settings.json", ws)
			for p, d := range tt.files {
				f.write(p, d)
			}
			ce := f.gemini(filepath.Join("repo", tt.dir), tt.env...)
			var runs []string
			for _, v := range ce.Servers {
				if v.Interactive != v.Headless {
					t.Errorf("%s: interactive %v headless %v", v.Name, v.Interactive, v.Headless)
				}
				if v.Interactive {
					runs = append(runs, v.Name)
				}
				want := tt.why
				if v.Interactive && !strings.Contains(tt.why, "unknown") {
					want = "every change runs without asking"
				} else if !v.Interactive && tt.runs != "" && strings.Contains(tt.why, "every") {
					want = "mcp."
				}
				if !strings.Contains(v.Why, want) {
					t.Errorf("%s: why %q, want %q", v.Name, v.Why, want)
				}
			}
			if strings.Join(runs, ",") != tt.runs {
				t.Errorf("runs %q, want %q (%+v)", runs, tt.runs, ce.Servers)
			}
			if strings.Contains(tt.why, "unknown") && len(ce.Unknown) == 0 {
				t.Error("no Unknown reason")
			}
		})
	}
}

func TestGeminiNoWalkUp(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.gemini/settings.json", `{"mcpServers":{"root":{"command":"node"}}}`)
	f.write("repo/a/b/.gemini/settings.json", `{"mcpServers":{"sub":{"command":"node"}}}`)
	f.write("repo/a/.keep", "")
	for dir, want := range map[string]string{"repo": "root", "repo/a/b": "sub"} {
		ce := f.gemini(dir)
		if len(ce.Configs) != 1 || names(ce.Files[0].Servers) != want {
			t.Errorf("%s: configs %q servers %q", dir, ce.Configs, names(ce.Files[0].Servers))
		}
	}
	if p, _ := (geminiClient{}).Configs(filepath.Join(f.root, "repo/a"), f.repo, f.env()); len(p) != 0 {
		t.Errorf("repo/a reads %q", p)
	}
	// In the home directory the file is the user's own.
	f.write("home/.gemini/settings.json", `{"mcpServers":{"mine":{"command":"node"}}}`)
	if p, _ := (geminiClient{}).Configs(f.home, "", f.env()); len(p) != 0 {
		t.Errorf("home reads %q", p)
	}
}

// Symlinks resolved on both sides: trust stored for the link or the real
// path, launched through either.
func TestGeminiSymlinks(t *testing.T) {
	for _, stored := range []string{"$ROOT/link", "$KEY"} {
		f := newFixture(t)
		f.write("repo/.gemini/settings.json", `{"mcpServers":{"db":{"command":"node"}}}`)
		if err := os.Symlink(f.repo, filepath.Join(f.root, "link")); err != nil {
			t.Fatal(err)
		}
		f.write("home/.gemini/trustedFolders.json", `{"`+stored+`":"TRUST_FOLDER"}`)
		for _, dir := range []string{"link", "repo"} {
			if v := verdict(f.gemini(dir), "db"); v == nil || !v.Interactive {
				t.Errorf("stored %s, launched in %s: %+v", stored, dir, v)
			}
		}
	}
}

func TestGeminiImpact(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.gemini/settings.json", `{"mcpServers":{"db":{"command":"node"}}}`)
	st := geminiClient{}.State(f.repo, f.repo, f.env())
	s := parseGemini(`{"mcpServers":{"db":{"command":"evil"}}}`).Servers[0]
	if im := (geminiClient{}).Impact(st, s, s); im.Interactive || !strings.Contains(im.Why, "not trusted") {
		t.Errorf("untrusted: %+v", im)
	}
	f.write("home/.gemini/trustedFolders.json", `{"$KEY":"TRUST_FOLDER"}`)
	st = geminiClient{}.State(f.repo, f.repo, f.env())
	im := geminiClient{}.Impact(st, nil, s)
	if !im.Interactive || !im.Headless || im.Why != "Gemini CLI trusts this folder: every change runs without asking" {
		t.Errorf("trusted: %+v", im)
	}
	if im := (geminiClient{}).Impact(st, s, nil); im.Interactive || !strings.Contains(im.Why, "removed") {
		t.Errorf("removed: %+v", im)
	}
}

// FuzzGeminiDialect: any bytes parse without a panic, twice the same, and
// the spawn view of every loaded server is deterministic.
func FuzzGeminiDialect(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"db":{"command":"$A","args":[1,[2,null],{}],"env":{"K":"${B:-x}"},"cwd":"$C"}}}`,
		"{/* c */\"mcpServers\":{// x\n\"a\":{\"command\":\"\\ud800\xff\"}}}", "\xEF\xBB\xBF{}", `{"mcpServers":{"a":{"url":"u"}},}`, "{/*",
	} {
		f.Add([]byte(s))
	}
	look := vars("A", "$B", "B", "")
	fuzzParser(f, parseGemini, func(s *trust.Server) Spawn { return geminiClient{}.Spawn(s, look) })
}

// TestGeminiServerCommand: `mcp.serverCommand` is the MCP server named
// `mcp` (Gemini CLI 0.61.0's populateMcpServerCommand: shell-quote's
// parse, spawned without a shell, replacing any server of that name), so
// it is gated, fingerprinted and handed over like any other.
func TestGeminiServerCommand(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
		argv     string // command and args joined by |; "" for no server mcp
	}{
		{"plain words", `{"mcp":{"serverCommand":"node ./tools/mcp.js --port 0"}}`, true, "node|./tools/mcp.js|--port|0"},
		{"quotes group words", `{"mcp":{"serverCommand":"node 'my dir/s.js' \"a b\"c ''"}}`, true, "node|my dir/s.js|a bc|"},
		{"tabs and newlines separate", "{\"mcp\":{\"serverCommand\":\"node\\tx.js\\n-v\"}}", true, "node|x.js|-v"},
		{"replaces the server named mcp", `{"mcpServers":{"mcp":{"command":"safe"},"db":{"command":"n"}},"mcp":{"serverCommand":"evil --x"}}`, true, "evil|--x"},
		{"a variable: read as a shell line", `{"mcp":{"serverCommand":"$HOME/bin/s --x"}}`, true, "/bin/sh|-c|$HOME/bin/s --x"},
		{"a variable in single quotes is still expanded", `{"mcp":{"serverCommand":"node '$X'"}}`, true, "/bin/sh|-c|node '$X'"},
		{"an operator: read as a shell line", `{"mcp":{"serverCommand":"node s.js | tee l"}}`, true, "/bin/sh|-c|node s.js | tee l"},
		{"a glob: read as a shell line", `{"mcp":{"serverCommand":"node *.js"}}`, true, "/bin/sh|-c|node *.js"},
		{"a comment mid-word: read as a shell line", `{"mcp":{"serverCommand":"node a#b"}}`, true, "/bin/sh|-c|node a#b"},
		{"a backslash: read as a shell line", `{"mcp":{"serverCommand":"node a\\ b"}}`, true, "/bin/sh|-c|node a\\ b"},
		{"unterminated quote: read as a shell line", `{"mcp":{"serverCommand":"node 'a"}}`, true, "/bin/sh|-c|node 'a"},
		{"a no-break space: read as a shell line", "{\"mcp\":{\"serverCommand\":\"node\u00a0x\"}}", true, "/bin/sh|-c|node\u00a0x"},
		{"empty: nothing", `{"mcpServers":{"mcp":{"command":"n"}},"mcp":{"serverCommand":""}}`, true, "n"},
		{"blank: nothing starts", `{"mcp":{"serverCommand":"  "}}`, true, ""},
		{"null: nothing", `{"mcp":{"serverCommand":null}}`, true, ""},
		{"a number: cannot tell", `{"mcp":{"serverCommand":42}}`, false, ""},
		{"flat key is not read", `{"mcp.serverCommand":"x"}`, true, ""},
		{"elsewhere is not read", `{"serverCommand":"x"}`, true, ""},
	}
	// Qwen Code, Gemini CLI's fork, starts it as Gemini CLI does (its
	// bundle, 0.24.4: populateMcpServerCommand).
	parsers := map[string]func(string) *trust.Config{"gemini": parseGemini, "qwen": parserOf(qwenClient{}, "/r/.qwen/settings.json")}
	for _, tt := range tests {
		for pn, parse := range parsers {
			t.Run(pn+"/"+tt.name, func(t *testing.T) {
				c := parse(tt.in)
				if (c.Err == nil) != tt.ok {
					t.Fatalf("err %v, want ok=%v", c.Err, tt.ok)
				}
				got := ""
				if s := c.Server(GeminiCommandServer); s != nil {
					if s.Kind != "" {
						t.Errorf("kind %q: not a server", s.Kind)
					}
					parts := []string{s.Command}
					for _, a := range s.Args {
						parts = append(parts, a.Str)
					}
					got = strings.Join(parts, "|")
				}
				if got != tt.argv {
					t.Errorf("server mcp %q, want %q", got, tt.argv)
				}
			})
		}
	}

	// Gated as a server: it runs in a trusted folder, mcp.excluded names it.
	for _, tc := range []struct {
		trusted  bool
		settings string
		runs     bool
	}{
		{false, `{"mcp":{"serverCommand":"node s.js"}}`, false},
		{true, `{"mcp":{"serverCommand":"node s.js"}}`, true},
		{true, `{"mcp":{"serverCommand":"node s.js","excluded":["mcp"]}}`, false},
	} {
		f := newFixture(t)
		f.write("repo/.gemini/settings.json", tc.settings)
		if tc.trusted {
			f.write("home/.gemini/trustedFolders.json", `{"$KEY":"TRUST_FOLDER"}`)
		}
		v := verdictOf(t, f.gemini("repo"), GeminiCommandServer)
		if v.Interactive != tc.runs || v.Headless != tc.runs {
			t.Errorf("trusted %v %s: runs %v/%v: %s", tc.trusted, tc.settings, v.Interactive, v.Headless, v.Why)
		}
	}
}

// TestQwenServerCommandRunsUnasked: Qwen Code asks its approval for
// mcpServers' entries, not for the server mcp.serverCommand starts (its
// bundle, 0.24.4; not observed): with folder trust off (its default) that
// server counts as running unasked, while an mcpServers entry waits for
// Qwen Code's own approval.
func TestQwenServerCommandRunsUnasked(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.qwen/settings.json", `{"mcpServers":{"db":{"command":"node","args":["db.js"]}},"mcp":{"serverCommand":"node s.js"}}`)
	ev := f.evaluate(QwenCode, "repo")
	if v := verdictOf(t, ev, GeminiCommandServer); !v.Interactive || !v.Headless {
		t.Errorf("mcp.serverCommand: runs %v/%v: %s", v.Interactive, v.Headless, v.Why)
	}
	if v := verdictOf(t, ev, "db"); v.Interactive || v.Headless {
		t.Errorf("db: runs %v/%v, want Qwen Code to ask: %s", v.Interactive, v.Headless, v.Why)
	}
}

// TestGeminiUnhanded: runs that start servers whatever launch hands
// Gemini CLI: `gemini mcp list`, and a --allowed-mcp-server-names of the
// user's own in any form yargs reads, before `--`.
func TestGeminiUnhanded(t *testing.T) {
	cases := map[string]bool{
		"-p hi": false, "mcp list": true, "mcp add x y": false,
		"--allowed-mcp-server-names=x": true, "--allowed-mcp-server-names x": true,
		"--allowedMcpServerNames=x": true, "--no-allowed-mcp-server-names": true,
		"-p allowed-mcp-server-names": false, "-p -- --allowed-mcp-server-names=x": false,
	}
	for args, want := range cases {
		if got := (geminiClient{}).Unhanded(strings.Fields(args)) != ""; got != want {
			t.Errorf("%q: unhanded %v, want %v", args, got, want)
		}
	}
}

// TestGeminiEnvHome: in a trusted folder, a project .env (the nearest
// .gemini/.env or .env from the launch directory up) that moves Gemini
// CLI's home or settings keeps its gate closed: its servers and trust
// then come from files mcp-guard does not read. The home's own .env, a
// variable the environment sets already and an untrusted folder do not.
func TestGeminiEnvHome(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		trusted bool
		kv      []string
		closed  bool
	}{
		{"repo .env", map[string]string{"repo/.env": "GEMINI_CLI_HOME=./.config/dev\n"}, true, nil, true},
		{"repo .gemini/.env", map[string]string{"repo/.gemini/.env": "export GEMINI_CLI_SYSTEM_SETTINGS_PATH='s.json'\n"}, true, nil, true},
		{"an ancestor's .env", map[string]string{".env": "GEMINI_CLI_TRUSTED_FOLDERS_PATH=t.json\n"}, true, nil, true},
		{"the nearest .env decides", map[string]string{"repo/.env": "LOG=1\n", "home/.env": "GEMINI_CLI_HOME=/x\n"}, true, nil, false},
		{"the home's own .env", map[string]string{"home/.env": "GEMINI_CLI_HOME=/x\n"}, true, nil, false},
		{"set in the environment already", map[string]string{"repo/.env": "GEMINI_CLI_HOME=./x\n"}, true, []string{"GEMINI_CLI_HOME", "/real"}, false},
		{"other variables", map[string]string{"repo/.env": "GEMINI_API_KEY=x\nGEMINI_CLI_HOME=\n"}, true, nil, false},
		{"untrusted folder", map[string]string{"repo/.env": "GEMINI_CLI_HOME=./x\n"}, false, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.gemini/settings.json", `{"mcpServers":{"db":{"command":"node"}}}`)
			for p, c := range tc.files {
				f.write(p, c)
			}
			if tc.trusted {
				f.write("home/.gemini/trustedFolders.json", `{"$KEY":"TRUST_FOLDER"}`)
			}
			ce := f.gemini("repo", tc.kv...)
			if closed := len(ce.Unknown) > 0; closed != tc.closed {
				t.Errorf("closed %v (%q), want %v", closed, ce.Unknown, tc.closed)
			}
			if tc.closed && !strings.Contains(strings.Join(ce.Unknown, " "), "which mcp-guard does not follow") {
				t.Errorf("unknown %q", ce.Unknown)
			}
		})
	}
}

// TestSettingsDecodedOnce: Gemini CLI's and Qwen Code's Parse decode a
// settings file once, for its servers and its other entries alike: their
// allocations stay those of the one decode (a second one doubles them on
// a file of many keys).
func TestSettingsDecodedOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{"s":{"command":"node","args":["s.js"]}},"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"echo hi"}]}]},"ui":{`)
	for i := range 2000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":[%d,"v%d",{"x":true}]`, i, i, i)
	}
	b.WriteString(`}}`)
	data := []byte(b.String())
	for _, tc := range []struct {
		id ID
		d  *trust.Dialect
	}{{Gemini, trust.GeminiCLI}, {QwenCode, trust.QwenCode}} {
		cl := Lookup(tc.id)
		if c := cl.Parse(".gemini/settings.json", data); c.Err != nil || len(c.Servers) != 2 {
			t.Fatalf("%s: %v, %d servers and entries", tc.id, c.Err, len(c.Servers))
		}
		parse := testing.AllocsPerRun(3, func() { cl.Parse(".gemini/settings.json", data) })
		once := testing.AllocsPerRun(3, func() { trust.ParseDialect(".gemini/settings.json", data, trust.ScopeProject, tc.d) })
		if parse > once*1.3 {
			t.Errorf("%s: Parse allocates %.0f times, one decode %.0f: decoded more than once", tc.id, parse, once)
		}
	}
}
