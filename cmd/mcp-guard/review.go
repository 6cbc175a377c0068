package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func reviewCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "review the servers that keep agentty from starting here: approve, decline or skip each",
		UsageText: "mcp-guard [-C DIR] review [--approve NAME... | --decline NAME... | --all]",
		Description: "For each server that waits for review it shows what runs, what changed since you last\n" +
			"reviewed it (fields, a unified diff of its files, the commits since) and findings, then asks. approve records agentty's\n" +
			"fingerprint in ~/.agentty/mcp_approvals.json (so agentty connects it) and the reviewed\n" +
			"version in mcp-guard's ledger; decline keeps it off (its agentty approval is removed) and\n" +
			"it stops asking until it changes; skip leaves it waiting. Without a terminal it never\n" +
			"asks: it lists what waits and exits 1, unless --approve, --decline or --all say what to do.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "approve", Usage: "approve the servers named as arguments"},
			&cli.BoolFlag{Name: "decline", Usage: "decline the servers named as arguments"},
			&cli.BoolFlag{Name: "all", Usage: "every server that waits for review (approve, or decline with --decline)"},
		},
		Action: func(c *cli.Context) error { return runReview(c, e) },
	}
}

func runReview(c *cli.Context, e *env) error {
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
	dir, err := launchDir(c)
	if err != nil {
		return err
	}
	g, err := evaluateGate(c.Context, e, dir)
	if err != nil {
		return err
	}
	g.warnLedger(e)
	if err := g.reviewable(); err != nil {
		return err
	}
	blocking := trust.Blocking(g.verdicts)
	if approve || decline {
		targets := blocking
		if !all {
			if targets, err = g.select_(names, approve); err != nil {
				return err
			}
		}
		if len(targets) == 0 {
			fmt.Fprintln(e.stdout, "nothing waits for review here")
			return nil
		}
		decision := trust.DecisionApproved
		if decline {
			decision = trust.DecisionDeclined
		}
		return g.decide(c.Context, e, e.stdout, decision, targets)
	}
	if len(blocking) == 0 {
		fmt.Fprintln(e.stdout, "nothing waits for review here: agentty may start")
		return nil
	}
	if !e.interactive() {
		st := e.style(e.stdout)
		report.WriteBlocking(e.stdout, g.configPath(), blocking, reviewCommandLine(c), st)
		// What changed in the servers reviewed before, so a decision
		// given with --approve need not be blind.
		for i := range blocking {
			if item := g.reviewItem(c.Context, e, i, blocking, nil); item.Since != nil {
				fmt.Fprintln(e.stdout)
				report.WriteReviewItem(e.stdout, item, st)
			}
		}
		fmt.Fprintln(e.stderr, "mcp-guard: not a terminal, so nothing was asked; decide with --approve NAME... or --decline NAME...")
		return attention()
	}
	left, err := g.interactive(c.Context, e, blocking, newTerminalKeys(e.stdin))
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
	cfg := g.in.Config
	switch {
	case cfg == nil:
		return refusef("run it in agentty's launch directory, or pass -C DIR", "no MCP configuration here: nothing to review")
	case cfg.Scope != trust.ScopeProject:
		return refusef("only a project's .agentty/mcp.json is reviewed",
			"%s is a %s configuration: it did not come with a repository", report.Sanitize(cfg.Path), cfg.Scope)
	case cfg.Unreadable():
		return refusef("`mcp-guard status` shows why", "%s: %s", report.Sanitize(cfg.Path), report.Sanitize(cfg.UnreadableText()))
	case !cfg.Valid():
		return refusef("fix the file first; `mcp-guard status` shows why it is invalid",
			"%s is invalid, so agentty runs none of its servers: %s", report.Sanitize(cfg.Path), report.Sanitize(cfg.Err.Error()))
	}
	return nil
}

// select_ finds the named servers; the whole request is refused if any
// name is unknown or cannot be decided about.
func (g *gateView) select_(names []string, approve bool) ([]trust.GateVerdict, error) {
	var out []trust.GateVerdict
	var problems []string
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		var found *trust.GateVerdict
		for i := range g.verdicts {
			if g.verdicts[i].Server.Name == name {
				found = &g.verdicts[i]
			}
		}
		switch {
		case found == nil:
			problems = append(problems, fmt.Sprintf("%q: no such server in %s", report.Sanitize(name), report.Sanitize(g.configPath())))
		case approve && found.Server.Disabled:
			problems = append(problems, fmt.Sprintf("%q is disabled: agentty does not run it", report.Sanitize(name)))
		case found.Server.Command == "" && found.Server.URL == "":
			problems = append(problems, fmt.Sprintf("%q has neither command nor url: nothing runs", report.Sanitize(name)))
		case found.Deep == "":
			problems = append(problems, fmt.Sprintf("%q: mcp-guard could not fingerprint what it runs", report.Sanitize(name)))
		default:
			out = append(out, *found)
		}
	}
	if len(problems) > 0 {
		return nil, refusef("nothing was recorded; `mcp-guard check` lists what waits for review", "cannot review: %s", strings.Join(problems, "; "))
	}
	return out, nil
}

// decide records one decision for every target: agentty's store first
// (approve adds the fingerprint of each gated server, decline removes it),
// then mcp-guard's ledger. A crash between the two leaves the server
// waiting for review, never reviewed behind agentty's back.
func (g *gateView) decide(ctx context.Context, e *env, w io.Writer, d trust.Decision, targets []trust.GateVerdict) error {
	// A ledger that cannot take the decision stops it before agentty's
	// store changes.
	if err := g.ledger.Err; err != nil {
		return failf("nothing was recorded; fix or move the ledger, then review again", "%v", err)
	}
	if g.ledger.Newer {
		return failf("use the newer mcp-guard that wrote it", "%s was written by a newer mcp-guard: nothing was recorded", g.ledger.Path)
	}
	changed := map[string]bool{}
	var hashes []string
	for _, v := range targets {
		if v.Server.Gated && v.Server.Fingerprint != "" {
			hashes = append(hashes, v.Server.Fingerprint)
		}
	}
	if len(hashes) > 0 {
		err := trust.UpdateApprovals(ctx, g.in.StorePath, func(ed *trust.ApprovalsEdit) error {
			clear(changed)
			for _, h := range hashes {
				var ok bool
				if d == trust.DecisionApproved {
					var err error
					if ok, err = ed.Add(h); err != nil {
						return err
					}
				} else {
					ok = ed.Remove(h)
				}
				changed[h] = ok
			}
			return nil
		})
		if err != nil {
			return storeError(g.in.StorePath, err)
		}
	}
	err := trust.UpdateLedger(ctx, g.ledgerDir, func(ed *trust.LedgerEdit) error {
		ed.Path = g.top
		if ed.Path == "" {
			ed.Path = g.dir
		}
		for _, v := range targets {
			if err := ed.Record(trust.Review{
				ReviewKey: v.Key,
				Decision:  d,
				ReviewedVersion: trust.ReviewedVersion{
					Deep: v.Deep, Fingerprint: v.Server.Fingerprint, Entry: v.Server.Canonical(),
					Files: trust.ReviewedFiles(g.servers[v.Server.Name].Files), Commit: g.head,
				},
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return failf("agentty's store may already hold the change; run the review again when the ledger is fixed", "recording the review: %v", err)
	}
	st := e.style(w)
	connect := false
	for _, v := range targets {
		name := report.Sanitize(v.Server.Name)
		if d == trust.DecisionApproved {
			note := "reviewed " + report.Short(v.Deep)
			switch {
			case changed[v.Server.Fingerprint]:
				note = "agentty fingerprint " + report.Short(v.Server.Fingerprint) + " added, " + note
				connect = true
			case v.Server.Gated:
				note = "agentty fingerprint " + report.Short(v.Server.Fingerprint) + " already there, " + note
			}
			fmt.Fprintf(w, "%s %s  %s  %s\n", st.OK("approved"), name, report.CommandLine(v.Server), st.Dim("("+note+")"))
			continue
		}
		note := "agentty will ask before running it"
		if changed[v.Server.Fingerprint] {
			note = "its approval was removed from agentty's store (approvals are global: other repositories with the same command lose it too)"
		}
		fmt.Fprintf(w, "%s %s  %s\n", st.Warning("declined"), name, st.Dim("("+note+")"))
		if v.Trusted && v.Reason != trust.ReasonApproved {
			fmt.Fprintf(e.stderr, "mcp-guard: warning: %s: %s still lets agentty run it; only removing that grant (or the server) turns it off\n", name, report.GateReasonText(trust.GateVerdict{Verdict: v.Verdict, Why: trust.GateDeclinedRuns}))
		}
	}
	if connect {
		fmt.Fprintln(w, "restart agentty to connect approved servers")
	}
	return nil
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
	for i, v := range blocking {
		item := g.reviewItem(ctx, e, i, blocking, findings)
		if i > 0 {
			fmt.Fprintln(w)
		}
		report.WriteReviewItem(w, item, st)
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
			switch report.ReviewKeyAction(k) {
			case report.ReviewApprove:
				if v.Deep == "" {
					fmt.Fprintln(w, "mcp-guard could not fingerprint what it runs, so it cannot be approved")
					continue
				}
				if err := g.decide(ctx, e, w, trust.DecisionApproved, []trust.GateVerdict{v}); err != nil {
					return len(blocking) - i, err
				}
				break ask
			case report.ReviewDecline:
				if v.Deep == "" {
					fmt.Fprintln(w, "mcp-guard could not fingerprint what it runs, so it cannot be declined")
					continue
				}
				if err := g.decide(ctx, e, w, trust.DecisionDeclined, []trust.GateVerdict{v}); err != nil {
					return len(blocking) - i, err
				}
				if v.Trusted && v.Reason != trust.ReasonApproved {
					left++
				}
				break ask
			case report.ReviewSkip:
				fmt.Fprintf(w, "skipped %s\n", report.Sanitize(v.Server.Name))
				left++
				break ask
			case report.ReviewQuit:
				left += len(blocking) - i
				fmt.Fprintf(w, "stopped; %d still wait for review\n", left)
				return left, nil
			case report.ReviewInterrupt:
				left += len(blocking) - i
				fmt.Fprintf(w, "interrupted; %d still wait for review\n", left)
				return left, &exitError{code: exitInterrupted}
			case report.ReviewShowHelp:
				fmt.Fprint(w, report.ReviewHelp())
				report.WriteReviewItem(w, item, st)
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
	ps := g.servers[v.Server.Name]
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

// since diffs a server against the version last reviewed (the last
// approved one, else the last decision); nil when it was never reviewed.
func (g *gateView) since(v trust.GateVerdict) *trust.Change {
	base := v.Last.Baseline()
	if base == nil {
		return nil
	}
	name, _ := json.Marshal(v.Server.Name)
	wrap := func(entry string) *trust.Config {
		return trust.Parse(g.config, []byte(`{"mcpServers":{`+string(name)+`:`+entry+`}}`), trust.ScopeProject)
	}
	old := trust.Files{v.Server.Name: base.FileIDs()}
	cur := trust.Files{v.Server.Name: g.servers[v.Server.Name].Files}
	for _, c := range trust.Diff(wrap(base.Entry), wrap(v.Server.Canonical()), old, cur, trust.Grants{}) {
		if c.Server == v.Server.Name {
			return &c
		}
	}
	return &trust.Change{Server: v.Server.Name}
}

// findings are the configuration's integrity findings and the policy
// checks of its servers.
func (g *gateView) findings() []trust.Finding {
	out := append([]trust.Finding(nil), g.in.Findings...)
	return append(out, policy.CheckServers(g.in.Config, policy.Options{})...)
}

// interactive reports whether a person is at a terminal to answer.
func (e *env) interactive() bool {
	in, ok := e.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return false
	}
	out, ok := e.stdout.(*os.File)
	return ok && term.IsTerminal(int(out.Fd()))
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
		if old, err := term.MakeRaw(fd); err == nil {
			defer term.Restore(fd, old)
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
func reviewCommandLine(c *cli.Context) string {
	for _, a := range c.Lineage() {
		if v := a.String("C"); v != "" {
			return "mcp-guard -C " + shellQuote(report.Sanitize(v)) + " review"
		}
	}
	return "mcp-guard review"
}
