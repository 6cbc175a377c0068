package fidelity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The pinned OpenCode. Re-observe every scenario (go test ./fidelity -run TestOpenCode -update) before changing it.
var opencodeCLI = &pinned{pkg: "opencode-ai", version: "1.18.33", cache: "opencode", bin: "opencode",
	banner: "1.18.33", env: func(home string) []string { return isolatedEnv(home, opencodeEnv) }}

// opencodeEnv keeps OpenCode off the network: no updater, no models.dev.
var opencodeEnv = map[string]string{
	"OPENCODE_DISABLE_AUTOUPDATE":   "1",
	"OPENCODE_DISABLE_MODELS_FETCH": "1",
	"OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
}

var opencode = &agent{
	id: "opencode", title: "OpenCode", cli: opencodeCLI,
	command: func(m mode, args []string) []string {
		if m == headless {
			return append([]string{"run", "say ok"}, args...)
		}
		return append([]string{"mcp", "list"}, args...)
	},
	prepare: func(s *sandbox, api *fakeModel) map[string]string {
		s.write("~/.config/opencode/opencode.json", obj{
			"autoupdate": false, "share": "disabled", "model": "fake/m",
			"provider": obj{"fake": obj{"npm": "@ai-sdk/openai-compatible",
				"options": obj{"baseURL": api.URL + "/v1", "apiKey": "fidelity-dummy"},
				"models":  obj{"m": obj{"name": "m"}}}},
		})
		env := map[string]string{}
		for k, v := range opencodeEnv {
			env[k] = v
		}
		// OpenCode installs @opencode-ai/plugin into each config directory
		// it reads: from the fake endpoint, which answers 404.
		env["npm_config_registry"] = api.URL + "/"
		return env
	},
	install: "about 190 MB (one native binary), 20 s",
	timeout: 4 * time.Minute,
	method: "Method: a fresh HOME and XDG directories, a scratch git repository whose `opencode.json` " +
		"(or `.opencode/opencode.json`, `opencode.jsonc`) names marker servers as local entries " +
		"(`{\"type\": \"local\", \"command\": [marker, …]}`), a custom OpenAI-compatible provider in the user config " +
		"pointing at a fake model on 127.0.0.1, npm's registry pointed there too (OpenCode installs " +
		"`@opencode-ai/plugin` into each config directory), updater and models.dev fetch off, the proxy refusing " +
		"every other host. \"list\" runs `opencode mcp list` (which connects to every server it would start), " +
		"\"-p\" runs `opencode run \"say ok\"`. OpenCode has no approval: `client` predicts both alike. " +
		"\"Contract\" is docs/opencode.md.",
}

// ocEntry is a local OpenCode entry running the marker as name.
func (s *sandbox) ocEntry(name string, args ...string) obj {
	return obj{"type": "local", "command": append([]string{s.marker, markerFlag, name}, args...),
		"environment": obj{"MARKER_DIR": s.liveMarkers()}}
}

// opencodeConfig writes <path> with a local marker entry for each name.
func (s *sandbox) opencodeConfig(path string, names ...string) {
	servers := obj{}
	for _, n := range names {
		servers[n] = s.ocEntry(n)
	}
	s.write(path, obj{"mcp": servers})
}

func TestOpenCode(t *testing.T) { testSuite(t, opencode) }

// opencodeScenarios are few runs, each holding several facts: one run of
// OpenCode cost 15 s unloaded and up to 3 minutes on a loaded 2-core
// machine (the 8 took 6m48s there, 13 took 11m39s), and the package must
// stay inside go test's 10 minutes.
func opencodeScenarios() []agentScenario {
	return []agentScenario{
		{
			name:     "no-approval/-p",
			contract: "no approval: `opencode run` starts every enabled local server of opencode.json, with no prompt",
			mode:     headless,
			setup:    func(s *sandbox) { s.opencodeConfig("opencode.json", "db") },
			want:     []string{"db"},
		},
		{
			name: "layout/list",
			contract: "launched in repo/a: the root's opencode.json and .opencode/opencode.json are read, not one above the git top; " +
				"`enabled: false` keeps a server off; one name in opencode.json, opencode.jsonc and .opencode/opencode.json runs the .opencode entry",
			dir: "a",
			setup: func(s *sandbox) {
				off := s.ocEntry("off")
				off["enabled"] = false
				s.opencodeConfig(filepath.Join(s.outer, "opencode.json"), "outer")
				s.write("opencode.json", obj{"mcp": obj{"db": s.ocEntry("db", "json"), "off": off, "plain": s.ocEntry("plain")}})
				s.write("opencode.jsonc", obj{"mcp": obj{"db": s.ocEntry("db", "jsonc")}})
				s.write(".opencode/opencode.json", obj{"mcp": obj{"db": s.ocEntry("db", "dot"), "dot": s.ocEntry("dot")}})
			},
			want: []string{"db", "dot", "plain"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"][0]; !slices.Equal(r.Argv, []string{"db", "dot"}) {
					t.Errorf("db ran as %q, want the .opencode entry", r.Argv)
				}
			},
		},
		{
			name:     "merge-toggle/list",
			contract: "a subdirectory's `{\"db\": {\"enabled\": false}}` deep-merges over the root's db: nothing starts",
			dir:      "sub",
			setup: func(s *sandbox) {
				s.opencodeConfig("opencode.json", "db")
				s.write("sub/opencode.json", obj{"mcp": obj{"db": obj{"enabled": false}}})
			},
		},
		{
			name:     "dialect/list",
			contract: "comments and trailing commas are accepted; `{env:NAME}` is the variable's value, empty when unset",
			env:      map[string]string{"FID_A": "aa"},
			setup: func(s *sandbox) {
				b, _ := json.Marshal(obj{"type": "local",
					"command":     []string{"{env:FID_BIN}", markerFlag, "db", "{env:FID_A}", "{env:FID_UNDEF}x"},
					"environment": obj{"MARKER_DIR": s.liveMarkers()}})
				s.write("opencode.json", "{\n// team\n\"mcp\": {/* c */ \"db\": "+string(b)+",},\n}")
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"][0]; !slices.Equal(r.Argv, []string{"db", "aa", "x"}) {
					t.Errorf("db ran as %q, want [db aa x]", r.Argv)
				}
			},
		},
		{
			name:     "dialect-empty/list",
			contract: "a 0-byte opencode.json is no config: .opencode/opencode.json's servers still start",
			setup: func(s *sandbox) {
				s.write("opencode.json", "")
				s.opencodeConfig(".opencode/opencode.json", "db")
			},
			want: []string{"db"},
		},
		{
			name:     "swap/list",
			contract: "nothing is bound to a server: a changed command, args and environment under `db` start with no prompt",
			setup:    func(s *sandbox) { s.opencodeConfig("opencode.json", "db") },
			swap: func(s *sandbox) {
				s.write("opencode.json", obj{"mcp": obj{"db": obj{"type": "local",
					"command":     append([]string{"/bin/sh"}, s.swapArgs()...),
					"environment": obj{"MARKER_DIR": s.liveMarkers(), "FOO": "injected"}}}})
				s.commit()
			},
			want:  []string{"db"},
			check: checkSwapped,
		},
		{
			name:     "config-content-off/list",
			contract: "OPENCODE_CONFIG_CONTENT is merged after every project file: `enabled: false` there turns off a .opencode server (launch's handover)",
			env:      map[string]string{"OPENCODE_CONFIG_CONTENT": `{"mcp":{"db":{"enabled":false}}}`},
			setup: func(s *sandbox) {
				s.opencodeConfig(".opencode/opencode.json", "db", "other")
			},
			want: []string{"other"},
		},
		{
			name:     "disable-project/list",
			contract: "OPENCODE_DISABLE_PROJECT_CONFIG=1 reads no project config and no plugin",
			env:      map[string]string{"OPENCODE_DISABLE_PROJECT_CONFIG": "1"},
			setup: func(s *sandbox) {
				s.opencodeConfig("opencode.json", "db")
				s.opencodePlugin()
			},
		},
		{
			name:      "plugin/list",
			contract:  "a file of .opencode/plugin is imported at start, without asking",
			setup:     func(s *sandbox) { s.opencodePlugin() },
			want:      []string{"plugin"},
			noPredict: "a plugin is no server: mcp-guard keeps the gate closed while one is there",
		},
	}
}

// opencodePlugin writes .opencode/plugin/p.js, which records its import
// as the marker "plugin".
func (s *sandbox) opencodePlugin() {
	rec, _ := json.Marshal(record{Argv: []string{"plugin"}})
	s.write(".opencode/plugin/p.js", "import fs from \"fs\";\nfs.appendFileSync(process.env.MARKER_DIR + \"/plugin\", "+
		string(mustJSON(string(rec)+"\n"))+");\nexport const P = async () => ({});\n")
	_ = os.MkdirAll(filepath.Join(s.repo, ".opencode"), 0o755)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
