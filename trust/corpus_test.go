package trust

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpusDir holds 155 real-world MCP configurations collected from public
// repositories (MANIFEST.tsv says where each comes from).
var corpusDir = filepath.Join("..", "testdata", "corpus", "realworld")

const corpusGolden = "testdata/corpus-summary.golden"

func corpusFiles(tb testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// corpusLine summarises one file: name, validity, server count,
// transports (with counts), gated count and the rule ids of its findings.
func corpusLine(name string, c *Config) string {
	transports := map[Transport]int{}
	gated := 0
	for _, s := range c.Servers {
		transports[s.Transport]++
		if s.Gated {
			gated++
		}
	}
	var ts []string
	for t, n := range transports {
		ts = append(ts, fmt.Sprintf("%s=%d", t, n))
	}
	slices.Sort(ts)
	var rs []string
	for _, f := range c.Findings {
		rs = append(rs, f.Rule)
	}
	key := c.ServersKey
	if key == "" {
		key = "-"
	}
	return fmt.Sprintf("%s valid=%v key=%s servers=%d gated=%d transports=%s rules=%s",
		name, c.Valid(), key, len(c.Servers), gated, orDash(strings.Join(ts, ",")), orDash(strings.Join(rs, ",")))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TestCorpus parses every real-world configuration as a project config:
// each parses or fails cleanly (no panic, no half result), and the summary
// matches testdata/corpus-summary.golden. Regenerate with
// go test ./trust -run Corpus -update, then review it against MANIFEST.tsv.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) == 0 {
		t.Fatalf("no corpus at %s", corpusDir)
	}
	var lines []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(file)
		var c *Config
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: Parse panicked: %v", name, r)
				}
			}()
			c = Parse(".agentty/mcp.json", data, ScopeProject)
		}()
		if c == nil {
			continue
		}
		if !c.Valid() && len(c.Servers) != 0 {
			t.Errorf("%s: invalid with %d servers", name, len(c.Servers))
		}
		if !c.Valid() && len(findingsOf(c, "MG301"))+len(findingsOf(c, "MG307")) == 0 {
			t.Errorf("%s: invalid without an MG301/MG307 finding", name)
		}
		if c.SHA256 != FileHash(data) {
			t.Errorf("%s: SHA256 is not the raw bytes' hash", name)
		}
		for _, s := range c.Servers {
			if s.Gated && s.Fingerprint != Fingerprint(s.Command, "", s.HashArgs()) {
				t.Errorf("%s: %s: fingerprint mismatch", name, s.Name)
			}
		}
		lines = append(lines, corpusLine(name, c))
	}
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(corpusGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(corpusGolden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("corpus summary differs from %s:\n%s", corpusGolden, lineDiff(string(want), got))
	}
}
