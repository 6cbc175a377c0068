package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/report"
)

func launchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "launch",
		Usage:     "start the agent (CMD) only when nothing here that it runs (a server, hook or helper) waits for review",
		UsageText: "mcp-guard [-C DIR] launch [--] CMD [ARGS...]   (options for mcp-guard go before CMD)",
		// Everything from CMD on is CMD's, untouched: its own flags too
		// (mcp-guard launch agentty --resume), as gh and git's -c do.
		StopOnNthArg: &one,
		Description: "Evaluates the gate for the launch directory (the current one, or -C DIR, where CMD then\n" +
			"starts). When a server waits for review, on a terminal the review opens at once; without a\n" +
			"terminal it lists what waits and the command that reviews it, and exits 1. Then mcp-guard replaces itself with CMD (same arguments, CMD's\n" +
			"own exit status) and, when CMD is an agent it knows (" + startedNames() + "), hands it exactly\n" +
			"the reviewed project servers with your own servers intact, through the agent's own flags or\n" +
			"variable (docs/<agent>.md says which). A declined server never blocks: it is left out. One\n" +
			"line on stderr says what was handed over. A run that spawns the project's servers whatever it\n" +
			"is handed (a health check) starts only when every one is reviewed. MCP_GUARD_SNAPSHOT=0 hands\n" +
			"nothing (a declined server the agent would run then blocks). " + report.JoinList(client.UnlaunchedPrograms(), "and") + "\n" +
			"are refused, with what covers them: launch has no handover for their agents. Any other\n" +
			"command (an editor launch hands nothing to among them) starts exactly when `mcp-guard check`\n" +
			"passes, and says what it was not handed.\n" +
			"`mcp-guard shell-init bash|zsh|fish|pwsh` makes typing " + startedNames() + " do this.",
		Action: func(ctx context.Context, c *cli.Command) error { return runLaunch(ctx, c, e) },
	}
}

func runLaunch(ctx context.Context, c *cli.Command, e *env) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return failf("name the agent after `--`: mcp-guard launch -- "+client.Started()[0].Command()+" (or "+report.JoinList(client.Commands()[1:], "or")+")",
			"launch needs the command to start")
	}
	if cl := client.Unlaunched(args[0]); cl != nil {
		// An agent launch cannot hand the reviewed servers to: starting it
		// when `check` passes would still let it run a declined one.
		return refusef("run `mcp-guard check` (the hook, check, review and scan cover "+cl.Title()+"), then start it yourself; docs/"+string(cl.ID())+".md says what it runs",
			"not starting %s: mcp-guard launch has no handover for %s, which reads the repository's files itself", report.Sanitize(args[0]), cl.Title())
	}
	dir, err := launchDir(c)
	if err != nil {
		return err
	}
	who := client.Command(args[0])
	g, err := evaluateGate(ctx, e, dir, who)
	if err != nil {
		return withHint(err, "nothing was started")
	}
	g.warnLedger(e)
	if cl := client.Lookup(who); cl != nil {
		if why := cl.Unhanded(args[1:]); why != "" {
			// A run that spawns the project's servers whatever launch hands
			// it: only a directory where every server it would spawn is
			// reviewed runs it. Blocking(false) counts a declined one.
			if n := g.clientsBlocked(e, e.stderr, who, false, reviewCommandLine(c)); n > 0 {
				if cv := g.ClientOf(who); cv != nil && len(cv.Closed) > 0 && len(cv.Blocking(false)) == 0 {
					// Nothing waits for review: a review cannot open it.
					return refusef("nothing here waits for review; what keeps the gate closed is said above: change it, then `mcp-guard check` says whether "+cl.Title()+" may start",
						"not starting %s: %s, and its gate is closed", report.Sanitize(strings.Join(args, " ")), why)
				}
				hint := "review first (`" + reviewCommandLine(c) + "`)"
				if cv := g.ClientOf(who); cv != nil {
					if b := cv.Blocking(false); len(b) > 0 {
						hint += "; " + report.RunsDeclined(cl.Title(), b)
					}
				}
				return refusef(hint,
					"not starting %s: %s, and %s not reviewed", report.Sanitize(strings.Join(args, " ")), why, report.Count(n, "of them is", "of them are"))
			}
			return execIn(dir, args, e.environ)
		}
	}
	// With the handover (unless MCP_GUARD_SNAPSHOT=0), a declined server
	// never blocks: it is left out.
	handOver := vetted(e)
	if g, err = g.clear(ctx, c, e, who, handOver, args[0], dir); err != nil {
		return err
	}
	cv := g.ClientOf(who)
	if who == "" {
		// A command mcp-guard does not know may start any agent: it started
		// exactly when `check` passes, and nothing is handed to it but
		// agentty's snapshot, which agentty reads wherever it starts.
		environ := e.environ
		var unhanded []*gate.ClientView
		for _, cv := range g.All() {
			if !handOver || client.Lookup(cv.Client).Handover() != client.HandSnapshotEnv {
				unhanded = append(unhanded, cv)
				continue
			}
			snap, err := g.Snapshot(cv.Client)
			if err != nil {
				return withHint(gateErr(err), "nothing was started")
			}
			environ = setEnv(environ, gate.ConfigEnv, snap.Path)
			if len(snap.Left) > 0 {
				report.WriteSnapshotNote(e.stderr, snap.Config, snap, e.style(e.stderr))
			}
		}
		if len(unhanded) > 0 {
			report.WriteUnknownLaunch(e.stderr, args[0], unhanded, e.style(e.stderr))
		}
		return execIn(dir, args, environ)
	}
	if !handOver || cv == nil {
		// Nothing of the repository to hold back (or the user asked to
		// hand nothing): the agent starts as it is, with everything the
		// user configured.
		return execIn(dir, args, e.environ)
	}
	title := cv.Title
	switch client.Lookup(who).Handover() {
	case client.HandSnapshotEnv:
		// agentty reads exactly the reviewed servers, as they were
		// reviewed: nothing that changes or is declined after this runs.
		snap, err := g.Snapshot(who)
		if err != nil {
			return withHint(gateErr(err), "nothing was started")
		}
		if len(snap.Left) > 0 {
			report.WriteSnapshotNote(e.stderr, snap.Config, snap, e.style(e.stderr))
		}
		return execIn(dir, args, setEnv(e.environ, gate.ConfigEnv, snap.Path))
	case client.HandConfigFile:
		snap, err := g.Vetted(who)
		if err != nil {
			return withHint(gateErr(err), "nothing was started")
		}
		report.WriteVettedNote(e.stderr, title, snap, e.style(e.stderr))
		return execIn(dir, client.ClaudeArgv(args[0], snap.Path, snap.Settings, args[1:]), e.environ)
	case client.HandAllowNames, client.HandDisableNames:
		return launchByName(e, cv, title, dir, args)
	}
	return execIn(dir, args, e.environ)
}

// clear is the gate before a launch of who ("" a command mcp-guard does
// not know: every agent here): it lists what blocks and, on a terminal,
// offers the review across those agents, then evaluates again. It
// returns the view a launch may go on with, or why it may not.
func (g *gateView) clear(ctx context.Context, c *cli.Command, e *env, who client.ID, handOver bool, name, dir string) (*gateView, error) {
	// One or the other: on a terminal the review opens at once (its
	// screens say what the list would); otherwise, or when a gate is
	// closed and no review can open it, the list and the command to run.
	closed := false
	for _, cv := range g.All() {
		if (who == "" || cv.Client == who) && len(cv.Closed) > 0 {
			closed = true
		}
	}
	// What waits, listed once: a partial Blocking list is a copy of each
	// entry, and 100,000 may wait. When all of it is what the user
	// declined that its agent runs on its own, a review would have
	// nothing to ask: the list and the way out, as without a terminal.
	waits := g.waiting(who, handOver)
	review := e.interactive() && !closed && !allDeclinedRuns(waits)
	list := e.stderr
	if review {
		list = io.Discard
	}
	n := g.clientsBlocked(e, list, who, handOver, reviewCommandLine(c))
	if n == 0 {
		return g, nil
	}
	for _, cv := range g.All() {
		if (who == "" || cv.Client == who) && len(cv.Closed) > 0 {
			hint := "fix the configuration (`" + guardCommandLine(c) + " status` shows why), then launch again"
			if at := g.BrokenAt(cv); at != "" {
				hint = "fix " + at + " (`" + guardCommandLine(c) + " scan` shows every problem in it), then launch again"
			}
			return nil, refusef(hint, "not starting %s: %s: %s", report.Sanitize(name), cv.Title, report.Sanitize(cv.Closed[0]))
		}
	}
	if !review {
		hint := waitHint(waits, reviewCommandLine(c), "review them (`"+reviewCommandLine(c)+"` on a terminal, or with --approve NAME or --decline NAME), then launch again")
		return nil, refusef(hint, "not starting %s: %s for review", report.Sanitize(name), waitingWords(waits, n))
	}
	fmt.Fprintf(e.stdout, "%s for review before %s starts\n\n", waitingWords(waits, n), report.Sanitize(name))
	// On a terminal: the review, then the gate again.
	if _, err := g.interactive(ctx, e, waits, newTerminalKeys(e.stdin), reviewCommandLine(c)); err != nil {
		return nil, err
	}
	g, err := evaluateGate(ctx, e, dir, who)
	if err != nil {
		return nil, withHint(err, "nothing was started")
	}
	if left := g.waiting(who, handOver); len(left) > 0 {
		hint := waitHint(left, reviewCommandLine(c), "run `"+reviewCommandLine(c)+"` when you are ready")
		return nil, refusef(hint, "not starting %s: %s for review", report.Sanitize(name), report.Waiting(len(left), "still"))
	}
	return g, nil
}

// declinedWayOut is the hint when everything that keeps a launch from
// starting is an entry the user declined that its agent runs on its own:
// a review, or declining it again, would only lead back to the refusal,
// so it names the way out instead ("" when something else waits).
func declinedWayOut(left []pending, reviewCmd string) string {
	if !allDeclinedRuns(left) {
		return ""
	}
	outs := make([]string, len(left))
	for i, p := range left {
		outs[i] = report.DeclinedRunsWayOut(*p.cs, p.cv.Title, reviewCmd)
	}
	return strings.Join(outs, "; ") + "; then launch again"
}

// allDeclinedRuns reports whether everything of left is an entry the user
// declined that its agent runs on its own (declinedRuns), and something is.
func allDeclinedRuns(left []pending) bool {
	for _, p := range left {
		if !declinedRuns(*p.cs) {
			return false
		}
	}
	return len(left) > 0
}

// waitHint is the hint of a launch refused because left wait: the way
// out of a declined entry the agent runs on its own, what to change when
// nothing of left can be reviewed as it is, else review (orElse).
func waitHint(left []pending, reviewCmd, orElse string) string {
	if out := declinedWayOut(left, reviewCmd); out != "" {
		return out
	}
	if unreviewable(left) {
		return "mcp-guard cannot review them as they are: change what the list above says, then launch again"
	}
	return orElse
}

// unreviewable reports whether nothing that waits can be reviewed as it
// is (mcp-guard could not fingerprint what any of it runs: NoDeep), so
// that a review, or approve and decline, only fail.
func unreviewable(left []pending) bool {
	for _, p := range left {
		if p.cs.CannotReview() == "" {
			return false
		}
	}
	return len(left) > 0
}

// waitingWords is how many of what wait (n: the count with closed
// gates), in the words of the entries when they are all that waits.
func waitingWords(left []pending, n int) string {
	if len(left) != n {
		return report.Waiting(n, "")
	}
	list := make([]gate.ClientServer, len(left))
	for i, p := range left {
		list[i] = *p.cs
	}
	return report.WaitingEntries(list)
}

// launchByName starts Gemini CLI or Codex with its reviewed project
// servers named on its command line (client.AllowArgv, client.CodexArgv):
// the client reads its configs itself after this, so the names are bound,
// not the entries (the gate checked them moments before).
func launchByName(e *env, cv *gate.ClientView, title, dir string, args []string) error {
	argv, environ := client.AllowArgv(args[0], cv.AllowedNames(), args[1:]), e.environ
	snap := cv.Handoff()
	if cl := client.Lookup(cv.Client); cl.Handover() == client.HandDisableNames {
		var err error
		if argv, environ, err = client.DisableLaunch(cl, args[0], cv.CodexOff(), cv.UnreviewedEntries(), args[1:], e.environ); err != nil {
			hint := "rename or remove the server, or unset the variable the message names"
			if h, ok := err.(client.HintError); ok {
				hint = h.Hint
			}
			return refusef(hint, "not starting %s: %s", report.Sanitize(args[0]), report.Sanitize(err.Error()))
		}
	}
	report.WriteVettedNote(e.stderr, title, snap, e.style(e.stderr))
	return execIn(dir, argv, environ)
}

// execIn replaces mcp-guard with args[0] in dir.
func execIn(dir string, args, environ []string) error {
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
