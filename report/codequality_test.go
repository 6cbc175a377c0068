package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// compileSchema compiles the JSON schema in testdata/name.
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// TestCodeQualityFormat validates --format codequality against GitLab's
// documented Code Quality report format, and checks what GitLab relies on
// beyond the shape: fingerprints unique in a report, every finding and
// every change that needs attention reported, nothing else.
func TestCodeQualityFormat(t *testing.T) {
	schema := compileSchema(t, "gitlab-codequality.schema.json")
	empty := &scan.Result{Target: scan.TargetWorkTree}
	twice := scanResult(t)
	twice.Findings = append(twice.Findings, twice.Findings...) // one identity twice
	for name, res := range map[string]*scan.Result{"worktree": scanResult(t), "history": historyResult(t), "diff": diffResult(t), "empty": empty, "twice": twice} {
		out := render(t, "codequality", res)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: the Code Quality report does not validate: %v", name, err)
		}
		var issues []struct{ Fingerprint, Severity, CheckName string }
		if err := json.Unmarshal(out, &issues); err != nil {
			t.Fatal(err)
		}
		want := len(res.Findings)
		for _, c := range res.Changes {
			if c.Impact.NeedsAttention() {
				want++
			}
		}
		if len(issues) != want {
			t.Errorf("%s: %d issues, want %d", name, len(issues), want)
		}
		seen := map[string]bool{}
		for _, is := range issues {
			if seen[is.Fingerprint] {
				t.Errorf("%s: fingerprint %s twice: GitLab would show one issue", name, is.Fingerprint)
			}
			seen[is.Fingerprint] = true
		}
	}
	for s, want := range map[trust.Severity]string{trust.SeverityCritical: "blocker", trust.SeverityHigh: "critical", trust.SeverityMedium: "major", trust.SeverityLow: "minor", trust.SeverityInfo: "info"} {
		if got := codeQualitySeverity(s); got != want {
			t.Errorf("severity %s: %s, want %s", s, got, want)
		}
	}
}

// stripCodeSpans removes CommonMark code spans from a line: a run of n
// backticks opens one, the next run of exactly n closes it.
func stripCodeSpans(line string) string {
	var b strings.Builder
	run := func(i int) int {
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		return j - i
	}
	for i := 0; i < len(line); {
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := run(i)
		j := i + n
		for j < len(line) {
			if line[j] == '`' {
				if m := run(j); m == n {
					break
				} else {
					j += m
				}
				continue
			}
			j++
		}
		if j >= len(line) { // unclosed: literal backticks
			b.WriteString(line[i : i+n])
			i += n
			continue
		}
		i = j + n
	}
	return b.String()
}

// TestMarkdownHostile: repository text in a job summary or pull-request
// comment stays text: no mention, link, image, HTML, heading or extra
// table cell gets out of its code span.
func TestMarkdownHostile(t *testing.T) {
	hostile := "@octocat <img src=x onerror=alert(1)> [click](https://evil.example) ``` | # h\n## injected |x|"
	res := &scan.Result{Target: scan.TargetDiff, Files: 1, Base: strings.Repeat("a", 40), Side: strings.Repeat("b", 40),
		Findings: []trust.Finding{{Rule: "MG201", Slug: "fetch-and-exec", Severity: trust.SeverityCritical,
			Path: "x/`|@octocat/.mcp.json", Line: 2, Server: hostile, Message: hostile}},
		Changes: []trust.Change{{Client: "claude-code", Path: ".mcp.json", Server: hostile, Change: trust.ChangeAdded,
			Impact: trust.ImpactNewPreapproved, Reasons: []string{hostile}}},
		Notes: []string{hostile},
	}
	out := string(render(t, "markdown", res))
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "|") {
			cells := strings.Split(strings.ReplaceAll(line, `\|`, ""), "|")
			if len(cells) != 6 { // four cells between five pipes
				t.Errorf("a row with %d cells: %s", len(cells)-2, line)
			}
		}
		rest := stripCodeSpans(strings.ReplaceAll(line, `\|`, ""))
		for _, bad := range []string{"@octocat", "<img", "](", "## injected", "```"} {
			if strings.Contains(rest, bad) {
				t.Errorf("%q escaped its code span: %s", bad, line)
			}
		}
	}
	if !strings.Contains(out, "**Claude Code**: runs without asking: ") {
		t.Errorf("no per-agent line:\n%s", out)
	}
}
