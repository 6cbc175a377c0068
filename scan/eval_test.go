package scan

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcp-guard/mcp-guard/trust"
)

// The labelled evaluation set (testdata/eval, README there): what CI's
// default `scan --fail-on high` fails, measured on a git checkout of each
// case, as CI has it.
const (
	evalDir        = "../testdata/eval"
	realworldDir   = "../testdata/corpus/realworld"
	minPrecision   = 0.90
	evalFailOnRank = 4 // high
)

// failing lists a scan's findings at high and above.
func failing(res *Result) []trust.Finding {
	var out []trust.Finding
	for _, f := range res.Findings {
		if f.Severity.Rank() >= evalFailOnRank {
			out = append(out, f)
		}
	}
	return out
}

// scanTree commits files (repository path → content) in a fresh git
// repository and scans its work tree.
func scanTree(t *testing.T, files map[string]string) *Result {
	t.Helper()
	r := newTestRepo(t)
	for p, c := range files {
		r.write(p, c)
	}
	r.commit("case")
	return r.scan(Request{Target: TargetWorkTree})
}

// caseDir is the directory a case is placed in.
func caseDir(name string) string { return strings.TrimSuffix(name, filepath.Ext(name)) }

// failingByCase groups the findings at high and above by the case
// directory their path starts with.
func failingByCase(res *Result) map[string][]trust.Finding {
	out := map[string][]trust.Finding{}
	for _, f := range failing(res) {
		dir, _, _ := strings.Cut(f.Path, "/")
		out[dir] = append(out[dir], f)
	}
	return out
}

// judgment is one line of corpus-judgments.tsv.
type judgment struct {
	file, rule, key, verdict, why string
	line                          int
	used                          bool
}

func readJudgments(t *testing.T) map[string]*judgment {
	t.Helper()
	f, err := os.Open(filepath.Join(evalDir, "corpus-judgments.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*judgment{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 5 || (c[3] != "tp" && c[3] != "fp") || c[4] == "" {
			t.Fatalf("corpus-judgments.tsv:%d: want file, rule, key, tp|fp, why (tab-separated)", n)
		}
		j := &judgment{file: c[0], rule: c[1], key: c[2], verdict: c[3], why: c[4], line: n}
		k := c[0] + "\t" + c[1] + "\t" + c[2]
		if out[k] != nil {
			t.Fatalf("corpus-judgments.tsv:%d: %s judged twice", n, k)
		}
		out[k] = j
	}
	return out
}

// manifest maps each corpus file to the path its agent reads it at.
func manifest(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realworldDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		c := strings.Split(line, "\t")
		if i == 0 || len(c) < 3 {
			continue
		}
		out[c[0]] = c[2]
	}
	return out
}

// TestEvalRealWorld scans each real-world configuration at the path its
// agent reads, committed, and holds every finding at high and above
// against its committed judgment: each must be judged, and precision (true
// positives over all judged) must stay at or above minPrecision.
func TestEvalRealWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("the evaluation scans 155 repositories")
	}
	js := readJudgments(t)
	paths := manifest(t)
	names := make([]string, 0, len(paths))
	for n := range paths {
		names = append(names, n)
	}
	sort.Strings(names)
	// One repository, each configuration in a directory of its own at the
	// path its agent reads below it: what a scan of each alone reports
	// (nothing crosses directories), at one scan's cost.
	tree := map[string]string{}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(realworldDir, name))
		if err != nil {
			t.Fatal(err)
		}
		tree[caseDir(name)+"/"+paths[name]] = string(data)
	}
	byCase := failingByCase(scanTree(t, tree))
	tp, fp, failed := 0, 0, map[string]bool{}
	for _, name := range names {
		for _, f := range byCase[caseDir(name)] {
			failed[name] = true
			j := js[name+"\t"+f.Rule+"\t"+f.Key]
			if j == nil {
				t.Errorf("%s: %s %s at %s is not judged: add a line to testdata/eval/corpus-judgments.tsv\n\t%s\t%s\t%s\ttp|fp\tWHY\n\t(%s)",
					name, f.Rule, f.Severity, f.Key, name, f.Rule, f.Key, f.Message)
				continue
			}
			j.used = true
			if j.verdict == "tp" {
				tp++
			} else {
				fp++
			}
		}
	}
	for _, j := range js {
		if !j.used {
			t.Errorf("corpus-judgments.tsv:%d: %s %s %s is no longer found at high or above: remove the line", j.line, j.file, j.rule, j.key)
		}
	}
	precision := 1.0
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	t.Logf("real corpus: %d files, %d fail --fail-on high; findings at high and above: %d true, %d false: precision %.0f%%",
		len(names), len(failed), tp, fp, 100*precision)
	if precision < minPrecision {
		t.Errorf("precision at high and above is %.0f%% (%d of %d), below %.0f%%", 100*precision, tp, tp+fp, 100*minPrecision)
	}
	checkPublished(t, fmt.Sprintf("real corpus: %d files, %d fail, %d true and %d false positives at high and above", len(names), len(failed), tp, fp))
}

// evalCase is one pair of testdata/eval/pairs: a malicious configuration
// and its benign twin of the same shape.
type evalCase struct {
	name, agent       string
	malicious, benign map[string]string
}

func readPairs(t *testing.T) []evalCase {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(evalDir, "pairs", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no pairs in testdata/eval/pairs")
	}
	sort.Strings(files)
	var out []evalCase
	for _, p := range files {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := evalCase{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), malicious: map[string]string{}, benign: map[string]string{}}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			if v, ok := strings.CutPrefix(line, "agent: "); ok {
				c.agent = strings.TrimSpace(v)
			}
		}
		for _, f := range a.Files {
			if rest, ok := strings.CutPrefix(f.Name, "malicious/"); ok {
				c.malicious[rest] = string(f.Data)
			} else if rest, ok := strings.CutPrefix(f.Name, "benign/"); ok {
				c.benign[rest] = string(f.Data)
			} else {
				t.Fatalf("%s: file %s is neither malicious/ nor benign/", p, f.Name)
			}
		}
		if c.agent == "" || len(c.malicious) == 0 || len(c.benign) == 0 {
			t.Fatalf("%s: want an `agent:` line, malicious/ and benign/ files", p)
		}
		out = append(out, c)
	}
	return out
}

// TestEvalPairs scans every malicious configuration and its benign twin:
// each malicious one must fail `scan --fail-on high`, no twin may.
func TestEvalPairs(t *testing.T) {
	cases := readPairs(t)
	agents := map[string]int{}
	malicious, benign := map[string]string{}, map[string]string{}
	for _, c := range cases {
		agents[c.agent]++
		for p, d := range c.malicious {
			malicious[c.name+"/"+p] = d
		}
		for p, d := range c.benign {
			benign[c.name+"/"+p] = d
		}
	}
	bad, good := failingByCase(scanTree(t, malicious)), failingByCase(scanTree(t, benign))
	caught, quiet := 0, 0
	for _, c := range cases {
		if len(bad[c.name]) == 0 {
			t.Errorf("%s (%s): the malicious configuration passes --fail-on high", c.name, c.agent)
		} else {
			caught++
			var rules []string
			for _, f := range bad[c.name] {
				rules = append(rules, f.Rule+" "+string(f.Severity))
			}
			t.Logf("%-32s %-12s %s", c.name, c.agent, strings.Join(rules, ", "))
		}
		if fs := good[c.name]; len(fs) > 0 {
			var what []string
			for _, f := range fs {
				what = append(what, f.Rule+" "+string(f.Severity)+" "+f.Key+": "+f.Message)
			}
			t.Errorf("%s (%s): the benign twin fails --fail-on high:\n\t%s", c.name, c.agent, strings.Join(what, "\n\t"))
		} else {
			quiet++
		}
	}
	var as []string
	for a := range agents {
		as = append(as, a)
	}
	sort.Strings(as)
	t.Logf("pairs: %d across %s: %d of %d malicious fail, %d of %d twins pass", len(cases), strings.Join(as, ", "), caught, len(cases), quiet, len(cases))
	checkPublished(t, fmt.Sprintf("pairs: %d malicious configurations across %d agents, %d fail; %d benign twins, %d pass", len(cases), len(agents), caught, len(cases), quiet))
}

// checkPublished fails when docs/rules.md does not state a measured figure
// (trust.Evaluation is where it is written; the rules page is generated
// from it).
func checkPublished(t *testing.T, figure string) {
	t.Helper()
	if t.Failed() {
		return
	}
	if !strings.Contains(trust.Evaluation, figure) {
		t.Errorf("trust.Evaluation (docs/rules.md) does not state the measured figure %q: update it and regenerate docs/rules.md", figure)
	}
}
