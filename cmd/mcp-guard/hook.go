package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/client/words"
	"github.com/mcp-guard/mcp-guard/hooks"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "the git hook entry: say what a checkout, merge, rebase, cherry-pick, revert, am, reset or stash pop changed (run by the installed hooks)",
		UsageText: "mcp-guard hook post-checkout|post-merge|post-rewrite|post-commit|post-applypatch|reference-transaction [GIT'S ARGUMENTS...]\nmcp-guard hook   (from the pre-commit framework: PRE_COMMIT_* tell the hook type)",
		Description: "Writes the warning to stderr and always exits 0: git cannot undo the operation, and a\n" +
			"failing post-checkout would fail the clone. It reads stdin only for post-rewrite's\n" +
			"commit pairs and reference-transaction's updates, never waits for a terminal, and gives up after " + hooks.DefaultTimeout.String() +
			" (MCP_GUARD_HOOK_TIMEOUT).\nMCP_GUARD=0 turns it off.",
		SkipFlagParsing: true,
		Action: func(ctx context.Context, c *cli.Command) error {
			dir, err := launchDir(c)
			if err != nil {
				dir = "."
			}
			return runHook(ctx, e, c.Args().Slice(), dir)
		},
	}
}

// hookEntry is `mcp-guard hook …` as the installed hooks run it, taken
// before the command line is built: git starts it on every checkout and
// pull, and what it takes needs no parsing (every argument is git's, and
// a global option would come before "hook"). Building urfave/cli's
// command tree, even the hook's alone, costs more than the quiet path's
// own work. `mcp-guard -C DIR hook …` and the help still go through the
// command line (hookCommand), to the same runHook.
func hookEntry(ctx context.Context, e *env, args []string) int {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return e.exitCode(runHook(ctx, e, args, dir))
}

// runHook never fails: whatever goes wrong is one line on stderr. args
// are the hook type and git's arguments.
func runHook(ctx context.Context, e *env, args []string, dir string) error {
	if hooks.Disabled(e.getenv) {
		return nil
	}
	typ := ""
	if len(args) > 0 {
		typ, args = args[0], args[1:]
	}
	st := e.style(e.stderr)
	budget := hooks.Timeout(e.getenv)
	// What agentty consults, read by its client (a store that cannot be
	// read approves nothing; the hook only warns).
	grants, _ := project.StoreGrants(client.Env{Getenv: e.getenv})
	req := hooks.Request{
		Type: typ, Args: args, Dir: dir, Env: e.environ, Timeout: budget,
		LoadLedger: func() *trust.Ledger { return trust.LoadUserLedger(e.getenv) },
		Grants:     grants,
	}
	// stdin carries post-rewrite's pairs; it is never read from a terminal.
	if f, ok := e.stdin.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		req.Stdin = e.stdin
	}
	out, err := hooks.Run(ctx, req)
	if err != nil {
		op, manual := "operation", "mcp-guard diff ORIG_HEAD HEAD"
		if out != nil && out.Event.Type != "" {
			op, manual = out.Event.Op, out.Event.ManualCommand()
		}
		if op == "" {
			op = "operation"
		}
		report.WriteHookProblem(e.stderr, op, errors.Is(err, hooks.ErrTimeout), budget, err, manual, st)
		return nil
	}
	var reviews, scans []string
	for _, d := range out.LaunchDirs() {
		at := "mcp-guard"
		if d != "" {
			at = "mcp-guard -C " + shellQuote(report.Sanitize(filepath.FromSlash(d)))
		}
		reviews, scans = append(reviews, at+" review"), append(scans, at+" scan")
	}
	report.WriteWarning(e.stderr, report.Warning{Op: out.Event.Op, Brings: out.Event.Brings(), Changes: out.Changes, Findings: out.Findings, Removed: out.Removed, Dormant: out.Dormant, ReviewCommands: reviews, ScanCommands: scans,
		Agents: words.Agents(), FindingClients: words.FindingClients(out.Findings)}, st)
	return nil
}
