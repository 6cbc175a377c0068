package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
)

// TestManPageIsValidRoff holds the hand-written man page renderer against
// groff: it must parse the page without a single warning (-ww), and every
// command must have its section.
func TestManPageIsValidRoff(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"mcp-guard", "man"}, strings.NewReader(""), &out, &errb, nil); code != 0 {
		t.Fatalf("man: exit %d: %s", code, errb.String())
	}
	page := out.String()
	for _, want := range []string{".TH mcp-guard 1\n", ".SH NAME\n", ".SH SYNOPSIS\n", ".SS scan\n", ".SS hooks install\n", `\fB\-\-format FORMAT\fR`,
		".SH ENVIRONMENT\n", ".SH FILES\n", ".SH EXIT STATUS\n", ".SH EXAMPLES\n",
		`\fBMCP_GUARD_HOME=DIR\fR`, `\fBMCP_GUARD=0\fR`, `\fBMCP_GUARD_HOOK_TIMEOUT=DURATION\fR`, `\fBMCP_GUARD_SNAPSHOT=0\fR`,
		`\fBMCP_GUARD_COLOR=always|never\fR`, `\fBNO_COLOR\fR`, "/reviews.json\\fR", "with 1 when it refused",
		"start the commands"} {
		if !strings.Contains(page, want) {
			t.Errorf("the man page has no %q", want)
		}
	}
	// Every agent by name, none singled out.
	for _, c := range client.All() {
		if !strings.Contains(page, c.Title()) {
			t.Errorf("the man page does not name %s", c.Title())
		}
	}
	// A boolean option has no default worth saying.
	if strings.Contains(page, "(default: false)") || strings.Contains(page, "(default: true)") {
		t.Errorf("the man page says a boolean's default")
	}
	for i, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "'") || (strings.HasPrefix(line, ".") && !strings.HasPrefix(line, ".TH") && !strings.HasPrefix(line, ".S") &&
			!strings.HasPrefix(line, ".PP") && !strings.HasPrefix(line, ".TP") && !strings.HasPrefix(line, ".nf") &&
			!strings.HasPrefix(line, ".fi") && !strings.HasPrefix(line, ".nh") && !strings.HasPrefix(line, ".ad")) {
			t.Errorf("line %d is a roff request the renderer never writes (unescaped text?): %q", i+1, line)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("no groff to check the page with")
	}
	cmd := exec.Command(groff, "-man", "-Kutf8", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	msg, err := cmd.CombinedOutput()
	if err != nil || len(msg) > 0 {
		t.Errorf("groff: %v\n%s", err, msg)
	}
}

// TestRoffTextEscapes: text from help strings never becomes a roff
// request or escape.
func TestRoffTextEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`a\b`:       `a\eb`,
		"--x":       `\-\-x`,
		"`cmd` and": `\fBcmd\fR and`,
		"`open":     `\fBopen\fR`,
	} {
		if got := roffText(in); got != want {
			t.Errorf("roffText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{".SH x": `\&.SH x`, "'x": `\&'x`, "": `\&`, " x": `\& x`} {
		if got := roffLine(in); got != want {
			t.Errorf("roffLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestManKeepsColumns: shell-init's and completion's one line per shell
// stay one line each in the man page (no-fill), never run together into
// one paragraph as `man` fills text.
func TestManKeepsColumns(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"mcp-guard", "man"}, strings.NewReader(""), &out, &errb, nil); code != 0 {
		t.Fatalf("man: exit %d: %s", code, errb.String())
	}
	page := out.String()
	for _, want := range []string{
		".nf\nbash, zsh:  eval \"$(mcp\\-guard shell\\-init bash)\"",
		"\nfish:       mcp\\-guard shell\\-init fish | source",
		".nf\nbash:  source <(mcp\\-guard completion bash)",
	} {
		i := strings.Index(page, want)
		if i < 0 {
			t.Errorf("the man page does not keep %q on its own line, unfilled", want)
			continue
		}
		if end := strings.Index(page[i:], ".fi\n"); end < 0 || strings.Contains(page[i:i+end], ".PP") {
			t.Errorf("%q is not inside one .nf/.fi block", want)
		}
	}
}
