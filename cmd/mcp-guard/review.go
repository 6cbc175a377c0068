package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/report"
)

func reviewCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:          "review",
		ShellComplete: completeServers(e),
		Usage:         "review the servers that keep an agent from starting here: approve, decline or skip each",
		UsageText:     "mcp-guard [-C DIR] review [--approve NAME... | --decline NAME... | --all | --json] [--client ID]",
		Description: "For each server that waits for review, across every agent found here, it shows what runs,\n" +
			"what changed since you last reviewed it (fields, a unified diff of its files, the commits since)\n" +
			"and findings, then asks: approve, decline, skip, or quit (the whole review). approve records\n" +
			"the reviewed version in mcp-guard's ledger (and, for agentty, its fingerprint in\n" +
			"~/.agentty/mcp_approvals.json); decline keeps `mcp-guard launch` from handing it over (and\n" +
			"removes agentty's approval); skip leaves it waiting. Nothing is written in the other agents'\n" +
			"own files: `mcp-guard launch -- " + strings.Join(client.Commands(), "|") + "` hands the agent exactly the reviewed\n" +
			"servers. A server several agents run at one version is one decision, recorded for each; a\n" +
			"name two agents load at different versions must be qualified (" + exampleLabel() + ", agentty:db) or\n" +
			"given with --client, which also limits the review to one\n" +
			"agent; an entry whose name another file of the same agent has is NAME@FILE, as `check` lists it. Without a terminal it never asks: it lists what waits and exits 1, unless --approve,\n" +
			"--decline or --all say what to do. --json prints that list as the versioned JSON document\n" +
			"(version 1; docs/schema/review.schema.json), every agent's config files with their state included,\n" +
			"and decides nothing.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "approve", Usage: "approve the servers named as arguments"},
			&cli.BoolFlag{Name: "decline", Usage: "decline the servers named as arguments"},
			&cli.BoolFlag{Name: "all", Usage: "every server that waits for review (approve, or decline with --decline)"},
			clientFlag(),
			&cli.BoolFlag{Name: "json", Usage: "print what waits for review as the versioned JSON document (version 1); decides nothing"},
		},
		Action: func(ctx context.Context, c *cli.Command) error { return runReview(ctx, c, e) },
	}
}

func runReview(ctx context.Context, c *cli.Command, e *env) error {
	names := c.Args().Slice()
	approve, decline, all := c.Bool("approve"), c.Bool("decline"), c.Bool("all")
	switch {
	case approve && decline:
		return usageError("review takes --approve or --decline, not both")
	case len(names) > 0 && !approve && !decline:
		return failf(fmt.Sprintf("mcp-guard review --approve %s (or --decline); plain `mcp-guard review` goes through every server that waits", strings.Join(names, " ")), "review: server names go with --approve or --decline")
	case len(names) > 0 && all:
		return usageError("review takes server names or --all, not both")
	case (approve || decline) && len(names) == 0 && !all:
		return usageError("review --%s needs server names, or --all", map[bool]string{true: "approve", false: "decline"}[approve])
	case c.Bool("json") && (approve || decline || all):
		return usageError("review --json lists what waits and decides nothing: leave out --approve, --decline and --all")
	}
	if all && !decline {
		approve = true
	}
	g, err := gateHere(ctx, c, e)
	if err != nil {
		return err
	}
	g.warnLedger(e)
	if c.Bool("json") {
		return g.reviewJSON(c, e)
	}
	return g.review(ctx, c, e, names, approve, decline, all)
}

// reviewScreen is which of an item's screens show writes.
type reviewScreen int

const (
	screenFirst reviewScreen = iota // the item's screen, its diff capped
	screenAgain                     // the last screen again, after `?`
	screenFull                      // the screen with the whole diff
)

// reviewKeys runs the review key loop over n items: show(i, s) writes
// item i's screen s and says whether it left added lines out, label(i)
// names it as people see it (sanitised, its name cut), and decide(i, a) records approve or decline, saying whether
// to move on and how many more still wait. An item whose screen left
// added lines out is approved only after its full diff was shown. It
// returns how many items still wait for review, counting left, those
// that wait already (left out of the review: never asked about).
func reviewKeys(e *env, w io.Writer, st report.Style, left, n int, keys keyReader,
	show func(i int, s reviewScreen) (shortened bool), label func(i int) string,
	decide func(i int, a report.ReviewAction) (next bool, wait int, err error)) (int, error) {
	for i := 0; i < n; i++ {
		if i > 0 {
			fmt.Fprintln(w)
		}
		shortened := show(i, screenFirst)
	ask:
		for {
			k, err := keys.key(func() { fmt.Fprint(w, report.ReviewPrompt(st, shortened)) })
			if err != nil {
				// The end of input quits, and so does a terminal that
				// cannot be read or cannot drop type-ahead (which is
				// said).
				if !errors.Is(err, io.EOF) {
					fmt.Fprintf(e.stderr, "\nmcp-guard: %s\n", report.Sanitize(err.Error()))
				}
				k = 'q'
			}
			if k >= ' ' && k < 0x7f {
				fmt.Fprintf(w, "%c", k)
			}
			fmt.Fprintln(w)
			switch a := report.ReviewKeyAction(k); a {
			case report.ReviewApprove, report.ReviewDecline:
				if a == report.ReviewApprove && shortened {
					fmt.Fprintln(w, report.ReviewApproveUnseen())
					continue
				}
				next, wait, err := decide(i, a)
				if err != nil {
					return left + n - i, err
				}
				if next {
					left += wait
					break ask
				}
			case report.ReviewSkip:
				fmt.Fprintf(w, "skipped %s\n", label(i))
				left++
				break ask
			case report.ReviewQuit:
				left += n - i
				fmt.Fprintf(w, "stopped; %s for review\n", report.Waiting(left, "still"))
				return left, nil
			case report.ReviewInterrupt:
				left += n - i
				fmt.Fprintf(w, "interrupted; %s for review\n", report.Waiting(left, "still"))
				return left, &exitError{code: exitInterrupted}
			case report.ReviewShowHelp:
				fmt.Fprint(w, report.ReviewHelp())
				show(i, screenAgain)
			case report.ReviewShowAll:
				shortened = show(i, screenFull)
			default:
				fmt.Fprintln(w, report.ReviewHint())
			}
		}
	}
	return left, nil
}

// exitInterrupted is the exit status of a review ended with Ctrl-C: what a
// shell reports for a program SIGINT stopped (128+2), which is what Ctrl-C
// does to mcp-guard whenever the terminal is not waiting for a key.
const exitInterrupted = 130

// interactive reports whether a person is at a terminal to answer.
func (e *env) interactive() bool {
	in, ok := e.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return false
	}
	return report.IsTerminal(e.stdout)
}

// keyReader yields single key presses.
type keyReader interface {
	// key shows the prompt (calls prompt) and yields the next key
	// pressed. A terminal's reader yields only a key pressed after the
	// prompt was written.
	key(prompt func()) (byte, error)
	// line shows the prompt and yields the line typed after it (without
	// its end), as the terminal edits it: a typed confirmation.
	line(prompt func()) (string, error)
}

// terminalKeys reads one key at a time from a terminal in raw mode,
// restoring the terminal after each key. Before the prompt it discards
// what was typed ahead: a key typed while the previous server was being
// decided, or this server's screen drawn, must not decide about a server
// nobody has seen yet. From anything else it reads bytes (e.interactive
// never prompts without a terminal).
type terminalKeys struct{ r io.Reader }

func newTerminalKeys(r io.Reader) keyReader { return terminalKeys{r} }

// maxConfirmLine bounds a typed confirmation.
const maxConfirmLine = 1024

func (t terminalKeys) line(prompt func()) (string, error) {
	if f, ok := t.r.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// Cooked mode (key restores it after each key): the terminal
		// echoes and edits the line. What was typed before the prompt is
		// not an answer to it.
		if err := discardTypeahead(int(f.Fd())); err != nil {
			return "", fmt.Errorf("cannot discard the keys typed ahead: %w", err)
		}
	}
	prompt()
	var b [1]byte
	var got []byte
	for {
		n, err := t.r.Read(b[:])
		if n == 1 {
			switch {
			case b[0] == '\n':
				return string(got), nil
			case b[0] != '\r' && len(got) < maxConfirmLine:
				got = append(got, b[0])
			}
		}
		if err != nil {
			return string(got), err
		}
	}
}

func (t terminalKeys) key(prompt func()) (byte, error) {
	if f, ok := t.r.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fd := int(f.Fd())
		if restore, err := makeRaw(fd); err == nil {
			defer restore()
		}
		// After MakeRaw, so that a half-typed line (no newline yet)
		// that canonical mode held back is dropped too; before the
		// prompt, so that a key pressed once it shows is kept.
		if err := discardTypeahead(fd); err != nil {
			return 0, fmt.Errorf("cannot discard the keys typed ahead: %w", err)
		}
	}
	prompt()
	var b [1]byte
	for {
		n, err := t.r.Read(b[:])
		if n == 1 {
			if b[0] == '\r' || b[0] == '\n' {
				continue
			}
			return b[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// reviewCommandLine is `mcp-guard review` as the user should type it here.
func reviewCommandLine(c *cli.Command) string {
	return guardCommandLine(c) + " review"
}

// guardCommandLine is `mcp-guard` as the user should type it here, -C
// DIR included: the start of every command a hint names.
func guardCommandLine(c *cli.Command) string {
	for _, a := range c.Lineage() {
		if v := a.String("C"); v != "" {
			return "mcp-guard -C " + shellQuote(report.Sanitize(v))
		}
	}
	return "mcp-guard"
}
