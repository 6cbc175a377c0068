package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/trust"
)

// Warning is what a git hook tells the user after a checkout, merge or
// rebase: the servers that need attention, the most dangerous first.
type Warning struct {
	// Op names the operation: "clone", "checkout", "merge", "rebase".
	Op string
	// Changes need attention, in the order to show them (trust-preserving
	// first; project.Compare sorts them so).
	Changes []trust.Change
	// Findings about surfaces the operation added or changed.
	Findings []trust.Finding
	// ReviewCommands resolve it: "mcp-guard review", "mcp-guard -C sub review".
	ReviewCommands []string
}

// maxWarningLines bounds the warning: a hook must stay a few lines.
const maxWarningLines = 12

// WriteWarning writes the hook's warning: a heading, one line per server
// (impact, name, what changed, what agentty will do), findings, and the
// command that reviews them. It writes nothing when there is nothing to
// say.
func WriteWarning(w io.Writer, wr Warning, st Style) error {
	if len(wr.Changes) == 0 && len(wr.Findings) == 0 {
		return nil
	}
	p := &printer{w: w}
	op := wr.Op
	if op == "" {
		op = "operation"
	}
	if op == "clone" {
		p.printf("%s this clone brings MCP servers agentty may run:\n", st.Bold("mcp-guard:"))
	} else {
		p.printf("%s this %s changed what agentty may run here:\n", st.Bold("mcp-guard:"), op)
	}

	nameWidth := 0
	names := make([]string, len(wr.Changes))
	for i, c := range wr.Changes {
		names[i] = changeName(c)
		if n := len([]rune(names[i])); n > nameWidth {
			nameWidth = min(n, 24)
		}
	}
	lines := 0
	for i, c := range wr.Changes {
		if lines == maxWarningLines-1 && len(wr.Changes)+len(wr.Findings) > maxWarningLines {
			break
		}
		p.printf("  %s  %s  %s\n", impactLabel(c, st), padRight(names[i], nameWidth), changeSummary(c))
		lines++
	}
	for _, f := range wr.Findings {
		if lines == maxWarningLines-1 && len(wr.Changes)+len(wr.Findings) > maxWarningLines {
			break
		}
		p.wrapf(st, "  %s  %s %s: %s\n", severityLabel(f.Severity, st), f.Rule, Sanitize(f.Path), Sanitize(f.Message))
		lines++
	}
	if more := len(wr.Changes) + len(wr.Findings) - lines; more > 0 {
		p.printf("  … and %d more\n", more)
	}
	cmds := wr.ReviewCommands
	if len(cmds) == 0 {
		cmds = []string{"mcp-guard review"}
	}
	p.printf("%s review before starting agentty: %s\n", st.Bold("mcp-guard:"), strings.Join(cmds, " and "))
	return p.err
}

// WriteHookProblem writes the one line a hook prints when it could not
// finish: it ran out of time (timedOut, after budget) or failed (err), and
// how to check by hand.
func WriteHookProblem(w io.Writer, op string, timedOut bool, budget time.Duration, err error, manual string, st Style) error {
	if op == "" {
		op = "operation"
	}
	op = Sanitize(op)
	what := fmt.Sprintf("gave up after %v checking what this %s changed in agentty's MCP servers", budget, op)
	if !timedOut {
		what = fmt.Sprintf("could not check what this %s changed in agentty's MCP servers: %s", op, Sanitize(err.Error()))
	}
	_, werr := fmt.Fprintf(w, "%s %s; check by hand: %s\n", st.Bold("mcp-guard:"), what, Sanitize(manual))
	return werr
}

// changeName is the server's name, sanitised, with the launch directory of
// a nested configuration.
func changeName(c trust.Change) string {
	name := Sanitize(c.Server)
	if d := trust.LaunchDir(c.Path); d != "" {
		name += " (in " + Sanitize(d) + "/)"
	}
	return name
}

// impactLabel is the impact of c as people read it, padded to the longest
// one, coloured by danger.
func impactLabel(c trust.Change, st Style) string {
	i := c.Impact
	text := padRight(ImpactName(c), len(trust.ImpactTrustPreserving))
	switch i {
	case trust.ImpactTrustPreserving, trust.ImpactNewPreapproved:
		return st.Danger(text)
	case trust.ImpactInvalidated:
		return st.Warning(text)
	case trust.ImpactNewUnapproved:
		return st.Pending(text)
	}
	return text
}

// ImpactName is the impact's name for people: the JSON value (stable),
// except that "new-" is dropped for a server that is not new (changed,
// renamed or enabled again): "unapproved", "preapproved".
func ImpactName(c trust.Change) string {
	switch {
	case c.Change == trust.ChangeAdded:
	case c.Impact == trust.ImpactNewUnapproved:
		return "unapproved"
	case c.Impact == trust.ImpactNewPreapproved:
		return "preapproved"
	}
	return string(c.Impact)
}

// severityLabel is a finding's severity in the impact column.
func severityLabel(s trust.Severity, st Style) string {
	text := padRight(string(s), len(trust.ImpactTrustPreserving))
	if s.Rank() >= trust.SeverityHigh.Rank() {
		return st.Danger(text)
	}
	return st.Warning(text)
}

// changeSummary says in a few words what changed and what agentty will do.
func changeSummary(c trust.Change) string {
	var what []string
	switch c.Change {
	case trust.ChangeAdded:
		what = append(what, "added")
	case trust.ChangeRenamed:
		what = append(what, "renamed from "+Sanitize(c.OldName))
	}
	for _, f := range c.Fields {
		what = append(what, Sanitize(f.Field)+" "+fieldVerb(f.Old, f.New))
	}
	for _, f := range c.Files {
		what = append(what, fileVerb(c, f))
	}
	if len(what) == 0 {
		what = append(what, "its approval changed")
	}
	if len(what) > 3 {
		what = append(what[:3], fmt.Sprintf("%d more", len(what)-3))
	}
	return strings.Join(what, ", ") + ": " + impactConsequence(c.Impact)
}

func fieldVerb(old, new string) string {
	switch {
	case old == "":
		return "added"
	case new == "":
		return "removed"
	}
	return "changed"
}

// fileVerb says what happened to a file of c's code scope. A zero side
// means the server did not run it there, not that the file was absent.
func fileVerb(c trust.Change, f trust.FileChange) string {
	path := Sanitize(f.Path)
	switch {
	case c.Change == trust.ChangeAdded:
		return "runs " + path
	case f.Old.ID == "":
		return "now runs " + path
	case f.New.ID == "":
		return "no longer runs " + path
	}
	return path + " changed"
}

func impactConsequence(i trust.Impact) string {
	switch i {
	case trust.ImpactTrustPreserving:
		return "agentty still runs it without asking"
	case trust.ImpactInvalidated:
		return "agentty will ask again before running it"
	case trust.ImpactNewPreapproved:
		return "agentty runs it without asking"
	case trust.ImpactNewUnapproved:
		return "agentty will ask before running it"
	case trust.ImpactRemoved:
		return "it no longer runs"
	}
	return "unchanged"
}
