package trust

import (
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/textsafe"
)

// Deceptive reports whether s holds characters that a terminal would
// interpret or that hide what the text says: controls, escape sequences,
// bidi overrides, zero-width and other invisible characters (MG308).
func Deceptive(s string) bool { return !textsafe.Clean(s) }

// PersonaFindings reports hidden characters in the persona at p (MG308):
// a persona is a prompt, and invisible text is how a prompt injection
// hides from review. Parse applies the same rule to a configuration's
// strings, so both live in this package.
func PersonaFindings(p string, data []byte) []Finding {
	var out []Finding
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if Deceptive(strings.ReplaceAll(line, "\t", " ")) {
			col := 1
			for j, r := range line {
				if Deceptive(string(r)) && r != '\t' {
					col = len([]rune(line[:j])) + 1
					break
				}
			}
			out = append(out, NewFinding("MG308", p, Pos{Line: i + 1, Column: col}, "", "",
				"the persona contains control, escape, bidi or invisible characters: text a reviewer does not see can still instruct the agent"))
			break
		}
	}
	return out
}
