package trust

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func testReview(repo, config, server string, d Decision, deep string) Review {
	return Review{
		ReviewKey: ReviewKey{Repo: repo, Config: config, Server: server},
		DecidedVersion: DecidedVersion{Decision: d, ReviewedVersion: ReviewedVersion{
			Deep: deep, Fingerprint: h("agentty-" + deep), Entry: `{"command":"node"}`,
			Files:  []ReviewedFile{{Path: "server.js", Mode: "100644", ID: strings.Repeat("a", 40)}},
			Commit: strings.Repeat("c", 40),
			Time:   time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		}},
	}
}

func record(rs ...Review) func(*LedgerEdit) error {
	return func(e *LedgerEdit) error {
		for _, r := range rs {
			if err := e.Record(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestLedgerDir(t *testing.T) {
	tests := []struct {
		env     map[string]string
		want    string
		wantErr error
	}{
		{env: map[string]string{"HOME": "/h"}, want: "/h/.local/state/mcp-guard"},
		{env: map[string]string{"HOME": "", "USERPROFILE": "/u"}, want: "/u/.local/state/mcp-guard"},
		{env: map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s"}, want: "/s/mcp-guard"},
		{env: map[string]string{"HOME": "/h", "XDG_STATE_HOME": "rel"}, want: "/h/.local/state/mcp-guard"},
		{env: map[string]string{"HOME": "/h", "MCP_GUARD_HOME": "/g"}, want: "/g"},
		{env: map[string]string{"MCP_GUARD_HOME": "/g/../x/"}, want: "/x"},
		{env: map[string]string{}, wantErr: ErrNoHome},
	}
	for _, tt := range tests {
		got, err := LedgerDir(func(k string) string { return tt.env[k] })
		if !errors.Is(err, tt.wantErr) || got != tt.want {
			t.Errorf("LedgerDir(%v) = %q, %v; want %q, %v", tt.env, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestRepoIdentity(t *testing.T) {
	if got := RepoIdentity([]string{"bb", "aa"}, "/x"); got != "aa,bb" {
		t.Errorf("got %q", got)
	}
	if got := RepoIdentity(nil, "/x/y/../z"); got != "dir:/x/z" {
		t.Errorf("got %q", got)
	}
}

func TestLedgerRecordAndState(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mcp-guard")
	ctx := context.Background()
	key := ReviewKey{Repo: "r1", Config: ".agentty/mcp.json", Server: "db"}

	// An absent ledger is usable and empty.
	l := LoadLedger(dir)
	if l.Err != nil {
		t.Fatal(l.Err)
	}
	if st, prev := l.State(key, h("v1")); st != StateUnreviewed || prev != nil {
		t.Fatalf("empty ledger: %s %v", st, prev)
	}

	mustDo(t, UpdateLedger(ctx, dir, record(testReview("r1", ".agentty/mcp.json", "db", DecisionApproved, h("v1")))))
	l = LoadLedger(dir)
	if st, _ := l.State(key, h("v1")); st != StateReviewed {
		t.Errorf("approved v1: state %s", st)
	}
	st, prev := l.State(key, h("v2"))
	if st != StateUnreviewed || prev == nil || prev.Deep != h("v1") {
		t.Errorf("changed to v2: state %s, previous %+v", st, prev)
	}
	// The key is exact: another repository, client, config or name is not
	// reviewed.
	for _, k := range []ReviewKey{
		{Repo: "r2", Config: key.Config, Server: key.Server},
		{Repo: key.Repo, Client: "claude-code", Config: key.Config, Server: key.Server},
		{Repo: key.Repo, Config: "sub/.agentty/mcp.json", Server: key.Server},
		{Repo: key.Repo, Config: key.Config, Server: "db2"},
	} {
		if st, _ := l.State(k, h("v1")); st != StateUnreviewed {
			t.Errorf("%s: state %s, want unreviewed", k, st)
		}
	}

	// Declining v2 and v3 keeps v1 approved, the baseline of the next
	// review; each version keeps its own decision.
	mustDo(t, UpdateLedger(ctx, dir, record(testReview("r1", ".agentty/mcp.json", "db", DecisionDeclined, h("v2")))))
	mustDo(t, UpdateLedger(ctx, dir, record(testReview("r1", ".agentty/mcp.json", "db", DecisionDeclined, h("v3")))))
	l = LoadLedger(dir)
	for deep, want := range map[string]ReviewState{h("v1"): StateReviewed, h("v2"): StateDeclined, h("v3"): StateDeclined, h("v4"): StateUnreviewed} {
		if st, _ := l.State(key, deep); st != want {
			t.Errorf("%s: state %s, want %s", deep[:4], st, want)
		}
	}
	r, _ := l.Lookup(key)
	if r.Deep != h("v3") || r.Baseline().Deep != h("v1") {
		t.Errorf("latest or baseline lost: %+v", r)
	}
	// Approving v3 makes it the baseline; v1 stays approved.
	mustDo(t, UpdateLedger(ctx, dir, record(testReview("r1", ".agentty/mcp.json", "db", DecisionApproved, h("v3")))))
	l = LoadLedger(dir)
	r, _ = l.Lookup(key)
	if r.Baseline().Deep != h("v3") || len(r.Versions()) != 3 {
		t.Errorf("after approval: %+v", r)
	}
	if st, _ := l.State(key, h("v1")); st != StateReviewed {
		t.Errorf("v1 after approving v3: %s", st)
	}

	// Every decision is in the audit log, in order.
	recs := readAudit(t, dir)
	var got []string
	for _, a := range recs {
		got = append(got, a.Decision+":"+a.Deep[:4])
	}
	want := []string{"approve:" + h("v1")[:4], "decline:" + h("v2")[:4], "decline:" + h("v3")[:4], "approve:" + h("v3")[:4]}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("audit %v, want %v", got, want)
	}
	if a := recs[0]; a.Repository != "r1" || a.Config != ".agentty/mcp.json" || a.Server != "db" ||
		a.Fingerprint != h("agentty-"+h("v1")) || a.Commit != strings.Repeat("c", 40) || a.Time.IsZero() {
		t.Errorf("audit record incomplete: %+v", a)
	}

	// Permissions: the directory and files are the user's alone.
	for p, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, LedgerFileName): 0o600, filepath.Join(dir, AuditFileName): 0o600} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	checkNoLedgerTemps(t, dir)
}

func TestLedgerAdoptAuditVerb(t *testing.T) {
	dir := t.TempDir()
	r := testReview("r", "c", "s", DecisionApproved, h("a"))
	r.Adopted = true
	mustDo(t, UpdateLedger(context.Background(), dir, func(e *LedgerEdit) error {
		e.Path = "/work/tree"
		return e.Record(r)
	}))
	recs := readAudit(t, dir)
	if len(recs) != 1 || recs[0].Decision != "adopt" || recs[0].Path != "/work/tree" {
		t.Errorf("audit %+v", recs)
	}
}

func TestLedgerRecordRejectsIncomplete(t *testing.T) {
	dir := t.TempDir()
	bad := []Review{
		testReview("", "c", "s", DecisionApproved, h("a")),
		testReview("r", "c", "s", "maybe", h("a")),
		testReview("r", "c", "s", DecisionApproved, "ABC"),
		func() Review {
			r := testReview("r", "c", "s", DecisionApproved, h("a"))
			r.Client = "Claude Code"
			return r
		}(),
	}
	for _, r := range bad {
		if err := UpdateLedger(context.Background(), dir, record(r)); err == nil {
			t.Errorf("%+v: recorded", r)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, LedgerFileName)); err == nil {
		t.Error("a ledger was written for rejected reviews")
	}
}

func TestLedgerNoChangeNoWrite(t *testing.T) {
	dir := t.TempDir()
	mustDo(t, UpdateLedger(context.Background(), dir, func(*LedgerEdit) error { return nil }))
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != LedgerFileName+".lock" {
		t.Errorf("files written without a decision: %v", ents)
	}
	boom := errors.New("boom")
	if err := UpdateLedger(context.Background(), dir, func(e *LedgerEdit) error {
		mustDo(t, e.Record(testReview("r", "c", "s", DecisionApproved, h("a"))))
		return boom
	}); err != boom {
		t.Errorf("fn's error: got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, LedgerFileName)); err == nil {
		t.Error("written although fn failed")
	}
}

// TestCorruptLedgerNeverRewritten: whatever is wrong with reviews.json,
// nothing counts as reviewed and UpdateLedger leaves it byte for byte.
func TestCorruptLedgerNeverRewritten(t *testing.T) {
	valid, _ := json.Marshal(ledgerFile{Version: 1, Reviews: []*Review{ptrReview(testReview("r", "c", "s", DecisionApproved, h("a")))}})
	tests := map[string]string{
		"empty":                           "",
		"not json":                        "{not json",
		"array":                           "[]",
		"trailing":                        string(valid) + "{}",
		"no version":                      `{"reviews":[]}`,
		"bad decision":                    strings.Replace(string(valid), `"approved"`, `"maybe"`, 1),
		"bad deep":                        strings.Replace(string(valid), h("a"), "x", 1),
		"no server":                       strings.Replace(string(valid), `"server":"s"`, `"server":""`, 1),
		"null review":                     `{"version":1,"reviews":[null]}`,
		"duplicate keys":                  strings.Replace(string(valid), `"reviews":[`, `"reviews":[`+reviewJSON(t, testReview("r", "c", "s", DecisionDeclined, h("b")))+",", 1),
		"two decisions about one version": strings.Replace(string(valid), `"time"`, `"earlier":[{"decision":"declined","deep_fingerprint":"`+h("a")+`","time":"2026-01-01T00:00:00Z"}],"time"`, 1),
		"unknown earlier decision":        strings.Replace(string(valid), `"time"`, `"earlier":[{"decision":"maybe","deep_fingerprint":"`+h("b")+`","time":"2026-01-01T00:00:00Z"}],"time"`, 1),
		"earlier without deep":            strings.Replace(string(valid), `"time"`, `"earlier":[{"decision":"approved","time":"2026-01-01T00:00:00Z"}],"time"`, 1),
		"last_approved in version 2":      strings.Replace(strings.Replace(string(valid), `"version":1`, `"version":2`, 1), `"time"`, `"last_approved":{"deep_fingerprint":"`+h("b")+`"},"time"`, 1),
		"version 1 bad last_approved":     strings.Replace(string(valid), `"time"`, `"last_approved":{"deep_fingerprint":"x"},"time"`, 1),
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, LedgerFileName)
			mustDo(t, os.WriteFile(path, []byte(content), 0o600))
			l := LoadLedger(dir)
			if !errors.Is(l.Err, ErrLedgerInvalid) {
				t.Fatalf("LoadLedger: err %v, want ErrLedgerInvalid", l.Err)
			}
			if st, _ := l.State(ReviewKey{Repo: "r", Config: "c", Server: "s"}, h("a")); st != StateUnreviewed {
				t.Errorf("state %s while corrupt", st)
			}
			err := UpdateLedger(context.Background(), dir, record(testReview("r", "c", "t", DecisionApproved, h("z"))))
			if !errors.Is(err, ErrLedgerInvalid) {
				t.Errorf("UpdateLedger: %v, want ErrLedgerInvalid", err)
			}
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Errorf("rewritten: %q", got)
			}
			if _, err := os.Stat(filepath.Join(dir, AuditFileName)); err == nil {
				t.Error("audited a decision that was not recorded")
			}
		})
	}
	if !testing.Short() {
		// The valid form parses, so the cases above fail for their reason.
		dir := t.TempDir()
		mustDo(t, os.WriteFile(filepath.Join(dir, LedgerFileName), valid, 0o600))
		if l := LoadLedger(dir); l.Err != nil {
			t.Fatal(l.Err)
		}
	}
}

func TestLedgerNotARegularFile(t *testing.T) {
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		mustDo(t, os.Mkdir(filepath.Join(dir, LedgerFileName), 0o700))
		if l := LoadLedger(dir); l.Err == nil {
			t.Error("a directory loaded as a ledger")
		}
		if err := UpdateLedger(context.Background(), dir, record(testReview("r", "c", "s", DecisionApproved, h("a")))); err == nil {
			t.Error("UpdateLedger replaced a directory")
		}
	})
	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(t.TempDir(), "elsewhere.json")
		mustDo(t, os.WriteFile(target, []byte(`{"version":1,"reviews":[]}`), 0o600))
		mustDo(t, os.Symlink(target, filepath.Join(dir, LedgerFileName)))
		if err := UpdateLedger(context.Background(), dir, record(testReview("r", "c", "s", DecisionApproved, h("a")))); !errors.Is(err, ErrLedgerInvalid) {
			t.Errorf("UpdateLedger through a symlink: %v", err)
		}
		if got, _ := os.ReadFile(target); string(got) != `{"version":1,"reviews":[]}` {
			t.Errorf("target changed: %s", got)
		}
	})
}

func TestLedgerNewerVersionReadNotWritten(t *testing.T) {
	dir := t.TempDir()
	r := testReview("r", "c", "s", DecisionApproved, h("a"))
	content := `{"version":` + strconv.Itoa(LedgerVersion+1) + `,"reviews":[` + reviewJSON(t, r) + `],"future":true}`
	path := filepath.Join(dir, LedgerFileName)
	mustDo(t, os.WriteFile(path, []byte(content), 0o600))
	l := LoadLedger(dir)
	if l.Err != nil || !l.Newer {
		t.Fatalf("err %v newer %v", l.Err, l.Newer)
	}
	if st, _ := l.State(r.ReviewKey, h("a")); st != StateReviewed {
		t.Errorf("state %s", st)
	}
	if err := UpdateLedger(context.Background(), dir, record(testReview("r", "c", "t", DecisionApproved, h("b")))); !errors.Is(err, ErrLedgerInvalid) {
		t.Errorf("UpdateLedger: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != content {
		t.Error("a newer ledger was rewritten")
	}
}

func TestLedgerStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "."+LedgerFileName+".123.tmp")
	mustDo(t, os.WriteFile(stale, []byte("half"), 0o600))
	mustDo(t, UpdateLedger(context.Background(), dir, record(testReview("r", "c", "s", DecisionApproved, h("a")))))
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file kept")
	}
}

func TestLedgerLockTimeout(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	hold := make(chan struct{})
	held := make(chan struct{})
	go func() {
		UpdateLedger(ctx, dir, func(*LedgerEdit) error { close(held); <-hold; return nil })
	}()
	<-held
	ctx2, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	err := UpdateLedger(ctx2, dir, record(testReview("r", "c", "s", DecisionApproved, h("a"))))
	close(hold)
	if !errors.Is(err, ErrLockTimeout) || !strings.Contains(err.Error(), filepath.Join(dir, "reviews.json.lock")+": ") ||
		!strings.Contains(err.Error(), "the review ledger") || strings.Contains(err.Error(), "approvals") {
		t.Errorf("got %v, want ErrLockTimeout naming the ledger's lock file", err)
	}
}

const ledgerHelperEnv = "MCP_GUARD_LEDGER_HELPER"

// TestLedgerHelperProcess is not a test: TestLedgerConcurrentProcesses runs
// the test binary again with ledgerHelperEnv set and this does the child's
// work.
func TestLedgerHelperProcess(t *testing.T) {
	if os.Getenv(ledgerHelperEnv) == "" {
		t.Skip("helper process for the multi-process tests")
	}
	dir := os.Getenv("HELPER_DIR")
	worker := os.Getenv("HELPER_WORKER")
	rounds, _ := strconv.Atoi(os.Getenv("HELPER_ROUNDS"))
	for r := range rounds {
		rv := testReview("repo", ".agentty/mcp.json", fmt.Sprintf("w%s-r%d", worker, r), DecisionApproved, h(worker+strconv.Itoa(r)))
		if err := UpdateLedger(context.Background(), dir, record(rv)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
	os.Exit(0)
}

// TestLedgerConcurrentProcesses: separate processes recording decisions at
// the same time lose none, in the ledger or the audit log, and every audit
// line is whole.
func TestLedgerConcurrentProcesses(t *testing.T) {
	const workers = 6
	rounds := 25
	if testing.Short() {
		rounds = 8
	}
	dir := t.TempDir()
	cmds := make([]*exec.Cmd, workers)
	outs := make([]*bytes.Buffer, workers)
	for w := range workers {
		outs[w] = &bytes.Buffer{}
		cmds[w] = exec.Command(os.Args[0], "-test.run=^TestLedgerHelperProcess$", "-test.count=1")
		cmds[w].Env = append(os.Environ(), ledgerHelperEnv+"=1", "HELPER_DIR="+dir, "HELPER_WORKER="+strconv.Itoa(w), "HELPER_ROUNDS="+strconv.Itoa(rounds))
		cmds[w].Stdout, cmds[w].Stderr = outs[w], outs[w]
		mustDo(t, cmds[w].Start())
	}
	for w, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("worker %d: %v\n%s", w, err, outs[w])
		}
	}
	l := LoadLedger(dir)
	if l.Err != nil {
		t.Fatal(l.Err)
	}
	if n := len(l.Reviews()); n != workers*rounds {
		t.Errorf("%d reviews, want %d", n, workers*rounds)
	}
	for w := range workers {
		for r := range rounds {
			k := ReviewKey{Repo: "repo", Config: ".agentty/mcp.json", Server: fmt.Sprintf("w%d-r%d", w, r)}
			if st, _ := l.State(k, h(strconv.Itoa(w)+strconv.Itoa(r))); st != StateReviewed {
				t.Errorf("%s lost", k)
			}
		}
	}
	if n := len(readAudit(t, dir)); n != workers*rounds {
		t.Errorf("%d audit lines, want %d", n, workers*rounds)
	}
	checkNoLedgerTemps(t, dir)
}

func ptrReview(r Review) *Review { return &r }

func reviewJSON(t *testing.T, r Review) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readAudit parses audit.jsonl strictly: every line one whole record.
func readAudit(t *testing.T, dir string) []AuditRecord {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, AuditFileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []AuditRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var a AuditRecord
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			t.Fatalf("audit line %d: %v: %q", len(out)+1, err, sc.Text())
		}
		out = append(out, a)
	}
	mustDo(t, sc.Err())
	return out
}

func checkNoLedgerTemps(t *testing.T, dir string) {
	t.Helper()
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestLedgerDirMigrates: the directory of earlier versions
// (~/.agentty/mcp-guard) moves to the platform's place in one rename,
// every review with it; MCP_GUARD_HOME still wins; an existing new
// directory is never overwritten; when the move cannot be made the old
// directory stays in use.
func TestLedgerDirMigrates(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("the paths below are Linux's")
	}
	setup := func(t *testing.T) (home string, env func(string) string) {
		home = t.TempDir()
		legacy := filepath.Join(home, ".agentty", "mcp-guard")
		if err := os.MkdirAll(filepath.Join(legacy, "launch"), 0o700); err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string]string{"reviews.json": `{"version":1}`, "audit.jsonl": "{}\n", "launch/a.json": "{}"} {
			if err := os.WriteFile(filepath.Join(legacy, name), []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return home, func(k string) string { return map[string]string{"HOME": home}[k] }
	}
	t.Run("moved", func(t *testing.T) {
		home, env := setup(t)
		dir, err := LedgerDir(env)
		want := filepath.Join(home, ".local", "state", "mcp-guard")
		if err != nil || dir != want {
			t.Fatalf("LedgerDir = %q, %v; want %q", dir, err, want)
		}
		for _, name := range []string{"reviews.json", "audit.jsonl", "launch/a.json"} {
			if _, err := os.Stat(filepath.Join(want, name)); err != nil {
				t.Errorf("%s not moved: %v", name, err)
			}
		}
		if _, err := os.Stat(filepath.Join(home, ".agentty", "mcp-guard")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the old directory is still there: %v", err)
		}
		if again, _ := LedgerDir(env); again != want {
			t.Errorf("second call %q", again)
		}
	})
	t.Run("MCP_GUARD_HOME wins", func(t *testing.T) {
		home, _ := setup(t)
		dir, _ := LedgerDir(func(k string) string { return map[string]string{"HOME": home, "MCP_GUARD_HOME": "/g"}[k] })
		if dir != "/g" {
			t.Errorf("LedgerDir = %q", dir)
		}
		if _, err := os.Stat(filepath.Join(home, ".agentty", "mcp-guard", "reviews.json")); err != nil {
			t.Errorf("moved although MCP_GUARD_HOME is set: %v", err)
		}
	})
	t.Run("new one kept", func(t *testing.T) {
		home, env := setup(t)
		want := filepath.Join(home, ".local", "state", "mcp-guard")
		if err := os.MkdirAll(want, 0o700); err != nil {
			t.Fatal(err)
		}
		if dir, _ := LedgerDir(env); dir != want {
			t.Errorf("LedgerDir = %q", dir)
		}
		if _, err := os.Stat(filepath.Join(home, ".agentty", "mcp-guard", "reviews.json")); err != nil {
			t.Errorf("the old directory was touched: %v", err)
		}
	})
	t.Run("cannot move", func(t *testing.T) {
		home, env := setup(t)
		// .local is a file: the new place cannot be made.
		if err := os.WriteFile(filepath.Join(home, ".local"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		legacy := filepath.Join(home, ".agentty", "mcp-guard")
		if dir, _ := LedgerDir(env); dir != legacy {
			t.Errorf("LedgerDir = %q, want the old directory %q", dir, legacy)
		}
	})
}
