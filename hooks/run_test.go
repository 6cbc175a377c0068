package hooks

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/trust"
)

// TestDedupe: what the previous run said is not said again within the
// window; a new version, a later time, or a silent run in between, and it
// is.
func TestDedupe(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := func(server, deep string) trust.Change {
		return trust.Change{Path: ".agentty/mcp.json", Server: server, NewDeep: deep, Impact: trust.ImpactNewUnapproved}
	}
	f := trust.Finding{Rule: "MG501", Path: ".agentty/hooks.json", Message: "m"}
	names := func(cs []trust.Change) (out []string) {
		for _, x := range cs {
			out = append(out, x.Server)
		}
		return out
	}
	cs, fs := dedupe(dir, []trust.Change{c("a", "1"), c("b", "1")}, []trust.Finding{f}, t0)
	if len(cs) != 2 || len(fs) != 1 {
		t.Fatalf("first run: %v %v", names(cs), fs)
	}
	cs, fs = dedupe(dir, []trust.Change{c("a", "1"), c("b", "2")}, []trust.Finding{f}, t0.Add(time.Minute))
	if got := names(cs); len(got) != 1 || got[0] != "b" || len(fs) != 0 {
		t.Errorf("repeat within the window: %v %v", got, fs)
	}
	// The file now holds only what that run reported (b@2).
	cs, _ = dedupe(dir, []trust.Change{c("a", "1")}, nil, t0.Add(90*time.Second))
	if len(cs) != 1 {
		t.Errorf("a was not in the last report: %v", names(cs))
	}
	cs, _ = dedupe(dir, []trust.Change{c("a", "1")}, nil, t0.Add(90*time.Second+dedupeWindow))
	if len(cs) != 1 {
		t.Errorf("after the window: %v", names(cs))
	}
	dedupe(dir, nil, nil, t0.Add(time.Hour))
	if _, err := os.Stat(filepath.Join(dir, lastWarningFile)); err == nil {
		t.Error("a silent run kept the last warning")
	}
	// An unreadable or missing git directory reports everything.
	cs, _ = dedupe(filepath.Join(dir, "missing"), []trust.Change{c("a", "1")}, nil, t0)
	if len(cs) != 1 {
		t.Error("dropped a change without a record")
	}
}
