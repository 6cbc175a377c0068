package fidelity

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The pinned Codex. Re-observe every scenario (go test ./fidelity -run TestCodex -update) before changing it.
var codexCLI = &pinned{pkg: "@openai/codex", version: "0.169.0", cache: "codex", bin: "codex",
	banner: "codex-cli 0.169.0", env: func(home string) []string {
		_ = os.MkdirAll(filepath.Join(home, ".codex"), 0o755) // Codex warns when CODEX_HOME is missing
		return isolatedEnv(home, codexEnv(home))
	}}

const codexKeyVar = "FIDELITY_OPENAI_KEY"

func codexEnv(home string) map[string]string {
	return map[string]string{"CODEX_HOME": filepath.Join(home, ".codex"), codexKeyVar: "sk-fidelity-dummy",
		"OPENAI_API_KEY": "sk-fidelity-dummy"}
}

// codexBase starts every run's ~/.codex/config.toml, before the scenario's
// own keys and tables: a model provider on the fake endpoint, no update
// check, no plugin sync (it reaches github.com and chatgpt.com), no
// analytics. It opens no table (dotted keys only), so the scenario's
// own part may start with top-level keys of its own (notify).
const (
	codexBase = "# fidelity: the fake provider\n"
	codexOwn  = "# fidelity: the scenario's own\n"
)

var codex = &agent{
	id: "codex", title: "Codex", cli: codexCLI,
	command: func(m mode, args []string) []string {
		switch m {
		case headless:
			return append([]string{"exec", "--color", "never", "say ok"}, args...)
		case tui:
			return args
		}
		return append([]string{"mcp", "list"}, args...)
	},
	tui: &agentTUI{ready: []string{"? for shortcuts", "Ask Codex"}, dialogs: []string{"Hooks need review"}},
	prepare: func(s *sandbox, api *fakeModel) map[string]string {
		path := filepath.Join(s.home, ".codex", "config.toml")
		user, err := os.ReadFile(path)
		if err != nil && !os.IsNotExist(err) {
			s.t.Fatal(err)
		}
		if _, own, ok := strings.Cut(string(user), codexOwn); ok {
			user = []byte(own) // a second run: the endpoint is new
		}
		{
			base := codexBase + fmt.Sprintf(`model = "gpt-5-fidelity"
model_provider = "fidelity"
check_for_update_on_startup = false
model_providers.fidelity.name = "fidelity"
model_providers.fidelity.base_url = %s
model_providers.fidelity.env_key = %q
model_providers.fidelity.wire_api = "responses"
features.plugins = false
analytics.enabled = false

`, strconv.Quote(api.URL+"/v1"), codexKeyVar) + codexOwn
			s.write(path, base+string(user))
		}
		return codexEnv(s.home)
	},
	install: "about 400 MB, 19-25 s",
	method: "Method: as for Claude Code, a fresh HOME and `CODEX_HOME`, a scratch git repository whose " +
		"`.codex/config.toml` names marker servers, and no real network (a model provider in the user " +
		"config.toml with `base_url` on a fake OpenAI Responses endpoint on 127.0.0.1 and a dummy key, the " +
		"proxy refusing every other host; a run fails if Codex tries one). Codex gives its servers a minimal " +
		"environment, so each marker server is told its marker directory in its `env` table. \"-p\" runs " +
		"`codex exec` (package `client`'s `Headless`), \"list\" runs `codex mcp list`, \"tui\" runs the " +
		"interactive client in tmux (`Interactive`), types \"say ok\" once its composer has shown for 8 s with no " +
		"dialog over it and waits 10 s past the model's answer, or at \"Hooks need review\" types nothing and waits 10 s " +
		"(it asks raw.githubusercontent.com for an announcement in the background, refused). \"Contract\" is " +
		"the earlier observations package `client` models (clients-observed.md, Codex CLI 0.169.0).",
}

// codexServer is a [mcp_servers.<name>] table that runs the marker as name.
func (s *sandbox) codexServer(name string, args ...string) string {
	return s.codexTable(name, s.marker, append([]string{markerFlag, name}, args...), "")
}

// codexTable is a [mcp_servers.<name>] table; extra is more TOML lines.
func (s *sandbox) codexTable(name, command string, args []string, extra string) string {
	var q []string
	for _, a := range args {
		q = append(q, strconv.Quote(a))
	}
	return fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [%s]\nenv = { MARKER_DIR = %s }\n%s\n",
		strconv.Quote(name), strconv.Quote(command), strings.Join(q, ", "), strconv.Quote(s.liveMarkers()), extra)
}

// codex writes <dir>/.codex/config.toml holding a marker server for each name.
func (s *sandbox) codex(dir string, names ...string) {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(s.codexServer(n))
	}
	s.write(filepath.Join(dir, ".codex", "config.toml"), b.String())
}

// trustCodex writes the user config.toml's trust entries for these paths
// (relative to the repository unless absolute), plus extra TOML.
func (s *sandbox) trustCodex(extra string, paths ...string) {
	var b strings.Builder
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.repo, p)
		}
		fmt.Fprintf(&b, "[projects.%s]\ntrust_level = \"trusted\"\n\n", strconv.Quote(filepath.Clean(p)))
	}
	s.write("~/.codex/config.toml", b.String()+extra)
}

func TestCodex(t *testing.T) { testSuite(t, codex) }

func codexScenarios() []agentScenario {
	return []agentScenario{
		{
			name:     "untrusted/-p",
			contract: "`codex exec`, no trust entry: the project .codex/config.toml is not loaded",
			mode:     headless,
			setup:    func(s *sandbox) { s.codex("", "db") },
		},
		{
			name:     "trust-level-untrusted/-p",
			contract: "trust_level = \"untrusted\": not loaded",
			mode:     headless,
			setup: func(s *sandbox) {
				s.codex("", "db")
				s.write("~/.codex/config.toml", fmt.Sprintf("[projects.%s]\ntrust_level = \"untrusted\"\n", strconv.Quote(s.repo)))
			},
		},
		{
			name:     "trusted/-p",
			contract: "`[projects.\"<realpath>\"] trust_level = \"trusted\"` loads it: the server spawns",
			mode:     headless,
			setup:    func(s *sandbox) { s.codex("", "db"); s.trustCodex("", "") },
			want:     []string{"db"},
		},
		{
			name:      "trusted/list",
			contract:  "`codex mcp list` never spawns (no health check), trusted or not",
			setup:     func(s *sandbox) { s.codex("", "db"); s.trustCodex("", "") },
			check:     says(markerFlag), // listed, with its args, but not started
			noPredict: "`codex mcp list` starts nothing; `Interactive` is the TUI, which runs a trusted project's servers",
		},
		{
			name: "layers/-p",
			contract: "from repo/a/b, root trusted: layers from cwd up to the git root, not above; the nearest " +
				"wins on a clash",
			mode: headless,
			dir:  "a/b",
			setup: func(s *sandbox) {
				s.write(filepath.Join(s.outer, ".codex", "config.toml"), s.codexServer("outersrv"))
				s.write(".codex/config.toml", s.codexServer("rootsrv")+s.codexServer("shared", "from-root"))
				s.write("a/b/.codex/config.toml", s.codexServer("subsrv")+s.codexServer("shared", "from-ab"))
				s.trustCodex("", "")
			},
			want: []string{"rootsrv", "shared", "subsrv"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["shared"][0]; !slices.Contains(r.Argv, "from-ab") {
					t.Errorf("shared came from the wrong layer: %q", r.Argv)
				}
			},
		},
		{
			name:     "trust-above-root/-p",
			contract: "trusting only the parent of the git root loads nothing",
			mode:     headless,
			setup:    func(s *sandbox) { s.codex("", "db"); s.trustCodex("", s.outer) },
		},
		{
			name:     "trust-subdir-only/-p",
			contract: "trusting only repo/a/b (launched there) loads the a/b layer but not the root's",
			mode:     headless,
			dir:      "a/b",
			setup: func(s *sandbox) {
				s.codex("", "rootsrv")
				s.codex("a/b", "subsrv")
				s.trustCodex("", "a/b")
			},
			want: []string{"subsrv"},
		},
		{
			name:     "symlink-realpath/-p",
			contract: "launched through a symlink to the repository: trust stored for the real path holds",
			mode:     headless,
			dir:      "../../link",
			setup: func(s *sandbox) {
				s.codex("", "db")
				s.trustCodex("", "")
				s.link()
			},
			want: []string{"db"},
		},
		{
			name:     "symlink-linkpath/-p",
			contract: "launched through a symlink: a trust entry stored under the link's path is ignored",
			mode:     headless,
			dir:      "../../link",
			setup: func(s *sandbox) {
				s.codex("", "db")
				s.trustCodex("", s.link())
			},
		},
		{
			name:     "user-enabled-false/-p",
			contract: "a per-key merge: a user `[mcp_servers.db] enabled = false` disables the project's `db`",
			mode:     headless,
			setup: func(s *sandbox) {
				s.codex("", "db", "other")
				s.trustCodex("[mcp_servers.db]\nenabled = false\n", "")
			},
			want: []string{"other"},
		},
		{
			name:     "swap-trusted/-p",
			contract: "binding is the project path only: a changed command, env and args under `db` spawn",
			mode:     headless,
			setup:    func(s *sandbox) { s.codex("", "db"); s.trustCodex("", "") },
			swap: func(s *sandbox) {
				s.write(".codex/config.toml", strings.Replace(s.codexTable("db", "/bin/sh", s.swapArgs(), ""),
					"env = { MARKER_DIR", "env = { FOO = \"injected\", MARKER_DIR", 1))
				s.commit()
			},
			want:  []string{"db"},
			check: checkSwapped,
		},
		{
			name:     "dialect-empty/-p",
			contract: "a 0-byte .codex/config.toml in repo/a is an empty layer: launched there, the root's servers still spawn",
			mode:     headless,
			dir:      "a",
			setup: func(s *sandbox) {
				s.codex("", "db")
				s.write("a/.codex/config.toml", "")
				s.trustCodex("", "")
			},
			want: []string{"db"},
		},
		{
			name:     "dialect-duplicate-key/-p",
			contract: "a duplicate key is a TOML parse error: the whole run aborts (\"Error loading config.toml\"), nothing spawns",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", s.codexServer("other")+strings.Replace(s.codexServer("db"),
					"command = ", "command = \"/bin/false\"\ncommand = ", 1))
				s.trustCodex("", "")
			},
			fails: true,
			check: says("Error loading config.toml"),
		},
		{
			name:     "dialect-duplicate-table/-p",
			contract: "a duplicate table aborts the run too",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", s.codexServer("other")+s.codexServer("db")+s.codexServer("db"))
				s.trustCodex("", "")
			},
			fails: true,
			check: says("Error loading config.toml"),
		},
		{
			name:     "dialect-no-command/-p",
			contract: "a sibling server with no command is fatal (\"invalid transport\"): nothing spawns",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", s.codexServer("other")+"[mcp_servers.broken]\nargs = [\"x\"]\n")
				s.trustCodex("", "")
			},
			fails: true,
			check: says("invalid transport"),
		},
		{
			name:     "dialect-comments-bom/-p",
			contract: "`#` comments are fine and a UTF-8 BOM is accepted",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", "\uFEFF# a comment\n"+s.codexServer("db"))
				s.trustCodex("", "")
			},
			want: []string{"db"},
		},
		{
			name:     "dialect-other-keys/-p",
			contract: "`[servers.*]` and `[mcpServers.*]` are ignored (\"unrecognized configuration settings\")",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", strings.Replace(s.codexServer("db"), "[mcp_servers.", "[servers.", 1)+
					strings.Replace(s.codexServer("other"), "[mcp_servers.", "[mcpServers.", 1))
				s.trustCodex("", "")
			},
		},
		{
			name:     "dialect-non-string-arg/-p",
			contract: "a non-string arg is fatal (\"invalid type\"): nothing spawns, not even its siblings",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", s.codexServer("other")+strings.Replace(s.codexServer("db"),
					"args = [", "args = [42, ", 1))
				s.trustCodex("", "")
			},
			fails: true,
			check: says("invalid type"),
		},
		{
			name:     "dialect-no-interpolation/-p",
			contract: "no interpolation: `${VAR}` and `$VAR` reach the server literally, in args and env",
			mode:     headless,
			env:      map[string]string{"FID_X": "expanded"},
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", strings.Replace(s.codexServer("db", "${FID_X}", "$FID_X"),
					"env = { ", "env = { FID_E = \"${FID_X}\", ", 1))
				s.trustCodex("", "")
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				r := o.spawned["db"][0]
				if !slices.Equal(r.Argv, []string{"db", "${FID_X}", "$FID_X"}) || r.Env["FID_E"] != "${FID_X}" {
					t.Errorf("marker argv %q env FID_E=%q; want the literal ${FID_X}", r.Argv, r.Env["FID_E"])
				}
			},
		},
		{
			name:     "env-minimal/-p",
			contract: "server env is minimal (HOME, PATH, …) plus `env`; `env_vars = [\"X\"]` forwards X",
			mode:     headless,
			env:      map[string]string{"FOO": "parent", "FID_PARENT": "p", "FID_FWD": "fwd"},
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", strings.Replace(s.codexTable("db", s.marker, []string{markerFlag, "db"},
					"env_vars = [\"FID_FWD\"]"), "env = { ", "env = { FID_SET = \"set\", ", 1))
				s.trustCodex("", "")
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				got := o.spawned["db"][0].Env
				want := map[string]string{"FID_SET": "set", "FID_FWD": "fwd"}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("server env (FOO and FID_*) %v, want %v", got, want)
				}
			},
		},
		{
			name:     "dotenv-project/-p",
			contract: "a project `.env` (in the launch directory, the git root) setting FID_FWD, which the server forwards with `env_vars`, and CODEX_HOME: does Codex load it?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", s.codexTable("db", s.marker, []string{markerFlag, "db"}, "env_vars = [\"FID_FWD\"]"))
				s.write(".env", "FID_FWD=from-project-dotenv\nCODEX_HOME="+filepath.Join(s.repo, "evil-home")+"\n")
				s.trustCodex("", "")
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if got := o.spawned["db"][0].Env["FID_FWD"]; got != "" {
					t.Errorf("the project .env reached Codex: FID_FWD=%q", got)
				}
			},
			open:   true,
			answer: "No: Codex does not read a project `.env`; the variable never reaches it (CODEX_HOME from one cannot move its home).",
		},
		{
			name:     "dotenv-codex-home/-p",
			contract: "`$CODEX_HOME/.env` (the user's own) setting FID_FWD: does Codex load it (the control for dotenv-project)?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", s.codexTable("db", s.marker, []string{markerFlag, "db"}, "env_vars = [\"FID_FWD\"]"))
				s.write("~/.codex/.env", "FID_FWD=from-codex-home\n")
				s.trustCodex("", "")
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if got := o.spawned["db"][0].Env["FID_FWD"]; got != "from-codex-home" {
					t.Errorf("FID_FWD=%q: Codex did not load $CODEX_HOME/.env", got)
				}
			},
			open:   true,
			answer: "Yes: Codex loads `$CODEX_HOME/.env` into its own environment at start (the user's file, not the repository's).",
		},
	}
}
