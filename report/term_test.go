package report

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/term"
)

func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// openTerminal returns a real terminal (the master side of a new
// pseudo-terminal) or skips the test where there is none.
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	if !term.IsTerminal(int(f.Fd())) {
		t.Skip("/dev/ptmx is not a terminal here")
	}
	return f
}

func TestColorEnabledNonTerminals(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var nilFile *os.File

	writers := map[string]io.Writer{
		"buffer":   &bytes.Buffer{},
		"pipe":     w,
		"file":     file,
		"nil file": nilFile,
		"discard":  io.Discard,
	}
	for name, out := range writers {
		t.Run(name, func(t *testing.T) {
			if ColorEnabled(out, envOf(nil)) {
				t.Error("colour on without a terminal")
			}
			if ColorEnabled(out, envOf(map[string]string{"TERM": "xterm-256color", "CLICOLOR": "1"})) {
				t.Error("TERM and CLICOLOR=1 must not force colour without a terminal")
			}
			if !ColorEnabled(out, envOf(map[string]string{"CLICOLOR_FORCE": "1"})) {
				t.Error("CLICOLOR_FORCE=1 did not force colour")
			}
			if !ColorEnabled(out, envOf(map[string]string{ColorEnv: "always"})) {
				t.Error(ColorEnv + "=always did not force colour")
			}
		})
	}
}

func TestColorEnabledRules(t *testing.T) {
	tty := openTerminal(t)
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{"terminal", map[string]string{"TERM": "xterm"}, true},
		{"terminal without TERM", nil, true},
		{"NO_COLOR", map[string]string{"NO_COLOR": "1"}, false},
		{"NO_COLOR any value", map[string]string{"NO_COLOR": "0"}, false},
		{"NO_COLOR empty is unset", map[string]string{"NO_COLOR": ""}, true},
		{"TERM dumb", map[string]string{"TERM": "dumb"}, false},
		{"CLICOLOR 0", map[string]string{"CLICOLOR": "0"}, false},
		{"NO_COLOR beats CLICOLOR_FORCE", map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false},
		{"CLICOLOR_FORCE beats TERM dumb", map[string]string{"TERM": "dumb", "CLICOLOR_FORCE": "1"}, true},
		{"CLICOLOR_FORCE 0 is not forcing", map[string]string{"TERM": "dumb", "CLICOLOR_FORCE": "0"}, false},
		{"override never beats terminal", map[string]string{ColorEnv: "never"}, false},
		{"override never beats CLICOLOR_FORCE", map[string]string{ColorEnv: "never", "CLICOLOR_FORCE": "1"}, false},
		{"override always beats NO_COLOR", map[string]string{ColorEnv: "always", "NO_COLOR": "1"}, true},
		{"override is case-insensitive", map[string]string{ColorEnv: "NEVER"}, false},
		{"override auto defers", map[string]string{ColorEnv: "auto", "NO_COLOR": "1"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ColorEnabled(tty, envOf(tc.env)); got != tc.want {
				t.Errorf("ColorEnabled(tty, %v) = %v, want %v", tc.env, got, tc.want)
			}
		})
	}
}

func TestStyle(t *testing.T) {
	plain := Style{}
	color := NewStyle(true)
	roles := []struct {
		name  string
		plain func(string) string
		color func(string) string
		want  string
	}{
		{"ok", plain.OK, color.OK, "\x1b[32m✓ date\x1b[0m"},
		{"pending", plain.Pending, color.Pending, "\x1b[33m✓ date\x1b[0m"},
		{"warning", plain.Warning, color.Warning, "\x1b[1;33m✓ date\x1b[0m"},
		{"danger", plain.Danger, color.Danger, "\x1b[1;31m✓ date\x1b[0m"},
		{"dim", plain.Dim, color.Dim, "\x1b[2m✓ date\x1b[0m"},
		{"bold", plain.Bold, color.Bold, "\x1b[1m✓ date\x1b[0m"},
	}
	for _, r := range roles {
		t.Run(r.name, func(t *testing.T) {
			if got := r.plain("✓ date"); got != "✓ date" {
				t.Errorf("plain %s = %q", r.name, got)
			}
			if got := r.color("✓ date"); got != r.want {
				t.Errorf("colour %s = %q, want %q", r.name, got, r.want)
			}
			if got := r.color(""); got != "" {
				t.Errorf("colour %s of empty text = %q, want empty", r.name, got)
			}
		})
	}
	if plain.Color() || !color.Color() || NewStyle(false).Color() {
		t.Error("Color() does not report the setting")
	}
}

// TestWrap: long lines break at spaces with a hanging indent, never inside
// a word, and colour takes no columns (issue 14: finding lines wrapped
// mid-word by the terminal).
func TestWrap(t *testing.T) {
	tests := []struct {
		width    int
		color    bool
		in, want string
	}{
		{0, false, "medium MG404 a b c d e f g h\n", "medium MG404 a b c d e f g h\n"},
		{20, false, "short line\n", "short line\n"},
		{20, false, "medium MG404 .agentty/mcp.json:1: server web connects\n",
			"medium MG404\n    .agentty/mcp.json:1:\n    server web\n    connects\n"},
		{16, false, "  high MG301 agentty cannot parse",
			"  high MG301\n      agentty\n      cannot\n      parse"},
		{10, false, "a verylongwordthatdoesnotfit b", "a\n    verylongwordthatdoesnotfit\n    b"},
	}
	for _, tt := range tests {
		got := NewStyle(tt.color).WithWidth(tt.width).Wrap(tt.in)
		if got != tt.want {
			t.Errorf("Wrap(%q, %d) =\n%q, want\n%q", tt.in, tt.width, got, tt.want)
		}
	}
	// Colour sequences do not count: the same break as without colour.
	st := NewStyle(true).WithWidth(20)
	line := st.Danger("high") + " MG301 agentty cannot parse this file"
	got := st.Wrap(line)
	if want := st.Danger("high") + " MG301 agentty\n    cannot parse\n    this file"; got != want {
		t.Errorf("coloured: %q, want %q", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if visibleLen(l) > 20 {
			t.Errorf("line %q is wider than 20", l)
		}
	}
}
