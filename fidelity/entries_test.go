package fidelity

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// hook writes the settings file at path with one command hook of event
// that runs the marker as name (in Claude Code's documented form).
func (s *sandbox) hookCommand(name string) string {
	return "'" + strings.ReplaceAll(s.marker, "'", `'\''`) + "' " + markerFlag + " " + name
}

func (s *sandbox) hooks(path string, events map[string]string, extra obj) {
	h := obj{}
	for ev, name := range events {
		h[ev] = []obj{{"hooks": []obj{{"type": "command", "command": s.hookCommand(name)}}}}
	}
	v := obj{"hooks": h}
	for k, x := range extra {
		v[k] = x
	}
	s.write(path, v)
}

// ranIn checks that the entry name ran once with the launch directory
// (dir below the repository) as its working directory.
func ranIn(name, dir string) func(t *testing.T, s *sandbox, o outcome) {
	return func(t *testing.T, s *sandbox, o outcome) {
		want := s.repo
		if dir != "" {
			want += "/" + dir
		}
		if r := o.spawned[name]; len(r) != 1 || r[0].Cwd != want {
			t.Errorf("%s: want one run in %s, got %+v", name, want, r)
		}
	}
}

// entryScenarios observe what Claude Code runs from a repository besides
// its servers (client.EntryHook and the command-valued settings): hooks
// and helpers, each a marker named for what it is.
func entryScenarios() []scenario {
	return []scenario{
		{
			name:     "settings-hook/-p",
			contract: "claude -p in an untrusted folder runs the .claude/settings.json SessionStart and UserPromptSubmit hooks without asking, in the launch directory",
			mode:     headless,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.hooks(".claude/settings.json", map[string]string{"SessionStart": "hook-start", "UserPromptSubmit": "hook-prompt"}, nil)
			},
			want:   []string{"db", "hook-prompt", "hook-start"},
			check:  ranIn("hook-start", ""),
			open:   true,
			answer: "Hooks of the repository's settings run under `claude -p` without a trust dialog, as its servers do.",
		},
		{
			name:     "settings-local-hook/-p",
			contract: "claude -p runs a hook of a committed .claude/settings.local.json",
			mode:     headless,
			setup: func(s *sandbox) {
				s.hooks(".claude/settings.local.json", map[string]string{"SessionStart": "hook-local"}, nil)
			},
			want:   []string{"hook-local"},
			open:   true,
			answer: "`.claude/settings.local.json` hooks run like the shared file's.",
		},
		{
			name:     "subdir-root-hook/-p",
			contract: "claude -p launched in repo/a: whose .claude/settings.json hooks run, a/'s or the git root's?",
			mode:     headless,
			dir:      "a",
			setup: func(s *sandbox) {
				s.hooks("a/.claude/settings.json", map[string]string{"SessionStart": "hook-sub"}, nil)
				s.hooks(".claude/settings.json", map[string]string{"SessionStart": "hook-root"}, nil)
			},
			want:   []string{"hook-sub"},
			check:  ranIn("hook-sub", "a"),
			open:   true,
			answer: "Hooks follow the settings files: the launch directory's settings.json runs, the git root's does not.",
		},
		{
			name:     "settings-hook-exec/-p",
			contract: "claude -p runs a SessionStart hook in the exec form (`command` and `args`, no shell), spawning the command with those arguments",
			mode:     headless,
			setup: func(s *sandbox) {
				s.write(".claude/settings.json", obj{"hooks": obj{"SessionStart": []obj{{"hooks": []obj{
					{"type": "command", "command": s.marker, "args": []string{markerFlag, "hook-exec"}}}}}}})
			},
			want:   []string{"hook-exec"},
			check:  ranIn("hook-exec", ""),
			open:   true,
			answer: "The exec form runs: the command with its `args`, so a pull that changes only the args changes what runs (mcp-guard binds them).",
		},
		{
			name:     "helpers/-p",
			contract: "claude -p with statusLine and a SessionStart hook: which run headless?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.hooks(".claude/settings.json", map[string]string{"SessionStart": "hook-start"},
					obj{"statusLine": obj{"type": "command", "command": s.hookCommand("status-line")}})
			},
			want:         []string{"hook-start"},
			open:         true,
			answer:       "The status line is drawn only by the interactive client: it does not run under `claude -p`.",
			attempted:    []string{"status-line"},
			attemptedWhy: "which only the interactive client runs (mcp-guard does not tell the two apart for it: more, never less)",
		},
		{
			name:     "skill-hooks-unused/-p",
			contract: "claude -p \"say ok\" with a project skill and a subagent whose frontmatter declares SessionStart, UserPromptSubmit and Stop hooks: do any run when neither is used?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.frontmatterHooks(".claude/skills/probe/SKILL.md", "probe", map[string]string{"SessionStart": "skill-start", "UserPromptSubmit": "skill-prompt", "Stop": "skill-stop"})
				s.frontmatterHooks(".claude/agents/helper.md", "helper", map[string]string{"SessionStart": "agent-start", "Stop": "agent-stop"})
			},
			open:      true,
			answer:    "No: a skill's or subagent's hooks are scoped to it and run only while it is active.",
			noPredict: "mcp-guard counts a skill's or subagent's hooks as running whenever the folder's hooks do (it cannot tell when the model uses one)",
		},
		{
			name:     "skill-hooks-invoked/-p",
			contract: "claude -p \"/probe\" (the skill invoked): which of its frontmatter hooks run?",
			mode:     headless,
			env:      map[string]string{promptVar: "/probe"},
			setup: func(s *sandbox) {
				s.frontmatterHooks(".claude/skills/probe/SKILL.md", "probe", map[string]string{"SessionStart": "skill-start", "UserPromptSubmit": "skill-prompt", "Stop": "skill-stop"})
			},
			want:      []string{"skill-stop"},
			open:      true,
			answer:    "Its Stop hook runs when the turn ends, without asking: a project skill's hooks run in `claude -p` once it is used.",
			noPredict: "mcp-guard counts every hook of a skill as running (it cannot tell which events fire while it is active)",
		},
		{
			name: "launch-vetted-hook/-p",
			contract: "`claude -p …` with a vetted file of servers only: a settings hook still runs, " +
				"so launch hands over the settings too",
			mode: headless,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.hooks(".claude/settings.json", map[string]string{"SessionStart": "hook-start"}, nil)
				s.vetted(obj{"db": s.server("db")})
			},
			want:      []string{"db", "hook-start"},
			noPredict: "the vetted file names the servers; launch hands the settings too (launch-reviewed-hooks)",
		},
		{
			name: "launch-reviewed-hooks/-p",
			contract: "`mcp-guard launch -- claude -p …` with the settings handoff (--setting-sources user --settings): " +
				"the reviewed hook and apiKeyHelper of the repository run, the unreviewed hooks of settings.json and settings.local.json do not, the user's own hook does",
			mode: headless,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				hook := func(n string) obj { return obj{"type": "command", "command": s.hookCommand(n)} }
				s.write(".claude/settings.json", obj{
					"hooks": obj{
						"SessionStart":     []obj{{"hooks": []obj{hook("hook-reviewed"), hook("hook-unreviewed")}}},
						"UserPromptSubmit": []obj{{"hooks": []obj{hook("hook-prompt-unreviewed")}}},
					},
					"apiKeyHelper": s.shCommand("helper-reviewed", "echo dummy-key"),
				})
				s.hooks(".claude/settings.local.json", map[string]string{"SessionStart": "hook-local-unreviewed"}, nil)
				s.hooks(userSettings, map[string]string{"SessionStart": "hook-user"}, nil)
				s.trust()
				s.vetted(obj{"db": s.server("db")})
				if left := s.handoff("hook-reviewed", "helper-reviewed"); len(left) != 3 {
					s.t.Fatalf("the handoff left out %v, want the three unreviewed hooks", left)
				}
			},
			want:      []string{"db", "helper-reviewed", "hook-reviewed", "hook-user"},
			open:      true,
			answer:    "With `--setting-sources user` Claude Code reads neither repository settings file; `--settings` adds the reviewed entries, and the user's own settings keep working. (Also observed once, not held by this suite: it stops loading the project's CLAUDE.md and skills.)",
			noPredict: "launch hands over only the reviewed entries",
		},
	}
}

// frontmatterHooks is a skill's or subagent's Markdown file whose YAML
// frontmatter declares a command hook per event, each running the marker
// as its name.
func (s *sandbox) frontmatterHooks(path, name string, events map[string]string) {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: fidelity probe %s; use it when asked to probe\nhooks:\n", name, name)
	for _, ev := range slices.Sorted(maps.Keys(events)) {
		fmt.Fprintf(&b, "  %s:\n    - hooks:\n        - type: command\n          command: %s\n", ev, strconv.Quote(s.hookCommand(events[ev])))
	}
	b.WriteString("---\n" + subagentBody + "\n")
	s.write(path, b.String())
}

// shCommand is a command line that runs the marker as name with stdin
// closed (a marker otherwise serves MCP until stdin closes), through sh
// so that it reads the same split into words or run by a shell.
// then is what the shell runs after it (a discovery command prints [],
// the JSON list of no tools).
func (s *sandbox) shCommand(name, then string) string {
	return `sh -c "'` + strings.ReplaceAll(s.marker, "'", "") + `' ` + markerFlag + ` ` + name + ` </dev/null; ` + then + `"`
}

// geminiEntryScenarios observe what Gemini CLI runs from the workspace
// settings besides its servers: hooks and the tool commands.
func geminiEntryScenarios() []agentScenario {
	return []agentScenario{
		{
			name:     "entries-trusted/-p",
			contract: "trusted `gemini -p`: do the workspace's tools.discoveryCommand and SessionStart and BeforeAgent hooks run?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.trustGemini()
				hook := func(n string) []obj {
					return []obj{{"hooks": []obj{{"type": "command", "command": s.shCommand(n, "true")}}}}
				}
				s.write(".gemini/settings.json", obj{
					"tools": obj{"discoveryCommand": s.shCommand("discover", "echo []")},
					"hooks": obj{"SessionStart": hook("hook-start"), "BeforeAgent": hook("hook-agent")},
				})
			},
			want:   []string{"discover", "hook-agent", "hook-start"},
			open:   true,
			answer: "All three run without asking in a trusted folder; Gemini CLI prints a warning that the project's hooks will be executed, and stops with an error when the discovery command's output is not JSON.",
		},
		{
			name:     "hook-env/-p",
			contract: "trusted `gemini -p` with a BeforeAgent hook whose command is `probe-tool` and whose `env` sets PATH to start with the repository's bin: does the repository's bin/probe-tool run?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.trustGemini()
				s.write("bin/probe-tool", "#!/bin/sh\nMARKER_DIR="+shQuote(s.liveMarkers())+" exec "+shQuote(s.marker)+" "+markerFlag+" hook-env </dev/null\n")
				if err := os.Chmod(filepath.Join(s.repo, "bin/probe-tool"), 0o755); err != nil {
					s.t.Fatal(err)
				}
				s.write(".gemini/settings.json", obj{"hooks": obj{"BeforeAgent": []obj{{"hooks": []obj{
					{"type": "command", "command": "probe-tool", "env": obj{"PATH": "bin:/usr/bin:/bin"}}}}}}})
			},
			want:      []string{"hook-env"},
			open:      true,
			answer:    "Yes: Gemini CLI spreads a hook's `env` into its environment (a PATH into the repository chose what the line ran): mcp-guard binds the env and the files it makes the line run.",
			noPredict: "the marker is a file the hook's env makes its line run; mcp-guard predicts the hook itself, hooks.BeforeAgent[0].hooks[0]",
		},
		{
			name: "server-command/-p",
			contract: "trusted `gemini -p` with the workspace's mcp.serverCommand and an mcpServers entry named `mcp`: " +
				"is the command started as the server `mcp`, in place of that entry, split into words without a shell?",
			mode: headless,
			setup: func(s *sandbox) {
				s.trustGemini()
				s.write(".gemini/settings.json", obj{
					"mcpServers": obj{"mcp": s.server("mcp-entry"), "db": s.server("db")},
					"mcp":        obj{"serverCommand": `'` + strings.ReplaceAll(s.marker, "'", "") + `' ` + markerFlag + ` mcp`},
				})
			},
			want:   []string{"db", "mcp"},
			open:   true,
			answer: "Yes: the command runs as the server `mcp` and the mcpServers entry of that name does not; mcp-guard reads it as that server.",
		},
		{
			name:     "server-command-alone/-p",
			contract: "trusted `gemini -p` with only the workspace's mcp.serverCommand (no mcpServers): does mcp-guard predict the server `mcp` it starts?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.trustGemini()
				s.write(".gemini/settings.json", obj{
					"mcp": obj{"serverCommand": `'` + strings.ReplaceAll(s.marker, "'", "") + `' ` + markerFlag + ` mcp`},
				})
			},
			want:   []string{"mcp"},
			open:   true,
			answer: "Yes: the command runs as the server `mcp`, predicted as that server.",
		},
		{
			name: "workspace-extension/-p",
			contract: "trusted `gemini -p` with a workspace extension `.gemini/extensions/x/gemini-extension.json` " +
				"(an MCP server, a SessionStart hook in its hooks/hooks.json): does either run?",
			mode: headless,
			setup: func(s *sandbox) {
				s.trustGemini()
				s.workspaceExtension()
			},
			open:   true,
			answer: "No: Gemini CLI loads extensions only from ~/.gemini/extensions (installed with `gemini extensions install`); a workspace's .gemini/extensions is not read, so mcp-guard reads nothing there.",
		},
		{
			name:     "user-extension/-p",
			contract: "the control: the same extension in ~/.gemini/extensions (where `gemini extensions install` puts it) in a trusted folder",
			mode:     headless,
			setup: func(s *sandbox) {
				s.trustGemini()
				s.extension("~/.gemini/extensions/x")
			},
			want:      []string{"ext-hook", "ext-server"},
			open:      true,
			answer:    "Both run: the extension the workspace scenarios place is one Gemini CLI loads from the user's directory.",
			noPredict: "the user's own extension is the user's, never gated",
		},
		{
			name:     "workspace-extension/list",
			contract: "trusted `gemini mcp list` with the same workspace extension: is its server listed or started?",
			setup: func(s *sandbox) {
				s.trustGemini()
				s.workspaceExtension()
			},
			check:  func(t *testing.T, s *sandbox, o outcome) { notSays(t, o, "ext-server") },
			open:   true,
			answer: "No: `gemini mcp list` neither lists nor starts a workspace extension's server.",
		},
	}
}

// workspaceExtension writes an extension into the workspace's
// .gemini/extensions (where Gemini CLI keeps the user's own extensions
// under HOME): an MCP server and a SessionStart hook, each a marker.
func (s *sandbox) workspaceExtension() { s.extension(".gemini/extensions/x") }

// extension writes the extension x into dir.
func (s *sandbox) extension(dir string) {
	s.write(dir+"/gemini-extension.json", obj{"name": "x", "version": "1.0.0",
		"mcpServers": obj{"ext-server": s.server("ext-server")}})
	s.write(dir+"/hooks/hooks.json", obj{"hooks": obj{"SessionStart": []obj{{"hooks": []obj{{"type": "command", "command": s.shCommand("ext-hook", "true")}}}}}})
}

// notSays fails when the run's output holds sub.
func notSays(t *testing.T, o outcome, sub string) {
	t.Helper()
	if strings.Contains(o.output, sub) {
		t.Errorf("the output names %q:\n%s", sub, o.output)
	}
}
