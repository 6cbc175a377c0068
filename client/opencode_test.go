package client

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

var parseOpenCode = parserOf(opencodeClient{}, "/r/opencode.json")

func ocLocal(name string, argv ...string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = `"` + a + `"`
	}
	return `"` + name + `": {"type": "local", "command": [` + strings.Join(q, ", ") + `]}`
}

// The dialect as observed on 1.18.33 (docs/opencode.md).
func TestOpenCodeDialect(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
		servers  string
	}{
		{"plain", `{"mcp": {` + ocLocal("db", "node", "db.js") + `}}`, true, "db"},
		{"comments and trailing commas (observed)", "{\n// c\n\"mcp\": {/* x */ " + ocLocal("db", "node") + ",},\n}", true, "db"},
		{"no mcp", `{"model": "x/y"}`, true, ""},
		{"remote", `{"mcp": {"r": {"type": "remote", "url": "https://x/mcp"}}}`, true, "r"},
		{"a toggle alone is no server", `{"mcp": {"db": {"enabled": false}}}`, true, ""},
		{"a string command is read as written (OpenCode rejects the config: the side that over-reports)", `{"mcp": {"db": {"type": "local", "command": "node"}}}`, true, "db"},
		{"non-string element fails the config", `{"mcp": {"db": {"type": "local", "command": ["node", 1]}}, "x": 1}`, false, ""},
		{"syntax error", `{"mcp": {`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseOpenCode(tt.in)
			if (c.Err == nil) != tt.ok || names(c.Servers) != tt.servers {
				t.Errorf("err %v servers %q; want ok=%v %q", c.Err, names(c.Servers), tt.ok, tt.servers)
			}
		})
	}
	// The command array is split; env and args OpenCode never reads are
	// not taken for what runs; environment is the env.
	c := parseOpenCode(`{"mcp": {"db": {"type": "local", "command": ["node", "db.js", "--x"], "args": ["evil"], "env": {"A": "1"}, "environment": {"B": "2"}}}}`)
	if len(c.Servers) != 1 {
		t.Fatalf("servers %v err %v", names(c.Servers), c.Err)
	}
	s := c.Servers[0]
	if s.Command != "node" || !slices.Equal(s.SpawnArgs(), []string{"db.js", "--x"}) || len(s.Env) != 1 || s.Env[0].Name != "B" {
		t.Errorf("server %q %q %+v", s.Command, s.SpawnArgs(), s.Env)
	}
}

// {env:NAME} is the variable or ""; {file:…} is left for the file.
func TestOpenCodeSpawn(t *testing.T) {
	c := parseOpenCode(`{"mcp": {"db": {"type": "local", "command": ["{env:PY}", "m.py", "{env:A}", "{env:UNDEF}x", "{file:./k.txt}"], "environment": {"E": "{env:A}-y"}}}}`)
	look := Vars(func(k string) (string, bool) {
		v, ok := map[string]string{"PY": "python3", "A": "aa"}[k]
		return v, ok
	})
	sp := opencodeClient{}.Spawn(c.Servers[0], look)
	if sp.Command != "python3" || !slices.Equal(sp.Args, []string{"m.py", "aa", "x", "{file:./k.txt}"}) || sp.Env[0].Value != "aa-y" {
		t.Errorf("spawn %q %q %+v", sp.Command, sp.Args, sp.Env)
	}
	if !slices.Equal(sp.Unresolved, []string{"{file:./k.txt}"}) || !slices.Contains(sp.Vars, "UNDEF") {
		t.Errorf("unresolved %v vars %v", sp.Unresolved, sp.Vars)
	}
}

// The walk, the merge and who wins, as observed (or read from the bundle
// where marked).
func TestOpenCodeGate(t *testing.T) {
	f := newFixture(t)
	f.write("opencode.json", `{"mcp": {`+ocLocal("outside", "x")+`}}`)
	f.write("repo/opencode.json", `{"mcp": {`+ocLocal("db", "root")+`, `+ocLocal("off", "x")+`, `+ocLocal("shared", "json")+`}}`)
	f.write("repo/opencode.jsonc", `{"mcp": {`+ocLocal("shared", "jsonc")+`}}`)
	f.write("repo/.opencode/opencode.json", `{"mcp": {`+ocLocal("dot", "x")+`}}`)
	f.write("repo/sub/opencode.json", `{"mcp": {"off": {"enabled": false}, `+ocLocal("subsrv", "x")+`}}`)
	ce := f.evaluate(OpenCode, "repo/sub")
	var got []string
	for _, v := range ce.Servers {
		if v.Interactive {
			got = append(got, v.Name)
		}
	}
	if want := []string{"db", "dot", "shared", "subsrv"}; !slices.Equal(got, want) {
		t.Errorf("runs %v, want %v (outside the git top is not read)", got, want)
	}
	if v := verdict(ce, "off"); v == nil || v.Interactive || !v.RepoSide || !strings.Contains(v.Why, "enabled: false") {
		t.Errorf("off: %+v", v)
	}
	if v := verdict(ce, "shared"); v == nil || v.Server.Command != "jsonc" || v.Path != filepath.Join(f.repo, "opencode.jsonc") {
		t.Errorf("shared: opencode.jsonc wins over opencode.json in one directory: %+v", v)
	}
	// Outside git, the walk goes up to the root (observed).
	g := newFixture(t)
	g.write("opencode.json", `{"mcp": {`+ocLocal("up", "x")+`}}`)
	g.write("plain/sub/.keep", "")
	if ce := g.evaluate(OpenCode, "plain/sub"); verdict(ce, "up") == nil {
		t.Errorf("outside git: %+v", ce.Servers)
	}
	// The user's enabled: false holds unless the project sets enabled.
	f.write("home/.config/opencode/opencode.json", `{"mcp": {"db": {"enabled": false}, `+ocLocal("mine", "x")+`}}`)
	ce = f.evaluate(OpenCode, "repo")
	if v := verdict(ce, "db"); v == nil || v.Interactive || v.RepoSide {
		t.Errorf("db under the user's enabled: false: %+v", v)
	}
	if len(ce.State.Own) != 1 || ce.State.Own[0].Name != "mine" {
		t.Errorf("own %+v", ce.State.Own)
	}
	// OPENCODE_DISABLE_PROJECT_CONFIG reads no project file.
	if ev, _ := EvaluateOnly(filepath.Join(f.root, "repo"), Env{Getenv: func(k string) string {
		return map[string]string{"HOME": f.home, OpenCodeDisableProject: "1"}[k]
	}}, OpenCode); len(ev.Clients) != 0 {
		t.Errorf("disabled project config: %+v", ev.Clients)
	}
	// A plugin directory keeps the gate closed.
	f.write("repo/.opencode/plugin/p.js", "export const P = async () => ({})\n")
	if ce := f.evaluate(OpenCode, "repo"); len(ce.Unknown) == 0 || !strings.Contains(strings.Join(ce.Unknown, " "), "plugin") {
		t.Errorf("plugins: unknown %v", ce.Unknown)
	}
}

func TestOpenCodeImpact(t *testing.T) {
	st := &State{OpenCode: &OpenCodeState{merged: map[string]any{}}}
	c := parseOpenCode(`{"mcp": {` + ocLocal("db", "node") + `, "off": {"type": "local", "command": ["x"], "enabled": false}}}`)
	if im := (opencodeClient{}).Impact(st, nil, c.Servers[0]); !im.Interactive || !strings.Contains(im.Why, "without asking") {
		t.Errorf("new server: %+v", im)
	}
	if im := (opencodeClient{}).Impact(st, nil, c.Servers[1]); im.Interactive {
		t.Errorf("disabled: %+v", im)
	}
	if im := (opencodeClient{}).Impact(st, c.Servers[0], nil); im.Interactive {
		t.Errorf("removed: %+v", im)
	}
}

func TestOpenCodeLaunchEnv(t *testing.T) {
	env, err := OpenCodeLaunchEnv([]string{"HOME=/h", "A=b"}, []string{"db", `we"ird`})
	if err != nil {
		t.Fatal(err)
	}
	if want := `OPENCODE_CONFIG_CONTENT={"mcp":{"db":{"enabled":false},"we\"ird":{"enabled":false}}}`; env[len(env)-1] != want {
		t.Errorf("env %q, want %q", env[len(env)-1], want)
	}
	if _, err := OpenCodeLaunchEnv([]string{"OPENCODE_CONFIG_CONTENT={}"}, nil); err == nil {
		t.Error("a user's OPENCODE_CONFIG_CONTENT is replaced")
	}
	if _, err := OpenCodeLaunchEnv(nil, []string{"{env:HOME}"}); err == nil {
		t.Error("a name OpenCode substitutes into is passed")
	}
}

func FuzzOpenCodeDialect(f *testing.F) {
	f.Add([]byte(`{"mcp": {` + ocLocal("db", "node", "a.js") + `}}`))
	f.Add([]byte("{\n// c\n\"mcp\": {\"r\": {\"type\": \"remote\", \"url\": \"u\"},},}"))
	fuzzParser(f, parseOpenCode, func(s *trust.Server) Spawn {
		return opencodeClient{}.Spawn(s, func(string) (string, bool) { return "", false })
	})
}
