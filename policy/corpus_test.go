package policy

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

var update = flag.Bool("update", false, "rewrite golden files")

// corpusDir holds 155 real MCP configurations collected from public
// repositories (MANIFEST.tsv says where each comes from).
const corpusDir = "../testdata/corpus/realworld"

// TestCorpus places each real-world configuration as .agentty/mcp.json of
// its own directory, scans it, and compares a summary a reviewer can read
// (counts per rule, then the rules each file triggers) with the golden
// file. No file may make the scan fail.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no corpus at %s", corpusDir)
	}
	sort.Strings(files)
	perRule := map[string]int{}
	filesPerRule := map[string]int{}
	var lines []string
	total := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// What a scan of a directory holding only this file reports.
		findings := CheckFile(File{Path: ".agentty/mcp.json", Kind: client.KindMCPConfig, Data: data}, Options{})
		SortFindings(findings)
		seen := map[string]bool{}
		var rules []string
		for _, f := range findings {
			perRule[f.Rule]++
			total++
			if !seen[f.Rule] {
				seen[f.Rule] = true
				filesPerRule[f.Rule]++
			}
			rules = append(rules, f.Rule)
		}
		lines = append(lines, fmt.Sprintf("%-16s %s", filepath.Base(p), strings.Join(rules, " ")))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# mcp-guard scan of the real-world configs in testdata/corpus/realworld, each placed\n")
	fmt.Fprintf(&b, "# as .agentty/mcp.json. Regenerate: go test ./policy -run TestCorpus -update\n")
	fmt.Fprintf(&b, "configs: %d  findings: %d\n\n", len(files), total)
	fmt.Fprintf(&b, "%-6s %-22s %-9s %8s %6s\n", "rule", "slug", "severity", "findings", "files")
	for _, r := range trust.Rules {
		if perRule[r.ID] > 0 {
			fmt.Fprintf(&b, "%-6s %-22s %-9s %8d %6d\n", r.ID, r.Slug, r.Severity, perRule[r.ID], filesPerRule[r.ID])
		}
	}
	fmt.Fprintf(&b, "\nrules per config, in finding order:\n")
	for _, l := range lines {
		b.WriteString(strings.TrimRight(l, " ") + "\n")
	}
	golden(t, filepath.Join("testdata", "corpus-summary.golden"), b.String())
}

// golden compares got with a golden file, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update after checking the change):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
