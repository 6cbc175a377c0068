package report_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/internal/hostile"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

// hostileShown lists, per fixture, text that must appear in the output
// exactly so (escaped), in status, diff and warning alike.
var hostileShown = map[string][]string{
	"ansi-osc.json":     {`ok\x1b]0;pwned\x07`, `/usr/bin/true\x1b[2K\x1b[1G`},
	"bidi.json":         {`safe\u202etxt.exe`, `/usr/bin/\u2066true\u2069`},
	"zero-width.json":   {`git\u200bhub`, `np\u200dx`},
	"lookalike.json":    {`g\u0456thub`, `/usr/bin/n\u043ede`, `\uff4e\uff50\uff58`},
	"nul-escaped.json":  {`n\x00ame`},
	"line-forgery.json": {`srv\n  ✓ other           /usr/bin/true`, `/usr/bin/evil\rls`},
}

// TestHostileRenderers: every hostile fixture is shown escaped, never
// interpreted, in `status`, the diff that adds it, the hook's warning and
// the review screen, and each server stays on its own line.
func TestHostileRenderers(t *testing.T) {
	empty := trust.Parse(".agentty/mcp.json", []byte(`{}`), trust.ScopeProject)
	for file, shown := range hostileShown {
		t.Run(file, func(t *testing.T) {
			c := trust.Parse(".agentty/mcp.json", hostile.ReadFixture(file), trust.ScopeProject)
			if !c.Valid() || len(c.Servers) != 1 {
				t.Fatalf("fixture: %v", c.Err)
			}
			var status, diff, warning, review bytes.Buffer
			in := inspection(c, trust.Grants{}, "")
			if err := writeOwnStatus(&status, in, report.NewStyle(false)); err != nil {
				t.Fatal(err)
			}
			changes := trust.Diff(empty, c, nil, nil, trust.Grants{})
			if err := report.WriteDiff(&diff, report.Diff{Old: report.DiffSide{Commit: "empty"}, New: report.DiffSide{Commit: "worktree"}, Changes: changes, Findings: c.Findings}, report.NewStyle(false)); err != nil {
				t.Fatal(err)
			}
			if err := report.WriteWarning(&warning, report.Warning{Op: "clone", Brings: true, Changes: changes, Findings: c.Findings}, report.NewStyle(false)); err != nil {
				t.Fatal(err)
			}
			v := trust.GateVerdict{Verdict: in.Verdicts[0], Blocks: true, Why: trust.GateNew}
			if err := report.WriteReviewItem(&review, report.ReviewItem{Index: 1, Total: 1, Title: "agentty", Entry: gate.AgenttyEntry(&v, c.Path), Findings: c.Findings}, report.NewStyle(false)); err != nil {
				t.Fatal(err)
			}
			for name, out := range map[string]string{"status": status.String(), "diff": diff.String(), "warning": warning.String(), "review": review.String()} {
				if err := terminalSafe(out, false); err != nil {
					t.Errorf("%s: %v\n%s", name, err, out)
				}
				if name != "warning" && !strings.Contains(out, shown[0]) {
					t.Errorf("%s does not show the name as %s:\n%s", name, shown[0], out)
				}
			}
			if !strings.Contains(warning.String(), shown[0]) {
				t.Errorf("the warning does not name the server as %s:\n%s", shown[0], warning.String())
			}
			for _, s := range shown[1:] {
				if !strings.Contains(status.String(), s) || !strings.Contains(review.String(), s) {
					t.Errorf("status or review does not show %s:\n%s\n%s", s, status.String(), review.String())
				}
			}
			if !strings.Contains(status.String(), "MG308") || !strings.Contains(warning.String(), "MG308") {
				t.Errorf("MG308 missing from status or warning:\n%s\n%s", status.String(), warning.String())
			}
			// One server, one line: no forged line reads as trusted.
			var marked []string
			for _, line := range strings.Split(status.String(), "\n") {
				if strings.HasPrefix(line, "  ✓ ") || strings.HasPrefix(line, "  — ") {
					marked = append(marked, line)
				}
			}
			if len(marked) != 1 {
				t.Errorf("%d server lines in status, want 1:\n%s", len(marked), status.String())
			}
		})
	}
}

// TestHostileLongFieldDiff: a look-alike swapped into a long value is
// shown escaped in the inline diff, not as a lone Cyrillic letter that
// reads like the Latin one it replaced.
func TestHostileLongFieldDiff(t *testing.T) {
	a := trust.Parse(".agentty/mcp.json", []byte(`{"mcpServers":{"gh":{"command":"/usr/local/bin/mcp-server-github-official"}}}`), trust.ScopeProject)
	b := trust.Parse(".agentty/mcp.json", []byte(`{"mcpServers":{"gh":{"command":"/usr/local/bin/mcp-server-g\u0456thub-official"}}}`), trust.ScopeProject)
	var out bytes.Buffer
	changes := trust.Diff(a, b, nil, nil, trust.Grants{})
	if err := report.WriteDiff(&out, report.Diff{Old: report.DiffSide{Commit: "worktree"}, New: report.DiffSide{Commit: "worktree"}, Changes: changes}, report.NewStyle(false)); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(out.String(), 'і') || !strings.Contains(out.String(), `\u0456`) {
		t.Errorf("the look-alike is not shown escaped:\n%s", out.String())
	}
}

// TestHostileManyServersStatus: the most servers a repository's file may
// declare (trust.MaxServers) render as that many lines.
func TestHostileManyServersStatus(t *testing.T) {
	n := trust.MaxServers
	c := trust.Parse(".agentty/mcp.json", hostile.Many(n), trust.ScopeProject)
	var out bytes.Buffer
	if err := writeOwnStatus(&out, inspection(c, trust.Grants{}, ""), report.NewStyle(false)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "— "); got != n+1 { // and the legend
		t.Errorf("%d pending lines, want %d", got-1, n)
	}
}

// writeOwnStatus is status of agentty's reading in of a configuration no
// gate stands over, as `status` renders it (one view, Ungated).
func writeOwnStatus(w io.Writer, in *trust.Inspection, st report.Style) error {
	views := []*gate.ClientView{{Client: client.Agentty, Title: "agentty", Inspection: in, Ungated: true,
		Eval: client.ClientEvaluation{Configs: []string{in.Config.Path}, Files: []*trust.Config{in.Config}}}}
	return report.WriteStatusText(w, report.StatusText{Views: views, Titles: client.Titles()}, st)
}
