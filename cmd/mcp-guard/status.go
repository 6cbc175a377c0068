package main

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

func statusCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show what each agent (" + strings.Join(client.Titles(), ", ") + ") would run if launched here, and why",
		UsageText: "mcp-guard [-C DIR] status [--json]",
		Description: "Exit status: 0 when nothing waits for approval, 1 when a gated server is pending\n" +
			"or the configuration is invalid, 2 when mcp-guard could not look.",
		Flags: formatFlags(textJSON, "print the versioned JSON document (version 1) instead of text"),
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("status takes no arguments")
			}
			// agentty's configuration as the gate read it (once), or, when
			// the gate could not look, as agentty reads it.
			g := statusGate(ctx, c, e)
			var in *trust.Inspection
			if g != nil {
				in = g.In
			} else {
				var err error
				if in, err = inspect(c, e); err != nil {
					return err
				}
			}
			addPolicyFindings(e, in)
			var clients, all []*gate.ClientView
			if g != nil {
				clients, all = g.Clients, g.All()
			}
			// Every agent's servers get the rules scan applies to them
			// (agentty's are in.Findings already).
			findings := append(clientFindings(clients), gate.ServerFindings(clients)...)
			need := in.Pending() || clientsNeed(clients, findings)
			format, err := outputFormat(c, textJSON)
			if err != nil {
				return err
			}
			if format == "json" {
				doc := report.NewStatusDoc(in)
				if g != nil {
					report.AddReviewState(&doc, g.Verdicts, scopesOf(g))
				}
				report.AddClients(&doc, clients, findings)
				report.AddAgents(&doc, all)
				err = report.WriteJSON(e.stdout, doc)
			} else {
				// Every agent whose project configuration is gated, in one
				// form; agentty's own configuration (the user's, an explicit
				// file, none) is never gated and is said as agentty finds it.
				agentty := g == nil || !g.InspectionGated()
				if agentty && (in.Config != nil || len(all) == 0) {
					err = report.WriteStatus(e.info, in, client.Titles(), e.style(e.info))
				} else if !agentty {
					findings = append(append([]trust.Finding(nil), in.Findings...), findings...)
				}
				policy.SortBySeverity(findings)
				if err == nil && len(all) > 0 {
					err = report.WriteClientStatus(e.info, all, findings, agentty && in.Config != nil, e.style(e.info))
				}
			}
			if err != nil {
				return failf("", "writing the status: %v", err)
			}
			if need {
				return attention()
			}
			return nil
		},
	}
}

// inspect evaluates agentty's gate for the launch directory.
func inspect(c *cli.Command, e *env) (*trust.Inspection, error) {
	dir, err := launchDir(c)
	if err != nil {
		return nil, err
	}
	in, err := trust.Inspect(dir, e.getenv)
	if err != nil {
		return nil, failf("", "%v", err)
	}
	return in, nil
}

// clientFindings are policy's findings about the repository's files
// other clients read as approval state (a committed .claude/settings.json
// that approves its own servers: MG701-MG704), as scan reports them.
func clientFindings(clients []*gate.ClientView) []trust.Finding {
	var out []trust.Finding
	seen := map[string]bool{}
	// check runs the rules of abs's kind on it, named by its path below the
	// repository's top like every other finding.
	check := func(top, abs string) {
		rel, err := filepath.Rel(top, abs)
		if top == "" || err != nil || strings.HasPrefix(rel, "..") || seen[abs] {
			return
		}
		rel = filepath.ToSlash(rel)
		kind, ok := surface.Of(rel)
		if !ok {
			return
		}
		data, err := trust.ReadFile(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		seen[abs] = true
		f := policy.File{Path: rel, Kind: kind, Data: data, Err: err}
		out = append(out, policy.CheckContent(f, policy.Options{})...)
	}
	for _, cv := range clients {
		// The repository's files the client reads: its settings (the
		// self-approvals, autostart switches), its configs (a Gemini
		// server's trust: true, a Codex file Codex cannot load) and the
		// surfaces beside them (VS Code's tasks that run on folder open).
		if cv.Eval.State != nil {
			for _, src := range cv.Eval.State.Sources {
				if src.RepoSide && src.Present {
					check(cv.Top, src.Path)
				}
			}
		}
		for _, p := range cv.Eval.Configs {
			check(cv.Top, p)
			for _, sibling := range []string{"settings.json", "settings.local.json", "tasks.json"} {
				check(cv.Top, filepath.Join(filepath.Dir(p), sibling))
			}
		}
	}
	return out
}

// clientsNeed reports whether another client needs the user: a server
// that blocks its launch, a closed gate, or a finding at high or above
// (what scan fails CI on by default).
func clientsNeed(clients []*gate.ClientView, findings []trust.Finding) bool {
	for _, cv := range clients {
		if len(cv.Blocking(true)) > 0 || len(cv.Closed) > 0 {
			return true
		}
	}
	for _, f := range findings {
		if f.Severity.Rank() >= trust.SeverityHigh.Rank() {
			return true
		}
	}
	return false
}
