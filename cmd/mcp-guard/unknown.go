package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/internal/nearname"
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
	if s := nearname.Of(name, names); s != "" {
		hint = fmt.Sprintf("did you mean %q?", s)
	} else if s, ok := otherVerbs[name]; ok && c.Root() == c {
		hint = fmt.Sprintf("did you mean `mcp-guard %s`?", s)
	}
	return &exitError{code: exitFailure, err: fmt.Errorf("unknown command %q for %q", name, c.FullName()), hint: hint}
}

// otherVerbs are the words other tools use for what a command of
// mcp-guard does (direnv allow, git hook managers' install), for a hint.
var otherVerbs = map[string]string{
	"allow":     "approve",
	"trust":     "approve",
	"deny":      "review --decline",
	"block":     "review --decline",
	"install":   "hooks install",
	"uninstall": "hooks uninstall",
	"init":      "hooks install",
	"run":       "launch -- CMD",
	"exec":      "launch -- CMD",
	"list":      "status",
	"ls":        "status",
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
