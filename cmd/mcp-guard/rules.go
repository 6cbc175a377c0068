package main

import (
	"context"
	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func rulesCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the rule catalog: id, severity, slug and title of every check",
		UsageText: "mcp-guard rules [--json | --format text|json|markdown]",
		Flags:     formatFlags([]string{"text", "json", "markdown"}, "print the catalog as JSON: the same as --format json"),
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("rules takes no arguments; `mcp-guard explain ID` explains one rule")
			}
			format, err := outputFormat(c, []string{"text", "json", "markdown"})
			if err != nil {
				return err
			}
			switch format {
			case "text":
				err = report.WriteRules(e.stdout, trust.Rules, e.style(e.stdout))
			case "json":
				err = report.WriteJSON(e.stdout, report.NewRulesDoc(trust.Rules))
			case "markdown":
				err = report.WriteRulesMarkdown(e.stdout, trust.Rules)
			}
			if err != nil {
				return failf("", "writing the catalog: %v", err)
			}
			return nil
		},
	}
}

func explainCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:          "explain",
		ShellComplete: completeRules,
		Usage:         "explain one rule: why it matters and how to fix what it finds",
		UsageText:     "mcp-guard explain ID|SLUG",
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return failf("`mcp-guard rules` lists the rule ids; then, for example: mcp-guard explain MG101", "explain takes one rule id")
			}
			r, ok := trust.LookupRule(c.Args().First())
			if !ok {
				return failf("run 'mcp-guard rules' for the catalog", "unknown rule %q", c.Args().First())
			}
			if err := report.WriteRuleHelp(e.stdout, r, 78, e.style(e.stdout)); err != nil {
				return failf("", "writing the help: %v", err)
			}
			return nil
		},
	}
}
