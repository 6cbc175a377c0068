package report

import (
	"strings"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/internal/textsafe"
)

// Sanitize returns s in a form that is safe to write to a terminal and that
// stays on one line. Every string that came from a repository goes through it
// before it is shown to a person.
//
// Kept as is: printable ASCII other than the backslash, the ASCII space, and
// every visible Unicode character (letters, marks, digits, punctuation,
// symbols: "é", "日本", "ü"). The list of runes to escape is shared with the
// deceptive-text rule (package internal/textsafe); in short:
//
// Shown escaped, never interpreted:
//
//   - the backslash itself, as \\, so the result is unambiguous;
//   - tab, newline and carriage return as \t, \n and \r;
//   - every other C0 control (NUL, BEL, backspace, ESC, ...) and DEL as \xNN;
//   - every byte that is not part of valid UTF-8 as \xNN (NN >= 80);
//   - as \uNNNN (\UNNNNNNNN above U+FFFF), every rune that is not graphic in
//     Unicode's sense: C1 controls (U+0080-U+009F), format characters (bidi
//     embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069, the
//     marks U+200E, U+200F and U+061C, zero-width space and joiners
//     U+200B-U+200D, word joiner and invisible operators U+2060-U+2064,
//     U+FEFF, U+180E, the soft hyphen U+00AD, tag characters
//     U+E0000-U+E007F, ...), the line and paragraph separators U+2028 and
//     U+2029, private-use and unassigned code points;
//   - likewise, graphic runes that draw nothing: every space other than
//     U+0020 (no-break space, U+2000-U+200A, U+3000, ...), the combining
//     grapheme joiner U+034F, Hangul fillers, Mongolian and all other
//     variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF), the blank
//     Braille pattern U+2800;
//   - U+FFFD itself, so a replacement character in the input cannot pass for
//     an invalid byte;
//   - look-alikes (internal/textsafe's lookalike.go): fullwidth forms of
//     ASCII and mathematical letters always, and every non-ASCII rune of a
//     word that mixes scripts ("g\u0456thub" for a "github" spelt with a
//     Cyrillic і). Words in one script ("сервер", "Ωμέγα") are kept.
//
// Variation selectors are escaped on purpose: they are invisible and can make
// two different strings look the same; the price is that an emoji
// presentation sequence such as a red heart is shown as the base character
// followed by \ufe0f.
//
// Sanitize is injective: the escapes above can be decoded back to exactly s
// (\xNN is a raw byte, \uNNNN and \UNNNNNNNN a UTF-8 encoded rune, \\ a
// backslash), so two different inputs never look the same. Its output
// contains only runes it keeps, so sanitizing an output again changes nothing
// but its backslashes (each becomes \\); that is the only sense in which it is
// idempotent, and the price of being unambiguous.
func Sanitize(s string) string {
	i := 0
	for i < len(s) && isPlainASCII(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	mixed := textsafe.MixedScript(s)
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		for len(mixed) > 0 && mixed[0].End <= i {
			mixed = mixed[1:]
		}
		c := s[i]
		if isPlainASCII(c) {
			b.WriteByte(c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			writeASCIIEscape(&b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHex(&b, `\x`, uint32(c), 2)
		case hidden(r), len(mixed) > 0 && mixed[0].Start <= i:
			if r <= 0xFFFF {
				writeHex(&b, `\u`, uint32(r), 4)
			} else {
				writeHex(&b, `\U`, uint32(r), 8)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// HasDeceptive reports whether Sanitize would change s in any way other than
// doubling its backslashes: s holds a control character, an escape sequence,
// invalid UTF-8, a bidi control, an invisible or zero-width character, a
// look-alike, or a line break. It is the test behind the deceptive-text rule (MG308).
func HasDeceptive(s string) bool {
	if textsafe.MixedScript(s) != nil {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || hidden(r) {
			return true
		}
		i += size
	}
	return false
}

// isPlainASCII reports whether c is shown as itself: printable ASCII other
// than the backslash.
func isPlainASCII(c byte) bool {
	return c >= 0x20 && c < 0x7f && c != '\\'
}

// writeASCIIEscape writes the escape of an ASCII byte that is not plain: the
// backslash, a C0 control or DEL.
func writeASCIIEscape(b *strings.Builder, c byte) {
	switch c {
	case '\\':
		b.WriteString(`\\`)
	case '\t':
		b.WriteString(`\t`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	default:
		writeHex(b, `\x`, uint32(c), 2)
	}
}

// writeHex writes prefix followed by v as exactly digits lower-case hex digits.
func writeHex(b *strings.Builder, prefix string, v uint32, digits int) {
	const hex = "0123456789abcdef"
	b.WriteString(prefix)
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hex[(v>>uint(shift))&0xf])
	}
}

// hidden reports whether a valid non-ASCII rune must be escaped. The
// classification is internal/textsafe's, shared with trust's deceptive-text
// rule, so what MG308 reports is exactly what Sanitize escapes.
func hidden(r rune) bool {
	return textsafe.Unsafe(r)
}
