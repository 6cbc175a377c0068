package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func reviewCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "review the servers that keep an agent from starting here: approve, decline or skip each",
		UsageText: "mcp-guard [-C DIR] review [--approve NAME... | --decline NAME... | --all] [--client ID]",
		Description: "For each server that waits for review it shows what runs, what changed since you last\n" +
			"reviewed it (fields, a unified diff of its files, the commits since) and findings, then asks. approve records agentty's\n" +
			"fingerprint in ~/.agentty/mcp_approvals.json (so agentty connects it) and the reviewed\n" +
			"version in mcp-guard's ledger; decline keeps it off (its agentty approval is removed) and\n" +
			"it stops asking until it changes; skip leaves it waiting. Without a terminal it never\n" +
			"asks: it lists what waits and exits 1, unless --approve, --decline or --all say what to do.\n" +
			"Claude Code's servers (.mcp.json) are reviewed by name too; a name two clients load must be\n" +
			"qualified (claude-code:db, agentty:db) or given with --client. Reviewing one records it in\n" +
			"mcp-guard's ledger only, nothing in Claude Code's files: `mcp-guard launch -- claude` hands\n" +
			"Claude Code exactly the reviewed servers.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "approve", Usage: "approve the servers named as arguments"},
			&cli.BoolFlag{Name: "decline", Usage: "decline the servers named as arguments"},
			&cli.BoolFlag{Name: "all", Usage: "every server that waits for review (approve, or decline with --decline)"},
			clientFlag,
		},
		Action: func(ctx context.Context, c *cli.Command) error { return runReview(ctx, c, e) },
	}
}

func runReview(ctx context.Context, c *cli.Command, e *env) error {
	names := c.Args().Slice()
	approve, decline, all := c.Bool("approve"), c.Bool("decline"), c.Bool("all")
	switch {
	case approve && decline:
		return usageError("review takes --approve or --decline, not both")
	case len(names) > 0 && !approve && !decline:
		return usageError("review: server names go with --approve or --decline")
	case len(names) > 0 && all:
		return usageError("review takes server names or --all, not both")
	case (approve || decline) && len(names) == 0 && !all:
		return usageError("review --%s needs server names, or --all", map[bool]string{true: "approve", false: "decline"}[approve])
	}
	if all && !decline {
		approve = true
	}
	g, err := gateHere(ctx, c, e)
	if err != nil {
		return err
	}
	g.warnLedger(e)
	if len(g.Clients) > 0 || c.String("client") != "" {
		return g.reviewClients(ctx, c, e, names, approve, decline, all)
	}
	if g.In.Config == nil && len(names) == 0 {
		// As check: with nothing configured, nothing waits.
		fmt.Fprintln(e.info, "no MCP configuration here: nothing to review")
		return nil
	}
	if err := g.reviewable(); err != nil {
		return err
	}
	blocking := g.Blocking(g.UseSnapshot(e.getenv))
	if approve || decline {
		targets := blocking
		if !all {
			if targets, err = g.select_(names, approve); err != nil {
				return err
			}
		}
		if len(targets) == 0 {
			fmt.Fprintln(e.info, "nothing waits for review here")
			return nil
		}
		decision := trust.DecisionApproved
		if decline {
			decision = trust.DecisionDeclined
		}
		return g.decide(ctx, e, e.info, decision, targets)
	}
	if len(blocking) == 0 {
		fmt.Fprintln(e.info, "nothing waits for review here: agentty may start")
		return nil
	}
	if !e.interactive() {
		st := e.style(e.info)
		report.WriteBlocking(e.info, g.configPath(), blocking, reviewCommandLine(c), st)
		// What changed in the servers reviewed before, so a decision
		// given with --approve need not be blind.
		for i := range blocking {
			if item := g.reviewItem(ctx, e, i, blocking, nil); item.Since != nil {
				fmt.Fprintln(e.info)
				report.WriteReviewItem(e.info, item, st)
			}
		}
		fmt.Fprintln(e.stderr, "mcp-guard: not a terminal, so nothing was asked; decide with --approve NAME... or --decline NAME...")
		return attention()
	}
	left, err := g.interactive(ctx, e, blocking, newTerminalKeys(e.stdin))
	if err != nil {
		return err
	}
	if left > 0 {
		return attention()
	}
	return nil
}

// reviewable refuses to review where there is nothing mcp-guard reviews.
func (g *gateView) reviewable() error {
	if err := g.Reviewable(); err != nil {
		return gateErr(err)
	}
	return nil
}

// select_ finds the named servers (gate.Select).
func (g *gateView) select_(names []string, approve bool) ([]trust.GateVerdict, error) {
	d := trust.DecisionDeclined
	if approve {
		d = trust.DecisionApproved
	}
	out, err := g.Select(names, d)
	if err != nil {
		return nil, gateErr(err)
	}
	return out, nil
}

// decide records one decision for every target (gate.Record) and says
// what it did.
func (g *gateView) decide(ctx context.Context, e *env, w io.Writer, d trust.Decision, targets []trust.GateVerdict) error {
	outcomes, err := g.record(ctx, e, w, d, targets)
	if err != nil {
		return err
	}
	report.WriteRestartNote(w, outcomes)
	return nil
}

// record is decide without the closing note, for a run of several.
func (g *gateView) record(ctx context.Context, e *env, w io.Writer, d trust.Decision, targets []trust.GateVerdict) ([]gate.Outcome, error) {
	outcomes, err := g.Record(ctx, d, targets)
	if err != nil {
		return nil, gateErr(err)
	}
	report.WriteDecisions(w, outcomes, e.style(w))
	return outcomes, nil
}

// interactive asks about each blocking server with single keys and
// returns how many still wait for review. What keys do is report's key
// table (report.ReviewKeyAction), the same one `?` lists. keys.key is
// called once the server's screen is written, and a terminalKeys reader
// drops whatever was typed before it shows the prompt.
// Ctrl-C stops like q and ends the command with exit status 130.
func (g *gateView) interactive(ctx context.Context, e *env, blocking []trust.GateVerdict, keys keyReader) (left int, err error) {
	w := e.stdout
	st := e.style(w)
	findings := g.findings()
	var decided []gate.Outcome
	defer func() { report.WriteRestartNote(w, decided) }()
	var item report.ReviewItem
	show := func(i int, again bool) {
		if !again {
			item = g.reviewItem(ctx, e, i, blocking, findings)
		}
		report.WriteReviewItem(w, item, st)
	}
	label := func(i int) string { return blocking[i].Server.Name }
	decide := func(i int, a report.ReviewAction) (bool, int, error) {
		v := blocking[i]
		d, verb := trust.DecisionApproved, "approved"
		if a == report.ReviewDecline {
			d, verb = trust.DecisionDeclined, "declined"
		}
		if v.Deep == "" {
			fmt.Fprintf(w, "mcp-guard could not fingerprint what it runs, so it cannot be %s\n", verb)
			return false, 0, nil
		}
		o, err := g.record(ctx, e, w, d, []trust.GateVerdict{v})
		if err != nil {
			return false, 0, err
		}
		decided = append(decided, o...)
		if d == trust.DecisionDeclined && v.Trusted && v.Reason != trust.ReasonApproved {
			return true, 1, nil
		}
		return true, 0, nil
	}
	return reviewKeys(e, w, st, len(blocking), keys, show, label, decide)
}

// reviewKeys runs the review key loop over n items: show(i, again) writes
// item i's screen (again after `?`), label(i) names it, and decide(i, a)
// records approve or decline, saying whether to move on and how many more
// still wait. It returns how many items still wait for review.
func reviewKeys(e *env, w io.Writer, st report.Style, n int, keys keyReader,
	show func(i int, again bool), label func(i int) string,
	decide func(i int, a report.ReviewAction) (next bool, wait int, err error)) (left int, err error) {
	for i := 0; i < n; i++ {
		if i > 0 {
			fmt.Fprintln(w)
		}
		show(i, false)
	ask:
		for {
			k, err := keys.key(func() { fmt.Fprint(w, report.ReviewPrompt(st)) })
			if err != nil {
				// The end of input quits, and so does a terminal that
				// cannot be read or cannot drop type-ahead (which is
				// said).
				if !errors.Is(err, io.EOF) {
					fmt.Fprintf(e.stderr, "\nmcp-guard: %s\n", report.Sanitize(err.Error()))
				}
				k = 'q'
			}
			if k >= ' ' && k < 0x7f {
				fmt.Fprintf(w, "%c", k)
			}
			fmt.Fprintln(w)
			switch a := report.ReviewKeyAction(k); a {
			case report.ReviewApprove, report.ReviewDecline:
				next, wait, err := decide(i, a)
				if err != nil {
					return n - i, err
				}
				if next {
					left += wait
					break ask
				}
			case report.ReviewSkip:
				fmt.Fprintf(w, "skipped %s\n", report.Sanitize(label(i)))
				left++
				break ask
			case report.ReviewQuit:
				left += n - i
				fmt.Fprintf(w, "stopped; %s for review\n", report.Waiting(left, "still"))
				return left, nil
			case report.ReviewInterrupt:
				left += n - i
				fmt.Fprintf(w, "interrupted; %s for review\n", report.Waiting(left, "still"))
				return left, &exitError{code: exitInterrupted}
			case report.ReviewShowHelp:
				fmt.Fprint(w, report.ReviewHelp())
				show(i, true)
			default:
				fmt.Fprintln(w, report.ReviewHint())
			}
		}
	}
	return left, nil
}

// exitInterrupted is the exit status of a review ended with Ctrl-C: what a
// shell reports for a program SIGINT stopped (128+2), which is what Ctrl-C
// does to mcp-guard whenever the terminal is not waiting for a key.
const exitInterrupted = 130

// reviewItem is the review screen of blocking[i]: what runs, what changed
// since the last review (with the files' content) and its findings.
func (g *gateView) reviewItem(ctx context.Context, e *env, i int, blocking []trust.GateVerdict, findings []trust.Finding) report.ReviewItem {
	v := blocking[i]
	ps := g.Servers[v.Server.Name]
	item := report.ReviewItem{
		Index: i + 1, Total: len(blocking), Verdict: v, ConfigPath: g.configPath(),
		Files: ps.Files, Scope: report.NewServerScope(ps.Scope, ps.Files), Since: g.since(v),
	}
	item.Content = g.reviewContent(ctx, e, v.Last.Baseline(), item.Since)
	for _, f := range findings {
		if f.Server == v.Server.Name {
			item.Findings = append(item.Findings, f)
		}
	}
	return item
}

// since diffs a server against the version last reviewed (gate.Since).
func (g *gateView) since(v trust.GateVerdict) *trust.Change { return g.Since(v) }

// findings are the configuration's integrity findings and the policy
// checks of its servers.
func (g *gateView) findings() []trust.Finding {
	out := append([]trust.Finding(nil), g.In.Findings...)
	return append(out, policy.InspectionFindings(g.In, policy.Options{})...)
}

// interactive reports whether a person is at a terminal to answer.
func (e *env) interactive() bool {
	in, ok := e.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return false
	}
	return report.IsTerminal(e.stdout)
}

// keyReader yields single key presses.
type keyReader interface {
	// key shows the prompt (calls prompt) and yields the next key
	// pressed. A terminal's reader yields only a key pressed after the
	// prompt was written.
	key(prompt func()) (byte, error)
}

// terminalKeys reads one key at a time from a terminal in raw mode,
// restoring the terminal after each key. Before the prompt it discards
// what was typed ahead: a key typed while the previous server was being
// decided, or this server's screen drawn, must not decide about a server
// nobody has seen yet. From anything else it reads bytes (e.interactive
// never prompts without a terminal).
type terminalKeys struct{ r io.Reader }

func newTerminalKeys(r io.Reader) keyReader { return terminalKeys{r} }

func (t terminalKeys) key(prompt func()) (byte, error) {
	if f, ok := t.r.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fd := int(f.Fd())
		if restore, err := makeRaw(fd); err == nil {
			defer restore()
		}
		// After MakeRaw, so that a half-typed line (no newline yet)
		// that canonical mode held back is dropped too; before the
		// prompt, so that a key pressed once it shows is kept.
		if err := discardTypeahead(fd); err != nil {
			return 0, fmt.Errorf("cannot discard the keys typed ahead: %w", err)
		}
	}
	prompt()
	var b [1]byte
	for {
		n, err := t.r.Read(b[:])
		if n == 1 {
			if b[0] == '\r' || b[0] == '\n' {
				continue
			}
			return b[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// reviewCommandLine is `mcp-guard review` as the user should type it here.
func reviewCommandLine(c *cli.Command) string {
	for _, a := range c.Lineage() {
		if v := a.String("C"); v != "" {
			return "mcp-guard -C " + shellQuote(report.Sanitize(v)) + " review"
		}
	}
	return "mcp-guard review"
}
