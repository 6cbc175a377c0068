package client

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// agentty through the client model gives trust's own answers on the demo
// fixture: with no approvals, with one fingerprint approved, and with the
// blanket env.
func TestAgenttyMatchesTrust(t *testing.T) {
	demo, err := filepath.Abs("../testdata/repos/demo")
	if err != nil {
		t.Fatal(err)
	}
	files := trust.Parse("x", mustRead(t, filepath.Join(demo, ".agentty/mcp.json")), trust.ScopeProject)
	for _, tt := range []struct {
		name, store, allow string
	}{
		{"no approvals", "", ""},
		{"files approved", `["` + files.Server("files").Fingerprint + `"]`, ""},
		{"blanket env", "", "1"},
		{"invalid store", `{`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if tt.store != "" {
				if err := os.MkdirAll(filepath.Join(home, ".agentty"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, ".agentty", trust.ApprovalsFileName), []byte(tt.store), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			getenv := func(k string) string {
				switch k {
				case "HOME":
					return home
				case "AGENTTY_MCP_ALLOW_PROJECT":
					return tt.allow
				}
				return ""
			}
			in, err := trust.Inspect(demo, getenv)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := Evaluate(demo, Env{Getenv: getenv})
			if err != nil {
				t.Fatal(err)
			}
			var ce *ClientEvaluation
			for i := range ev.Clients {
				if ev.Clients[i].Client == Agentty {
					ce = &ev.Clients[i]
				}
			}
			if ce == nil || ce.Err != nil {
				t.Fatalf("agentty not evaluated: %+v", ce)
			}
			if len(ce.Servers) != len(in.Verdicts) || len(in.Verdicts) != 3 {
				t.Fatalf("%d servers, trust has %d", len(ce.Servers), len(in.Verdicts))
			}
			trusted := 0
			for i, v := range in.Verdicts {
				got := ce.Servers[i]
				if got.Name != v.Server.Name || got.Server.Canonical() != v.Server.Canonical() || got.Interactive != v.Trusted || got.Headless != v.Trusted {
					t.Errorf("%s: client %+v, trust %+v", v.Server.Name, got, v)
				}
				if got.Path != filepath.Join(demo, ".agentty/mcp.json") || got.Why == "" {
					t.Errorf("%s: path %q why %q", got.Name, got.Path, got.Why)
				}
				if v.Trusted {
					trusted++
				}
			}
			if want := map[string]int{"no approvals": 1, "files approved": 2, "blanket env": 3, "invalid store": 1}[tt.name]; trusted != want {
				t.Errorf("%d trusted, want %d", trusted, want)
			}
			if len(ce.Files) != 1 || ce.Files[0].SHA256 != in.Config.SHA256 || ce.Files[0].Path != in.Config.Path || ce.Files[0].Scope != in.Config.Scope {
				t.Error("Files is not trust's config")
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAgenttyImpact(t *testing.T) {
	home := t.TempDir()
	old := trust.Parse("p", []byte(`{"mcpServers":{"db":{"command":"node","args":["a"]}}}`), trust.ScopeProject).Servers[0]
	changed := trust.Parse("p", []byte(`{"mcpServers":{"db":{"command":"node","args":["a"],"env":{"X":"1"}}}}`), trust.ScopeProject).Servers[0]
	swapped := trust.Parse("p", []byte(`{"mcpServers":{"db":{"command":"sh"}}}`), trust.ScopeProject).Servers[0]
	if err := os.MkdirAll(filepath.Join(home, ".agentty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".agentty", trust.ApprovalsFileName), []byte(`["`+old.Fingerprint+`"]`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
	st := agenttyClient{}.State(t.TempDir(), "", env)
	if im := (agenttyClient{}).Impact(st, old, changed); !im.Interactive || !strings.Contains(im.Why, "did not change") {
		t.Errorf("env change (not in agentty's fingerprint): %+v", im)
	}
	if im := (agenttyClient{}).Impact(st, old, swapped); im.Interactive || im.Headless || !strings.Contains(im.Why, "asks") {
		t.Errorf("swapped command: %+v", im)
	}
	if im := (agenttyClient{}).Impact(st, old, nil); im.Interactive {
		t.Errorf("removed: %+v", im)
	}
}

// TestAgenttyHookRuns: the launch model's hook commands (ShellRuns) are
// AgenttyHooks of AgenttyFile, read as agentty reads hooks.json: the last
// duplicate wins, a `run` is cut at its first NUL, bytes after the first
// value are ignored, and a file agentty cannot parse (invalid UTF-8, a
// number too large for a double) has none.
func TestAgenttyHookRuns(t *testing.T) {
	runs := ShellRuns(KindHooks)
	data := []byte(`{"pre_tool":[{"match":"*","run":"./hooks/check.sh --strict"},{"run":1}],"post_tool":[{"run":"bash scripts/log.sh >> /tmp/x"}],"pre_tool":[{"run":"./last.sh\u0000 --hidden"}]}`)
	dir, got := runs("sub/.agentty/hooks.json", data)
	if want := "[{pre_tool[0].run ./last.sh} {post_tool[0].run bash scripts/log.sh >> /tmp/x}]"; fmt.Sprint(got) != want || dir != "sub" {
		t.Errorf("ShellRuns = %q %s, want sub %s", dir, got, want)
	}
	v, err := AgenttyFile(data)
	if err != nil {
		t.Fatal(err)
	}
	hooks := AgenttyHooks(v)
	if len(hooks) != 2 || hooks[0].Run != "./last.sh\x00 --hidden" || hooks[0].At != (trust.Pos{Offset: 139, Line: 1, Column: 140}) {
		t.Errorf("AgenttyHooks = %+v", hooks)
	}
	if _, got := runs(".agentty/hooks.json", []byte(`{"pre_tool":[{"run":"x"}]} trailing {`)); fmt.Sprint(got) != "[{pre_tool[0].run x}]" {
		t.Errorf("bytes after the value: %v", got)
	}
	for _, bad := range []string{``, `[]`, `{"pre_tool":{}}`, `{"pre_tool":[`, "{\"x\":\"\xff\",\"pre_tool\":[{\"run\":\"x\"}]}", `{"n":1e400,"pre_tool":[{"run":"x"}]}`} {
		if _, runs := runs(".agentty/hooks.json", []byte(bad)); len(runs) != 0 {
			t.Errorf("%q: %v", bad, runs)
		}
	}
}

// FuzzAgenttyFile: any bytes, no panic; every hook AgenttyHooks finds
// points at its "run" key in the file, and ShellRuns runs the same
// commands, each cut at its first NUL.
func FuzzAgenttyFile(f *testing.F) {
	f.Add([]byte(`{"pre_tool":[{"run":"x"}],"post_tool":[{"run":"y\u0000z"}]} tail`))
	f.Add([]byte("\xef\xbb\xbf{\"pre_tool\":[{\"run\":\"a\"},{\"run\":\"b\"}],\"pre_tool\":[]}"))
	f.Add([]byte(`{"acpAgents":{"a":{"command":"sh","args":["-c","curl x | sh"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := AgenttyFile(data)
		if err != nil {
			return
		}
		hooks := AgenttyHooks(v)
		_, runs := ShellRuns(KindHooks)(".agentty/hooks.json", data)
		if len(runs) != len(hooks) {
			t.Fatalf("ShellRuns %d runs, AgenttyHooks %d", len(runs), len(hooks))
		}
		for i, h := range hooks {
			if o := h.At.Offset; o < 0 || o+5 > len(data) || string(data[o:o+5]) != `"run"` {
				t.Fatalf("%s at %+v: not its key", h.Where, h.At)
			}
			if want, _, _ := strings.Cut(h.Run, "\x00"); runs[i].Run != want || runs[i].Where != h.Where {
				t.Fatalf("run %d: %+v, want %s %q", i, runs[i], h.Where, want)
			}
		}
	})
}

// TestAgenttyGrants: the store keeper's Grants, which the hook and diff
// grade a change against, are what State reads: the user's store and
// AGENTTY_MCP_ALLOW_PROJECT; a store that does not parse approves nothing
// and says why.
func TestAgenttyGrants(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".agentty"), 0o755); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(home, ".agentty", trust.ApprovalsFileName)
	fp := strings.Repeat("a", 64)
	if err := os.WriteFile(store, []byte(`["`+fp+`"]`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{Getenv: func(k string) string {
		return map[string]string{"HOME": home, "AGENTTY_MCP_ALLOW_PROJECT": "1"}[k]
	}}
	g, err := Keeper().Grants(env)
	st := Lookup(Agentty).State(t.TempDir(), "", env).Agentty
	if err != nil || !g.Approved(fp) || g.Approved(strings.Repeat("b", 64)) || g.AllowProject != "1" || g.AllowProject != st.AllowProject || !st.Approvals.Approved(fp) {
		t.Errorf("Grants = %+v, %v; State %+v", g, err, st)
	}
	if err := os.WriteFile(store, []byte(`["`+fp+`"] junk`), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, err := Keeper().Grants(env); err == nil || g.Approved(fp) {
		t.Errorf("a store that does not parse: %v, approves %v", err, g.Approved(fp))
	}
}
