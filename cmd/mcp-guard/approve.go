package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func approveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:          "approve",
		ShellComplete: completeServers(e),
		Usage:         "approve what waits for review (servers, hooks, helpers): you reviewed it, its agent may run it (the same as review --approve)",
		UsageText:     "mcp-guard [-C DIR] approve NAME... | --all  [--client ID]",
		Description: "Records your review of each server's current version (the entry and the repository code it\n" +
			"runs) in mcp-guard's ledger, so `check` passes and `mcp-guard launch -- " + strings.Join(client.Commands(), "|") + "`\n" +
			"hands it to the agent. For agentty it also adds the server's fingerprint to\n" +
			"~/.agentty/mcp_approvals.json, exactly as `agentty plugin approve NAME --project` would.\n" +
			"A name several agents load at one version (the same entry and files) is one decision for all of\n" +
			"them; at different versions it is qualified (" + exampleLabel() + ") or given with --client; an entry whose name\n" +
			"another file of the same agent also has is NAME@FILE, as `check` lists it. The same as\n" +
			"`mcp-guard review --approve NAME...`. Nothing is written unless every name is valid.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "approve everything that waits for review here, of every agent (never what you declined)"},
			clientFlag(),
		},
		Action: func(ctx context.Context, c *cli.Command) error { return approveServers(ctx, c, e) },
	}
}

func revokeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:          "revoke",
		ShellComplete: completeServers(e),
		Usage:         "take back reviews: what you reviewed (servers, hooks, helpers) waits for review again; agentty's approvals leave its store too",
		UsageText:     "mcp-guard [-C DIR] revoke NAME... | --all | --whole-file",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "revoke every approval and review here, of every agent"},
			&cli.BoolFlag{Name: "whole-file", Usage: "revoke a legacy whole-file approval (an agent's approval of its whole configuration: agentty's)"},
		},
		Action: func(ctx context.Context, c *cli.Command) error { return revokeApprovals(ctx, c, e) },
	}
}

// revokeApprovals is revoke: gate.Revoke, and what it did.
func revokeApprovals(ctx context.Context, c *cli.Command, e *env) error {
	names := c.Args().Slice()
	all, wholeFile := c.Bool("all"), c.Bool("whole-file")
	if len(names) == 0 && !all && !wholeFile {
		return failf("`mcp-guard status` lists the servers; then: mcp-guard revoke NAME (or --all)", "revoke needs server names, or --all")
	}
	if len(names) > 0 && (all || wholeFile) {
		return usageError("revoke takes server names or --all, not both")
	}
	g, err := gateHere(ctx, c, e)
	if err != nil {
		return err
	}
	res, err := g.Revoke(ctx, names, all, wholeFile)
	if err != nil {
		return gateErr(err)
	}
	if err := report.WriteRevocation(e.info, res, e.style(e.info)); err != nil {
		return failf("", "writing what was revoked: %v", err)
	}
	if all && len(res.Servers) == 0 && !wholeFile {
		fmt.Fprintln(e.info, "nothing here was approved or reviewed: nothing to revoke")
	}
	for _, still := range res.Still {
		fmt.Fprintf(e.stderr, "mcp-guard: warning: %s\n", report.Sanitize(still))
	}
	return nil
}

// approveServers is `review --approve`: one approval records agentty's
// fingerprint and mcp-guard's review (gate.Decide).
func approveServers(ctx context.Context, c *cli.Command, e *env) error {
	names := c.Args().Slice()
	all := c.Bool("all")
	if len(names) == 0 && !all {
		return failf("`mcp-guard check` lists the servers that wait; then: mcp-guard approve NAME, or review them one by one: mcp-guard review", "approve needs server names, or --all")
	}
	if len(names) > 0 && all {
		return usageError("approve takes server names or --all, not both")
	}
	g, err := gateHere(ctx, c, e)
	if err != nil {
		return err
	}
	g.warnLedger(e)
	only := onlyClient(c)
	if only != "" && client.Lookup(only) == nil {
		return usageError("--client: no client %q (the clients are %s)", only, strings.Join(client.IDs(), ", "))
	}
	var t gate.Targets
	left := 0
	if !all {
		if t, err = g.SelectTargets(names, only, trust.DecisionApproved); err != nil {
			return gateErr(err)
		}
	} else if t, left = g.waitingTargets(e.info, only, vetted(e), reviewCommandLine(c)); t.Len() == 0 {
		if left > 0 {
			return attention()
		}
		fmt.Fprintln(e.info, "nothing waits for review here: nothing to approve")
		return nil
	}
	outcomes, err := g.decideAll(ctx, e, e.info, trust.DecisionApproved, t)
	if err != nil {
		return err
	}
	report.WriteRestartNote(e.info, outcomes)
	if left > 0 {
		return attention()
	}
	return nil
}
