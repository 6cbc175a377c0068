package report_test

// Fuzz targets for the text renderers (issue 7): whatever a repository
// holds, what mcp-guard writes to a terminal is valid UTF-8 whose only
// control byte is the newline (and, with colour on, mcp-guard's own SGR
// sequences), with no invisible, bidi or look-alike text on any line.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/internal/hostile"
	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

// ownSGR are the sequences report.Style writes; nothing else may start
// with ESC.
var ownSGR = []string{"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[32m", "\x1b[33m", "\x1b[1;33m", "\x1b[1;31m"}

// terminalSafe fails on output a terminal could interpret or a person
// could misread: invalid UTF-8, a control byte other than the newline, an
// ESC that is not one of mcp-guard's own colours (only when color is set),
// or a line that is not textsafe.Clean (invisible, bidi, look-alike text).
func terminalSafe(out string, color bool) error {
	if !utf8.ValidString(out) {
		return errors.New("invalid UTF-8")
	}
	if color {
		for _, sgr := range ownSGR {
			out = strings.ReplaceAll(out, sgr, "")
		}
	}
	for n, line := range strings.Split(out, "\n") {
		if !textsafe.Clean(line) {
			for i, r := range line {
				if textsafe.Unsafe(r) {
					return fmt.Errorf("line %d: unsafe rune %U at byte %d: %q", n+1, r, i, line)
				}
			}
			return fmt.Errorf("line %d: a word mixes scripts (%v): %q", n+1, textsafe.MixedScript(line), line)
		}
	}
	return nil
}

// addConfigSeeds seeds a target with every configuration the repository
// has: the hostile fixtures, the parser's golden inputs, the catalogue of
// deceptive strings and the real-world corpus.
func addConfigSeeds(add func(data []byte)) {
	for _, pattern := range []string{
		filepath.Join(hostile.FixtureDir(), "*.json"),
		filepath.Join("..", "trust", "testdata", "parse", "*.json"),
		filepath.Join("..", "testdata", "corpus", "realworld", "*.json"),
	} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				add(data)
			}
		}
	}
	for _, d := range hostile.Deceptive {
		add(hostile.DeceptiveConfig(d.Value))
	}
}

// inspection builds what `status` shows for a parsed configuration.
func inspection(c *trust.Config, g trust.Grants, note string) *trust.Inspection {
	in := &trust.Inspection{
		Dir:      "/launch",
		Location: trust.Location{Path: "/launch/" + c.Path, Scope: c.Scope, Note: note},
		Config:   c,
		Verdicts: trust.Evaluate(c, g),
		Findings: c.Findings,
	}
	if note != "" {
		in.StoreErr = errors.New(note)
	}
	return in
}

func grantsOf(mode uint8) trust.Grants {
	switch mode % 4 {
	case 1:
		return trust.Grants{AllowProject: "1"}
	case 2:
		return trust.Grants{Approved: func(string) bool { return true }}
	case 3:
		return trust.Grants{Approved: func(h string) bool { return h != "" && h[0] < '8' }}
	}
	return trust.Grants{}
}

// FuzzStatusText: `status` text of any configuration (any scope, any
// grants, any note) is terminal-safe with and without colour; an invalid
// configuration shows no server; the JSON document is valid JSON.
func FuzzStatusText(f *testing.F) {
	addConfigSeeds(func(data []byte) { f.Add(data, uint8(0), "") })
	f.Add([]byte(`{"mcpServers":{"a":{"command":"x"}}}`), uint8(5), "note\x1b]0;t\x07 g\u0456t")
	scopes := []trust.Scope{trust.ScopeProject, trust.ScopeUser, trust.ScopeExplicit}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8, note string) {
		c := trust.Parse(".agentty/mcp.json", data, scopes[int(mode/4)%len(scopes)])
		in := inspection(c, grantsOf(mode), note)
		views := []*gate.ClientView{{Client: client.Agentty, Title: "agentty", Inspection: in, Ungated: true, Eval: client.ClientEvaluation{Configs: []string{c.Path}, Files: []*trust.Config{c}}}}
		for _, color := range []bool{false, true} {
			var b bytes.Buffer
			if err := writeOwnStatus(&b, in, report.NewStyle(color)); err != nil {
				t.Fatal(err)
			}
			if err := terminalSafe(b.String(), color); err != nil {
				t.Fatalf("status (colour %v): %v\n%s", color, err, b.String())
			}
			if !c.Valid() && (len(in.Verdicts) != 0 || !strings.Contains(b.String(), "invalid:")) {
				t.Fatalf("an invalid configuration shows servers:\n%s", b.String())
			}
		}
		var j bytes.Buffer
		if err := report.WriteJSON(&j, report.NewStatusDoc(views, nil, nil)); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(j.Bytes()) {
			t.Fatalf("status --json is not JSON:\n%s", j.Bytes())
		}
	})
}

// FuzzDiffText: the diff of any two configurations, its review screens and
// the hook's warning are terminal-safe; a configuration compared with
// itself says nothing changed.
func FuzzDiffText(f *testing.F) {
	var seeds [][]byte
	addConfigSeeds(func(data []byte) { seeds = append(seeds, data) })
	for i, a := range seeds {
		f.Add(a, seeds[(i+1)%len(seeds)], uint8(i), "")
	}
	f.Add([]byte(`{"mcpServers":{"a":{"command":"/usr/local/bin/mcp-server-github","args":["--token-file","~/.config/github/token"]}}}`),
		[]byte(`{"mcpServers":{"a":{"command":"/usr/local/bin/mcp-server-g\u0456thub","args":["--token-file","~/.config/github/token"]}}}`), uint8(2), "HEAD~1")
	f.Fuzz(func(t *testing.T, a, b []byte, mode uint8, rev string) {
		path := ".agentty/mcp.json"
		if mode&0x10 != 0 {
			path = "sub\u202e/x\x1b[2J/.agentty/mcp.json"
		}
		ca := trust.Parse(path, a, trust.ScopeProject)
		cb := trust.Parse(path, b, trust.ScopeProject)
		g := grantsOf(mode)
		files := trust.Files{}
		for _, s := range ca.Servers {
			files[s.Name] = []trust.FileID{{Path: "server.js", Object: trust.Object{Mode: "100644", ID: "1111111111111111111111111111111111111111"}}}
		}
		changes := trust.Diff(ca, cb, files, files, g)
		findings := append(append([]trust.Finding{}, ca.Findings...), cb.Findings...)
		d := report.Diff{
			Old:     report.DiffSide{Rev: rev, Commit: "0123456789abcdef0123456789abcdef01234567"},
			New:     report.DiffSide{Commit: "worktree"},
			Changes: changes, Findings: findings,
		}
		for _, color := range []bool{false, true} {
			st := report.NewStyle(color)
			var out bytes.Buffer
			if err := report.WriteDiff(&out, d, st); err != nil {
				t.Fatal(err)
			}
			if err := report.WriteWarning(&out, report.Warning{Op: "merge", Changes: changes, Findings: findings}, st); err != nil {
				t.Fatal(err)
			}
			for i, c := range changes {
				s := c.New
				if s == nil {
					s = c.Old
				}
				v := trust.GateVerdict{Verdict: trust.Verdict{Server: s, Reason: trust.ReasonPending}, Blocks: true, Why: trust.GateChanged}
				cc := c
				it := report.ReviewItem{Index: i + 1, Total: len(changes), Title: "agentty", Entry: gate.AgenttyEntry(&v, path), Since: &cc, Findings: findings}
				if err := report.WriteReviewItem(&out, it, st); err != nil {
					t.Fatal(err)
				}
				if err := report.WriteBlockingList(&out, []*gate.ClientView{{Title: "agentty"}}, [][]gate.ClientServer{{gate.AgenttyEntry(&v, path)}}, nil, "", st); err != nil {
					t.Fatal(err)
				}
			}
			if err := terminalSafe(out.String(), color); err != nil {
				t.Fatalf("diff (colour %v): %v\n%s", color, err, out.String())
			}
		}
		for _, c := range trust.Diff(cb, cb, files, files, g) {
			if c.Impact.NeedsAttention() {
				t.Fatalf("a configuration compared with itself: %s %s", c.Server, c.Impact)
			}
		}
		var j bytes.Buffer
		if err := report.WriteJSON(&j, report.NewDiffDoc(d)); err != nil || !json.Valid(j.Bytes()) {
			t.Fatalf("diff --json: %v\n%s", err, j.Bytes())
		}
	})
}

// FuzzHookProblem: the line a hook prints when it gives up is one
// terminal-safe line whatever the operation, error and manual command.
func FuzzHookProblem(f *testing.F) {
	f.Add("merge", false, "fatal: bad object 1234", "mcp-guard diff ORIG_HEAD HEAD")
	f.Add("checkout", true, "", "mcp-guard diff 0000 \x1b[2Jabcd")
	f.Add("", false, "open .git/\u202eobjects: no such file\nfatal", "mcp-guard check")
	f.Fuzz(func(t *testing.T, op string, timedOut bool, msg, manual string) {
		for _, color := range []bool{false, true} {
			var b bytes.Buffer
			err := report.WriteHookProblem(&b, op, timedOut, 5*time.Second, errors.New(msg), manual, report.NewStyle(color))
			if err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
				t.Fatalf("not one line: %q", out)
			}
			if err := terminalSafe(out, color); err != nil {
				t.Fatalf("%v: %q", err, out)
			}
		}
	})
}
