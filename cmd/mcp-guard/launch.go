package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/report"
)

func launchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "launch",
		Usage:     "start the agent (CMD) only when no MCP server here waits for review",
		UsageText: "mcp-guard [-C DIR] launch [--] CMD [ARGS...]   (options for mcp-guard go before CMD)",
		// Everything from CMD on is CMD's, untouched: its own flags too
		// (mcp-guard launch agentty --resume), as gh and git's -c do.
		StopOnNthArg: &one,
		Description: "Evaluates the gate for the launch directory (the current one, or -C DIR, where CMD then\n" +
			"starts). When something waits for review it lists it and, on a terminal, offers the\n" +
			"review; without a terminal it exits 1. When nothing waits, mcp-guard replaces itself\n" +
			"with CMD: same arguments, CMD's own exit status, and the same environment plus\n" +
			"AGENTTY_MCP_CONFIG naming a snapshot of exactly the reviewed servers (declined ones left\n" +
			"out), which agentty reads instead of .agentty/mcp.json; MCP_GUARD_SNAPSHOT=0 turns that off.\n" +
			"`mcp-guard shell-init bash|zsh|fish` makes typing agentty do this.",
		Action: func(ctx context.Context, c *cli.Command) error { return runLaunch(ctx, c, e) },
	}
}

func runLaunch(ctx context.Context, c *cli.Command, e *env) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return usageError("launch needs the command to start, e.g. mcp-guard launch -- agentty")
	}
	dir, err := launchDir(c)
	if err != nil {
		return err
	}
	g, err := evaluateGate(ctx, e, dir)
	if err != nil {
		return withHint(err, "nothing was started")
	}
	g.warnLedger(e)
	if err := g.invalid(); err != nil {
		return refusef("fix the configuration, then launch again", "not starting %s: %v", report.Sanitize(args[0]), err)
	}
	snapshot := g.UseSnapshot(e.getenv)
	blocking := g.Blocking(snapshot)
	if len(blocking) > 0 {
		report.WriteBlocking(e.stderr, g.configPath(), blocking, reviewCommandLine(c), e.style(e.stderr))
		if !e.interactive() {
			return refusef("review them (on a terminal, or with --approve/--decline), then launch again",
				"not starting %s: %d server(s) wait for review", report.Sanitize(args[0]), len(blocking))
		}
		fmt.Fprintln(e.stdout)
		if _, err := g.interactive(ctx, e, blocking, newTerminalKeys(e.stdin)); err != nil {
			return err
		}
		if g, err = evaluateGate(ctx, e, dir); err != nil {
			return withHint(err, "nothing was started")
		}
		if left := g.Blocking(snapshot); len(left) > 0 {
			return refusef("run `"+reviewCommandLine(c)+"` when you are ready",
				"not starting %s: %d server(s) still wait for review", report.Sanitize(args[0]), len(left))
		}
	}
	environ := e.environ
	if snapshot {
		// agentty reads exactly the reviewed servers, as they were
		// reviewed: nothing that changes or is declined after this runs.
		snap, err := g.Snapshot()
		if err != nil {
			return withHint(gateErr(err), "nothing was started")
		}
		environ = setEnv(environ, gate.ConfigEnv, snap.Path)
		if len(snap.Left) > 0 {
			report.WriteSnapshotNote(e.stderr, g.configPath(), snap, e.style(e.stderr))
		}
	}
	path, err := exec.LookPath(args[0])
	if err != nil {
		return failf("check the command name and PATH", "cannot start %s: %v", report.Sanitize(args[0]), err)
	}
	if err := os.Chdir(dir); err != nil {
		return failf("", "cannot change to %s: %v", dir, err)
	}
	err = syscall.Exec(path, args, environ)
	return failf("", "cannot start %s: %v", report.Sanitize(path), err)
}

// setEnv is environ with name set to value (any earlier setting of name
// removed).
func setEnv(environ []string, name, value string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}
