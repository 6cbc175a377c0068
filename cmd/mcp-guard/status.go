package main

import (
	"context"
	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func statusCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show what agentty would run if launched here, and why each server is trusted",
		UsageText: "mcp-guard [-C DIR] status [--json]",
		Description: "Exit status: 0 when nothing waits for approval, 1 when a gated server is pending\n" +
			"or the configuration is invalid, 2 when mcp-guard could not look.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the versioned JSON document (version 1) instead of text"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("status takes no arguments")
			}
			in, err := inspect(c, e)
			if err != nil {
				return err
			}
			addPolicyFindings(e, in)
			verdicts, scopes := statusGate(ctx, c, e)
			if c.Bool("json") {
				doc := report.NewStatusDoc(in)
				report.AddReviewState(&doc, verdicts, scopes)
				err = report.WriteJSON(e.stdout, doc)
			} else {
				err = report.WriteStatusReview(e.info, in, verdicts, scopes, e.style(e.info))
			}
			if err != nil {
				return failf("", "writing the status: %v", err)
			}
			if in.Pending() {
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
