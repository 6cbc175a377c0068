package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// shellInits are the functions `shell-init` prints: typing agentty or
// claude runs it through `mcp-guard launch`, which starts it only when
// nothing waits for review in the current directory (and hands claude
// only the reviewed servers). mcp-guard execs the program on PATH, not
// the function, so there is no recursion; `command agentty` and `command
// claude` still reach them directly.
var shellInits = map[string]string{
	"bash": posixShellInit,
	"zsh":  posixShellInit,
	"fish": `# mcp-guard: agentty and claude start only when no MCP server here waits for review.
# Add to ~/.config/fish/config.fish:  mcp-guard shell-init fish | source
function agentty --description 'agentty, through mcp-guard launch'
    if not command -q mcp-guard
        echo "mcp-guard: not found on PATH; 'command agentty' starts agentty without the check" >&2
        return 127
    end
    command mcp-guard launch -- agentty $argv
end
function claude --description 'Claude Code, through mcp-guard launch'
    if not command -q mcp-guard
        echo "mcp-guard: not found on PATH; 'command claude' starts Claude Code without the check" >&2
        return 127
    end
    command mcp-guard launch -- claude $argv
end
`,
}

const posixShellInit = `# mcp-guard: agentty and claude start only when no MCP server here waits for review.
# Add to ~/.bashrc or ~/.zshrc:  eval "$(mcp-guard shell-init bash)"   (or zsh)
agentty() {
  if ! command -v mcp-guard >/dev/null 2>&1; then
    echo "mcp-guard: not found on PATH; 'command agentty' starts agentty without the check" >&2
    return 127
  fi
  command mcp-guard launch -- agentty "$@"
}
claude() {
  if ! command -v mcp-guard >/dev/null 2>&1; then
    echo "mcp-guard: not found on PATH; 'command claude' starts Claude Code without the check" >&2
    return 127
  fi
  command mcp-guard launch -- claude "$@"
}
`

func shellInitCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "shell-init",
		Usage:     "print shell functions so that typing agentty or claude goes through `mcp-guard launch`",
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
