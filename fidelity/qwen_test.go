package fidelity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
)

// The pinned Qwen Code, the version docs/qwen-code.md was modelled on.
// Re-observe every scenario (go test ./fidelity -run TestQwenCode -update) before changing it.
var qwenCLI = &pinned{pkg: "@qwen-code/qwen-code", version: "0.24.4", cache: "qwen-code", bin: "qwen",
	banner: "0.24.4", env: func(home string) []string { return isolatedEnv(home, qwenEnv) }}

// qwenEnv keeps Qwen Code on the fake OpenAI-compatible endpoint with a
// dummy key (OPENAI_BASE_URL is set per run).
var qwenEnv = map[string]string{
	"OPENAI_API_KEY":  "fidelity-dummy-key",
	"OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
	"OPENAI_MODEL":    "fidelity-model",
	// Gemini CLI's switch, kept by the fork: one process is enough here.
	"GEMINI_CLI_NO_RELAUNCH": "true",
	"QWEN_CODE_NO_RELAUNCH":  "true",
}

// qwenUser is what every run's ~/.qwen/settings.json holds besides the
// scenario's own keys: OpenAI auth, no updater, no telemetry.
var qwenUser = obj{
	"security":  obj{"auth": obj{"selectedType": "openai"}},
	"general":   obj{"enableAutoUpdate": false, "disableAutoUpdate": true, "disableUpdateNag": true},
	"privacy":   obj{"usageStatisticsEnabled": false},
	"telemetry": obj{"enabled": false},
}

var qwen = &agent{
	id: "qwen-code", title: "Qwen Code", cli: qwenCLI,
	command: func(m mode, args []string) []string {
		if m == headless {
			return append([]string{"-p", "say ok"}, args...)
		}
		return append([]string{"mcp", "list"}, args...)
	},
	prepare: func(s *sandbox, api *fakeModel) map[string]string {
		path := filepath.Join(s.home, ".qwen", "settings.json")
		user := obj{}
		if data, err := os.ReadFile(path); err == nil {
			if err := json.Unmarshal(data, &user); err != nil {
				s.t.Fatal(err)
			}
		}
		mergeMissing(user, qwenUser)
		s.write("~/.qwen/settings.json", user)
		env := map[string]string{}
		for k, v := range qwenEnv {
			env[k] = v
		}
		env["OPENAI_BASE_URL"] = api.URL + "/v1"
		return env
	},
	install: "about 145 MB, 23 s",
	timeout: 3 * time.Minute,
	method: "Method: as for Gemini CLI, a fresh HOME, a scratch git repository whose `.qwen/settings.json` " +
		"names marker servers, and no real network (a dummy `OPENAI_API_KEY`, `OPENAI_BASE_URL` pointing at a " +
		"fake OpenAI-compatible model on 127.0.0.1, OpenAI auth, updater and usage statistics off in the user " +
		"settings, the proxy refusing every other host). \"-p\" runs `qwen -p \"say ok\"` (package `client`'s " +
		"`Headless`). \"Contract\" is what the package's bundled documentation says (docs/qwen-code.md), " +
		"`client` predicts from the observed approval model.",
}

// qwenServers writes <dir>/.qwen/settings.json holding a marker server for each name.
func (s *sandbox) qwenServers(dir string, names ...string) {
	servers := obj{}
	for _, n := range names {
		servers[n] = s.server(n)
	}
	s.write(filepath.Join(dir, ".qwen", "settings.json"), obj{"mcpServers": servers})
}

// qwenFolderTrustOn turns folder trust on in ~/.qwen/settings.json.
func (s *sandbox) qwenFolderTrustOn() {
	s.write("~/.qwen/settings.json", obj{"security": obj{"folderTrust": obj{"enabled": true}}})
}

// qwenApprove records in ~/.qwen/mcpApprovals.json that the user approved
// each named server of the repository's .qwen/settings.json as written by
// qwenServers: Qwen Code binds the decision to the project root, the name
// and a SHA-256 of the entry's JSON with its keys sorted.
func (s *sandbox) qwenApprove(names ...string) {
	entries := obj{}
	for _, n := range names {
		entries[n] = s.server(n)
	}
	s.qwenApproveAt(s.repo, entries)
}

// qwenApproveAt records approvals of entries (name → the entry as Qwen
// Code hashes it) for the project root dir, beside any recorded before.
func (s *sandbox) qwenApproveAt(dir string, entries obj) {
	path := filepath.Join(s.home, ".qwen", "mcpApprovals.json")
	all := obj{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &all); err != nil {
			s.t.Fatal(err)
		}
	}
	recs, _ := all[dir].(obj)
	if recs == nil {
		recs = obj{}
	}
	for n, e := range entries {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(e); err != nil {
			s.t.Fatal(err)
		}
		sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		recs[n] = obj{"hash": hex.EncodeToString(sum[:]), "status": "approved"}
	}
	all[dir] = recs
	s.write("~/.qwen/mcpApprovals.json", all)
}

// qwenMCP writes <dir>/.mcp.json holding entries (name → entry), Claude
// Code's file, which Qwen Code reads as its project MCP source.
func (s *sandbox) qwenMCP(dir string, entries obj) {
	s.write(filepath.Join(dir, ".mcp.json"), obj{"mcpServers": entries})
}

func TestQwenCode(t *testing.T) { testSuite(t, qwen) }

func qwenScenarios() []agentScenario {
	return []agentScenario{
		{
			name:     "entries/-p",
			contract: "`qwen -p` (folder trust off, its default): do the workspace's tools.discoveryCommand and SessionStart and UserPromptSubmit hooks run?",
			mode:     headless,
			setup: func(s *sandbox) {
				hook := func(n string) []obj {
					return []obj{{"hooks": []obj{{"type": "command", "command": s.shCommand(n, "true")}}}}
				}
				s.write(".qwen/settings.json", obj{
					"tools": obj{"discoveryCommand": s.shCommand("discover", "echo []")},
					"hooks": obj{"SessionStart": hook("hook-start"), "UserPromptSubmit": hook("hook-prompt")},
				})
			},
			want: []string{"hook-prompt", "hook-start"},
			open: true,
			answer: "Both hooks run without asking, as Gemini CLI's do; the discovery command did not start in this run " +
				"(why was not observed). mcp-guard reads all three as entries that run without asking (attack6).",
			noPredict: "mcp-guard counts the discovery command too, which this run did not start: more, never less",
		},
		{
			name:         "pending/-p",
			contract:     "a workspace `.qwen/settings.json` server the user never approved does not start under `qwen -p` (folder trust off, its default)",
			mode:         headless,
			setup:        func(s *sandbox) { s.qwenServers(".", "db") },
			contractSays: []string{"db"},
			differs: "The bundled documentation says folder trust is off by default and names no approval per server; " +
				"0.24.4 gates every workspace server on ~/.qwen/mcpApprovals.json (`qwen mcp list` shows it \"Pending approval\"). " +
				"client/qwen.go now models the approval.",
		},
		{
			name:     "approved/-p",
			contract: "a server approved in ~/.qwen/mcpApprovals.json for this project, name and config hash starts under `qwen -p` without asking",
			mode:     headless,
			setup: func(s *sandbox) {
				s.qwenServers(".", "db", "other")
				s.qwenApprove("db")
			},
			want: []string{"db"},
		},
		{
			name:     "changed/-p",
			contract: "an approval is bound to the entry's hash: a changed entry under an approved name waits for approval again",
			mode:     headless,
			setup: func(s *sandbox) {
				s.qwenApprove("db")
				s.write(".qwen/settings.json", obj{"mcpServers": obj{"db": s.server("db", "--evil")}})
			},
		},
		{
			name:     "untrusted/-p",
			contract: "folder trust on in the user's settings, the folder not trusted: even an approved workspace server does not start",
			mode:     headless,
			setup: func(s *sandbox) {
				s.qwenFolderTrustOn()
				s.qwenServers(".", "db")
				s.qwenApprove("db")
			},
		},
		{
			name:      "allowed-names/-p",
			contract:  "`--allowed-mcp-server-names db` starts only db of the approved db and evil",
			mode:      headless,
			args:      []string{"--allowed-mcp-server-names", "db"},
			setup:     func(s *sandbox) { s.qwenServers(".", "db", "evil"); s.qwenApprove("db", "evil") },
			want:      []string{"db"},
			noPredict: "a flag of the command line (launch's handover, TestQwenLaunch)",
		},
		{
			name:     "mcp-json-pending/-p",
			contract: "a server of the project's `.mcp.json` (Claude Code's file) the user never approved does not start under `qwen -p`",
			mode:     headless,
			setup:    func(s *sandbox) { s.qwenMCP(".", obj{"db": s.server("db")}) },
			open:     true,
			answer:   "Qwen Code reads the launch directory's `.mcp.json` as its project source, behind the same approval as `.qwen/settings.json`.",
		},
		{
			name:     "mcp-json-approved/-p",
			contract: "a `.mcp.json` server approved in ~/.qwen/mcpApprovals.json for this project, name and entry hash starts under `qwen -p`",
			mode:     headless,
			setup: func(s *sandbox) {
				s.qwenMCP(".", obj{"db": s.server("db"), "other": s.server("other")})
				s.qwenApproveAt(s.repo, obj{"db": s.server("db")})
			},
			want:   []string{"db"},
			open:   true,
			answer: "Qwen Code starts an approved `.mcp.json` server as it starts an approved workspace server.",
		},
		{
			name:     "mcp-json-type/-p",
			contract: "Claude Code's dialect: a `.mcp.json` entry with `\"type\": \"stdio\"` starts once approved, its hash taken without `type`",
			mode:     headless,
			setup: func(s *sandbox) {
				e := s.server("db")
				e["type"] = "stdio"
				s.qwenMCP(".", obj{"db": e})
				s.qwenApproveAt(s.repo, obj{"db": s.server("db")})
			},
			want:   []string{"db"},
			open:   true,
			answer: "Qwen Code normalises a Claude Code entry (drops `type` beside `command`) before it hashes it.",
		},
		{
			name:     "mcp-json-clash-settings/-p",
			contract: "a name in both `.qwen/settings.json` and `.mcp.json`, the settings' entry approved: the settings' entry starts",
			mode:     headless,
			setup: func(s *sandbox) {
				s.qwenServers(".", "db")
				s.qwenMCP(".", obj{"db": s.server("db-mcp")})
				s.qwenApprove("db")
			},
			want:   []string{"db"},
			open:   true,
			answer: "The workspace settings win a name over `.mcp.json`.",
		},
		{
			name:     "mcp-json-clash-mcp/-p",
			contract: "a name in both `.qwen/settings.json` and `.mcp.json`, only the `.mcp.json` entry approved: neither starts",
			mode:     headless,
			setup: func(s *sandbox) {
				s.qwenServers(".", "db")
				s.qwenMCP(".", obj{"db": s.server("db-mcp")})
				s.qwenApproveAt(s.repo, obj{"db": s.server("db-mcp")})
			},
			open:   true,
			answer: "The `.mcp.json` entry of a name the settings hold is never read.",
		},
		{
			name:     "mcp-json-subdir/-p",
			contract: "`qwen -p` in a subdirectory: the git root's `.mcp.json` (approved for both directories) is not read",
			mode:     headless,
			dir:      "sub",
			setup: func(s *sandbox) {
				s.qwenMCP(".", obj{"db": s.server("db")})
				s.write("sub/keep", "x")
				s.qwenApproveAt(s.repo, obj{"db": s.server("db")})
				s.qwenApproveAt(filepath.Join(s.repo, "sub"), obj{"db": s.server("db")})
			},
			open:   true,
			answer: "Qwen Code reads `.mcp.json` of the launch directory only, no walk-up.",
		},
		{
			name:     "mcp-json-untrusted/-p",
			contract: "folder trust on, the folder not trusted: an approved `.mcp.json` server does not start",
			mode:     headless,
			setup: func(s *sandbox) {
				s.qwenFolderTrustOn()
				s.qwenMCP(".", obj{"db": s.server("db")})
				s.qwenApproveAt(s.repo, obj{"db": s.server("db")})
			},
			open:   true,
			answer: "An untrusted folder starts none of the project's servers, `.mcp.json`'s included.",
		},
		{
			name:     "mcp-json-allowed-names/-p",
			contract: "`--allowed-mcp-server-names db` starts only db of the approved `.mcp.json` servers db and evil",
			mode:     headless,
			args:     []string{"--allowed-mcp-server-names", "db"},
			setup: func(s *sandbox) {
				s.qwenMCP(".", obj{"db": s.server("db"), "evil": s.server("evil")})
				s.qwenApproveAt(s.repo, obj{"db": s.server("db"), "evil": s.server("evil")})
			},
			want:      []string{"db"},
			noPredict: "a flag of the command line (launch's handover, TestQwenLaunch)",
		},
		{
			name:     "yolo-settings/-p",
			contract: "the repository's `.qwen/settings.json` sets `tools.approvalMode: \"yolo\"`: its servers and `.mcp.json`'s start without approval",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".qwen/settings.json", obj{"tools": obj{"approvalMode": "yolo"}, "mcpServers": obj{"db": s.server("db")}})
				s.qwenMCP(".", obj{"other": s.server("other")})
			},
			want:   []string{"db", "other"},
			open:   true,
			answer: "In YOLO approval mode Qwen Code skips its MCP approval gate, and a trusted folder's settings may set it.",
		},
		{
			name:      "yolo-flag/-p",
			contract:  "`qwen --yolo -p`: unapproved workspace and `.mcp.json` servers start",
			mode:      headless,
			args:      []string{"--yolo"},
			setup:     func(s *sandbox) { s.qwenServers(".", "db"); s.qwenMCP(".", obj{"other": s.server("other")}) },
			want:      []string{"db", "other"},
			open:      true,
			answer:    "`--yolo` (and `--approval-mode yolo`) skips the MCP approval gate.",
			noPredict: "a flag of the user's command line",
		},
	}
}

// qwenAllow is the argv `mcp-guard launch -- qwen` builds
// (client.AllowArgv) around Qwen Code's own.
func qwenAllow(allowed ...string) func(*testing.T, []string) []string {
	return func(_ *testing.T, argv []string) []string {
		return client.AllowArgv("qwen", allowed, argv)[1:]
	}
}

// TestQwenLaunch holds the allow-list `mcp-guard launch -- qwen` hands Qwen
// Code: both project sources, over YOLO mode and the settings' lists; the
// user's own servers only when named; a name with * is a pattern
// (client.AllowPassable leaves such a server out).
func TestQwenLaunch(t *testing.T) {
	both := func(s *sandbox) {
		s.qwenServers(".", "db", "evil")
		s.qwenMCP(".", obj{"other": s.server("other"), "bad": s.server("bad")})
		s.qwenApprove("db", "evil")
		s.qwenApproveAt(s.repo, obj{"other": s.server("other"), "bad": s.server("bad")})
	}
	testLaunch(t, qwen, []launchScenario{
		{name: "allowed-both-sources/-p", setup: both, wrap: qwenAllow("db", "other"), want: []string{"db", "other"}},
		{name: "allowed-none/-p", setup: both, wrap: qwenAllow("mcp-guard-none"), want: nil},
		{name: "empty-value/-p", setup: both, wrap: qwenAllow(), want: nil},
		{name: "glob/-p", setup: both, wrap: qwenAllow("d*"), want: []string{"db"}},
		{name: "exact-case/-p", setup: both, wrap: qwenAllow("DB"), want: nil},
		{name: "yolo/-p", setup: func(s *sandbox) {
			s.write(".qwen/settings.json", obj{"tools": obj{"approvalMode": "yolo"}, "mcpServers": obj{"db": s.server("db"), "evil": s.server("evil")}})
			s.qwenMCP(".", obj{"other": s.server("other")})
		}, wrap: qwenAllow("db"), want: []string{"db"}},
		{name: "user-server/-p", setup: func(s *sandbox) {
			both(s)
			s.write("~/.qwen/settings.json", obj{"mcpServers": obj{"mine": s.server("mine")}})
		}, wrap: qwenAllow("db", "mine"), want: []string{"db", "mine"}},
		{name: "user-server-left-out/-p", setup: func(s *sandbox) {
			both(s)
			s.write("~/.qwen/settings.json", obj{"mcpServers": obj{"mine": s.server("mine")}})
		}, wrap: qwenAllow("db"), want: []string{"db"}},
		{name: "replaces-excluded/-p", setup: func(s *sandbox) {
			both(s)
			s.write(".qwen/settings.json", obj{"mcp": obj{"excluded": []string{"db"}}, "mcpServers": obj{"db": s.server("db"), "evil": s.server("evil")}})
		}, wrap: qwenAllow("db"), want: []string{"db"}},
		{name: "prompt-after-flag", setup: both, wrap: qwenAllow("db"),
			args: []string{"-m", "fidelity-model", "-p", "say ok"}, want: []string{"db"}},
	})
}
