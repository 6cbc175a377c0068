// Package textsafe classifies the characters that must never reach a
// terminal as they are: controls and escapes that a terminal interprets,
// and invisible or direction-changing characters that make text read as
// something it is not. trust uses it to report deceptive text (MG308);
// report uses it to escape such text before showing it.
package textsafe

import (
	"unicode"
	"unicode/utf8"
)

// Unsafe reports whether r must be shown escaped. r == utf8.RuneError
// stands for an invalid byte when size is 1.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f: // C0 controls (ESC, BEL, CR, NUL, tab, newline …) and DEL
		return true
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI, OSC as single bytes)
		return true
	case r == 0x00ad, r == 0x034f, r == 0x061c, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r == 0x180e, r == 0x3164, r == 0xffa0:
		return true // soft hyphen, grapheme joiner, Arabic letter mark, Hangul fillers, Khmer invisibles, Mongolian separator
	case r >= 0x200b && r <= 0x200f: // zero-width space/joiners, LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line/paragraph separators, bidi embeddings and overrides
		return true
	case r >= 0x2060 && r <= 0x206f: // word joiner, invisible operators, bidi isolates, deprecated formats
		return true
	case r == 0xfeff: // zero-width no-break space (BOM)
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r >= 0xe0000 && r <= 0xe007f: // tag characters (invisible "ASCII smuggling")
		return true
	case r >= 0xfff9 && r <= 0xfffb: // interlinear annotation controls
		return true
	case r >= 0x180b && r <= 0x180f, r == 0x2800, r == 0x16fe4, r == 0x1d159:
		return true // Mongolian variation selectors, blank Braille, Khitan filler, null notehead: they draw nothing
	case LookAlike(r): // fullwidth ASCII and mathematical letters (see lookalike.go)
		return true
	case r >= 0x80 && (unicode.Is(unicode.Zs, r) || !unicode.IsGraphic(r)):
		return true // spaces other than U+0020; format, private-use and unassigned code points
	case r == utf8.RuneError:
		return true
	}
	return false
}

// Clean reports whether s is valid UTF-8 with no unsafe character and no
// word that mixes scripts (see MixedScript).
func Clean(s string) bool {
	if MixedScript(s) != nil {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return false
		}
		if Unsafe(r) {
			return false
		}
		i += n
	}
	return true
}
