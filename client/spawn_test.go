package client

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

func vars(kv ...string) Vars {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestExpandClaude(t *testing.T) {
	env := vars("A", "1", "E", "", "HOME", "/h")
	tests := []struct {
		in, out       string
		vars, missing []string
	}{
		{"${A}", "1", []string{"A"}, nil},
		{"$A", "$A", nil, nil},
		{"x${A}y${HOME}z", "x1y/hz", []string{"A", "HOME"}, nil},
		{"${U:-d}", "d", []string{"U"}, nil},
		{"${E:-d}", "", []string{"E"}, nil}, // defined, even empty, wins
		{"${A:-d}", "1", []string{"A"}, nil},
		{"${X}", "${X}", []string{"X"}, []string{"X"}},
		{"${X}${X}", "${X}${X}", []string{"X"}, []string{"X"}},
		{"${U:-b:-c}", "b", []string{"U"}, nil}, // split(":-", 2)
		{"${U:-}", "", []string{"U"}, nil},
		{"${:-d}", "d", []string{""}, nil},
		{"${}", "${}", nil, nil},
		{"${}${A}", "${}1", []string{"A"}, nil},
		{"${A", "${A", nil, nil},
		{"${a${A}", "${a${A}", []string{"a${A"}, []string{"a${A"}},
		{"$${A}", "$1", []string{"A"}, nil},
		{"${ A }", "${ A }", []string{" A "}, []string{" A "}},
	}
	for _, tt := range tests {
		out, v, m := ExpandClaude(tt.in, env)
		if out != tt.out || !reflect.DeepEqual(v, tt.vars) || !reflect.DeepEqual(m, tt.missing) {
			t.Errorf("%q: got %q vars %q missing %q; want %q %q %q", tt.in, out, v, m, tt.out, tt.vars, tt.missing)
		}
	}
}

func TestClaudeSpawn(t *testing.T) {
	c := parseClaude(`{"mcpServers":{"db":{"command":"${BIN:-node}","args":["${HOME}/srv.js","$HOME","${NOPE}"],"env":{"${K}":"${TOKEN}","X":"${MISSING}"}}}}`)
	if c.Err != nil {
		t.Fatal(c.Err)
	}
	sp := claudeClient{}.Spawn(c.Servers[0], vars("HOME", "/h", "TOKEN", "t"))
	want := Spawn{
		Command: "node", Args: []string{"/h/srv.js", "$HOME", "${NOPE}"},
		Env:        []EnvEntry{{"${K}", "t"}, {"X", "${MISSING}"}},
		RawCommand: "${BIN:-node}", RawArgs: []string{"${HOME}/srv.js", "$HOME", "${NOPE}"},
		RawEnv:  []EnvEntry{{"${K}", "${TOKEN}"}, {"X", "${MISSING}"}},
		Vars:    []string{"BIN", "HOME", "NOPE", "TOKEN", "MISSING"},
		Missing: []string{"NOPE", "MISSING"},
		Warning: "Missing environment variables: NOPE, MISSING", InheritEnv: true,
	}
	if !reflect.DeepEqual(sp, want) {
		t.Errorf("spawn\n got %+v\nwant %+v", sp, want)
	}
	// agentty expands nothing.
	a := agenttyClient{}.Spawn(trust.Parse("p", []byte(`{"mcpServers":{"db":{"command":"${BIN}","args":["${HOME}",5]}}}`), trust.ScopeProject).Servers[0], vars("HOME", "/h"))
	if a.Command != "${BIN}" || strings.Join(a.Args, " ") != "${HOME} 5" || a.Vars != nil {
		t.Errorf("agentty spawn %+v", a)
	}
}
