package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/internal/numfmt"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Waiting says how many servers wait, the verb agreeing with the count:
// Waiting(1, "still") is "1 server still waits", Waiting(2, "") "2
// servers wait".
func Waiting(n int, adverb string) string {
	if adverb != "" {
		adverb += " "
	}
	if n == 1 {
		return "1 server " + adverb + "waits"
	}
	return num(n) + " servers " + adverb + "wait"
}

// WaitingEntries is Waiting in the words of what waits: servers, hooks
// ("1 hook waits"), one kind of a client's other entries, or "entries"
// when they are of several kinds.
func WaitingEntries(list []gate.ClientServer) string {
	kinds := make([]string, len(list))
	for i, cs := range list {
		kinds[i] = cs.Kind()
	}
	one, many := kindWords(kinds)
	if one == "server" {
		return Waiting(len(list), "")
	}
	if len(list) == 1 {
		return "1 " + one + " waits"
	}
	return num(len(list)) + " " + many + " wait"
}

// kindWords are the singular and plural nouns of entries of kinds
// ("" is a server), sanitised: "server", "hook", …, or "entry" when they
// are of several kinds.
func kindWords(kinds []string) (one, many string) {
	kind := ""
	for i, k := range kinds {
		if k == "" {
			k = "server"
		}
		if i == 0 {
			kind = k
		} else if k != kind {
			kind = "entry"
		}
	}
	switch kind {
	case "", "server":
		return "server", "servers"
	case "entry":
		return "entry", "entries"
	}
	return Sanitize(kind), Sanitize(kind + "s")
}

// Count is "1 " + one, or n and many: Count(2, "server runs", "servers
// run") is "2 servers run", Count(1000, …) "1,000 servers run". It is
// how human output says how many of something there are.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return num(n) + " " + many
}

// num is a count as human output writes it, its digits grouped by
// commas: 1,000 (numfmt.Grouped, the one helper; JSON and SARIF keep
// plain numbers).
func num(n int) string { return numfmt.Grouped(n) }

// ReviewItem is one server on the review screen, of any agent.
type ReviewItem struct {
	// Index and Total number the screens ("2/3").
	Index, Total int
	// Title is the agent's name; Entry the server (Entry.Agentty is set
	// for agentty's), with the repository files it runs as they are now
	// (Entry.Files) and why it runs each (Entry.Scope).
	Title string
	Entry gate.ClientServer
	// Since is what changed since the baseline (the last approved version,
	// else the last decision); nil when it was never reviewed.
	Since *trust.Change
	// Findings about this server.
	Findings []trust.Finding
	// Content is what Since's files hold now against then, and the commits
	// that changed them; for a server never reviewed (Since nil), what its
	// files hold now, every line added (nil: not computed).
	Content *ChangeContent
	// Others are the other agents that run this very version
	// (gate.OneDecision), each with its entry: one decision here covers
	// all of them.
	Others []ReviewOther
}

// ReviewOther is another agent's entry of the same server version on a
// review screen.
type ReviewOther struct {
	Title string
	Entry gate.ClientServer
}

// WriteReviewItem writes one server's review screen: what runs (after the
// agent's interpolation, and the variables that depends on), the files it
// runs, what the agent does with it in its words, why it waits, what
// changed since the last review (fields, files, their content and the
// commits that changed them), and findings.
func WriteReviewItem(w io.Writer, it ReviewItem, st Style) error {
	p := &printer{w: w}
	cs := it.Entry
	name := ShowLabel(cs) // every agent's entry by the name approve takes
	words, why := entryWords(cs, it.Title)
	head := "── " + name
	if it.Total > 1 {
		head = "── " + num(it.Index) + "/" + num(it.Total) + " " + name
	}
	p.printf("%s  %s\n", st.Bold(head), st.Dim(Sanitize(cs.Config)))
	if len(it.Others) > 0 {
		titles := []string{it.Title}
		for _, o := range it.Others {
			titles = append(titles, o.Title)
		}
		p.printf("  %s\n", OneDecisionLine(cs.Name, titles))
	}
	// Each labelled line wraps at the terminal's width with its
	// continuations under its value, not at column 0.
	item := func(label, format string, args ...any) {
		p.printf("%s", st.WrapHang(fmt.Sprintf("  %-8s %s\n", label, fmt.Sprintf(format, args...)), itemHang))
	}
	if cs.Server != nil {
		item("runs", "%s", CommandLine(cs.Server))
		for _, ev := range cs.Server.Env {
			item("env", "%s=%s", Sanitize(ev.Name), Sanitize(ev.Value))
		}
	}
	if len(cs.Spawn.Vars) > 0 {
		item("depends", "%s", Sanitize("${"+strings.Join(cs.Spawn.Vars, "}, ${")+"}"))
	}
	sc := NewServerScope(cs.Scope, cs.Files)
	reasons := map[string]string{}
	for _, si := range sc.Items {
		reasons[si.Item] = si.Why
	}
	// A never-reviewed server's files are shown whole below: their hashes
	// would say nothing.
	whole := it.Since == nil && it.Content != nil
	for _, f := range cs.Files {
		line := Sanitize(f.Path)
		if !whole {
			line += "  " + st.Dim(Short(f.ID))
		}
		if w := reasons[f.Path]; w != "" {
			line += "  " + st.Dim(Sanitize(w))
		}
		item("file", "%s", line)
	}
	for _, u := range sc.Unresolved {
		item("unsure", "%s", Sanitize(u))
	}
	item("agent", "%s", ShowNamed(it.Title+": "+words, cs.Name))
	item("why", "%s", ShowNamed(why, cs.Name))
	for _, o := range it.Others {
		ws, wy := entryWords(o.Entry, o.Title)
		item("agent", "%s", ShowNamed(o.Title+": "+ws, o.Entry.Name))
		item("why", "%s", ShowNamed(o.Title+": "+wy, o.Entry.Name))
	}
	writeSince(p, it.Since, it.Content, st)
	if whole {
		p.printf("  never reviewed: what its files hold now\n")
		writeChangeContent(p, it.Content, "    ", st, nil)
	}
	for _, f := range it.Findings {
		p.printf("%s", st.WrapHang(fmt.Sprintf("  %s %s %s\n", severityMark(f.Severity, st), f.Rule, findingMessage(f)), itemHang))
	}
	return p.err
}

// itemHang is the column of a review screen item's value ("  runs     "):
// where its wrapped lines go on.
const itemHang = 11

// entryWords are what the agent titled title does with cs, in its words,
// and why cs waits for review.
func entryWords(cs gate.ClientServer, title string) (words, why string) {
	if cs.Waits != "" {
		return cs.ServerVerdict.Why, cs.Waits
	}
	return cs.ServerVerdict.Why, clientGateReason(nil, cs, title)
}

// writeSince writes what changed since the last review (nil: never
// reviewed): the same rendering as `mcp-guard diff` (diff.go), long values
// as an inline diff so a one-character swap stands out, then the files'
// content and the commits that changed them.
func writeSince(p *printer, since *trust.Change, content *ChangeContent, st Style) {
	if since == nil {
		return
	}
	if len(since.Fields) == 0 && len(since.Files) == 0 {
		p.printf("  since your last review: no change to the entry or its files\n")
	} else {
		p.printf("  since your last review:\n")
	}
	for _, f := range since.Fields {
		name := fieldLabel(*since, f)
		p.printf("    %s: %s\n", name, fieldChange("    ", name, f.Old, f.New, st))
	}
	for _, f := range since.Files {
		p.printf("    file %s: %s%s\n", Sanitize(f.Path), fileSides(f), whyText(f.Why, st))
	}
	writeChangeContent(p, content, "      ", st, nil)
}

// ReviewAction is what a key does at the interactive review's prompt.
type ReviewAction int

const (
	ReviewUnknown   ReviewAction = iota // not in ReviewKeys: the prompt repeats
	ReviewApprove                       // approve this server
	ReviewDecline                       // decline this server
	ReviewSkip                          // leave it waiting
	ReviewQuit                          // stop; what was decided stays decided
	ReviewInterrupt                     // stop as an interrupted program does (exit 130)
	ReviewShowHelp                      // explain the keys, show the server again
	ReviewShowAll                       // show the whole diff the caps shortened
)

// ReviewKey is one row of the review's key table: the keys that do one
// thing and what the help says about it.
type ReviewKey struct {
	Action ReviewAction
	Keys   []byte
	Name   string   // the word the prompt and help use
	Help   []string // the help's lines after the name
}

// reviewKeys is the one table both the prompt's key handling
// (ReviewKeyAction) and its help (ReviewHelp) come from, so the help lists
// exactly the keys that work. Space skips rather than approves: the key
// most often pressed by accident must not let code run.
var reviewKeys = []ReviewKey{
	{ReviewApprove, []byte("aAyY"), "approve", []string{
		"agentty may run this version (its fingerprint goes into agentty's store)",
		"and mcp-guard records that you reviewed it"}},
	{ReviewDecline, []byte("dDnN"), "decline", []string{
		"keep it off (its approval is removed from agentty's store); it stops",
		"asking until it changes"}},
	{ReviewSkip, []byte("sS "), "skip", []string{"decide later; it keeps blocking the launch"}},
	{ReviewQuit, []byte("qQ\x1b\x04"), "quit", []string{"stop reviewing; decisions made so far are kept"}},
	{ReviewInterrupt, []byte{0x03}, "interrupt", []string{"stop like quit, exit status 130"}},
	{ReviewShowHelp, []byte("?hH"), "help", []string{"this list, then the server again"}},
	{ReviewShowAll, []byte("fF"), "full diff", []string{
		"show every line of the diff the screen left out; a server whose added",
		"lines were not all shown is approved only after this"}},
}

// ReviewKeys is the key table of the interactive review.
func ReviewKeys() []ReviewKey {
	out := make([]ReviewKey, len(reviewKeys))
	for i, k := range reviewKeys {
		k.Keys = append([]byte(nil), k.Keys...)
		k.Help = append([]string(nil), k.Help...)
		out[i] = k
	}
	return out
}

// ReviewKeyAction is what key b does at the prompt.
func ReviewKeyAction(b byte) ReviewAction {
	for _, k := range reviewKeys {
		if bytes.IndexByte(k.Keys, b) >= 0 {
			return k.Action
		}
	}
	return ReviewUnknown
}

// KeyName is how the help writes key b: the character itself, or Space,
// Esc, Ctrl-C and the like.
func KeyName(b byte) string {
	switch {
	case b == ' ':
		return "Space"
	case b == 0x1b:
		return "Esc"
	case b < ' ':
		return "Ctrl-" + string(rune('@'+b))
	case b == 0x7f:
		return "Del"
	case b > 0x7f:
		return fmt.Sprintf("0x%02x", b)
	}
	return string(rune(b))
}

// ReviewPrompt is the one-line question of the interactive review: each
// action of the key table with its first key (the full diff's only when
// the screen left added lines out: shortened).
func ReviewPrompt(st Style, shortened bool) string {
	var b strings.Builder
	for i, k := range reviewKeys {
		if k.Action == ReviewInterrupt || (k.Action == ReviewShowAll && !shortened) {
			continue // Ctrl-C needs no advertising
		}
		if i > 0 {
			b.WriteString(", ")
		}
		name := k.Name
		if k.Action == ReviewApprove || k.Action == ReviewDecline {
			name = st.Bold(name)
		}
		fmt.Fprintf(&b, "%s [%s]", name, KeyName(k.Keys[0]))
	}
	b.WriteString(" ")
	return b.String()
}

// ReviewApproveUnseen is what the review says instead of approving a
// server whose added lines the screen did not all show.
func ReviewApproveUnseen() string {
	return "not every added line of its files was shown: press " + KeyName(reviewKeyOf(ReviewShowAll)) + " for the full diff, then approve"
}

// reviewKeyOf is the first key of action a.
func reviewKeyOf(a ReviewAction) byte {
	for _, k := range reviewKeys {
		if k.Action == a {
			return k.Keys[0]
		}
	}
	return 0
}

// ReviewHint is the one line said after a key the prompt does not take.
func ReviewHint() string {
	var parts []string
	for _, k := range reviewKeys {
		switch k.Action {
		case ReviewInterrupt:
		case ReviewShowHelp, ReviewShowAll:
			parts = append(parts, KeyName(k.Keys[0])+" for "+k.Name)
		default:
			parts = append(parts, KeyName(k.Keys[0])+" to "+k.Name)
		}
	}
	return "press " + strings.Join(parts, ", ")
}

// ReviewHelp explains every key of the interactive review, one action a
// paragraph.
func ReviewHelp() string {
	cols := make([]string, len(reviewKeys))
	width := 0
	for i, k := range reviewKeys {
		names := make([]string, len(k.Keys))
		for j, c := range k.Keys {
			names[j] = KeyName(c)
		}
		cols[i] = strings.Join(names, " ")
		width = max(width, len(cols[i]))
	}
	var b strings.Builder
	for i, k := range reviewKeys {
		for j, line := range k.Help {
			if j == 0 {
				fmt.Fprintf(&b, "  %s  %s: %s\n", padCells(cols[i], width), k.Name, line)
				continue
			}
			fmt.Fprintf(&b, "  %s  %s\n", strings.Repeat(" ", width), line)
		}
	}
	return b.String()
}

// WriteDecisions says what recording a decision did for each server, of
// any agent (WriteRestartNote ends the run).
func WriteDecisions(w io.Writer, outcomes []gate.Outcome, st Style) error {
	p := &printer{w: w}
	for _, o := range outcomes {
		if len(o.Covers) > 1 {
			p.printf("%s\n", OneDecisionLine(o.Entry.Name, o.Covers))
		}
		writeDecision(p, o, st)
		writeServerFindings(p, o.Findings, st)
	}
	return p.err
}

// WriteServerFindings writes findings about one server under the line
// that names it: indented, without the server's name again.
func WriteServerFindings(w io.Writer, fs []trust.Finding, st Style) error {
	p := &printer{w: w}
	writeServerFindings(p, fs, st)
	return p.err
}

func writeServerFindings(p *printer, fs []trust.Finding, st Style) {
	for _, f := range fs {
		p.printf("  %s %s %s\n", severityMark(f.Severity, st), f.Rule, Sanitize(strings.TrimPrefix(f.Message, fmt.Sprintf("server %q: ", f.Server))))
	}
}

// writeDecision says what recording one decision did: the review, and
// what it did in the agent's own files (its words, Outcome.Note) or that
// mcp-guard left them unchanged.
func writeDecision(p *printer, o gate.Outcome, st Style) {
	cs, title := o.Entry, Sanitize(o.Title)
	if o.Decision == trust.DecisionApproved {
		own := Sanitize(o.Note)
		if own == "" {
			own = title + "'s own files unchanged"
			switch {
			case o.Command == "":
			case cs.LaunchLeavesOut():
				own += ": `mcp-guard launch -- " + o.Command + "` hands it over"
			default:
				// launch hands nothing of it (a Copilot CLI hook, Cline's
				// hook files, Continue's install): the agent reads it.
				own += ": " + title + " runs it on its own, and `mcp-guard launch -- " + o.Command + "` no longer waits for it"
			}
		}
		p.printf("%s %s  %s  %s\n", st.OK("approved"), ShowLabel(*cs), CommandLine(cs.Server),
			st.Dim("(reviewed "+Short(cs.Deep)+"; "+own+")"))
		return
	}
	// A client launch starts is handed only the reviewed servers; an
	// editor (Cursor, VS Code) opens its configs itself.
	note := "(`mcp-guard launch -- " + o.Command + "` leaves it out; " + title + " started directly may still run it)"
	switch {
	case o.Note != "":
		note = "(" + Sanitize(o.Note) + ")"
	case !cs.Runs && cs.Started:
		// Its agent runs nothing of it here now, but the session launch
		// starts would: launch counts it as running, and refuses.
		note = "(recorded; " + ShowNamed(cs.ServerVerdict.Why, cs.Name) + "; yet `mcp-guard launch -- " + o.Command +
			"` refuses while it is here: the session it starts asks whether you trust the folder, then runs it)"
	case !cs.Runs:
		// Its agent runs nothing of it here now (an untrusted folder or
		// project): nothing holds a launch back, in its agent's words.
		note = "(recorded; " + ShowNamed(cs.ServerVerdict.Why, cs.Name)
		if o.Command != "" {
			note += ": nothing of it holds `mcp-guard launch -- " + o.Command + "` back"
		}
		note += ")"
	case o.Command == "":
		note = "(recorded; " + title + " runs it on its own: " + TurnItOff(*cs) + ")"
	case !cs.LaunchLeavesOut():
		// launch has no way to hand the client a set without it.
		note = "(`mcp-guard launch -- " + o.Command + "` cannot leave it out, so it refuses while it is here; " + title +
			" started directly runs it: " + TurnItOff(*cs) + ")"
	}
	p.printf("%s %s  %s\n", st.Warning("declined"), ShowLabel(*cs), st.Dim(note))
}

// WriteRestartNote says, once after a run's decisions, that a running
// agentty connects the servers whose approval was added only when it
// starts again. It writes nothing when no approval was added.
func WriteRestartNote(w io.Writer, outcomes []gate.Outcome) error {
	for _, o := range outcomes {
		if o.Decision == trust.DecisionApproved && o.Changed {
			_, err := fmt.Fprintf(w, "restart %s (if it is running) to connect approved servers\n", Sanitize(o.Title))
			return err
		}
	}
	return nil
}

// WriteSnapshotNote says, in one line, what the launch hands agentty.
func WriteSnapshotNote(w io.Writer, configPath string, snap *gate.Snapshot, st Style) error {
	left := ""
	if len(snap.Left) > 0 {
		left = "; left out: " + nameList(snap.Left)
	}
	what := "the " + Count(len(snap.Servers), "reviewed server", "reviewed servers") + " of "
	if len(snap.Servers) == 0 {
		what = "no server (none is reviewed) of "
	}
	_, err := fmt.Fprintf(w, "mcp-guard: agentty gets %s%s%s\n", what, Sanitize(configPath), left)
	return err
}

// ClientGateText says why a client's server blocks (or would, declined),
// after the client's own reason; in its client's words (Waits) when the
// client gave them, but for a change: what changed since the review
// (changedReason), then the client's reason, alike for every client.
func ClientGateText(cv *gate.ClientView, cs gate.ClientServer) string {
	if cs.Waits == "" {
		return clientGateReason(cv, cs, cv.Title) + " (" + cs.ServerVerdict.Why + ")"
	}
	if cs.Why == trust.GateChanged && cs.NoDeep == "" {
		if why := changedReason(cv, cs); why != "" {
			return why + " (" + cs.ServerVerdict.Why + ")"
		}
	}
	return cs.Waits
}

// changedReason is why a changed entry waits, naming what changed since
// its review (cv.Since: the entry, or the files it runs), as review and
// diff do; "" when that is not known (or cv is nil).
func changedReason(cv *gate.ClientView, cs gate.ClientServer) string {
	if what := changedSince(cv, cs); what != "" {
		return "since your review, " + what
	}
	return ""
}

// clientGateReason is why cs blocks, in the gate's words; a changed
// entry's names what changed since its review (cv.Since: the entry, or
// the files it runs), as review and diff do, when cv is given (review's
// screen, which shows the change itself, passes nil).
func clientGateReason(cv *gate.ClientView, cs gate.ClientServer, title string) string {
	var why string
	switch {
	case cs.NoDeep != "" && cs.Runs:
		return cannotReviewHere(cs)
	}
	switch cs.Why {
	case trust.GateChanged:
		why = "changed since you reviewed it"
		if r := changedReason(cv, cs); r != "" {
			why = r
		}
	case trust.GateApprovedUnreviewed:
		why = title + " runs it without asking, and you have not reviewed it"
	case trust.GateDeclinedRuns:
		why = "you declined it, yet " + title + " runs it on its own"
		if cs.LaunchWithholds() {
			// launch leaves it out: only a start without it runs it.
			why = "you declined it, yet " + title + " started directly would run it"
		}
	default:
		why = "not reviewed yet"
	}
	return why
}

// cannotReviewHere is why neither approve nor decline can be recorded
// for cs (gate.ClientServer.CannotReview), as the list of what waits and
// a review that leaves it out say it.
func cannotReviewHere(cs gate.ClientServer) string {
	return "mcp-guard cannot review it here: " + cs.CannotReview()
}

// ReviewLeftOut is the line a review that goes through what waits (the
// keyboard review, --all) writes for an entry it leaves waiting because
// neither approve nor decline can be recorded for it: the list's words,
// which say what to change. It is never asked about, so it never ends
// in an error.
func ReviewLeftOut(cs gate.ClientServer) string {
	return "left " + ShowLabel(cs) + " waiting: " + Sanitize(cannotReviewHere(cs))
}

// changedSince names what changed in cs since its review: "its entry
// changed", "tools/run.sh changed", "it now runs lib.js"; "" when that is
// not known.
func changedSince(cv *gate.ClientView, cs gate.ClientServer) string {
	if cv == nil {
		return ""
	}
	c := cv.Since(cs)
	if c == nil || c.Change == trust.ChangeAdded {
		return ""
	}
	var what []string
	if len(c.Fields) > 0 || c.Change == trust.ChangeRenamed {
		what = append(what, "its entry changed")
	}
	for _, f := range c.Files {
		v := fileVerb(*c, f)
		if strings.HasPrefix(v, "now runs ") || strings.HasPrefix(v, "no longer runs ") {
			v = "it " + v
		}
		what = append(what, v)
	}
	if len(what) > 3 {
		what = append(what[:2], num(len(what)-2)+" more of its files changed")
	}
	return JoinList(what, "and")
}

// OneDecisionLine says that one decision covers a server version several
// agents run (gate.SameVersion): "db — the same server for agentty,
// Claude Code and Gemini CLI: one decision covers all three".
func OneDecisionLine(name string, titles []string) string {
	return ShowName(name) + " — the same server for " + JoinList(titles, "and") + ": one decision covers " + coverWord(len(titles))
}

// coverWord is what one decision covers of n agents: "both", "all three".
func coverWord(n int) string {
	if n > 2 {
		return "all " + numberWord(n)
	}
	return "both"
}

// numberWord is n in words up to ten, else in digits.
func numberWord(n int) string {
	if n >= 0 && n <= 10 {
		return [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}[n]
	}
	return num(n)
}

// SameServer is one server version that several agents here wait on
// (gate.OneDecision): one decision covers it for all of them.
type SameServer struct {
	// Name is the server's name, Titles its agents (in the list's order).
	Name   string
	Titles []string
	// Labels are the entries it stands for ("agentty:db",
	// "claude-code:db"); Typed is what decides for all of them at once
	// (the plain name when no other agent here loads another version of
	// it, else the labels).
	Labels []string
	Typed  []string
}

// WriteBlockingList lists, per agent, the servers that keep `mcp-guard
// launch` from starting it and its closed gate's reasons, then one line
// with the command that reviews them all.
//
// same are the server versions several of those agents wait on: each is
// said once, as one decision, and the command names it as Typed.
func WriteBlockingList(w io.Writer, views []*gate.ClientView, blocking [][]gate.ClientServer, same []SameServer, reviewCmd string, st Style) error {
	typed := map[string][]string{}
	for _, s := range same {
		for i, l := range s.Labels {
			typed[l] = nil
			if i == 0 {
				typed[l] = s.Typed
			}
		}
	}
	if reviewCmd == "" {
		reviewCmd = "mcp-guard review"
	}
	var labels, outs []string
	for i, cv := range views {
		if err := WriteClientBlocking(w, cv, blocking[i], st); err != nil {
			return err
		}
		for _, cs := range blocking[i] {
			if cs.Why == trust.GateDeclinedRuns {
				// Declining it again, or a review, only leads back here.
				outs = append(outs, DeclinedRunsWayOut(cs, cv.Title, reviewCmd))
				continue
			}
			if cs.NoDeep != "" {
				// Neither approve nor decline can record it: the line
				// above says why, and what to change.
				continue
			}
			t, ok := typed[cs.Label()]
			if !ok {
				t = []string{cs.Label()}
			}
			for _, l := range t {
				labels = append(labels, hintWord(l))
			}
		}
	}
	for _, o := range outs {
		if _, err := fmt.Fprintln(w, o); err != nil {
			return err
		}
	}
	if len(labels) == 0 {
		return nil
	}
	for _, s := range same {
		if _, err := fmt.Fprintln(w, OneDecisionLine(s.Name, s.Titles)); err != nil {
			return err
		}
	}
	if len(labels) > MaxHintNames {
		// A hint of a thousand names is no command anyone reads before
		// running it: --all decides exactly this list (what waits).
		_, err := fmt.Fprintf(w, "review them: %s  (or %s --all to approve all %s that wait, or --all --decline)\n", reviewCmd, reviewCmd, num(len(labels)))
		return err
	}
	_, err := fmt.Fprintf(w, "review them: %s  (or %s --approve %s, or --decline)\n", reviewCmd, reviewCmd, strings.Join(labels, " "))
	return err
}

// MaxHintNames is the most names a hint spells out for --approve; past
// it the hint names --all, which decides the same list.
const MaxHintNames = 8

// DeclinedRunsWayOut is the way out for an entry the user declined that
// its agent still runs on its own (launch has nothing to hand it that
// leaves the entry out): turn it off or remove it, or approve it with
// reviewCmd (the review command as the user runs it, -C DIR included).
func DeclinedRunsWayOut(cs gate.ClientServer, title, reviewCmd string) string {
	return "you declined " + hintWord(cs.Label()) + ", yet " + title + " runs it on its own: " + TurnItOff(cs) +
		", or approve it: " + reviewCmd + " --approve " + hintWord(cs.Label())
}

// TurnItOff is the one way to keep an agent from running an entry it
// runs on its own whatever mcp-guard launch hands it, in the agent's
// words (gate.ClientServer.TurnOff: its own settings, "disabled": true in
// the entry, deleting a hook's file), sanitised.
func TurnItOff(cs gate.ClientServer) string {
	return Sanitize(cs.TurnOff())
}

// RunsDeclined says that the agent titled title runs an entry of list's
// kinds the user declines all the same, and how to keep it from running:
// "Cline runs a declined hook all the same: delete …". With several
// entries, their files are not named.
func RunsDeclined(title string, list []gate.ClientServer) string {
	kinds := make([]string, len(list))
	for i, cs := range list {
		kinds[i] = cs.Kind()
	}
	one, _ := kindWords(kinds)
	off := list[0]
	if len(list) > 1 {
		off.Config = ""
	}
	return Sanitize(title) + " runs a declined " + one + " all the same: " + TurnItOff(off)
}

// WriteClientBlocking lists an agent's servers that keep `mcp-guard
// launch` from starting it, each with what it runs, its config and why it
// waits, and its closed gate's reasons.
func WriteClientBlocking(w io.Writer, cv *gate.ClientView, blocking []gate.ClientServer, st Style) error {
	p := &printer{w: w}
	for _, c := range cv.Closed {
		p.printf("%s: %s\n", st.Danger(cv.Title+"'s gate is closed"), Sanitize(c))
	}
	if len(blocking) == 0 {
		return p.err
	}
	p.printf("%s: %s for review:\n", st.Bold(cv.Title), WaitingEntries(blocking))
	var width nameColumn
	for _, cs := range blocking {
		width.fit(ShowName(cs.Name))
	}
	for _, cs := range blocking {
		cmd := ""
		if cs.Server != nil {
			cmd = CommandLine(cs.Server)
		}
		name, cut := width.cell(ShowName(cs.Name))
		// On a terminal both lines wrap under the command's column.
		hang := 2 + 1 + 1 + int(width) + 2
		p.printf("%s", st.WrapHang(fmt.Sprintf("  %s %s  %s\n", st.Warning("!"), name, cmd), hang))
		where := st.Dim(Sanitize(cs.Config))
		if cut {
			// The name whole, under its cut cell.
			where = ShowName(cs.Name) + " " + st.Dim("in "+Sanitize(cs.Config))
		}
		p.printf("%s", st.WrapHang(fmt.Sprintf("  %s %s  %s  %s\n", " ", padCells("", int(width)), where, ShowNamed(ClientGateText(cv, cs), cs.Name)), hang))
	}
	return p.err
}

// WriteVettedNote says, in one line, what the launch hands a client: the
// reviewed project servers, the user's own, and what it leaves out.
func WriteVettedNote(w io.Writer, title string, snap *gate.Snapshot, st Style) error {
	left := ""
	if len(snap.Left) > 0 {
		left = "; left out: " + nameList(snap.Left)
	}
	own := ""
	switch {
	case snap.OwnAll:
		own = " and every server of your own"
	case len(snap.Own) > 0:
		own = " and " + Count(len(snap.Own), "server", "servers") + " of your own (" + nameList(snap.Own) + ")"
	}
	what := Count(len(snap.Servers), "reviewed project server", "reviewed project servers")
	if len(snap.Servers) == 0 {
		what = "no project server (none is reviewed)"
	}
	entries := ""
	if snap.Settings != "" {
		// The settings handoff: the repository's settings with only the
		// reviewed hooks and helpers.
		entries = ", its settings with " + Count(len(snap.Entries), "reviewed hook or helper", "reviewed hooks and helpers")
		if len(snap.Entries) > 0 {
			entries += " (" + nameList(snap.Entries) + ")"
		} else {
			entries = ", its settings with no hook or helper"
		}
		if len(snap.EntriesLeft) > 0 {
			left += "; not handed over, so they do not run: " + nameList(snap.EntriesLeft)
		}
		if snap.SettingsNote != "" {
			left += " (" + snap.SettingsNote + ")"
		}
	}
	if snap.Note != "" {
		left += "; " + Sanitize(snap.Note)
	}
	_, err := fmt.Fprintf(w, "mcp-guard: %s gets %s%s%s%s\n", title, what, entries, own, left)
	return err
}

// nameList is names, sanitized, comma-separated.
func nameList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = ShowName(n)
	}
	return strings.Join(out, ", ")
}

// WriteUnknownLaunch says what `launch` checked before it starts a
// command that is not an agent it knows: every agent's servers found
// here (as `check` does), and that nothing is handed to the command, so an
// agent it starts reads its own configs (a declined server included).
func WriteUnknownLaunch(w io.Writer, command string, clients []*gate.ClientView, st Style) error {
	titles := make([]string, len(clients))
	for i, cv := range clients {
		titles[i] = cv.Title
	}
	_, err := fmt.Fprintf(w, "mcp-guard: launch has no hand-over for %s: no server of %s waits for review (as `mcp-guard check` says), but nothing can be handed to it, so what it starts reads its configs itself, declined servers included\n",
		Sanitize(command), JoinList(titles, "or"))
	return err
}

// WriteRevocation says what revoke did, for every agent's server alike:
// an approval that left its client's own store (named with the
// fingerprint it had), or mcp-guard's review forgotten (the client's own
// approval, if any, untouched); then, in one line, the entries the name
// also covers that had nothing to revoke (another agent's copy never
// approved); then the whole-file approvals asked to go.
func WriteRevocation(w io.Writer, res *gate.Revocation, st Style) error {
	p := &printer{w: w}
	var untouched []string
	for _, r := range res.Servers {
		cs := r.Server
		switch {
		case !r.Changed:
			untouched = append(untouched, ShowLabel(cs))
		case r.Store:
			fp := ""
			if cs.Server != nil {
				fp = Short(cs.Server.Fingerprint)
			}
			p.printf("%s %s  %s\n", st.Warning("revoked"), ShowName(cs.Name), st.Dim(fp))
		default:
			note := "mcp-guard's review forgotten: it waits for review again"
			if cs.Source != "" && cs.Interactive {
				note += "; its own approval, in " + Sanitize(cs.Source) + ", is untouched"
			}
			p.printf("%s %s  %s\n", st.Warning("revoked"), ShowLabel(cs), st.Dim("("+note+")"))
		}
	}
	if len(untouched) > 0 {
		p.printf("nothing to revoke for %s: never approved or reviewed\n", strings.Join(untouched, ", "))
	}
	for _, wr := range res.Whole {
		if wr.Changed {
			p.printf("%s the whole-file approval of %s\n", st.Warning("revoked"), Sanitize(wr.Config))
		} else {
			p.printf("%s has no whole-file approval\n", Sanitize(wr.Config))
		}
	}
	return p.err
}
