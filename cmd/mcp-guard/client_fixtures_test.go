package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestClientFixtures: `status` and `scan` in each client's fixture under
// testdata/repos, with an empty HOME, explain the fixture in the client's
// words and report exactly the rules its README promises.
func TestClientFixtures(t *testing.T) {
	tests := []struct {
		dir        string
		status     []string // in status's text
		statusExit int
		rules      []string // scan's rule ids, sorted
		scanExit   int
	}{
		{
			dir: "gemini-cli",
			status: []string{
				"Gemini CLI (1 config file: ",
				"search           node scripts/search-server.js  testdata/repos/gemini-cli/.gemini/settings.json",
				"shell            npx -y @modelcontextprotocol/server-everything@2025.9.25  testdata/repos/gemini-cli/.gemini/settings.json",
				"the folder is not trusted (no entry of ~/.gemini/trustedFolders.json covers ",
				"Gemini CLI runs no workspace server",
				"high MG708 ", // the path's form is status's business
				"settings.json:11: mcpServers.shell.trust: true",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105", "MG708"},
			scanExit:   exitAttention,
		},
		{
			dir: "codex",
			status: []string{
				"Codex (1 config file: ",
				"closed: ",
				`server "metrics": wrong type: args[2] is an integer, not a string`,
				"mcp-guard cannot tell what it would run from it",
				"low MG716 ",
				`config.toml:8: mcp_servers.metrics: Codex fails on server "metrics"`,
			},
			statusExit: exitAttention,
			rules:      []string{"MG716"},
			scanExit:   exitOK, // MG716 is low
		},
		{
			dir: "opencode",
			status: []string{
				"OpenCode (1 config file: ",
				"closed: OpenCode plugins: OpenCode imports the project's plugins at start without asking",
				"search           node scripts/search-server.js  testdata/repos/opencode/opencode.jsonc",
				"OpenCode starts every enabled project server without asking",
				"OpenCode does not start it",
				"high MG723 ",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105", "MG404", "MG722", "MG723"},
			scanExit:   exitAttention,
		},
		{
			dir: "qwen-code",
			status: []string{
				"Qwen Code (2 config files: ",
				"search           node scripts/search-server.js  testdata/repos/qwen-code/.qwen/settings.json",
				// Qwen Code reads Claude Code's .mcp.json too.
				"docs             node scripts/docs-server.js  testdata/repos/qwen-code/.mcp.json",
				"Qwen Code asks before it starts it: ~/.qwen/mcpApprovals.json holds no approval",
				"high MG724 ",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105", "MG105", "MG724"}, // MG105 for .mcp.json's docs and for search
			scanExit:   exitAttention,
		},
		{
			dir: "kiro",
			status: []string{
				"Kiro (2 config files: ",
				"search                    node scripts/search-server.js  testdata/repos/kiro/.kiro/settings/mcp.json",
				"its autoApprove runs `run_query` without confirmation",
				"lint-on-save.then.command /bin/sh -c 'node scripts/lint.js'  testdata/repos/kiro/.kiro/hooks/lint-on-save.kiro.hook",
				"high MG733 ",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105", "MG105", "MG733", "MG734"},
			scanExit:   exitAttention,
		},
		{
			dir: "amazon-q",
			status: []string{
				"Amazon Q Developer (2 config files: ",
				"search                  node scripts/search-server.js  testdata/repos/amazon-q/.amazonq/mcp.json",
				"tickets                 node scripts/tickets-server.js  testdata/repos/amazon-q/.amazonq/cli-agents/dev.json",
				"dev.hooks.agentSpawn[0] /bin/sh -c 'git status'",
				"useLegacyMcpJson: the default agent does",
				"high MG735 ",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105", "MG105", "MG735", "MG736"},
			scanExit:   exitAttention,
		},
		{
			dir: "roo-code",
			status: []string{
				"Roo Code (1 config file: ",
				"search           node ${workspaceFolder}/scripts/search-server.js  testdata/repos/roo-code/.roo/mcp.json",
				"testdata/repos/roo-code/scripts/search-server.js: node runs it",
				"high MG737 ",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105", "MG737"},
			scanExit:   exitAttention,
		},
		{
			dir: "zed",
			status: []string{
				"Zed (1 config file: ",
				"search           node scripts/search-server.js  testdata/repos/zed/.zed/settings.json",
				"Zed starts it once you trust the worktree (Restricted Mode until then)",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105"},
			scanExit:   exitOK,
		},
		{
			dir: "copilot-cli",
			status: []string{
				"Copilot CLI (1 config file: ",
				"search           node scripts/search-server.js  testdata/repos/copilot-cli/.github/mcp.json",
				"the folder is not trusted (no entry of ~/.copilot/config.json's trustedFolders holds ",
			},
			statusExit: exitOK,
			rules:      []string{"MG105", "MG105", "MG725"},
			scanExit:   exitOK,
		},
		{
			dir: "cline",
			status: []string{
				"Cline (1 config file: ",
				"Cline runs this hook file at every task without asking",
				"testdata/repos/cline/scripts/task-context.js: node runs it",
				"medium MG105 ",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105"},
			scanExit:   exitOK,
		},
		{
			dir: "continue",
			status: []string{
				"Continue (1 config file: ",
				"install          /bin/sh -c 'sh scripts/setup.sh'  testdata/repos/continue/.continue/environment.json",
				"`cn serve` runs this command without asking (`cn` and `cn -p` do not)",
				"testdata/repos/continue/scripts/setup.sh: sh runs this script",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105"},
			scanExit:   exitOK,
		},
		{
			dir: "cursor",
			status: []string{
				"Cursor (1 config file: ",
				"tickets          node ${workspaceFolder}/scripts/tickets-server.js  testdata/repos/cursor/.cursor/mcp.json",
				"where Cursor stores them is undocumented",
				"`cursor-agent --approve-mcps` runs it without asking",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105"},
			scanExit:   exitOK,
		},
		{
			dir: "vscode",
			status: []string{
				"VS Code (2 config files: ",
				"issues           node ${workspaceFolder}/scripts/issues-server.js  testdata/repos/vscode/.vscode/mcp.json",
				// the folder-open task is an entry beside the server
				"tasks[0]         /bin/sh -c 'node scripts/prepare.js'  testdata/repos/vscode/.vscode/tasks.json",
				"once the workspace is trusted (Workspace Trust)",
				`.vscode/settings.json sets chat.mcp.autostart = "newAndOutdated"`,
				"high MG711 ",
			},
			statusExit: exitAttention,
			rules:      []string{"MG105", "MG105", "MG711", "MG713"},
			scanExit:   exitAttention,
		},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("../../testdata/repos", tt.dir))
			if err != nil {
				t.Fatal(err)
			}
			environ := []string{"HOME=" + t.TempDir(), "NO_COLOR=1", "PATH=" + os.Getenv("PATH")}
			mg := func(args ...string) (int, string) {
				var o, e bytes.Buffer
				code := run(context.Background(), append([]string{"mcp-guard", "-C", dir}, args...), strings.NewReader(""), &o, &e, environ)
				return code, o.String() + e.String()
			}

			code, out := mg("status")
			for _, want := range tt.status {
				if !strings.Contains(out, want) {
					t.Errorf("status lacks %q:\n%s", want, out)
				}
			}
			if code != tt.statusExit {
				t.Errorf("status exit %d, want %d", code, tt.statusExit)
			}

			code, out = mg("scan", "--format", "json")
			var doc struct {
				Findings []struct{ Rule, Path string }
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			var rules []string
			for _, f := range doc.Findings {
				rules = append(rules, f.Rule)
				if !strings.HasPrefix(f.Path, "testdata/repos/"+tt.dir+"/") {
					t.Errorf("%s: finding outside the fixture: %s", f.Rule, f.Path)
				}
			}
			slices.Sort(rules)
			if !slices.Equal(rules, tt.rules) {
				t.Errorf("scan rules %v, want %v:\n%s", rules, tt.rules, out)
			}
			if code != tt.scanExit {
				t.Errorf("scan exit %d, want %d", code, tt.scanExit)
			}
		})
	}
}
