package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func approveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "approve",
		Usage:     "approve project servers: you reviewed them, agentty may run them (the same as review --approve)",
		UsageText: "mcp-guard [-C DIR] approve NAME... | --all",
		Description: "Records your review of each server's current version in mcp-guard's ledger and its\n" +
			"fingerprint in ~/.agentty/mcp_approvals.json, exactly as `agentty plugin approve NAME\n" +
			"--project` would, so agentty connects it and mcp-guard launch starts it. The same as\n" +
			"`mcp-guard review --approve NAME...`. Nothing is written unless every name is valid.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "approve every server of the configuration that agentty would run"},
		},
		Action: func(c *cli.Context) error { return approveServers(c, e) },
	}
}

func revokeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "revoke",
		Usage:     "remove project servers' approvals from agentty's store (agentty has no revoke)",
		UsageText: "mcp-guard [-C DIR] revoke NAME... | --all | --whole-file",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "revoke every server of the configuration"},
			&cli.BoolFlag{Name: "whole-file", Usage: "revoke a legacy whole-file approval of the configuration"},
		},
		Action: func(c *cli.Context) error { return changeApprovals(c, e, false) },
	}
}

// changeApprovals is approve (add) and revoke (!add): select the servers,
// refuse the whole request if any name is not acceptable, then update the
// store once under its lock.
func changeApprovals(c *cli.Context, e *env, add bool) error {
	verb := "revoke"
	if add {
		verb = "approve"
	}
	names := c.Args().Slice()
	all := c.Bool("all")
	wholeFile := !add && c.Bool("whole-file")
	if len(names) == 0 && !all && !wholeFile {
		return usageError("%s needs server names, or --all", verb)
	}
	if len(names) > 0 && (all || wholeFile) {
		return usageError("%s takes server names or --all, not both", verb)
	}
	in, err := inspect(c, e)
	if err != nil {
		return err
	}
	cfg := in.Config
	switch {
	case cfg == nil:
		return refusef("run it in agentty's launch directory, or pass -C DIR", "no MCP configuration here: nothing to %s", verb)
	case cfg.Scope != trust.ScopeProject:
		return refusef("only project servers (.agentty/mcp.json in the launch directory) need approval",
			"%s is a %s configuration: agentty never gates its servers", report.Sanitize(cfg.Path), cfg.Scope)
	case cfg.Unreadable():
		return refusef("`mcp-guard status` shows why", "%s: %s", report.Sanitize(cfg.Path), report.Sanitize(cfg.UnreadableText()))
	case !cfg.Valid():
		return refusef("fix the file first; `mcp-guard status` shows why it is invalid",
			"%s is invalid, so agentty runs none of its servers: %s", report.Sanitize(cfg.Path), report.Sanitize(cfg.Err.Error()))
	}

	var selected []*trust.Server
	var problems []string
	if all {
		for _, s := range cfg.Servers {
			if s.Gated || (!add && s.Fingerprint != "") {
				selected = append(selected, s)
			}
		}
		if len(selected) == 0 && !wholeFile {
			fmt.Fprintf(e.stdout, "no gated servers in %s: nothing to %s\n", report.Sanitize(cfg.Path), verb)
			return nil
		}
	}
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		s := cfg.Server(name)
		switch {
		case s == nil:
			problems = append(problems, fmt.Sprintf("%q: no such server in %s", report.Sanitize(name), report.Sanitize(cfg.Path)))
		case add && s.Disabled:
			problems = append(problems, fmt.Sprintf("%q is disabled: agentty does not run it", report.Sanitize(name)))
		case add && !s.Gated && s.URL != "":
			problems = append(problems, fmt.Sprintf("%q is an %s server: agentty never gates those, there is nothing to approve", report.Sanitize(name), s.Transport))
		case add && !s.Gated:
			problems = append(problems, fmt.Sprintf("%q has no command: there is nothing to approve", report.Sanitize(name)))
		case !add && s.Fingerprint == "":
			problems = append(problems, fmt.Sprintf("%q has neither command nor url: it was never approved", report.Sanitize(name)))
		default:
			selected = append(selected, s)
		}
	}
	if len(problems) > 0 {
		return refusef("nothing was written; `mcp-guard status` lists the servers",
			"cannot %s: %s", verb, strings.Join(problems, "; "))
	}

	type result struct {
		s       *trust.Server
		changed bool
	}
	var results []result
	var fileChanged bool
	err = trust.UpdateApprovals(c.Context, in.StorePath, func(ed *trust.ApprovalsEdit) error {
		results = results[:0]
		fileChanged = false
		for _, s := range selected {
			var changed bool
			if add {
				var err error
				if changed, err = ed.Add(s.Fingerprint); err != nil {
					return err
				}
			} else {
				changed = ed.Remove(s.Fingerprint)
			}
			results = append(results, result{s, changed})
		}
		if wholeFile {
			fileChanged = ed.Remove(cfg.SHA256)
		}
		return nil
	})
	if err != nil {
		return storeError(in.StorePath, err)
	}
	st := e.style(e.stdout)
	for _, r := range results {
		name := report.Sanitize(r.s.Name)
		switch {
		case add && r.changed:
			fmt.Fprintf(e.stdout, "%s %s  %s  %s\n", st.OK("approved"), name, report.CommandLine(r.s), st.Dim(report.Short(r.s.Fingerprint)))
		case add:
			fmt.Fprintf(e.stdout, "already approved %s  %s  %s\n", name, report.CommandLine(r.s), st.Dim(report.Short(r.s.Fingerprint)))
		case r.changed:
			fmt.Fprintf(e.stdout, "%s %s  %s\n", st.Warning("revoked"), name, st.Dim(report.Short(r.s.Fingerprint)))
		default:
			fmt.Fprintf(e.stdout, "not approved %s  %s\n", name, st.Dim(report.Short(r.s.Fingerprint)))
		}
	}
	if wholeFile {
		if fileChanged {
			fmt.Fprintf(e.stdout, "%s the whole-file approval of %s\n", st.Warning("revoked"), report.Sanitize(cfg.Path))
		} else {
			fmt.Fprintf(e.stdout, "%s has no whole-file approval\n", report.Sanitize(cfg.Path))
		}
	}
	if add && len(results) > 0 {
		fmt.Fprintln(e.stdout, "restart agentty to connect approved servers")
	}
	if !add && in.Blanket == "whole-file" && !wholeFile {
		fmt.Fprintf(e.stderr, "mcp-guard: warning: the whole file is still approved, so agentty still runs every server in it; run `mcp-guard revoke --whole-file`\n")
	}
	return nil
}

// storeError turns a failed store update into a message that names the fix.
func storeError(path string, err error) error {
	if errors.Is(err, trust.ErrApprovalsInvalid) {
		return failf("mcp-guard never rewrites a store it cannot read; fix or move "+path+" (agentty approves nothing while it is invalid)", "%v", err)
	}
	if errors.Is(err, trust.ErrNoHome) {
		return failf("set HOME", "%v", err)
	}
	return failf("nothing was written", "%v", err)
}

// approveServers is `review --approve`: one approval records agentty's
// fingerprint and mcp-guard's review (gate.Record).
func approveServers(c *cli.Context, e *env) error {
	names := c.Args().Slice()
	all := c.Bool("all")
	if len(names) == 0 && !all {
		return usageError("approve needs server names, or --all")
	}
	if len(names) > 0 && all {
		return usageError("approve takes server names or --all, not both")
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
	var targets []trust.GateVerdict
	if all {
		for _, v := range g.Verdicts {
			s := v.Server
			if v.Key.Server != "" && !s.Disabled && (s.Command != "" || s.URL != "") {
				targets = append(targets, v)
			}
		}
		if len(targets) == 0 {
			fmt.Fprintf(e.stdout, "no servers in %s: nothing to approve\n", report.Sanitize(g.configPath()))
			return nil
		}
	} else if targets, err = g.select_(names, true); err != nil {
		return err
	}
	return g.decide(c.Context, e, e.stdout, trust.DecisionApproved, targets)
}
