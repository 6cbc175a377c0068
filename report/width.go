package report

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Columns on a terminal. Human output lines entries up in columns (the
// name column of status, check, review, diff and the hook's warning) and
// wraps long lines; both count the cells a text takes on the screen,
// never its bytes or runes, and cut a text only between the characters
// people see (grapheme clusters), never between a letter and its accent.
// Each text measured here was sanitised first (Sanitize): what remains
// is printable, so its width is the sum of its clusters' widths.

// runeCells is the cells r takes, as terminals lay text out (wcwidth):
// 2 for East Asian wide and fullwidth characters (CJK, Hangul syllables,
// kana, most emoji), 0 for a nonspacing or enclosing mark and a Hangul
// vowel or final jamo (drawn in the cell of the character before it),
// else 1. East Asian ambiguous characters count 1, as terminals outside
// East Asian locales draw them.
func runeCells(r rune) int {
	switch {
	case r < 0x300: // ASCII and Latin-1, before the first combining mark
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me), isJamoExtend(r):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// isJamoExtend: a Hangul vowel or final jamo, which a terminal draws with
// the initial consonant before it as one syllable.
func isJamoExtend(r rune) bool {
	return (r >= 0x1160 && r <= 0x11ff) || (r >= 0xd7b0 && r <= 0xd7ff)
}

// extends reports whether r belongs to the cluster of the character
// before it (UAX #29's Extend and SpacingMark, simplified): any mark,
// a Hangul vowel or final jamo, an emoji skin-tone modifier. A zero-width
// joiner or a variation selector never reaches here: Sanitize escapes
// them.
func extends(r rune) bool {
	return r >= 0x300 && (unicode.Is(unicode.M, r) || isJamoExtend(r) || (r >= 0x1f3fb && r <= 0x1f3ff))
}

// isRegional: a regional indicator, two of which make a flag.
func isRegional(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }

// nextCluster is the length in bytes of the cluster s starts with, and
// the cells it takes.
func nextCluster(s string) (size, cells int) {
	r, n := utf8.DecodeRuneInString(s)
	size, cells = n, runeCells(r)
	if isRegional(r) {
		if r2, n2 := utf8.DecodeRuneInString(s[size:]); isRegional(r2) {
			size += n2
			cells += runeCells(r2)
		}
	}
	for size < len(s) {
		r, n := utf8.DecodeRuneInString(s[size:])
		if !extends(r) {
			break
		}
		size += n
		cells += runeCells(r)
	}
	return size, cells
}

// cells is the width of s on a terminal: the sum of its runes' (a
// cluster takes the cells of its runes).
func cells(s string) int {
	n := 0
	for _, r := range s {
		n += runeCells(r)
	}
	return n
}

// cutCells cuts s to at most n cells, its last an ellipsis, when it is
// wider (cut reports that it was); it keeps whole clusters, so the result
// may be a cell narrower than n where a wide character did not fit.
func cutCells(s string, n int) (string, bool) {
	if len(s) <= n { // bytes >= cells for every rune: narrow enough
		return s, false
	}
	if cells(s) <= n {
		return s, false
	}
	keep, used := 0, 0
	for keep < len(s) {
		size, w := nextCluster(s[keep:])
		if used+w > n-1 {
			break
		}
		keep += size
		used += w
	}
	return s[:keep] + "…", true
}

// padCells pads s with spaces to n cells.
func padCells(s string, n int) string {
	if c := cells(s); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return s
}
