package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// markdownReporter writes GitHub-flavoured Markdown for a job summary or a
// pull-request comment: per agent, what merging lets it run without
// asking (a --diff scan), then the findings table. Every repository string
// is sanitised and set in a code span, so a server name or message cannot
// add markup, links, HTML or @mentions to the page it lands on.
type markdownReporter struct{ o ScanOptions }

// markdownMaxRows caps each table: a pull-request comment holds at most
// 65,536 characters. What is left out is counted.
const markdownMaxRows = 100

func (m markdownReporter) WriteScan(w io.Writer, r *scan.Result) error {
	p := &printer{w: w}
	p.printf("### mcp-guard\n\n")
	if r.Target == scan.TargetDiff {
		m.impact(p, r)
	}
	p.printf("#### Findings\n\n%s\n\n", mdText(summaryLine(r, m.o.FailOn)))
	if len(r.Findings) > 0 {
		p.printf("| severity | rule | where | what |\n|---|---|---|---|\n")
		for i, f := range r.Findings {
			if i == markdownMaxRows {
				p.printf("\n%s are in the job log and the SARIF report.\n", Count(len(r.Findings)-i, "more finding", "more findings"))
				break
			}
			msg := findingMessage(f)
			if f.Commit != "" {
				msg += " (" + commitLine(r, f.Commit) + ")"
			}
			p.printf("| %s | %s %s | %s | %s |\n", f.Severity, f.Rule, f.Slug,
				mdCell(fmt.Sprintf("%s:%d", Sanitize(f.Path), max(f.Line, 1))), mdCell(msg))
		}
		p.printf("\n")
	}
	for _, n := range r.Notes {
		p.printf("> **note:** %s\n", mdCode(Sanitize(n)))
	}
	if len(r.Notes) > 0 {
		p.printf("\n")
	}
	p.printf("<sub>mcp-guard %s read the configuration; it ran none of it.</sub>\n", mdText(m.o.Version))
	return p.err
}

// impact writes, per agent, what merging lets it run without asking, and
// the table of every change that needs attention.
func (m markdownReporter) impact(p *printer, r *scan.Result) {
	p.printf("#### What merging lets each agent run without asking\n\n")
	var agents []string
	byAgent := map[string][]trust.Change{}
	for _, c := range r.Changes {
		if !c.Impact.NeedsAttention() {
			continue
		}
		a := m.o.Agents.title(c.Client)
		if _, ok := byAgent[a]; !ok {
			agents = append(agents, a)
		}
		byAgent[a] = append(byAgent[a], c)
	}
	if len(agents) == 0 {
		p.printf("Nothing: this change adds or changes no server any agent runs.\n\n")
		return
	}
	p.printf("%s:\n\n", strings.ToUpper(ImpactBasis[:1])+ImpactBasis[1:])
	for _, a := range agents {
		var runs, asks []string
		for _, c := range byAgent[a] {
			if c.Impact == trust.ImpactTrustPreserving || c.Impact == trust.ImpactNewPreapproved {
				runs = append(runs, mdCode(changeName(c)))
			} else {
				asks = append(asks, mdCode(changeName(c)))
			}
		}
		line := "- **" + mdText(a) + "**: "
		if len(runs) > 0 {
			line += "runs without asking: " + strings.Join(runs, ", ")
		} else {
			line += "runs nothing new without asking"
		}
		if len(asks) > 0 {
			line += "; asks first: " + strings.Join(asks, ", ")
		}
		p.printf("%s\n", line)
	}
	p.printf("\n| agent | server | impact | what changed |\n|---|---|---|---|\n")
	n := 0
	for _, a := range agents {
		for _, c := range byAgent[a] {
			if n == markdownMaxRows {
				p.printf("\nMore changes are in the job log.\n")
				p.printf("\n")
				return
			}
			n++
			impact := ImpactName(c)
			if c.Impact == trust.ImpactTrustPreserving || c.Impact == trust.ImpactNewPreapproved {
				impact = "**" + impact + "**"
			}
			p.printf("| %s | %s | %s | %s |\n", mdText(a), mdCell(changeName(c)), impact, mdCell(changeSummary(c)))
		}
	}
	p.printf("\n")
}

// mdCode sets s (sanitised text) in a code span that holds it whole: a
// fence longer than any run of backticks in it, padded when it starts or
// ends with one. Nothing in a code span is markup, a link or a mention.
func mdCode(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdCell is mdCode for a table cell: GitHub splits a row at a pipe even
// inside a code span, unless the pipe is escaped.
func mdCell(s string) string { return strings.ReplaceAll(mdCode(s), "|", `\|`) }

// mdText escapes text mcp-guard wrote (agent titles, the summary line;
// any repository part already sanitised) for Markdown: every ASCII
// punctuation mark that could start markup.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]<>()#+-.!|~@&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
