package textsafe

import (
	"slices"
	"testing"
)

func TestMixedScript(t *testing.T) {
	tests := []struct {
		in   string
		want []Span
	}{
		{"github", nil},
		{"g\u0456thub", []Span{{0, 7}}},                     // Cyrillic і
		{"/usr/bin/n\u043ede", []Span{{9, 14}}},             // Cyrillic о in the last word only
		{"\u03a1YTHON", []Span{{0, 7}}},                     // Greek Ρ
		{"npx -y \u0455erver", []Span{{7, 14}}},             // Cyrillic ѕ
		{"ok \u0441\u0435\u0440\u0432\u0435\u0440 ok", nil}, // a Cyrillic word between Latin ones
		{"\u0441\u0435\u0440\u0432\u0435\u0440-1", nil},     // digits and punctuation are no script
		{"v2\u0441", []Span{{0, 4}}},                        // Latin v, digit, Cyrillic
		{"\u03b1\u0431", []Span{{0, 4}}},                    // Greek and Cyrillic
		{"caf\u00e9", nil},                                  // Latin only, accented
		{"e\u0301t\u00e9", nil},                             // combining marks are no script
		{"日本語のサーバー", nil},                                   // Han, Hiragana, Katakana
		{"server日本", nil},                                   // Latin with Han: allowed
		{"한국어abc", nil},                                     // Hangul with Latin: allowed
		{"日本\u0430", []Span{{0, 8}}},                        // Han with Cyrillic
		{"عربي", nil},                                       // Arabic alone
		{"abcعربي", []Span{{0, 11}}},                        // Arabic and Latin in one word
		{"git\u200b\u0445\u0430\u0431", []Span{{0, 12}}},    // an invisible joiner cannot split a word
		{"\u0445\u0430\u0431\u200b", []Span{{0, 9}}},        // an escaped rune counts as Latin
		{"\xff\u0441", []Span{{0, 3}}},                      // so does an invalid byte
		{"a \u0431 c", nil},                                 // separate words
		{"x_\u0431", nil},                                   // underscore separates
	}
	for _, tt := range tests {
		if got := MixedScript(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("MixedScript(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if Clean(tt.in) && tt.want != nil {
			t.Errorf("Clean(%q) = true for a mixed-script word", tt.in)
		}
	}
}

func TestLookAlike(t *testing.T) {
	for _, r := range []rune{'ｎ', 'Ａ', '０', '！', '～', 0x1d427, 0x1d7ff} {
		if !LookAlike(r) || !Unsafe(r) || Clean(string(r)) {
			t.Errorf("%U is not treated as a look-alike", r)
		}
	}
	for _, r := range []rune{'n', 'é', 'ж', '日', 0xff5f, 0xff00, 0x1d3ff, 0x1d800} {
		if LookAlike(r) {
			t.Errorf("%U is a look-alike", r)
		}
	}
}

func BenchmarkMixedScript(b *testing.B) {
	for _, s := range []string{
		"npx -y @modelcontextprotocol/server-filesystem /tmp",
		"café 日本 ü Ωμέγα сервер",
	} {
		b.Run("", func(b *testing.B) {
			for b.Loop() {
				MixedScript(s)
			}
		})
	}
}
