package fidelity

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/mcp-guard/mcp-guard/client"
)

// codexHookLine is a hook command line that runs the marker as name with
// stdin closed, its marker directory set in the line itself.
func (s *sandbox) codexHookLine(name string) string {
	return "MARKER_DIR=" + shQuote(s.liveMarkers()) + " " + shQuote(s.marker) + " " + markerFlag + " " + name + " </dev/null"
}

// codexHooks writes .codex/hooks.json: one command hook per event.
func (s *sandbox) codexHooks(lines map[string]string) {
	h := obj{}
	for ev, line := range lines {
		h[ev] = []obj{{"hooks": []obj{{"type": "command", "command": line}}}}
	}
	s.write(".codex/hooks.json", obj{"hooks": h})
}

// codexScriptHook is the command of a hook that runs the repository's
// hook.sh, which runs the marker as hook-script (the marker's name in
// the command line too, for mcp-guard's prediction); extra are more
// arguments hook.sh passes the marker.
const codexScriptHook = "sh ./hook.sh " + markerFlag + " hook-script"

func (s *sandbox) hookScript(extra string) {
	s.write("hook.sh", "MARKER_DIR="+shQuote(s.liveMarkers())+" exec "+shQuote(s.marker)+` "$@"`+extra+" </dev/null\n")
}

// trustCodexHooks trusts every hook of the project the way a user does:
// interactive Codex's "Hooks need review" dialog, "Trust all and
// continue" (it writes [hooks.state."<key>"] trusted_hash to the user's
// config.toml), then quits. Nothing runs before the first prompt.
func (s *sandbox) trustCodexHooks() {
	s.t.Helper()
	bin := codexCLI.get(s.t)
	api := newFakeModel(s.t)
	extra := codex.prepare(s, api)
	extra["PWD"], extra["TERM"] = s.repo, "xterm-256color"
	extra["MARKER_DIR"] = filepath.Join(s.markerRoot, "tui") // nothing may run here
	env := isolatedEnv(s.home, extra)
	p, err := s.startPane("trust-hooks.sh", s.repo, env, []string{bin})
	if err != nil {
		s.t.Fatal(err)
	}
	defer p.stop()
	wait := func(sub string) {
		for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
			if strings.Contains(p.screen(), sub) {
				return
			}
		}
		s.t.Fatalf("interactive Codex never showed %q:\n%s", sub, p.screen())
	}
	wait("Trust all and continue")
	path := filepath.Join(s.home, ".codex", "config.toml")
	var pressed time.Time
	for end := time.Now().Add(45 * time.Second); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
		if data, _ := os.ReadFile(path); strings.Contains(string(data), "trusted_hash") {
			return
		}
		if time.Since(pressed) < 1500*time.Millisecond {
			continue
		}
		// Each key is sent for what the screen shows, and again when the
		// screen has not moved: on a loaded machine Codex can draw its
		// dialog before it reads keys (both keys were lost at load 4-6),
		// or take an Enter before a Down.
		pane := p.screen()
		switch {
		case strings.Contains(pane, "› 2. Trust all and continue"):
			p.keys("Enter")
		case strings.Contains(pane, "› 1. Review hooks"):
			p.keys("Down")
		case strings.Contains(pane, "t trust all"):
			// The hooks list ("t trust all · enter review · esc close"),
			// opened by an Enter that came first: trust all from there.
			p.keys("t")
		default:
			continue
		}
		pressed = time.Now()
	}
	s.t.Fatalf("Codex recorded no trusted_hash:\n%s", p.screen())
}

// codexHookStates are the trusted_hash values Codex recorded in the
// user's config.toml, by hooks.state key.
func codexHookStates(t *testing.T, s *sandbox) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.home, ".codex", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Hooks struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	if err := toml.Unmarshal(data, &cfg); err != nil {
		t.Fatalf("the user's config.toml: %v\n%s", err, data)
	}
	out := map[string]string{}
	for k, v := range cfg.Hooks.State {
		out[k] = v.TrustedHash
	}
	return out
}

// codexHookOff turns off the hook whose hooks.state key ends in suffix
// ("session_start:0:0"), as /hooks does: enabled = false in its table.
func (s *sandbox) codexHookOff(suffix string) {
	s.t.Helper()
	path := filepath.Join(s.home, ".codex", "config.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "[hooks.state.") && strings.HasSuffix(l, suffix+`"]`) {
			lines[i] = l + "\nenabled = false"
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
				s.t.Fatal(err)
			}
			return
		}
	}
	s.t.Fatalf("no hooks.state table for %s:\n%s", suffix, data)
}

// codexHookScenarios observe what Codex runs from a project's hooks
// (.codex/hooks.json, a layer's [hooks]): only in a trusted project, only
// once you trusted the hook, bound to its command and not to the script
// it runs.
func codexHookScenarios() []agentScenario {
	trusted := func(s *sandbox) {
		s.hookScript("")
		s.codexHooks(map[string]string{"UserPromptSubmit": codexScriptHook, "SessionStart": s.codexHookLine("hook-start")})
		s.trustCodex("", "")
	}
	return []agentScenario{
		{
			name:     "hooks-untrusted-project/-p",
			contract: "`codex exec` in an untrusted project: does a .codex/hooks.json hook run?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.codexHooks(map[string]string{"SessionStart": s.codexHookLine("hook-start")})
			},
			open:   true,
			answer: "No: Codex does not load an untrusted project's hooks.",
		},
		{
			name:     "hooks-new/-p",
			contract: "`codex exec` in a trusted project, hooks never reviewed in Codex: do they run?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.codexHooks(map[string]string{"SessionStart": s.codexHookLine("hook-start"), "UserPromptSubmit": s.codexHookLine("hook-prompt")})
				s.trustCodex("", "")
			},
			open: true,
			answer: "No, silently: interactive Codex asks \"Hooks need review\" first (and records " +
				"`[hooks.state.\"<file>:<event>:<group>:<handler>\"] trusted_hash` in the user's config.toml when you trust them); `codex exec` skips them.",
		},
		{
			name:     "hooks-trusted-script-swap/-p",
			contract: "hooks trusted in Codex's dialog run under `codex exec`; a pull that rewrites the script the command runs: does it still run without asking?",
			mode:     headless,
			setup:    func(s *sandbox) { trusted(s); s.trustCodexHooks() },
			swap: func(s *sandbox) {
				s.hookScript(" --evil")
				s.commit()
			},
			want: []string{"hook-script", "hook-start"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["hook-script"]; len(r) != 1 || !slices.Contains(r[0].Argv, "--evil") {
					t.Errorf("the rewritten script did not run: %+v", r)
				}
			},
			open:   true,
			answer: "Yes: Codex keeps a hash of the command (with its event, matcher and timeout), not of the script it runs; the changed script runs without asking.",
		},
		{
			name:     "hooks-trusted-command-changed/-p",
			contract: "hooks trusted in Codex's dialog, then the UserPromptSubmit command changes: does `codex exec` run it?",
			mode:     headless,
			setup: func(s *sandbox) {
				trusted(s)
				s.trustCodexHooks()
				s.codexHooks(map[string]string{"UserPromptSubmit": codexScriptHook + " --changed", "SessionStart": s.codexHookLine("hook-start")})
			},
			want:   []string{"hook-start"},
			open:   true,
			answer: "No: a changed command is a new hook to Codex (it asks again interactively); the unchanged one still runs.",
		},
		{
			name: "hooks-hash/-p",
			contract: "the trusted_hash Codex records for hooks of several shapes (a matcher, one on an event that takes none, a timeout, " +
				"a timeout of 0, a statusMessage, quotes, a tab and non-ASCII in the command): is it the hash mcp-guard computes?",
			mode: headless,
			setup: func(s *sandbox) {
				s.write(".codex/hooks.json", obj{"hooks": obj{
					"SessionStart": []obj{{"matcher": "startup|resume", "hooks": []obj{{"type": "command", "command": s.codexHookLine("hook-start"),
						"timeout": 30, "statusMessage": "Starting \u2026 \"q\""}}},
						{"matcher": "startup", "hooks": []obj{{"type": "command", "command": s.codexHookLine("hook-start2"), "timeout": 0}}}},
					"UserPromptSubmit": []obj{{"matcher": "ignored", "hooks": []obj{{"type": "command",
						"command": s.codexHookLine("hook-prompt") + " # \t'\\ é <&>"}}}},
				}})
				s.trustCodex("", "")
				s.trustCodexHooks()
			},
			want: []string{"hook-prompt", "hook-start", "hook-start2"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				data, err := os.ReadFile(filepath.Join(s.repo, ".codex", "hooks.json"))
				if err != nil {
					t.Fatal(err)
				}
				state := codexHookStates(t, s)
				for name, key := range map[string]string{
					"hooks.SessionStart[0].hooks[0]":     "session_start:0:0",
					"hooks.UserPromptSubmit[0].hooks[0]": "user_prompt_submit:0:0",
					"hooks.SessionStart[1].hooks[0]":     "session_start:1:0",
				} {
					key = filepath.Join(s.repo, ".codex", "hooks.json") + ":" + key
					got := client.CodexHookHash(filepath.Join(s.repo, ".codex", "hooks.json"), data, name)
					if want := state[key]; got == "" || got != want {
						t.Errorf("%s: mcp-guard computes %q; Codex recorded %q under %q (all: %v)", name, got, want, key, state)
					}
				}
			},
			open:   true,
			answer: "Yes, for each: SHA-256 of the sorted, compact JSON of {event_name, matcher (dropped for UserPromptSubmit), hooks: [{type, command, timeout (600 unset, at least 1), async, statusMessage}]}.",
		},
		{
			name:     "hooks-disabled/-p",
			contract: "hooks trusted in Codex's dialog, then one turned off (`enabled = false` under its key in the user's hooks.state): does `codex exec` run it?",
			mode:     headless,
			setup: func(s *sandbox) {
				trusted(s)
				s.trustCodexHooks()
				s.codexHookOff("session_start:0:0")
			},
			want:   []string{"hook-script"},
			open:   true,
			answer: "No: Codex skips a hook turned off, whatever its hash; the other trusted hook runs.",
		},
		{
			name:     "hooks-bypass/-p",
			contract: "`codex exec --dangerously-bypass-hook-trust` in a trusted project: do hooks never reviewed run?",
			mode:     headless,
			args:     []string{"--dangerously-bypass-hook-trust"},
			setup: func(s *sandbox) {
				s.codexHooks(map[string]string{"SessionStart": s.codexHookLine("hook-start")})
				s.trustCodex("", "")
			},
			want:      []string{"hook-start"},
			open:      true,
			answer:    "Yes: the flag runs every enabled hook without review (Codex prints a warning).",
			noPredict: "mcp-guard models Codex without the flag, which the user passes to run every hook unreviewed (OPEN: launch does not refuse it)",
		},
		{
			name:     "hooks-toml/-p",
			contract: "a `[[hooks.SessionStart]]` table in the project's .codex/config.toml, trusted in Codex's dialog: does it run?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = "+
					strconv.Quote(s.codexHookLine("hook-toml"))+"\n")
				s.trustCodex("", "")
				s.trustCodexHooks()
			},
			want:   []string{"hook-toml"},
			open:   true,
			answer: "Yes: a layer's [hooks] are hooks like hooks.json's, trusted under the config.toml's path.",
		},
	}
}
