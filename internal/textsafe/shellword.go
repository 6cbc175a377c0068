package textsafe

import "strings"

// ShellWord is w as one shell word for a command the user is asked to
// type: left bare only when every character is one no POSIX shell or zsh
// gives a meaning to, single-quoted otherwise. A repository chooses its
// entries' names, so `a;id`, `b$(id)` or a Claude Code hook's label
// `claude-code:hooks.SessionStart[0].hooks[0]@…` (a glob zsh refuses
// when nothing matches) must reach mcp-guard as the name, not run or
// expand. A leading "=" is quoted too: zsh expands `=ls` to ls's path.
// It does not sanitise w: a renderer does (report.hintWord).
func ShellWord(w string) string {
	bare := w != "" && w[0] != '='
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.,:/@%+=", r)) {
			bare = false
			break
		}
	}
	if bare {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
