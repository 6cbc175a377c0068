package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// TestClaudeUserMarkets: the marketplaces the user's state registers,
// as Claude Code finds them: the registry (known_marketplaces.json, where
// CLAUDE_CODE_PLUGIN_CACHE_DIR or CLAUDE_CONFIG_DIR put it) by its
// installLocation, winning a name over the user's settings, whose
// directory or file sources count only at an absolute (or ~) path.
func TestClaudeUserMarkets(t *testing.T) {
	const registry = `{"reg": {"source": {"source": "github", "repo": "o/r"}, "installLocation": "$ROOT/home/.claude/plugins/marketplaces/reg"},
		"both": {"source": {"source": "directory", "path": "$ROOT/reg-both"}, "installLocation": "$ROOT/reg-both"},
		"file": {"source": {"source": "file", "path": "$ROOT/f/.claude-plugin/marketplace.json"}, "installLocation": "$ROOT/f/.claude-plugin/marketplace.json"},
		"noloc": {"source": {"source": "directory", "path": "$ROOT/noloc"}},
		"rel": {"source": {"source": "directory", "path": "./x"}, "installLocation": "./x"}}`
	const user = `{"extraKnownMarketplaces": {
		"both": {"source": {"source": "directory", "path": "/elsewhere"}},
		"mine": {"source": {"source": "directory", "path": "~/mine"}},
		"abs": {"source": {"source": "file", "path": "$ROOT/a/.claude-plugin/marketplace.json"}},
		"relative": {"source": {"source": "directory", "path": "./market"}},
		"gh": {"source": {"source": "github", "repo": "a/b"}}}}`
	for _, tc := range []struct {
		name     string
		vars     map[string]string
		registry string // where the registry is written, below root
		want     map[string]string
	}{
		{"the default registry", nil, "home/.claude/plugins/known_marketplaces.json", map[string]string{
			"reg":      "~/.claude/plugins/known_marketplaces.json|github o/r|$ROOT/home/.claude/plugins/marketplaces/reg",
			"both":     "~/.claude/plugins/known_marketplaces.json|directory $ROOT/reg-both|$ROOT/reg-both",
			"file":     "~/.claude/plugins/known_marketplaces.json|file $ROOT/f/.claude-plugin/marketplace.json|$ROOT/f",
			"noloc":    "~/.claude/plugins/known_marketplaces.json|directory $ROOT/noloc|$ROOT/noloc",
			"rel":      "~/.claude/plugins/known_marketplaces.json|directory ./x|",
			"mine":     "~/.claude/settings.json|directory ~/mine|$ROOT/home/mine",
			"abs":      "~/.claude/settings.json|file $ROOT/a/.claude-plugin/marketplace.json|$ROOT/a",
			"relative": "~/.claude/settings.json|directory ./market|",
			"gh":       "~/.claude/settings.json|github a/b|",
		}},
		{"CLAUDE_CODE_PLUGIN_CACHE_DIR", map[string]string{"CLAUDE_CODE_PLUGIN_CACHE_DIR": "~/cache"}, "home/cache/known_marketplaces.json", map[string]string{
			"reg": "$CLAUDE_CODE_PLUGIN_CACHE_DIR/known_marketplaces.json|github o/r|$ROOT/home/.claude/plugins/marketplaces/reg",
		}},
		{"CLAUDE_CONFIG_DIR", map[string]string{"CLAUDE_CONFIG_DIR": "$ROOT/home/.claude"}, "home/.claude/plugins/known_marketplaces.json", map[string]string{
			"reg":  "$CLAUDE_CONFIG_DIR/plugins/known_marketplaces.json|github o/r|$ROOT/home/.claude/plugins/marketplaces/reg",
			"mine": "$CLAUDE_CONFIG_DIR/settings.json|directory ~/mine|$ROOT/home/mine",
		}},
		{"cowork plugins", map[string]string{"CLAUDE_CODE_USE_COWORK_PLUGINS": "1"}, "home/.claude/cowork_plugins/known_marketplaces.json", map[string]string{
			"reg": "~/.claude/cowork_plugins/known_marketplaces.json|github o/r|$ROOT/home/.claude/plugins/marketplaces/reg",
		}},
		{"the default registry unread where the cache dir is set", map[string]string{"CLAUDE_CODE_PLUGIN_CACHE_DIR": "$ROOT/elsewhere"}, "home/.claude/plugins/known_marketplaces.json", map[string]string{
			"reg": "", "both": "~/.claude/settings.json|directory /elsewhere|/elsewhere",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write(tc.registry, registry)
			f.write("home/.claude/settings.json", user)
			env := Env{Getenv: func(k string) string {
				if k == "HOME" {
					return f.home
				}
				return strings.ReplaceAll(tc.vars[k], "$ROOT", f.root)
			}}
			st := claudeClient{}.State(f.repo, f.repo, env)
			ms := st.Claude.markets
			if ms.registry.Err != nil {
				t.Fatalf("registry: %v", ms.registry.Err)
			}
			for name, want := range tc.want {
				want = strings.ReplaceAll(want, "$ROOT", f.root)
				m, ok := ms.byName[name]
				got := ""
				if ok {
					got = m.from + "|" + m.where + "|" + m.dir
				}
				if got != want {
					t.Errorf("%s: got %q, want %q", name, got, want)
				}
			}
		})
	}
}

// TestClaudeUserMarketsUnreadable: a registry mcp-guard cannot read, or
// of a shape it does not know, is a state source with its error (which
// closes the gate) and leaves the plugins' verdicts counting them as
// running; the rest of the state is read as ever.
func TestClaudeUserMarketsUnreadable(t *testing.T) {
	for _, data := range []string{`{"mine": `, `["mine"]`, `{"mine": "directory"}`, `{"mine": {"installLocation": 5}}`} {
		f := newFixture(t)
		f.write("home/.claude/plugins/known_marketplaces.json", data)
		f.write("repo/.claude/settings.json", `{"enabledPlugins": {"fmt@mine": true}}`)
		ev := f.claude("repo")
		var reg *Source
		for i, s := range ev.State.Sources {
			if strings.HasSuffix(s.Path, "known_marketplaces.json") {
				reg = &ev.State.Sources[i]
			}
		}
		if reg == nil || reg.Err == nil || reg.Display != "~/.claude/plugins/known_marketplaces.json" {
			t.Errorf("%s: registry source %+v", data, reg)
		}
		if len(ev.Unknown) == 0 || ev.State.Claude.Unknown != nil {
			t.Errorf("%s: unknown %q, approvals unknown %v: want the gate closed, the approvals read", data, ev.Unknown, ev.State.Claude.Unknown)
		}
		if len(ev.Servers) != 1 || !ev.Servers[0].Interactive || !ev.Servers[0].Headless || !strings.Contains(ev.Servers[0].Why, "cannot be read") {
			t.Errorf("%s: verdicts %+v", data, ev.Servers)
		}
	}
}

// TestClaudeUserPluginVerdict: a plugin the repository enables runs
// without asking, untrusted too (`claude -p`, `claude mcp list`:
// observed), when the user's state registers its marketplace, and the
// verdict names it; one whose marketplace nothing here registers keeps
// the folder's trust, as a declared one does.
func TestClaudeUserPluginVerdict(t *testing.T) {
	for _, tc := range []struct {
		name, settings, registry string
		trusted                  bool
		interactive              bool
		why                      string
	}{
		{"undeclared, registered, untrusted", `{"enabledPlugins": {"fmt@mine": true}}`,
			`{"mine": {"source": {"source": "directory", "path": "/m"}, "installLocation": "/m"}}`, false, true,
			"the repository enables it from your marketplace `mine` (~/.claude/plugins/known_marketplaces.json: directory /m): Claude Code loads the plugin from it with no install and no prompt"},
		{"undeclared, unknown, untrusted", `{"enabledPlugins": {"fmt@mine": true}}`, `{}`, false, false,
			"once it knows the marketplace `mine`, which neither this file nor your own settings and plugin registry declare"},
		{"undeclared, unknown, trusted", `{"enabledPlugins": {"fmt@mine": true}}`, ``, true, true,
			"Claude Code runs this plugin's hooks, servers and commands once it knows the marketplace `mine`"},
		{"declared, and registered by the user", `{"enabledPlugins": {"fmt@mine": true}, "extraKnownMarketplaces": {"mine": {"source": {"source": "directory", "path": "./m"}}}}`,
			`{"mine": {"source": {"source": "directory", "path": "/m"}, "installLocation": "/m"}}`, false, true,
			"from your marketplace of the name this file declares, `mine`"},
		{"declared only", `{"enabledPlugins": {"fmt@mine": true}, "extraKnownMarketplaces": {"mine": {"source": {"source": "directory", "path": "./m"}}}}`,
			`{}`, false, false, "offers to install it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.claude/settings.json", tc.settings)
			if tc.registry != "" {
				f.write("home/.claude/plugins/known_marketplaces.json", tc.registry)
			}
			if tc.trusted {
				f.write("home/.claude.json", `{"projects": {"$KEY": {"hasTrustDialogAccepted": true}}}`)
			}
			ev := f.claude("repo")
			if len(ev.Servers) != 1 || len(ev.Unknown) != 0 {
				t.Fatalf("verdicts %+v, unknown %q", ev.Servers, ev.Unknown)
			}
			v := ev.Servers[0]
			if v.Interactive != tc.interactive || !v.Headless || !strings.Contains(v.Why, tc.why) {
				t.Errorf("interactive %v headless %v why %q; want interactive %v, why with %q", v.Interactive, v.Headless, v.Why, tc.interactive, tc.why)
			}
		})
	}
}

// TestClaudeJoinUser: a plugin entry is bound to the directory of the
// marketplace the user's state registers under its name when that lies
// in the repository, as written or by its real path (under the top as
// opened), to the whole repository when the marketplace holds it, and
// to nothing more when it lies outside, nothing registers it, or there
// is no user state to read.
func TestClaudeJoinUser(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(filepath.Join(f.repo, "market"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.repo, "market"), filepath.Join(f.root, "link")); err != nil {
		t.Fatal(err)
	}
	f.write("home/.claude/plugins/known_marketplaces.json", `{
		"in": {"installLocation": "$KEY/market"},
		"linked": {"installLocation": "$ROOT/link"},
		"holds": {"installLocation": "$ROOT"},
		"out": {"installLocation": "$ROOT/home/m"},
		"file": {"installLocation": "$KEY/market/.claude-plugin/marketplace.json"}}`)
	f.write("home/.claude/settings.json", `{"extraKnownMarketplaces": {"set": {"source": {"source": "directory", "path": "$KEY/tools"}}}}`)
	top := "/opened/repo" // the repository as the caller opened it: its spelling wins
	tops := []string{top, f.repo}
	for _, tc := range []struct{ settings, trees string }{
		{`{"enabledPlugins": {"a@in": true}}`, top + "/market"},
		{`{"enabledPlugins": {"a@linked": true}}`, top + "/market"},
		{`{"enabledPlugins": {"a@holds": true}}`, top},
		{`{"enabledPlugins": {"a@file": true}}`, top + "/market"},
		{`{"enabledPlugins": {"a@set": true}}`, top + "/tools"},
		{`{"enabledPlugins": {"a@out": true}}`, ""},
		{`{"enabledPlugins": {"a@none": true}}`, ""},
		{`{"enabledPlugins": {"a@in": true}, "extraKnownMarketplaces": {"in": {"source": {"source": "directory", "path": "./m"}}}}`, "./m," + top + "/market"},
	} {
		c := claudeClient{}.Parse(".claude/settings.json", []byte(tc.settings))
		claudeClient{}.JoinUser(c, f.env(), tops)
		if got := strings.Join(c.Servers[0].Trees, ","); got != tc.trees {
			t.Errorf("%s: trees %q, want %q", tc.settings, got, tc.trees)
		}
	}
	// No user state to read (the zero Env: scan), another file, or no
	// plugin: nothing is read or bound.
	for _, c := range []*trust.Config{
		claudeClient{}.Parse(".claude/settings.json", []byte(`{"enabledPlugins": {"a@in": true}}`)),
		claudeClient{}.Parse(".mcp.json", []byte(`{"mcpServers": {"db": {"command": "x"}}}`)),
	} {
		claudeClient{}.JoinUser(c, Env{}, tops)
		for _, s := range c.Servers {
			if len(s.Trees) != 0 {
				t.Errorf("%s: %s bound %q with no user state", c.Path, s.Name, s.Trees)
			}
		}
	}
}
