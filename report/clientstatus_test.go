package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/trust"
)

// claudeView is a Claude Code view as gate builds it: one server approved
// by name and changed since review, one asked about, one denied, one with
// a hostile name.
func claudeView(t *testing.T) *gate.ClientView {
	t.Helper()
	cfg := client.Lookup(client.ClaudeCode).Parse("/r/.mcp.json", []byte(`{"mcpServers":{
		"db":{"command":"node","args":["db.js"]},
		"notes":{"command":"/bin/echo","args":["notes"]},
		"off":{"command":"/bin/echo"},
		"ev\u001b[31mil":{"command":"sh","args":["-c","x"]}}}`))
	if !cfg.Valid() {
		t.Fatal(cfg.Err)
	}
	key := func(n string) trust.ReviewKey {
		return trust.ReviewKey{Repo: "r", Client: "claude-code", Config: ".mcp.json", Server: n}
	}
	sv := func(n string, inter, head bool, why, src string, repo bool) client.ServerVerdict {
		return client.ServerVerdict{Name: n, Path: "/r/.mcp.json", Server: cfg.Server(n), Interactive: inter, Headless: head,
			Why: why, Source: src, RepoSide: repo}
	}
	cv := &gate.ClientView{Client: client.ClaudeCode, Title: "Claude Code", Command: "claude", Headless: "claude -p",
		Eval: client.ClientEvaluation{Configs: []string{"/r/.mcp.json"}}}
	cv.Servers = []gate.ClientServer{
		{ServerVerdict: sv("db", true, true, "Claude Code approved `db` by name in .claude/settings.local.json (enabledMcpjsonServers): it runs without asking", ".claude/settings.local.json", true),
			Config: ".mcp.json", Key: key("db"), State: trust.StateUnreviewed, Runs: true, Blocks: true, Why: trust.GateChanged},
		{ServerVerdict: sv("notes", false, true, "`notes` is not approved by name: Claude Code asks first; `claude -p` runs it without asking", "", false),
			Config: ".mcp.json", Key: key("notes"), State: trust.StateReviewed, Runs: true},
		{ServerVerdict: sv("off", false, false, "~/.claude.json projects[/r] denies `off` (disabledMcpjsonServers): Claude Code does not run it, not even under `claude -p`", "~/.claude.json projects[/r]", false),
			Config: ".mcp.json", Key: key("off"), State: trust.StateUnreviewed},
		{ServerVerdict: sv("ev\x1b[31mil", false, true, "`ev\x1b[31mil` is not approved by name: Claude Code asks first", "", false),
			Config: ".mcp.json", Key: key("ev\x1b[31mil"), State: trust.StateUnreviewed, Runs: true, Blocks: true, Why: trust.GateNew},
	}
	return cv
}

func TestClientStatusGolden(t *testing.T) {
	cv := claudeView(t)
	findings := []trust.Finding{trust.NewFinding("MG701", ".claude/settings.json", trust.Pos{Line: 2, Column: 3}, "", "",
		"enabledMcpjsonServers in the repository's shared settings approves `db`")}
	var b bytes.Buffer
	if err := WriteClientStatus(&b, []*gate.ClientView{cv}, findings, true, Style{}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("--- blocking\n")
	if err := WriteBlockingList(&b, []*gate.ClientView{cv}, [][]gate.ClientServer{cv.Blocking(true)}, nil, "mcp-guard review", Style{}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("--- decisions\n")
	WriteDecisions(&b, []gate.Outcome{
		{Entry: &cv.Servers[0], Title: "Claude Code", Command: "claude", Decision: trust.DecisionApproved},
		{Entry: &cv.Servers[1], Title: "Claude Code", Command: "claude", Decision: trust.DecisionDeclined},
	}, Style{})
	checkGolden(t, "status/claude.txt", b.Bytes())
	if bytes.Contains(b.Bytes(), []byte("\x1b")) {
		t.Error("an escape reached the output")
	}

	doc := NewStatusDoc([]*gate.ClientView{cv}, [][]trust.Finding{findings}, nil)
	js, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "status/claude.json", append(js, '\n'))
}

// TestClientStatusWraps: on a terminal of 80 columns status's and check's
// lines wrap under their own text (a server's line under its command, the
// lines below it past their indent, a finding under its rule), never at
// column 0.
func TestClientStatusWraps(t *testing.T) {
	cv := claudeView(t)
	findings := []trust.Finding{trust.NewFinding("MG701", ".claude/settings.json", trust.Pos{Line: 2, Column: 3}, "", "",
		"enabledMcpjsonServers in the repository's shared settings approves `db`: once the folder is trusted Claude Code runs it without asking")}
	st := Style{}.WithWidth(80)
	var b bytes.Buffer
	if err := WriteClientStatus(&b, []*gate.ClientView{cv}, findings, false, st); err != nil {
		t.Fatal(err)
	}
	b.WriteString("--- blocking\n")
	if err := WriteBlockingList(&b, []*gate.ClientView{cv}, [][]gate.ClientServer{cv.Blocking(true)}, nil, "mcp-guard review", st); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "status/claude-80.txt", b.Bytes())
	for i, line := range strings.Split(b.String(), "\n") {
		if len([]rune(line)) > 80 && strings.Count(line, " ") > 0 && !strings.Contains(line, "mcp-guard review") {
			t.Errorf("line %d is %d columns wide: %q", i+1, len([]rune(line)), line)
		}
	}
}

// TestClientHostileBytes checks that a repository's server name, config
// path, file path and client verdict reach the client review screen, the
// decision lines and the vetted note only sanitized: no ESC, no bidi
// override.
func TestClientHostileBytes(t *testing.T) {
	const evil = "ev\x1b[31m\u202eil"
	cv := claudeView(t)
	cs := cv.Servers[3]
	cs.Name, cs.Key.Server, cs.Config = evil, evil, evil+".json"
	cs.Key.Client = evil
	cs.ServerVerdict.Why = evil
	cs.Files = []trust.FileID{{Path: evil}}
	var b bytes.Buffer
	if err := WriteReviewItem(&b, ReviewItem{Index: 1, Total: 2, Title: "Claude Code", Entry: cs}, Style{}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []trust.Decision{trust.DecisionApproved, trust.DecisionDeclined} {
		if err := WriteDecisions(&b, []gate.Outcome{{Entry: &cs, Title: "Claude Code", Command: "claude", Decision: d}}, Style{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteVettedNote(&b, "Claude Code", &gate.Snapshot{Servers: []string{"db"}, Left: []string{evil}}, Style{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, `ev\x1b[31m\u202eil`) {
		t.Errorf("the hostile name is not shown escaped:\n%s", out)
	}
	if strings.ContainsAny(out, "\x1b\u202e") {
		t.Errorf("a raw control byte reached the output:\n%q", out)
	}
}
