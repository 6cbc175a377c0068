package policy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// execCase is one line of testdata/paired/exec/cases.txt (command lines;
// paired_test.go holds the server-entry pairs of testdata/paired/access).
type execCase struct {
	line  int
	rule  string
	fires bool
	argv  []string
}

func readExecCases(t testing.TB, path string) []execCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []execCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		parts := strings.SplitN(l, "\t", 3)
		if len(parts) != 3 || (parts[1] != "+" && parts[1] != "-") {
			t.Fatalf("%s:%d: want RULE<tab>+|-<tab>[argv]", path, n)
		}
		c := execCase{line: n, rule: parts[0], fires: parts[1] == "+"}
		if err := json.Unmarshal([]byte(parts[2]), &c.argv); err != nil || len(c.argv) == 0 {
			t.Fatalf("%s:%d: argv: %v", path, n, err)
		}
		out = append(out, c)
	}
	return out
}

// serverOf is the configuration holding one stdio server running argv.
func serverOf(argv []string) File {
	entry, _ := json.Marshal(map[string]any{"command": argv[0], "args": argv[1:]})
	return server(string(entry))
}

// TestPairedExec runs the paired corpus: every malicious line must fire
// its rule and fail the scan at --fail-on high; every benign twin must not
// fire it. It logs true and false positives per rule.
func TestPairedExec(t *testing.T) {
	type counts struct{ tp, fn, tn, fp int }
	per := map[string]*counts{}
	for _, c := range readExecCases(t, "testdata/paired/exec/cases.txt") {
		if per[c.rule] == nil {
			per[c.rule] = &counts{}
		}
		fs := CheckFile(serverOf(c.argv), Options{})
		fired, failsHigh := false, false
		for _, f := range fs {
			fired = fired || f.Rule == c.rule
			failsHigh = failsHigh || f.Severity.Rank() >= trust.SeverityHigh.Rank()
		}
		n := per[c.rule]
		switch {
		case c.fires && fired:
			n.tp++
		case c.fires:
			n.fn++
			t.Errorf("line %d: %s missed %q; findings: %v", c.line, c.rule, c.argv, ruleList(fs))
		case fired:
			n.fp++
			t.Errorf("line %d: %s false alarm on %q", c.line, c.rule, c.argv)
		default:
			n.tn++
		}
		if c.fires && !failsHigh {
			t.Errorf("line %d: %q does not fail --fail-on high; findings: %v", c.line, c.argv, ruleList(fs))
		}
	}
	var ids []string
	for id := range per {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		n := per[id]
		t.Logf("%s: TP %d FN %d, TN %d FP %d", id, n.tp, n.fn, n.tn, n.fp)
	}
}

func ruleList(fs []trust.Finding) string {
	var b []string
	for _, f := range fs {
		b = append(b, fmt.Sprintf("%s(%s)", f.Rule, f.Severity))
	}
	return strings.Join(b, " ")
}

// TestOneRepoCodeFindingPerCause: a shell given several repository
// scripts is one MG105 finding listing them, not one per word.
func TestOneRepoCodeFindingPerCause(t *testing.T) {
	argv := []string{"bash", "a.sh", "b.sh", "c.sh", "d.sh", "e.sh", "f.sh", "g.sh", "h.sh"}
	got := rulesOf(argv...)
	if len(got) != 1 || got[0] != "MG105@1" {
		t.Fatalf("got %v, want one MG105@1", got)
	}
}

// FuzzExecUnwrap: the command unwrapping (find -exec, xargs, awk, ssh, git
// -c, shells) terminates within the step budget and never panics.
func FuzzExecUnwrap(f *testing.F) {
	for _, c := range readExecCases(f, "testdata/paired/exec/cases.txt") {
		f.Add(strings.Join(c.argv, "\x1f"))
	}
	f.Add("find\x1f.\x1f-exec\x1ffind\x1f.\x1f-exec\x1fxargs\x1fgit\x1f-c\x1fcore.pager=awk 'BEGIN{system(\"sh -c x\")}'")
	f.Fuzz(func(t *testing.T, s string) {
		argv := strings.Split(s, "\x1f")
		if len(argv) > 64 {
			argv = argv[:64]
		}
		ws := make([]word, len(argv))
		for i, x := range argv {
			ws[i] = word{text: x, lit: true, at: i}
		}
		a := &analyzer{}
		a.argv(ws, 0)
		if a.steps > maxSteps+1 {
			t.Fatalf("%d steps, budget %d", a.steps, maxSteps)
		}
	})
}
