package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func launchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "launch",
		Usage:     "start the agent (CMD) only when no MCP server here waits for review",
		UsageText: "mcp-guard [-C DIR] launch [--] CMD [ARGS...]",
		Description: "Evaluates the gate for the launch directory (the current one, or -C DIR, where CMD then\n" +
			"starts). When something waits for review it lists it and, on a terminal, offers the\n" +
			"review; without a terminal it exits 1. When nothing waits, mcp-guard replaces itself\n" +
			"with CMD: same arguments, same environment, CMD's own exit status.\n" +
			"`mcp-guard shell-init bash|zsh|fish` makes typing agentty do this.",
		SkipFlagParsing: true,
		Action:          func(c *cli.Context) error { return runLaunch(c, e) },
	}
}

func runLaunch(c *cli.Context, e *env) error {
	args := c.Args().Slice()
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		// SkipFlagParsing hands --help to us; the parent context knows
		// how to show this command's help.
		if l := c.Lineage(); len(l) > 1 {
			return cli.ShowCommandHelp(l[1], "launch")
		}
		return cli.ShowCommandHelp(c, "launch")
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return usageError("launch needs the command to start, e.g. mcp-guard launch -- agentty")
	}
	dir, err := launchDir(c)
	if err != nil {
		return err
	}
	g, err := evaluateGate(c.Context, e, dir)
	if err != nil {
		return withHint(err, "nothing was started")
	}
	g.warnLedger(e)
	if err := g.invalid(); err != nil {
		return refusef("fix the configuration, then launch again", "not starting %s: %v", report.Sanitize(args[0]), err)
	}
	blocking := trust.Blocking(g.verdicts)
	if len(blocking) > 0 {
		report.WriteBlocking(e.stderr, g.configPath(), blocking, reviewCommandLine(c), e.style(e.stderr))
		if !e.interactive() {
			return refusef("review them (on a terminal, or with --approve/--decline), then launch again",
				"not starting %s: %d server(s) wait for review", report.Sanitize(args[0]), len(blocking))
		}
		fmt.Fprintln(e.stdout)
		if _, err := g.interactive(c.Context, e, blocking, newTerminalKeys(e.stdin)); err != nil {
			return err
		}
		if g, err = evaluateGate(c.Context, e, dir); err != nil {
			return withHint(err, "nothing was started")
		}
		if left := trust.Blocking(g.verdicts); len(left) > 0 {
			return refusef("run `"+reviewCommandLine(c)+"` when you are ready",
				"not starting %s: %d server(s) still wait for review", report.Sanitize(args[0]), len(left))
		}
	}
	path, err := exec.LookPath(args[0])
	if err != nil {
		return failf("check the command name and PATH", "cannot start %s: %v", report.Sanitize(args[0]), err)
	}
	if err := os.Chdir(dir); err != nil {
		return failf("", "cannot change to %s: %v", dir, err)
	}
	err = syscall.Exec(path, args, e.environ)
	return failf("", "cannot start %s: %v", report.Sanitize(path), err)
}
