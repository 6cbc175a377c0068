package report

import (
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// ColorEnv names the environment variable that overrides the colour decision:
// "always" (or 1, yes, true, on) forces colour, "never" (or 0, no, false, off)
// turns it off, anything else leaves the decision to [ColorEnabled].
const ColorEnv = "MCP_GUARD_COLOR"

// ColorEnabled reports whether output written to w should be coloured.
// getenv looks up environment variables (os.Getenv in production).
//
// In order, the first rule that applies decides:
//
//  1. MCP_GUARD_COLOR=always|never (see [ColorEnv]) forces it on or off;
//  2. NO_COLOR set to any non-empty value turns it off (https://no-color.org);
//  3. CLICOLOR_FORCE set to anything but "" or "0" turns it on;
//  4. TERM=dumb or CLICOLOR=0 turns it off;
//  5. otherwise colour is on only when w is an *os.File that is a terminal.
//
// A pipe, a file, a bytes.Buffer or any other writer gets plain text unless
// forced.
func ColorEnabled(w io.Writer, getenv func(string) string) bool {
	switch strings.ToLower(getenv(ColorEnv)) {
	case "always", "1", "yes", "true", "on", "force":
		return true
	case "never", "0", "no", "false", "off":
		return false
	}
	if getenv("NO_COLOR") != "" {
		return false
	}
	if f := getenv("CLICOLOR_FORCE"); f != "" && f != "0" {
		return true
	}
	if getenv("TERM") == "dumb" || getenv("CLICOLOR") == "0" {
		return false
	}
	return IsTerminal(w)
}

// Fder is a writer backed by a file descriptor: an *os.File, or a writer
// that wraps one and says which (cmd/mcp-guard's stdout, which records
// write errors).
type Fder interface{ Fd() uintptr }

// terminalFd is the descriptor of the terminal w writes to.
func terminalFd(w io.Writer) (int, bool) {
	f, ok := w.(Fder)
	if !ok || f == nil {
		return 0, false
	}
	if of, isFile := f.(*os.File); isFile && of == nil {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// IsTerminal reports whether w writes to a terminal (never a pipe, a
// file, a buffer or a CI log).
func IsTerminal(w io.Writer) bool {
	_, ok := terminalFd(w)
	return ok
}

// Style applies colours for a handful of roles. The zero Style is plain: every
// method returns its text unchanged. Style never sanitizes: pass it text that
// is already safe ([Sanitize] for anything from a repository).
type Style struct {
	color bool
	width int // the terminal's columns; 0: do not wrap
}

// TermWidth is the width of the terminal w writes to, 0 when w is not a
// terminal or its width is unknown (a pipe, a file, a buffer): output
// that is not shown on a terminal is never wrapped.
func TermWidth(w io.Writer) int {
	fd, ok := terminalFd(w)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(fd)
	if err != nil || cols <= 0 {
		return 0
	}
	return cols
}

// WithWidth returns s wrapping long lines at cols columns (0: never); use
// [TermWidth] to decide.
func (s Style) WithWidth(cols int) Style {
	s.width = max(cols, 0)
	return s
}

// Wrap breaks a line longer than the style's width at spaces, each
// continuation indented four columns past the line's own indent, so a
// long finding stays readable on a terminal. A word longer than the width
// is never cut; colour sequences take no columns; a line ending in a
// newline keeps it. With no width the line is returned as it is.
func (s Style) Wrap(line string) string {
	body := strings.TrimSuffix(line, "\n")
	indent := len(body) - len(strings.TrimLeft(body, " "))
	return s.WrapHang(line, indent+4)
}

// WrapHang is Wrap with each continuation starting at column hang: the
// column of an item's value, so that a wrapped line never starts at
// column 0 nor left of the text it continues. A hang of half the width
// or more falls back to the line's own indent.
func (s Style) WrapHang(line string, hang int) string {
	if s.width <= 0 {
		return line
	}
	body, nl := strings.CutSuffix(line, "\n")
	indent := len(body) - len(strings.TrimLeft(body, " "))
	if hang >= s.width/2 {
		hang = min(indent, s.width/2)
	}
	var b strings.Builder
	col, lastSpace, lineStart := 0, -1, 0 // lastSpace, lineStart: offsets in b
	esc := false
	for i, r := range body {
		switch {
		case esc:
			b.WriteRune(r)
			esc = r < 0x40 || r > 0x7e || r == '['
			continue
		case r == 0x1b:
			b.WriteRune(r)
			esc = true
			continue
		}
		if r == ' ' && i >= indent {
			lastSpace = b.Len()
		}
		b.WriteRune(r)
		col += runeCells(r)
		if col > s.width && lastSpace > lineStart {
			// Break at the last space: what follows it moves down.
			rest := b.String()[lastSpace+1:]
			head := b.String()[:lastSpace]
			b.Reset()
			b.WriteString(head)
			b.WriteString("\n")
			b.WriteString(strings.Repeat(" ", hang))
			lineStart = b.Len()
			b.WriteString(rest)
			col = hang + visibleLen(rest)
			lastSpace = -1
		}
	}
	if nl {
		b.WriteString("\n")
	}
	return b.String()
}

// visibleLen is the cells s takes on a terminal, outside colour
// sequences.
func visibleLen(s string) int {
	n, esc := 0, false
	for _, r := range s {
		switch {
		case esc:
			esc = r < 0x40 || r > 0x7e || r == '['
		case r == 0x1b:
			esc = true
		default:
			n += runeCells(r)
		}
	}
	return n
}

// NewStyle returns a Style that colours when color is true; use
// [ColorEnabled] to decide.
func NewStyle(color bool) Style {
	return Style{color: color}
}

// Color reports whether s adds colour.
func (s Style) Color() bool { return s.color }

// SGR parameters of each role.
const (
	sgrOK      = "32"   // green
	sgrPending = "33"   // yellow
	sgrWarning = "1;33" // bold yellow
	sgrDanger  = "1;31" // bold red
	sgrDim     = "2"
	sgrBold    = "1"
)

// OK marks something trusted or done (green).
func (s Style) OK(text string) string { return s.paint(sgrOK, text) }

// Pending marks something waiting for a decision (yellow).
func (s Style) Pending(text string) string { return s.paint(sgrPending, text) }

// Warning marks something that needs attention (bold yellow).
func (s Style) Warning(text string) string { return s.paint(sgrWarning, text) }

// Danger marks something that runs untrusted or is refused (bold red).
func (s Style) Danger(text string) string { return s.paint(sgrDanger, text) }

// Dim de-emphasises secondary detail such as hashes and paths.
func (s Style) Dim(text string) string { return s.paint(sgrDim, text) }

// Bold emphasises names and headings.
func (s Style) Bold(text string) string { return s.paint(sgrBold, text) }

func (s Style) paint(sgr, text string) string {
	if !s.color || text == "" {
		return text
	}
	return "\x1b[" + sgr + "m" + text + "\x1b[0m"
}
