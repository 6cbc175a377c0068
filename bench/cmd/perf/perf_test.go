package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcp-guard/mcp-guard/hooks"
)

// TestPerfSmoke runs the whole benchmark on tiny repositories (every
// generator variant, every part, one run per cell), so the command
// BENCHMARKS.md gives keeps working and the history scan keeps reporting
// exactly git log's commits: run returns an error when the sets differ.
func TestPerfSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("generates six small repositories and builds mcp-guard")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time")
	}
	out := t.TempDir()
	// Small repositories whose histories still touch a surface, one run
	// per cell, no warm-up and one peak-memory run: this checks the tool,
	// it measures nothing (four processes per cell, against ten at the
	// command line's defaults with -runs 1). The hook runs as the
	// installed scripts start it, with hooks.HookEnv.
	if err := run(options{out: out, runs: 1, historyRuns: 1, rssRuns: 1, scale: 0.01, hookEnv: hooks.HookEnv}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	parts := map[string]int{}
	for _, r := range rows {
		parts[r.Part]++
		if r.Wall <= 0 {
			t.Errorf("%+v: no wall time", r)
		}
	}
	// 2 repositories x 8 pulls (4 generated, 2 with a .mcp.json, 2 with
	// every client's config) x 2
	// cache states x 2 commands, plus the diff-tree rows of the warm runs;
	// 2 x 2 x 2 x 2 diff rows; 4 variants x 2 history rows; 2 x 2
	// start-up rows; 2 states x 3 commands at the launch gate; 2 work
	// trees x 2 commands; 3 commands on the large configuration; 2
	// repositories x 2 commands for the same-commit checkout.
	want := map[string]int{"hook": 2*8*2*2 + 2*8 + 2*2, "diff": 16, "history": 8, "startup": 4, "gate": 6, "tree": 4, "servers": 3}
	for p, n := range want {
		if parts[p] != n {
			t.Errorf("%s: %d result rows, want %d", p, parts[p], n)
		}
	}
}
