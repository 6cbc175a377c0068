package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"
)

func manCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print mcp-guard's man page (roff)",
		UsageText: "mcp-guard man > mcp-guard.1   (or: mcp-guard man | man -l -)",
		Action: func(_ context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("man takes no arguments")
			}
			writeMan(e.stdout, c.Root())
			return nil
		},
	}
}

// writeMan renders root's help as a roff man page (section 1).
//
// It is written here rather than with urfave/cli-docs: that renderer goes
// through markdown (go-md2man, blackfriday), whose package initialisers
// ran on every start of the binary, the git hook's included
// (BENCHMARKS.md, "Process start"). groff checks the output
// (TestManPageIsValidRoff).
func writeMan(w io.Writer, root *cli.Command) {
	fmt.Fprintf(w, ".TH %s 1\n.nh\n.ad l\n", root.Name)
	fmt.Fprintf(w, ".SH NAME\n%s \\- %s\n", roffText(root.Name), roffText(root.Usage))
	fmt.Fprintf(w, ".SH SYNOPSIS\n")
	roffBlock(w, root.UsageText)
	if root.Description != "" {
		fmt.Fprintf(w, ".SH DESCRIPTION\n")
		roffParagraphs(w, root.Description)
	}
	if flags := root.VisibleFlags(); len(flags) > 0 {
		fmt.Fprintf(w, ".SH GLOBAL OPTIONS\n")
		roffFlags(w, flags)
	}
	fmt.Fprintf(w, ".SH COMMANDS\n")
	for _, c := range root.VisibleCommands() {
		roffCommand(w, c, "")
	}
}

func roffCommand(w io.Writer, c *cli.Command, parent string) {
	name := strings.TrimSpace(parent + " " + c.Name)
	fmt.Fprintf(w, ".SS %s\n", roffText(name))
	if c.Usage != "" {
		fmt.Fprintf(w, "%s\n", roffText(c.Usage))
	}
	if c.UsageText != "" {
		roffBlock(w, c.UsageText)
	}
	if c.Description != "" {
		roffParagraphs(w, c.Description)
	}
	roffFlags(w, c.VisibleFlags())
	for _, sub := range c.VisibleCommands() {
		roffCommand(w, sub, name)
	}
}

// roffFlags lists flags as tagged paragraphs: the names, then the usage.
func roffFlags(w io.Writer, flags []cli.Flag) {
	for _, f := range flags {
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		placeholder, usage := usagePlaceholder(df.GetUsage())
		var names []string
		for _, n := range f.Names() {
			n = flagName(strings.TrimSpace(n))
			if df.TakesValue() {
				if placeholder == "" {
					placeholder = "VALUE"
				}
				n += " " + placeholder
			}
			names = append(names, `\fB`+roffText(n)+`\fR`)
		}
		if df.TakesValue() && df.IsDefaultVisible() {
			def := df.GetDefaultText()
			if def == "" {
				def = df.GetValue()
			}
			if def != "" && def != `""` {
				usage += " (default: " + def + ")"
			}
		}
		fmt.Fprintf(w, ".TP\n%s\n%s\n", strings.Join(names, ", "), roffText(usage))
	}
}

// usagePlaceholder splits urfave/cli's "`NAME`" convention: the name a
// flag's value is shown as, and the usage without the back quotes.
func usagePlaceholder(usage string) (name, text string) {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return "", usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return "", usage
	}
	name = usage[i+1 : i+1+j]
	return name, usage[:i] + name + usage[i+1+j+1:]
}

// roffBlock prints s verbatim (no filling), one input line per line.
func roffBlock(w io.Writer, s string) {
	fmt.Fprintf(w, ".PP\n.nf\n")
	for _, line := range strings.Split(strings.Trim(s, "\n"), "\n") {
		fmt.Fprintf(w, "%s\n", roffLine(line))
	}
	fmt.Fprintf(w, ".fi\n")
}

// roffParagraphs prints s as filled paragraphs (blank lines separate them).
func roffParagraphs(w io.Writer, s string) {
	for _, para := range strings.Split(strings.Trim(s, "\n"), "\n\n") {
		fmt.Fprintf(w, ".PP\n")
		for _, line := range strings.Split(para, "\n") {
			fmt.Fprintf(w, "%s\n", roffLine(line))
		}
	}
}

// roffLine is one line of text that roff prints as it is: a leading
// space, period or apostrophe would make it a request or a break.
func roffLine(s string) string {
	s = roffText(s)
	if s == "" {
		return `\&`
	}
	switch s[0] {
	case '.', '\'', ' ':
		return `\&` + s
	}
	return s
}

// roffText escapes roff's escape character and hyphens; backquotes, which
// the help text uses for commands, become bold.
func roffText(s string) string {
	var b strings.Builder
	bold := false
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\e`)
		case '-':
			b.WriteString(`\-`)
		case '`':
			if bold {
				b.WriteString(`\fR`)
			} else {
				b.WriteString(`\fB`)
			}
			bold = !bold
		case '\n':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	if bold {
		b.WriteString(`\fR`)
	}
	return b.String()
}
