package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcp-guard/mcp-guard/report"
)

// Exit codes, the same for every command.
const (
	exitOK        = 0 // clean, or done
	exitAttention = 1 // findings at or above the threshold, or review needed
	exitFailure   = 2 // could not do the job: usage, unreadable repository, I/O
)

// version is set at link time (-ldflags "-X main.version=…").
var version = "devel"

// env is what a command may know about the process it runs in. Commands
// take everything from here, never from os.Getenv, so that tests decide.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	environ        []string
	vars           map[string]string
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer, environ []string) *env {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, environ: environ, vars: make(map[string]string, len(environ))}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.vars[k] = v
		}
	}
	return e
}

func (e *env) getenv(k string) string { return e.vars[k] }

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
	e := newEnv(stdin, stdout, stderr, environ)
	app := newApp(e)
	err := app.RunContext(ctx, args)
	return e.exitCode(err)
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
			fmt.Fprintf(e.stderr, "mcp-guard: hint: %s\n", hint)
		}
	}
	return code
}

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:      "mcp-guard",
		Usage:     "keep a repository's agentty MCP configuration from running code you did not review",
		UsageText: "mcp-guard [-C DIR] COMMAND [options] [arguments]",
		Version:   version,
		Writer:    e.stdout,
		ErrWriter: e.stderr,
		Reader:    e.stdin,
		// Errors are mapped to exit codes in one place (exitCode), never
		// by urfave/cli calling os.Exit.
		ExitErrHandler:       func(*cli.Context, error) {},
		HideVersion:          true,
		EnableBashCompletion: false,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "C", Usage: "run as if mcp-guard was started in `DIR` (agentty's launch directory)"},
		},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error { return usageError("%v", err) },
		CommandNotFound: func(c *cli.Context, name string) {
			// Reported through the returned error path below.
		},
		Commands: []*cli.Command{
			statusCommand(e),
			approveCommand(e),
			revokeCommand(e),
			reviewCommand(e), checkCommand(e), launchCommand(e), hooksCommand(e), hookCommand(e), shellInitCommand(e),
			versionCommand(e),
			diffCommand(e),
			scanCommand(e),
			rulesCommand(e),
			explainCommand(e),
		},
	}
	app.Before = func(c *cli.Context) error {
		if c.NArg() > 0 && app.Command(c.Args().First()) == nil {
			return usageError("unknown command %q", c.Args().First())
		}
		return nil
	}
	for _, cmd := range app.Commands {
		setUsageErrors(cmd)
	}
	return app
}

func setUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usageError("%s: %v", cmd.Name, err) }
	for _, sub := range cmd.Subcommands {
		setUsageErrors(sub)
	}
}

// launchDir is the directory mcp-guard acts for: -C DIR, else the current
// directory; always absolute.
func launchDir(c *cli.Context) (string, error) {
	dir := c.String("C")
	if dir == "" {
		for _, a := range c.Lineage() {
			if v := a.String("C"); v != "" {
				dir = v
				break
			}
		}
	}
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
		return "", failf("-C takes a directory (agentty's launch directory)", "-C %s: not a directory", dir)
	}
	return abs, nil
}

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print mcp-guard's version",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("version takes no arguments")
			}
			fmt.Fprintf(e.stdout, "mcp-guard %s\n", version)
			return nil
		},
	}
}
