package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "exit 0 when every agent found here may start, 1 with the servers that wait for review",
		UsageText: "mcp-guard [-C DIR] check",
		Description: "A server, hook or helper waits for review when its agent would run it (or ask to) and\n" +
			"you have not reviewed its current version with `mcp-guard review`: new ones, changed ones (the\n" +
			"entry, or the repository code it runs), ones the agent approved before mcp-guard looked at\n" +
			"them, and ones a blanket grant or a trusted folder lets run. A server you declined never\n" +
			"blocks: `mcp-guard launch` leaves it out; a declined hook or helper its agent runs whatever\n" +
			"launch hands it does, until you turn it off or approve it. check and launch give the same answer.",
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("check takes no arguments")
			}
			g, err := gateHere(ctx, c, e)
			if err != nil {
				return err
			}
			g.warnLedger(e)
			// Every agent found, agentty first, in one walk: the same
			// question launch asks (a declined server never blocks while
			// launch hands over only what was reviewed).
			if g.clientsBlocked(e, e.info, "", vetted(e), reviewCommandLine(c)) > 0 {
				return attention()
			}
			if len(g.All()) == 0 {
				fmt.Fprintln(e.info, "nothing waits for review: no agent's project MCP configuration here")
			}
			// An agent the user keeps no state of (a Claude Code user's
			// .mcp.json is Qwen Code's and Copilot CLI's too) is said in
			// one line after those they use, when it has nothing else to
			// say: one line per agent they never ran is noise.
			idle := idleAgents(e, g.All())
			// A note wraps on a terminal, under its text.
			st := e.style(e.info)
			note := func(format string, args ...any) {
				fmt.Fprint(e.info, st.Wrap("note: "+fmt.Sprintf(format, args...)+"\n"))
			}
			var folded []string
			for _, cv := range g.All() {
				if idle[cv] {
					folded = append(folded, cv.Title)
					continue
				}
				if cv.Command != "" {
					fmt.Fprintf(e.info, "%s: nothing waits for review: `mcp-guard launch -- %s` may start here\n", cv.Title, cv.Command)
				} else {
					fmt.Fprintf(e.info, "%s: nothing waits for review\n", cv.Title)
				}
				for _, cs := range cv.Servers {
					switch {
					case cs.Runs && cs.Why == trust.GateDeclinedRuns && cv.Command == "":
						// An editor: launch has nothing to hand it, so
						// nothing leaves the server out but the user.
						note("you declined %s, yet %s runs it on its own (mcp-guard launch has nothing to hand it): %s (%s)",
							report.ShowLabel(cs), cv.Title, report.TurnItOff(cs), report.ShowNamed(report.AgentWords(cv, cs), cs.Name))
					case cs.Runs && cs.Why == trust.GateDeclinedRuns:
						note("you declined %s; mcp-guard launch leaves it out, but %s started directly would still run it (%s)",
							report.ShowLabel(cs), cv.Title, report.ShowNamed(report.AgentWords(cv, cs), cs.Name))
					case cs.Runs && cs.Outside && cs.State != trust.StateReviewed:
						note("%s is in %s, outside the work tree: mcp-guard cannot review it, so launch leaves it out",
							report.ShowLabel(cs), report.Sanitize(cs.Config))
					}
				}
			}
			if len(folded) > 0 {
				them := "them"
				if len(folded) == 1 {
					them = "it"
				}
				fmt.Fprint(e.info, st.Wrap(fmt.Sprintf("%s: nothing waits for review either (you keep no state of %s on this machine)\n", report.JoinList(folded, "and"), them)))
			}
			return nil
		},
	}
}

// idleAgents are the agents of views check folds into one line: those
// the user keeps no state of on this machine (client.State.InUse) whose
// every server is quiet (no note to say), provided another agent is said
// in full; none otherwise.
func idleAgents(e *env, views []*gate.ClientView) map[*gate.ClientView]bool {
	idle := map[*gate.ClientView]bool{}
	for _, cv := range views {
		if cv.Eval.State == nil || cv.Eval.State.InUse(client.Env{Getenv: e.getenv}) {
			continue
		}
		quiet := true
		for _, cs := range cv.Servers {
			quiet = quiet && !(cs.Runs && (cs.Why == trust.GateDeclinedRuns || cs.Outside && cs.State != trust.StateReviewed))
		}
		idle[cv] = quiet
	}
	for _, cv := range views {
		if !idle[cv] {
			return idle
		}
	}
	return nil
}

// gateView is the gate's view of one launch directory, with the CLI's
// rendering of what it decides (package gate decides).
type gateView struct {
	*gate.View
}

// evaluateGate evaluates the gate for dir (gate.Evaluate); starting is the
// agent launch is starting ("" for every other command).
func evaluateGate(ctx context.Context, e *env, dir string, starting client.ID) (*gateView, error) {
	v, err := gate.Evaluate(ctx, dir, gate.Env{Getenv: e.getenv, Environ: e.environ, Starting: starting})
	if err != nil {
		return nil, gateErr(err)
	}
	return &gateView{v}, nil
}

// gateHere evaluates the gate for the launch directory (-C DIR or the
// current one).
func gateHere(ctx context.Context, c *cli.Command, e *env) (*gateView, error) {
	dir, err := launchDir(c)
	if err != nil {
		return nil, err
	}
	return evaluateGate(ctx, e, dir, "")
}

// gateErr gives an error of package gate its exit status: a refusal 1, a
// failure 2, each with its hint.
func gateErr(err error) error {
	var r *gate.Refusal
	var f *gate.Failure
	switch {
	case errors.As(err, &r):
		return refusef(r.Hint, "%s", r.Msg)
	case errors.As(err, &f):
		return failf(f.Hint, "%v", f.Err)
	}
	return failf("", "%v", err)
}

// warnLedger says on stderr why nothing counts as reviewed, if so.
func (g *gateView) warnLedger(e *env) {
	if g.Ledger.Err != nil {
		fmt.Fprintf(e.stderr, "mcp-guard: warning: %s\n", report.Sanitize(g.Ledger.Err.Error()))
	}
}
