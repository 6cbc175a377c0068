package fidelity

import (
	"strings"
	"testing"
)

// helperCommand is a helper's command line: the marker as name, stdin
// closed (Claude Code waits for a credential helper to exit; the marker
// otherwise serves MCP until stdin closes).
func (s *sandbox) helperCommand(name string) string { return s.hookCommand(name) + " </dev/null" }

// vertexEnv makes Claude Code use Google Vertex AI with credentials that
// do not load (so that its credential check fails and it runs
// gcpAuthRefresh), with no network reached.
var vertexEnv = obj{"CLAUDE_CODE_USE_VERTEX": "1", "ANTHROPIC_VERTEX_PROJECT_ID": "fidelity", "CLOUD_ML_REGION": "us-east5",
	"GOOGLE_APPLICATION_CREDENTIALS": "/nonexistent/fidelity-key.json"}

// proxyHelperEnv turns proxyAuthHelper on (Claude Code runs it only
// then); the run's HTTPS_PROXY is the fake endpoint.
var proxyHelperEnv = obj{"CLAUDE_CODE_ENABLE_PROXY_AUTH_HELPER": "1"}

// helperSettings writes .claude/settings.json with the helpers named
// (gcp, proxy, status, subagent), the env that switches the first two on
// when env, and trusts the folder when trusted.
func helperSettings(trusted, env bool, helpers ...string) func(s *sandbox) {
	return func(s *sandbox) {
		set, vars := obj{}, obj{}
		for _, h := range helpers {
			switch h {
			case "gcp":
				set["gcpAuthRefresh"] = s.helperCommand("gcp-auth-refresh")
				for k, v := range vertexEnv {
					vars[k] = v
				}
			case "proxy":
				set["proxyAuthHelper"] = s.helperCommand("proxy-auth-helper")
				for k, v := range proxyHelperEnv {
					vars[k] = v
				}
			case "status":
				set["statusLine"] = obj{"type": "command", "command": s.hookCommand("status-line")}
			case "subagent":
				set["subagentStatusLine"] = obj{"type": "command", "command": s.hookCommand("subagent-status-line")}
				s.write(".claude/agents/helper.md", "---\nname: helper\ndescription: fidelity probe helper; use it when asked to probe\n---\n"+subagentBody+"\n")
			}
		}
		if env && len(vars) > 0 {
			set["env"] = vars
		}
		s.write(".claude/settings.json", set)
		if trusted {
			s.trust()
		}
	}
}

// ranSubagent checks that the model ran the subagent: the main
// session's request and at least one of the subagent's.
func ranSubagent(t *testing.T, s *sandbox, o outcome) {
	if o.api < 2 && !strings.Contains(o.output, "helper(probe)") {
		t.Errorf("the subagent did not run (%d model requests):\n%s", o.api, o.output)
	}
}

// saysGCPCredentials checks that the run stopped at Vertex's credentials.
func saysGCPCredentials(t *testing.T, s *sandbox, o outcome) {
	if !strings.Contains(o.output, "Could not load Google Cloud credentials") {
		t.Errorf("the run did not stop at the Google Cloud credentials:\n%s", o.output)
	}
}

// claudeHelperScenarios observe the command-valued settings of the
// repository's .claude/settings.json besides hooks (docs/claude-code.md's
// helpers): which run, when, in a trusted folder and not.
func claudeHelperScenarios() []scenario {
	const onlyWhen = "which Claude Code runs only when the session's environment (the repository's env included: gcp-auth-refresh/-p, proxy-auth-helper/-p) switches it on; mcp-guard counts it whenever the folder's settings run: more, never less"
	// The agent panel shows the subagent while the fake model holds its request.
	subagent := map[string]string{subagentVar: "helper", holdVar: "8s"}
	return []scenario{
		{
			name:     "status-line-trusted/tui",
			contract: "interactive, trusted: does the client run the repository's statusLine command to draw its status line?",
			mode:     tui,
			setup:    helperSettings(true, false, "status"),
			want:     []string{"status-line"},
			again:    []string{"status-line"},
			open:     true,
			answer:   "Yes: at start, without asking (`claude -p` draws none: helpers/-p).",
		},
		{
			name:     "subagent-status-line/tui",
			contract: "interactive, trusted, the model runs the subagent `helper` (its request held 8 s): does the client run the repository's subagentStatusLine command for its row in the agent panel?",
			mode:     tui,
			args:     []string{"--permission-mode", "acceptEdits", "probe with helper"},
			env:      subagent,
			setup:    helperSettings(true, false, "subagent"),
			want:     []string{"subagent-status-line"},
			again:    []string{"subagent-status-line"},
			check:    ranSubagent,
			open:     true,
			answer:   "Yes: while the subagent runs, without asking (the client warns that subagentStatusLine is deprecated).",
		},
		{
			name:         "subagent-status-line/-p",
			contract:     "claude -p, trusted, the model runs the subagent `helper` (held 8 s): does the subagentStatusLine command run headless?",
			mode:         headless,
			env:          subagent,
			setup:        helperSettings(true, false, "subagent"),
			check:        ranSubagent,
			open:         true,
			answer:       "No: there is no agent panel headless.",
			attempted:    []string{"subagent-status-line"},
			attemptedWhy: "which only the interactive client runs (mcp-guard does not tell the two apart for it: more, never less)",
		},
		{
			name: "helpers-untrusted/tui",
			contract: "interactive, untrusted, at the trust dialog, the repository's env switching gcpAuthRefresh (Vertex) and proxyAuthHelper on: " +
				"does statusLine, gcpAuthRefresh or proxyAuthHelper run yet?",
			mode:   tui,
			setup:  helperSettings(false, true, "status", "gcp", "proxy"),
			open:   true,
			answer: "No: nothing runs before the folder is trusted.",
		},
		{
			name:     "gcp-auth-refresh/-p",
			contract: "claude -p, untrusted: the repository's env selects Vertex (credentials that do not load): does its gcpAuthRefresh run?",
			mode:     headless,
			setup:    helperSettings(false, true, "gcp"),
			want:     []string{"gcp-auth-refresh"},
			again:    []string{"gcp-auth-refresh"},
			fails:    true,
			check:    saysGCPCredentials,
			open:     true,
			answer: "Yes: without asking, in a folder never trusted, before the session's first request (which then fails on the credentials), " +
				"once per attempt: the repository's own env makes its refresh command run.",
		},
		{
			name:     "gcp-auth-refresh/tui",
			contract: "interactive, trusted, the repository's env selecting Vertex: when does gcpAuthRefresh run?",
			mode:     tui,
			setup:    helperSettings(true, true, "gcp"),
			want:     []string{"gcp-auth-refresh"},
			again:    []string{"gcp-auth-refresh"},
			open:     true,
			answer:   "At start, without asking, before any prompt.",
		},
		{
			name:     "proxy-auth-helper/-p",
			contract: "claude -p, untrusted, a proxy in the environment: the repository's env sets CLAUDE_CODE_ENABLE_PROXY_AUTH_HELPER: does its proxyAuthHelper run?",
			mode:     headless,
			setup:    helperSettings(false, true, "proxy"),
			want:     []string{"proxy-auth-helper"},
			again:    []string{"proxy-auth-helper"},
			open:     true,
			answer:   "Yes: without asking, in a folder never trusted: the repository's own env switches it on.",
		},
		{
			name:         "proxy-auth-helper/tui",
			contract:     "interactive, trusted, the same env: does proxyAuthHelper run at start?",
			mode:         tui,
			setup:        helperSettings(true, true, "proxy"),
			open:         true,
			answer:       "Not at start (no prompt sent; the client's background requests through the proxy were refused): when it runs interactively was not observed.",
			attempted:    []string{"proxy-auth-helper"},
			attemptedWhy: "which this run did not reach (mcp-guard counts it in a trusted folder: more, never less)",
		},
		{
			name:         "helpers-off/-p",
			contract:     "the control: claude -p, untrusted, gcpAuthRefresh and proxyAuthHelper with nothing switching them on: does either run?",
			mode:         headless,
			setup:        helperSettings(false, false, "gcp", "proxy"),
			open:         true,
			answer:       "No: the Anthropic API needs neither.",
			attempted:    []string{"gcp-auth-refresh", "proxy-auth-helper"},
			attemptedWhy: onlyWhen,
		},
	}
}
