package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// gateFixture evaluates a small configuration through agentty's gate and
// mcp-guard's, with one server reviewed in an earlier version.
func gateFixture(t *testing.T) ([]trust.GateVerdict, *trust.Config) {
	t.Helper()
	cfg := trust.Parse(".agentty/mcp.json", []byte(`{"mcpServers":{
		"notes": {"command":"node","args":["tools/notes.js","--port",8080],"env":{"NODE_OPTIONS":"--require ./tools/preload.js"}},
		"fresh": {"command":"npx","args":["-y","fresh-mcp@1.0.0"]},
		"docs": {"url":"https://docs.example.com/mcp"},
		"blanket\u001b[2J": {"command":"./run.sh"}
	}}`), trust.ScopeProject)
	if !cfg.Valid() {
		t.Fatal(cfg.Err)
	}
	notesFP := cfg.Server("notes").Fingerprint
	verdicts := trust.Evaluate(cfg, trust.Grants{Approved: func(h string) bool { return h == notesFP }})
	ledger := trust.LoadLedger(t.TempDir())
	g := trust.Gate{Ledger: ledger, Repo: "r", Config: ".agentty/mcp.json"}
	out := g.Evaluate(verdicts, func(s *trust.Server) string { return trust.DeepFingerprint(s, nil) })
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range out {
		if out[i].Server.Name == "notes" {
			// Reviewed before, in another version.
			out[i].Why = trust.GateChanged
			out[i].Last = &trust.Review{DecidedVersion: trust.DecidedVersion{Decision: trust.DecisionApproved, ReviewedVersion: trust.ReviewedVersion{Time: when}}}
		}
		if out[i].Server.Name == "blanket\x1b[2J" {
			out[i].Verdict.Trusted, out[i].Verdict.Reason, out[i].Why = true, trust.ReasonEnv, trust.GateBlanket
		}
	}
	return out, cfg
}

func TestWriteBlockingGolden(t *testing.T) {
	vs, _ := gateFixture(t)
	var b bytes.Buffer
	var entries []gate.ClientServer
	for _, v := range trust.Blocking(vs) {
		entries = append(entries, gate.AgenttyEntry(&v, ".agentty/mcp.json"))
	}
	mustWrite(t, WriteBlockingList(&b, []*gate.ClientView{{Title: "agentty"}}, [][]gate.ClientServer{entries}, nil, "mcp-guard -C sub review", Style{}))
	if bytes.Contains(b.Bytes(), []byte("\x1b")) {
		t.Error("raw escape in the output")
	}
	checkGolden(t, filepath.Join("hook", "blocking.golden"), b.Bytes())
}

func TestWriteReviewItemGolden(t *testing.T) {
	vs, cfg := gateFixture(t)
	var notes, fresh trust.GateVerdict
	for _, v := range vs {
		switch v.Server.Name {
		case "notes":
			notes = v
		case "fresh":
			fresh = v
		}
	}
	since := &trust.Change{Server: "notes",
		Fields: []trust.FieldChange{
			{Field: "env.NODE_OPTIONS", New: `"--require ./tools/preload.js"`},
			{Field: "args[0]", Old: `"tools/notes-server-implementation-v1.js"`, New: `"tools/notes-server-implementatiom-v1.js"`},
		},
		Files: []trust.FileChange{{Path: "tools/notes.js", Old: trust.Object{Mode: "100644", ID: "1111111111111111"}, New: trust.Object{Mode: "100755", ID: "2222222222222222"}}},
	}
	notesEntry := gate.AgenttyEntry(&notes, cfg.Path)
	notesEntry.Files = []trust.FileID{{Path: "tools/notes.js", Object: trust.Object{Mode: "100755", ID: "2222222222222222"}}}
	var b bytes.Buffer
	mustWrite(t, WriteReviewItem(&b, ReviewItem{Index: 1, Total: 2, Title: "agentty", Entry: notesEntry,
		Since: since,
		Findings: []trust.Finding{trust.NewFinding("MG101", cfg.Path, trust.Pos{Line: 2, Column: 3}, "notes", "env.NODE_OPTIONS",
			"env.NODE_OPTIONS changes what node runs")},
	}, Style{}))
	b.WriteString("\n")
	mustWrite(t, WriteReviewItem(&b, ReviewItem{Index: 2, Total: 2, Title: "agentty", Entry: gate.AgenttyEntry(&fresh, cfg.Path)}, Style{}))
	checkGolden(t, filepath.Join("hook", "review-items.golden"), b.Bytes())

	// Never reviewed, with its files' content: the content, not hashes.
	b.Reset()
	newFiles := &ChangeContent{Content: &project.ContentDiff{Files: []project.FileDiff{
		{Path: "tools/notes.js", Status: project.FileAdded, NewMode: "100755", OldSize: -1, NewSize: 24,
			Hunks: []project.Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 2, Lines: []project.Line{
				{Op: project.LineInsert, Text: "const http = require('http');"}, {Op: project.LineInsert, Text: "listen(8080);"}}}}}}}}
	freshEntry := gate.AgenttyEntry(&fresh, cfg.Path)
	freshEntry.Files = notesEntry.Files
	mustWrite(t, WriteReviewItem(&b, ReviewItem{Index: 1, Total: 1, Title: "agentty", Entry: freshEntry, Content: newFiles}, Style{}))
	if strings.Contains(b.String(), Short("2222222222222222")) {
		t.Errorf("a never-reviewed server's files shown by hash:\n%s", b.String())
	}
	checkGolden(t, filepath.Join("hook", "review-item-new.golden"), b.Bytes())

	// At 80 columns each long line wraps under its item's value, never at
	// column 0.
	long := notesEntry
	srv := *long.Server
	srv.Args = append(append([]trust.Arg(nil), srv.Args...), trust.Arg{Str: "--config", IsString: true},
		trust.Arg{Str: "tools/config/a-rather-long-configuration-file-name.json", IsString: true},
		trust.Arg{Str: "--verbose", IsString: true}, trust.Arg{Str: "--listen", IsString: true}, trust.Arg{Str: "127.0.0.1:8080", IsString: true})
	long.Server = &srv
	b.Reset()
	mustWrite(t, WriteReviewItem(&b, ReviewItem{Index: 1, Total: 2, Title: "agentty", Entry: long,
		Findings: []trust.Finding{trust.NewFinding("MG101", cfg.Path, trust.Pos{Line: 2, Column: 3}, "notes", "env.NODE_OPTIONS",
			"env.NODE_OPTIONS changes what node runs: --require loads tools/preload.js into the server before its own code")},
	}, Style{}.WithWidth(80)))
	wrapped := 0
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("%d columns: %q", n, l)
		}
		if !strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "──") {
			t.Errorf("a line at column 0: %q", l)
		}
		if strings.HasPrefix(l, strings.Repeat(" ", itemHang)) {
			wrapped++
		}
	}
	if wrapped < 2 {
		t.Errorf("want the runs and finding lines wrapped under their values:\n%s", b.String())
	}
	checkGolden(t, filepath.Join("hook", "review-item-80.golden"), b.Bytes())
}

func TestAddReviewState(t *testing.T) {
	vs, cfg := gateFixture(t)
	in := &trust.Inspection{Location: trust.Location{Scope: trust.ScopeProject}, Config: cfg, Verdicts: make([]trust.Verdict, len(vs))}
	for i, v := range vs {
		in.Verdicts[i] = v.Verdict
	}
	cv := &gate.ClientView{Client: client.Agentty, Title: "agentty", Inspection: in}
	for _, gv := range vs {
		cv.Servers = append(cv.Servers, gate.ClientServer{ServerVerdict: client.ServerVerdict{Name: gv.Server.Name}, State: gv.State, Blocks: gv.Blocks, Why: gv.Why})
	}
	doc := NewStatusDoc([]*gate.ClientView{cv}, nil, nil)
	if len(doc.Agents) != 1 || doc.Agents[0].Config == nil || len(doc.Agents[0].Servers) != len(vs) {
		t.Fatalf("agentty's entry: %+v", doc.Agents)
	}
	for _, s := range doc.Agents[0].Servers {
		if s.Review != "unreviewed" || s.Blocks == nil || !*s.Blocks {
			t.Errorf("%s: review %q blocks %v", s.Name, s.Review, s.Blocks)
		}
	}
}

// TestReviewHelpListsEveryKey: `?` names every key the prompt takes, under
// the name of what it does, and the table gives no key two meanings.
func TestReviewHelpListsEveryKey(t *testing.T) {
	help := ReviewHelp()
	lines := strings.Split(help, "\n")
	seen := map[byte]ReviewAction{}
	for _, k := range ReviewKeys() {
		if len(k.Keys) == 0 || k.Name == "" || len(k.Help) == 0 {
			t.Errorf("row %+v is incomplete", k)
		}
		// The row of this action: the line with "name:".
		var row string
		for _, l := range lines {
			if strings.Contains(l, "  "+k.Name+": ") {
				row = l
			}
		}
		if row == "" {
			t.Errorf("help has no line for %s:\n%s", k.Name, help)
			continue
		}
		keys := strings.Fields(row[:strings.Index(row, "  "+k.Name+": ")])
		for _, c := range k.Keys {
			if prev, dup := seen[c]; dup {
				t.Errorf("key %s both %d and %d", KeyName(c), prev, k.Action)
			}
			seen[c] = k.Action
			if !slices.Contains(keys, KeyName(c)) {
				t.Errorf("help line %q does not list %s", row, KeyName(c))
			}
			if got := ReviewKeyAction(c); got != k.Action {
				t.Errorf("key %s does %d, the table says %d", KeyName(c), got, k.Action)
			}
		}
	}
	// Exactly the table's keys do something.
	for c := range 256 {
		if _, ok := seen[byte(c)]; !ok && ReviewKeyAction(byte(c)) != ReviewUnknown {
			t.Errorf("key %s is not in the table yet does %d", KeyName(byte(c)), ReviewKeyAction(byte(c)))
		}
	}
	for _, want := range []string{"a A y Y", "d D n N", "s S Space", "Esc", "Ctrl-C", "Ctrl-D", "? h H", "f F"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	if ReviewKeyAction(' ') != ReviewSkip {
		t.Error("Space must skip, never approve")
	}
	if p := ReviewPrompt(Style{}, false); p != "approve [a], decline [d], skip [s], quit [q], help [?] " {
		t.Errorf("prompt %q", p)
	}
	// A screen that left added lines out offers the full diff.
	if p := ReviewPrompt(Style{}, true); p != "approve [a], decline [d], skip [s], quit [q], help [?], full diff [f] " {
		t.Errorf("prompt %q", p)
	}
}

// TestWaitingAgrees: the verb agrees with the count (issue 14: "1 still
// wait for review").
func TestWaitingAgrees(t *testing.T) {
	for _, tt := range []struct {
		n      int
		adverb string
		want   string
	}{
		{0, "", "0 servers wait"}, {1, "", "1 server waits"}, {2, "", "2 servers wait"},
		{1, "still", "1 server still waits"}, {3, "still", "3 servers still wait"},
	} {
		if got := Waiting(tt.n, tt.adverb); got != tt.want {
			t.Errorf("Waiting(%d, %q) = %q, want %q", tt.n, tt.adverb, got, tt.want)
		}
	}
}

func TestCountAgrees(t *testing.T) {
	for n, want := range map[int]string{0: "0 servers run", 1: "1 server runs", 7: "7 servers run"} {
		if got := Count(n, "server runs", "servers run"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestWriteBlockingLongNames: check's name column is as wide as the
// longest name up to its cap; a longer name is cut with an ellipsis and
// said whole under it, the command column aligned; escapes stay escaped.
func TestWriteBlockingLongNames(t *testing.T) {
	entries := waitingEntries(t, `{"mcpServers":{
		"a-name-of-thirty-six-characters-xyz": {"command":"node","args":["a.js"]},
		"db": {"command":"node","args":["db.js"]},
		"a-server-name-far-longer-than-any-column-should-be": {"command":"node","args":["b.js"]},
		"evil\u001b[2Jname-padded-past-the-cap-with-an-escape": {"command":"./run.sh"}
	}}`)
	var b bytes.Buffer
	mustWrite(t, WriteClientBlocking(&b, &gate.ClientView{Title: "agentty"}, entries, Style{}))
	if bytes.Contains(b.Bytes(), []byte("\x1b")) {
		t.Error("raw escape in the output")
	}
	checkGolden(t, filepath.Join("hook", "blocking-long-names.golden"), b.Bytes())
}

// waitingEntries are the servers of an agentty configuration (cfg) that
// wait for review, with nothing reviewed.
func waitingEntries(t *testing.T, cfg string) []gate.ClientServer {
	t.Helper()
	c := trust.Parse(".agentty/mcp.json", []byte(cfg), trust.ScopeProject)
	if !c.Valid() {
		t.Fatal(c.Err)
	}
	g := trust.Gate{Ledger: trust.LoadLedger(t.TempDir()), Repo: "r", Config: ".agentty/mcp.json"}
	var entries []gate.ClientServer
	for _, v := range trust.Blocking(g.Evaluate(trust.Evaluate(c, trust.Grants{}), func(s *trust.Server) string { return trust.DeepFingerprint(s, nil) })) {
		entries = append(entries, gate.AgenttyEntry(&v, ".agentty/mcp.json"))
	}
	return entries
}

// serversNamed is an agentty configuration of one server per name, each
// running command.
func serversNamed(names []string, command string) string {
	servers := map[string]any{}
	for _, n := range names {
		servers[n] = map[string]string{"command": command}
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	return string(b)
}
