package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Warning is what a git hook tells the user after a checkout, merge or
// rebase: the servers that need attention, the most dangerous first,
// grouped by client.
type Warning struct {
	// Op names the operation: "clone", "checkout", "merge", "rebase".
	Op string
	// Changes need attention, in the order to show them (trust-preserving
	// first; project.Compare sorts them so), of every client.
	Changes []trust.Change
	// Findings about surfaces the operation added or changed.
	Findings []trust.Finding
	// Removed are the servers the operation removed: named in one line
	// of a warning that has something else to say and is about a client
	// besides agentty (agentty's own warning does not name them); alone,
	// nothing is written.
	Removed []trust.Change
	// ReviewCommands resolve it: "mcp-guard review", "mcp-guard -C sub review".
	ReviewCommands []string
}

// maxWarningLines bounds the warning: a hook must stay a few lines.
const maxWarningLines = 12

// maxRemovedNames bounds the names on the removed line.
const maxRemovedNames = 4

// warningRow is one line of the warning's body; item is false for a
// client's heading.
type warningRow struct {
	text string
	item bool
	wrap bool // a finding: wrapped at word boundaries on a terminal
}

// WriteWarning writes the hook's warning: a heading, one line per server
// (impact, name, what changed, what its client will do: agentty's lines
// exactly as before, other clients' under a heading naming the client and
// in its words), findings, the servers removed, and the command that
// reviews them. It writes nothing when there is nothing to say, removed
// servers alone included.
func WriteWarning(w io.Writer, wr Warning, st Style) error {
	p := &printer{w: w}
	op := wr.Op
	if op == "" {
		op = "operation"
	}
	if len(wr.Changes) == 0 && len(wr.Findings) == 0 {
		// Removals alone stay silent: checking an older branch out
		// removes servers every time, and nothing new can run.
		return nil
	}
	clients := warningClients(wr)
	agents := JoinList(clients, "and")
	if op == "clone" {
		p.printf("%s this clone brings MCP servers %s may run:\n", st.Bold("mcp-guard:"), agents)
	} else {
		p.printf("%s this %s changed what %s may run here:\n", st.Bold("mcp-guard:"), op, agents)
	}

	nameWidth := 0
	names := make([]string, len(wr.Changes))
	for i, c := range wr.Changes {
		names[i] = changeName(c)
		if n := len([]rune(names[i])); n > nameWidth {
			nameWidth = min(n, 24)
		}
	}
	var rows []warningRow
	grouped := len(clients) > 1 || clients[0] != agenttyTitle
	for _, title := range clients {
		indent := "  "
		if grouped {
			indent = "    "
			if hasClient(wr.Changes, title) {
				rows = append(rows, warningRow{text: "  " + st.Bold(title+":")})
			}
		}
		for i, c := range wr.Changes {
			if clientTitle(c.Client) == title {
				rows = append(rows, warningRow{text: fmt.Sprintf("%s%s  %s  %s", indent, impactLabel(c, st), padRight(names[i], nameWidth), changeSummary(c)), item: true})
			}
		}
	}
	for _, f := range wr.Findings {
		rows = append(rows, warningRow{text: fmt.Sprintf("  %s  %s %s: %s", severityLabel(f.Severity, st), f.Rule, Sanitize(f.Path), Sanitize(f.Message)), item: true, wrap: true})
	}
	if len(wr.Removed) > 0 && grouped {
		gone := "they no longer run"
		if len(wr.Removed) == 1 {
			gone = "it no longer runs"
		}
		rows = append(rows, warningRow{text: "  removed: " + removedNames(wr.Removed) + ": " + gone, item: true})
	}
	limit := len(rows)
	if len(rows) > maxWarningLines {
		limit = maxWarningLines - 1
	}
	shown := 0
	for i, r := range rows[:limit] {
		if !r.item && i == limit-1 {
			break // a heading with nothing under it
		}
		if r.wrap {
			p.wrapf(st, "%s\n", r.text)
		} else {
			p.printf("%s\n", r.text)
		}
		if r.item {
			shown++
		}
	}
	if more := countItems(rows) - shown; more > 0 {
		p.printf("  … and %d more\n", more)
	}
	cmds := wr.ReviewCommands
	if len(cmds) == 0 {
		cmds = []string{"mcp-guard review"}
	}
	p.printf("%s review before starting %s: %s\n", st.Bold("mcp-guard:"), JoinList(clients, "or"), strings.Join(cmds, " and "))
	return p.err
}

// JoinList is "a, b and c" (conj "and"), "a, b or c" (conj "or").
func JoinList(items []string, conj string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

func countItems(rows []warningRow) int {
	n := 0
	for _, r := range rows {
		if r.item {
			n++
		}
	}
	return n
}

const agenttyTitle = "agentty"

// clientTitle names a trust.Change client in sentences.
func clientTitle(id string) string {
	if id == "" {
		return agenttyTitle
	}
	if c := client.Lookup(client.ID(id)); c != nil {
		return c.Title()
	}
	return Sanitize(id)
}

// warningClients are the clients the warning is about, agentty first:
// those of the changes, and the client of each file finding (MG70x,
// MG71x: the client whose file it is, or whose CI run); agentty when
// nothing else names one.
func warningClients(wr Warning) []string {
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, c := range wr.Changes {
		if c.Client == "" {
			add(agenttyTitle)
		}
	}
	for _, f := range wr.Findings {
		if findingClient(f) == client.Agentty && !strings.HasPrefix(f.Rule, "MG7") {
			add(agenttyTitle)
		}
	}
	for _, c := range wr.Changes {
		add(clientTitle(c.Client))
	}
	for _, f := range wr.Findings {
		if id := findingClient(f); id != client.Agentty {
			add(clientTitle(string(id)))
		}
	}
	if len(out) == 0 {
		add(agenttyTitle)
	}
	return out
}

// findingClient is the client a finding is about: the client of its
// file (project.PathClient); for a CI workflow, Claude Code for its rules
// (MG70x), otherwise none (MG714 and MG715 name the agent themselves).
func findingClient(f trust.Finding) client.ID {
	if id := project.PathClient(f.Path); id != client.Agentty {
		return id
	}
	if strings.HasPrefix(f.Rule, "MG70") {
		return client.ClaudeCode
	}
	return client.Agentty
}

func hasClient(cs []trust.Change, title string) bool {
	for _, c := range cs {
		if clientTitle(c.Client) == title {
			return true
		}
	}
	return false
}

// removedNames lists removed servers briefly: the name, where nested, and
// the client when it is not agentty.
func removedNames(cs []trust.Change) string {
	var names []string
	for i, c := range cs {
		if i == maxRemovedNames {
			names = append(names, fmt.Sprintf("%d more", len(cs)-i))
			break
		}
		n := changeName(c)
		if c.Client != "" {
			n += " (" + clientTitle(c.Client) + ")"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// WriteHookProblem writes the one line a hook prints when it could not
// finish: it ran out of time (timedOut, after budget) or failed (err), and
// how to check by hand.
func WriteHookProblem(w io.Writer, op string, timedOut bool, budget time.Duration, err error, manual string, st Style) error {
	if op == "" {
		op = "operation"
	}
	op = Sanitize(op)
	what := fmt.Sprintf("gave up after %v checking what this %s changed in what your agents run", budget, op)
	if !timedOut {
		what = fmt.Sprintf("could not check what this %s changed in what your agents run: %s", op, Sanitize(err.Error()))
	}
	_, werr := fmt.Fprintf(w, "%s %s; check by hand: %s\n", st.Bold("mcp-guard:"), what, Sanitize(manual))
	return werr
}

// changeName is the server's name, sanitised, with the launch directory of
// a nested configuration.
func changeName(c trust.Change) string {
	name := Sanitize(c.Server)
	if d := c.LaunchDir(); d != "" {
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
// renamed or enabled again): "unapproved", "preapproved"; and a change
// that alters nothing that runs has "no effect" (not "unchanged" beside
// "(changed)").
func ImpactName(c trust.Change) string {
	switch {
	case c.Impact == trust.ImpactUnchanged:
		return "no effect"
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
	if c.Client != "" && len(c.Reasons) > 0 {
		// Another client's consequence is in its own words (which may
		// already say "added: ").
		why := c.Reasons[0]
		if c.Change == trust.ChangeAdded {
			why = strings.TrimPrefix(why, "added: ")
		}
		return strings.Join(what, ", ") + ": " + Sanitize(why)
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
	case f.Within != "":
		return path + " counted in " + Sanitize(f.Within)
	case f.Submodule != "" && f.New.Mode == "160000":
		return "submodule " + Sanitize(f.Submodule) + " moved to " + Short(f.New.ID) + " (" + path + " runs from it): its new content is not checked yet; after git submodule update, mcp-guard review shows it"
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
