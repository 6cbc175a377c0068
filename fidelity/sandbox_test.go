package fidelity

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/npmcache"
)

// sandbox is one scenario's world: a fresh HOME, a directory above the
// repository (for the walk-up), a scratch git repository and marker dirs.
type sandbox struct {
	t                  *testing.T
	home, outer, repo  string
	marker, markerRoot string
	runs               int
	// vettedPath: runs exec the argv `mcp-guard launch -- claude` builds
	// (launch_test.go); settingsPath: with the settings handoff too.
	vettedPath, settingsPath string
	// otherAPI, when a scenario starts one, is a second model endpoint
	// the repository's settings point Claude Code at.
	otherAPI *fakeAPI
	// fails: runs are to stop with an error before any model request
	// (scenario.fails).
	fails bool
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &sandbox{t: t, home: filepath.Join(root, "home"), outer: filepath.Join(root, "outer"),
		repo: filepath.Join(root, "outer", "repo"), marker: exe, markerRoot: filepath.Join(root, "markers")}
	for _, d := range []string{s.home, s.repo, s.markerRoot} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.git("init", "-q", "-b", "main")
	return s
}

func (s *sandbox) git(args ...string) {
	s.t.Helper()
	env := isolatedEnv(s.home, map[string]string{"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "f", "GIT_AUTHOR_EMAIL": "f@example.invalid",
		"GIT_COMMITTER_NAME": "f", "GIT_COMMITTER_EMAIL": "f@example.invalid"})
	if out, err := runBounded(time.Minute, s.repo, env, "git", args...); err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// write puts v (a string, or JSON for anything else) at path, which is
// relative to the repository unless it starts with "~/" (the HOME).
func (s *sandbox) write(path string, v any) {
	s.t.Helper()
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		path = filepath.Join(s.home, rest)
	} else if !filepath.IsAbs(path) {
		path = filepath.Join(s.repo, path)
	}
	data, ok := v.(string)
	if !ok {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			s.t.Fatal(err)
		}
		data = string(b)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

type obj = map[string]any

// server is a stdio server entry that runs the marker as <name>.
func (s *sandbox) server(name string, args ...string) obj {
	return obj{"command": s.marker, "args": append([]string{markerFlag, name}, args...)}
}

// raw is a server entry's JSON text, for configs written by hand.
func (s *sandbox) raw(name string, args ...string) string {
	b, err := json.Marshal(s.server(name, args...))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// mcp writes <dir>/.mcp.json holding a marker server for each name.
func (s *sandbox) mcp(dir string, names ...string) {
	servers := obj{}
	for _, n := range names {
		servers[n] = s.server(n)
	}
	s.write(filepath.Join(dir, ".mcp.json"), obj{"mcpServers": servers})
}

// claudeJSON writes ~/.claude.json with one project entry for the git
// root's real path (the key Claude Code uses).
func (s *sandbox) claudeJSON(project obj) {
	s.write("~/.claude.json", obj{"projects": obj{s.repo: project}})
}

func (s *sandbox) trust() { s.claudeJSON(obj{"hasTrustDialogAccepted": true}) }

// commit commits the repository as it is, so committed files are committed.
func (s *sandbox) commit() {
	s.git("add", "-A")
	s.git("commit", "-q", "--allow-empty", "-m", "scenario")
}

// outcome is what one client run did.
type outcome struct {
	spawned map[string][]record
	output  string
	api     int               // model requests answered (headless)
	tools   []string          // tools offered to the model (headless)
	status  map[string]string // headless: the init event's mcp_servers, name → status
	refused []string          // requests for other hosts the proxy refused
	seen    []bool            // per model request: did it hold needleVar's text
	left    int               // steps (stepsVar) the model never got to make
}

// mode is how a scenario runs the client.
type mode int

const (
	list     mode = iota // claude mcp list: its health check spawns what it would run
	headless             // claude -p against the fake endpoint
	tui                  // the interactive client in tmux
)

// promptVar in a scenario's env is the prompt of its headless run.
const promptVar = "FID_PROMPT"

// subagentVar in a scenario's env names the subagent the fake model's
// first answer runs (fakeAPI.subagent).
const subagentVar = "FID_SUBAGENT"

// holdVar in a scenario's env is how long the fake model holds each of
// the subagent's requests (fakeAPI.hold), a Go duration.
const holdVar = "FID_SUBAGENT_HOLD"

// stepsVar in a scenario's env is the JSON list of tool calls the fake
// model's session makes (fakeAPI.steps); needleVar a text whose presence
// in each request's body the endpoint records (outcome.seen).
const (
	stepsVar  = "FID_STEPS"
	needleVar = "FID_NEEDLE"
)

// run runs the client once in repo/<dir> (see mode); the model endpoint
// is always the fake one on 127.0.0.1.
func (s *sandbox) run(bin string, m mode, dir string, args []string, env map[string]string) outcome {
	s.t.Helper()
	s.runs++
	markers := filepath.Join(s.markerRoot, fmt.Sprint(s.runs))
	if err := os.MkdirAll(markers, 0o755); err != nil {
		s.t.Fatal(err)
	}
	// FID_BIN lets a config name the marker through ${FID_BIN}.
	extra := map[string]string{"MARKER_DIR": markers, "FID_BIN": s.marker}
	for k, v := range env {
		if rest, ok := strings.CutPrefix(v, "~/"); ok {
			v = filepath.Join(s.home, rest) // the HOME, as in args
		}
		extra[k] = v
	}
	args = slices.Clone(args)
	for i, a := range args {
		if rest, ok := strings.CutPrefix(a, "~/"); ok {
			args[i] = filepath.Join(s.home, rest)
		}
	}
	argv := append([]string{"mcp", "list"}, args...)
	api := newFakeAPI(s.t)
	api.subagent = env[subagentVar]
	if js := env[stepsVar]; js != "" {
		if err := json.Unmarshal([]byte(js), &api.steps); err != nil {
			s.t.Fatalf("%s: %v", stepsVar, err)
		}
	}
	api.needle = env[needleVar]
	if h := env[holdVar]; h != "" {
		d, err := time.ParseDuration(h)
		if err != nil {
			s.t.Fatalf("%s: %v", holdVar, err)
		}
		api.hold = d
	}
	for _, k := range []string{"ANTHROPIC_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
		extra[k] = api.URL
	}
	switch m {
	case headless:
		prompt := "say ok"
		if p := env[promptVar]; p != "" {
			prompt = p // a scenario's own prompt (a skill's slash command)
		}
		argv = append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose"}, args...)
	case tui:
		argv = args
	}
	argv = s.launchArgv(argv)
	launch := filepath.Join(s.repo, dir)
	if err := os.MkdirAll(launch, 0o755); err != nil {
		s.t.Fatal(err)
	}
	extra["PWD"] = launch // as a shell sets it, symlinks kept
	var out []byte
	var err error
	if m == tui {
		out, err = s.runTUI(launch, isolatedEnv(s.home, extra), markers, bin, argv...)
	} else {
		out, err = runBounded(90*time.Second, launch, isolatedEnv(s.home, extra), bin, argv...)
	}
	switch {
	case err != nil && (!s.fails || errors.Is(err, npmcache.ErrTimedOut)):
		s.t.Fatalf("claude %s: %v\n%s", strings.Join(argv, " "), err, out)
	case err == nil && s.fails:
		s.t.Errorf("claude %s exited 0; the scenario says it stops with an error\n%s", strings.Join(argv, " "), out)
	}
	got, err := readMarkers(markers)
	if err != nil {
		s.t.Fatal(err)
	}
	o := outcome{spawned: got, output: string(out)}
	var other []string
	o.api, o.tools, other, o.refused = api.snapshot()
	api.mu.Lock()
	o.seen, o.left = slices.Clone(api.seen), len(api.steps)
	api.mu.Unlock()
	switch {
	case m == headless && s.fails:
		if o.api > 0 {
			s.t.Errorf("claude -p asked the model although the scenario says the run stops first")
		}
	case m == headless:
		o.status = initStatus(o.output)
		if o.api == 0 && (s.otherAPI == nil || s.otherAPI.messages == 0) {
			s.t.Fatalf("claude -p never asked the fake endpoint (other requests: %v); output:\n%s", other, out)
		}
	}
	return o
}

// initStatus reads the MCP server statuses from the init event of
// `--output-format stream-json` output.
func initStatus(out string) map[string]string {
	st := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		var ev struct {
			Type, Subtype string
			MCPServers    []struct{ Name, Status string } `json:"mcp_servers"`
		}
		if json.Unmarshal([]byte(l), &ev) == nil && ev.Type == "system" && ev.Subtype == "init" {
			for _, m := range ev.MCPServers {
				st[m.Name] = m.Status
			}
		}
	}
	return st
}
