package trust

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestGate walks every way a server can reach the gate: agentty's verdict
// crossed with mcp-guard's review state.
func TestGate(t *testing.T) {
	const cfgJSON = `{"mcpServers":{
		"approved":  {"command":"node","args":["a.js"]},
		"pending":   {"command":"node","args":["p.js"]},
		"off":       {"command":"node","args":["o.js"],"disabled":true},
		"web":       {"url":"https://example.com/mcp"},
		"nothing":   {"type":"stdio"}
	}}`
	project := Parse(".agentty/mcp.json", []byte(cfgJSON), ScopeProject)
	if !project.Valid() {
		t.Fatal(project.Err)
	}
	deep := func(s *Server) string { return DeepFingerprint(s, nil) }
	approvedFP := project.Server("approved").Fingerprint
	storeGrants := Grants{Approved: func(h string) bool { return h == approvedFP }}

	dir := t.TempDir()
	const repo = "root1"
	reviewOf := func(name string, d Decision, deepFP string) Review {
		return Review{ReviewKey: ReviewKey{Repo: repo, Config: ".agentty/mcp.json", Server: name},
			DecidedVersion: DecidedVersion{Decision: d, ReviewedVersion: ReviewedVersion{Deep: deepFP, Entry: "{}"}}}
	}
	empty := LoadLedger(dir)

	type want struct {
		blocks bool
		why    GateReason
		state  ReviewState
	}
	tests := []struct {
		name    string
		grants  Grants
		reviews []Review
		scope   Scope
		want    map[string]want
	}{
		{
			name: "nothing reviewed", grants: storeGrants,
			want: map[string]want{
				"approved": {true, GateApprovedUnreviewed, StateUnreviewed},
				"pending":  {true, GateNew, StateUnreviewed},
				"off":      {false, "", StateUnreviewed},
				"web":      {true, GateUngated, StateUnreviewed},
				"nothing":  {false, "", StateUnreviewed},
			},
		},
		{
			name: "blanket env", grants: Grants{AllowProject: "yes"},
			want: map[string]want{
				"approved": {true, GateBlanket, StateUnreviewed},
				"pending":  {true, GateBlanket, StateUnreviewed},
			},
		},
		{
			name: "whole-file approval", grants: Grants{Approved: func(h string) bool { return h == project.SHA256 }},
			want: map[string]want{"pending": {true, GateBlanket, StateUnreviewed}},
		},
		{
			name: "reviewed current versions", grants: storeGrants,
			reviews: []Review{
				reviewOf("approved", DecisionApproved, deep(project.Server("approved"))),
				reviewOf("web", DecisionApproved, deep(project.Server("web"))),
			},
			want: map[string]want{
				"approved": {false, "", StateReviewed},
				"web":      {false, "", StateReviewed},
				"pending":  {true, GateNew, StateUnreviewed},
			},
		},
		{
			name: "changed since review", grants: storeGrants,
			reviews: []Review{reviewOf("approved", DecisionApproved, h("older")), reviewOf("pending", DecisionDeclined, h("older"))},
			want: map[string]want{
				"approved": {true, GateChanged, StateUnreviewed},
				"pending":  {true, GateChanged, StateUnreviewed},
			},
		},
		{
			name: "declined and off stops blocking", grants: storeGrants,
			reviews: []Review{reviewOf("pending", DecisionDeclined, deep(project.Server("pending")))},
			want:    map[string]want{"pending": {false, "", StateDeclined}},
		},
		{
			name: "declined but agentty still runs it", grants: Grants{AllowProject: "1"},
			reviews: []Review{
				reviewOf("pending", DecisionDeclined, deep(project.Server("pending"))),
				reviewOf("web", DecisionDeclined, deep(project.Server("web"))),
			},
			want: map[string]want{
				"pending": {true, GateDeclinedRuns, StateDeclined},
				"web":     {true, GateDeclinedRuns, StateDeclined},
			},
		},
		{
			name: "user configuration never blocks", scope: ScopeUser,
			want: map[string]want{"pending": {false, "", ""}, "web": {false, "", ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := project
			if tt.scope != "" {
				cfg = Parse("mcp.json", []byte(cfgJSON), tt.scope)
			}
			l := empty
			if len(tt.reviews) > 0 {
				d := t.TempDir()
				mustDo(t, UpdateLedger(context.Background(), d, record(tt.reviews...)))
				l = LoadLedger(d)
			}
			g := Gate{Ledger: l, Repo: repo, Config: ".agentty/mcp.json"}
			got := g.Evaluate(Evaluate(cfg, tt.grants), deep)
			if len(got) != len(cfg.Servers) {
				t.Fatalf("%d verdicts for %d servers", len(got), len(cfg.Servers))
			}
			for _, v := range got {
				w, ok := tt.want[v.Server.Name]
				if !ok {
					continue
				}
				if v.Blocks != w.blocks || v.Why != w.why || v.State != w.state {
					t.Errorf("%s: blocks=%v why=%q state=%q; want %v %q %q", v.Server.Name, v.Blocks, v.Why, v.State, w.blocks, w.why, w.state)
				}
				if v.Blocks != (v.Why != "") {
					t.Errorf("%s: Blocks and Why disagree", v.Server.Name)
				}
			}
			for _, v := range Blocking(got) {
				if !v.Blocks {
					t.Errorf("Blocking returned %s", v.Server.Name)
				}
			}
		})
	}
}

// TestGateCorruptLedgerBlocksEverything: a ledger that cannot be read
// reviews nothing, so every server that would run blocks.
func TestGateCorruptLedgerBlocksEverything(t *testing.T) {
	dir := t.TempDir()
	mustDo(t, os.WriteFile(filepath.Join(dir, LedgerFileName), []byte("{oops"), 0o600))
	cfg := Parse(".agentty/mcp.json", []byte(`{"mcpServers":{"a":{"command":"x"}}}`), ScopeProject)
	g := Gate{Ledger: LoadLedger(dir), Repo: "r", Config: ".agentty/mcp.json"}
	all := func(string) bool { return true }
	got := g.Evaluate(Evaluate(cfg, Grants{Approved: all}), func(s *Server) string { return DeepFingerprint(s, nil) })
	if len(Blocking(got)) != 1 {
		t.Errorf("corrupt ledger: %+v", got)
	}
}
