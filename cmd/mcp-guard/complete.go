package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Shell completion of what commands take: server names (approve, revoke,
// review) and rule ids (explain). urfave/cli's protocol is a line a
// candidate, "token:description"; a ':' inside a token is escaped as
// "\:" (zsh's _describe reads it so; mcp-guard's bash and fish scripts
// too).

// completable are the names completion may offer: a repository writes
// server names, and a shell's completion machinery may expand what it is
// offered (bash's compgen -W runs $(…)), so a name with anything else
// is left out; it can still be typed.
var completable = lazyre.Regexp{Expr: `^[A-Za-z0-9_][A-Za-z0-9_.@+=,-]{0,127}$`}

// completionToken escapes a token for the protocol.
func completionToken(s string) string { return strings.ReplaceAll(s, ":", `\:`) }

// completing reports whether the word being completed is an option, and
// lets urfave/cli list the options then.
func completing(ctx context.Context, c *cli.Command) bool {
	args := c.Args().Slice()
	if len(args) > 0 && strings.HasPrefix(args[len(args)-1], "-") {
		cli.DefaultCompleteWithFlags(ctx, c)
		return false
	}
	return true
}

// completeServers offers the servers found here: each by its qualified
// label, and by its plain name when one agent alone loads that name.
func completeServers(e *env) cli.ShellCompleteFunc {
	return func(ctx context.Context, c *cli.Command) {
		if !completing(ctx, c) {
			return
		}
		quiet := *e
		quiet.stderr = io.Discard
		g, err := gateHere(ctx, c, &quiet)
		if err != nil {
			return
		}
		w := c.Root().Writer
		agents := map[string][]string{}
		var names []string
		for _, cv := range g.All() {
			for _, cs := range cv.Servers {
				if !completable.Get().MatchString(cs.Name) {
					continue
				}
				if agents[cs.Name] == nil {
					names = append(names, cs.Name)
				}
				agents[cs.Name] = append(agents[cs.Name], cv.Title)
				fmt.Fprintf(w, "%s:%s's server\n", completionToken(string(cv.Client)+":"+cs.Name), cv.Title)
			}
		}
		for _, n := range names {
			if len(agents[n]) == 1 {
				fmt.Fprintf(w, "%s:%s's server\n", completionToken(n), agents[n][0])
			}
		}
	}
}

// completeRules offers the rule ids, each with its title.
func completeRules(ctx context.Context, c *cli.Command) {
	if !completing(ctx, c) || c.NArg() > 0 {
		return
	}
	for _, r := range trust.Rules {
		fmt.Fprintf(c.Root().Writer, "%s:%s\n", r.ID, r.Title)
	}
}

// bashCompletion replaces urfave/cli's bash script, which needs the
// bash-completion package (_get_comp_words_by_ref) and hands candidates to
// compgen -W, which expands them. This one needs bash alone (3.2 too),
// compares candidates as plain strings, and completes a word with a ':'
// in it (claude-code:db), which bash splits at.
const bashCompletion = `# mcp-guard completion for bash: needs bash alone, not the bash-completion package.
# Add to ~/.bashrc:  source <(mcp-guard completion bash)
_mcp_guard_complete() {
  local line="${COMP_LINE:0:COMP_POINT}" cur="" out token
  local -a words args
  read -r -a words <<< "$line"
  if [[ -n "$line" && "$line" != *[[:space:]] ]]; then
    cur="${words[${#words[@]}-1]}"
    unset "words[${#words[@]}-1]"
  fi
  args=("${words[@]:1}")
  [[ "$cur" == -* ]] && args+=("$cur")
  COMPREPLY=()
  while IFS= read -r out; do
    out="${out//\\:/$'\001'}"
    token="${out%%:*}"
    token="${token//$'\001'/:}"
    [[ -n "$token" && "$token" == "$cur"* ]] && COMPREPLY+=("$token")
  done < <(command "${words[0]}" "${args[@]}" --generate-shell-completion 2>/dev/null)
  # bash replaces only what follows the word's last ':' (COMP_WORDBREAKS).
  if [[ "$cur" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
    local pre="${cur%"${cur##*:}"}" i
    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="${COMPREPLY[i]#"$pre"}"; done
  fi
  return 0
}
complete -o bashdefault -o default -F _mcp_guard_complete mcp-guard
`

// pwshSplit is how urfave/cli's PowerShell script splits a candidate, at
// its first ':'; pwshSplitEscaped splits at the first ':' not escaped and
// unescapes the token, so that claude-code:db completes whole.
const (
	pwshSplit        = `$parts = $_.Split(':', 2)`
	pwshSplitEscaped = `$parts = @($_)
        if ($_ -match '^((?:[^:\\]|\\.)*):(.*)$') { $parts = @(($Matches[1] -replace '\\:', ':'), $Matches[2]) }`
)

// pwshCompletion is urfave/cli's PowerShell script (render) with its
// split replaced by pwshSplitEscaped; it refuses to print a script whose
// split it did not find, rather than one that breaks qualified names.
func pwshCompletion(render cli.ActionFunc) cli.ActionFunc {
	return func(ctx context.Context, c *cli.Command) error {
		root := c.Root()
		w := root.Writer
		var b strings.Builder
		root.Writer = &b
		err := render(ctx, c)
		root.Writer = w
		if err != nil {
			return err
		}
		if !strings.Contains(b.String(), pwshSplit) {
			return failf("", "completion pwsh: urfave/cli's script changed; mcp-guard cannot adapt it")
		}
		_, err = io.WriteString(w, strings.Replace(b.String(), pwshSplit, pwshSplitEscaped, 1))
		return err
	}
}

// fishCompletion replaces urfave/cli's fish script, which splits a
// candidate at its first ':' and so cannot offer claude-code:db.
const fishCompletion = `# mcp-guard completion for fish.
# Save as ~/.config/fish/completions/mcp-guard.fish:  mcp-guard completion fish > ~/.config/fish/completions/mcp-guard.fish
function __mcp_guard_complete
    set -l args (commandline -opc)
    set -l cur (commandline -ct)
    set -l more
    if string match -q -- '-*' $cur
        set more $cur
    end
    for line in (command $args[1] $args[2..-1] $more --generate-shell-completion 2>/dev/null)
        set -l m (string match -r -- '^((?:[^:\\\\]|\\\\.)*)(?::(.*))?$' $line)
        test -n "$m[2]"; or continue
        set -l token (string replace -a -- '\\:' ':' $m[2])
        if test -n "$m[3]"
            printf '%s\t%s\n' $token $m[3]
        else
            printf '%s\n' $token
        end
    end
end
complete -c mcp-guard -f -a '(__mcp_guard_complete)'
`
