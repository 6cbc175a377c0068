package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
)

// groupAction runs a command made of subcommands when no subcommand of it
// was named: without one it prints its help on stderr and exits 2 (the
// root's help, on plain `mcp-guard`, too); with an unknown one it refuses
// it with the nearest name.
func groupAction(_ context.Context, c *cli.Command) error {
	if c.NArg() == 0 {
		tmpl := cli.SubcommandHelpTemplate
		if c.Root() == c {
			tmpl = cli.RootCommandHelpTemplate
		}
		cli.HelpPrinter(c.Root().ErrWriter, tmpl, c)
		return &exitError{code: exitFailure}
	}
	return unknownCommand(c, c.Args().First())
}

// unknownCommand refuses name as a subcommand of c, suggesting the
// nearest one.
func unknownCommand(c *cli.Command, name string) error {
	var names []string
	for _, sub := range c.VisibleCommands() {
		names = append(names, sub.Name)
	}
	hint := fmt.Sprintf("run '%s --help' for its commands", c.FullName())
	if s := suggest(name, names); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	}
	return &exitError{code: exitFailure, err: fmt.Errorf("unknown command %q for %q", name, c.FullName()), hint: hint}
}

// checkHelpTopic refuses `mcp-guard help X` for an X that is no command,
// as an unknown command, instead of urfave/cli's own exit 3.
func checkHelpTopic(root *cli.Command) error {
	args := root.Args().Slice()
	if len(args) < 2 || (args[0] != "help" && args[0] != "h") {
		return nil
	}
	c := root
	for _, name := range args[1:] {
		if strings.HasPrefix(name, "-") {
			break
		}
		sub := c.Command(name)
		if sub == nil {
			return unknownCommand(c, name)
		}
		c = sub
	}
	return nil
}

// suggest is the candidate name is most likely a typo of: the one that
// starts with name, or else the nearest by edit distance when that is at
// most 2 (and less than half of name); "" when none is close. name itself
// is never suggested (a root-only option given to a command).
func suggest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	candidates = slices.DeleteFunc(slices.Clone(candidates), func(c string) bool { return c == name })
	var prefixed []string
	for _, c := range candidates {
		if strings.HasPrefix(c, name) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestD && 2*d < len(name) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Damerau–Levenshtein distance (optimal string
// alignment) between a and b: insertions, deletions, substitutions and
// swaps of adjacent bytes.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
