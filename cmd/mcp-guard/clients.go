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

// launchName is the command `mcp-guard launch --` starts a client with.
func launchName(id client.ID) string {
	if id == client.ClaudeCode {
		return "claude"
	}
	return string(id)
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
	if g.clientsBlocked(e, e.info, "", vetted(e), reviewCommandLine(c)) > 0 {
		needs = true
	}
	if needs {
		return attention()
	}
	fmt.Fprintln(e.info, "nothing waits for review here")
	return nil
}
