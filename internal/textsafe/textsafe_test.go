package textsafe

import (
	"testing"
	"unicode/utf8"
)

func TestUnsafeStrings(t *testing.T) {
	unsafe := []struct {
		name string
		s    string
	}{
		{"ESC", "\x1b"},
		{"CSI sequence", "\x1b[2J"},
		{"OSC 8 link", "\x1b]8;;http://evil\x07x\x1b]8;;\x07"},
		{"BEL", "\x07"},
		{"NUL", "\x00"},
		{"tab", "\t"},
		{"newline", "\n"},
		{"CR", "\r"},
		{"backspace", "\b"},
		{"DEL", "\x7f"},
		{"CSI as U+009B", "\u009b"},
		{"NEL U+0085", "\u0085"},
		{"CSI as a raw byte", "\x9b"},
		{"RLO U+202E", "\u202e"},
		{"LRE U+202A", "\u202a"},
		{"PDF U+202C", "\u202c"},
		{"LRI U+2066", "\u2066"},
		{"RLI U+2067", "\u2067"},
		{"FSI U+2068", "\u2068"},
		{"PDI U+2069", "\u2069"},
		{"LRM U+200E", "\u200e"},
		{"RLM U+200F", "\u200f"},
		{"ALM U+061C", "\u061c"},
		{"ZWSP U+200B", "\u200b"},
		{"ZWNJ U+200C", "\u200c"},
		{"ZWJ U+200D", "\u200d"},
		{"word joiner U+2060", "\u2060"},
		{"BOM U+FEFF", "\ufeff"},
		{"line separator U+2028", "\u2028"},
		{"paragraph separator U+2029", "\u2029"},
		{"soft hyphen U+00AD", "\u00ad"},
		{"NBSP U+00A0", "\u00a0"},
		{"ideographic space U+3000", "\u3000"},
		{"Hangul filler U+3164", "\u3164"},
		{"blank Braille U+2800", "\u2800"},
		{"variation selector 16", "\ufe0f"},
		{"tag A U+E0041", "\U000E0041"},
		{"cancel tag U+E007F", "\U000E007F"},
		{"tag smuggling", "ok\U000E0069\U000E0067\U000E006E"},
		{"private use U+E000", "\ue000"},
		{"unassigned U+0378", "\u0378"},
		{"interlinear annotation U+FFF9", "\ufff9"},
		{"invalid 0xff", "\xff"},
		{"invalid lone continuation", "\x80"},
		{"invalid truncated", "caf\xc3"},
		{"invalid overlong slash", "\xc0\xaf"},
		{"invalid encoded surrogate", "\xed\xa0\x80"},
		{"invalid above U+10FFFF", "\xf4\x90\x80\x80"},
	}
	for _, tt := range unsafe {
		for _, s := range []string{tt.s, "npx " + tt.s + " srv", "日本" + tt.s} {
			if Clean(s) {
				t.Errorf("%s: Clean(%q) = true, want false", tt.name, s)
			}
		}
		if utf8.ValidString(tt.s) {
			found := false
			for _, r := range tt.s {
				found = found || Unsafe(r)
			}
			if !found {
				t.Errorf("%s: no rune of %q is Unsafe", tt.name, tt.s)
			}
		}
	}
}

func TestSafeStrings(t *testing.T) {
	safe := []string{
		"",
		"npx -y @modelcontextprotocol/server-filesystem /tmp",
		"--flag=value ~/x ${VAR:-default} a|b&c;d'e\"f\\g",
		"é", "café", "日本", "日本語のサーバー", "한국어", "Ωμέγα", "кириллица",
		"עברית", "العربية", // right-to-left letters are not controls
		"e\u0301", // a combining accent is visible
		"😀", "🎉 party", "🇫🇷",
		" ", "~",
	}
	for _, s := range safe {
		if !Clean(s) {
			t.Errorf("Clean(%q) = false, want true", s)
		}
		for _, r := range s {
			if Unsafe(r) {
				t.Errorf("Unsafe(%U) in %q", r, s)
			}
		}
	}
}

// Emoji sequences that use a zero-width joiner or a variation selector
// are reported: both characters can also hide text, and mcp-guard prefers
// a visible escape to a silent pass.
func TestEmojiSequencesAreConservative(t *testing.T) {
	for _, s := range []string{"👨\u200d👩\u200d👧", "❤\ufe0f"} {
		if Clean(s) {
			t.Errorf("Clean(%q) = true; ZWJ and VS16 are treated as unsafe", s)
		}
	}
}

func TestUnsafeRanges(t *testing.T) {
	for r := rune(0); r < 0x20; r++ {
		if !Unsafe(r) {
			t.Errorf("C0 control %U is safe", r)
		}
	}
	for r := rune(0x80); r <= 0x9f; r++ {
		if !Unsafe(r) {
			t.Errorf("C1 control %U is safe", r)
		}
	}
	for r := rune(0x21); r < 0x7f; r++ {
		if Unsafe(r) {
			t.Errorf("printable ASCII %q is unsafe", r)
		}
	}
	for r := rune(0xE0000); r <= 0xE007F; r++ {
		if !Unsafe(r) {
			t.Errorf("tag character %U is safe", r)
		}
	}
	for _, r := range []rune{0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0xFEFF} {
		if !Unsafe(r) {
			t.Errorf("%U is safe", r)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b[31m", "é", "\xff", "\u202e", "\U000E0041"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clean := Clean(s)
		if clean && !utf8.ValidString(s) {
			t.Fatalf("Clean(%q) accepts invalid UTF-8", s)
		}
		want := utf8.ValidString(s)
		for _, r := range s {
			if Unsafe(r) {
				want = false
			}
		}
		if MixedScript(s) != nil {
			want = false
		}
		if clean != want {
			t.Fatalf("Clean(%q) = %v, but rune by rune and word by word: %v", s, clean, want)
		}
	})
}
