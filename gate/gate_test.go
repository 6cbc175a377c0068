package gate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// fixture is a launch directory outside git, with its own HOME.
type fixture struct {
	t    *testing.T
	dir  string
	home string
	env  Env
}

func newFixture(t *testing.T, config string) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, dir: filepath.Join(root, "proj"), home: filepath.Join(root, "home")}
	for _, d := range []string{filepath.Join(f.dir, ".agentty"), f.home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	f.write(config)
	vars := map[string]string{"HOME": f.home}
	f.env = Env{Getenv: func(k string) string { return vars[k] }, Environ: []string{"HOME=" + f.home}}
	return f
}

func (f *fixture) write(config string) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, ".agentty", "mcp.json"), []byte(config), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) view() *View {
	f.t.Helper()
	v, err := Evaluate(context.Background(), f.dir, f.env)
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

func (f *fixture) verdict(v *View, name string) trust.GateVerdict {
	f.t.Helper()
	for _, gv := range v.Verdicts {
		if gv.Server.Name == name {
			return gv
		}
	}
	f.t.Fatalf("no server %q", name)
	return trust.GateVerdict{}
}

func (f *fixture) approvedInStore(v *View, name string) bool {
	return trust.LoadApprovals(v.In.StorePath).Approved(f.verdict(v, name).Server.Fingerprint)
}

func names(vs []trust.GateVerdict) string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Server.Name)
	}
	return strings.Join(out, " ")
}

const twoServers = `{"mcpServers":{"files":{"command":"/bin/echo","args":["files"]},"docs":{"url":"https://docs.example.com/mcp"}}}`

func TestRecordApproveThenReviewed(t *testing.T) {
	f := newFixture(t, twoServers)
	v := f.view()
	if got := names(v.Blocking(true)); got != "docs files" {
		t.Fatalf("blocking before review: %q", got)
	}
	out, err := v.Record(context.Background(), trust.DecisionApproved, v.Blocking(true))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Changed || !out[1].Changed {
		t.Errorf("outcomes %+v", out)
	}
	v = f.view()
	if got := names(v.Blocking(true)); got != "" {
		t.Errorf("blocking after review: %q", got)
	}
	if !f.approvedInStore(v, "files") {
		t.Error("agentty's store lacks the approval")
	}
}

// A failure between the two writes never leaves agentty running what
// mcp-guard does not count as reviewed.
func TestRecordFailsSafeBetweenTheWrites(t *testing.T) {
	boom := errors.New("injected")
	// failAt fails the write at step at, as if the disk refused it.
	failAt := func(at step) func(step) error {
		return func(s step) error {
			if s == at {
				return boom
			}
			return nil
		}
	}
	t.Run("approve: ledger written, store fails", func(t *testing.T) {
		f := newFixture(t, twoServers)
		v := f.view()
		_, err := v.record(context.Background(), trust.DecisionApproved, []trust.GateVerdict{f.verdict(v, "files")}, failAt(stepStore))
		var fl *Failure
		if !errors.As(err, &fl) || !strings.Contains(fl.Hint, "agentty will ask") {
			t.Fatalf("error %v (hint %q)", err, fl.Hint)
		}
		v = f.view()
		if f.approvedInStore(v, "files") {
			t.Error("agentty's store approves it, though the write failed")
		}
		if gv := f.verdict(v, "files"); gv.State != trust.StateReviewed || gv.Blocks {
			t.Errorf("the review was lost: %+v", gv)
		}
	})
	t.Run("approve: ledger fails first, nothing written", func(t *testing.T) {
		f := newFixture(t, twoServers)
		v := f.view()
		_, err := v.record(context.Background(), trust.DecisionApproved, []trust.GateVerdict{f.verdict(v, "files")}, failAt(stepLedger))
		if err == nil {
			t.Fatal("no error")
		}
		v = f.view()
		if f.approvedInStore(v, "files") || f.verdict(v, "files").State != trust.StateUnreviewed {
			t.Error("something was written")
		}
		if _, err := os.Stat(v.In.StorePath); err == nil {
			t.Error("agentty's store was created")
		}
	})
	t.Run("decline of an approved version: store written, ledger fails", func(t *testing.T) {
		f := newFixture(t, twoServers)
		v := f.view()
		if _, err := v.Record(context.Background(), trust.DecisionApproved, []trust.GateVerdict{f.verdict(v, "files")}); err != nil {
			t.Fatal(err)
		}
		v = f.view()
		_, err := v.record(context.Background(), trust.DecisionDeclined, []trust.GateVerdict{f.verdict(v, "files")}, failAt(stepLedger))
		// The hint says what was written: the store's approval is gone.
		var fl *Failure
		if !errors.As(err, &fl) || !strings.HasPrefix(fl.Hint, "agentty's store no longer approves it, but mcp-guard's ledger does not record the decline") {
			t.Fatalf("error %v (hint %q)", err, fl.Hint)
		}
		if f.approvedInStore(f.view(), "files") {
			t.Error("agentty still approves what was being declined")
		}
	})
	t.Run("decline: store written, ledger fails", func(t *testing.T) {
		f := newFixture(t, twoServers)
		v := f.view()
		if _, err := v.Record(context.Background(), trust.DecisionApproved, []trust.GateVerdict{f.verdict(v, "files")}); err != nil {
			t.Fatal(err)
		}
		f.write(strings.Replace(twoServers, `"files"]`, `"files","--v2"]`, 1))
		v = f.view()
		_, err := v.record(context.Background(), trust.DecisionDeclined, []trust.GateVerdict{f.verdict(v, "files")}, failAt(stepLedger))
		if err == nil {
			t.Fatal("no error")
		}
		v = f.view()
		if f.approvedInStore(v, "files") {
			t.Error("agentty still approves what was being declined")
		}
		if gv := f.verdict(v, "files"); !gv.Blocks {
			t.Errorf("not waiting for review: %+v", gv)
		}
	})
}

func TestRecordValidatesBeforeWriting(t *testing.T) {
	f := newFixture(t, twoServers)
	v := f.view()
	bad := f.verdict(v, "files")
	bad.Deep = "" // mcp-guard could not fingerprint it (a config through a link out of the repository)
	good := f.verdict(v, "docs")
	_, err := v.Record(context.Background(), trust.DecisionApproved, []trust.GateVerdict{good, bad})
	var r *Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Msg, "could not fingerprint") {
		t.Fatalf("error %v", err)
	}
	v = f.view()
	if f.approvedInStore(v, "files") || f.verdict(v, "docs").State != trust.StateUnreviewed {
		t.Error("part of a refused request was recorded")
	}
	if _, err := v.SelectTargets([]string{"docs", "nosuch"}, "", trust.DecisionApproved); err == nil {
		t.Error("SelectTargets took an unknown name")
	}
}

func TestDeclinedHTTPServerDoesNotDeadEnd(t *testing.T) {
	f := newFixture(t, twoServers)
	v := f.view()
	out, err := v.Record(context.Background(), trust.DecisionDeclined, []trust.GateVerdict{f.verdict(v, "docs")})
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].StillRuns {
		t.Errorf("declined http: StillRuns false: %+v", out[0])
	}
	if _, err := v.Record(context.Background(), trust.DecisionApproved, []trust.GateVerdict{f.verdict(v, "files")}); err != nil {
		t.Fatal(err)
	}
	v = f.view()
	if got := names(v.Blocking(true)); got != "" {
		t.Errorf("with the snapshot, blocking %q", got)
	}
	if got := names(v.Blocking(false)); got != "docs" {
		t.Errorf("without the snapshot, blocking %q, want docs (agentty would connect it)", got)
	}
	snap, err := v.Snapshot(client.Agentty)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(snap.Servers, " ") != "files" || strings.Join(snap.Left, " ") != "docs" {
		t.Errorf("snapshot holds %v, leaves %v", snap.Servers, snap.Left)
	}
}

func TestRenameKeepsTheReview(t *testing.T) {
	f := newFixture(t, twoServers)
	v := f.view()
	if _, err := v.Record(context.Background(), trust.DecisionApproved, v.Blocking(true)); err != nil {
		t.Fatal(err)
	}
	f.write(strings.Replace(twoServers, `"files":`, `"filesystem":`, 1))
	v = f.view()
	gv := f.verdict(v, "filesystem")
	if gv.State != trust.StateReviewed || gv.Blocks || gv.RenamedFrom != "files" {
		t.Errorf("renamed server: state %s blocks %v from %q", gv.State, gv.Blocks, gv.RenamedFrom)
	}
	// A rename that also changes what runs is a new version.
	f.write(strings.Replace(twoServers, `"files":{"command":"/bin/echo","args":["files"]}`, `"filesystem":{"command":"/bin/echo","args":["evil"]}`, 1))
	if gv := f.verdict(f.view(), "filesystem"); !gv.Blocks {
		t.Errorf("renamed and changed: %+v", gv)
	}
}

func TestSnapshot(t *testing.T) {
	f := newFixture(t, `{"mcpServers":{"a":{"command":"/bin/echo","args":["a\u0000b",8080],"env":{"X":"1"}},"b":{"command":"/bin/true"},"off":{"command":"/bin/false","disabled":true}}}`)
	v := f.view()
	if _, err := v.Record(context.Background(), trust.DecisionApproved, []trust.GateVerdict{f.verdict(v, "a")}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Record(context.Background(), trust.DecisionDeclined, []trust.GateVerdict{f.verdict(v, "b")}); err != nil {
		t.Fatal(err)
	}
	v = f.view()
	snap, err := v.Snapshot(client.Agentty)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(snap.Servers, " ") != "a" || strings.Join(snap.Left, " ") != "b off" {
		t.Errorf("snapshot holds %v, leaves %v", snap.Servers, snap.Left)
	}
	fi, err := os.Stat(snap.Path)
	if err != nil || fi.Mode().Perm() != 0o600 || !strings.HasPrefix(snap.Path, filepath.Join(f.home, ".local", "state", "mcp-guard", "launch")) {
		t.Fatalf("snapshot file %s: %v %v", snap.Path, fi, err)
	}
	data, _ := os.ReadFile(snap.Path)
	got := trust.Parse(snap.Path, data, trust.ScopeExplicit)
	want := v.In.Config.Server("a")
	if !got.Valid() || len(got.Servers) != 1 || got.Servers[0].Canonical() != want.Canonical() ||
		strings.Join(got.Servers[0].SpawnArgs(), "|") != strings.Join(want.SpawnArgs(), "|") {
		t.Errorf("snapshot reads back as %s", data)
	}
	again, err := v.Snapshot(client.Agentty)
	if err != nil || again.Path != snap.Path {
		t.Errorf("second snapshot %v %v", again, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(snap.Path))
	if len(entries) != 1 {
		t.Errorf("%d files in the snapshot directory, want 1", len(entries))
	}
}

// TestRecordWithoutHome: with no home directory the hint says to set one,
// and the error does not repeat the ledger warning's words (issue 14:
// "fix or move the ledger", printed twice).
func TestRecordWithoutHome(t *testing.T) {
	f := newFixture(t, twoServers)
	f.env.Getenv = func(string) string { return "" }
	v := f.view()
	if !errors.Is(v.Ledger.Err, trust.ErrNoHome) || !strings.Contains(v.Ledger.Err.Error(), "no review ledger") {
		t.Fatalf("ledger error %v, want one about the ledger that is ErrNoHome", v.Ledger.Err)
	}
	_, err := v.Record(context.Background(), trust.DecisionApproved, v.Blocking(true))
	var fl *Failure
	if !errors.As(err, &fl) {
		t.Fatalf("%v, want a *Failure", err)
	}
	if !strings.Contains(fl.Hint, "set HOME (or MCP_GUARD_HOME)") || strings.Contains(fl.Hint, "fix or move") {
		t.Errorf("hint %q", fl.Hint)
	}
	if strings.Contains(fl.Err.Error(), v.Ledger.Err.Error()) {
		t.Errorf("error %q repeats the warning %q", fl.Err, v.Ledger.Err)
	}
}

// agentty's servers are refused by the one rule every agent's are, in
// the words its client gives: the plain name the user typed, the reason
// said once.
func TestAgenttyRefusalInItsClientsWords(t *testing.T) {
	f := newFixture(t, `{"mcpServers":{"files":{"command":"/bin/echo","args":["files"]},"off":{"command":"/bin/echo","disabled":true}}}`)
	v := f.view()
	_, err := v.SelectTargets([]string{"off"}, "", trust.DecisionApproved)
	if err == nil || !strings.Contains(err.Error(), `"off": disabled: agentty does not start it`) {
		t.Errorf("approving a disabled server: %v", err)
	}
	bad := f.verdict(v, "files")
	bad.Deep = ""
	cs := AgenttyEntry(&bad, v.Config)
	got := cs.refusal("files", trust.DecisionApproved)
	if want := `"files": mcp-guard could not fingerprint what it runs (what it runs could not be read)`; got != want {
		t.Errorf("refusal %q, want %q", got, want)
	}
	if p := AgenttyEntry(&bad, v.Config).refusal("files", trust.DecisionDeclined); strings.Count(p, "fingerprint") != 1 {
		t.Errorf("declining: %q", p)
	}
}
