package fidelity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The pinned Gemini CLI. Re-observe every scenario (go test ./fidelity -run TestGeminiCLI -update) before changing it.
var geminiCLI = &pinned{pkg: "@google/gemini-cli", version: "0.61.0", cache: "gemini-cli", bin: "gemini",
	banner: "0.61.0", env: func(home string) []string { return isolatedEnv(home, geminiEnv) }}

// geminiEnv keeps Gemini CLI on the fake endpoint with a dummy key.
var geminiEnv = map[string]string{
	"GEMINI_API_KEY":         "fidelity-dummy-key",
	"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9",
	// The CLI relaunches itself under a bigger heap; one process is enough here.
	"GEMINI_CLI_NO_RELAUNCH": "true",
}

// geminiUser is what every run's ~/.gemini/settings.json holds besides the
// scenario's own keys: the API key auth, no updater, no telemetry.
var geminiUser = obj{
	"security":  obj{"auth": obj{"selectedType": "gemini-api-key"}},
	"general":   obj{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	"privacy":   obj{"usageStatisticsEnabled": false},
	"telemetry": obj{"enabled": false},
}

var gemini = &agent{
	id: "gemini-cli", title: "Gemini CLI", cli: geminiCLI,
	command: func(m mode, args []string) []string {
		if m == headless {
			return append([]string{"-p", "say ok", "-m", "gemini-2.5-flash"}, args...)
		}
		return append([]string{"mcp", "list"}, args...)
	},
	prepare: func(s *sandbox, api *fakeModel) map[string]string {
		path := filepath.Join(s.home, ".gemini", "settings.json")
		user := obj{}
		if data, err := os.ReadFile(path); err == nil {
			if err := json.Unmarshal(data, &user); err != nil {
				s.t.Fatal(err)
			}
		}
		mergeMissing(user, geminiUser)
		s.write("~/.gemini/settings.json", user)
		env := map[string]string{}
		for k, v := range geminiEnv {
			env[k] = v
		}
		env["GOOGLE_GEMINI_BASE_URL"] = api.URL
		return env
	},
	install: "about 100 MB, 18 s",
	method: "Method: as for Claude Code, a fresh HOME, a scratch git repository whose `.gemini/settings.json` " +
		"names marker servers, and no real network (a dummy `GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL` " +
		"pointing at a fake Gemini API on 127.0.0.1, updater and usage statistics off in the user settings, " +
		"the proxy refusing every other host; a run fails if Gemini CLI tries one). \"list\" runs " +
		"`gemini mcp list` (package `client`'s `Interactive`), \"-p\" runs `gemini -p` (`Headless`). " +
		"\"Contract\" is the earlier observations package `client` models (clients-observed.md, Gemini CLI 0.61.0).",
}

// mergeMissing adds to dst every key of src it lacks, recursing into objects.
func mergeMissing(dst, src obj) {
	for k, v := range src {
		d, ok := dst[k]
		if !ok {
			dst[k] = v
			continue
		}
		dm, ok1 := d.(obj)
		sm, ok2 := v.(obj)
		if ok1 && ok2 {
			mergeMissing(dm, sm)
		}
	}
}

// gemini writes <dir>/.gemini/settings.json holding a marker server for each name.
func (s *sandbox) gemini(dir string, names ...string) {
	servers := obj{}
	for _, n := range names {
		servers[n] = s.server(n)
	}
	s.write(filepath.Join(dir, ".gemini", "settings.json"), obj{"mcpServers": servers})
}

// trustFolders writes ~/.gemini/trustedFolders.json: path → trust level,
// paths relative to the repository unless absolute.
func (s *sandbox) trustFolders(kv ...string) {
	m := obj{}
	for i := 0; i+1 < len(kv); i += 2 {
		p := kv[i]
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.repo, p)
		}
		m[filepath.Clean(p)] = kv[i+1]
	}
	s.write("~/.gemini/trustedFolders.json", m)
}

// geminiFiltered is a trusted repository with servers db and other, a user
// mcp.excluded and a workspace mcp.allowed (each unset when nil).
func (s *sandbox) geminiFiltered(userExcluded, workspaceAllowed []string) {
	ws := obj{"mcpServers": obj{"db": s.server("db"), "other": s.server("other")}}
	if workspaceAllowed != nil {
		ws["mcp"] = obj{"allowed": workspaceAllowed}
	}
	s.write(".gemini/settings.json", ws)
	if userExcluded != nil {
		s.write("~/.gemini/settings.json", obj{"mcp": obj{"excluded": userExcluded}})
	}
	s.trustGemini()
}

// link makes <root>/link, a symlink to the repository, and returns its path.
func (s *sandbox) link() string {
	link := filepath.Clean(filepath.Join(s.outer, "..", "link"))
	if err := os.Symlink(s.repo, link); err != nil {
		s.t.Fatal(err)
	}
	return link
}

func (s *sandbox) trustGemini() { s.trustFolders("", "TRUST_FOLDER") }

func TestGeminiCLI(t *testing.T) { testSuite(t, gemini) }

func geminiScenarios() []agentScenario {
	return []agentScenario{
		{
			name:     "untrusted/list",
			contract: "folder trust is on by default: untrusted, `gemini mcp list` shows the server Disabled and spawns nothing",
			setup:    func(s *sandbox) { s.gemini("", "db") },
			check:    says("disabled because this folder is untrusted"),
		},
		{
			name:     "trusted/list",
			contract: "trusted (TRUST_FOLDER): does `gemini mcp list` spawn the server for its health check?",
			setup:    func(s *sandbox) { s.gemini("", "db"); s.trustGemini() },
			want:     []string{"db"},
			open:     true,
			answer:   "Yes: in a trusted folder `gemini mcp list` starts every server to show its status.",
		},
		{
			name:     "untrusted/-p",
			contract: "untrusted `gemini -p`: fatal \"not running in a trusted directory\", no spawn",
			mode:     headless,
			setup:    func(s *sandbox) { s.gemini("", "db") },
			fails:    true,
			check:    says("not running in a trusted directory"),
		},
		{
			name:     "trust-folder/-p",
			contract: "~/.gemini/trustedFolders.json {\"<repo>\":\"TRUST_FOLDER\"} trusts it",
			mode:     headless,
			setup:    func(s *sandbox) { s.gemini("", "db"); s.trustGemini() },
			want:     []string{"db"},
		},
		{
			name:     "trust-parent/-p",
			contract: "{\"<repo>/child\":\"TRUST_PARENT\"} trusts <repo>",
			mode:     headless,
			setup:    func(s *sandbox) { s.gemini("", "db"); s.trustFolders("child", "TRUST_PARENT") },
			want:     []string{"db"},
		},
		{
			name:     "inherited-parent/-p",
			contract: "a parent marked TRUST_FOLDER is inherited by its subdirectories",
			mode:     headless,
			setup:    func(s *sandbox) { s.gemini("", "db"); s.trustFolders(s.outer, "TRUST_FOLDER") },
			want:     []string{"db"},
		},
		{
			name:     "do-not-trust-child/-p",
			contract: "a child DO_NOT_TRUST beats a parent TRUST_FOLDER",
			mode:     headless,
			setup: func(s *sandbox) {
				s.gemini("", "db")
				s.trustFolders(s.outer, "TRUST_FOLDER", "", "DO_NOT_TRUST")
			},
			fails: true,
		},
		{
			name:     "user-folder-trust-off/-p",
			contract: "user ~/.gemini/settings.json security.folderTrust.enabled:false trusts every folder",
			mode:     headless,
			setup: func(s *sandbox) {
				s.gemini("", "db")
				s.write("~/.gemini/settings.json", obj{"security": obj{"folderTrust": obj{"enabled": false}}})
			},
			want: []string{"db"},
		},
		{
			name:     "env-trust-workspace/-p",
			contract: "GEMINI_CLI_TRUST_WORKSPACE=true trusts the folder, in -p too",
			mode:     headless,
			env:      map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"},
			setup:    func(s *sandbox) { s.gemini("", "db") },
			want:     []string{"db"},
		},
		{
			name:     "workspace-folder-trust-ignored/-p",
			contract: "the workspace's own security.folderTrust.enabled:false is ignored",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", obj{"mcpServers": obj{"db": s.server("db")},
					"security": obj{"folderTrust": obj{"enabled": false}}})
			},
			fails: true,
		},
		{
			name:     "legacy-folder-trust-ignored/-p",
			contract: "the legacy top-level folderTrust:false in the user settings is ignored",
			mode:     headless,
			setup: func(s *sandbox) {
				s.gemini("", "db")
				s.write("~/.gemini/settings.json", obj{"folderTrust": false})
			},
			fails: true,
		},
		{
			name:     "skip-trust/-p",
			contract: "`gemini -p --skip-trust` gets past the fatal error, but the workspace server does not spawn",
			mode:     headless,
			args:     []string{"--skip-trust"},
			setup:    func(s *sandbox) { s.gemini("", "db") },
		},
		{
			name:     "swap-trusted/-p",
			contract: "binding is the folder path only: a changed command, env and args under `db` spawn with no prompt",
			mode:     headless,
			setup:    func(s *sandbox) { s.gemini("", "db"); s.trustGemini() },
			swap: func(s *sandbox) {
				s.write(".gemini/settings.json", obj{"mcpServers": obj{"db": obj{
					"command": "/bin/sh", "args": s.swapArgs(), "env": obj{"FOO": "injected"}}}})
				s.commit()
			},
			want:  []string{"db"},
			check: checkSwapped,
		},
		{
			name:     "enablement-disable/-p",
			contract: "~/.gemini/mcp-server-enablement.json {\"db\":{\"enabled\":false}} blocks `db` and, lowercased, `DB`",
			mode:     headless,
			setup: func(s *sandbox) {
				s.gemini("", "DB", "other")
				s.write("~/.gemini/mcp-server-enablement.json", obj{"db": obj{"enabled": false}})
				s.trustGemini()
			},
			want: []string{"other"},
		},
		{
			name:     "allowed/-p",
			contract: "workspace mcp.allowed [other]: only `other` spawns",
			mode:     headless,
			setup:    func(s *sandbox) { s.geminiFiltered(nil, []string{"other"}) },
			want:     []string{"other"},
		},
		{
			name:         "allowed-case/-p",
			contract:     "mcp.allowed matches names case-insensitively: [OTHER] allows `other`",
			mode:         headless,
			setup:        func(s *sandbox) { s.geminiFiltered(nil, []string{"OTHER"}) },
			contractSays: []string{"other"},
			want:         []string{},
			differs: "`mcp.allowed` matches names exactly: `OTHER` does not allow `other`, so nothing spawns " +
				"(the bundle's `isBlockedBySettings` uses `allowedNames.includes(name)`).",
		},
		{
			name:         "excluded-case/-p",
			contract:     "mcp.excluded matches names case-insensitively: a user [Db] excludes `db`",
			mode:         headless,
			setup:        func(s *sandbox) { s.geminiFiltered([]string{"Db"}, nil) },
			contractSays: []string{"other"},
			want:         []string{"db", "other"},
			differs: "`mcp.excluded` matches names exactly: `Db` does not exclude `db` " +
				"(`blockedNames.includes(name)`). Only mcp-server-enablement.json lowercases.",
		},
		{
			name:     "user-exclude-beats-workspace-allow/-p",
			contract: "a user mcp.excluded [db] beats a workspace mcp.allowed [db, other]",
			mode:     headless,
			setup:    func(s *sandbox) { s.geminiFiltered([]string{"db"}, []string{"db", "other"}) },
			want:     []string{"other"},
		},
		{
			name:     "allowed-intersection/-p",
			contract: "allowed lists intersect across user and workspace: user [db, other], workspace [other, third] allow only `other`",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", obj{
					"mcpServers": obj{"db": s.server("db"), "other": s.server("other"), "third": s.server("third")},
					"mcp":        obj{"allowed": []string{"other", "third"}}})
				s.write("~/.gemini/settings.json", obj{"mcp": obj{"allowed": []string{"db", "other"}}})
				s.trustGemini()
			},
			want: []string{"other"},
		},
		{
			name:     "no-walk-up/-p",
			contract: "only <cwd>/.gemini/settings.json is read: launched in repo/a (trusted), the root's servers do not spawn",
			mode:     headless,
			dir:      "a",
			setup:    func(s *sandbox) { s.gemini("", "db"); s.trustGemini() },
		},
		{
			name:     "no-walk-up/list",
			contract: "no walk-up in `gemini mcp list` either",
			dir:      "a",
			setup:    func(s *sandbox) { s.gemini("", "db"); s.trustGemini() },
		},
		{
			name:     "symlink-trust-realpath/-p",
			contract: "launched through a symlink to the repository: trust stored for the real path holds",
			mode:     headless,
			dir:      "../../link",
			setup: func(s *sandbox) {
				s.gemini("", "db")
				s.trustGemini()
				s.link()
			},
			want: []string{"db"},
		},
		{
			name:     "symlink-trust-linkpath/-p",
			contract: "symlinks are resolved on both sides: trust stored for the link's path holds too",
			mode:     headless,
			dir:      "../../link",
			setup: func(s *sandbox) {
				s.gemini("", "db")
				s.trustFolders(s.link(), "TRUST_FOLDER")
			},
			want: []string{"db"},
		},
		{
			name:     "dialect-comments/-p",
			contract: "comments (JSONC) are accepted",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", "{\n// a comment\n\"mcpServers\": {/* c */ \"db\": "+s.raw("db")+"}}")
				s.trustGemini()
			},
			want: []string{"db"},
		},
		{
			name:     "dialect-empty/-p",
			contract: "a 0-byte .gemini/settings.json fails the run (\"Unexpected end of JSON input\"): not even the user's own server starts",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", "")
				s.write("~/.gemini/settings.json", obj{"mcpServers": obj{"mine": s.server("mine")}})
				s.trustGemini()
			},
			fails: true, // the CLI exits 52
			check: says("Unexpected end of JSON input"),
		},
		{
			name:     "dialect-trailing-comma/-p",
			contract: "a trailing comma rejects the file (\"Error in …settings.json … Please fix\"): no servers",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", "{\"mcpServers\": {\"db\": "+s.raw("db")+",}}")
				s.trustGemini()
			},
			fails: true, // the CLI exits 52
			check: says("Please fix the configuration file"),
		},
		{
			name:     "dialect-bom/-p",
			contract: "a UTF-8 BOM rejects the file (\"Unexpected token\"): no servers",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", "\uFEFF{\"mcpServers\": {\"db\": "+s.raw("db")+"}}")
				s.trustGemini()
			},
			fails: true, // the CLI exits 52
			check: says("Unexpected token"),
		},
		{
			name:     "dialect-servers-key/-p",
			contract: "`servers` instead of `mcpServers` is silently ignored",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", obj{"servers": obj{"db": s.server("db")}})
				s.trustGemini()
			},
		},
		{
			name: "dialect-interpolation/-p",
			contract: "`$VAR`, `${VAR}` and `${VAR:-default}` are expanded before spawn in command, args and env; " +
				"undefined with no default stays literal",
			mode: headless,
			env:  map[string]string{"FID_A": "aa", "FID_B": "bb"},
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", obj{"mcpServers": obj{"db": obj{
					"command": "${FID_BIN}",
					"args":    []string{markerFlag, "db", "$FID_A", "${FID_B}", "${FID_C:-dflt}", "${FID_UNDEF}"},
					"env":     obj{"FID_E": "${FID_A}-x"},
				}}})
				s.trustGemini()
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				r := o.spawned["db"][0]
				want := []string{"db", "aa", "bb", "dflt", "${FID_UNDEF}"}
				if !slices.Equal(r.Argv, want) || r.Env["FID_E"] != "aa-x" {
					t.Errorf("marker argv %q env FID_E=%q; want argv %q, FID_E=aa-x", r.Argv, r.Env["FID_E"], want)
				}
			},
		},
		{
			name:     "dialect-non-string-env/-p",
			contract: "a non-string env value is an error: that server does not spawn",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", obj{"mcpServers": obj{"db": obj{
					"command": s.marker, "args": []string{markerFlag, "db"}, "env": obj{"FID_N": 42}}}})
				s.trustGemini()
			},
		},
		{
			name:     "dialect-non-string-args/-p",
			contract: "non-string args: a schema error is printed but the server spawns, args stringified",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".gemini/settings.json", obj{"mcpServers": obj{"typed": obj{
					"command": s.marker, "args": []any{markerFlag, "typed", 42, true}}}})
				s.trustGemini()
			},
			want: []string{"typed"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["typed"][0]; !slices.Equal(r.Argv, []string{"typed", "42", "true"}) {
					t.Errorf("marker argv %q, want [typed 42 true]", r.Argv)
				}
			},
		},
	}
}

// says checks that the client's output holds msg.
func says(msg string) func(t *testing.T, s *sandbox, o outcome) {
	return func(t *testing.T, s *sandbox, o outcome) {
		if !strings.Contains(o.output, msg) {
			t.Errorf("the output does not say %q:\n%s", msg, o.output)
		}
	}
}
