package client

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// The plugin marketplaces the user's own state registers for Claude Code,
// and what a repository's enabledPlugins makes Claude Code run of them.
//
// Observed on 2.1.328 (fidelity plugin-*): the repository's
// .claude/settings.json enabling `fmt@mine`, where `mine` is a marketplace
// only the user's ~/.claude/settings.json (extraKnownMarketplaces) or
// ~/.claude/plugins/known_marketplaces.json (what `claude plugin
// marketplace add` writes) names, loads the plugin with no install and no
// prompt: `claude -p` runs its hooks and servers in an untrusted folder,
// `claude mcp list` starts its servers there, the interactive client runs
// them once the folder is trusted (its trust dialog names only
// .claude/settings.json). The registry wins a name over a marketplace any
// settings file declares (Claude Code's bundle: a declared marketplace is
// added only when the registry does not hold its name), and a declared
// one loads in place only from an absolute directory or file path.

// claudeMarket is one marketplace the user's state registers.
type claudeMarket struct {
	// from is the file that registers it, as messages name it.
	from string
	// where is its source as people read it ("directory /x").
	where string
	// dir is the absolute directory Claude Code reads its plugins from
	// ("" when that is not on this machine yet: a GitHub source the
	// user's settings declare that Claude Code has not cloned).
	dir string
}

// claudeMarkets is what the user's state registers, by name.
type claudeMarkets struct {
	byName map[string]claudeMarket
	// registry is known_marketplaces.json as a state source (its Err:
	// where a registered marketplace lies is unknown).
	registry Source
}

// claudePluginsDir is the directory of Claude Code's plugin registry:
// $CLAUDE_CODE_PLUGIN_CACHE_DIR (a leading ~ expanded), else
// plugins/ (cowork_plugins/ under CLAUDE_CODE_USE_COWORK_PLUGINS) of its
// configuration directory; shown as messages name it. ok is false when
// there is no HOME to find it in.
// OPEN: CLAUDE_CONFIG_DIR moving the registry with the settings was read
// from the bundle, not observed.
func claudePluginsDir(env Env) (dir, shown string, ok bool) {
	home := trust.HomeDir(env.getenv)
	if d := env.getenv("CLAUDE_CODE_PLUGIN_CACHE_DIR"); d != "" {
		d, ok := expandTilde(d, home)
		return d, "$CLAUDE_CODE_PLUGIN_CACHE_DIR", ok
	}
	sub := "plugins"
	if env.getenv("CLAUDE_CODE_USE_COWORK_PLUGINS") != "" {
		sub = "cowork_plugins"
	}
	if d := env.getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, sub), "$CLAUDE_CONFIG_DIR/" + sub, true
	}
	if home == "" {
		return "", "", false
	}
	return filepath.Join(home, ".claude", sub), "~/.claude/" + sub, true
}

// expandTilde expands a leading `~` or `~/` as Claude Code does; ok is
// false for one with no HOME to expand it with.
func expandTilde(p, home string) (string, bool) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home == "" {
			return "", false
		}
		return home + p[1:], true
	}
	return p, true
}

// readClaudeMarkets reads the marketplaces the user's state registers:
// the registry (known_marketplaces.json: each name's installLocation),
// then the user's settings' extraKnownMarketplaces whose source is a
// directory or a file at an absolute path, which Claude Code loads in
// place (a relative path it does not). user is the user's settings as
// already read (ok false: absent or unreadable, reported by State).
func readClaudeMarkets(env Env, user trust.Value, userShown string) claudeMarkets {
	ms := claudeMarkets{byName: map[string]claudeMarket{}}
	home := trust.HomeDir(env.getenv)
	if dir, shown, ok := claudePluginsDir(env); ok {
		ms.registry = Source{Path: filepath.Join(dir, "known_marketplaces.json"), Display: shown + "/known_marketplaces.json"}
		if v, ok := readJSONFile(env.fs(), &ms.registry, trust.ClaudeCode); ok {
			ms.registry.Err = ms.readRegistry(v, home)
		}
	}
	if user.Kind() == "object" {
		markets, _ := user.Get("extraKnownMarketplaces")
		for _, name := range markets.Keys() {
			if _, ok := ms.byName[name]; ok {
				continue // the registry wins the name
			}
			m, _ := markets.Get(name)
			src, _ := m.Get("source")
			mk := claudeMarket{from: userShown, where: marketWhere(src)}
			if dir, ok := marketplaceTree(src); ok {
				if d, ok := expandTilde(dir, home); ok && filepath.IsAbs(d) {
					mk.dir = filepath.Clean(d)
				}
			}
			ms.byName[name] = mk
		}
	}
	return ms
}

// readRegistry takes the registry's marketplaces: each name's
// installLocation (where Claude Code reads it from), else its directory
// or file source's path. An entry of another shape leaves the registry
// unknown.
func (ms *claudeMarkets) readRegistry(v trust.Value, home string) error {
	for _, name := range v.Keys() {
		e, _ := v.Get(name)
		if e.Kind() != "object" {
			return fmt.Errorf("%q is a %s, not an object", name, e.Kind())
		}
		src, _ := e.Get("source")
		mk := claudeMarket{from: ms.registry.Display, where: marketWhere(src)}
		loc, hasLoc := e.Get("installLocation")
		switch s, isStr := loc.Str(); {
		case hasLoc && loc.Kind() != "null" && !isStr:
			return fmt.Errorf("%q: installLocation is a %s, not a string", name, loc.Kind())
		case isStr && s != "":
			dir := filepath.FromSlash(s)
			if strings.EqualFold(filepath.Ext(dir), ".json") {
				// A file source's manifest: its plugins are relative
				// to the marketplace's root, above .claude-plugin/.
				dir = filepath.Dir(dir)
				if strings.EqualFold(filepath.Base(dir), ".claude-plugin") {
					dir = filepath.Dir(dir)
				}
			}
			mk.dir = dir
		default:
			if dir, ok := marketplaceTree(src); ok {
				mk.dir = filepath.FromSlash(dir)
			}
		}
		if d, ok := expandTilde(mk.dir, home); ok && filepath.IsAbs(d) {
			mk.dir = filepath.Clean(d)
		} else {
			mk.dir = ""
		}
		ms.byName[name] = mk
	}
	return nil
}

// marketWhere is a marketplace source as people read it, as a plugin
// entry shows it: its kind and the path, repo, url or package it names
// (its JSON otherwise).
func marketWhere(src trust.Value) string {
	kind, _ := src.StringAt("source")
	words := pluginShown("", kind, src) // plugin ID (source KIND WHERE)
	return strings.TrimSuffix(strings.Join(words[3:], " "), ")")
}

// pluginMarket is the marketplace a plugin entry's id names (the part
// after its `@`).
func pluginMarket(s *trust.Server) string {
	id := strings.TrimPrefix(s.Name, "plugins.")
	return id[strings.LastIndexByte(id, '@')+1:]
}

// JoinUser binds each plugin entry of a settings file to the directory
// of the marketplace the user's own state registers under its name, when
// that directory lies in this repository (the user added the
// repository's own marketplace: `claude plugin marketplace add ./market`
// records it by its absolute path): Claude Code then loads the plugin's
// code from the repository, and a pull that changes it re-gates the
// entry. tops are the repository's top as opened (first) and its other
// spellings (its real path); a directory under one is bound under the
// first. A marketplace that holds the whole repository binds it whole.
// One outside the repository is the user's own: the entry stays bound by
// its name (and, declared by the repository, by that declaration).
func (claudeClient) JoinUser(c *trust.Config, env Env, tops []string) {
	if !isClaudeSettings(c.Path) || c.Err != nil || len(tops) == 0 || (env.Getenv == nil && env.LookupEnv == nil) {
		return
	}
	var plugins []*trust.Server
	for _, s := range c.Servers {
		if s.Kind == EntryPlugin {
			plugins = append(plugins, s)
		}
	}
	if len(plugins) == 0 {
		return
	}
	user, shown, _, _ := claudeHome(env)
	if trust.HomeDir(env.getenv) == "" && env.getenv("CLAUDE_CONFIG_DIR") == "" {
		user = "" // no HOME: no user settings to read
	}
	src := Source{Path: user, Display: shown}
	var v trust.Value
	if user != "" {
		v, _ = readJSONFile(env.fs(), &src, trust.ClaudeCode)
	}
	ms := readClaudeMarkets(env, v, shown)
	for _, s := range plugins {
		m, ok := ms.byName[pluginMarket(s)]
		if !ok || m.dir == "" {
			continue
		}
		if t, ok := underTop(m.dir, tops, env.fs()); ok && !slices.Contains(s.Trees, t) {
			s.Trees = append(s.Trees, t)
		}
	}
}

// underTop is dir as a path under tops[0] when it lies in the repository
// (as written or by its real path), tops[0] itself when it holds the
// repository; ok false when it is outside.
func underTop(dir string, tops []string, fsys FS) (string, bool) {
	top := filepath.ToSlash(tops[0])
	for _, d := range []string{filepath.ToSlash(filepath.Clean(dir)), filepath.ToSlash(realDir(dir, fsys))} {
		for _, t := range tops {
			t = filepath.ToSlash(filepath.Clean(t))
			switch {
			case d == t || strings.HasPrefix(t, strings.TrimSuffix(d, "/")+"/"):
				return top, true
			case strings.HasPrefix(d, t+"/"):
				return top + d[len(t):], true
			}
		}
	}
	return "", false
}

// pluginAnswer is the state of a plugin entry whose marketplace the
// user's own state registers (ok false when it does not, and the
// registry could be read): Claude Code loads it from there with no
// install and no prompt, untrusted under `claude -p` and `claude mcp
// list` too (observed).
func (cs *ClaudeState) pluginAnswer(s *trust.Server) (claudeAnswer, bool) {
	name := pluginMarket(s)
	m, ok := cs.markets.byName[name]
	switch {
	case ok:
		whose := "from your marketplace"
		if s.Remote != undeclaredMarketplace {
			whose = "from your marketplace of the name this file declares,"
		}
		return claudeAnswer{interactive: true, headless: true,
			why: fmt.Sprintf("the repository enables it %s `%s` (%s: %s): Claude Code loads the plugin from it with no install and no prompt and runs its hooks, servers and commands without asking: `claude -p` and `claude mcp list` in a folder not trusted too, the interactive client once the folder is trusted (observed)",
				whose, name, m.from, m.where)}, true
	case cs.markets.registry.Err != nil:
		return claudeAnswer{interactive: true, headless: true,
			why: fmt.Sprintf("%s cannot be read (%v): where Claude Code finds the marketplace `%s` is unknown; this plugin's hooks, servers and commands are counted as running without asking",
				cs.markets.registry.Display, cs.markets.registry.Err, name)}, true
	}
	return claudeAnswer{}, false
}
