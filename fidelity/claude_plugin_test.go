package fidelity

import (
	"slices"
	"testing"
)

// claudePluginScenarios observe a plugin the repository's settings enable
// (enabledPlugins) from a marketplace only the user's own state knows:
// declared in ~/.claude/settings.json (extraKnownMarketplaces, which
// `claude plugin marketplace add` writes) or recorded in
// ~/.claude/plugins/known_marketplaces.json (which it writes too). The
// marketplace `mine` (sandbox.market) holds one plugin, `fmt`, with a
// SessionStart hook and an MCP server, the markers fmt-hook and
// fmt-server; mcp-guard's entry plugins.fmt@mine stands for both
// (addRuns).
func claudePluginScenarios() []scenario {
	// userMarket declares ~/market in the user's settings, as `claude
	// plugin marketplace add ~/market` does; enable makes the repository
	// enable its plugin.
	userMarket := func(trusted, enable bool) func(s *sandbox) {
		return func(s *sandbox) {
			s.market("~/market")
			s.write(userSettings, obj{"extraKnownMarketplaces": obj{"mine": obj{"source": obj{"source": "directory", "path": s.home + "/market"}}}})
			if enable {
				s.write(".claude/settings.json", obj{"enabledPlugins": obj{"fmt@mine": true}})
			}
			if trusted {
				s.trust()
			}
		}
	}
	// registered records dir (absolute) as the marketplace `mine` in the
	// plugin registry, as `claude plugin marketplace add` does.
	registered := func(s *sandbox, dir string) {
		s.write("~/.claude/plugins/known_marketplaces.json", obj{"mine": obj{
			"source":          obj{"source": "directory", "path": dir},
			"installLocation": dir, "lastUpdated": "2026-12-03T06:09:24.278Z"}})
	}
	return []scenario{
		{
			name:     "plugin-user-market/-p",
			contract: "claude -p in an untrusted folder whose .claude/settings.json enables `fmt@mine`, a plugin of the marketplace `mine` only the user's ~/.claude/settings.json declares (a directory): does it load, and do its hook and MCP server run?",
			mode:     headless,
			setup:    userMarket(false, true),
			want:     []string{"fmt-hook", "fmt-server"},
			open:     true,
			answer:   "Yes: the repository's enabledPlugins loads a plugin of the user's own marketplace with no install and no prompt, and `claude -p` runs its hook and server in a folder not trusted.",
		},
		{
			name:         "plugin-user-market/list",
			contract:     "the same, `claude mcp list` in the untrusted folder: does it start the plugin's server?",
			setup:        userMarket(false, true),
			want:         []string{"fmt-server"},
			open:         true,
			answer:       "Yes: `claude mcp list` starts the server of a plugin the repository enables from the user's marketplace, untrusted.",
			attempted:    []string{"fmt-hook"},
			attemptedWhy: "the plugin's hook, which `claude mcp list` fires no session for (mcp-guard counts a plugin whole)",
		},
		{
			name:      "plugin-user-market/tui",
			contract:  "the same, the interactive client in the untrusted folder: does the plugin run before the trust dialog?",
			mode:      tui,
			setup:     userMarket(false, true),
			check:     screenShows("Trusting this folder loads .claude/settings.json"),
			open:      true,
			answer:    "No: it asks to trust the folder first, naming .claude/settings.json and not the plugin, and runs nothing.",
			noPredict: "`Interactive` follows `claude mcp list`, which starts the plugin's server here; the TUI asks for trust first",
		},
		{
			name:     "plugin-user-market-trusted/tui",
			contract: "the interactive client in the trusted folder: does the plugin run, and is anything asked?",
			mode:     tui,
			setup:    userMarket(true, true),
			want:     []string{"fmt-hook", "fmt-server"},
			open:     true,
			answer:   "It runs its hook and server with no dialog: trusting the folder is all the repository's enabledPlugins needs.",
		},
		{
			name:     "plugin-known-market/-p",
			contract: "claude -p, untrusted, with `mine` only in ~/.claude/plugins/known_marketplaces.json (no settings declare it): does the repository's `fmt@mine` run?",
			mode:     headless,
			setup: func(s *sandbox) {
				s.market("~/market")
				registered(s, s.home+"/market")
				s.write(".claude/settings.json", obj{"enabledPlugins": obj{"fmt@mine": true}})
			},
			want:   []string{"fmt-hook", "fmt-server"},
			open:   true,
			answer: "Yes: a marketplace the plugin registry records is as good as a declared one.",
		},
		{
			name:     "plugin-in-repo-market/-p",
			contract: "claude -p, untrusted, the registry recording the repository's own ./market (the user ran `claude plugin marketplace add ./market`), .claude/settings.json enabling `fmt@mine`; then a commit changes only the plugin's hook in ./market",
			mode:     headless,
			setup: func(s *sandbox) {
				s.market("market")
				registered(s, s.repo+"/market")
				s.write(".claude/settings.json", obj{"enabledPlugins": obj{"fmt@mine": true}})
			},
			swap: func(s *sandbox) {
				s.write("market/fmt/hooks/hooks.json", obj{"hooks": obj{"SessionStart": []obj{{"hooks": []obj{
					{"type": "command", "command": s.hookCommand("fmt-hook") + " --v2"}}}}}})
				s.commit()
			},
			want: []string{"fmt-hook", "fmt-server"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["fmt-hook"]; len(r) != 1 || !slices.Contains(r[0].Argv, "--v2") {
					t.Errorf("the changed hook did not run as changed: %+v", r)
				}
			},
			open:   true,
			answer: "The changed hook runs, with no prompt: the repository's files are the plugin's code, so mcp-guard binds the marketplace's directory to the entry.",
		},
		{
			name:     "plugin-user-market-off/-p",
			contract: "the control: the user's marketplace declared, the repository enabling nothing: does the plugin run?",
			mode:     headless,
			setup:    userMarket(true, false),
			open:     true,
			answer:   "No: a marketplace alone loads nothing; the repository's enabledPlugins is what turns the plugin on.",
		},
		{
			name:      "plugin-repo-market/-p",
			contract:  "claude -p, untrusted, .claude/settings.json declaring the marketplace `mine` itself (./market, a directory) and enabling `fmt@mine`: does it run?",
			mode:      headless,
			setup:     func(s *sandbox) { s.market("market"); s.repoMarket() },
			open:      true,
			answer:    "No: Claude Code loads a declared marketplace in place only from an absolute path (its bundle says so); in a trusted folder it records the repository's in its registry in the background (observed once, not held here: the plugin's server started mid-session).",
			noPredict: "mcp-guard counts a plugin of the repository's own marketplace as running under `claude -p` (more, never less)",
		},
		{
			name:     "plugin-launch-vetted/-p",
			contract: "trusted, the user's marketplace, the repository enabling `fmt@mine`: `claude -p` with launch's argv (`--mcp-config` a vetted file of no server, `--strict-mcp-config`): which of the plugin's hook and server run?",
			mode:     headless,
			setup: func(s *sandbox) {
				userMarket(true, true)(s)
				s.vetted(obj{})
			},
			want:      []string{"fmt-hook"},
			open:      true,
			answer:    "Its hook runs; its MCP server does not: `--strict-mcp-config` keeps a plugin's servers out too, and launch's line says so of a reviewed plugin.",
			noPredict: "the vetted argv keeps every server but its own out; launch names the reviewed plugins whose hooks still run",
		},
		{
			name:     "plugin-launch-handoff/-p",
			contract: "the same with launch's settings handoff (`--setting-sources user --settings`) leaving the plugin out (one hook reviewed, one not): does the plugin the repository enabled run?",
			mode:     headless,
			setup: func(s *sandbox) {
				userMarket(true, false)(s)
				s.hooks(".claude/settings.json", map[string]string{"SessionStart": "hook-reviewed", "UserPromptSubmit": "hook-unreviewed"},
					obj{"enabledPlugins": obj{"fmt@mine": true}})
				if left := s.handoff("hook-reviewed"); len(left) != 2 {
					s.t.Fatalf("the handoff left out %v, want the plugin and the unreviewed hook", left)
				}
			},
			want:      []string{"hook-reviewed"},
			open:      true,
			answer:    "No: with `--setting-sources user` the repository's enabledPlugins is not read, so a plugin it enabled stays off, its marketplace being the user's.",
			noPredict: "launch hands over only the reviewed entries",
		},
	}
}

// market writes the plugin marketplace `mine` into dir: one plugin, `fmt`
// (a relative source, in the marketplace's own directory), with a
// SessionStart hook and an MCP server, the markers fmt-hook and
// fmt-server.
func (s *sandbox) market(dir string) {
	s.write(dir+"/.claude-plugin/marketplace.json", obj{"name": "mine", "owner": obj{"name": "fidelity"},
		"plugins": []obj{{"name": "fmt", "source": "./fmt"}}})
	s.write(dir+"/fmt/.claude-plugin/plugin.json", obj{"name": "fmt", "version": "1.0.0"})
	s.write(dir+"/fmt/hooks/hooks.json", obj{"hooks": obj{"SessionStart": []obj{{"hooks": []obj{
		{"type": "command", "command": s.hookCommand("fmt-hook")}}}}}})
	s.write(dir+"/fmt/.mcp.json", obj{"mcpServers": obj{"fmt-server": s.server("fmt-server")}})
}

// repoMarket makes .claude/settings.json declare ./market as the
// marketplace `mine` and enable its plugin `fmt`.
func (s *sandbox) repoMarket() {
	s.write(".claude/settings.json", obj{"enabledPlugins": obj{"fmt@mine": true},
		"extraKnownMarketplaces": obj{"mine": obj{"source": obj{"source": "directory", "path": "./market"}}}})
}
