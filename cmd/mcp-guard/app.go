package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/internal/nearname"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Exit codes, the same for every command.
const (
	exitOK        = 0 // clean, or done
	exitAttention = 1 // findings at or above the threshold, or review needed
	exitFailure   = 2 // could not do the job: usage, unreadable repository, I/O
)

// env is what a command may know about the process it runs in. Commands
// take everything from here, never from os.Getenv, so that tests decide.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	environ        []string
	vars           map[string]string
	// info is where informational output goes: stdout, or nowhere
	// with --quiet.
	info io.Writer
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer, environ []string) *env {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, info: stdout, environ: environ, vars: make(map[string]string, len(environ))}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.vars[k] = v
		}
	}
	return e
}

func (e *env) getenv(k string) string { return e.vars[k] }

// quiet reports whether --quiet was given.
func (e *env) quiet() bool { return e.info == io.Discard }

// style is the colour scheme for text written to w.
func (e *env) style(w io.Writer) report.Style {
	return report.NewStyle(report.ColorEnabled(w, e.getenv)).WithWidth(report.TermWidth(w))
}

// exitError carries an exit code, and optionally a message and a hint.
type exitError struct {
	code int
	err  error  // printed as "mcp-guard: error: …" when non-nil
	hint string // printed as "mcp-guard: hint: …" when non-empty
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// attention ends a command with exit code 1 after it has printed what
// needs attention.
func attention() error { return &exitError{code: exitAttention} }

// failf ends a command with exit code 2 and an error and hint on stderr.
func failf(hint string, format string, args ...any) error {
	return &exitError{code: exitFailure, err: fmt.Errorf(format, args...), hint: hint}
}

// refusef ends a command with exit code 1 and an error and hint on stderr:
// the request was understood and refused.
func refusef(hint string, format string, args ...any) error {
	return &exitError{code: exitAttention, err: fmt.Errorf(format, args...), hint: hint}
}

// usageError is a command line the program does not understand.
func usageError(format string, args ...any) error {
	return &exitError{code: exitFailure, err: fmt.Errorf(format, args...), hint: "run 'mcp-guard help' for usage"}
}

// withHint attaches a hint to an error without changing its code.
func withHint(err error, hint string) error {
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.hint == "" {
			ee.hint = hint
		}
		return ee
	}
	return &exitError{code: exitFailure, err: err, hint: hint}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) int {
	catchSignals()
	out := &outWriter{w: stdout}
	e := newEnv(stdin, out, stderr, environ)
	var code int
	if len(args) > 1 && args[1] == "hook" {
		code = hookEntry(ctx, e, args[2:])
	} else {
		ctx = trust.WithLockWait(ctx, func(what, lockPath string) {
			fmt.Fprintf(e.stderr, "mcp-guard: waiting for %s: another mcp-guard process holds %s (at most %v)\n", what, report.Sanitize(lockPath), trust.LockTimeout)
		})
		code = e.exitCode(newApp(e).Run(ctx, args))
	}
	if out.err != nil && code != exitFailure {
		// Output that did not reach its reader is a job not done, whatever
		// the command decided (a full disk, a closed file).
		code = e.exitCode(failf("", "cannot write the output: %v", out.err))
	}
	return code
}

// outWriter is stdout as every command writes it: it keeps the first write
// error, so that run ends any command that lost its output with exit 2.
// It passes the file descriptor on, so that terminal checks see through it.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// Fd is the descriptor stdout writes to (report.Fder); ^0, which is no
// terminal, when it is not a file.
func (o *outWriter) Fd() uintptr {
	if f, ok := o.w.(report.Fder); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// exitCode is the one place where errors become exit codes and messages.
func (e *env) exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	code, hint := exitFailure, ""
	var ee *exitError
	if errors.As(err, &ee) {
		code, hint = ee.code, ee.hint
		err = ee.err
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "mcp-guard: error: %s\n", report.Sanitize(err.Error()))
		if hint != "" {
			fmt.Fprintf(e.stderr, "mcp-guard: hint: %s\n", report.Sanitize(hint))
		}
	}
	return code
}

// optionsText and exitStatusText are the root help's description, and
// the man page's DESCRIPTION and EXIT STATUS.
const (
	optionsText = "Options go anywhere before `--`, also after the command and its arguments;\n" +
		"after `--` everything is an argument."
	exitStatusText = "Exit status, the same for every command: 0 done and nothing needs attention, 1 something\n" +
		"needs you (a server waits for review, a finding meets --fail-on, a change needs attention),\n" +
		"2 mcp-guard could not do the job (usage errors and output it could not write included),\n" +
		"130 interrupted (143 by SIGTERM, 129 by SIGHUP);\n" +
		"launch exits with the agent's own status once it started it.\n" +
		"`mcp-guard: error:` on stderr says why a command did not do what was asked: with 2 when it\n" +
		"could not, with 1 when it refused (a blocked launch, a name that is not there)."
)

// quietHelp is what --quiet keeps, for the root help.
const quietHelp = "print only errors, warnings, questions and what was asked for (--json, --format, completion, man, version, rules); the exit status says the rest"

func newApp(e *env) *cli.Command {
	return newAppOf(e, []*cli.Command{
		statusCommand(e),
		approveCommand(e),
		revokeCommand(e),
		reviewCommand(e), checkCommand(e), launchCommand(e), hooksCommand(e), hookCommand(e), shellInitCommand(e),
		versionCommand(e),
		diffCommand(e),
		scanCommand(e),
		rulesCommand(e),
		explainCommand(e),
		manCommand(e),
	})
}

func newAppOf(e *env, commands []*cli.Command) *cli.Command {
	app := &cli.Command{
		Name:        "mcp-guard",
		Usage:       "keep what a repository makes your AI coding agent run (" + strings.Join(client.Titles(), ", ") + ") from changing without your review",
		UsageText:   "mcp-guard [-C DIR] [-q] COMMAND [options] [arguments]",
		Description: optionsText + "\n\n" + exitStatusText,
		Writer:      e.stdout,
		ErrWriter:   e.stderr,
		Reader:      e.stdin,
		// Errors are mapped to exit codes in one place (exitCode), never
		// by urfave/cli calling os.Exit.
		ExitErrHandler:                  func(context.Context, *cli.Command, error) {},
		HideVersion:                     true,
		EnableShellCompletion:           true,
		ConfigureShellCompletionCommand: configureCompletion,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "C", Usage: "run as if mcp-guard was started in `DIR` (the directory the agent starts in)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: quietHelp},
			&cli.BoolFlag{Name: "version", Local: true, Usage: "print mcp-guard's version"},
		},
		Before: func(ctx context.Context, c *cli.Command) (context.Context, error) {
			if c.Bool("quiet") {
				e.info = io.Discard
			}
			return ctx, checkHelpTopic(c)
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Bool("version") {
				if c.NArg() > 0 {
					return usageError("--version takes no arguments")
				}
				fmt.Fprintln(e.stdout, versionLine())
				return nil
			}
			return groupAction(ctx, c)
		},
		Commands: commands,
	}
	for _, cmd := range app.Commands {
		setConventions(cmd)
	}
	app.OnUsageError = onUsageError
	app.StopOnNthArg = &one
	return app
}

// The help command's line in the list, in the others' style.
func init() { cli.UsageCommandHelp = "show the commands, or one command's help" }

// one is StopOnNthArg for commands whose first argument names what takes
// the rest: a subcommand, or launch's agent.
var one = 1

// setConventions gives cmd and its subcommands what every command shares:
// usage errors that exit 2, no help subcommand (`mcp-guard help CMD` and
// CMD --help remain), and for a group of subcommands an unknown one
// refused with a suggestion.
func setConventions(cmd *cli.Command) {
	cmd.OnUsageError = onUsageError
	cmd.HideHelpCommand = true
	if len(cmd.Commands) > 0 {
		cmd.StopOnNthArg = &one
		if cmd.Action == nil {
			cmd.Action = groupAction
		}
	}
	for _, sub := range cmd.Commands {
		setConventions(sub)
	}
}

// configureCompletion makes urfave/cli's completion command a documented
// one that follows the other commands' conventions.
func configureCompletion(cmd *cli.Command) {
	cmd.Hidden = false
	cmd.Usage = "print a shell completion script to source: bash, zsh, fish or pwsh"
	cmd.UsageText = "mcp-guard completion bash|zsh|fish|pwsh"
	for _, sh := range cmd.Commands {
		if sh.Name == "pwsh" {
			sh.Action = pwshCompletion(sh.Action)
		}
		script := map[string]string{"bash": bashCompletion, "fish": fishCompletion}[sh.Name]
		if script != "" {
			sh.Action = func(_ context.Context, c *cli.Command) error {
				_, err := io.WriteString(c.Root().Writer, script)
				return err
			}
		}
	}
	cmd.Description = "bash:  source <(mcp-guard completion bash)   in ~/.bashrc (bash alone: no bash-completion package needed)\n" +
		"zsh:   source <(mcp-guard completion zsh)    in ~/.zshrc\n" +
		"fish:  mcp-guard completion fish > ~/.config/fish/completions/mcp-guard.fish"
	setConventions(cmd)
}

// onUsageError makes urfave/cli's parse errors usage errors (exit 2): an
// unknown option is named, with the nearest one as a hint.
func onUsageError(_ context.Context, c *cli.Command, err error, _ bool) error {
	prefix := ""
	if c.Root() != c {
		prefix = commandPath(c) + ": "
	}
	flag, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return withUsage(usageError("%s%v", prefix, err), c)
	}
	flag = strings.TrimLeft(flag, "-")
	ue := withUsage(usageError("%sunknown option %s", prefix, flagName(flag)), c)
	if flag == "version" && c.Root() != c {
		ue.hint = "the version is `mcp-guard --version` (or `mcp-guard version`)"
		return ue
	}
	var names []string
	for _, p := range c.Lineage() {
		for _, f := range p.VisibleFlags() {
			names = append(names, f.Names()...)
		}
	}
	if s := nearname.Of(flag, names); s != "" {
		ue.hint = fmt.Sprintf("did you mean %s?", flagName(s))
	}
	return ue
}

// withUsage points err's hint at c's own help.
func withUsage(err error, c *cli.Command) *exitError {
	ee := err.(*exitError)
	if c.Root() != c {
		ee.hint = fmt.Sprintf("run 'mcp-guard %s --help' for usage", commandPath(c))
	}
	return ee
}

// commandPath is c's name below the root ("hooks install").
func commandPath(c *cli.Command) string {
	return strings.TrimPrefix(c.FullName(), c.Root().Name+" ")
}

func flagName(n string) string {
	if len(n) == 1 {
		return "-" + n
	}
	return "--" + n
}

// launchDir is the directory mcp-guard acts for: -C DIR, else the current
// directory; always absolute.
func launchDir(c *cli.Command) (string, error) {
	dir := c.String("C")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", failf("", "cannot determine the current directory: %v", err)
		}
		return wd, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", failf("", "-C %s: %v", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", failf("check the path given to -C", "-C %s: %v", dir, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return "", failf("-C takes a directory (the one the agent starts in)", "-C %s: not a directory", dir)
	}
	return abs, nil
}
