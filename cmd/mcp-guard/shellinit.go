package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/internal/nearname"
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
	head := "# mcp-guard: " + report.JoinList(client.Commands(), "and") + " start only when nothing here that they run (a server, hook or helper) waits for review.\n"
	var out string
	switch shell {
	case "bash", "zsh":
		out = head + "# Add to ~/.bashrc or ~/.zshrc:  eval \"$(mcp-guard shell-init bash)\"   (or zsh)\n"
	case "fish":
		out = head + "# Add to ~/.config/fish/config.fish:  mcp-guard shell-init fish | source\n"
	case "pwsh", "powershell":
		out = head + "# Add to $PROFILE:  mcp-guard shell-init pwsh | Out-String | Invoke-Expression\n"
	default:
		return "", false
	}
	for _, c := range client.Started() {
		cmd, title := c.Command(), c.Title()
		missing := fmt.Sprintf("mcp-guard: not found on PATH; 'command %s' starts %s without the check", cmd, title)
		switch shell {
		case "pwsh", "powershell":
			// launch takes CMD as its first argument, without `--`, which
			// PowerShell may swallow before a native command sees it.
			// The message in single quotes: nothing in it is expanded.
			missing := fmt.Sprintf("mcp-guard: not found on PATH; & (Get-Command %s -CommandType Application) starts %s without the check", cmd, title)
			out += fmt.Sprintf("function %s {\n    $mg = Get-Command mcp-guard -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1\n    if (-not $mg) {\n        [Console]::Error.WriteLine('%s')\n        $global:LASTEXITCODE = 127\n        return\n    }\n    & $mg launch %s @args\n}\n",
				cmd, missing, cmd)
			continue
		case "fish":
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
		Name:        "shell-init",
		Usage:       "print shell functions so that typing " + startedNames() + " goes through `mcp-guard launch`",
		UsageText:   "mcp-guard shell-init bash|zsh|fish|pwsh",
		Description: shellInitHowTo,
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() != 1 {
				return failf("add `eval \"$(mcp-guard shell-init bash)\"` to ~/.bashrc; `mcp-guard shell-init --help` shows zsh's, fish's and pwsh's line", "shell-init takes one shell name: bash, zsh, fish or pwsh")
			}
			s, ok := shellInit(c.Args().First())
			if !ok {
				hint := "the shells are bash, zsh, fish and pwsh"
				if near := nearname.Of(c.Args().First(), []string{"bash", "zsh", "fish", "pwsh"}); near != "" {
					hint = "did you mean " + near + "?"
				}
				return failf(hint, "shell-init: unknown shell %q", c.Args().First())
			}
			fmt.Fprint(e.stdout, s)
			return nil
		},
	}
}

// shellInitHowTo says where each shell's line goes.
const shellInitHowTo = "bash, zsh:  eval \"$(mcp-guard shell-init bash)\"   in ~/.bashrc or ~/.zshrc (zsh: shell-init zsh)\n" +
	"fish:       mcp-guard shell-init fish | source       in ~/.config/fish/config.fish\n" +
	"pwsh:       mcp-guard shell-init pwsh | Out-String | Invoke-Expression   in $PROFILE"

// startedNames are the commands launch starts, for help texts: "agentty,
// claude, gemini or codex".
func startedNames() string { return report.JoinList(client.Commands(), "or") }

// exampleLabel is a qualified server name for help texts ("claude-code:db"):
// the first client's of the registry after agentty's.
func exampleLabel() string {
	all := client.All()
	return string(all[min(1, len(all)-1)].ID()) + ":db"
}
