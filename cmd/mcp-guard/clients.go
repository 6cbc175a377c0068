package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

// clientsBlocked lists, for every agent found here (only one when only is
// set), what keeps a launch of it from starting, and returns how many
// servers block plus one per agent whose gate is closed. handOver: the
// launch hands the agent only the reviewed servers (then a declined one
// does not block).
func (g *gateView) clientsBlocked(e *env, w io.Writer, only client.ID, handOver bool, reviewCmd string) int {
	n := 0
	var views []*gate.ClientView
	var blocking [][]gate.ClientServer
	for _, cv := range g.All() {
		if only != "" && cv.Client != only {
			continue
		}
		b := cv.Blocking(handOver)
		if len(b) == 0 && len(cv.Closed) == 0 {
			continue
		}
		n += len(b)
		if len(cv.Closed) > 0 {
			n++
		}
		views, blocking = append(views, cv), append(blocking, b)
	}
	queue := make([]pending, 0, n)
	for i, cv := range views {
		for k := range blocking[i] {
			queue = append(queue, pending{cv: cv, cs: &blocking[i][k]})
		}
	}
	report.WriteBlockingList(w, views, blocking, g.sameServers(oneDecision(queue)), reviewCmd, e.style(w))
	return n
}

// oneDecision groups queue into what one decision covers: a server version
// several agents run is one item, its first entry's, the others in same
// (gate.OneDecision).
func oneDecision(queue []pending) []pending {
	var out []pending
	for _, set := range gate.OneDecisionOf(len(queue), func(i int) *gate.ClientServer { return queue[i].cs }) {
		p := queue[set[0]]
		for _, i := range set[1:] {
			p.same = append(p.same, queue[i])
		}
		out = append(out, p)
	}
	return out
}

// members are p's entry and those of the other agents it stands for.
func (p pending) members() []pending {
	return append([]pending{{cv: p.cv, cs: p.cs}}, p.same...)
}

// titles are the agents p covers, its own first; nil when it is its own
// agent's alone.
func (p pending) titles() []string {
	if len(p.same) == 0 {
		return nil
	}
	var out []string
	for _, m := range p.members() {
		out = append(out, m.cv.Title)
	}
	return out
}

// sameServers are the items of a grouped queue that stand for several
// agents, as the listing says them: with what approve takes to decide for
// all of them (the plain name when gate.SelectTargets reads it so, else
// each label).
func (g *gateView) sameServers(queue []pending) []report.SameServer {
	var out []report.SameServer
	for _, p := range queue {
		if len(p.same) == 0 {
			continue
		}
		s := report.SameServer{Name: p.cs.Name, Titles: p.titles()}
		for _, m := range p.members() {
			s.Labels = append(s.Labels, m.cs.Label())
		}
		s.Typed = s.Labels
		if t, err := g.SelectTargets([]string{p.cs.Name}, "", trust.DecisionApproved); err == nil && t.Len() == len(s.Labels) {
			s.Typed = []string{p.cs.Name}
		}
		out = append(out, s)
	}
	return out
}

// vetted reports whether a launch hands other clients the vetted file
// (gate.SnapshotEnv=0 hands them nothing extra).
func vetted(e *env) bool { return e.getenv(gate.SnapshotEnv) != "0" }

// clientFlag restricts server names to one client. It is built when a
// command line is (approve, review), not at every start: its usage
// iterates the registry.
func clientFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "client", Usage: "the agent the names are of, and the only one reviewed (" + strings.Join(client.IDs(), ", ") + ", or the command that starts it: " + startedNames() + "); CLIENT:NAME does the same per name"}
}

// onlyClient is --client's agent: its id, or the command launch starts it
// with (claude, gemini); as given when it names none, to be refused.
func onlyClient(c *cli.Command) client.ID {
	if id := client.Resolve(c.String("client")); id != "" {
		return id
	}
	return client.ID(c.String("client"))
}

// decideAll records one decision for servers of every agent
// (gate.Decide) and says what it did.
func (g *gateView) decideAll(ctx context.Context, e *env, w io.Writer, d trust.Decision, t gate.Targets) ([]gate.Outcome, error) {
	outcomes, err := g.Decide(ctx, d, t)
	if err != nil {
		return nil, gateErr(err)
	}
	report.WriteDecisions(w, outcomes, e.style(w))
	return outcomes, nil
}

// pending is one server that waits for review, and its agent.
type pending struct {
	cv *gate.ClientView
	cs *gate.ClientServer // an element of cv.Blocking's list: not copied
	// same are the other agents' entries of the same version, which one
	// decision about cs covers (oneDecision).
	same []pending
}

// waiting are the servers of every agent here (only's, when set) that
// keep a launch from starting, in All's order.
func (g *gateView) waiting(only client.ID, handOver bool) []pending {
	var out []pending
	for _, cv := range g.All() {
		if only != "" && cv.Client != only {
			continue
		}
		b := cv.Blocking(handOver)
		for i := range b {
			out = append(out, pending{cv: cv, cs: &b[i]})
		}
	}
	return out
}

// declinedIn counts the servers of b the user declined at their current
// version.
func declinedIn(b []gate.ClientServer) int {
	n := 0
	for i := range b {
		if b[i].State == trust.StateDeclined {
			n++
		}
	}
	return n
}

// waitingTargets are what --all decides: everything that waits for
// review (only's, when set), never a server the user declined at its
// current version, nor one already reviewed, nor one neither decision
// can be recorded for (gate.ClientServer.CannotReview): those are left
// so that the others are decided. A declined entry its agent runs on
// its own, and one that cannot be reviewed, still keeps the gate closed:
// each is counted in left, with its line written to w (the way out,
// naming reviewCmd; what to change).
func (g *gateView) waitingTargets(w io.Writer, only client.ID, handOver bool, reviewCmd string) (t gate.Targets, left int) {
	t, declined := g.allWaiting(only, handOver)
	for _, p := range declined {
		fmt.Fprintln(w, report.DeclinedRunsWayOut(*p.cs, p.cv.Title, reviewCmd))
	}
	left = len(declined)
	cannot := 0
	for i := range t.Clients {
		if t.Clients[i].CannotReview() != "" {
			cannot++
		}
	}
	if cannot == 0 {
		return t, left
	}
	left += cannot
	// A copy: t's list may be a view's own.
	kept := make([]gate.ClientServer, 0, len(t.Clients)-cannot)
	for _, cs := range t.Clients {
		if cs.CannotReview() != "" {
			fmt.Fprintln(w, report.ReviewLeftOut(cs))
			continue
		}
		kept = append(kept, cs)
	}
	t.Clients = kept
	return t, left
}

// allWaiting is waitingTargets before it leaves anything out but what
// the user declined at its current version; declined are those of them
// their agent runs all the same (declinedRuns), which still keep its
// gate closed.
func (g *gateView) allWaiting(only client.ID, handOver bool) (t gate.Targets, declined []pending) {
	for _, cv := range g.All() {
		if only != "" && cv.Client != only {
			continue
		}
		// With one agent, Blocking's list is the targets' list as it
		// stands, unless a declined server must be left out: a
		// ClientServer is large, and 100,000 servers may wait. Blocking's
		// list may be the view's own: it is never modified here.
		b := cv.Blocking(handOver)
		kept := b
		if n := declinedIn(b); n > 0 {
			kept = make([]gate.ClientServer, 0, len(b)-n)
			for i := range b {
				switch {
				case b[i].State != trust.StateDeclined:
					kept = append(kept, b[i])
				case declinedRuns(b[i]):
					declined = append(declined, pending{cv: cv, cs: &b[i]})
				}
			}
		}
		if t.Clients == nil {
			t.Clients = kept
		} else {
			t.Clients = append(t.Clients, kept...)
		}
	}
	return t, declined
}

// declinedAgain leaves out of t, a decline of named entries, each the
// user declined at its version already that still keeps a launch from
// starting (its agent runs it all the same): declining it again would
// record the same decline and change nothing. Its line, written to w,
// says the way out (naming reviewCmd); left counts them.
func (g *gateView) declinedAgain(w io.Writer, t gate.Targets, handOver bool, reviewCmd string) (kept gate.Targets, left int) {
	kept = t
	kept.Clients = nil
	for _, cs := range t.Clients {
		cv := g.ClientOf(cs.ClientID())
		if cs.State != trust.StateDeclined || !cs.BlocksLaunch(handOver) || cv == nil {
			kept.Clients = append(kept.Clients, cs)
			continue
		}
		fmt.Fprintln(w, report.DeclinedRunsWayOut(cs, cv.Title, reviewCmd))
		left++
	}
	return kept, left
}

// stillBlocks reports whether an entry decided still keeps a launch from
// starting (gate.Outcome.Blocks): review's status is then 1, as check's.
func stillBlocks(outcomes []gate.Outcome, handOver bool) bool {
	for _, o := range outcomes {
		if o.Blocks(handOver) {
			return true
		}
	}
	return false
}

// declinedRuns reports whether cs, which keeps a launch from starting
// (gate.ClientView.Blocking), is an entry the user declined at its
// current version that its agent runs on its own all the same: declining
// it again changes nothing, and a review leads back to it. What gets it
// out is report.DeclinedRunsWayOut.
func declinedRuns(cs gate.ClientServer) bool {
	return cs.Why == trust.GateDeclinedRuns
}

// review is `mcp-guard review` for every agent found here: decisions by
// name (qualified when two agents load a name) or for --all of what waits;
// without them, one review of what waits across every agent (one counter,
// q ends it), or on no terminal the list of it.
func (g *gateView) review(ctx context.Context, c *cli.Command, e *env, names []string, approve, decline, all bool) error {
	d := trust.DecisionApproved
	if decline {
		d = trust.DecisionDeclined
	}
	only := onlyClient(c)
	if only != "" && client.Lookup(only) == nil {
		return usageError("--client: no client %q (the clients are %s)", only, strings.Join(client.IDs(), ", "))
	}
	handOver := vetted(e)
	if approve || decline {
		var t gate.Targets
		left := 0
		if all {
			t, left = g.waitingTargets(e.info, only, handOver, reviewCommandLine(c))
		} else {
			var err error
			if t, err = g.SelectTargets(names, only, d); err != nil {
				return gateErr(err)
			}
			if decline {
				t, left = g.declinedAgain(e.info, t, handOver, reviewCommandLine(c))
			}
		}
		closed := g.writeClosed(e, only)
		if t.Len() == 0 {
			if closed || left > 0 {
				return attention()
			}
			fmt.Fprintln(e.info, "nothing waits for review here")
			return nil
		}
		outcomes, err := g.decideAll(ctx, e, e.info, d, t)
		if err != nil {
			return err
		}
		report.WriteRestartNote(e.info, outcomes)
		if closed || left > 0 || stillBlocks(outcomes, handOver) {
			return attention()
		}
		return nil
	}
	if len(g.All()) == 0 {
		// As check: with nothing configured, nothing waits.
		fmt.Fprintln(e.info, "no MCP configuration of any agent here: nothing to review")
		return nil
	}
	queue := g.waiting(only, handOver)
	switch {
	case len(queue) == 0 && !g.closed(only):
		fmt.Fprintln(e.info, "nothing waits for review here")
		return nil
	case len(queue) == 0 || !e.interactive():
		// The list: every closed gate and waiting server, once.
		st := e.style(e.info)
		g.clientsBlocked(e, e.info, only, handOver, reviewCommandLine(c))
		if len(queue) == 0 {
			return attention()
		}
		// What changed in the servers reviewed before, so a decision
		// given with --approve need not be blind; not of an entry
		// declined at this version its agent runs on its own: no
		// decision about it changes anything, and the list said the
		// way out.
		queue = oneDecision(slices.DeleteFunc(queue, func(p pending) bool { return declinedRuns(*p.cs) }))
		for i, p := range queue {
			if p.cs.Last != nil {
				fmt.Fprintln(e.info)
				g.writeItem(ctx, e, e.info, st, queue, i)
			}
		}
		if len(queue) > 0 {
			fmt.Fprintln(e.stderr, "mcp-guard: not a terminal, so nothing was asked; decide with --approve NAME... or --decline NAME...")
		}
		return attention()
	}
	needs := g.writeClosed(e, only)
	left, err := g.interactive(ctx, e, queue, newTerminalKeys(e.stdin), reviewCommandLine(c))
	if err != nil {
		return err
	}
	if left > 0 || needs {
		return attention()
	}
	return nil
}

// reviewJSON writes what `review` would go through, for every agent here
// (--client's), as the versioned JSON document, and says whether anything
// needs the user as review without a terminal does.
func (g *gateView) reviewJSON(c *cli.Command, e *env) error {
	only := onlyClient(c)
	if only != "" && client.Lookup(only) == nil {
		return usageError("--client: no client %q (the clients are %s)", only, strings.Join(client.IDs(), ", "))
	}
	var all []*gate.ClientView
	for _, cv := range g.All() {
		if only == "" || cv.Client == only {
			all = append(all, cv)
		}
	}
	var waits []report.ReviewWait
	for _, p := range g.waiting(only, vetted(e)) {
		waits = append(waits, report.ReviewWait{View: p.cv, Entry: *p.cs, Since: p.cv.Since(*p.cs), Findings: itemFindings(p)})
	}
	if err := report.WriteJSON(e.stdout, report.NewReviewDoc(all, waits)); err != nil {
		return failf("", "writing the review list: %v", err)
	}
	if len(waits) > 0 || g.closed(only) {
		return attention()
	}
	return nil
}

// closed reports whether the gate of an agent here (only's) stays closed
// whatever is reviewed.
func (g *gateView) closed(only client.ID) bool {
	for _, cv := range g.All() {
		if len(cv.Closed) > 0 && (only == "" || cv.Client == only) {
			return true
		}
	}
	return false
}

// writeClosed says, for every agent here (only's), why its gate stays
// closed whatever is reviewed; false when none is closed.
func (g *gateView) writeClosed(e *env, only client.ID) bool {
	closed := false
	for _, cv := range g.All() {
		if len(cv.Closed) > 0 && (only == "" || cv.Client == only) {
			report.WriteClientBlocking(e.info, cv, nil, e.style(e.info))
			closed = true
		}
	}
	return closed
}

// interactive asks about each server of queue, across agents, with the
// review keys (report's key table, the one `?` lists), records each
// decision, and returns how many still wait for review. keys.key is
// called once the server's screen is written, and a terminalKeys reader
// drops whatever was typed before it shows the prompt. q ends the whole
// review; Ctrl-C does too, with exit status 130. reviewCmd is the review
// command as the user runs it, for the way out of a declined entry.
func (g *gateView) interactive(ctx context.Context, e *env, queue []pending, keys keyReader, reviewCmd string) (left int, err error) {
	w := e.stdout
	st := e.style(w)
	// What neither approve nor decline can be recorded for, and what
	// the user declined that its agent runs all the same, is not asked
	// about: its line says why, and what to change; it still waits.
	queue, left = leaveOut(w, queue, reviewCmd)
	if len(queue) == 0 {
		return left, nil
	}
	if left > 0 {
		fmt.Fprintln(w)
	}
	queue = oneDecision(queue)
	var decided []gate.Outcome
	defer func() { report.WriteRestartNote(w, decided) }()
	var shown func()
	var shortened bool
	show := func(i int, s reviewScreen) bool {
		if s != screenAgain {
			// The screen is rendered whole, then shown through the pager
			// when it is longer than the terminal.
			var screen strings.Builder
			write, short := g.itemWriter(ctx, e, &screen, st, queue, i, s == screenFull)
			write()
			text := screen.String()
			shown, shortened = func() { e.page(w, text) }, short
		}
		shown()
		return shortened
	}
	label := func(i int) string {
		if t := queue[i].titles(); t != nil {
			return report.ShowName(queue[i].cs.Name) + " (" + report.JoinList(t, "and") + ")"
		}
		return report.ShowLabel(*queue[i].cs)
	}
	decide := func(i int, a report.ReviewAction) (bool, int, error) {
		cs := queue[i].cs
		d := trust.DecisionApproved
		if a == report.ReviewDecline {
			d = trust.DecisionDeclined
		}
		if a == report.ReviewApprove && !g.confirmCritical(w, keys, queue[i]) {
			return false, 0, nil
		}
		if cs.CannotReview() != "" {
			// leaveOut keeps these out of the queue; were one in it, it
			// would be left waiting, not asked about again.
			fmt.Fprintln(w, report.ReviewLeftOut(*cs))
			return true, 1, nil
		}
		var t gate.Targets
		for _, m := range queue[i].members() {
			t.Clients = append(t.Clients, *m.cs)
		}
		o, err := g.decideAll(ctx, e, w, d, t)
		if err != nil {
			return false, 0, err
		}
		decided = append(decided, o...)
		if stillBlocks(o, vetted(e)) {
			return true, 1, nil // its agent runs it all the same: it still waits
		}
		return true, 0, nil
	}
	return reviewKeys(e, w, st, left, len(queue), keys, show, label, decide)
}

// leaveOut writes, for each of queue that a review cannot move, its
// line, and returns the others and how many it left: an entry the user
// declined that its agent runs on its own (declining it again would only
// record the decline again: the way out that check, status and launch
// give, naming reviewCmd), and one neither approve nor decline can be
// recorded for (gate.ClientServer.CannotReview: why, and what to change).
func leaveOut(w io.Writer, queue []pending, reviewCmd string) (kept []pending, left int) {
	for _, p := range queue {
		switch {
		case declinedRuns(*p.cs):
			fmt.Fprintln(w, report.DeclinedRunsWayOut(*p.cs, p.cv.Title, reviewCmd))
		case p.cs.CannotReview() != "":
			fmt.Fprintln(w, report.ReviewLeftOut(*p.cs))
		default:
			kept = append(kept, p)
			continue
		}
		left++
	}
	return kept, left
}

// writeItem writes queue[i]'s review screen.
func (g *gateView) writeItem(ctx context.Context, e *env, w io.Writer, st report.Style, queue []pending, i int) {
	write, _ := g.itemWriter(ctx, e, w, st, queue, i, false)
	write()
}

// itemWriter computes queue[i]'s review screen (what runs, what changed
// since the last review with the files' content, findings) and returns
// what writes it, so that `?` shows it again without computing it again,
// and whether the diff left added lines out. full lifts the diff's caps.
func (g *gateView) itemWriter(ctx context.Context, e *env, w io.Writer, st report.Style, queue []pending, i int, full bool) (write func(), shortened bool) {
	p := queue[i]
	since := p.cv.Since(*p.cs)
	lim := project.ContentLimits{}
	if full {
		lim = fullDiff
	}
	content := changeContentAt(ctx, e, p.cv.Top, p.cv.Head, p.cs.Last.Baseline(), since, lim)
	if p.cs.Last == nil {
		// Never reviewed: what its files hold, not their hashes.
		content = newContentAt(ctx, e, p.cv.Top, p.cs.Files, lim)
	}
	if content != nil {
		files, more := content.Content.Shortened()
		shortened = len(files) > 0 || more > 0
	}
	item := report.ReviewItem{Index: i + 1, Total: len(queue), Title: p.cv.Title, Entry: *p.cs, Since: since, Content: content,
		Findings: itemFindings(p)}
	for _, o := range p.same {
		item.Others = append(item.Others, report.ReviewOther{Title: o.cv.Title, Entry: *o.cs})
	}
	return func() { report.WriteReviewItem(w, item, st) }, shortened
}

// itemFindings are the findings on p's server, the most severe first,
// from its agent's view (ClientView.Findings), as for every agent.
func itemFindings(p pending) []trust.Finding {
	if len(p.same) == 0 {
		return p.cv.Findings(*p.cs)
	}
	// One decision for several agents: what any of them says.
	var out []trust.Finding
	seen := map[string]bool{}
	for _, m := range p.members() {
		for _, f := range m.cv.Findings(*m.cs) {
			if k := f.Rule + "\x00" + f.Path + "\x00" + f.Message; !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	policy.SortBySeverity(out)
	return out
}

// confirmCritical asks, for a server with a critical finding, that its
// name be typed before it is approved (one key is too easy to press by
// habit there), and says so when it was not.
func (g *gateView) confirmCritical(w io.Writer, keys keyReader, p pending) bool {
	var rules []string
	for _, f := range itemFindings(p) {
		if f.Severity == trust.SeverityCritical {
			rules = append(rules, f.Rule)
		}
	}
	if len(rules) == 0 {
		return true
	}
	name := p.cs.Name
	line, err := keys.line(func() {
		fmt.Fprintf(w, "%s has a critical finding (%s): type its name, %s, and Enter to approve it: ", report.ShowLabel(*p.cs), strings.Join(rules, ", "), report.Sanitize(name))
	})
	if err == nil && line == name {
		return true
	}
	fmt.Fprintf(w, "not approved: the name was not typed; %s still waits\n", report.ShowLabel(*p.cs))
	return false
}
