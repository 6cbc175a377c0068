package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// diffOf runs trust.Diff over configs given as text ("" = absent) with the
// given approvals, the way project.Compare would for one config path.
func diffOf(path, old, new string, oldFiles, newFiles trust.Files, approved ...string) []trust.Change {
	parse := func(s string) *trust.Config {
		if s == "" {
			return nil
		}
		return trust.Parse(path, []byte(s), trust.ScopeProject)
	}
	set := map[string]bool{}
	for _, h := range approved {
		set[h] = true
	}
	var out []trust.Change
	for _, c := range trust.Diff(parse(old), parse(new), oldFiles, newFiles, trust.Grants{Approved: func(h string) bool { return set[h] }}) {
		if c.Change != trust.ChangeUnchanged || c.Impact != trust.ImpactUnchanged {
			out = append(out, c)
		}
	}
	return out
}

func fp(cfg, name string) string {
	return trust.Parse(".agentty/mcp.json", []byte(cfg), trust.ScopeProject).Server(name).Fingerprint
}

// sampleDiff is a pull that changes a bit of everything.
func sampleDiff() Diff {
	const (
		root0 = `{"mcpServers":{
 "notes":{"command":"node","args":["server.js"]},
 "db":{"command":"npx","args":["-y","@modelcontextprotocol/server-postgres@0.6.2","postgresql://localhost/app"]},
 "old":{"command":"/usr/bin/old"},
 "fs":{"command":"uvx","args":["mcp-fs"]}}}`
		root1 = `{"mcpServers":{
 "notes":{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"--require ./tools/preload.js"}},
 "db":{"command":"npx","args":["-y","@modelcontextprotocol/server-postgres@0.6.3","postgresql://localhost/app"]},
 "files":{"command":"uvx","args":["mcp-fs"]},
 "web":{"command":"./bin/web","args":["--port",8080]}}}`
		sub = `{"mcpServers":{"notes":{"command":"node","args":["server.js"]}}}`
	)
	oldFiles := trust.Files{"notes": {{Path: "server.js", Object: trust.Object{Mode: "100644", ID: "1111111111111111111111111111111111111111"}}}}
	newFiles := trust.Files{"notes": {{Path: "server.js", Object: trust.Object{Mode: "100644", ID: "2222222222222222222222222222222222222222"}}},
		"web": {{Path: "bin/web", Object: trust.Object{Mode: "100755", ID: "3333333333333333333333333333333333333333"}}}}
	approved := []string{fp(root0, "notes"), fp(root0, "db"), fp(root0, "old"), fp(root0, "fs")}
	changes := diffOf(".agentty/mcp.json", root0, root1, oldFiles, newFiles, approved...)
	changes = append(changes, diffOf("sub/.agentty/mcp.json", "", sub, nil, trust.Files{"notes": {{Path: "sub/server.js", Object: trust.Object{Mode: "100644", ID: "4444444444444444444444444444444444444444"}}}}, approved...)...)
	sortChanges(changes)
	return Diff{
		Old:     DiffSide{Rev: "ORIG_HEAD", Commit: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		New:     DiffSide{Rev: "HEAD", Commit: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"},
		Changes: changes,
		Findings: []trust.Finding{
			trust.NewFinding("MG501", ".agentty/hooks.json", trust.Pos{Line: 1, Column: 1}, "", "", "project hooks added: agentty runs their shell commands on tool calls"),
			trust.NewFinding("MG306", "sub/.agentty/mcp.json", trust.Pos{Line: 1, Column: 1}, "", "", "a nested configuration: agentty runs it when launched from sub/"),
		},
	}
}

// sortChanges orders changes as project.Compare does.
func sortChanges(cs []trust.Change) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Impact.Rank() < cs[j-1].Impact.Rank(); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// TestWriteDiffWrapsFindingsAndReasons: on a terminal of known width the
// findings and reasons break at spaces, indented under their line; the
// same diff unwrapped (a pipe) has the same words.
func TestWriteDiffWrapsFindingsAndReasons(t *testing.T) {
	d := sampleDiff()
	var plain, wrapped bytes.Buffer
	if err := writeDiff(&plain, d, NewStyle(false)); err != nil {
		t.Fatal(err)
	}
	if err := writeDiff(&wrapped, d, NewStyle(false).WithWidth(60)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "diff/sample-60.txt", wrapped.Bytes())
	if strings.Join(strings.Fields(plain.String()), " ") != strings.Join(strings.Fields(wrapped.String()), " ") {
		t.Error("wrapping changed the words")
	}
	for _, l := range strings.Split(wrapped.String(), "\n") {
		// (Values and the heading, the lines with an arrow, stay whole.)
		if n := len([]rune(l)); n > 60 && strings.Contains(strings.TrimSpace(l), " ") && !strings.Contains(l, "→") && !strings.Contains(l, "[-") {
			t.Errorf("%d columns, and a space to break at: %q", n, l)
		}
	}
}

func TestWriteDiffGolden(t *testing.T) {
	d := sampleDiff()
	for _, tc := range []struct {
		name  string
		color bool
	}{{"diff/sample.txt", false}, {"diff/sample-color.txt", true}} {
		var buf bytes.Buffer
		if err := writeDiff(&buf, d, NewStyle(tc.color)); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, tc.name, buf.Bytes())
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, NewDiffDoc(d)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "diff/sample.json", buf.Bytes())
}

func TestWriteDiffNothing(t *testing.T) {
	var buf bytes.Buffer
	d := Diff{Old: DiffSide{Rev: "HEAD", Commit: "cccccccccccccccccccccccccccccccccccccccc"}, New: DiffSide{Commit: "worktree"}}
	if err := writeDiff(&buf, d, Style{}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "diff/nothing.txt", buf.Bytes())
	if d.NeedsAttention() {
		t.Error("an empty diff needs attention")
	}
	buf.Reset()
	WriteJSON(&buf, NewDiffDoc(d))
	if !strings.Contains(buf.String(), `"changes": []`) || !strings.Contains(buf.String(), `"findings": []`) {
		t.Errorf("empty arrays must not be null:\n%s", buf.String())
	}
}

func TestDiffNeedsAttention(t *testing.T) {
	for impact, want := range map[trust.Impact]bool{
		trust.ImpactTrustPreserving: true, trust.ImpactInvalidated: true, trust.ImpactNewPreapproved: true,
		trust.ImpactNewUnapproved: true, trust.ImpactRemoved: false, trust.ImpactUnchanged: false,
	} {
		d := Diff{Changes: []trust.Change{{Impact: impact}}}
		if d.NeedsAttention() != want {
			t.Errorf("%s: NeedsAttention = %v", impact, !want)
		}
	}
	if !(Diff{Findings: []trust.Finding{{Rule: "MG501"}}}).NeedsAttention() {
		t.Error("a finding alone needs attention")
	}
}

// A one-character swap in a long value shows as "old → new", the new
// under the old with carets under what changed (no colour), and with
// the changed runs coloured on a terminal: never git's word-diff syntax.
func TestFieldChangeLong(t *testing.T) {
	old := `"/opt/tools/mcp/servers/postgres-readonly/bin/server"`
	new := `"/opt/tools/mcp/servers/postgres-readwrite/bin/server"`
	got := fieldChange("  ", "command", old, new, Style{})
	want := `"/opt/tools/mcp/servers/postgres-readonly/bin/server"` + "\n" +
		`         → "/opt/tools/mcp/servers/postgres-readwrite/bin/server"` + "\n" +
		strings.Repeat(" ", len("  command  ")+len(`"/opt/tools/mcp/servers/postgres-read`)) + "^^^^^"
	if got != want {
		t.Errorf("fieldChange =\n%s\nwant\n%s", got, want)
	}
	colored := fieldChange("  ", "command", old, new, Style{color: true})
	if strings.Contains(colored, "^") || !strings.Contains(colored, sgrOK) || !strings.Contains(colored, sgrDanger) || !strings.Contains(colored, "→") {
		t.Errorf("coloured: %q", colored)
	}
	for _, g := range []string{got, colored} {
		if strings.Contains(g, "[-") || strings.Contains(g, "{+") {
			t.Errorf("word-diff syntax: %q", g)
		}
	}
	if got := fieldChange("", "x", `"a"`, `"b"`, Style{}); got != `"a" → "b"` {
		t.Errorf("short values: %s", got)
	}
	if got := fieldChange("", "x", "", `"b"`, Style{}); got != `(absent) → "b"` {
		t.Errorf("added value: %s", got)
	}
}

// Repository strings never reach the terminal raw: names, fields, reasons
// and paths are sanitised, in text and in inline diffs.
func TestWriteDiffSanitizes(t *testing.T) {
	evil := "\x1b]0;owned\x07ev\u202eil\x1b[2J"
	old := `{"mcpServers":{"` + `s\u001b[31m` + `":{"command":"/opt/very/long/path/to/a/server/binary","args":["x"]}}}`
	new := `{"mcpServers":{"` + `s\u001b[31m` + `":{"command":"/opt/very/long/path/to/a/server/binary\u001b[2J\u202e","args":["x"],"env":{"A\u001b":"\u202e"}}}}`
	changes := diffOf("d\x1b[1m/.agentty/mcp.json", old, new, nil, nil, fp(old, "s\x1b[31m"))
	if len(changes) != 1 {
		t.Fatalf("changes: %+v", changes)
	}
	d := Diff{
		Old:     DiffSide{Rev: evil, Commit: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		New:     DiffSide{Commit: "worktree"},
		Changes: changes,
		Findings: []trust.Finding{
			trust.NewFinding("MG501", evil+"/.agentty/hooks.json", trust.Pos{Line: 1, Column: 1}, "", "", evil),
		},
	}
	var buf bytes.Buffer
	if err := writeDiff(&buf, d, Style{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds %q raw:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, `\x1b`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("escapes not shown:\n%s", out)
	}
	// JSON keeps the exact strings (encoding/json escapes controls).
	buf.Reset()
	WriteJSON(&buf, NewDiffDoc(d))
	var doc DiffDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Changes[0].Server != "s\x1b[31m" || doc.Old.Rev != evil {
		t.Errorf("JSON changed the strings: %+v", doc.Changes[0])
	}
}

// A file several agents read is headed with each of them; each change
// keeps its own agent's words.
func TestWriteDiffSharedFile(t *testing.T) {
	d := Diff{Agents: sharedAgents(), Changes: []trust.Change{
		{Client: "claude-code", Path: ".mcp.json", Server: "db", Change: trust.ChangeChanged, Impact: trust.ImpactTrustPreserving,
			Reasons: []string{"Claude Code approved `db` by name: the new command runs without asking"}},
		{Client: "copilot-cli", Path: ".mcp.json", Server: "db", Change: trust.ChangeChanged, Impact: trust.ImpactTrustPreserving,
			Reasons: []string{"Copilot CLI runs `db` without asking in this trusted folder: every change runs"}},
		{Client: "cursor", Path: ".cursor/mcp.json", Server: "ed", Change: trust.ChangeChanged, Impact: trust.ImpactInvalidated},
	}}
	var b bytes.Buffer
	if err := writeDiff(&b, d, NewStyle(false)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"\n.mcp.json (Claude Code and Copilot CLI):\n", "\n.cursor/mcp.json (Cursor):\n",
		"Claude Code approved `db` by name", "Copilot CLI runs `db` without asking"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestApproveCommandsNameIsNeverAFlag: a server the repository names
// --all (or '-x y', quoted) is passed after "--", so the command the hint
// suggests approves that server, not every server that waits.
func TestApproveCommandsNameIsNeverAFlag(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"db"}, "mcp-guard approve db"},
		{[]string{"db", "--all"}, "mcp-guard approve -- db --all"},
		{[]string{"-x y"}, "mcp-guard approve -- '-x y'"},
		{[]string{"a-b"}, "mcp-guard approve a-b"},
	} {
		var cs []trust.Change
		for _, n := range tc.names {
			cs = append(cs, trust.Change{Server: n, Path: ".agentty/mcp.json"})
		}
		if got := approveCommands(cs); len(got) != 1 || got[0] != tc.want {
			t.Errorf("approveCommands(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
