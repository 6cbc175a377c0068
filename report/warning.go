package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/trust"
)

// Warning is what a git hook tells the user after a checkout, merge or
// rebase: the servers that need attention, the most dangerous first,
// grouped by client.
type Warning struct {
	// Op names the operation: "clone", "worktree", "checkout", "merge",
	// "rebase".
	Op string
	// Brings is set when the operation started from no files (a clone, a
	// new worktree, a checkout onto an unborn branch): everything is new,
	// and the heading names what the operation brings, kind by kind.
	Brings bool
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
	// Dormant are servers the operation changed that their agent runs
	// nothing of here without asking (Gemini CLI or Codex in a folder the
	// user has not trusted, Qwen Code before its approval): one line, so
	// that the warning does not leave them out without a word. The hook
	// hands only those of the agents the user keeps state of
	// (client.State.InUse).
	Dormant []trust.Change
	// ReviewCommands resolve it: "mcp-guard review", "mcp-guard -C sub review".
	// ScanCommands show the findings, each with its fix, for a warning of
	// findings alone: "mcp-guard scan", "mcp-guard -C sub scan".
	ReviewCommands, ScanCommands []string
	// Agents names the agents of Changes; FindingClients[i] is the client
	// Findings[i] is about, in the same form ("" for agentty).
	Agents         Agents
	FindingClients []string
}

// maxWarningLines bounds the warning's body: a hook must stay a few
// lines. Over it, each agent keeps a share and a count of what it left out.
const maxWarningLines = 20

// maxRemovedNames bounds the names on the removed line.
const maxRemovedNames = 4

// maxCommandWidth bounds the command line shown for a change.
const maxCommandWidth = 100

// warningBlock is one item of the warning (a change with its command, what
// changed and its findings; a finding; a line about servers removed or
// left out), in the group of the agent it is about.
type warningBlock struct {
	lines []string
	wrap  bool // a finding alone: wrapped at word boundaries on a terminal
	// hang, for a change, is the column its lines go on at when they wrap
	// on a terminal: its name's, under which what changed is said (a line
	// indented deeper goes on at its own indent). 0: never wrapped.
	hang int
}

// warningGroup is one agent's part of the warning.
type warningGroup struct {
	title  string
	first  string // the title of its first agent
	blocks []warningBlock
}

// WriteWarning writes the hook's warning: a heading; per agent (under a
// heading naming it, unless agentty alone is concerned) one block per
// server: what its agent does with it now, its name and the command it
// runs, then what changed (with the values) and the high or critical
// findings on it; the other findings; the servers removed and those
// changed where their agent runs nothing (a folder not trusted); and the
// command that reviews them. It writes nothing when there is nothing to
// say, removed servers alone included.
func WriteWarning(w io.Writer, wr Warning, st Style) error {
	p := &printer{w: w}
	op := wr.Op
	if op == "" {
		op = "operation"
	}
	if len(wr.Changes) == 0 && len(wr.Findings) == 0 {
		// Removals alone stay silent: checking an older branch out
		// removes servers every time, and nothing new can run.
		if len(wr.Dormant) > 0 {
			verb := "changed"
			if wr.Brings {
				verb = "brings"
			}
			p.printf("%s this %s %s %s that do not run here:\n", st.Bold("mcp-guard:"), Sanitize(op), verb, entryNouns(wr.Agents, wr.Dormant))
			p.printf("%s", st.WrapHang(dormantLine(wr.Agents, wr.Dormant)+"\n", 4))
		}
		return p.err
	}
	clients := warningClients(wr)
	agents := JoinList(clients, "and")
	switch {
	case wr.Brings && len(wr.Changes) > 0:
		p.printf("%s this %s brings %s %s may run:\n", st.Bold("mcp-guard:"), Sanitize(op), entryNouns(wr.Agents, wr.Changes), agents)
	case wr.Brings:
		// Findings alone: files about what runs, nothing that waits.
		p.printf("%s this %s brings files that change what %s may run:\n", st.Bold("mcp-guard:"), Sanitize(op), agents)
	default:
		p.printf("%s this %s changed what %s may run here:\n", st.Bold("mcp-guard:"), Sanitize(op), agents)
	}
	grouped := len(clients) > 1 || clients[0] != agenttyTitle
	groups := warningGroups(wr, clients, grouped, st)
	budget := maxWarningLines
	if len(wr.Removed) > 0 && grouped {
		budget--
	}
	if len(wr.Dormant) > 0 {
		budget--
	}
	writeGroups(p, groups, grouped, budget, st)
	if len(wr.Removed) > 0 && grouped {
		gone := "they no longer run"
		if len(wr.Removed) == 1 {
			gone = "it no longer runs"
		}
		p.printf("%s", st.WrapHang(fmt.Sprintf("  removed: %s: %s\n", removedNames(wr.Agents, wr.Removed), gone), 4))
	}
	if len(wr.Dormant) > 0 {
		p.printf("%s", st.WrapHang(dormantLine(wr.Agents, wr.Dormant)+"\n", 4))
	}
	cmds := wr.ReviewCommands
	if len(cmds) == 0 {
		cmds = []string{"mcp-guard review"}
	}
	if len(wr.Changes) == 0 && len(wr.Removed) == 0 {
		// Findings alone: this change made nothing wait for review
		// (`review` may say nothing waits); `scan` shows each finding
		// with its fix.
		scans := wr.ScanCommands
		if len(scans) == 0 {
			scans = []string{"mcp-guard scan"}
		}
		p.printf("%s before starting %s, read the findings: %s (and review what waits, if anything: %s)\n", st.Bold("mcp-guard:"), JoinList(clients, "or"), strings.Join(scans, " and "), strings.Join(cmds, " and "))
		return p.err
	}
	p.printf("%s review before starting %s: %s\n", st.Bold("mcp-guard:"), JoinList(clients, "or"), strings.Join(cmds, " and "))
	return p.err
}

// warningGroups builds each agent's blocks: its changes, the findings on
// each placed under it, then the findings about its files. A change that
// several agents read in one file (Copilot CLI's and Claude Code's
// `.mcp.json`), the same in each reading, is said once, under a heading
// naming them all: its verdict (the most dangerous), its command and what
// changed, then one line per agent in its own words, each with its
// verdict where the verdicts differ.
func warningGroups(wr Warning, clients []string, grouped bool, st Style) []warningGroup {
	indent := "  "
	if grouped {
		indent = "    "
	}
	var nameWidth nameColumn
	for _, c := range wr.Changes {
		nameWidth.fit(changeName(c))
	}
	placed := make([]bool, len(wr.Findings))
	sets := sharedChanges(wr.Changes)
	var groups []warningGroup
	at := map[string]int{}
	group := func(title, first string) *warningGroup {
		if i, ok := at[title]; ok {
			return &groups[i]
		}
		at[title] = len(groups)
		groups = append(groups, warningGroup{title: title, first: first})
		return &groups[len(groups)-1]
	}
	for _, title := range clients {
		group(title, title)
	}
	for _, set := range sets {
		// The agents in the warning's order: one heading for the same set.
		slices.SortStableFunc(set, func(a, b trust.Change) int {
			return slices.Index(clients, wr.Agents.title(a.Client)) - slices.Index(clients, wr.Agents.title(b.Client))
		})
		var titles []string
		for _, c := range set {
			titles = append(titles, wr.Agents.title(c.Client))
		}
		g := group(JoinList(titles, "and"), titles[0])
		c := set[0]
		for _, o := range set[1:] {
			if o.Impact.Rank() < c.Impact.Rank() {
				c = o
			}
		}
		name, cut := nameWidth.cell(changeName(c))
		head := fmt.Sprintf("%s%s  %s", indent, hookVerdict(c, st), name)
		if c.New != nil {
			head += "  " + shorten(CommandLine(c.New), maxCommandWidth)
		}
		under := indent + strings.Repeat(" ", hookVerdictWidth+2)
		whole := ""
		if cut {
			// The name whole, before what changed under its cut cell.
			whole = changeName(c) + ": "
		}
		b := warningBlock{hang: len(under)}
		if len(set) == 1 {
			b.lines = []string{strings.TrimRight(head, " "), under + whole + changeSummary(c)}
		} else {
			b.lines = []string{strings.TrimRight(head, " "), under + whole + changeWhat(c)}
			same := true
			for _, o := range set {
				same = same && hookVerdict(o, Style{}) == hookVerdict(c, Style{})
			}
			for _, o := range set {
				line := under + "  " + changeWhy(o)
				if !same {
					line = under + "  " + strings.TrimRight(hookVerdict(o, Style{}), " ") + ": " + changeWhy(o)
				}
				b.lines = append(b.lines, line)
			}
		}
		for i, f := range wr.Findings {
			if !placed[i] && f.Server == c.Server && f.Path == c.Path {
				placed[i] = true
				msg := strings.TrimPrefix(f.Message, fmt.Sprintf("server %q: ", f.Server))
				b.lines = append(b.lines, under+severityMark(f.Severity, st)+" "+f.Rule+" "+Sanitize(msg))
			}
		}
		g.blocks = append(g.blocks, b)
	}
	for i, f := range wr.Findings {
		if placed[i] {
			continue
		}
		placed[i] = true
		t := wr.Agents.title(findingClient(wr.FindingClients, i))
		g := group(t, t)
		g.blocks = append(g.blocks, warningBlock{lines: []string{fmt.Sprintf("%s%s  %s %s: %s", indent, severityLabel(f.Severity, st), f.Rule, Sanitize(f.Path), findingMessage(f))}, wrap: true})
	}
	// A heading several agents share follows its first agent's own.
	slices.SortStableFunc(groups, func(a, b warningGroup) int {
		return slices.Index(clients, a.first) - slices.Index(clients, b.first)
	})
	return groups
}

// sharedChanges are the changes in the order given, those of one server
// of one file that several agents read, each in the same way (the same
// command and the same fields and files changed), as one set.
func sharedChanges(cs []trust.Change) [][]trust.Change {
	var sets [][]trust.Change
	at := map[string]int{}
	for _, c := range cs {
		key := c.Path + "\x00" + c.Server + "\x00" + string(c.Change) + "\x00" + changeWhat(c)
		if c.New != nil {
			key += "\x00" + CommandLine(c.New)
		}
		if i, ok := at[key]; ok && c.Client != "" && !slices.ContainsFunc(sets[i], func(o trust.Change) bool { return o.Client == c.Client }) {
			sets[i] = append(sets[i], c)
			continue
		}
		at[key] = len(sets)
		sets = append(sets, []trust.Change{c})
	}
	return sets
}

// writeGroups writes the groups within budget lines: when they do not
// fit, each agent keeps an equal share (its heading, the blocks that fit
// whole, and a line counting those it left out).
func writeGroups(p *printer, groups []warningGroup, grouped bool, budget int, st Style) {
	total, n := 0, 0
	for _, g := range groups {
		if len(g.blocks) == 0 {
			continue
		}
		n++
		if grouped {
			total++
		}
		for _, b := range g.blocks {
			total += len(b.lines)
		}
	}
	capped := total > budget
	share := budget / max(n, 1)
	for _, g := range groups {
		if len(g.blocks) == 0 {
			continue
		}
		used := 0
		if grouped {
			p.printf("  %s\n", st.Bold(g.title+":"))
			used++
		}
		shown := 0
		for k, b := range g.blocks {
			if capped {
				reserve := 0
				if k < len(g.blocks)-1 {
					reserve = 1 // the line that counts what is left out
				}
				if used+len(b.lines)+reserve > share {
					break
				}
			}
			for _, l := range b.lines {
				switch {
				case b.wrap:
					p.wrapf(st, "%s\n", l)
				case b.hang > 0:
					p.printf("%s", st.WrapHang(l+"\n", max(b.hang, len(l)-len(strings.TrimLeft(l, " ")))))
				default:
					p.printf("%s\n", l)
				}
			}
			used += len(b.lines)
			shown++
		}
		if more := len(g.blocks) - shown; more > 0 {
			of := ""
			if grouped {
				of = " of " + g.title
			}
			p.printf("  … and %s more%s\n", num(more), of)
		}
	}
}

// hookVerdictWidth is the width of hookVerdict's column.
const hookVerdictWidth = len("runs unasked")

// hookVerdict says in two words what the change's agent does with the
// server now, coloured by danger: it runs it without asking (whether or
// not it did before), it asks again, it asks first.
func hookVerdict(c trust.Change, st Style) string {
	switch c.Impact {
	case trust.ImpactTrustPreserving, trust.ImpactNewPreapproved:
		return st.Danger(padCells("runs unasked", hookVerdictWidth))
	case trust.ImpactInvalidated:
		return st.Warning(padCells("asks again", hookVerdictWidth))
	case trust.ImpactNewUnapproved:
		return st.Pending(padCells("asks first", hookVerdictWidth))
	}
	return padCells(ImpactName(c), hookVerdictWidth)
}

// entryNouns says what the changes are, each kind in its agent's words:
// "MCP servers" first when there are any, then the other kinds in the
// order they first appear ("MCP servers, hooks and helpers").
func entryNouns(a Agents, cs []trust.Change) string {
	var servers bool
	var others []string
	for _, c := range cs {
		s := c.New
		if s == nil {
			s = c.Old
		}
		kind := ""
		if s != nil {
			kind = s.Kind
		}
		n := a.noun(c.Client, kind)
		switch {
		case n == a.noun(c.Client, ""):
			servers = true
		case !slices.Contains(others, n):
			others = append(others, n)
		}
	}
	if servers {
		others = append([]string{a.noun("", "")}, others...)
	}
	return JoinList(others, "and")
}

// dormantLine names the servers a change touched whose agent runs
// nothing here (a folder it does not trust), and why.
func dormantLine(a Agents, cs []trust.Change) string {
	why := ""
	if len(cs[0].Reasons) > 0 {
		why = ": " + ShowNamed(strings.TrimPrefix(cs[0].Reasons[0], "added: "), cs[0].Server)
	}
	return "  left out, not run here: " + removedNames(a, cs) + why
}

// shorten keeps s (already sanitised) within about width cells. A wider
// s keeps its start (what runs) and its end (what it is given), whole
// clusters of each, and says in the middle how many bytes it left out:
// an attacker can pad a command so that its payload falls in the cut,
// and a silent "…" would show a harmless-looking head and tail as if
// they were the whole. The count says that something is not shown;
// `mcp-guard review` shows it whole, and the findings on the server are
// listed under it either way.
func shorten(s string, width int) string {
	if len(s) <= width { // bytes >= cells
		return s
	}
	total := cells(s)
	if total <= width {
		return s
	}
	keep := max(width-cells(cutMark(len(s))), 2)
	headCells := keep * 2 / 3
	head, used := 0, 0
	for head < len(s) {
		size, w := nextCluster(s[head:])
		if used+w > headCells {
			break
		}
		head, used = head+size, used+w
	}
	// The tail starts at the first cluster after which what is left fits.
	tail, rest := head, total-used
	for tail < len(s) && rest > keep-headCells {
		size, w := nextCluster(s[tail:])
		tail, rest = tail+size, rest-w
	}
	return s[:head] + cutMark(tail-head) + s[tail:]
}

// cutMark stands for the n bytes shorten left out.
func cutMark(n int) string {
	return " …[" + num(n) + " bytes cut]… "
}

// JoinList is "a, b and c" (conj "and"), "a, b or c" (conj "or").
func JoinList(items []string, conj string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

const agenttyTitle = "agentty"

// warningClients are the clients the warning is about, agentty first:
// those of the changes, and the client of each file finding (MG70x,
// MG71x: the client whose file it is, or whose CI run, as handed in
// FindingClients); agentty when nothing else names one.
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
	for i, f := range wr.Findings {
		if findingClient(wr.FindingClients, i) == "" && !strings.HasPrefix(f.Rule, "MG7") {
			add(agenttyTitle)
		}
	}
	for _, c := range wr.Changes {
		add(wr.Agents.title(c.Client))
	}
	for i := range wr.Findings {
		if id := findingClient(wr.FindingClients, i); id != "" {
			add(wr.Agents.title(id))
		}
	}
	if len(out) == 0 {
		add(agenttyTitle)
	}
	return out
}

// removedNames lists removed servers briefly: the name, where nested, and
// the client when it is not agentty (once, after the names, when they are
// all one client's).
func removedNames(a Agents, cs []trust.Change) string {
	one := len(cs) > 1 && cs[0].Client != "" && !slices.ContainsFunc(cs, func(c trust.Change) bool { return c.Client != cs[0].Client })
	var names []string
	for i, c := range cs {
		if i == maxRemovedNames {
			names = append(names, num(len(cs)-i)+" more")
			break
		}
		n := changeName(c)
		if c.Client != "" && !one {
			n += " (" + a.title(c.Client) + ")"
		}
		names = append(names, n)
	}
	if one {
		// One agent's: named once, "search, shell (Gemini CLI)".
		return strings.Join(names, ", ") + " (" + a.title(cs[0].Client) + ")"
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
	name := ShowName(c.Server)
	if d := c.LaunchDir(); d != "" {
		name += " (in " + Sanitize(d) + "/)"
	}
	return name
}

// impactLabel is the impact of c as people read it, padded to the longest
// one, coloured by danger.
func impactLabel(c trust.Change, st Style) string {
	i := c.Impact
	text := padCells(ImpactName(c), len(trust.ImpactTrustPreserving))
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
	text := padCells(string(s), hookVerdictWidth)
	if s.Rank() >= trust.SeverityHigh.Rank() {
		return st.Danger(text)
	}
	return st.Warning(text)
}

// changeSummary says in a few words what changed and what its agent will
// do (changeWhat: changeWhy).
func changeSummary(c trust.Change) string {
	return changeWhat(c) + ": " + changeWhy(c)
}

// changeWhat says in a few words what changed.
func changeWhat(c trust.Change) string {
	var what []string
	switch c.Change {
	case trust.ChangeAdded:
		what = append(what, "added")
	case trust.ChangeRenamed:
		what = append(what, "renamed from "+ShowName(c.OldName))
	}
	// What runs first: the command (or endpoint), then its arguments.
	fields := append([]trust.FieldChange(nil), c.Fields...)
	sort.SliceStable(fields, func(i, j int) bool { return fieldRank(fields[i].Field) < fieldRank(fields[j].Field) })
	for _, f := range fields {
		what = append(what, fieldText(c, f))
	}
	for _, f := range c.Files {
		what = append(what, fileVerb(c, f))
	}
	if len(what) == 0 {
		what = append(what, "its approval changed")
	}
	if len(what) > 3 {
		what = append(what[:3], num(len(what)-3)+" more")
	}
	return strings.Join(what, ", ")
}

// changeWhy says what the change's agent does with the server now: in
// its own words for a client (which may already say "added: "), else
// agentty's consequence.
func changeWhy(c trust.Change) string {
	if c.Client != "" && len(c.Reasons) > 0 {
		why := c.Reasons[0]
		if c.Change == trust.ChangeAdded {
			why = strings.TrimPrefix(why, "added: ")
		}
		return ShowNamed(why, c.Server)
	}
	return impactConsequence(c.Impact)
}

// fieldRank orders a change's fields for people: what runs, then how.
func fieldRank(field string) int {
	switch {
	case field == "command" || field == "url" || field == "httpUrl" || field == "type":
		return 0
	case strings.HasPrefix(field, "args"):
		return 1
	}
	return 2
}

// maxValueWidth bounds a value quoted in a change's summary.
const maxValueWidth = 48

// fieldText says what happened to a field of c, with its values:
// `command "node" → "sh"`, `args[1] "8080" added`, `env.DEBUG removed`.
func fieldText(c trust.Change, f trust.FieldChange) string {
	name := fieldLabel(c, f)
	switch {
	case f.Old == "":
		return name + " " + shorten(Sanitize(f.New), maxValueWidth) + " added"
	case f.New == "":
		return name + " removed"
	}
	return name + " " + shorten(Sanitize(f.Old), maxValueWidth) + " → " + shorten(Sanitize(f.New), maxValueWidth)
}

// fieldLabel is a changed field of c as its agent's user knows it,
// sanitised. An entry run as a shell line (a hook, a helper, an install
// command: trust.CommandEntry's {"command": SHELL, "args": ["-c", LINE]})
// has its shell command changed, which the user wrote under their
// agent's own key (Copilot CLI's `bash`, Claude Code's `command`), never
// an args[1] they did not write.
func fieldLabel(c trust.Change, f trust.FieldChange) string {
	if f.Field == "args[1]" && shellLine(c.Old) && shellLine(c.New) {
		return "shell command"
	}
	return Sanitize(f.Field)
}

// shellLine: s is an entry besides a server that runs a shell line.
func shellLine(s *trust.Server) bool {
	return s != nil && s.Kind != "" && len(s.Args) == 2 && s.Args[0].IsString && s.Args[0].Str == "-c"
}

// fileVerb says what happened to a file of c's code scope. A zero side
// means the server did not run it there, not that the file was absent.
func fileVerb(c trust.Change, f trust.FileChange) string {
	path := ScopeName(f.Path)
	if v, ok := expandedVar(f.Path); ok {
		// A variable the agent expands in the entry is no file it runs.
		switch {
		case c.Change == trust.ChangeAdded:
			return "expands " + v
		case f.Old.ID == "":
			return "now expands " + v
		case f.New.ID == "":
			return "no longer expands " + v
		}
	}
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

// expandedVar is the variable of a code-scope label that binds one the
// agent expands in the entry before it spawns the server (project's
// ".mcp.json: ${DB_URL}"), sanitised; false for any other label.
func expandedVar(label string) (string, bool) {
	_, key, ok := strings.Cut(label, ": ")
	if !ok || !strings.HasPrefix(key, "${") || !strings.HasSuffix(key, "}") {
		return "", false
	}
	return Sanitize(key), true
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

// ScopeName says a code-scope label (launch.Item.Label) in words: "every
// javascript file in the repository" for "./ (javascript code)", "python
// modules under lib/" for "lib/ (python modules)", any other label as it
// is; sanitised.
func ScopeName(label string) string {
	dir, rest, ok := strings.Cut(label, " (")
	if !ok || !strings.HasSuffix(rest, ")") || !strings.HasSuffix(dir, "/") {
		return Sanitize(label)
	}
	lang, kind, ok := strings.Cut(strings.TrimSuffix(rest, ")"), " ")
	if !ok || (kind != "code" && kind != "modules") {
		return Sanitize(label)
	}
	where := "under " + Sanitize(dir)
	if dir == "./" {
		where = "in the repository"
	}
	if kind == "code" {
		return "every " + Sanitize(lang) + " file " + where
	}
	return Sanitize(lang) + " modules " + where
}
