package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// TestLongNameShownCut: a repository can name an entry with thousands of
// characters. Every human output (status, check's list, review, the
// decisions, diff, the hook's warning, scan's text, finding messages and
// change reasons) shows at most nameShownCap of it, cut with an
// ellipsis; the approve hint, which the user types, and JSON keep it
// whole.
func TestLongNameShownCut(t *testing.T) {
	long := strings.Repeat("n", 3000)
	tooMuch := strings.Repeat("n", nameShownCap) // ShowName keeps nameShownCap-1 and an ellipsis
	cv := claudeView(t)
	cs := &cv.Servers[3]
	cs.Name, cs.Key.Server = long, long
	cs.ServerVerdict.Why = "`" + long + "` is not approved by name: Claude Code asks first"
	finding := trust.NewFinding("MG105", ".mcp.json", trust.Pos{Line: 1, Column: 1}, long, "args[0]",
		"server \""+long+"\": args[0]: `x.js`: node runs it")
	change := trust.Change{Client: "claude-code", Path: ".mcp.json", Server: long, OldName: long + "-old", Change: trust.ChangeRenamed,
		Impact: trust.ImpactNewUnapproved, Reasons: []string{"`" + long + "` is not approved: Claude Code asks before it runs"}}

	outputs := map[string]*bytes.Buffer{}
	out := func(name string) *bytes.Buffer {
		b := &bytes.Buffer{}
		outputs[name] = b
		return b
	}
	mustWrite(t, WriteClientStatus(out("status"), []*gate.ClientView{cv}, []trust.Finding{finding}, false, Style{}))
	hint := out("check")
	mustWrite(t, WriteBlockingList(hint, []*gate.ClientView{cv}, [][]gate.ClientServer{cv.Blocking(true)}, nil, "mcp-guard review", Style{}))
	mustWrite(t, WriteReviewItem(out("review"), ReviewItem{Index: 1, Total: 1, Title: "Claude Code", Entry: *cs, Findings: []trust.Finding{finding}}, Style{}))
	mustWrite(t, WriteDecisions(out("decisions"), []gate.Outcome{{Entry: cs, Title: "Claude Code", Command: "claude", Decision: trust.DecisionDeclined}}, Style{}))
	mustWrite(t, writeDiff(out("diff"), Diff{New: DiffSide{Commit: "worktree"}, Changes: []trust.Change{change}, Findings: []trust.Finding{finding}}, Style{}))
	mustWrite(t, WriteWarning(out("warning"), Warning{Op: "merge", Changes: []trust.Change{change}, Findings: []trust.Finding{finding}}, Style{}))
	mustWrite(t, WriteSnapshotNote(out("launch"), ".agentty/mcp.json", &gate.Snapshot{Servers: []string{"db"}, Left: []string{long}}, Style{}))
	mustWrite(t, WriteVettedNote(out("launch -- claude"), "Claude Code", &gate.Snapshot{Servers: []string{"db"}, Left: []string{long}}, Style{}))
	res := &scan.Result{Target: scan.TargetDiff, Findings: []trust.Finding{finding}, Changes: []trust.Change{change}}
	outputs["scan"] = bytes.NewBuffer(render(t, "text", res))

	for name, b := range outputs {
		text := b.String()
		if !strings.Contains(text, "nnn…") {
			t.Errorf("%s: the long name is not shown cut:\n%s", name, text)
		}
		if name == "check" {
			// The hint the user types names it whole, once.
			if strings.Count(text, long) != 1 || !strings.Contains(text, " "+hintWord("claude-code:"+long)+",") {
				t.Errorf("check's approve hint does not name the entry whole:\n%s", strings.ReplaceAll(text, long, "LONG"))
			}
			text = strings.Replace(text, long, "", 1)
		}
		if strings.Contains(text, tooMuch) {
			t.Errorf("%s shows more than %d characters of a name:\n%.600s", name, nameShownCap, text)
		}
	}

	// status's name column is check's: cut at nameColumnCap, the command
	// after it aligned.
	if !strings.Contains(outputs["status"].String(), strings.Repeat("n", nameColumnCap-1)+"… sh -c x") {
		t.Errorf("status's name column is not cut at %d:\n%.600s", nameColumnCap, outputs["status"])
	}

	js, err := json.Marshal(NewStatusDoc([]*gate.ClientView{cv}, [][]trust.Finding{{finding}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"name":"`+long+`"`)) {
		t.Error("status --json does not keep the name whole")
	}
}

func TestShowName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"db", "db"},
		{strings.Repeat("é", nameShownCap), strings.Repeat("é", nameShownCap)},
		{strings.Repeat("é", nameShownCap+1), strings.Repeat("é", nameShownCap-1) + "…"},
		// Cut after sanitising: an escape is never cut in half into a raw byte.
		{"\x1b" + strings.Repeat("x", 200), `\x1b` + strings.Repeat("x", nameShownCap-5) + "…"},
	} {
		if got := ShowName(tc.in); got != tc.want {
			t.Errorf("ShowName(%.20q…) = %.40q…, want %.40q…", tc.in, got, tc.want)
		}
	}
}
