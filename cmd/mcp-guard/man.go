package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/hooks"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
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
	fmt.Fprintf(w, ".SH DESCRIPTION\n")
	roffParagraphs(w, manIntro()+"\n\n"+optionsText)
	if flags := root.VisibleFlags(); len(flags) > 0 {
		fmt.Fprintf(w, ".SH GLOBAL OPTIONS\n")
		roffFlags(w, flags)
	}
	fmt.Fprintf(w, ".SH COMMANDS\n")
	for _, c := range root.VisibleCommands() {
		roffCommand(w, c, "")
	}
	fmt.Fprintf(w, ".SH ENVIRONMENT\n")
	roffTagged(w, manEnvironment())
	fmt.Fprintf(w, ".SH FILES\n")
	roffTagged(w, manFiles())
	fmt.Fprintf(w, ".SH EXIT STATUS\n")
	roffParagraphs(w, exitStatusText)
	fmt.Fprintf(w, ".SH EXAMPLES\n")
	roffTagged(w, manExamples())
	fmt.Fprintf(w, ".SH SEE ALSO\n")
	roffParagraphs(w, "git(1), githooks(5); "+report.JoinList(client.Commands(), "and")+"; "+trust.RulesDocURL)
}

// tagged is one entry of a man page list: a tag in bold, then its text.
type tagged struct{ tag, text string }

// roffTagged lists entries as tagged paragraphs.
func roffTagged(w io.Writer, entries []tagged) {
	for _, en := range entries {
		fmt.Fprintf(w, ".TP\n\\fB%s\\fR\n%s\n", roffText(en.tag), roffText(en.text))
	}
}

// manIntro is the page's first paragraph: what mcp-guard is for, every
// agent named from the registry.
func manIntro() string {
	return "AI coding agents (" + report.JoinList(client.Titles(), "and") + ") start the commands a " +
		"repository's configuration declares, and each gates them its own way. mcp-guard warns after every " +
		"git HEAD move what changed in what each agent runs, records your review bound to what a server runs " +
		"(its command and the repository code behind it), starts an agent with only the servers you reviewed " +
		"(launch), and checks configurations in CI (scan)."
}

// manEnvironment are the variables mcp-guard reads, each named where its
// code reads it.
func manEnvironment() []tagged {
	ledger := ledgerDirShown()
	return []tagged{
		{trust.LedgerHomeEnv + "=DIR", "keep mcp-guard's own state (reviews, audit log, launch snapshots) in DIR instead of " + ledger + "; for a HOME mcp-guard cannot write"},
		{hooks.SkipEnv + "=0", "the git hooks say nothing; `check` and `launch` gate as ever"},
		{hooks.TimeoutEnv + "=DURATION", "the git hook's time budget (a Go duration such as 500ms, or seconds; default " + hooks.DefaultTimeout.String() + "); after it the hook says it gave up and git carries on"},
		{gate.SnapshotEnv + "=0", "`launch` hands the agent nothing of its own making: the agent reads the repository's configuration, and a declined server it would run blocks the launch"},
		{report.ColorEnv + "=always|never", "force colour on or off; otherwise colour only on a terminal"},
		{"MCP_GUARD_PAGER, PAGER", "on a terminal, a review screen or `diff` longer than the terminal goes through this pager (MCP_GUARD_PAGER first; default `less -R` when less is installed; empty or `cat` turns paging off); never when the output is piped"},
		{"NO_COLOR", "any non-empty value turns colour off (https://no-color.org); CLICOLOR_FORCE, CLICOLOR=0 and TERM=dumb are honoured too"},
		{"HOME (USERPROFILE when empty)", "where the agents' own state and, without " + trust.LedgerHomeEnv + ", mcp-guard's are"},
		{"AGENTTY_MCP_CONFIG, AGENTTY_MCP_ALLOW_PROJECT", "read as agentty reads them (which configuration is live, a blanket grant); every other agent's variables as that agent reads them (docs/<agent>.md)"},
	}
}

// manFiles are the files mcp-guard reads and writes outside the
// repository's own configurations.
func manFiles() []tagged {
	ledger := ledgerDirShown()
	return []tagged{
		{ledger + "/" + trust.LedgerFileName, "your review decisions, bound to what each server runs; rewritten atomically under a lock, never when it does not parse"},
		{ledger + "/" + trust.AuditFileName, "one line per decision, appended"},
		{ledger + "/launch/", "the configurations `launch` hands an agent: exactly the reviewed servers"},
		{"~/.agentty/" + trust.ApprovalsFileName, "agentty's approvals store: `approve`, `review` and `revoke` write agentty's servers' fingerprints there, as agentty's own commands do; no other agent's files are written"},
		{policy.IgnoreFileName, "in the repository: what `scan` suppresses (rule ids, paths, servers, each with a reason); the hook, review and launch never read it"},
		{".git/hooks/" + strings.Join(hooks.Types[:len(hooks.Types)-1], ", "), "the hooks `hooks install` writes (core.hooksPath honoured); " + hooks.RefTransaction + " with --reference-transaction"},
	}
}

// ledgerDirShown is mcp-guard's own directory as the page shows it, with
// HOME as ~: where trust.LedgerDir puts it.
func ledgerDirShown() string {
	dir, err := trust.LedgerDir(func(k string) string {
		if k == "HOME" {
			return "~"
		}
		return ""
	})
	if err != nil {
		return "$" + trust.LedgerHomeEnv
	}
	return filepath.ToSlash(dir)
}

// manExamples are commands a reader can type as they are.
func manExamples() []tagged {
	c := client.Started()[min(1, len(client.Started())-1)]
	agent := c.Command()
	return []tagged{
		{"mcp-guard hooks install", "warn after every clone, pull, checkout and rebase in this repository"},
		{"mcp-guard check", "list what waits for review here, per agent"},
		{"mcp-guard review", "go through what waits: approve, decline or skip each server"},
		{"mcp-guard launch -- " + agent, "start " + c.Title() + " with only the servers you reviewed"},
		{"eval \"$(mcp-guard shell-init bash)\"", "in ~/.bashrc: typing " + startedNames() + " goes through launch"},
		{"mcp-guard diff ORIG_HEAD HEAD", "what the last pull changed in what each agent runs"},
		{"mcp-guard scan --format sarif -o mcp-guard.sarif", "check the repository's configurations in CI, for code scanning"},
		{"mcp-guard scan --diff origin/main...HEAD", "the findings a branch adds, and what merging it lets each agent run"},
		{"mcp-guard explain MG201", "why a rule matters and how to fix what it finds"},
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

// roffParagraphs prints s as filled paragraphs (blank lines separate
// them); a paragraph laid out in columns (a line with two spaces between
// its words: shell-init's and completion's one line per shell) is printed
// as it is, one line per line.
func roffParagraphs(w io.Writer, s string) {
	for _, para := range strings.Split(strings.Trim(s, "\n"), "\n\n") {
		if inColumns(para) {
			roffBlock(w, para)
			continue
		}
		fmt.Fprintf(w, ".PP\n")
		for _, line := range strings.Split(para, "\n") {
			fmt.Fprintf(w, "%s\n", roffLine(line))
		}
	}
}

// inColumns reports whether a line of para has two spaces between its
// words: text laid out in columns, which filling would run together.
func inColumns(para string) bool {
	for _, line := range strings.Split(para, "\n") {
		if strings.Contains(strings.TrimSpace(line), "  ") {
			return true
		}
	}
	return false
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
