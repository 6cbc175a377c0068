package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

// shellInits are the functions `shell-init` prints: typing agentty runs it
// through `mcp-guard launch`, which starts it only when nothing waits for
// review in the current directory. mcp-guard execs the agentty on PATH, not
// the function, so there is no recursion; `command agentty` still reaches
// agentty directly.
var shellInits = map[string]string{
	"bash": posixShellInit,
	"zsh":  posixShellInit,
	"fish": `# mcp-guard: agentty starts only when no MCP server here waits for review.
# Add to ~/.config/fish/config.fish:  mcp-guard shell-init fish | source
function agentty --description 'agentty, through mcp-guard launch'
    if not command -q mcp-guard
        echo "mcp-guard: not found on PATH; 'command agentty' starts agentty without the check" >&2
        return 127
    end
    command mcp-guard launch -- agentty $argv
end
`,
}

const posixShellInit = `# mcp-guard: agentty starts only when no MCP server here waits for review.
# Add to ~/.bashrc or ~/.zshrc:  eval "$(mcp-guard shell-init bash)"   (or zsh)
agentty() {
  if ! command -v mcp-guard >/dev/null 2>&1; then
    echo "mcp-guard: not found on PATH; 'command agentty' starts agentty without the check" >&2
    return 127
  fi
  command mcp-guard launch -- agentty "$@"
}
`

func shellInitCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "shell-init",
		Usage:     "print a shell function so that typing agentty goes through `mcp-guard launch`",
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
