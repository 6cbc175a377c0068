package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/gate"
)

// TestCells: a sanitised text's width is the cells a terminal gives it,
// not its bytes or runes: two for a CJK, Hangul or emoji character, none
// for a combining mark or a Hangul vowel or final jamo; a zero-width
// character is shown escaped, so its escape's cells count.
func TestCells(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"db", 2},
		{"日本語", 6},
		{"サーバー", 8},
		{"한국어", 6},
		{"\u1100\u1161\u11a8", 2},  // 각 from conjoining jamo
		{"cafe\u0301", 4},          // é as e and a combining acute
		{"e\u0301\u0308\u0323", 1}, // several marks on one letter
		{"\u0915\u093f", 2},        // Devanagari ki: a spacing mark takes its cell
		{"🚀", 2},
		{"🇯🇵", 2}, // a flag: two regional indicators
		{"👍🏽", 4}, // a skin tone, as wcwidth counts it
		{"ｱ", 1},  // halfwidth katakana
		{"café…─", 6},
		{Sanitize("zero\u200bwidth"), len(`zero\u200bwidth`)},
		{Sanitize("heart\u2764\ufe0f"), len("heart") + 1 + len(`\ufe0f`)},
	} {
		if got := cells(tt.in); got != tt.want {
			t.Errorf("cells(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestCutCells: a name wider than its column is cut to it in cells,
// between clusters: never between a letter and its accent, inside a
// flag or a jamo syllable, nor through a wide character (then it is a
// cell narrower, and cell pads it).
func TestCutCells(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
		cut  bool
	}{
		{"db", 5, "db", false},
		{"日本語のサーバー", 16, "日本語のサーバー", false},
		{"日本語のサーバー", 7, "日本語…", true},
		{"日本語のサーバー", 8, "日本語…", true}, // 7 cells: の does not fit in the last one
		{"e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301…", true},
		{"ae\u0301\u0323b", 2, "a…", true},
		{"🇯🇵🇯🇵🇯🇵", 4, "🇯🇵…", true},
		{"🇯🇵🇯🇵🇯🇵", 5, "🇯🇵🇯🇵…", true},
		{"\u1100\u1161\u11a8\u1100\u1161\u11a8", 3, "\u1100\u1161\u11a8…", true},
		{"🚀🚀🚀", 4, "🚀…", true},
		{"abc", 1, "…", true},
	} {
		got, cut := cutCells(tt.in, tt.n)
		if got != tt.want || cut != tt.cut {
			t.Errorf("cutCells(%q, %d) = %q, %v; want %q, %v", tt.in, tt.n, got, cut, tt.want, tt.cut)
		}
		if cells(got) > tt.n {
			t.Errorf("cutCells(%q, %d) = %q: %d cells", tt.in, tt.n, got, cells(got))
		}
	}
}

// TestShortenCells: a long value keeps whole clusters at both ends and
// stays within its width in cells.
func TestShortenCells(t *testing.T) {
	for _, in := range []string{
		strings.Repeat("日本", 40),
		strings.Repeat("e\u0301", 100),
		strings.Repeat("🇯🇵", 50),
		"npx -y サーバー@1.0.0 " + strings.Repeat("ä", 80) + " --root /srv/データ",
	} {
		got := shorten(in, maxValueWidth)
		head, tail, ok := strings.Cut(got, " …[")
		if !ok {
			t.Fatalf("shorten(%q) = %q: not cut", in, got)
		}
		_, tail, _ = strings.Cut(tail, "]… ")
		if !strings.HasPrefix(in, head) || !strings.HasSuffix(in, tail) || !utf8.ValidString(got) {
			t.Errorf("shorten(%q) = %q: not the input's head and tail", in, got)
		}
		if r, _ := utf8.DecodeRuneInString(in[len(head):]); extends(r) {
			t.Errorf("shorten(%q) = %q: the head ends inside a cluster", in, got)
		}
		if r, _ := utf8.DecodeRuneInString(tail); extends(r) {
			t.Errorf("shorten(%q) = %q: the tail starts inside a cluster", in, got)
		}
		if c := cells(got); c > maxValueWidth+2 {
			t.Errorf("shorten(%q) = %q: %d cells", in, got, c)
		}
	}
}

// TestNameColumnDisplayWidth: check's list lines its columns up by
// display width whatever script a repository names its entries in (CJK,
// emoji, combining marks, zero-width characters shown escaped), and a
// name past the column's cap is cut there, at a cluster.
func TestNameColumnDisplayWidth(t *testing.T) {
	names := []string{
		"db",
		"日本語のサーバー",
		"🚀rocket",
		"cafe\u0301-re\u0301sume\u0301",
		"zero\u200bwidth",
		"한국어-서버",
		strings.Repeat("サーバー", 10),    // 80 cells: cut
		strings.Repeat("e\u0301", 60), // 60 cells: cut between clusters
		"\U0001F1EF\U0001F1F5-flag",
	}
	entries := waitingEntries(t, serversNamed(names, "/bin/echo"))
	var b bytes.Buffer
	mustWrite(t, WriteClientBlocking(&b, &gate.ClientView{Title: "agentty"}, entries, Style{}))
	col, rows := -1, 0
	for _, line := range strings.Split(b.String(), "\n") {
		at := strings.Index(line, "  /bin/echo")
		if !strings.HasPrefix(line, "  ! ") || at < 0 {
			continue
		}
		rows++
		if w := cells(line[:at]); col < 0 {
			col = w
		} else if w != col {
			t.Errorf("the command starts at cell %d, not %d:\n%s", w, col, b.String())
		}
		name := strings.TrimRight(line[len("  ! "):at], " ")
		if cells(name) > nameColumnCap {
			t.Errorf("%q is %d cells, past the cap", name, cells(name))
		}
	}
	if rows != len(names) || col != len("  ! ")+nameColumnCap {
		t.Errorf("%d rows, the command at cell %d; want %d rows, at %d:\n%s", rows, col, len(names), len("  ! ")+nameColumnCap, b.String())
	}
	for _, want := range []string{"サーバーサーバー", "e\u0301e\u0301…", `zero\u200bwidth`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the list lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "e…") || strings.Contains(b.String(), "\u200b") {
		t.Errorf("a cut inside a cluster, or a zero-width character shown raw:\n%s", b.String())
	}
}

// TestWrapCountsCells: a line of wide characters wraps where it passes
// the terminal's width in cells, not in runes.
func TestWrapCountsCells(t *testing.T) {
	line := "  runs     サーバー 日本語 データ 東京都 大阪府 --root\n"
	got := NewStyle(false).WithWidth(30).WrapHang(line, 11)
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if cells(l) > 30 {
			t.Errorf("a line of %d cells on a terminal of 30:\n%s", cells(l), got)
		}
	}
	if want := "  runs     サーバー 日本語\n           データ 東京都\n           大阪府 --root\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
