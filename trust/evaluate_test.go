package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// store is an approvals set with agentty's lookup: exact byte compare.
func store(hashes ...string) func(string) bool {
	set := map[string]bool{}
	for _, h := range hashes {
		set[h] = true
	}
	return func(h string) bool { return set[h] }
}

func verdictsByName(vs []Verdict) map[string]Verdict {
	m := map[string]Verdict{}
	for _, v := range vs {
		m[v.Server.Name] = v
	}
	return m
}

const evalConfig = `{"mcpServers":{
  "stdio":    {"command":"/bin/date"},
  "other":    {"command":"/bin/other","args":["x"]},
  "http":     {"url":"https://h/mcp"},
  "both":     {"command":"srv","url":"https://h/mcp"},
  "typed":    {"type":"http","command":"srv"},
  "sse":      {"type":"sse","url":"https://h/sse"},
  "nothing":  {},
  "typeonly": {"type":"http"},
  "off":      {"command":"/bin/off","disabled":true},
  "offhttp":  {"url":"https://h/mcp","disabled":true},
  "strdis":   {"command":"/bin/strdis","disabled":"true"}
}}`

func TestEvaluateReasons(t *testing.T) {
	c := parseProject(t, evalConfig)
	if !c.Valid() {
		t.Fatal(c.Err)
	}
	fp := func(name string) string { return mustServer(t, c, name).Fingerprint }
	type want struct {
		trusted bool
		reason  Reason
	}
	tests := []struct {
		name   string
		grants Grants
		want   map[string]want
	}{
		{"nothing approved", Grants{}, map[string]want{
			"stdio": {false, ReasonPending}, "other": {false, ReasonPending},
			"http": {true, ReasonUngated}, "both": {true, ReasonUngated},
			"typed":   {false, ReasonPending}, // type is not consulted: gated
			"sse":     {true, ReasonUngated},
			"nothing": {false, ReasonUngated}, "typeonly": {false, ReasonUngated},
			"off": {false, ReasonDisabled}, "offhttp": {false, ReasonDisabled},
			"strdis": {false, ReasonPending}, // "true" is not true: enabled and gated
		}},
		{"one server approved", Grants{Approved: store(fp("stdio"))}, map[string]want{
			"stdio": {true, ReasonApproved}, "other": {false, ReasonPending},
			"typed": {false, ReasonPending}, "strdis": {false, ReasonPending},
			"off": {false, ReasonDisabled},
		}},
		{"typed and the disabled one approved", Grants{Approved: store(fp("typed"), fp("off"), fp("strdis"))}, map[string]want{
			"typed": {true, ReasonApproved}, "off": {false, ReasonDisabled}, "strdis": {true, ReasonApproved},
			"stdio": {false, ReasonPending},
		}},
		{"whole file", Grants{Approved: store(c.SHA256)}, map[string]want{
			"stdio": {true, ReasonWholeFile}, "other": {true, ReasonWholeFile}, "typed": {true, ReasonWholeFile},
			"strdis": {true, ReasonWholeFile}, "off": {false, ReasonDisabled}, "http": {true, ReasonUngated},
			"nothing": {false, ReasonUngated},
		}},
		{"whole file beats per-server", Grants{Approved: store(fp("stdio"), c.SHA256)}, map[string]want{
			"stdio": {true, ReasonWholeFile},
		}},
		{"blanket env beats everything", Grants{AllowProject: "1", Approved: store(fp("stdio"), c.SHA256)}, map[string]want{
			"stdio": {true, ReasonEnv}, "other": {true, ReasonEnv}, "off": {false, ReasonDisabled},
			"http": {true, ReasonUngated}, "nothing": {false, ReasonUngated},
		}},
		{"blanket env false", Grants{AllowProject: "0"}, map[string]want{
			"stdio": {false, ReasonPending},
		}},
		{"upper-case fingerprint never matches", Grants{Approved: store(strings.ToUpper(fp("stdio")), strings.ToUpper(c.SHA256))}, map[string]want{
			"stdio": {false, ReasonPending},
		}},
		{"hash with a newline never matches", Grants{Approved: store(fp("stdio") + "\n")}, map[string]want{
			"stdio": {false, ReasonPending},
		}},
		{"another file's hash", Grants{Approved: store(FileHash([]byte(evalConfig + "\n")))}, map[string]want{
			"stdio": {false, ReasonPending},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := Evaluate(c, tt.grants)
			if len(vs) != len(c.Servers) {
				t.Fatalf("%d verdicts for %d servers", len(vs), len(c.Servers))
			}
			for i, v := range vs {
				if v.Server != c.Servers[i] {
					t.Errorf("verdict %d is for %q, want agentty's order", i, v.Server.Name)
				}
			}
			got := verdictsByName(vs)
			for name, w := range tt.want {
				v := got[name]
				if v.Trusted != w.trusted || v.Reason != w.reason {
					t.Errorf("%s: trusted %v reason %s, want %v %s", name, v.Trusted, v.Reason, w.trusted, w.reason)
				}
			}
		})
	}
}

func TestEvaluateScopesNeverGated(t *testing.T) {
	for _, tc := range []struct {
		scope  Scope
		reason Reason
	}{{ScopeUser, ReasonUser}, {ScopeExplicit, ReasonExplicit}} {
		c := Parse("mcp.json", []byte(evalConfig), tc.scope)
		for _, v := range Evaluate(c, Grants{}) {
			switch v.Server.Name {
			case "off", "offhttp":
				if v.Trusted || v.Reason != ReasonDisabled {
					t.Errorf("%s %s: %v %s, want disabled", tc.scope, v.Server.Name, v.Trusted, v.Reason)
				}
			default:
				if !v.Trusted || v.Reason != tc.reason {
					t.Errorf("%s %s: %v %s, want trusted (%s)", tc.scope, v.Server.Name, v.Trusted, v.Reason, tc.reason)
				}
				if v.Server.Gated {
					t.Errorf("%s %s is gated", tc.scope, v.Server.Name)
				}
			}
		}
	}
}

func TestEvaluateInvalid(t *testing.T) {
	for _, in := range []string{
		`{"mcpServers":{"a":{"command":"x"}},}`,
		`{"mcpServers":{"a":{"command":"x"},"b":{"command":null}}}`,
	} {
		c := parseProject(t, in)
		if vs := Evaluate(c, Grants{AllowProject: "1", Approved: store(c.SHA256)}); len(vs) != 0 {
			t.Errorf("%s: %d verdicts for an invalid config, want none (nothing runs)", in, len(vs))
		}
	}
	if vs := Evaluate(nil, Grants{}); vs != nil {
		t.Errorf("Evaluate(nil) = %v", vs)
	}
}

func TestBlanketEnv(t *testing.T) {
	for _, v := range []string{"1", "true", "yes", "tomato", "T", "Y", "t", "y", "TRUE", "1abc", "10", "y\x00", "True"} {
		if !BlanketEnv(v) {
			t.Errorf("BlanketEnv(%q) = false, want true (first byte is 1 t T y Y)", v)
		}
	}
	for _, v := range []string{"", "0", "false", "no", "on", "n", "N", " 1", " true", "\t1", "\x00", "2", "é", "Ţ", "ON", "enable", "-1", "+1"} {
		if BlanketEnv(v) {
			t.Errorf("BlanketEnv(%q) = true, want false", v)
		}
	}
	c := parseProject(t, `{"mcpServers":{"a":{"command":"x"}}}`)
	for _, tc := range []struct {
		env     string
		trusted bool
	}{{"tomato", true}, {"on", false}, {"", false}, {"Y", true}, {"no", false}} {
		v := Evaluate(c, Grants{AllowProject: tc.env})[0]
		if v.Trusted != tc.trusted {
			t.Errorf("AGENTTY_MCP_ALLOW_PROJECT=%q: trusted %v, want %v", tc.env, v.Trusted, tc.trusted)
		}
	}
}

func TestEvaluateFingerprintIsAskedExactly(t *testing.T) {
	// Evaluate must ask the store for the fingerprint and the file hash as
	// agentty computes them: lowercase hex, nothing else.
	c := parseProject(t, `{"mcpServers":{"a":{"command":"x","args":["y",1]}}}`)
	var asked []string
	Evaluate(c, Grants{Approved: func(h string) bool { asked = append(asked, h); return false }})
	want := []string{c.SHA256, Fingerprint("x", "", []string{"y"})}
	if len(asked) != 2 || asked[0] != want[0] || asked[1] != want[1] {
		t.Errorf("asked %q, want %q", asked, want)
	}
	for _, h := range asked {
		if len(h) != 64 || strings.ToLower(h) != h {
			t.Errorf("asked %q: not lowercase 64-digit hex", h)
		}
	}
}

// TestEvaluateWithStoreFile runs the gate over a real approvals file in
// agentty's layout: only exact lowercase entries approve.
func TestEvaluateWithStoreFile(t *testing.T) {
	c := parseProject(t, `{"mcpServers":{"lower":{"command":"/bin/a"},"upper":{"command":"/bin/b"},"spaced":{"command":"/bin/c"}}}`)
	fp := func(name string) string { return mustServer(t, c, name).Fingerprint }
	path := filepath.Join(t.TempDir(), "mcp_approvals.json")
	content := "[\n  \"" + fp("lower") + "\",\n  \"" + strings.ToUpper(fp("upper")) + "\",\n  \" " + fp("spaced") + "\",\n  42\n]"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	a := LoadApprovals(path)
	got := verdictsByName(Evaluate(c, Grants{Approved: a.Approved}))
	if v := got["lower"]; !v.Trusted || v.Reason != ReasonApproved {
		t.Errorf("lower: %v %s, want approved", v.Trusted, v.Reason)
	}
	for _, name := range []string{"upper", "spaced"} {
		if v := got[name]; v.Trusted || v.Reason != ReasonPending {
			t.Errorf("%s: %v %s, want pending", name, v.Trusted, v.Reason)
		}
	}
	// A store that is not an array approves nothing (fail closed).
	if err := os.WriteFile(path, []byte(`{"h":"`+fp("lower")+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a = LoadApprovals(path)
	if v := verdictsByName(Evaluate(c, Grants{Approved: a.Approved}))["lower"]; v.Trusted {
		t.Errorf("an object store approved a server")
	}
}
