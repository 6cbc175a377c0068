package fidelity

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// The pinned GitHub Copilot CLI. Re-observe every scenario (go test ./fidelity -run TestCopilotCLI -update) before changing it.
var copilotCLI = &pinned{pkg: "@github/copilot", version: "1.0.102", cache: "copilot", bin: "copilot",
	banner: "GitHub Copilot CLI 1.0.102.", env: func(home string) []string { return isolatedEnv(home, copilotEnv) }}

// copilotEnv keeps Copilot CLI off the network and off GitHub: offline
// mode with a custom model provider (BYOK) needs no account; the
// provider's URL is the fake endpoint's, set per run.
var copilotEnv = map[string]string{
	"COPILOT_OFFLINE":                "true",
	"COPILOT_AUTO_UPDATE":            "false",
	"COPILOT_MODEL":                  "gpt-5.4",
	"COPILOT_PROVIDER_BASE_URL":      "http://127.0.0.1:9/v1",
	"COPILOT_PROVIDER_API_KEY":       "fidelity-dummy",
	"COPILOT_PROVIDER_WIRE_API":      "completions",
	"COPILOT_DISABLE_TERMINAL_TITLE": "1",
}

var copilot = &agent{
	id: "copilot-cli", title: "Copilot CLI", cli: copilotCLI,
	// Only -p: `copilot mcp list` lists the servers without starting them.
	command: func(_ mode, args []string) []string {
		return append([]string{"-p", "say ok", "--allow-all-tools"}, args...)
	},
	prepare: func(s *sandbox, api *fakeModel) map[string]string {
		s.linkCopilotPackage()
		env := map[string]string{}
		for k, v := range copilotEnv {
			env[k] = v
		}
		env["COPILOT_PROVIDER_BASE_URL"] = api.URL + "/v1"
		return env
	},
	install: "about 190 MB (one native binary, unpacked into the cache on first run), 15 s",
	timeout: 4 * time.Minute,
	method: "Method: a fresh HOME and XDG directories, a scratch git repository whose `.mcp.json` and " +
		"`.github/mcp.json` name marker servers (and whose `.github/hooks/*.json` and `.github/copilot/settings.json` name " +
		"hooks that run the marker), folder trust written to `~/.copilot/config.json` " +
		"(`trustedFolders`), offline mode (`COPILOT_OFFLINE=true`) with a custom OpenAI-compatible provider " +
		"(`COPILOT_PROVIDER_BASE_URL`) pointing at a fake model on 127.0.0.1, so that no GitHub account is needed, " +
		"the updater off and the proxy refusing every other host. The CLI's native package, which it unpacks into a fresh HOME " +
		"on its first start, is unpacked once into the install's cache and linked into each HOME. \"-p\" runs `copilot -p \"say ok\" --allow-all-tools` " +
		"(`copilot mcp list` lists servers without starting them). \"Contract\" is docs/copilot-cli.md.",
}

// copilotPackage is the XDG cache directory that holds Copilot CLI's
// native package as the CLI unpacks it on its first start in a HOME (235
// MB; 24 s on a loaded machine, in every run of a fresh HOME). It is
// unpacked once, beside the npm install in its cache, and linked into
// each run's HOME (linkCopilotPackage).
var copilotPackage struct {
	once sync.Once
	dir  string
	err  error
}

func copilotUnpacked() (string, error) {
	p := &copilotPackage
	p.once.Do(func() {
		cache, err := copilotCLI.cacheDir()
		if err != nil {
			p.err = err
			return
		}
		dir := filepath.Join(cache, "xdg-cache")
		unpacked := func() bool {
			m, _ := filepath.Glob(filepath.Join(dir, "copilot", "pkg", "*", copilotCLI.version))
			return len(m) > 0
		}
		if unpacked() {
			p.dir = dir
			return
		}
		tmp, err := os.MkdirTemp(cache, "xdg-cache.tmp-")
		if err != nil {
			p.err = err
			return
		}
		defer os.RemoveAll(tmp)
		if out, err := runBounded(4*time.Minute, tmp, isolatedEnv(tmp, copilotEnv), copilotCLI.path, "--version"); err != nil {
			p.err = fmt.Errorf("unpacking Copilot CLI's package: %v\n%s", err, out)
			return
		}
		// Renamed into place whole; another test process may have done it first.
		if err := os.Rename(filepath.Join(tmp, ".cache"), dir); err != nil && !unpacked() {
			p.err = err
			return
		}
		p.dir = dir
	})
	return p.dir, p.err
}

// linkCopilotPackage links the unpacked package (copilotUnpacked) into the
// sandbox's HOME, where Copilot CLI looks for it.
func (s *sandbox) linkCopilotPackage() {
	dir, err := copilotUnpacked()
	if err != nil {
		s.t.Fatal(err)
	}
	link := filepath.Join(s.home, ".cache", "copilot", "pkg")
	if _, err := os.Lstat(link); err == nil { // linked by an earlier run of the scenario
		return
	}
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "copilot", "pkg"), link); err != nil {
		s.t.Fatal(err)
	}
}

func init() {
	agentPredictors[copilot.id] = func(t *testing.T, launchDir string, env map[string]string, headless bool) map[string]bool {
		return predictAgent(t, copilot.id, launchDir, env, headless)
	}
}

// copilotMCP writes <path> with a marker server for each name.
func (s *sandbox) copilotMCP(path string, names ...string) {
	servers := obj{}
	for _, n := range names {
		servers[n] = s.server(n)
	}
	s.write(path, obj{"mcpServers": servers})
}

// trustCopilot writes ~/.copilot/config.json trusting dirs (absolute),
// with the comment header Copilot CLI itself writes.
func (s *sandbox) trustCopilot(dirs ...string) {
	s.write("~/.copilot/config.json", "// User settings belong in settings.json.\n// This file is managed automatically.\n"+
		string(mustJSON(obj{"trustedFolders": dirs}))+"\n")
}

func TestCopilotCLI(t *testing.T) { testSuite(t, copilot) }

// copilotScenarios are few runs, each holding several facts: a run costs
// 30 s or more (the first unpacks the binary's package into the fresh
// HOME's cache).
func copilotScenarios() []agentScenario {
	return []agentScenario{
		{
			name:     "untrusted/-p",
			contract: "an untrusted folder: no workspace server starts (no trust prompt under -p)",
			mode:     headless,
			setup:    func(s *sandbox) { s.copilotMCP(".mcp.json", "db") },
		},
		{
			name: "layout/-p",
			contract: "trusted; launched in repo/sub: .mcp.json, else .github/mcp.json, in each directory up to the git top, " +
				"none above it; the nearest file wins a name; every server starts without asking",
			mode: headless,
			dir:  "sub",
			setup: func(s *sandbox) {
				s.trustCopilot(s.outer)
				s.write(".mcp.json", obj{"mcpServers": obj{"db": s.server("db", "root"), "shared": s.server("shared", "root")}})
				s.copilotMCP(".github/mcp.json", "ignored")
				s.write("sub/.github/mcp.json", obj{"mcpServers": obj{"shared": s.server("shared", "sub"), "sub": s.server("sub")}})
				s.copilotMCP(s.outer+"/.mcp.json", "outer")
			},
			want: []string{"db", "shared", "sub"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["shared"][0]; !slices.Equal(r.Argv, []string{"shared", "sub"}) {
					t.Errorf("shared ran as %q, want sub/.github/mcp.json's", r.Argv)
				}
			},
		},
		{
			name:     "trust-sub/-p",
			contract: "only repo/sub trusted, launched there: sub's config runs, the top's does not",
			mode:     headless,
			dir:      "sub",
			setup: func(s *sandbox) {
				s.trustCopilot(s.repo + "/sub")
				s.copilotMCP(".mcp.json", "top")
				s.copilotMCP("sub/.mcp.json", "sub")
			},
			want: []string{"sub"},
		},
		{
			name:     "disable/-p",
			contract: "--disable-mcp-server=NAME keeps exactly that server off, over --enable-mcp-server (launch's handover)",
			mode:     headless,
			args:     []string{"--disable-mcp-server=db", "--enable-mcp-server", "db", "--disable-mcp-server=Other"},
			setup: func(s *sandbox) {
				s.trustCopilot(s.repo)
				s.copilotMCP(".github/mcp.json", "db", "other")
			},
			want:      []string{"other"},
			noPredict: "a flag of the command line: launch's handover (client.CopilotArgv), which the gate's reading of the folder does not model",
		},
		{
			name:     "ws-command/-p",
			contract: "trusted; a `.mcp.json` entry of type ws with a url and a command (Claude Code connects to the url): does Copilot CLI spawn the command?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.trustCopilot(s.repo)
				e := s.server("db")
				e["type"], e["url"] = "ws", "ws://127.0.0.1:9/mcp"
				s.write(".mcp.json", obj{"mcpServers": obj{"db": e, "other": s.server("other")}})
			},
			open:      true,
			want:      []string{"other"},
			answer:    "No: Copilot CLI connects to the url and never spawns the command, as Claude Code; its dialect counts type ws with a url as remote.",
			noPredict: "a remote server: the gate counts a url Copilot CLI connects to as running, the markers record spawns (client/shared_mcp_test.go holds the reading)",
		},
		{
			name:     "interpolation/-p",
			contract: "command, args and env expand $VAR, ${VAR} and ${VAR:-default}, the server's own env included; an undefined variable stays literal",
			mode:     headless,
			env:      map[string]string{"FID_A": "aa"},
			setup: func(s *sandbox) {
				s.trustCopilot(s.repo)
				s.write(".mcp.json", obj{"mcpServers": obj{"db": obj{"command": "$FID_BIN",
					"args": []string{markerFlag, "db", "${FID_A}", "$FID_UNDEF", "${FID_UNDEF:-d}", "$OWN"},
					"env":  obj{"OWN": "own"}}}})
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"][0]; !slices.Equal(r.Argv, []string{"db", "aa", "$FID_UNDEF", "d", "own"}) {
					t.Errorf("db ran as %q, want [db aa $FID_UNDEF d own]", r.Argv)
				}
			},
		},
	}
}
