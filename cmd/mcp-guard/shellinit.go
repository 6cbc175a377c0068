package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// shellInits are the functions `shell-init` prints: typing agentty,
// claude, gemini or codex runs it through `mcp-guard launch`, which starts
// it only when nothing waits for review in the current directory (and
// hands the client only the reviewed servers). mcp-guard execs the
// program on PATH, not the function, so there is no recursion; `command
// claude` and the like still reach them directly.
var shellInits = map[string]string{
	"bash": posixShellInit,
	"zsh":  posixShellInit,
	"fish": fishShellInit,
}

// wrapped are the commands shell-init wraps, with the name messages use.
var wrapped = []struct{ cmd, title string }{
	{"agentty", "agentty"}, {"claude", "Claude Code"}, {"gemini", "Gemini CLI"}, {"codex", "Codex"},
}

const shellInitHead = "# mcp-guard: agentty, claude, gemini and codex start only when no MCP server here waits for review.\n"

var posixShellInit, fishShellInit = shellFunctions()

func shellFunctions() (posix, fish string) {
	posix = shellInitHead + "# Add to ~/.bashrc or ~/.zshrc:  eval \"$(mcp-guard shell-init bash)\"   (or zsh)\n"
	fish = shellInitHead + "# Add to ~/.config/fish/config.fish:  mcp-guard shell-init fish | source\n"
	for _, w := range wrapped {
		missing := fmt.Sprintf("mcp-guard: not found on PATH; 'command %s' starts %s without the check", w.cmd, w.title)
		posix += fmt.Sprintf("%s() {\n  if ! command -v mcp-guard >/dev/null 2>&1; then\n    echo \"%s\" >&2\n    return 127\n  fi\n  command mcp-guard launch -- %s \"$@\"\n}\n",
			w.cmd, missing, w.cmd)
		fish += fmt.Sprintf("function %s --description '%s, through mcp-guard launch'\n    if not command -q mcp-guard\n        echo \"%s\" >&2\n        return 127\n    end\n    command mcp-guard launch -- %s $argv\nend\n",
			w.cmd, w.title, missing, w.cmd)
	}
	return posix, fish
}

func shellInitCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "shell-init",
		Usage:     "print shell functions so that typing agentty, claude, gemini or codex goes through `mcp-guard launch`",
		UsageText: "mcp-guard shell-init bash|zsh|fish",
		Description: "bash, zsh:  eval \"$(mcp-guard shell-init bash)\"   in ~/.bashrc or ~/.zshrc\n" +
			"fish:       mcp-guard shell-init fish | source       in ~/.config/fish/config.fish",
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return usageError("shell-init takes one shell name: bash, zsh or fish")
			}
			s, ok := shellInits[c.Args().First()]
			if !ok {
				return usageError("shell-init: unknown shell %q (want bash, zsh or fish)", c.Args().First())
			}
			fmt.Fprint(e.stdout, s)
			return nil
		},
	}
}
