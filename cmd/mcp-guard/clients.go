package main

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

// clientsBlocked lists, for every client other than agentty (only one
// when only is set), what keeps a launch of it from starting, and returns
// how many servers block plus one per client whose gate is closed.
// vetted: the launch hands the client the vetted file.
func (g *gateView) clientsBlocked(e *env, w io.Writer, only client.ID, vetted bool, reviewCmd string) int {
	n := 0
	for _, cv := range g.Clients {
		if only != "" && cv.Client != only {
			continue
		}
		b := cv.Blocking(vetted)
		if len(b) == 0 && len(cv.Closed) == 0 {
			continue
		}
		n += len(b)
		if len(cv.Closed) > 0 {
			n++
		}
		report.WriteClientBlocking(w, cv, b, reviewCmd, e.style(w))
	}
	return n
}

// vetted reports whether a launch hands other clients the vetted file
// (gate.SnapshotEnv=0 hands them nothing extra).
func vetted(e *env) bool { return e.getenv(gate.SnapshotEnv) != "0" }

// launchName is the command `mcp-guard launch --` hands a client its
// reviewed servers with; "" when launch does not start it.
func launchName(id client.ID) string {
	if c := client.Lookup(id); c != nil {
		return c.Command()
	}
	return ""
}

// clientFlag restricts server names to one client.
var clientFlag = &cli.StringFlag{Name: "client", Usage: "the client the names are of (agentty, claude-code); CLIENT:NAME does the same per name"}

// decideAll records one decision for servers of every client
// (gate.Decide) and says what it did.
func (g *gateView) decideAll(ctx context.Context, e *env, d trust.Decision, t gate.Targets) error {
	outcomes, err := g.Decide(ctx, d, t)
	if err != nil {
		return gateErr(err)
	}
	report.WriteDecisions(e.info, outcomes, e.style(e.info))
	report.WriteClientDecisions(e.info, d, t.Clients, e.style(e.info))
	return nil
}

// reviewClients is review where other clients than agentty are found:
// decisions by name across clients; without one, agentty's review as
// usual, then what of the other clients waits.
func (g *gateView) reviewClients(ctx context.Context, c *cli.Command, e *env, names []string, approve, decline, all bool) error {
	d := trust.DecisionApproved
	if decline {
		d = trust.DecisionDeclined
	}
	agentty := g.In.Config != nil && g.Reviewable() == nil
	if approve || decline {
		var t gate.Targets
		if all {
			if agentty {
				t.Agentty = g.Blocking(g.UseSnapshot(e.getenv))
			}
			for _, cv := range g.Clients {
				t.Clients = append(t.Clients, cv.Blocking(vetted(e))...)
			}
		} else {
			var err error
			if t, err = g.SelectTargets(names, client.ID(c.String("client")), d); err != nil {
				return gateErr(err)
			}
		}
		if t.Len() == 0 {
			fmt.Fprintln(e.info, "nothing waits for review here")
			return nil
		}
		return g.decideAll(ctx, e, d, t)
	}
	needs := false
	if err := g.invalid(); err != nil {
		fmt.Fprintln(e.info, err)
		needs = true
	}
	if agentty {
		if blocking := g.Blocking(g.UseSnapshot(e.getenv)); len(blocking) > 0 {
			if e.interactive() {
				left, err := g.interactive(ctx, e, blocking, newTerminalKeys(e.stdin))
				if err != nil {
					return err
				}
				needs = left > 0
			} else {
				report.WriteBlocking(e.info, g.configPath(), blocking, reviewCommandLine(c), e.style(e.info))
				needs = true
			}
		}
	}
	if e.interactive() {
		for _, cv := range g.Clients {
			if b := cv.Blocking(vetted(e)); len(b) > 0 {
				left, err := g.interactiveClient(ctx, e, cv, b, newTerminalKeys(e.stdin))
				if err != nil {
					return err
				}
				needs = needs || left > 0
			}
			if len(cv.Closed) > 0 {
				report.WriteClientBlocking(e.info, cv, nil, reviewCommandLine(c), e.style(e.info))
				needs = true
			}
		}
	} else if g.clientsBlocked(e, e.info, "", vetted(e), reviewCommandLine(c)) > 0 {
		needs = true
	}
	if needs {
		return attention()
	}
	fmt.Fprintln(e.info, "nothing waits for review here")
	return nil
}

// interactiveClient asks about each of a client's blocking servers with
// the review keys, records each decision in the ledger, and returns how
// many still wait. Ctrl-C ends the command with exit status 130.
func (g *gateView) interactiveClient(ctx context.Context, e *env, cv *gate.ClientView, blocking []gate.ClientServer, keys keyReader) (left int, err error) {
	w := e.stdout
	st := e.style(w)
	var since *trust.Change
	var content *report.ChangeContent
	show := func(i int, again bool) {
		cs := blocking[i]
		if !again {
			since = cv.Since(cs)
			content = changeContentAt(ctx, e, cv.Top, cv.Head, cs.Last.Baseline(), since)
		}
		report.WriteClientReviewItem(w, cv.Title, cs, i+1, len(blocking), since, content, st)
	}
	label := func(i int) string { return blocking[i].Label() }
	decide := func(i int, a report.ReviewAction) (bool, int, error) {
		cs := blocking[i]
		d := trust.DecisionApproved
		if a == report.ReviewDecline {
			d = trust.DecisionDeclined
		}
		if cs.Deep == "" {
			fmt.Fprintf(w, "mcp-guard could not fingerprint what it runs (%s), so it cannot be reviewed\n", report.Sanitize(cs.NoDeep))
			return false, 0, nil
		}
		if _, err := g.Decide(ctx, d, gate.Targets{Clients: []gate.ClientServer{cs}}); err != nil {
			return false, 0, gateErr(err)
		}
		report.WriteClientDecisions(w, d, []gate.ClientServer{cs}, st)
		return true, 0, nil
	}
	return reviewKeys(e, w, st, len(blocking), keys, show, label, decide)
}
