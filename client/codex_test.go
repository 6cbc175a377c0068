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

var parseCodex = parserOf(codexClient{}, "/r/.codex/config.toml")

// Every dialect fact of clients-observed.md's Codex table.
func TestCodexDialect(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
		servers  string
		rule     string // a finding that must be there
	}{
		{"plain", "[mcp_servers.db]\ncommand = \"node\"\n", true, "db", ""},
		{"comments", "# c\n[mcp_servers.db] # t\ncommand = \"node\" # x\n", true, "db", ""},
		{"BOM accepted", "\ufeff[mcp_servers.db]\ncommand = \"node\"\n", true, "db", ""},
		{"inline table", "mcp_servers.db = { command = \"node\", args = [\"a\"] }\n", true, "db", ""},
		{"duplicate key aborts", "[mcp_servers.db]\ncommand = \"a\"\ncommand = \"b\"\n", false, "", "MG301"},
		{"duplicate table aborts", "[mcp_servers.db]\ncommand = \"a\"\n[mcp_servers.db]\nargs = []\n", false, "", "MG301"},
		{"servers ignored with a warning", "[servers.db]\ncommand = \"node\"\n", true, "", "MG304"},
		{"mcpServers ignored with a warning", "[mcpServers.db]\ncommand = \"node\"\n", true, "", "MG304"},
		{"non-string arg fatal for all", "[mcp_servers.db]\ncommand = \"n\"\nargs = [1]\n[mcp_servers.ok]\ncommand = \"n\"\n", false, "", "MG307"},
		{"sibling without command fatal for all", "[mcp_servers.db]\nargs = []\n[mcp_servers.ok]\ncommand = \"n\"\n", false, "", "MG307"},
		{"non-string env fatal", "[mcp_servers.db]\ncommand = \"n\"\nenv = { A = 1 }\n", false, "", "MG307"},
		{"enabled not a bool fatal", "[mcp_servers.db]\ncommand = \"n\"\nenabled = \"no\"\n", false, "", "MG307"},
		{"url only: remote", "[mcp_servers.r]\nurl = \"http://x\"\n", true, "r", ""},
		{"unknown keys and a numeric type are ignored", "[mcp_servers.db]\ncommand = \"n\"\ntype = 5\nstartup_timeout_sec = inf\nwhen = 1979-05-27\n", true, "db", ""},
		{"mcp_servers not a table", "mcp_servers = 5\n", false, "", "MG307"},
		{"syntax error", "[mcp_servers.db\n", false, "", "MG301"},
		{"deep nesting unreadable", "a = " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n", false, "", "MG310"},
		{"deep nesting after an escaped quote in a multi-line string", "x = \"\"\" a \\\"\"\" b \"\"\"\na = " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n", false, "", "MG310"},
		{"deep dotted keys unreadable", "[mcp_servers.db" + strings.Repeat(".a", 100000) + "]\nx = 1\n", false, "", "MG310"},
		// A repository's file holds at most trust.MaxRepoValues values,
		// counted before go-toml decodes it: the server's table and its
		// key are 6, [x] 2, pad's key-value, name and array 3.
		{"at the value budget", "[mcp_servers.db]\ncommand = \"n\"\n" + tomlPad(trust.MaxRepoValues-11), true, "db", ""},
		{"one value over the budget unreadable", "[mcp_servers.db]\ncommand = \"n\"\n" + tomlPad(trust.MaxRepoValues-10), false, "", "MG310"},
		{"1,001 servers unreadable", tomlServers(trust.MaxServers + 1), false, "", "MG310"},
		{"brackets in strings and comments do not nest", "# [[[[\n[mcp_servers.db]\ncommand = \"" + strings.Repeat("[", 100) +
			"\"\nargs = ['''" + strings.Repeat("{", 100) + "''', '" + strings.Repeat("[", 70) + "']\n", true, "db", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseCodex(tt.in)
			if (c.Err == nil) != tt.ok || names(c.Servers) != tt.servers {
				t.Errorf("err %v servers %q; want ok=%v %q", c.Err, names(c.Servers), tt.ok, tt.servers)
			}
			found := tt.rule == ""
			for _, f := range c.Findings {
				found = found || f.Rule == tt.rule
				if f.Line < 1 {
					t.Errorf("finding without a line: %+v", f)
				}
			}
			if !found {
				t.Errorf("no %s in %+v", tt.rule, c.Findings)
			}
		})
	}
}

// Line numbers come from the TOML file, not from its JSON form.
func TestCodexPositions(t *testing.T) {
	c := parseCodex("# top\n\n[mcp_servers.db]\ncommand = \"no\\u0000de\"\nargs = [\"a\"]\n[mcp_servers.db.env]\nK = \"v\"\n")
	if c.Err != nil {
		t.Fatal(c.Err)
	}
	s := c.Servers[0]
	if s.NamePos.Line != 3 || s.Args[0].Pos.Line != 5 || s.Env[0].Pos.Line != 7 {
		t.Errorf("name %d args %d env %d", s.NamePos.Line, s.Args[0].Pos.Line, s.Env[0].Pos.Line)
	}
	var nul *trust.Finding
	for i := range c.Findings {
		if c.Findings[i].Rule == "MG104" {
			nul = &c.Findings[i]
		}
	}
	if nul == nil || nul.Line != 4 {
		t.Errorf("NUL finding %+v", nul)
	}
	bad := parseCodex("[mcp_servers.ok]\ncommand = \"n\"\n[mcp_servers.db]\ncommand = \"n\"\nargs = [1]\n")
	if len(bad.Findings) != 1 || bad.Findings[0].Line != 5 || bad.Findings[0].Server != "db" {
		t.Errorf("fatal finding %+v", bad.Findings)
	}
	dup := parseCodex("[mcp_servers.db]\ncommand = \"a\"\ncommand = \"b\"\n")
	if len(dup.Findings) != 1 || dup.Findings[0].Line != 3 {
		t.Errorf("duplicate finding %+v", dup.Findings)
	}
}

func TestCodexSpawn(t *testing.T) {
	c := parseCodex("[mcp_servers.db]\ncommand = \"${BIN} x\"\nargs = [\"$A\", \"${A:-d}\"]\ncwd = \"sub\"\nenv_vars = [\"FWD\", \"UNSET\"]\n[mcp_servers.db.env]\nK = \"$A\"\nPATH = \"/evil\"\n")
	if c.Err != nil {
		t.Fatal(c.Err)
	}
	sp := codexClient{}.Spawn(c.Servers[0], vars("A", "1", "HOME", "/h", "PATH", "/usr/bin", "FWD", "f", "SECRET", "s"))
	if sp.Command != "${BIN} x" || !reflect.DeepEqual(sp.Args, []string{"$A", "${A:-d}"}) {
		t.Errorf("interpolated: %q %q", sp.Command, sp.Args)
	}
	want := []EnvEntry{{"HOME", "/h"}, {"PATH", "/evil"}, {"FWD", "f"}, {"K", "$A"}}
	if !reflect.DeepEqual(sp.Env, want) || sp.InheritEnv || sp.Cwd != "sub" {
		t.Errorf("env %v inherit %v cwd %q", sp.Env, sp.InheritEnv, sp.Cwd)
	}
	if !contains(sp.Vars, "FWD") || !contains(sp.Vars, "UNSET") || contains(sp.Vars, "SECRET") {
		t.Errorf("vars %q", sp.Vars)
	}
}

// codex evaluates Codex in dir with extra env.
func (f *fixture) codex(dir string, kv ...string) ClientEvaluation {
	f.t.Helper()
	return f.evaluate(Codex, dir, kv...)
}

// tomlPad is a top-level array of n zeros.
func tomlPad(n int) string { return "[x]\npad = [" + strings.Repeat("0,", n-1) + "0]\n" }

// tomlServers is a layer of n servers.
func tomlServers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[mcp_servers.s%d]\ncommand = \"n\"\n", i)
	}
	return b.String()
}

func trustTOML(dirs ...string) string {
	var b strings.Builder
	for _, d := range dirs {
		b.WriteString("[projects.\"" + d + "\"]\ntrust_level = \"trusted\"\n")
	}
	return b.String()
}

// Layers and trust scope; merging with the user's config; suppression.
func TestCodexGate(t *testing.T) {
	const root = "[mcp_servers.rootsrv]\ncommand = \"n\"\n[mcp_servers.shared]\ncommand = \"root\"\n"
	const sub = "[mcp_servers.subsrv]\ncommand = \"n\"\n[mcp_servers.shared]\ncommand = \"sub\"\n"
	tests := []struct {
		name   string
		user   string
		files  map[string]string
		dir    string
		env    []string
		runs   string
		shared string // the command shared runs with, when it runs
		why    string
	}{
		{"untrusted", "", nil, "repo/a/b", nil, "", "", "not trusted"},
		{"untrusted entry", trustTOML("$KEY") + "[projects.\"$KEY/a/b\"]\ntrust_level = \"untrusted\"\n", nil, "repo/a/b", nil, "rootsrv,shared,subsrv", "sub", "every change"},
		{"git root trusted: root and subdir layers, nearest wins", trustTOML("$KEY"), nil, "repo/a/b", nil, "rootsrv,shared,subsrv", "sub", "every change runs without asking"},
		{"only a/b trusted: only its layer", trustTOML("$KEY/a/b"), nil, "repo/a/b", nil, "shared,subsrv", "sub", "every change"},
		{"parent of the git root: nothing", trustTOML("$ROOT"), nil, "repo/a/b", nil, "", "", "not trusted"},
		{"trusted via the symlink path only: nothing", trustTOML("$ROOT/link"), nil, "link/a/b", nil, "", "", "not trusted"},
		{"real path trusted, launched via a symlink", trustTOML("$KEY"), nil, "link/a/b", nil, "rootsrv,shared,subsrv", "sub", "every change"},
		{"CODEX_HOME relocates", "", map[string]string{"ch/config.toml": trustTOML("$KEY")}, "repo/a/b", []string{"CODEX_HOME", "$ROOT/ch"}, "rootsrv,shared,subsrv", "sub", "every change"},
		{"user enabled=false disables the project's", trustTOML("$KEY") + "[mcp_servers.shared]\nenabled = false\n", nil, "repo/a/b", nil, "rootsrv,subsrv", "", "enabled = false"},
		{"project enabled=false", trustTOML("$KEY"), map[string]string{"repo/.codex/config.toml": root + "[mcp_servers.rootsrv.x]\n", "repo/a/b/.codex/config.toml": "[mcp_servers.subsrv]\ncommand = \"n\"\nenabled = false\n"}, "repo/a/b", nil, "rootsrv,shared", "root", "enabled = false"},
		{"duplicate in a loaded layer aborts all", trustTOML("$KEY"), map[string]string{"repo/a/b/.codex/config.toml": sub + "[mcp_servers.subsrv]\ncommand = \"x\"\n"}, "repo/a/b", nil, "", "", "aborts"},
		{"duplicate in a layer not loaded does not", trustTOML("$KEY/a/b"), map[string]string{"repo/.codex/config.toml": root + root}, "repo/a/b", nil, "shared,subsrv", "sub", "every change"},
		{"a bad sibling in the user's config aborts all", trustTOML("$KEY") + "[mcp_servers.mine]\nargs = []\n", nil, "repo/a/b", nil, "", "", "aborts"},
		{"a bad server in a layer aborts all", trustTOML("$KEY"), map[string]string{"repo/a/b/.codex/config.toml": sub + "[mcp_servers.bad]\ncommand = \"n\"\nargs = [true]\n"}, "repo/a/b", nil, "", "", "aborts"},
		{"malformed user config: unknown, counts as running", "[projects\n", nil, "repo/a/b", nil, "rootsrv,shared,subsrv", "sub", "unknown"},
		{"user config duplicate: unknown", trustTOML("$KEY") + trustTOML("$KEY"), nil, "repo/a/b", nil, "rootsrv,shared,subsrv", "sub", "unknown"},
		// The user's own config.toml is not held to a repository's budget.
		{"user config past a repository's value budget reads", trustTOML("$KEY") + tomlPad(trust.MaxRepoValues), nil, "repo/a/b", nil, "rootsrv,shared,subsrv", "sub", "every change runs without asking"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.codex/config.toml", root)
			f.write("repo/a/b/.codex/config.toml", sub)
			if err := os.Symlink(f.repo, filepath.Join(f.root, "link")); err != nil {
				t.Fatal(err)
			}
			if tt.user != "" {
				f.write("home/.codex/config.toml", tt.user)
			}
			for p, d := range tt.files {
				f.write(p, d)
			}
			ce := f.codex(tt.dir, tt.env...)
			var runs []string
			for _, v := range ce.Servers {
				if v.Interactive != v.Headless {
					t.Errorf("%s: interactive %v headless %v", v.Name, v.Interactive, v.Headless)
				}
				if v.Interactive {
					runs = append(runs, v.Name)
					if v.Name == "shared" && v.Spawn.Command != tt.shared {
						t.Errorf("shared runs %q, want %q", v.Spawn.Command, tt.shared)
					}
					if !strings.Contains(v.Why, "app-server") {
						t.Errorf("%s: no app-server note: %q", v.Name, v.Why)
					}
				}
				if (v.Interactive || tt.runs == "") && !strings.Contains(v.Why, tt.why) && tt.why != "enabled = false" {
					t.Errorf("%s: why %q, want %q", v.Name, v.Why, tt.why)
				}
				if !v.Interactive && tt.why == "enabled = false" && !strings.Contains(v.Why, tt.why) {
					t.Errorf("%s: why %q", v.Name, v.Why)
				}
			}
			if strings.Join(runs, ",") != tt.runs {
				t.Errorf("runs %q, want %q\n%+v", runs, tt.runs, ce.Servers)
			}
			if tt.why == "unknown" && len(ce.Unknown) == 0 {
				t.Error("no Unknown reason")
			}
		})
	}
}

func TestCodexOutsideGit(t *testing.T) {
	f := newFixture(t)
	f.write("plain/.codex/config.toml", "[mcp_servers.db]\ncommand = \"n\"\n")
	f.write("plain/sub/.keep", "")
	f.write("home/.codex/config.toml", trustTOML(filepath.Join(f.root, "plain")))
	if v := verdict(f.codex("plain"), "db"); v == nil || !v.Interactive {
		t.Errorf("a trusted non-git dir: %+v", v)
	}
	if p, _ := (codexClient{}).Configs(filepath.Join(f.root, "plain/sub"), "", f.env()); len(p) != 0 {
		t.Errorf("outside git Codex walks up: %q", p)
	}
	// In the home directory .codex/config.toml is the user's own.
	if p, _ := (codexClient{}).Configs(f.home, "", f.env()); len(p) != 0 {
		t.Errorf("home reads %q", p)
	}
}

func TestCodexImpact(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.codex/config.toml", "[mcp_servers.db]\ncommand = \"n\"\n")
	s := parseCodex("[mcp_servers.db]\ncommand = \"evil\"\n").Servers[0]
	st := codexClient{}.State(f.repo, f.repo, f.env())
	if im := (codexClient{}).Impact(st, s, s); im.Interactive {
		t.Errorf("untrusted: %+v", im)
	}
	f.write("home/.codex/config.toml", trustTOML(f.repo))
	st = codexClient{}.State(f.repo, f.repo, f.env())
	im := codexClient{}.Impact(st, nil, s)
	if !im.Interactive || !im.Headless || im.Why != "Codex trusts this project: every change runs without asking" {
		t.Errorf("trusted: %+v", im)
	}
	if !strings.Contains(st.Codex.AppServer, "app-server") {
		t.Error("no app-server note")
	}
}

// Evaluate over one repository holding both configs.
func TestEvaluateGeminiAndCodex(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.gemini/settings.json", `{"mcpServers":{"g":{"command":"node"}}}`)
	f.write("repo/.codex/config.toml", "[mcp_servers.c]\ncommand = \"node\"\n")
	f.write("home/.gemini/trustedFolders.json", `{"$KEY":"TRUST_FOLDER"}`)
	ev, err := Evaluate(f.repo, f.env())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range ev.Clients {
		ids = append(ids, string(c.Client))
	}
	if strings.Join(ids, ",") != "gemini-cli,codex" {
		t.Fatalf("clients %q", ids)
	}
	g, c := ev.Clients[0], ev.Clients[1]
	if v := verdict(g, "g"); v == nil || !v.Interactive {
		t.Errorf("gemini %+v", g.Servers)
	}
	if v := verdict(c, "c"); v == nil || v.Interactive || len(c.Files) != 1 {
		t.Errorf("codex %+v", c)
	}
	if Lookup(Gemini).Title() != "Gemini CLI" || Lookup(Codex).Title() != "Codex" {
		t.Error("Lookup")
	}
}

// FuzzCodexDialect: any bytes parse without a panic, twice the same, and
// the spawn view of every loaded server is deterministic.
func FuzzCodexDialect(f *testing.F) {
	for _, s := range []string{
		"[mcp_servers.db]\ncommand = \"n\"\nargs = [\"a\"]\nenv = { K = \"v\" }\nenv_vars = [\"X\"]\ncwd = \"d\"\n",
		"mcp_servers.a = { url = \"u\", type = 1 }\n[servers.x]\n", "[mcp_servers.db]\ncommand = 1\n", "a = [[[{b = '''x'''}]]]\n",
		"\ufeff# c\n[[mcp_servers]]\n",
	} {
		f.Add([]byte(s))
	}
	look := vars("X", "1", "HOME", "/h")
	f.Fuzz(func(t *testing.T, data []byte) {
		c1, c2 := parseCodex(string(data)), parseCodex(string(data))
		if (c1.Err == nil) != (c2.Err == nil) || names(c1.Servers) != names(c2.Servers) || len(c1.Findings) != len(c2.Findings) {
			t.Fatal("parse is not deterministic")
		}
		if c1.Err != nil && len(c1.Servers) != 0 {
			t.Fatal("a failed file loads servers")
		}
		for i, s := range c1.Servers {
			if s.Canonical() != c2.Servers[i].Canonical() {
				t.Fatal("canonical form differs")
			}
			a, b := codexClient{}.Spawn(s, look), codexClient{}.Spawn(c2.Servers[i], look)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("spawn is not deterministic")
			}
		}
	})
}
