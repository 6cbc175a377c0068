package fidelity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
)

// projectHookState writes the repository's .codex/hooks.json with one
// SessionStart hook that runs the marker as hook-start, and a
// .codex/config.toml (layer) whose own [hooks.state] records Codex's
// trusted_hash of that hook, as the user's config.toml does once the
// user trusts it in Codex's dialog; extra is more of the layer.
func (s *sandbox) projectHookState(extra string) {
	s.t.Helper()
	s.codexHooks(map[string]string{"SessionStart": s.codexHookLine("hook-start")})
	path := filepath.Join(s.repo, ".codex", "hooks.json")
	data, err := json.Marshal(obj{"hooks": obj{"SessionStart": []obj{{"hooks": []obj{{"type": "command", "command": s.codexHookLine("hook-start")}}}}}})
	if err != nil {
		s.t.Fatal(err)
	}
	hash := client.CodexHookHash(path, data, "hooks.SessionStart[0].hooks[0]")
	if hash == "" {
		s.t.Fatal("mcp-guard computes no trusted_hash for the hook")
	}
	s.write(".codex/config.toml", "[hooks.state."+strconv.Quote(path+":session_start:0:0")+"]\ntrusted_hash = "+strconv.Quote(hash)+"\n"+extra)
}

// hookReview checks the screen for interactive Codex's hook review, shown
// or not.
func hookReview(shown bool) func(t *testing.T, s *sandbox, o outcome) {
	return func(t *testing.T, s *sandbox, o outcome) {
		if strings.Contains(o.output, "Hooks need review") != shown {
			t.Errorf("\"Hooks need review\" shown: %v, want %v:\n%s", !shown, shown, o.output)
		}
	}
}

// codexHookStateScenarios observe whether Codex honours a [hooks.state]
// table of a project layer: a repository that records its own hooks as
// trusted, with Codex's own hash of them.
func codexHookStateScenarios() []agentScenario {
	project := func(s *sandbox) { s.projectHookState(""); s.trustCodex("", "") }
	return []agentScenario{
		{
			name: "hooks-state-project/-p",
			contract: "`codex exec`, trusted: the project's .codex/config.toml records its own hooks.json hook as trusted " +
				"(`[hooks.state]` with Codex's trusted_hash of it): does the hook run?",
			mode:   headless,
			setup:  project,
			open:   true,
			answer: "No, silently: Codex takes hooks.state from the user's config only (the same record there runs the hook: hooks-state-user/tui, hooks-hash).",
		},
		{
			name:     "hooks-state-project/tui",
			contract: "the same, interactive: does the project's record spare the hook Codex's review?",
			mode:     tui,
			setup:    project,
			check:    hookReview(true),
			open:     true,
			answer:   "No: Codex asks \"Hooks need review\" (1 hook is new or changed) and runs nothing before it is answered.",
		},
		{
			name:     "hooks-state-user/tui",
			contract: "the control: the same record in the user's ~/.codex/config.toml, interactive: does the hook run without a review?",
			mode:     tui,
			setup: func(s *sandbox) {
				s.projectHookState("")
				record, err := os.ReadFile(filepath.Join(s.repo, ".codex", "config.toml"))
				if err != nil {
					s.t.Fatal(err)
				}
				s.write(".codex/config.toml", "")
				s.trustCodex(string(record), "")
			},
			want:   []string{"hook-start"},
			check:  hookReview(false),
			open:   true,
			answer: "Yes: no review, and the SessionStart hook runs.",
		},
	}
}
