package report

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/internal/textsafe"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      string
		deceptive bool
	}{
		{"empty", "", "", false},
		{"plain", "npx -y @scope/server /tmp", "npx -y @scope/server /tmp", false},
		{"all printable ascii but backslash", " !\"#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~", " !\"#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~", false},
		{"backslash doubled", `C:\srv\x41`, `C:\\srv\\x41`, false},
		{"latin and cjk kept", "café 日本 ü Ωμέγα", "café 日本 ü Ωμέγα", false},
		{"emoji kept", "rocket 🚀", "rocket 🚀", false},
		{"replacement char escaped", "\ufffd", `\ufffd`, true},
		{"combining accent kept", "e\u0301", "e\u0301", false},
		{"NUL", "a\x00b", `a\x00b`, true},
		{"tab", "a\tb", `a\tb`, true},
		{"newline", "line1\nline2", `line1\nline2`, true},
		{"carriage return", "ok\rEVIL", `ok\rEVIL`, true},
		{"backspace", "safe\x08\x08\x08evil", `safe\x08\x08\x08evil`, true},
		{"bell", "\a", `\x07`, true},
		{"form feed and vertical tab", "\f\v", `\x0c\x0b`, true},
		{"CSI clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`, true},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil\x07click\x1b]8;;\x07", `\x1b]8;;https://evil\x07click\x1b]8;;\x07`, true},
		{"OSC title with ST", "\x1b]0;pwned\x1b\\", `\x1b]0;pwned\x1b\\`, true},
		{"DEL", "a\x7fb", `a\x7fb`, true},
		{"C1 CSI rune", "\u009b31m", `\u009b31m`, true},
		{"C1 NEL", "a\u0085b", `a\u0085b`, true},
		{"C1 range ends", "\u0080\u009f", `\u0080\u009f`, true},
		{"no-break space after C1", "\u00a0", `\u00a0`, true},
		{"invalid byte", "a\xffb", `a\xffb`, true},
		{"raw C1 byte is invalid UTF-8", "\x9b31m", `\x9b31m`, true},
		{"truncated sequence", "\xe6\x97", `\xe6\x97`, true},
		{"overlong slash", "\xc0\xaf", `\xc0\xaf`, true},
		{"encoded surrogate", "\xed\xa0\x80", `\xed\xa0\x80`, true},
		{"RLO", "abc\u202edcba", `abc\u202edcba`, true},
		{"LRE PDF", "\u202a\u202c", `\u202a\u202c`, true},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", `\u2066\u2067\u2068\u2069`, true},
		{"bidi marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`, true},
		{"zero width", "a\u200bb\u200cc\u200dd", `a\u200bb\u200cc\u200dd`, true},
		{"word joiner and invisible operators", "\u2060\u2061\u2062\u2063\u2064", `\u2060\u2061\u2062\u2063\u2064`, true},
		{"BOM", "\ufeffname", `\ufeffname`, true},
		{"mongolian vowel separator", "\u180e", `\u180e`, true},
		{"soft hyphen", "ad\u00admin", `ad\u00admin`, true},
		{"combining grapheme joiner", "a\u034fb", `a\u034fb`, true},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, true},
		{"variation selector", "\u2764\ufe0f", `❤\ufe0f`, true},
		{"variation selector supplement", "x\U000e0100", `x\U000e0100`, true},
		{"tag characters", "ok\U000e0041\U000e007f", `ok\U000e0041\U000e007f`, true},
		{"hangul fillers", "\u115f\u1160\u3164\uffa0", `\u115f\u1160\u3164\uffa0`, true},
		{"braille blank", "a\u2800b", `a\u2800b`, true},
		{"ideographic and en spaces", "a\u3000b\u2002c", `a\u3000b\u2002c`, true},
		{"private use", "\ue000", `\ue000`, true},
		{"unassigned", "\U0003ffff", `\U0003ffff`, true},
		{"noncharacter", "\uffff", `\uffff`, true},
		{"escape next to backslash", "\\\x1b", `\\\x1b`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Sanitize(tc.in)
			if got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if d := HasDeceptive(tc.in); d != tc.deceptive {
				t.Errorf("HasDeceptive(%q) = %v, want %v", tc.in, d, tc.deceptive)
			}
			if back, err := unsanitize(got); err != nil || back != tc.in {
				t.Errorf("unsanitize(%q) = %q, %v; want %q", got, back, err, tc.in)
			}
		})
	}
}

func TestSanitizePlainReturnsSameString(t *testing.T) {
	s := strings.Repeat("plain-ascii ", 100)
	if got := Sanitize(s); got != s {
		t.Fatalf("Sanitize changed plain text")
	}
	allocs := testing.AllocsPerRun(100, func() { _ = Sanitize(s) })
	if allocs != 0 {
		t.Errorf("Sanitize(plain) allocates %v times, want 0", allocs)
	}
}

// TestSanitizeEveryRune checks every code point against forbiddenRune, a list
// written independently of the implementation's predicate.
func TestSanitizeEveryRune(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue // not encodable in UTF-8
		}
		in := string(r)
		out := Sanitize(in)
		if forbiddenRune(r) && out == in {
			t.Errorf("U+%04X is kept as is", r)
		}
		if err := checkSafe(out); err != nil {
			t.Errorf("Sanitize(U+%04X) = %q: %v", r, out, err)
		}
		if back, err := unsanitize(out); err != nil || back != in {
			t.Errorf("U+%04X: unsanitize(%q) = %q, %v", r, out, back, err)
		}
		if HasDeceptive(in) != (out != strings.ReplaceAll(in, `\`, `\\`)) {
			t.Errorf("U+%04X: HasDeceptive disagrees with Sanitize", r)
		}
		if HasDeceptive(in) == textsafe.Clean(in) {
			t.Errorf("U+%04X: HasDeceptive disagrees with textsafe.Clean", r)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", `back\slash`, "\x1b[31mred\x1b[0m", "\x1b]8;;http://x\x07y\x1b]8;;\x07",
		"abc\u202edcba", "a\u200bb", "\xff\xfe", "\xed\xa0\x80", "日本\u3000語", "\u2764\ufe0f",
		"ok\U000e0041", "\\x1b", `\u202e`, "line\r\nnext", "\u0085\u009b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if err := checkSafe(out); err != nil {
			t.Fatalf("Sanitize(%q) = %q: %v", s, out, err)
		}
		back, err := unsanitize(out)
		if err != nil || back != s {
			t.Fatalf("not injective: Sanitize(%q) = %q decodes to %q, %v", s, out, back, err)
		}
		escapedBackslashes := strings.ReplaceAll(s, `\`, `\\`)
		if HasDeceptive(s) != (out != escapedBackslashes) {
			t.Fatalf("HasDeceptive(%q) = %v but Sanitize gives %q", s, HasDeceptive(s), out)
		}
		// The output is a fixed point up to its backslashes.
		if HasDeceptive(out) {
			t.Fatalf("HasDeceptive(Sanitize(%q)) = true", s)
		}
		// MG308 (trust.Deceptive, via textsafe.Clean) fires exactly when
		// Sanitize escapes something.
		if HasDeceptive(s) == textsafe.Clean(s) {
			t.Fatalf("HasDeceptive(%q) = %v disagrees with textsafe.Clean", s, HasDeceptive(s))
		}
		if again := Sanitize(out); again != strings.ReplaceAll(out, `\`, `\\`) {
			t.Fatalf("Sanitize(Sanitize(%q)) = %q changed more than backslashes", s, again)
		}
	})
}

// checkSafe fails on anything a terminal could interpret or hide.
func checkSafe(out string) error {
	if !utf8.ValidString(out) {
		return fmt.Errorf("invalid UTF-8")
	}
	for i, r := range out {
		if forbiddenRune(r) {
			return fmt.Errorf("forbidden rune U+%04X at byte %d", r, i)
		}
	}
	return nil
}

// forbiddenRune is the test's own list of runes that must never reach a
// terminal unescaped.
func forbiddenRune(r rune) bool {
	in := func(lo, hi rune) bool { return r >= lo && r <= hi }
	switch {
	case r < 0x20, r == 0x7f, in(0x80, 0x9f): // C0, DEL, C1
		return true
	case r == 0xa0, r == 0xad, r == 0x34f, r == 0x61c, r == 0x180e, r == 0x3000, r == 0xfeff, r == 0x2800:
		return true
	case in(0x200b, 0x200f), in(0x2028, 0x202f), in(0x2060, 0x2069), r == 0x205f, in(0x2000, 0x200a):
		return true
	case in(0xfe00, 0xfe0f), in(0xe0100, 0xe01ef), in(0xe0000, 0xe007f), in(0xfff9, 0xfffb):
		return true
	case r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, in(0x180b, 0x180f):
		return true
	case in(0xe000, 0xf8ff), in(0xf0000, 0x10ffff): // private use
		return true
	}
	return false
}

// unsanitize decodes Sanitize's escapes; it exists to prove Sanitize is
// injective.
func unsanitize(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("lone backslash at end")
		}
		if c, ok := map[byte]byte{'\\': '\\', 't': '\t', 'n': '\n', 'r': '\r'}[s[i+1]]; ok {
			b.WriteByte(c)
			i += 2
			continue
		}
		switch s[i+1] {
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i+1]]
			if i+2+n > len(s) {
				return "", fmt.Errorf("short escape at %d", i)
			}
			v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
			if err != nil {
				return "", err
			}
			if s[i+1] == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i += 2 + n
		default:
			return "", fmt.Errorf("unknown escape %q at %d", s[i:i+2], i)
		}
	}
	return b.String(), nil
}

func BenchmarkSanitize(b *testing.B) {
	plain := "npx -y @modelcontextprotocol/server-filesystem /home/user/project"
	hostile := "abc\u202edcba\x1b[2J\u200b日本\xff"
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			_ = Sanitize(plain)
		}
	})
	b.Run("hostile", func(b *testing.B) {
		for b.Loop() {
			_ = Sanitize(hostile)
		}
	})
}
