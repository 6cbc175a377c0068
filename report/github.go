package report

import (
	"io"
	"strings"

	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// githubReporter writes GitHub Actions workflow commands: one annotation
// per finding (::error for critical and high, ::warning for medium,
// ::notice below) at the offending key, then the summary as a notice.
type githubReporter struct{ o ScanOptions }

func (g githubReporter) WriteScan(w io.Writer, r *scan.Result) error {
	p := &printer{w: w}
	for _, f := range r.Findings {
		title := f.Rule + " " + f.Slug
		msg := findingMessage(f)
		if f.Commit != "" {
			msg += " (" + Sanitize(commitLine(r, f.Commit)) + ")"
		}
		if fix := trust.RuleByID(f.Rule).Fix(); fix != "" {
			msg += "\nFix: " + fix
		}
		p.printf("::%s file=%s,line=%d,col=%d,title=%s::%s\n", githubLevel(f.Severity),
			githubProperty(Sanitize(f.Path)), max(f.Line, 1), max(f.Column, 1), githubProperty(title), githubData(msg))
	}
	for _, c := range r.Changes {
		if !c.Impact.NeedsAttention() {
			continue
		}
		level := "notice"
		if c.Impact == trust.ImpactTrustPreserving || c.Impact == trust.ImpactNewPreapproved {
			level = "warning"
		}
		p.printf("::%s file=%s,title=%s::%s\n", level, githubProperty(Sanitize(c.Path)),
			githubProperty("mcp-guard "+string(c.Impact)), githubData(changeName(c)+": "+changeSummary(c)))
	}
	for _, n := range r.Notes {
		p.printf("::warning title=mcp-guard::%s\n", githubData(Sanitize(n)))
	}
	p.printf("::notice title=mcp-guard::%s\n", githubData(summaryLine(r, g.o.FailOn)))
	return p.err
}

func githubLevel(s trust.Severity) string {
	switch s {
	case trust.SeverityCritical, trust.SeverityHigh:
		return "error"
	case trust.SeverityMedium:
		return "warning"
	}
	return "notice"
}

// githubData escapes the message of a workflow command.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a property value of a workflow command, which
// also ends at a colon or comma.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
