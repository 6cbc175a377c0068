package fidelity

import (
	"path/filepath"
	"testing"
)

// copilotHook is one Copilot CLI hook whose line (field, "bash" or
// "command") runs the marker as name, with more members.
func (s *sandbox) copilotHook(field, name string, more obj) obj {
	h := obj{"type": "command", field: s.codexHookLine(name)}
	for k, v := range more {
		h[k] = v
	}
	return h
}

// copilotHookScenarios observe what Copilot CLI runs from a repository's
// hooks (.github/hooks/*.json, `hooks` of .github/copilot/settings.json):
// only in a trusted folder; the project root's hook files and settings
// hooks, not a subdirectory's; a hook's `bash` line before its `command`; Claude
// Code's nested form with PascalCase events; in the root or its `cwd`.
func copilotHookScenarios() []agentScenario {
	files := func(s *sandbox) {
		s.write(".github/hooks/a.json", obj{"version": 1, "hooks": obj{
			"sessionStart": []obj{
				s.copilotHook("bash", "hook-bash", obj{"command": s.codexHookLine("hook-command-beside-bash")}),
				s.copilotHook("command", "hook-command", obj{"cwd": "sub"}),
				{"type": "command", "powershell": s.codexHookLine("hook-powershell")},
			},
			"SessionStart": []obj{{"matcher": "*", "hooks": []obj{s.copilotHook("command", "hook-nested", nil)}}},
		}})
		s.write(".github/copilot/settings.json", obj{"hooks": obj{"sessionStart": []obj{s.copilotHook("bash", "hook-settings", nil)}}})
		s.write("sub/.github/hooks/b.json", obj{"version": 1, "hooks": obj{"sessionStart": []obj{s.copilotHook("bash", "hook-sub", nil)}}})
	}
	return []agentScenario{
		{
			name:     "hooks-untrusted/-p",
			contract: "an untrusted folder: no repository hook runs",
			mode:     headless,
			dir:      "sub",
			setup:    files,
		},
		{
			name: "hooks/-p",
			contract: "trusted; launched in repo/sub: the root's .github/hooks/*.json and settings.json hooks run without asking, " +
				"a hook's bash line before its command, a command-only hook, Claude Code's nested form with a PascalCase event; " +
				"not sub's .github/hooks, not a powershell-only hook (on Linux); a hook runs in the root or its cwd below it",
			mode:  headless,
			dir:   "sub",
			setup: func(s *sandbox) { files(s); s.trustCopilot(s.repo) },
			want:  []string{"hook-bash", "hook-command", "hook-nested", "hook-settings"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["hook-bash"]; len(r) != 1 || r[0].Cwd != s.repo {
					t.Errorf("hook-bash ran %+v, want once in %s", r, s.repo)
				}
				if r := o.spawned["hook-command"]; len(r) != 1 || r[0].Cwd != filepath.Join(s.repo, "sub") {
					t.Errorf("hook-command ran %+v, want once in its cwd sub", r)
				}
			},
		},
		{
			name:     "hooks-sub-settings/-p",
			contract: "trusted; launched in repo/sub: the hooks of sub/.github/copilot/settings.json do not run (the root's only)",
			mode:     headless,
			dir:      "sub",
			setup: func(s *sandbox) {
				s.write("sub/.github/copilot/settings.json", obj{"hooks": obj{"sessionStart": []obj{s.copilotHook("bash", "hook-sub-settings", nil)}}})
				s.trustCopilot(s.repo)
			},
		},
	}
}
