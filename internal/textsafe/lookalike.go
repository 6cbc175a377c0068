package textsafe

import (
	"unicode"
	"unicode/utf8"
)

// Look-alike characters: text that is printable and visible, yet reads as
// something it is not. Two kinds are caught.
//
//   - Characters that imitate ASCII in any context (LookAlike): the
//     fullwidth forms of ASCII (U+FF01-U+FF5E, "ｎｐｘ") and the
//     mathematical alphanumeric symbols (U+1D400-U+1D7FF, "𝐧𝐩𝐱"). Neither
//     belongs in a server name, a command or an argument.
//   - Words that mix scripts (MixedScript): "gіthub" with a Cyrillic і,
//     "/usr/bin/nоde" with a Cyrillic о, "ΡYTHON" with a Greek Ρ. This is
//     Unicode's mixed-script test (UTS #39, section 5.1) applied per word:
//     a word whose letters come from more than one script is suspect,
//     except for the combinations of Latin with Han, Hiragana, Katakana,
//     Hangul and Bopomofo that Japanese, Chinese and Korean text use. Text
//     wholly in one script ("сервер", "Ωμέγα", "日本語") is left alone:
//     mcp-guard cannot tell it from an honest name, and a word in one
//     script cannot pass for a word of another without a confusables table,
//     which this package does not carry.
//
// A word is a maximal run of letters, marks, digits and characters that
// are shown escaped anyway (Unsafe runes and invalid bytes, which count as
// Latin: their escapes are written in ASCII letters and digits). Counting
// them keeps the rule stable under escaping: a zero-width space cannot
// split "git\u200bхаб" into two innocent words, and an escape's hex digits
// never join the word that follows it into a mixed one.

// LookAlike reports whether r imitates an ASCII character whatever
// surrounds it: a fullwidth form of ASCII or a mathematical alphanumeric
// symbol.
func LookAlike(r rune) bool {
	return (r >= 0xff01 && r <= 0xff5e) || (r >= 0x1d400 && r <= 0x1d7ff)
}

// Span is the byte range [Start, End) of a word in a string.
type Span struct{ Start, End int }

// scriptClass names a script for the mixed-script test; 0 means the rune
// does not count (digits, Common and Inherited letters and marks).
type scriptClass uint8

const (
	classNone  scriptClass = iota
	classLatin             // Latin, and runes shown escaped
	classCJK               // Han, Hiragana, Katakana, Hangul, Bopomofo: combine with Latin
	classOther             // any other script; which one is kept beside it
)

// MixedScript returns the words of s whose letters come from scripts that
// do not belong together, in order; nil when there is none. ASCII-only
// strings return nil at once.
func MixedScript(s string) []Span {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return nil
	}
	var out []Span
	start := -1
	var latin, cjk bool
	var other *unicode.RangeTable
	mixed := false
	flush := func(end int) {
		if start >= 0 && mixed {
			out = append(out, Span{start, end})
		}
		start, latin, cjk, other, mixed = -1, false, false, nil, false
	}
	for i = 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		invalid := r == utf8.RuneError && n <= 1
		if !invalid && !inWord(r) {
			flush(i)
			i += n
			continue
		}
		if start < 0 {
			start = i
		}
		switch cls, table := classify(r, invalid); cls {
		case classLatin:
			latin = true
		case classCJK:
			cjk = true
		case classOther:
			if other != nil && other != table {
				mixed = true
			}
			other = table
		}
		if other != nil && (latin || cjk) {
			mixed = true
		}
		i += n
	}
	flush(len(s))
	return out
}

// inWord reports whether a valid rune belongs to a word.
func inWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || Unsafe(r)
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || Unsafe(r)
}

var cjkScripts = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo}

// likelyScripts are tried first: the scripts look-alikes come from, and
// those most text is in.
var likelyScripts = []*unicode.RangeTable{unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee, unicode.Coptic, unicode.Arabic, unicode.Hebrew}

func classify(r rune, invalid bool) (scriptClass, *unicode.RangeTable) {
	switch {
	case invalid, r < utf8.RuneSelf && (r < '0' || r > '9'), Unsafe(r):
		return classLatin, nil
	case r < utf8.RuneSelf, unicode.IsDigit(r):
		return classNone, nil
	case unicode.Is(unicode.Latin, r):
		return classLatin, nil
	}
	for _, t := range cjkScripts {
		if unicode.Is(t, r) {
			return classCJK, t
		}
	}
	for _, t := range likelyScripts {
		if unicode.Is(t, r) {
			return classOther, t
		}
	}
	if unicode.Is(unicode.Common, r) || unicode.Is(unicode.Inherited, r) {
		return classNone, nil
	}
	for _, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return classOther, t
		}
	}
	return classNone, nil
}
