package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/report"
)

// shellInit is what `shell-init SHELL` prints: a function per client
// launch starts (client.Started), so typing its command runs it through
// `mcp-guard launch`, which starts it only when nothing waits for review
// in the current directory (and hands it only the reviewed servers).
// mcp-guard execs the program on PATH, not the function, so there is no
// recursion; `command claude` and the like still reach them directly.
// Built on request: the hook never pays for it.
func shellInit(shell string) (string, bool) {
	head := "# mcp-guard: " + report.JoinList(client.Commands(), "and") + " start only when no MCP server here waits for review.\n"
	var out string
	switch shell {
	case "bash", "zsh":
		out = head + "# Add to ~/.bashrc or ~/.zshrc:  eval \"$(mcp-guard shell-init bash)\"   (or zsh)\n"
	case "fish":
		out = head + "# Add to ~/.config/fish/config.fish:  mcp-guard shell-init fish | source\n"
	default:
		return "", false
	}
	for _, c := range client.Started() {
		cmd, title := c.Command(), c.Title()
		missing := fmt.Sprintf("mcp-guard: not found on PATH; 'command %s' starts %s without the check", cmd, title)
		if shell == "fish" {
			out += fmt.Sprintf("function %s --description '%s, through mcp-guard launch'\n    if not command -q mcp-guard\n        echo \"%s\" >&2\n        return 127\n    end\n    command mcp-guard launch -- %s $argv\nend\n",
				cmd, title, missing, cmd)
			continue
		}
		out += fmt.Sprintf("%s() {\n  if ! command -v mcp-guard >/dev/null 2>&1; then\n    echo \"%s\" >&2\n    return 127\n  fi\n  command mcp-guard launch -- %s \"$@\"\n}\n",
			cmd, missing, cmd)
	}
	return out, true
}

func shellInitCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "shell-init",
		Usage:     "print shell functions so that typing " + startedNames() + " goes through `mcp-guard launch`",
		UsageText: "mcp-guard shell-init bash|zsh|fish",
		Description: "bash, zsh:  eval \"$(mcp-guard shell-init bash)\"   in ~/.bashrc or ~/.zshrc\n" +
			"fish:       mcp-guard shell-init fish | source       in ~/.config/fish/config.fish",
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return usageError("shell-init takes one shell name: bash, zsh or fish")
			}
			s, ok := shellInit(c.Args().First())
			if !ok {
				return usageError("shell-init: unknown shell %q (want bash, zsh or fish)", c.Args().First())
			}
			fmt.Fprint(e.stdout, s)
			return nil
		},
	}
}

// startedNames are the commands launch starts, for help texts: "agentty,
// claude, gemini or codex".
func startedNames() string { return report.JoinList(client.Commands(), "or") }

// exampleLabel is a qualified server name for help texts ("claude-code:db"):
// the first client's of the registry after agentty's.
func exampleLabel() string {
	all := client.All()
	return string(all[min(1, len(all)-1)].ID()) + ":db"
}
