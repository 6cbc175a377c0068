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
	recs := obj{}
	for _, n := range names {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s.server(n)); err != nil {
			s.t.Fatal(err)
		}
		sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		recs[n] = obj{"hash": hex.EncodeToString(sum[:]), "status": "approved"}
	}
	s.write("~/.qwen/mcpApprovals.json", obj{s.repo: recs})
}

func TestQwenCode(t *testing.T) { testSuite(t, qwen) }

func qwenScenarios() []agentScenario {
	return []agentScenario{
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
			noPredict: "launch hands Qwen Code no server list yet",
		},
	}
}
