package nearname

import "testing"

func TestOf(t *testing.T) {
	cmds := []string{"install", "uninstall", "status"}
	for _, tc := range []struct{ name, want string }{
		{"instal", "install"},
		{"unistall", "uninstall"},
		{"uninstal", "uninstall"},
		{"stat", "status"},
		{"stauts", "status"},
		{"sttaus", "status"},
		{"in", "install"},
		{"foo", ""},
		{"x", ""},
		{"", ""},
		{"status", ""}, // itself: not a typo
	} {
		if got := Of(tc.name, cmds); got != tc.want {
			t.Errorf("Of(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Of("u", []string{"uninstall", "update"}); got != "" {
		t.Errorf("an ambiguous prefix suggested %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"status", "status", 0},
		{"stauts", "status", 1}, {"instal", "install", 1}, {"kitten", "sitting", 3},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
