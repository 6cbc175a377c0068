package textsafe

import "testing"

// TestShellWord: a word is left bare only when no shell gives any of it
// a meaning; otherwise it is one single-quoted word.
func TestShellWord(t *testing.T) {
	for w, want := range map[string]string{
		"":                        "''",
		"db":                      "db",
		"claude-code:db@a/b.json": "claude-code:db@a/b.json",
		"a;id":                    "'a;id'",
		"b$(id)":                  "'b$(id)'",
		"it's":                    `'it'\''s'`,
		"hooks.X[0]":              "'hooks.X[0]'",
		"=ls":                     "'=ls'", // zsh: =ls is ls's path
		"a=b":                     "a=b",
	} {
		if got := ShellWord(w); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", w, got, want)
		}
	}
}
