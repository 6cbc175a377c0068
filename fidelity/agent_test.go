package fidelity

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// agent is a client other than Claude Code held against the contract
// (clients-observed.md, the observations package client models): how to run it once and what
// mcp-guard calls it.
type agent struct {
	id, title string // mcp-guard's client ID; the client's name
	cli       *pinned
	// command is the argv of one run (mode list, headless or tui).
	command func(m mode, args []string) []string
	// tui drives the interactive client (mode tui); nil: not driven.
	tui *agentTUI
	// prepare writes the user configuration every run needs (the fake
	// endpoint, no updater or telemetry) beside the scenario's own, and
	// returns the run's extra environment.
	prepare func(s *sandbox, api *fakeModel) map[string]string
	method  string // the doc section's method paragraph
	install string // the cold install, as measured: "about 100 MB, 18 s"
	// timeout bounds one run when the client needs longer than
	// agentTimeout (0: agentTimeout).
	timeout time.Duration
}

// agentScenario is one observation of an agent: a world, one run, and the
// set of servers the contract says spawn.
type agentScenario struct {
	name     string
	contract string // the fact held, in the contract's words
	mode     mode   // list, headless or tui
	dir      string // launch directory, relative to the repository
	args     []string
	env      map[string]string
	setup    func(s *sandbox)
	swap     func(s *sandbox) // if set: run, assert, swap, run again
	want     []string
	// fails: the contract says the run stops with an error before any
	// model request.
	fails bool
	check func(t *testing.T, s *sandbox, o outcome)
	// open: no contract answer; want is what the pinned version was observed to do.
	open   bool
	answer string
	// contractSays, with differs, marks a fact the real client contradicts:
	// the contract's set is contractSays, want is what was observed, and
	// differs says what the observation means.
	contractSays []string
	differs      string
	// noPredict says why mcp-guard's prediction does not apply, empty when it does.
	noPredict string
	// again are markers that may start more than once in the run (a
	// command run once per turn), which check then holds.
	again []string
	// overcounts are what mcp-guard counts as running though this run did
	// not start it, kept broad on purpose; overcountsWhy says why.
	overcounts    []string
	overcountsWhy string
	// settle is how long past the client's exit its markers may still
	// appear (a command it starts and does not wait for): 0, none.
	settle time.Duration
}

// agentPredictors are mcp-guard's answers by client ID, set where package
// client models the client (predict_clients2_test.go); absent: not wired.
var agentPredictors = map[string]func(t *testing.T, launchDir string, env map[string]string, headless bool) map[string]bool{}

type agentRow struct {
	sc                 agentScenario
	observed, mcpGuard string
}

// agentSuite is a client testAgent holds, with its scenario table.
type agentSuite struct {
	a   *agent
	all []agentScenario
}

// agentSuites are the clients testAgent holds, each with its table (the
// one list of them): each client's test runs its own, and
// TestDocRowsAreScenarios holds docs/fidelity.md's sections against all.
func agentSuites() []agentSuite {
	return []agentSuite{
		{gemini, append(geminiScenarios(), geminiEntryScenarios()...)},
		{codex, slices.Concat(codexScenarios(), codexHookScenarios(), codexNotifyScenarios(), codexHookStateScenarios())},
		{opencode, opencodeScenarios()},
		{copilot, append(copilotScenarios(), copilotHookScenarios()...)},
		{qwen, append(qwenScenarios(), qwenServerCommandScenarios()...)},
	}
}

// testSuite runs a's table (agentSuites), beside the other clients' tests.
func testSuite(t *testing.T, a *agent) {
	t.Parallel()
	i := slices.IndexFunc(agentSuites(), func(s agentSuite) bool { return s.a == a })
	if i < 0 {
		t.Fatalf("%s is not in agentSuites", a.title)
	}
	testAgent(t, a, agentSuites()[i].all)
}

func testAgent(t *testing.T, a *agent, all []agentScenario) {
	bin := a.cli.get(t)
	start := time.Now()
	var mu sync.Mutex
	rows := map[string]agentRow{}
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range all {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				r := runAgentScenario(t, a, bin, sc)
				mu.Lock()
				rows[sc.name] = r
				mu.Unlock()
			})
		}
	})
	t.Logf("%d %s scenarios took %s", len(all), a.title, time.Since(start).Round(time.Millisecond))
	if t.Failed() || len(rows) != len(all) {
		return // a partial or failing run does not speak for the table
	}
	var table []agentRow
	for _, sc := range all {
		table = append(table, rows[sc.name])
	}
	checkDocSection(t, a.id, renderAgentDoc(a, table))
}

func runAgentScenario(t *testing.T, a *agent, bin string, sc agentScenario) agentRow {
	s := newSandbox(t)
	if sc.setup != nil {
		sc.setup(s)
	}
	s.commit()
	o, env := s.runAgent(a, bin, sc)
	if sc.swap != nil {
		if got := names(o.spawned); !slices.Equal(got, sortedCopy(sc.want)) {
			t.Fatalf("before the swap: spawned %v, want %v\n%s", got, sc.want, o.output)
		}
		sc.swap(s)
		o, env = s.runAgent(a, bin, sc)
	}
	got, want := names(o.spawned), sortedCopy(sc.want)
	if !slices.Equal(got, want) {
		what := "the contract"
		if sc.open || sc.differs != "" {
			what = "what " + a.cli.version + " was observed to do"
		}
		t.Errorf("%s\nspawned %v, %s says %v\n%s", sc.contract, got, what, want, o.output)
	}
	for n, recs := range o.spawned {
		if len(recs) != 1 && !slices.Contains(sc.again, n) {
			t.Errorf("%s started %d times, want once", n, len(recs))
		}
	}
	if sc.check != nil && !t.Failed() {
		sc.check(t, s, o)
	}
	switch {
	case len(o.refused) > 0 && sc.mode == tui:
		// Interactive Codex fetches an announcement from
		// raw.githubusercontent.com in the background; the proxy refuses it.
		t.Logf("refused network requests: %v", o.refused)
	case len(o.refused) > 0:
		t.Errorf("%s tried the network past the isolation (refused by the proxy): %v", a.title, o.refused)
	}
	return agentRow{sc: sc, observed: setString(got), mcpGuard: s.compareAgent(t, a, sc, env, got)}
}

// runAgent runs the agent once in repo/<dir>. A run the scenario does not
// expect to fail must exit 0 and, headless, ask the fake endpoint. It
// returns the run's whole environment too.
func (s *sandbox) runAgent(a *agent, bin string, sc agentScenario) (outcome, map[string]string) {
	s.t.Helper()
	s.runs++
	// One fixed marker directory, emptied per run: a client that gives its
	// servers a minimal environment (Codex) is told it in each server's env.
	markers := s.liveMarkers()
	if err := os.RemoveAll(markers); err != nil {
		s.t.Fatal(err)
	}
	if err := os.MkdirAll(markers, 0o755); err != nil {
		s.t.Fatal(err)
	}
	api := newFakeModel(s.t)
	extra := a.prepare(s, api)
	extra["MARKER_DIR"], extra["FID_BIN"] = markers, s.marker
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
		extra[k] = api.URL
	}
	for k, v := range sc.env {
		extra[k] = v
	}
	launch := filepath.Join(s.repo, sc.dir)
	if err := os.MkdirAll(launch, 0o755); err != nil {
		s.t.Fatal(err)
	}
	extra["PWD"] = launch
	argv := a.command(sc.mode, sc.args)
	began := time.Now()
	environ := isolatedEnv(s.home, extra)
	limit := agentTimeout
	if a.timeout > 0 {
		limit = a.timeout
	}
	var out []byte
	var err error
	if sc.mode == tui {
		out, err = s.runAgentTUI(a, launch, environ, bin, argv, api)
	} else {
		out, err = runBounded(limit, launch, environ, bin, argv...)
	}
	took := time.Since(began)
	switch {
	case err != nil && strings.Contains(err.Error(), "timed out"):
		n, _, other, refused := api.snapshot()
		s.t.Fatalf("%s %s: %v (model requests %d, other %v, refused %v)\n%s", a.cli.bin, strings.Join(argv, " "), err, n, other, refused, out)
	case err != nil && !sc.fails:
		s.t.Fatalf("%s %s: %v\n%s", a.cli.bin, strings.Join(argv, " "), err, out)
	case err == nil && sc.fails:
		s.t.Errorf("%s %s exited 0; the contract says it stops with an error\n%s", a.cli.bin, strings.Join(argv, " "), out)
	}
	s.t.Logf("run %d: %s in %s", s.runs, strings.Join(argv, " "), took.Round(time.Millisecond))
	time.Sleep(sc.settle)
	got, rerr := readMarkers(markers)
	if rerr != nil {
		s.t.Fatal(rerr)
	}
	o := outcome{spawned: got, output: string(out)}
	var other []string
	o.api, o.tools, other, o.refused = api.snapshot()
	if sc.mode == headless && !sc.fails && o.api == 0 {
		s.t.Fatalf("%s never asked the fake endpoint (other requests: %v); output:\n%s", a.cli.bin, other, out)
	}
	if sc.fails && o.api > 0 {
		s.t.Errorf("%s asked the model although the contract says the run stops first", a.cli.bin)
	}
	env := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return o, env
}

// agentTimeout bounds one client run: a bound against a hang, not a
// measure (Gemini CLI ran past a 1-minute bound at load 40 on 2 CPUs).
var agentTimeout = 3 * time.Minute

func (s *sandbox) liveMarkers() string { return filepath.Join(s.markerRoot, "live") }

// compareAgent holds mcp-guard's prediction against what spawned.
func (s *sandbox) compareAgent(t *testing.T, a *agent, sc agentScenario, env map[string]string, got []string) string {
	p := agentPredictors[a.id]
	switch {
	case sc.noPredict != "":
		return "n/a: " + sc.noPredict
	case p == nil:
		return "not wired yet"
	}
	var predicted []string
	for n, runs := range p(t, filepath.Join(s.repo, sc.dir), env, sc.mode == headless) {
		if runs {
			predicted = append(predicted, n)
		}
	}
	slices.Sort(predicted)
	if predicted == nil {
		predicted = []string{}
	}
	if want := sortedCopy(append(slices.Clone(got), sc.overcounts...)); !slices.Equal(predicted, want) {
		t.Errorf("mcp-guard predicts %v would run without asking; %s spawned %v (and mcp-guard is to count %v too)", predicted, a.title, got, sc.overcounts)
		return "**differs**: " + setString(predicted)
	}
	if len(sc.overcounts) > 0 {
		return "agrees; also counts " + setString(sc.overcounts) + ", " + sc.overcountsWhy
	}
	return "agrees"
}

func renderAgentDoc(a *agent, rows []agentRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", a.title)
	fmt.Fprintf(&b, "`go test ./fidelity -run Test%s -update` rewrites this section. Client: `%s@%s`, "+
		"installed from npm (%s cold) into its own cache beside Claude Code's (`%s-<version>`, or beside "+
		"`$MCP_GUARD_FIDELITY_CACHE`), `%s --version` = `%s`. The same skip rules hold.\n\n",
		strings.ReplaceAll(a.title, " ", ""), a.cli.pkg, a.cli.version, a.install, a.cli.cache, a.cli.bin, a.cli.banner)
	b.WriteString(a.method + "\n\n")
	b.WriteString("| Scenario | Fact held | Contract: spawns | Observed: spawns | mcp-guard |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		contract := setString(sortedCopy(r.sc.want))
		switch {
		case r.sc.open:
			contract = "open question"
		case r.sc.differs != "":
			contract = setString(sortedCopy(r.sc.contractSays)) + " (**the real CLI disagrees**)"
		}
		if r.sc.fails {
			contract += " (the run fails)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.sc.name, strings.ReplaceAll(r.sc.contract, "|", `\|`),
			contract, r.observed, r.mcpGuard)
	}
	var open []string
	for _, r := range rows {
		if r.sc.open {
			open = append(open, fmt.Sprintf("- %s: spawned %s. %s\n", r.sc.contract, r.observed, r.sc.answer))
		}
	}
	if len(open) > 0 {
		b.WriteString("\nOpen questions, as observed on " + a.cli.version + ":\n\n" + strings.Join(open, ""))
	}
	var differs []string
	for _, r := range rows {
		if r.sc.differs != "" {
			differs = append(differs, fmt.Sprintf("- %s: the contract says %s spawn; %s spawned %s. %s\n", r.sc.name,
				setString(sortedCopy(r.sc.contractSays)), a.cli.version, r.observed, r.sc.differs))
		}
	}
	if len(differs) > 0 {
		b.WriteString("\nWhere " + a.cli.version + " disagrees with the contract (the suite holds what it does):\n\n" + strings.Join(differs, ""))
	}
	return b.String()
}

// swapArgs are the args of a swapped `db` run by /bin/sh: the marker again,
// with --evil.
func (s *sandbox) swapArgs() []string {
	return []string{"-c", `exec "$0" ` + markerFlag + ` db --evil x`, s.marker}
}

// checkSwapped checks that `db` ran as swapped: --evil, and FOO=injected.
func checkSwapped(t *testing.T, s *sandbox, o outcome) {
	if r := o.spawned["db"][0]; !slices.Contains(r.Argv, "--evil") || r.Env["FOO"] != "injected" {
		t.Errorf("swapped db ran without the swapped args or env: %+v", r)
	}
}
