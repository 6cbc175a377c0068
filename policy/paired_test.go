package policy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// pairedCase is a malicious server entry that must produce rule and its
// near-miss benign twin that must not.
type pairedCase struct {
	Rule   string          `json:"rule"`
	Name   string          `json:"name"`
	Fire   json.RawMessage `json:"fire"`
	Benign json.RawMessage `json:"benign"`
}

// readPaired reads testdata/paired/*/*.json.
func readPaired() ([]pairedCase, error) {
	files, _ := filepath.Glob(filepath.Join("testdata", "paired", "*", "*.json"))
	var all []pairedCase
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var cs []pairedCase
		if err := json.Unmarshal(data, &cs); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		all = append(all, cs...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no paired cases")
	}
	return all, nil
}

func loadPaired(t *testing.T) []pairedCase {
	t.Helper()
	all, err := readPaired()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// init adds the pairs to the rule table, so that TestRules checks their
// findings against the catalog and TestEveryRuleHasACase counts them.
func init() {
	all, err := readPaired()
	if err != nil {
		panic(err)
	}
	for _, c := range all {
		if c.Fire != nil {
			ruleCases = append(ruleCases, ruleCase{name: "paired " + c.Name, rule: c.Rule, fires: true, file: server(string(c.Fire))})
		}
		if c.Benign != nil {
			ruleCases = append(ruleCases, ruleCase{name: "paired twin " + c.Name, rule: c.Rule, file: server(string(c.Benign))})
		}
	}
}

func rulesIn(fs []trust.Finding) map[string]trust.Finding {
	m := map[string]trust.Finding{}
	for _, f := range fs {
		if _, ok := m[f.Rule]; !ok {
			m[f.Rule] = f
		}
	}
	return m
}

// TestPairedCorpus runs every pair and reports, per rule, true positives
// (the malicious entry fires) and false positives (the benign twin fires);
// any miss or false alarm fails.
func TestPairedCorpus(t *testing.T) {
	type count struct{ tp, fn, fp, tn int }
	counts := map[string]*count{}
	for _, c := range loadPaired(t) {
		if counts[c.Rule] == nil {
			counts[c.Rule] = &count{}
		}
		n := counts[c.Rule]
		if c.Fire != nil {
			if _, ok := rulesIn(CheckFile(server(string(c.Fire)), Options{}))[c.Rule]; ok {
				n.tp++
			} else {
				n.fn++
				t.Errorf("%s %s: malicious example does not fire: %s", c.Rule, c.Name, c.Fire)
			}
		}
		if c.Benign != nil {
			if f, ok := rulesIn(CheckFile(server(string(c.Benign)), Options{}))[c.Rule]; ok {
				n.fp++
				t.Errorf("%s %s: benign twin fires: %s", c.Rule, c.Name, f.Message)
			} else {
				n.tn++
			}
		}
	}
	var ids []string
	for id := range counts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	for _, id := range ids {
		n := counts[id]
		fmt.Fprintf(&b, "\n%s TP %d FN %d FP %d TN %d", id, n.tp, n.fn, n.fp, n.tn)
	}
	t.Logf("paired corpus per rule:%s", b.String())
}
