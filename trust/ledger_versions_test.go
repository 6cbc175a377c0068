package trust

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ledgerV1Fixture is a version 1 ledger as mcp-guard wrote it before
// versions were remembered: a plain approval, an adopted one, a decline
// after an approval (last_approved), a plain decline, another client's.
const ledgerV1Fixture = "testdata/ledger/v1.json"

// v1States are the states the fixture's servers had under version 1,
// and must keep: no review is lost in the migration.
func v1States() map[string]map[string]ReviewState {
	return map[string]map[string]ReviewState{
		"approved":                {h("approved-v1"): StateReviewed},
		"adopted":                 {h("adopted-v1"): StateReviewed},
		"declined-after-approval": {h("dap-v2"): StateDeclined, h("dap-v1"): StateReviewed},
		"declined":                {h("declined-v1"): StateDeclined},
		"claude-code:db":          {h("claude-db-v1"): StateReviewed},
	}
}

func fixtureKey(name string) ReviewKey {
	k := ReviewKey{Repo: "root1,root2", Config: ".agentty/mcp.json", Server: name}
	if c, s, ok := strings.Cut(name, ":"); ok {
		k.Client, k.Config, k.Server = c, ".mcp.json", s
	}
	return k
}

func checkFixtureStates(t *testing.T, l *Ledger, when string) {
	t.Helper()
	if l.Err != nil {
		t.Fatalf("%s: %v", when, l.Err)
	}
	for name, states := range v1States() {
		for deep, want := range states {
			if got, _ := l.State(fixtureKey(name), deep); got != want {
				t.Errorf("%s: %s at %s: %s, want %s", when, name, deep[:8], got, want)
			}
		}
	}
	r, _ := l.Lookup(fixtureKey("declined-after-approval"))
	if b := r.Baseline(); b == nil || b.Deep != h("dap-v1") || b.Entry != `{"command":"node","args":["x.js"]}` {
		t.Errorf("%s: the decline's baseline is not the last approved version: %+v", when, b)
	}
	if r, _ := l.Lookup(fixtureKey("adopted")); r == nil || !r.Adopted {
		t.Errorf("%s: the adoption is lost: %+v", when, r)
	}
}

// TestLedgerMigratesVersion1: a version 1 ledger is read with every
// review it holds, and the next decision writes it as version 2 without
// losing one; version 2 keeps version 1's fields, so an older mcp-guard
// still reads each server's latest decision.
func TestLedgerMigratesVersion1(t *testing.T) {
	data, err := os.ReadFile(ledgerV1Fixture)
	mustDo(t, err)
	dir := t.TempDir()
	mustDo(t, os.WriteFile(filepath.Join(dir, LedgerFileName), data, 0o600))

	l := LoadLedger(dir)
	if l.Version != 1 || l.Newer {
		t.Fatalf("version %d, newer %v", l.Version, l.Newer)
	}
	checkFixtureStates(t, l, "version 1 read")
	if st, _ := l.State(fixtureKey("approved"), h("approved-v2")); st != StateUnreviewed {
		t.Errorf("a version never reviewed: %s", st)
	}

	// Nothing recorded: nothing written, the file stays version 1.
	mustDo(t, UpdateLedger(context.Background(), dir, func(*LedgerEdit) error { return nil }))
	if now, _ := os.ReadFile(filepath.Join(dir, LedgerFileName)); string(now) != string(data) {
		t.Error("a ledger was rewritten although nothing was recorded")
	}

	mustDo(t, UpdateLedger(context.Background(), dir, record(testReview("root1,root2", ".agentty/mcp.json", "approved", DecisionApproved, h("approved-v2")))))
	l = LoadLedger(dir)
	if l.Version != LedgerVersion {
		t.Fatalf("rewritten as version %d", l.Version)
	}
	checkFixtureStates(t, l, "after migration")
	if st, _ := l.State(fixtureKey("approved"), h("approved-v1")); st != StateReviewed {
		t.Errorf("approving a second version forgot the first: %s", st)
	}
	written, _ := os.ReadFile(filepath.Join(dir, LedgerFileName))
	if strings.Contains(string(written), "last_approved") {
		t.Errorf("version 2 still writes last_approved:\n%s", written)
	}

	// What version 1 read of each review: the latest decision.
	type v1Review struct {
		ReviewKey
		Decision Decision `json:"decision"`
		ReviewedVersion
		Adopted bool `json:"adopted,omitempty"`
	}
	var old struct {
		Version int         `json:"version"`
		Reviews []*v1Review `json:"reviews"`
	}
	mustDo(t, json.Unmarshal(written, &old))
	for _, r := range old.Reviews {
		cur, _ := l.Lookup(r.ReviewKey)
		if cur == nil || r.Decision != cur.Decision || r.Deep != cur.Deep || r.Adopted != cur.Adopted || checkReview(&Review{ReviewKey: r.ReviewKey, DecidedVersion: DecidedVersion{Decision: r.Decision, ReviewedVersion: r.ReviewedVersion}}) != "" {
			t.Errorf("version 1 would read %s as %s %s", r.ReviewKey, r.Decision, r.Deep)
		}
	}
	if len(old.Reviews) != len(v1States()) {
		t.Errorf("%d reviews written, want %d", len(old.Reviews), len(v1States()))
	}
}

// TestLedgerRemembersVersions: every version decided stays decided, each
// once, its latest decision winning; beyond MaxVersions the oldest goes;
// Forget clears them all, with an audit line for each.
func TestLedgerRemembersVersions(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	key := ReviewKey{Repo: "r", Config: "c", Server: "s"}
	v := func(i int) string { return h(fmt.Sprint("v", i)) }
	rec := func(d Decision, i int) {
		t.Helper()
		mustDo(t, UpdateLedger(ctx, dir, record(testReview(key.Repo, key.Config, key.Server, d, v(i)))))
	}
	state := func(i int) ReviewState {
		st, _ := LoadLedger(dir).State(key, v(i))
		return st
	}

	rec(DecisionApproved, 1)
	rec(DecisionApproved, 2)
	rec(DecisionApproved, 1) // again: moves to the front, once
	if state(1) != StateReviewed || state(2) != StateReviewed {
		t.Fatalf("two approved versions: %s, %s", state(1), state(2))
	}
	r, _ := LoadLedger(dir).Lookup(key)
	if got := len(r.Versions()); got != 2 || r.Deep != v(1) {
		t.Fatalf("%d versions, latest %s", got, r.Deep[:8])
	}
	rec(DecisionDeclined, 2) // the user changed their mind about v2
	if state(2) != StateDeclined || state(1) != StateReviewed {
		t.Errorf("after declining v2: %s, %s", state(1), state(2))
	}
	if r, _ := LoadLedger(dir).Lookup(key); r.Baseline().Deep != v(1) {
		t.Errorf("baseline %s, want v1", r.Baseline().Deep[:8])
	}

	for i := 3; i <= MaxVersions+1; i++ {
		rec(DecisionApproved, i)
	}
	r, _ = LoadLedger(dir).Lookup(key)
	if len(r.Versions()) != MaxVersions {
		t.Errorf("%d versions kept, want %d", len(r.Versions()), MaxVersions)
	}
	if state(1) != StateUnreviewed || state(2) != StateDeclined || state(MaxVersions+1) != StateReviewed {
		t.Errorf("the oldest (v1) should be dropped: v1 %s, v2 %s, newest %s", state(1), state(2), state(MaxVersions+1))
	}

	before := len(readAudit(t, dir))
	mustDo(t, UpdateLedger(ctx, dir, func(e *LedgerEdit) error {
		if !e.Forget(key) {
			t.Error("Forget found nothing")
		}
		return nil
	}))
	for i := 1; i <= MaxVersions+1; i++ {
		if st := state(i); st != StateUnreviewed {
			t.Errorf("v%d after revoke: %s", i, st)
		}
	}
	recs := readAudit(t, dir)[before:]
	if len(recs) != MaxVersions {
		t.Errorf("%d revoke lines, want one per version (%d)", len(recs), MaxVersions)
	}
	for _, a := range recs {
		if a.Decision != "revoke" || a.Server != "s" {
			t.Errorf("audit line %+v", a)
		}
	}
}

// TestRenamedMatchesAnyApprovedVersion: a server renamed without change
// matches any version approved under its old name, not a declined one.
func TestRenamedMatchesAnyApprovedVersion(t *testing.T) {
	dir := t.TempDir()
	mustDo(t, UpdateLedger(context.Background(), dir, record(
		testReview("r", "c", "old", DecisionApproved, h("a")),
		testReview("r", "c", "old", DecisionApproved, h("b")),
		testReview("r", "c", "old", DecisionDeclined, h("c")),
	)))
	l := LoadLedger(dir)
	k := ReviewKey{Repo: "r", Config: "c", Server: "new"}
	for deep, want := range map[string]bool{h("a"): true, h("b"): true, h("c"): false, h("d"): false} {
		if got := l.Renamed(k, deep) != nil; got != want {
			t.Errorf("Renamed at %s: %v, want %v", deep[:8], got, want)
		}
	}
}

// TestRenamedIsIndexed: Renamed answers from an index built once, not a
// sort of every review per call (a pull changing 1,000 reviewed servers
// asked it 1,000 times: quadratic). Its answer is the first other name in
// the order of Reviews.
func TestRenamedIsIndexed(t *testing.T) {
	dir := t.TempDir()
	var rs []Review
	for i := 0; i < 500; i++ {
		rs = append(rs, testReview("r", "c", fmt.Sprintf("s%03d", i), DecisionApproved, h(fmt.Sprint(i%250))))
	}
	mustDo(t, UpdateLedger(context.Background(), dir, record(rs...)))
	l := LoadLedger(dir)
	k := ReviewKey{Repo: "r", Config: "c", Server: "s000"}
	if r := l.Renamed(k, h("0")); r == nil || r.Server != "s250" {
		t.Fatalf("Renamed(s000) = %v, want s250 (the other name that approves it)", r)
	}
	if r := l.Renamed(ReviewKey{Repo: "r", Config: "c", Server: "new"}, h("0")); r == nil || r.Server != "s000" {
		t.Fatalf("Renamed(new) = %v, want s000 (the first in order)", r)
	}
	deep := h("7")
	if n := testing.AllocsPerRun(50, func() { l.Renamed(k, deep) }); n != 0 {
		t.Errorf("Renamed allocates %.0f times per call once indexed, want none", n)
	}
}
