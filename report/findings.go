package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// textReporter writes findings for people: one line per finding in the
// compilers' file:line:col form, then a summary. Every string from the
// repository is sanitised.
type textReporter struct{ o ScanOptions }

func (t textReporter) WriteScan(w io.Writer, r *scan.Result) error {
	st := t.o.Style
	p := &printer{w: w}
	for _, f := range r.Findings {
		p.wrapf(st, "%s:%d:%d: %s %s %s: %s\n", Sanitize(f.Path), f.Line, f.Column,
			severityMark(f.Severity, st), f.Rule, f.Slug, findingMessage(f))
		if f.Commit != "" {
			p.printf("    %s\n", st.Dim(commitLine(r, f.Commit)))
		}
		if fix := trust.RuleByID(f.Rule).Fix(); fix != "" {
			p.printf("    %s\n", st.Dim("fix: "+fix))
		}
	}
	if r.Target == scan.TargetDiff && len(r.Changes) > 0 {
		if len(r.Findings) > 0 {
			p.printf("\n")
		}
		p.printf("%s\n", st.Bold("Approval impact of merging, "+ImpactBasis+":"))
		var width nameColumn
		for _, c := range r.Changes {
			width.fit(changeName(c))
		}
		agent := ""
		for _, c := range r.Changes {
			if a := t.o.Agents.title(c.Client); a != agent {
				agent = a
				p.printf("  %s:\n", st.Bold(a))
			}
			name, cut := width.cell(changeName(c))
			summary := changeSummary(c)
			if cut {
				summary = changeName(c) + ": " + summary
			}
			p.printf("    %s  %s  %s\n", impactLabel(c, st), name, summary)
		}
	}
	if len(r.Findings) > 0 || (r.Target == scan.TargetDiff && len(r.Changes) > 0) {
		p.printf("\n")
	}
	p.printf("%s\n", summaryLine(r, t.o.FailOn))
	for _, n := range r.Notes {
		p.printf("%s %s\n", st.Warning("note:"), Sanitize(n))
	}
	return p.err
}

// ImpactBasis is whose approvals scan --diff's impact is judged by: it
// reads none of the machine's agent state (scan.Result.Changes).
const ImpactBasis = "for a user who approved every agentty server at the base and holds no other agent's approval (no state of this machine is read)"

// commitLine describes the commit a history finding was introduced in.
func commitLine(r *scan.Result, id string) string {
	c, ok := r.Commits[id]
	if !ok {
		return "introduced in " + Short(id)
	}
	who := Sanitize(c.Author)
	if c.Email != "" {
		who += " <" + Sanitize(c.Email) + ">"
	}
	return fmt.Sprintf("introduced in %s by %s on %s", Short(id), who, c.Time.UTC().Format(time.DateOnly))
}

// summaryLine counts what was found: "3 findings (1 critical, 2 high) in
// 2 files; 1 suppressed".
func summaryLine(r *scan.Result, failOn string) string {
	var b strings.Builder
	files := Count(r.Files, "file", "files")
	where := "in " + files
	if r.Target == scan.TargetHistory {
		where = fmt.Sprintf("in %s of history", Count(r.CommitsScanned, "commit", "commits"))
	}
	if r.Target == scan.TargetDiff {
		where = fmt.Sprintf("introduced by %s..%s", Short(r.Base), Short(r.Side))
	}
	if len(r.Findings) == 0 {
		fmt.Fprintf(&b, "no findings %s", where)
	} else {
		counts := countBySeverity(r.Findings)
		var parts []string
		for _, s := range severities {
			if counts[s] > 0 {
				parts = append(parts, num(counts[s])+" "+string(s))
			}
		}
		fmt.Fprintf(&b, "%s (%s) %s", Count(len(r.Findings), "finding", "findings"), strings.Join(parts, ", "), where)
	}
	if n := len(r.Suppressed); n > 0 {
		fmt.Fprintf(&b, "; %s suppressed", num(n))
	}
	if failOn != "" && failOn != "none" {
		fmt.Fprintf(&b, " (failing at %s and above)", failOn)
	}
	return b.String()
}

// ScanVersion is the version of the `scan --format json` document. Fields
// are only ever added within a version.
const ScanVersion = 1

// ScanDoc is the `scan --format json` document, version 1.
type ScanDoc struct {
	Version    int              `json:"version"`
	Tool       ScanTool         `json:"tool"`
	Target     string           `json:"target"`
	Side       string           `json:"side,omitempty"`
	Base       string           `json:"base,omitempty"`
	Findings   []ScanFinding    `json:"findings"`
	Suppressed []ScanSuppressed `json:"suppressed"`
	Changes    []ScanChange     `json:"changes,omitempty"`
	Summary    ScanSummary      `json:"summary"`
	Notes      []string         `json:"notes"`
}

// ScanTool names the tool that wrote the document.
type ScanTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// ScanFinding is one finding. Key is the JSON key it concerns and
// Fingerprint its stable identity (the same across runs and line moves);
// Commit, Author and Date are set by history scans.
type ScanFinding struct {
	Rule        string `json:"rule"`
	Slug        string `json:"slug"`
	Severity    string `json:"severity"`
	Path        string `json:"path"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
	Server      string `json:"server"`
	Message     string `json:"message"`
	Key         string `json:"key"`
	Fingerprint string `json:"fingerprint"`
	// Fix is the rule's one-line fix (trust.Rule.Fix).
	Fix    string `json:"fix"`
	Commit string `json:"commit,omitempty"`
	Author string `json:"author,omitempty"`
	Date   string `json:"date,omitempty"`
}

// ScanSuppressed is a finding the ignore file or the baseline suppressed.
type ScanSuppressed struct {
	ScanFinding
	Reason string `json:"reason"`
}

// ScanChange is one server change of a diff and its approval impact.
type ScanChange struct {
	Path    string            `json:"path"`
	Server  string            `json:"server"`
	Change  string            `json:"change"`
	OldName string            `json:"old_name,omitempty"`
	Impact  string            `json:"impact"`
	Fields  []ScanFieldChange `json:"fields"`
	Files   []ScanFileChange  `json:"files"`
	Reasons []string          `json:"reasons"`
}

// ScanFieldChange is one key of a server entry that changed (canonical
// JSON text, "" when absent).
type ScanFieldChange struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// ScanFileChange is one repository file a server runs that changed
// (object ids, "" when absent).
type ScanFileChange struct {
	Path string `json:"path"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// ScanSummary counts the findings.
type ScanSummary struct {
	Files      int            `json:"files"`
	Commits    int            `json:"commits,omitempty"`
	Findings   int            `json:"findings"`
	BySeverity map[string]int `json:"by_severity"`
	ByRule     map[string]int `json:"by_rule"`
	Suppressed int            `json:"suppressed"`
	Shallow    bool           `json:"shallow"`
}

// NewScanDoc builds the JSON document of a scan.
func NewScanDoc(r *scan.Result, version string) ScanDoc {
	doc := ScanDoc{
		Version: ScanVersion, Tool: ScanTool{Name: "mcp-guard", Version: version},
		Target: string(r.Target), Side: r.Side, Base: r.Base,
		Findings: []ScanFinding{}, Suppressed: []ScanSuppressed{}, Notes: append([]string{}, r.Notes...),
	}
	for _, f := range r.Findings {
		doc.Findings = append(doc.Findings, scanFinding(r, f))
	}
	for _, s := range r.Suppressed {
		doc.Suppressed = append(doc.Suppressed, ScanSuppressed{ScanFinding: scanFinding(r, s.Finding), Reason: s.Reason})
	}
	for _, c := range r.Changes {
		sc := ScanChange{Path: c.Path, Server: c.Server, Change: string(c.Change), OldName: c.OldName, Impact: string(c.Impact),
			Fields: []ScanFieldChange{}, Files: []ScanFileChange{}, Reasons: append([]string{}, c.Reasons...)}
		for _, f := range c.Fields {
			sc.Fields = append(sc.Fields, ScanFieldChange{Field: f.Field, Old: f.Old, New: f.New})
		}
		for _, f := range c.Files {
			sc.Files = append(sc.Files, ScanFileChange{Path: f.Path, Old: f.Old.ID, New: f.New.ID})
		}
		doc.Changes = append(doc.Changes, sc)
	}
	doc.Summary = ScanSummary{Files: r.Files, Commits: r.CommitsScanned, Findings: len(r.Findings),
		BySeverity: map[string]int{}, ByRule: map[string]int{}, Suppressed: len(r.Suppressed), Shallow: r.Shallow}
	for s, n := range countBySeverity(r.Findings) {
		doc.Summary.BySeverity[string(s)] = n
	}
	for _, f := range r.Findings {
		doc.Summary.ByRule[f.Rule]++
	}
	return doc
}

func scanFinding(r *scan.Result, f trust.Finding) ScanFinding {
	sf := ScanFinding{Rule: f.Rule, Slug: f.Slug, Severity: string(f.Severity), Path: f.Path, Line: f.Line, Column: f.Column,
		Server: f.Server, Message: f.Message, Key: f.Key, Fingerprint: FindingHash(f), Commit: f.Commit,
		Fix: trust.RuleByID(f.Rule).Fix()}
	if c, ok := r.Commits[f.Commit]; ok && f.Commit != "" {
		sf.Author = c.Author
		if c.Email != "" {
			sf.Author += " <" + c.Email + ">"
		}
		sf.Date = c.Time.UTC().Format(time.RFC3339)
	}
	return sf
}

// jsonReporter writes the versioned JSON document.
type jsonReporter struct{ o ScanOptions }

func (j jsonReporter) WriteScan(w io.Writer, r *scan.Result) error {
	return WriteJSON(w, NewScanDoc(r, j.o.Version))
}
