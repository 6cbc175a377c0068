package fidelity

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// scenario is one observation: a world, one client run, and the set of
// servers the contract (the observations docs/claude-code.md states) says spawn.
type scenario struct {
	name     string
	contract string // the fact held, in the contract's words
	mode     mode
	dir      string // launch directory, relative to the repository
	args     []string
	env      map[string]string
	setup    func(s *sandbox)
	swap     func(s *sandbox) // if set: run, assert, swap, run again
	want     []string
	check    func(t *testing.T, s *sandbox, o outcome)
	// open: no contract answer; want is what claudeVersion was observed to do.
	open   bool
	answer string // for an open question: what the observation means
	// noPredict says why mcp-guard's prediction does not apply (a flag
	// that replaces the project's servers), empty when it does.
	noPredict string
	// attempted are servers Claude Code tries to start although nothing
	// spawns (the program does not exist): mcp-guard, which does not
	// search PATH, counts them as running, as it must for a program that
	// might exist.
	attempted []string
	// attemptedWhy says why mcp-guard counts attempted when it is not a
	// missing program ("" for that).
	attemptedWhy string
	// again are markers that may start more than once in the run (a
	// status line drawn again), which check then holds.
	again []string
	// fails: the run stops with an error before any model request (a
	// headless run whose credentials the scenario leaves broken).
	fails bool
}

var userSettings = "~/.claude/settings.json"

func enabled(n ...string) obj  { return obj{"enabledMcpjsonServers": n} }
func disabled(n ...string) obj { return obj{"disabledMcpjsonServers": n} }

var enableAll = obj{"enableAllProjectMcpServers": true}

func scenarios() []scenario {
	return []scenario{
		{
			name:     "unapproved/list",
			contract: "an unapproved .mcp.json server does not spawn in `claude mcp list`",
			setup:    func(s *sandbox) { s.mcp("", "db") },
		},
		{
			name:     "user-enabled/list",
			contract: "user ~/.claude/settings.json enabledMcpjsonServers [db] approves db only, untrusted",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(userSettings, enabled("db"))
			},
			want: []string{"db"},
		},
		{
			name:     "user-enable-all/list",
			contract: "user enableAllProjectMcpServers approves all, untrusted",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(userSettings, enableAll)
			},
			want: []string{"db", "other"},
		},
		{
			name: "untrusted-project-approvals/list",
			contract: "untrusted: .claude/settings.json, settings.local.json and ~/.claude.json projects " +
				"enable lists are ignored",
			setup: func(s *sandbox) {
				s.mcp("", "db1", "db2", "db3", "db4")
				s.write(".claude/settings.json", obj{"enabledMcpjsonServers": []string{"db1"}, "enableAllProjectMcpServers": true})
				s.write(".claude/settings.local.json", enabled("db2"))
				s.claudeJSON(obj{"enabledMcpjsonServers": []string{"db3"}, "enableAllProjectMcpServers": true})
			},
		},
		{
			name:     "trusted-alone/list",
			contract: "trust alone approves nothing",
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.trust()
			},
		},
		{
			name:     "trusted-committed-self-approval/list",
			contract: "trusted: a committed .claude/settings.json enabledMcpjsonServers approves its own server",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(".claude/settings.json", enabled("db"))
				s.trust()
			},
			want: []string{"db"},
		},
		{
			name:     "trusted-committed-enable-all/list",
			contract: "trusted: a committed .claude/settings.json enableAllProjectMcpServers approves all",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(".claude/settings.json", enableAll)
				s.trust()
			},
			want: []string{"db", "other"},
		},
		{
			name:     "trusted-settings-local/list",
			contract: "trusted: .claude/settings.local.json enabledMcpjsonServers approves",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(".claude/settings.local.json", enabled("db"))
				s.trust()
			},
			want: []string{"db"},
		},
		{
			name:     "trusted-claude-json-project/list",
			contract: "trusted: ~/.claude.json projects[root].enabledMcpjsonServers approves",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.claudeJSON(obj{"hasTrustDialogAccepted": true, "enabledMcpjsonServers": []string{"db"}})
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				// The contract: the list migrates into the work tree's settings.local.json.
				data, err := os.ReadFile(filepath.Join(s.repo, ".claude", "settings.local.json"))
				if err != nil || !strings.Contains(string(data), `"db"`) {
					t.Errorf("~/.claude.json's enable list did not migrate to .claude/settings.local.json: %v %s", err, data)
				}
			},
		},
		{
			name: "deny-beats-enable-untrusted/list",
			contract: "disabledMcpjsonServers in .claude/settings.json, settings.local.json or ~/.claude.json " +
				"projects beats a user enableAll, untrusted",
			setup: func(s *sandbox) {
				s.mcp("", "db1", "db2", "db3", "db4")
				s.write(userSettings, obj{"enableAllProjectMcpServers": true, "enabledMcpjsonServers": []string{"db1", "db2", "db3"}})
				s.write(".claude/settings.json", disabled("db1"))
				s.write(".claude/settings.local.json", disabled("db2"))
				s.claudeJSON(disabled("db3"))
			},
			want: []string{"db4"},
		},
		{
			name:     "deny-beats-enable-trusted/list",
			contract: "trusted: disabledMcpjsonServers beats enabledMcpjsonServers for the same name",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(".claude/settings.local.json", obj{"enabledMcpjsonServers": []string{"db", "other"}, "disabledMcpjsonServers": []string{"db"}})
				s.trust()
			},
			want: []string{"other"},
		},
		{
			name:     "case-sensitive-names/list",
			contract: "names match exactly and case-sensitively (`DB` and `db ` do not approve `db`)",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(userSettings, enabled("DB", "db ", "other"))
			},
			want: []string{"other"},
		},
		{
			name:     "swap-after-approval/list",
			contract: "approval binds the name: a changed command, env and args under an approved `db` still spawn, no prompt",
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(".claude/settings.local.json", enabled("db")) // what "Use this MCP server" writes
				s.trust()
			},
			swap: func(s *sandbox) {
				s.write(".mcp.json", obj{"mcpServers": obj{"db": obj{
					"command": "/bin/sh",
					"args":    []string{"-c", `exec "$0" ` + markerFlag + ` db --evil x`, s.marker},
					"env":     obj{"FOO": "injected"},
				}}})
				s.commit()
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				r := o.spawned["db"][0]
				if !slices.Contains(r.Argv, "--evil") || r.Env["FOO"] != "injected" {
					t.Errorf("swapped db ran without the swapped args or env: %+v", r)
				}
				if strings.Contains(o.output, "Pending approval") {
					t.Errorf("claude mcp list asked about the swapped db:\n%s", o.output)
				}
			},
		},
		{
			name:     "headless-untrusted-unapproved/-p",
			contract: "claude -p spawns unapproved servers in an untrusted folder",
			mode:     headless,
			setup:    func(s *sandbox) { s.mcp("", "db", "other") },
			want:     []string{"db", "other"},
		},
		{
			name:     "headless-user-enable-all-false/-p",
			contract: "claude -p: a user enableAllProjectMcpServers:false does not stop it",
			mode:     headless,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(userSettings, obj{"enableAllProjectMcpServers": false})
			},
			want: []string{"db"},
		},
		{
			name:     "headless-deny/-p",
			contract: "claude -p: disabledMcpjsonServers (any of the 3 files) stops the server, untrusted",
			mode:     headless,
			setup: func(s *sandbox) {
				s.mcp("", "db1", "db2", "db3", "db4")
				s.write(".claude/settings.json", disabled("db1"))
				s.write(".claude/settings.local.json", disabled("db2"))
				s.claudeJSON(disabled("db3"))
			},
			want: []string{"db4"},
		},
		{
			name:     "headless-disabled-mcp-servers/-p",
			contract: "claude -p: ~/.claude.json projects[root].disabledMcpServers stops the server",
			mode:     headless,
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.claudeJSON(obj{"disabledMcpServers": []string{"db"}})
			},
			want: []string{"other"},
		},
		{
			name:      "headless-strict/-p",
			contract:  "claude -p --strict-mcp-config spawns no project server, even user-approved",
			mode:      headless,
			args:      []string{"--strict-mcp-config"},
			setup:     func(s *sandbox) { s.mcp("", "db"); s.write(userSettings, enableAll) },
			noPredict: "--strict-mcp-config replaces the project's servers",
		},
		{
			name: "headless-strict-vetted/-p",
			contract: "claude -p --strict-mcp-config --mcp-config vetted.json spawns exactly the vetted servers, " +
				"without approval, and no .mcp.json server (the flags `mcp-guard launch -- claude` uses)",
			mode: headless,
			args: []string{"--strict-mcp-config", "--mcp-config", "~/vetted.json"},
			setup: func(s *sandbox) {
				s.mcp("", "db", "projonly")
				s.write(userSettings, enableAll)
				s.write("~/vetted.json", obj{"mcpServers": obj{
					"vetted": s.server("vetted"),
					"db":     s.server("db", "from-vetted"),
				}})
			},
			want: []string{"db", "vetted"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"]; !slices.Contains(r[0].Argv, "from-vetted") {
					t.Errorf("db ran the project's entry, not the vetted one: %+v", r)
				}
			},
			noPredict: "--mcp-config names the servers; the project's do not count",
		},
		{
			name: "launch-vetted/-p",
			contract: "`mcp-guard launch -- claude -p …` (claude --mcp-config <vetted> --strict-mcp-config -p …): " +
				"only the vetted servers spawn, as vetted; an all-approved .mcp.json's own do not; the prompt after the flags is answered",
			mode: headless,
			setup: func(s *sandbox) {
				s.mcp("", "db", "projonly")
				s.write(userSettings, enableAll)
				s.vetted(obj{"db": s.server("db", "from-vetted")})
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"]; !slices.Contains(r[0].Argv, "from-vetted") {
					t.Errorf("db ran the project's entry, not the vetted one: %+v", r)
				}
			},
			noPredict: "the vetted file names the servers; the project's do not count",
		},
		{
			name: "launch-declined/-p",
			contract: "`mcp-guard launch -- claude -p …` with `other` declined (left out of the vetted file) though Claude Code " +
				"approved it by name: it does not spawn, the reviewed db does",
			mode: headless,
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(userSettings, enabled("db", "other"))
				s.vetted(obj{"db": s.server("db")})
			},
			want:      []string{"db"},
			noPredict: "the vetted file names the servers; the project's do not count",
		},
		{
			name: "launch-nothing-reviewed/-p",
			contract: "`mcp-guard launch -- claude -p …` with an empty vetted file: no server spawns, in an untrusted folder " +
				"where plain `claude -p` runs them all, and the prompt is still answered",
			mode: headless,
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.vetted(obj{})
			},
			noPredict: "the vetted file names the servers; the project's do not count",
		},
		{
			name: "launch-keeps-own/-p",
			contract: "`mcp-guard launch -- claude -p …` hands Claude Code the reviewed project servers and the user's own, " +
				"read from ~/.claude.json by the client model: a user-scope (top-level mcpServers) and a local-scope " +
				"(projects[root].mcpServers) server spawn beside the reviewed db; one the user turned off (disabledMcpServers) " +
				"and the unreviewed project server do not",
			mode: headless,
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write("~/.claude.json", obj{
					"mcpServers": obj{"mine": s.server("mine"), "offsrv": s.server("offsrv")},
					"projects": obj{s.repo: obj{
						"mcpServers":         obj{"mylocal": s.server("mylocal")},
						"disabledMcpServers": []string{"offsrv"},
					}},
				})
				s.vettedOwn(obj{"db": s.server("db")})
			},
			want:      []string{"db", "mine", "mylocal"},
			noPredict: "the vetted file names the servers; the project's do not count",
		},
		{
			name: "launch-vetted-mcp-list/list",
			contract: "claude --mcp-config <vetted> --strict-mcp-config mcp list: do the injected flags reach " +
				"`mcp list`'s health check? (mcp-guard refuses `launch -- claude mcp list|get` while a server is not reviewed)",
			open: true,
			setup: func(s *sandbox) {
				s.mcp("", "db", "projonly")
				s.write(userSettings, enableAll)
				s.vetted(obj{"db": s.server("db", "from-vetted")})
			},
			want: []string{"db", "projonly"},
			answer: "The injected flags do not hold there: `mcp list` spawns the project's `projonly` too, so mcp-guard " +
				"refuses `launch -- claude mcp list|get` while a project server is unreviewed or declined.",
			noPredict: "mcp-guard does not rely on the flags here",
		},
		{
			name: "walk-up/list",
			contract: "from repo/a/b every ancestor's .mcp.json is merged, above the git root too; " +
				"the nearest wins on a clash",
			dir: "a/b",
			setup: func(s *sandbox) {
				s.write(filepath.Join(s.outer, ".mcp.json"), obj{"mcpServers": obj{
					"outersrv": s.server("outersrv"), "shared": s.server("shared", "from-outer")}})
				s.write(".mcp.json", obj{"mcpServers": obj{
					"rootsrv": s.server("rootsrv"), "shared": s.server("shared", "from-root")}})
				s.write("a/b/.mcp.json", obj{"mcpServers": obj{
					"subsrv": s.server("subsrv"), "shared": s.server("shared", "from-ab")}})
				s.write(userSettings, enableAll)
			},
			want:  []string{"outersrv", "rootsrv", "shared", "subsrv"},
			check: sharedFrom("from-ab"),
		},
		{
			name:     "walk-up/-p",
			contract: "the walk-up holds in claude -p too",
			mode:     headless,
			dir:      "a/b",
			setup: func(s *sandbox) {
				s.write(filepath.Join(s.outer, ".mcp.json"), obj{"mcpServers": obj{
					"outersrv": s.server("outersrv"), "shared": s.server("shared", "from-outer")}})
				s.write(".mcp.json", obj{"mcpServers": obj{
					"rootsrv": s.server("rootsrv"), "shared": s.server("shared", "from-root")}})
				s.write("a/b/.mcp.json", obj{"mcpServers": obj{
					"subsrv": s.server("subsrv"), "shared": s.server("shared", "from-ab")}})
			},
			want:  []string{"outersrv", "rootsrv", "shared", "subsrv"},
			check: sharedFrom("from-ab"),
		},
		{
			name:     "subdir-settings-json/list",
			contract: "launched in repo/a (root trusted): whose .claude/settings.json approves, a/'s or the git root's?",
			dir:      "a",
			setup: func(s *sandbox) {
				s.mcp("", "fromsub", "fromroot")
				s.write("a/.claude/settings.json", enabled("fromsub"))
				s.write(".claude/settings.json", enabled("fromroot"))
				s.trust()
			},
			want:   []string{"fromsub"},
			open:   true,
			answer: "`.claude/settings.json` is read from the launch directory only; the git root's is not read.",
		},
		{
			name:     "subdir-settings-local/list",
			contract: "launched in repo/a (root trusted): whose .claude/settings.local.json approves?",
			dir:      "a",
			setup: func(s *sandbox) {
				s.mcp("", "fromsub", "fromroot")
				s.write("a/.claude/settings.local.json", enabled("fromsub"))
				s.write(".claude/settings.local.json", enabled("fromroot"))
				s.trust()
			},
			want:   []string{"fromroot", "fromsub"},
			open:   true,
			answer: "`.claude/settings.local.json` is read from both the launch directory and the git root (lists unioned).",
		},
		{
			name:     "subdir-deny/-p",
			contract: "claude -p launched in repo/a (untrusted): whose .claude/settings.json deny list holds?",
			mode:     headless,
			dir:      "a",
			setup: func(s *sandbox) {
				s.mcp("", "fromsub", "fromroot", "other")
				s.write("a/.claude/settings.json", disabled("fromsub"))
				s.write(".claude/settings.json", disabled("fromroot"))
			},
			want:   []string{"fromroot", "other"},
			open:   true,
			answer: "Deny lists follow the same files: the launch directory's settings.json holds, the git root's does not.",
		},
		{
			name:     "subdir-deny-local/-p",
			contract: "claude -p launched in repo/a (untrusted): whose .claude/settings.local.json deny list holds?",
			mode:     headless,
			dir:      "a",
			setup: func(s *sandbox) {
				s.mcp("", "fromsub", "fromroot", "other")
				s.write("a/.claude/settings.local.json", disabled("fromsub"))
				s.write(".claude/settings.local.json", disabled("fromroot"))
			},
			want:   []string{"other"},
			open:   true,
			answer: "Both settings.local.json deny lists hold, the launch directory's and the git root's.",
		},
		{
			name:     "middle-dir-settings/list",
			contract: "launched in repo/a/b (root trusted): are repo/a/.claude/settings*.json read?",
			dir:      "a/b",
			setup: func(s *sandbox) {
				s.mcp("", "mid", "midlocal", "other")
				s.write("a/.claude/settings.json", enabled("mid"))
				s.write("a/.claude/settings.local.json", enabled("midlocal"))
				s.write(".claude/settings.local.json", enabled("other"))
				s.trust()
			},
			want:   []string{"other"},
			open:   true,
			answer: "An intermediate directory's settings files are not read: only the launch directory and (settings.local.json) the git root.",
		},
		{
			name:     "subdir-claude-json-project/list",
			contract: "launched in repo/a: is ~/.claude.json projects[git root].enabledMcpjsonServers read, and where does it migrate?",
			dir:      "a",
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.claudeJSON(obj{"hasTrustDialogAccepted": true, "enabledMcpjsonServers": []string{"db"}})
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				data, err := os.ReadFile(filepath.Join(s.repo, ".claude", "settings.local.json"))
				if err != nil || !strings.Contains(string(data), `"db"`) {
					t.Errorf("the enable list did not migrate to the git root's settings.local.json: %v %s", err, data)
				}
				if _, err := os.Stat(filepath.Join(s.repo, "a", ".claude")); err == nil {
					t.Errorf("the migration wrote into the launch directory a/.claude")
				}
			},
			open:   true,
			answer: "Yes: the entry keyed by the git root approves from a subdirectory, and migrates into the git root's `.claude/settings.local.json` (not the launch directory's).",
		},
		{
			name:     "subdir-trust-key/list",
			contract: "trust is keyed by the git root: launched in repo/a, projects[repo/a].hasTrustDialogAccepted trusts nothing",
			dir:      "a",
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write("a/.claude/settings.json", enabled("db"))
				s.write("~/.claude.json", obj{"projects": obj{
					filepath.Join(s.repo, "a"): obj{"hasTrustDialogAccepted": true}}})
			},
		},
		{
			name:     "local-false-beats-shared-true/list",
			contract: "trusted: settings.local.json enableAllProjectMcpServers:false overrides a committed true",
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(".claude/settings.json", enableAll)
				s.write(".claude/settings.local.json", obj{"enableAllProjectMcpServers": false})
				s.trust()
			},
		},
		{
			name:     "swap-script/list",
			contract: "approval binds the name: an edited script under an approved `db` still spawns",
			setup: func(s *sandbox) {
				s.write(".mcp.json", obj{"mcpServers": obj{"db": obj{"command": "/bin/sh", "args": []string{"./srv.sh"}}}})
				s.write("srv.sh", `exec "$FID_BIN" `+markerFlag+" db\n")
				s.write(userSettings, enabled("db"))
			},
			swap: func(s *sandbox) {
				s.write("srv.sh", `exec "$FID_BIN" `+markerFlag+" db --edited\n")
				s.commit()
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"][0]; !slices.Contains(r.Argv, "--edited") {
					t.Errorf("db did not run the edited script: %+v", r)
				}
			},
		},
		{
			name:     "symlink-trust-realpath/list",
			contract: "launched through a symlink to the repository: trust stored for the real path holds",
			dir:      "../../link",
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(".claude/settings.json", enabled("db"))
				s.trust()
				if err := os.Symlink(s.repo, filepath.Join(s.outer, "..", "link")); err != nil {
					s.t.Fatal(err)
				}
			},
			want: []string{"db"},
		},
		{
			name:     "symlink-trust-linkpath/list",
			contract: "launched through a symlink: trust stored for the symlink's path is ignored",
			dir:      "../../link",
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(".claude/settings.json", enabled("db"))
				link := filepath.Join(s.outer, "..", "link")
				s.write("~/.claude.json", obj{"projects": obj{filepath.Clean(link): obj{"hasTrustDialogAccepted": true}}})
				if err := os.Symlink(s.repo, link); err != nil {
					s.t.Fatal(err)
				}
			},
		},
		{
			name:     "dialect-comment/list",
			contract: "a comment in .mcp.json fails the whole file",
			setup: func(s *sandbox) {
				s.write(".mcp.json", "{\"mcpServers\": {\n// c\n\"db\": "+s.raw("db")+"}}")
				s.write(userSettings, enableAll)
			},
		},
		{
			name:     "dialect-empty/list",
			contract: "a 0-byte .mcp.json in repo/a is no server, silently: launched there, the root's .mcp.json still loads",
			dir:      "a",
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write("a/.mcp.json", "")
				s.write(userSettings, enableAll)
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if strings.Contains(strings.ToLower(o.output), "error") {
					t.Errorf("Claude Code said something of the empty file:\n%s", o.output)
				}
			},
		},
		{
			name:     "dialect-trailing-comma/list",
			contract: "a trailing comma fails the whole file",
			setup: func(s *sandbox) {
				s.write(".mcp.json", `{"mcpServers": {"db": `+s.raw("db")+`, "other": `+s.raw("other")+`,}}`)
				s.write(userSettings, enableAll)
			},
		},
		{
			name:     "dialect-duplicates/list",
			contract: "duplicate keys: the last wins (server name, inner args, top-level mcpServers)",
			setup: func(s *sandbox) {
				s.write(".mcp.json", `{"mcpServers": {"gone": `+s.raw("gone")+`}, "mcpServers": {"db": `+s.raw("db", "first")+
					`, "db": {"command": `+strconv.Quote(s.marker)+`, "args": ["x"], "args": [`+strconv.Quote(markerFlag)+`, "db", "last"]}}}`)
				s.write(userSettings, enableAll)
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"][0]; !slices.Equal(r.Argv, []string{"db", "last"}) {
					t.Errorf("db ran %q, want the last entry's last args [db last]", r.Argv)
				}
			},
		},
		{
			name:     "dialect-bom/list",
			contract: "a UTF-8 BOM is accepted",
			setup: func(s *sandbox) {
				s.write(".mcp.json", "\ufeff"+`{"mcpServers": {"db": `+s.raw("db")+`}}`)
				s.write(userSettings, enableAll)
			},
			want: []string{"db"},
		},
		{
			name:     "dialect-servers-key/list",
			contract: "`servers` instead of `mcpServers` is rejected",
			setup: func(s *sandbox) {
				s.write(".mcp.json", obj{"servers": obj{"db": s.server("db")}})
				s.write(userSettings, enableAll)
			},
		},
		{
			name: "dialect-bad-values/list",
			contract: "a server with a non-string arg or env value, or no command, is skipped; its siblings load; " +
				"a command with spaces is not split",
			setup: func(s *sandbox) {
				s.write(".mcp.json", obj{"mcpServers": obj{
					"numarg":  obj{"command": s.marker, "args": []any{markerFlag, "numarg", 42}},
					"boolarg": obj{"command": s.marker, "args": []any{markerFlag, "boolarg", true}},
					"numenv":  obj{"command": s.marker, "args": []string{markerFlag, "numenv"}, "env": obj{"FOO": 5}},
					"nocmd":   obj{"args": []string{markerFlag, "nocmd"}},
					"spaces":  obj{"command": s.marker + " " + markerFlag + " spaces"},
					"typed":   obj{"type": "stdio", "command": s.marker, "args": []string{markerFlag, "typed"}, "extra": 1},
					"other":   s.server("other"),
				}})
				s.write(userSettings, enableAll)
			},
			want:      []string{"other", "typed"},
			attempted: []string{"spaces"},
		},
		{
			name:     "untrusted/tui",
			contract: "interactive, untrusted: the trust dialog, no spawn",
			mode:     tui,
			setup:    func(s *sandbox) { s.mcp("", "db") },
			check:    screenShows("Trusting this folder loads .mcp.json"),
		},
		{
			name:     "untrusted-user-approved/tui",
			contract: "interactive, untrusted, db approved in ~/.claude/settings.json: does the TUI spawn it before the trust dialog?",
			mode:     tui,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(userSettings, enabled("db"))
			},
			check:     screenShows("Trusting this folder"),
			open:      true,
			answer:    "No: the interactive client asks for trust first and spawns nothing; only `mcp list` and `-p` run it in an untrusted folder.",
			noPredict: "`Interactive` follows `claude mcp list`, which runs db here; the TUI asks for trust first",
		},
		{
			name:     "trusted-unapproved/tui",
			contract: "interactive, trusted, unapproved: the new-server dialog, no spawn",
			mode:     tui,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.trust()
			},
			check: screenShows("New MCP server"),
		},
		{
			name:     "trusted-committed-self-approval/tui",
			contract: "interactive, trusted: a committed .claude/settings.json approval spawns with no dialog",
			mode:     tui,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(".claude/settings.json", enabled("db"))
				s.trust()
			},
			want: []string{"db"},
		},
		{
			name:     "approved-beside-unapproved/tui",
			contract: "interactive, trusted, db approved and `other` not: does db spawn while the dialog for `other` is open?",
			mode:     tui,
			setup: func(s *sandbox) {
				s.mcp("", "db", "other")
				s.write(".claude/settings.json", enabled("db"))
				s.trust()
			},
			check:     screenShows("New MCP server found in this project: other"),
			open:      true,
			answer:    "No: the dialog for `other` holds every server, approved or not, until it is answered.",
			noPredict: "the TUI holds every server while a sibling's dialog is open; db itself is never asked about",
		},
		{
			name:     "swap-after-approval/tui",
			contract: "interactive: a changed command, env and args under an approved `db` spawn with no dialog",
			mode:     tui,
			setup: func(s *sandbox) {
				s.mcp("", "db")
				s.write(".claude/settings.local.json", enabled("db"))
				s.trust()
			},
			swap: func(s *sandbox) {
				s.write(".mcp.json", obj{"mcpServers": obj{"db": obj{
					"command": "/bin/sh",
					"args":    []string{"-c", `exec "$0" ` + markerFlag + ` db --evil x`, s.marker},
					"env":     obj{"FOO": "injected"},
				}}})
				s.commit()
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				if r := o.spawned["db"][0]; !slices.Contains(r.Argv, "--evil") || r.Env["FOO"] != "injected" {
					t.Errorf("swapped db ran without the swapped args or env: %+v", r)
				}
				if strings.Contains(o.output, "New MCP server") {
					t.Errorf("the TUI asked about the swapped db:\n%s", o.output)
				}
			},
		},
		{
			name: "interpolation/list",
			contract: "${VAR} and ${VAR:-default} are expanded in command, args and env before spawn; " +
				"bare $VAR is not; an undefined ${X} stays literal and still spawns",
			env: map[string]string{"FID_A": "alpha"},
			setup: func(s *sandbox) {
				s.write(".mcp.json", obj{"mcpServers": obj{"db": obj{
					"command": "${FID_BIN}",
					"args":    []string{markerFlag, "db", "${FID_A}", "${FID_B:-dflt}", "$FID_A", "${FID_UNDEF}"},
					"env":     obj{"FID_E": "${FID_A}-x"},
				}}})
				s.write(userSettings, enableAll)
			},
			want: []string{"db"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				r := o.spawned["db"][0]
				want := []string{"db", "alpha", "dflt", "$FID_A", "${FID_UNDEF}"}
				if !reflect.DeepEqual(r.Argv, want) || r.Env["FID_E"] != "alpha-x" {
					t.Errorf("marker saw argv %q env %q; want argv %q and FID_E=alpha-x", r.Argv, r.Env, want)
				}
				if r.Cwd != s.repo {
					t.Errorf("server cwd %s, want the launch directory %s", r.Cwd, s.repo)
				}
			},
		},
	}
}

func screenShows(text string) func(t *testing.T, s *sandbox, o outcome) {
	return func(t *testing.T, s *sandbox, o outcome) {
		if !strings.Contains(o.output, text) {
			t.Errorf("the screen does not show %q:\n%s", text, o.output)
		}
	}
}

func sharedFrom(tag string) func(t *testing.T, s *sandbox, o outcome) {
	return func(t *testing.T, s *sandbox, o outcome) {
		if r := o.spawned["shared"]; len(r) != 1 || !slices.Contains(r[0].Argv, tag) {
			t.Errorf("shared: want one start of the entry %s, got %+v", tag, r)
		}
	}
}
