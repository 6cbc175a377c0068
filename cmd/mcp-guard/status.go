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
		Description: "Exit status: 0 when nothing needs you, 1 when something of an agent waits for review\n" +
			"(a server, hook or helper) or its gate is closed (a configuration it cannot read), when agentty\n" +
			"would ask about a server, and for every other agent when a finding is high or critical;\n" +
			"2 when mcp-guard could not look.",
		Flags: formatFlags(textJSON, "print the versioned JSON document (version 2: one entry per agent) instead of text"),
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("status takes no arguments")
			}
			g, unknown, err := statusGate(ctx, c, e)
			if err != nil {
				return err
			}
			views := g.Shown()
			findings := make([][]trust.Finding, len(views))
			idle := make([]bool, len(views))
			seen := map[string]bool{}
			need := false
			for i, cv := range views {
				if in := cv.Inspection; in != nil {
					// Its reading carries the findings on its files. Gated, it
					// needs the user as every agent does (a server changed
					// since its review blocks the launch while agentty itself
					// still runs it on its approval), and when agentty asks.
					addPolicyFindings(e, in)
					need = need || in.Pending() || (!cv.Ungated && clientNeeds(cv, nil))
					continue
				}
				// Every agent's servers get the rules scan applies to
				// them, and its files those of their kind.
				findings[i] = append(clientFindings(cv, seen), gate.ServerFindings([]*gate.ClientView{cv})...)
				idle[i] = cv.Eval.State != nil && !cv.Eval.State.InUse(client.Env{Getenv: e.getenv})
				need = need || clientNeeds(cv, findings[i])
			}
			format, err := outputFormat(c, textJSON)
			if err != nil {
				return err
			}
			notes := g.Notes()
			why := ""
			if unknown != nil {
				why = unknown.Error()
				notes = append(notes, "state unknown: mcp-guard could not evaluate its gate ("+why+"): the agents here and what they run are not known")
			}
			if format == "json" {
				err = report.WriteJSON(e.stdout, report.NewStatusDoc(views, findings, notes))
			} else {
				err = report.WriteStatusText(e.info, report.StatusText{Views: views, Findings: findings, Idle: idle,
					Unknown: why, Notes: g.Notes(), Titles: client.Titles(), Guard: guardCommandLine(c)}, e.style(e.info))
			}
			if err != nil {
				return failf("", "writing the status: %v", err)
			}
			if unknown != nil {
				return gateErr(unknown)
			}
			if need {
				return attention()
			}
			return nil
		},
	}
}

// statusGate evaluates mcp-guard's gate for the launch directory: the
// review state and what each server runs from the repository. When it
// cannot, unknown says why, and agentty's configuration is read as
// agentty reads it (gate.Inspect): the only agent whose reading does not
// need the gate, so status says the rest is unknown and fails.
func statusGate(ctx context.Context, c *cli.Command, e *env) (v *gate.View, unknown, err error) {
	dir, err := launchDir(c)
	if err != nil {
		return nil, nil, err
	}
	g, unknown := gate.Evaluate(ctx, dir, gate.Env{Getenv: e.getenv, Environ: e.environ})
	if unknown == nil {
		return g, nil, nil
	}
	v, ierr := gate.Inspect(dir, gate.Env{Getenv: e.getenv, Environ: e.environ})
	if ierr != nil {
		return nil, nil, gateErr(ierr)
	}
	return v, unknown, nil
}

// clientFindings are policy's findings about the repository's files
// other clients read as approval state (a committed .claude/settings.json
// that approves its own servers: MG701-MG704), as scan reports them.
func clientFindings(cv *gate.ClientView, seen map[string]bool) []trust.Finding {
	var out []trust.Finding
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
	// The repository's files the client reads: its settings (the
	// self-approvals, autostart switches), its configs (a Gemini server's
	// trust: true, a Codex file Codex cannot load) and the surfaces beside
	// them (VS Code's tasks that run on folder open).
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
	return out
}

// clientNeeds reports whether an agent needs the user: a server that
// blocks its launch, a closed gate, or a finding at high or above (what
// scan fails CI on by default).
func clientNeeds(cv *gate.ClientView, findings []trust.Finding) bool {
	if len(cv.Blocking(true)) > 0 || len(cv.Closed) > 0 {
		return true
	}
	for _, f := range findings {
		if f.Severity.Rank() >= trust.SeverityHigh.Rank() {
			return true
		}
	}
	return false
}
