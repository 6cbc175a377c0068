package fidelity

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// These tests read docs/fidelity.md and no real CLI: they run wherever
// the package does, so a page -update would damage fails before anyone
// runs -update.

// TestDocUpdateKeepsEverything: -update rewrites only what a test renders
// (Claude Code's part, each client's section) and keeps every other byte of
// the page, such as Cline's and Continue's part, written by hand.
func TestDocUpdateKeepsEverything(t *testing.T) {
	page, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	section := func(id, body string) string {
		return docOpen + id + " -->\n" + body + "<!-- /fidelity:" + id + " -->\n"
	}
	for _, tt := range []struct{ name, doc string }{
		{"docs/fidelity.md", string(page)},
		{"no section", "# Claude\n\nrows\n"},
		{"text between and after sections", "# C\n" + section("a", "A\n") + "\nhand\n" + section("b", "B\n") + "\n## Hand\n\ntail\n"},
		{"an unclosed section", "# C\n" + section("a", "A\n") + docOpen + "b -->\nB\n\n## Hand\n"},
		{"a close marker of another id", "# C\n" + docOpen + "a -->\nA\n<!-- /fidelity:b -->\n" + section("c", "C\n")},
		{"no newline at the end", "# C\n" + section("a", "A\n") + "\nlast"},
		{"an empty id", "# C\n" + docOpen + " -->\n<!-- /fidelity: -->\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			claudePart, blocks := splitDoc(tt.doc)
			if got := joinDoc(claudePart, blocks); got != tt.doc {
				t.Fatalf("split and joined again, the page changes:\n%s", firstDiff(tt.doc, got))
			}
			// What -update does: every rendered part rewritten, a new
			// client's section added. The rest stays, in order.
			var kept []string
			for i, b := range blocks {
				if b.id == "" {
					kept = append(kept, b.body)
				} else {
					blocks[i].body = "rendered " + b.id + "\n"
				}
			}
			updated := joinDoc("# rendered\n", setSection(blocks, "new", "rendered new\n"))
			rest := updated
			for _, k := range kept {
				i := strings.Index(rest, k)
				if i < 0 {
					t.Fatalf("-update drops text no test renders: %q\nfrom:\n%s", k, updated)
				}
				rest = rest[i+len(k):]
			}
			if !strings.Contains(updated, section("new", "rendered new\n")) {
				t.Errorf("a new section is missing:\n%s", updated)
			}
		})
	}
	// A new client's section goes after the last section, not after the
	// hand-written text that follows them.
	_, blocks := splitDoc("# C\n" + section("a", "A\n") + "\n## Hand\n")
	if got := joinDoc("# C\n", setSection(blocks, "b", "B\n")); got != "# C\n"+section("a", "A\n")+section("b", "B\n")+"\n## Hand\n" {
		t.Errorf("new section placed:\n%s", got)
	}
}

// TestDocRowsAreScenarios: each rendered table of docs/fidelity.md lists
// exactly its test's scenarios, in order, and every client testAgent holds
// has its section. A row written by hand for no scenario would be dropped
// by the next -update; a scenario with no row fails its real-CLI test.
func TestDocRowsAreScenarios(t *testing.T) {
	page, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	claudePart, blocks := splitDoc(string(page))
	var claude []string
	for _, sc := range claudeScenarios() {
		claude = append(claude, sc.name)
	}
	checkRows(t, "Claude Code's part", claudePart, claude)
	suites := agentSuites()
	for _, b := range blocks {
		if b.id == "" {
			continue
		}
		i := slices.IndexFunc(suites, func(s agentSuite) bool { return s.a.id == b.id })
		if i < 0 {
			t.Errorf("%s has a section %q no test renders; -update would keep it stale", docPath, b.id)
			continue
		}
		var names []string
		for _, sc := range suites[i].all {
			names = append(names, sc.name)
		}
		checkRows(t, b.id+"'s section", b.body, names)
	}
	for _, s := range suites {
		if !slices.ContainsFunc(blocks, func(b docBlock) bool { return b.id == s.a.id }) {
			t.Errorf("%s has no %s section (go test ./fidelity -run Test%s -update adds it)", docPath, s.a.id,
				strings.ReplaceAll(s.a.title, " ", ""))
		}
	}
}

// checkRows holds the first column of text's scenario table against names.
func checkRows(t *testing.T, what, text string, names []string) {
	t.Helper()
	var rows []string
	inTable := false
	for line := range strings.Lines(text) {
		switch {
		case strings.HasPrefix(line, "| Scenario |"):
			inTable = true
		case inTable && strings.HasPrefix(line, "|---"):
		case inTable && strings.HasPrefix(line, "| "):
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
			rows = append(rows, name)
		default:
			inTable = false
		}
	}
	for _, r := range rows {
		if !slices.Contains(names, r) {
			t.Errorf("%s: %s has a row %q that is no scenario of its test: -update would drop it", docPath, what, r)
		}
	}
	for _, n := range names {
		if !slices.Contains(rows, n) {
			t.Errorf("%s: %s has no row for the scenario %q (-update adds it)", docPath, what, n)
		}
	}
	if !t.Failed() && !slices.Equal(rows, names) {
		t.Errorf("%s: %s lists its scenarios in another order than its test (-update reorders them):\nrows:      %v\nscenarios: %v",
			docPath, what, rows, names)
	}
}

// firstDiff shows where got first departs from want.
func firstDiff(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d:\nwant …%q\ngot  …%q", i, want[from:min(len(want), i+80)], got[from:min(len(got), i+80)])
}
