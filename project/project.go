// Package project reads the project configurations of every client
// (agentty's `.agentty/mcp.json`; Claude Code's `.mcp.json`; Gemini CLI's
// `.gemini/settings.json`; Codex's `.codex/config.toml`; Cursor's
// `.cursor/mcp.json`; VS Code's `.vscode/mcp.json`) of a repository at one
// or two sides (commits, the index, the work tree) through gitscan, parses
// them in their client's dialect (client.Lookup(id).Parse), and compares
// them: which servers changed, which repository files they run changed, and
// what that does to the user's approvals, graded by each client's rules. It
// never prints and never exits.
//
// Every `.agentty/mcp.json` at any depth is live for its launch directory
// (the directory holding `.agentty`), so every one is read. Paths are
// resolved as the kernel resolves them when agentty opens the config or
// spawns a server: symlinks are followed inside the repository, and one
// that leads outside it makes the answer unknowable (reported, never taken
// for "nothing there").
//
// The other clients' configs are read at any depth too; clientRows is the
// one table of which surface kind is whose config and which kinds govern
// whose grade. A `.mcp.json`'s launch directory is the directory holding
// it (Claude Code spawns a server with the cwd it was launched in, and the
// file applies from there and below); the others' is the directory holding
// `.gemini`, `.codex`, `.cursor` or `.vscode`. Relative paths are resolved
// from there, or from the server's `cwd` where the client honours one.
// Someone who launches a client in a subdirectory gets them resolved there
// instead, which this package does not model. The servers' command lines
// are analysed as written and, when the client's interpolation changes
// them (client.SpawnFor: `${VAR}`, `$VAR`, `${workspaceFolder}`; Codex
// interpolates nothing), also as expanded in Options.Env (mcp-guard's
// environment): the scope is the union of both, and the variables' values
// are bound into the deep fingerprint. Compare grades a change by its
// client's rules (client.Impact) from the user's state in Options.Env's
// HOME and the repository files that govern it (`.claude/settings*.json`
// of the config's directory, of the repository's top and of every
// directory below the config that holds one, the most dangerous answer
// winning; `.vscode/settings.json`; Gemini's settings file itself).
package project

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/internal/filekind"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// StoreGrants is what the client that keeps its own approvals store
// consults before it runs a project server (client.StoreKeeper.Grants),
// for Options.Grants: the hook and diff ask here, so the command line
// never picks that client out. An unreadable store approves nothing; its
// error is returned beside the empty grants for the caller to show.
func StoreGrants(env client.Env) (trust.Grants, error) {
	return client.Keeper().Grants(env)
}

// Options tune Load and Compare.
type Options struct {
	// Grants is what agentty consults (the approvals store and
	// AGENTTY_MCP_ALLOW_PROJECT); Compare uses it for impacts.
	Grants trust.Grants
	// RunDir is the repository-relative (slash-separated) directory the
	// client is started in when that is not the config's own launch
	// directory: Claude Code reads every .mcp.json from its launch
	// directory up, Codex every .codex/config.toml layer, and spawns
	// their servers in the directory it was started in. "" (or ".") for
	// the root; LoadConfig only.
	RunDir *string
	// Touched are paths Compare counts as changed though the comparison
	// of the sides does not list them: a submodule whose checked-out
	// content moved while its commit in the index did not.
	Touched []string
	// Env is the environment the clients' interpolation uses and whose
	// HOME holds their user state (~/.claude.json, ~/.gemini/
	// trustedFolders.json, ~/.codex/config.toml, …), read by Compare only
	// for a client whose config, a file its servers run, or a file that
	// governs it changed. The zero Env expands nothing and reads no user
	// state.
	Env client.Env
	// Cache, when set, is shared by the LoadConfig calls of one evaluation
	// over the same repository (see Cache); LoadConfig only.
	Cache *Cache
	// Configs asks Compare for every configuration's state at both sides
	// (Result.Configs), the unchanged ones included: `diff --json` lists
	// them. The hook leaves it off and keeps its quick path.
	Configs bool
}

// Server is one server of a loaded configuration with its resolved
// references and deep fingerprint.
type Server struct {
	*trust.Server
	// Files are what the side holds for each item of Scope (see
	// launch.Item.Label), Deep the deep fingerprint over them.
	Files []trust.FileID
	Deep  string
	// Scope is what the server runs from the repository, and why: the
	// items of its code scope the side holds (Files; one with nothing
	// there is bound by being absent from Files), the inline code and
	// what the launch model could not follow.
	Scope *launch.Scope
}

// Config is one client's project configuration at one side.
type Config struct {
	// Client reads it (agentty, claude-code, gemini-cli, codex, cursor,
	// vscode).
	Client client.ID
	// Path is the repository-relative path the client opens (below a
	// symlinked .agentty directory too); LaunchDir its launch directory
	// ("" for the root).
	Path      string
	LaunchDir string
	// Entry is the entry whose bytes agentty reads (the symlink itself when
	// it leads outside the repository).
	Entry gitscan.Entry
	// Linked is true when Path or one of its directories is a symlink;
	// Target is then the repository path agentty reads through it, "" when
	// it leads outside the repository (Config.Err says so).
	Linked bool
	Target string
	// Config is the parse result, never nil; Config.Err when agentty
	// would run nothing from the file.
	Config *trust.Config
	// Readings are, for a file other clients read too (surface.AlsoRead:
	// Claude Code's .mcp.json, which Copilot CLI and Qwen Code read), each
	// one's parse of the same bytes, in Load's snapshot: scan's server
	// rules go through what each reads otherwise (policy.CheckReadings).
	Readings []*trust.Config
	// Files holds every server's resolved scope at this side, by name.
	Files   trust.Files
	Servers []Server

	// visited are the paths whose entries this answer depends on.
	visited []string
	// data are the bytes Config was parsed from; nil when it was not
	// parsed (the file could not be read as one).
	data []byte
	// runDir is where its servers are spawned (Options.RunDir), nil for
	// LaunchDir.
	runDir *string
}

// Findings are the configuration's own findings (parse and integrity),
// plus those policy finds on where it lies (policy.PlacementFindings:
// agentty's MG305 when it is reached through a symlink and MG306 when it
// is nested below the repository root).
func (c *Config) Findings() []trust.Finding {
	out := append([]trust.Finding(nil), c.Config.Findings...)
	return append(out, policy.PlacementFindings(c.Client, c.Path, c.Linked, c.Target, c.LaunchDir)...)
}

// Snapshot is every agentty surface at one side.
type Snapshot struct {
	Side    gitscan.Side
	Configs []*Config // agentty's, sorted by path
	// Clients are the other clients' configurations, sorted by path. Their findings are in each Config's Findings, not
	// in Snapshot.Findings.
	Clients []*Config
	Others  []gitscan.Surface // hooks.json, acp-agents.json, personas, linked surface directories
	Skipped []string          // submodules and nested repositories gitscan did not enter
	// Findings: every config's Findings, and MG305/MG501-MG503 for the
	// other surfaces present.
	Findings []trust.Finding
}

// Load reads every configuration at side, with deep fingerprints.
func Load(ctx context.Context, repo *gitscan.Repo, side gitscan.Side, opts Options) (*Snapshot, error) {
	surfaces, skipped, err := repo.Surfaces(side)
	if err != nil {
		return nil, fmt.Errorf("list agentty surfaces at %s: %w", side, err)
	}
	rd := newReader(repo, side, opts)
	snap := &Snapshot{Side: side, Skipped: skipped}
	for _, p := range append(configPaths(surfaces), clientPaths(surfaces, rd.listNames)...) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := rd.loadConfig(clientsOf(p)[0], p)
		if err != nil {
			return nil, err
		}
		switch {
		case c == nil:
		case keeps(c.Client):
			snap.Configs = append(snap.Configs, c)
			snap.Findings = append(snap.Findings, c.Findings()...)
		default:
			snap.Clients = append(snap.Clients, c)
			if k, ok := surface.Of(p); ok {
				c.Readings = client.OtherReadings(k, p, c.data, c.Config)
			}
		}
	}
	for _, s := range surfaces {
		if f, ok := surfaceFinding(s, "present"); ok {
			snap.Others = append(snap.Others, s)
			snap.Findings = append(snap.Findings, f)
		}
	}
	sortFindings(snap.Findings)
	return snap, nil
}

// LoadConfig reads the one configuration at configPath (a repository-
// relative `.agentty/mcp.json`, or another client's config) at side,
// in its client's dialect, with deep fingerprints; nil, nil when the
// client would find no file there.
func LoadConfig(ctx context.Context, repo *gitscan.Repo, side gitscan.Side, configPath string, opts Options) (*Config, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return newReader(repo, side, opts).loadConfig(clientsOf(configPath)[0], configPath)
}

// Result is what Compare found.
type Result struct {
	Old, New gitscan.Side
	// Changes sorted by impact (trust-preserving first), config path and
	// server name, for every client (Change.Client). Servers that are
	// unchanged with an unchanged impact are left out.
	Changes []trust.Change
	// Findings about what changed: the Findings of every added or changed
	// configuration (MG3xx, MG305, MG306), MG305/MG501-MG503 for the
	// other surfaces added or changed, and MG701-MG718 for the clients'
	// files and CI workflows added or changed.
	Findings []trust.Finding
	// Skipped are the submodules and nested repositories of the new side.
	Skipped []string
	// Configs, with Options.Configs, are every configuration of either
	// side, sorted by path, with what its client read at each.
	Configs []ConfigSides
}

// ConfigSides is one configuration file compared: its client's parse of
// it at each side, nil where the side has no file there.
type ConfigSides struct {
	Client   client.ID
	Path     string
	Old, New *trust.Config
}

// NeedsAttention reports whether any change needs the user's attention
// (invalidated, trust-preserving, new-unapproved, new-preapproved) or any
// finding was made.
func (r *Result) NeedsAttention() bool {
	for _, c := range r.Changes {
		if c.Impact.NeedsAttention() {
			return true
		}
	}
	return len(r.Findings) > 0
}

// Compare finds what changed in the agentty surfaces between old and new.
//
// It takes the changed paths from gitscan's pruned comparison and the
// surfaces of both sides (cached per tree by gitscan). Each configuration
// is read at the old side with its references resolved; when neither the
// configuration nor anything its servers run was touched by the change, it
// is not read again (so a pull that edits server.js but not the config
// still surfaces the server that runs it, and one that edits neither costs
// one config read). Otherwise both sides are read in full and compared by
// trust.Diff.
func Compare(ctx context.Context, repo *gitscan.Repo, old, new gitscan.Side, opts Options) (*Result, error) {
	changes, err := repo.Changes(old, new)
	if err != nil {
		return nil, fmt.Errorf("compare %s with %s: %w", old, new, err)
	}
	cs := newChangeSet(changes)
	cs.add(opts.Touched...)
	if !opts.Configs {
		if res, ok, err := quietCompare(repo, old, new, changes, cs); ok || err != nil {
			return res, err
		}
	}
	oldSurf, _, err := repo.Surfaces(old)
	if err != nil {
		return nil, fmt.Errorf("list agentty surfaces at %s: %w", old, err)
	}
	newSurf, skipped, err := repo.Surfaces(new)
	if err != nil {
		return nil, fmt.Errorf("list agentty surfaces at %s: %w", new, err)
	}
	ro, rn := newReader(repo, old, opts), newReader(repo, new, opts)
	ro.keepDeps, rn.keepDeps = true, true
	res := &Result{Old: old, New: new, Skipped: skipped}
	grades := newGrades(ro, rn, opts.Env, oldSurf, newSurf)
	govern := map[client.ID]bool{}
	for _, c := range changes {
		governed(c, govern)
	}
	// A governing file reached through a symlink (`.claude` -> conf/, or
	// settings.json -> ../x.json) is governed by its target too.
	clientCfgs := append(clientPaths(oldSurf, ro.listNames), clientPaths(newSurf, rn.listNames)...)
	if err := governedThrough(ro, rn, cs, grades, clientCfgs, govern); err != nil {
		return nil, err
	}

	paths := configPaths(oldSurf)
	paths = append(paths, configPaths(newSurf)...)
	paths = append(paths, clientCfgs...)
	// A file several clients read (`.mcp.json`: Claude Code, Copilot
	// CLI) is each one's config: read in its dialect, graded in its words.
	seen := map[string]bool{}
	var compared []clientConfig
	for _, p := range uniqueSorted(paths) {
		for _, id := range clientsOf(p) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			did, err := compareConfig(repo, old, new, ro, rn, cs, grades, govern, opts, res, seen, id, p)
			if err != nil {
				return nil, err
			}
			if did {
				compared = append(compared, clientConfig{id, p})
			}
		}
	}
	for _, c := range compared {
		if err := includedChanges(grades, res, seen, c.id, c.path); err != nil {
			return nil, err
		}
	}

	before := map[string]gitscan.Entry{}
	for _, s := range oldSurf {
		before[s.Path] = s.Entry
	}
	for _, s := range newSurf {
		e, existed := before[s.Path]
		if existed && e == s.Entry {
			continue
		}
		verb := "added"
		if existed {
			verb = "changed"
		}
		if f, ok := surfaceFinding(s, verb); ok {
			addFindings(res, seen, []trust.Finding{f})
		}
		fs, err := settingsFindings(rn, s)
		if err != nil {
			return nil, err
		}
		// A file two readers read (Codex's config.toml: its servers and
		// its hooks) has its findings once.
		addFindings(res, seen, fs)
	}
	hookFindings, err := hookScriptFindings(ro, rn, cs, oldSurf, newSurf)
	if err != nil {
		return nil, err
	}
	addFindings(res, seen, hookFindings)
	if err := recordDeps(ro, rn, oldSurf, newSurf); err != nil {
		return nil, err
	}
	sort.SliceStable(res.Changes, func(i, j int) bool {
		a, b := res.Changes[i], res.Changes[j]
		if ra, rb := a.Impact.Rank(), b.Impact.Rank(); ra != rb {
			return ra < rb
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Server < b.Server
	})
	sortFindings(res.Findings)
	return res, nil
}

// clientConfig is one client's configuration path.
type clientConfig struct {
	id   client.ID
	path string
}

// compareConfig compares client id's configuration at p at both sides
// into res, and reports whether it did (something the configuration
// depends on, or its client's grade, may have changed). A finding several
// clients' readings of one file share (a server rule on a shared
// `.mcp.json`) is said once (seen).
func compareConfig(repo *gitscan.Repo, old, new gitscan.Side, ro, rn *reader, cs *changeSet, grades *grades, govern map[client.ID]bool, opts Options, res *Result, seen map[string]bool, id client.ID, p string) (bool, error) {
	c0, err := ro.loadConfig(id, p)
	if err != nil {
		return false, err
	}
	if c0 != nil && !cs.touchesAny(c0.visited) && !govern[id] {
		if opts.Configs {
			res.Configs = append(res.Configs, ConfigSides{Client: id, Path: p, Old: c0.Config, New: c0.Config})
		}
		return false, nil // nothing it depends on changed
	}
	c1, err := rn.loadConfig(id, p)
	if err != nil {
		return false, err
	}
	if opts.Configs && (c0 != nil || c1 != nil) {
		cfg := ConfigSides{Client: id, Path: p}
		if c0 != nil {
			cfg.Old = c0.Config
		}
		if c1 != nil {
			cfg.New = c1.Config
		}
		res.Configs = append(res.Configs, cfg)
	}
	var oldCfg, newCfg *trust.Config
	var oldFiles, newFiles trust.Files
	if c0 != nil {
		oldCfg, oldFiles = c0.Config, c0.Files
	}
	if c1 != nil {
		newCfg, newFiles = c1.Config, c1.Files
	}
	var diff []trust.Change
	if keeps(id) {
		diff = trust.Diff(oldCfg, newCfg, oldFiles, newFiles, opts.Grants)
	} else {
		diff = trust.DiffClient(ChangeClient(id), oldCfg, newCfg, oldFiles, newFiles, grades.grader(id, trust.ConfigLaunchDir(ChangeClient(id), p)))
	}
	MarkWithin(diff, oldFiles, newFiles)
	markSubmodules(repo, old, new, diff)
	for _, ch := range diff {
		if ch.Change != trust.ChangeUnchanged || ch.Impact != trust.ImpactUnchanged {
			res.Changes = append(res.Changes, ch)
		}
	}
	var fs []trust.Finding
	if c1 != nil && (c0 == nil || c0.Entry != c1.Entry || c0.Target != c1.Target) {
		// A file whose rules say why its client fails on it (Codex's
		// MG716, from settingsFindings) has its reader's parse findings
		// said there, once, as scan says them.
		if k, ok := surface.Of(p); !ok || !policy.OwnParse(k) {
			fs = append(fs, c1.Findings()...)
		}
	}
	if c1 != nil {
		fs = append(fs, changedServerFindings(c1.Config, diff)...)
	}
	addFindings(res, seen, fs)
	return true, nil
}

// addFindings adds fs to res, each once (seen).
func addFindings(res *Result, seen map[string]bool, fs []trust.Finding) {
	for _, f := range fs {
		key := f.Rule + "\x00" + f.Path + "\x00" + f.Server + "\x00" + f.Message
		if !seen[key] {
			seen[key] = true
			res.Findings = append(res.Findings, f)
		}
	}
}

// includedChanges adds to res what client id newly runs because its
// configuration at p (compared: something it depends on changed) now
// brings in a file it did not bring in before (client.Includer: a VS Code
// workspace file that now lists a folder whose .vscode/tasks.json was
// committed before). Each entry of such a file is added, from the user's
// point of view, at the file's own path and name (what review and check
// key it by), graded as p's launch directory grades it. An entry res
// already names (the file changed too, and was compared as itself) is not
// said twice; a file no longer brought in still runs when its own folder
// is opened, so it is no alarm.
func includedChanges(g *grades, res *Result, seen map[string]bool, id client.ID, p string) error {
	inc, ok := client.Lookup(id).(client.Includer)
	if !ok {
		return nil
	}
	top := g.top()
	var before, after []client.Included
	for i, out := range []*[]client.Included{&before, &after} {
		for _, f := range inc.Includes(g.abs(p), top, g.sideEnv(i)) {
			if r, ok := repoPath(f.Path, "", top); ok && r != p {
				f.Path = r
				*out = append(*out, f)
			}
		}
	}
	named := map[string]bool{}
	for _, ch := range res.Changes {
		named[ch.Path+"\x00"+ch.Server] = true
	}
	grade := g.grader(id, trust.ConfigLaunchDir(ChangeClient(id), p))
	for _, f := range after {
		if slices.ContainsFunc(before, func(b client.Included) bool { return b.Path == f.Path }) {
			continue
		}
		c1, err := g.rn.loadConfig(id, f.Path)
		if err != nil {
			return err
		}
		if c1 == nil {
			continue
		}
		diff := trust.DiffClient(ChangeClient(id), nil, c1.Config, nil, c1.Files, grade)
		MarkWithin(diff, nil, c1.Files)
		var shown []trust.Change
		for _, ch := range diff {
			if key := ch.Path + "\x00" + ch.Server; !named[key] {
				named[key] = true
				ch.Reasons = append([]string{f.Why}, ch.Reasons...)
				shown = append(shown, ch)
			}
		}
		res.Changes = append(res.Changes, shown...)
		addFindings(res, seen, changedServerFindings(c1.Config, shown))
	}
	return nil
}

// changedServerFindings are the high and critical findings of policy's
// server rules (MG1xx, MG2xx, MG4xx) on the servers of cfg that diff says
// changed in a way that needs attention: the danger a change brings, said
// where the change is (the hook, diff), not only by scan.
func changedServerFindings(cfg *trust.Config, diff []trust.Change) []trust.Finding {
	changed := map[string]bool{}
	for _, ch := range diff {
		if ch.New != nil && ch.Change != trust.ChangeUnchanged && ch.Impact.NeedsAttention() {
			changed[ch.Server] = true
		}
	}
	if len(changed) == 0 {
		return nil
	}
	one := *cfg
	one.Servers = nil
	for _, s := range cfg.Servers {
		if changed[s.Name] {
			one.Servers = append(one.Servers, s)
		}
	}
	var out []trust.Finding
	for _, f := range policy.CheckServers(&one, policy.Options{}) {
		if f.Severity.Rank() >= trust.SeverityHigh.Rank() {
			out = append(out, f)
		}
	}
	return out
}

// hookScriptFindings reports the hooks.json files that did not change
// between the sides while a repository file their `run` commands name did
// (MG501): agentty's approval of a hooks file is the hash of its bytes, which
// does not cover the scripts it runs. Added or changed hooks files are
// reported as such by Compare.
func hookScriptFindings(ro, rn *reader, cs *changeSet, oldSurf, newSurf []gitscan.Surface) ([]trust.Finding, error) {
	after := map[string]gitscan.Entry{}
	for _, s := range newSurf {
		after[s.Path] = s.Entry
	}
	var out []trust.Finding
	for _, s := range oldSurf {
		if e, ok := after[s.Path]; !ok || e != s.Entry {
			continue
		}
		before, err := hookScope(ro, s)
		if err != nil {
			return nil, err
		}
		now, err := hookScope(rn, s)
		if err != nil {
			return nil, err
		}
		for _, fc := range trust.FileChanges(before, now) {
			out = append(out, policy.HookScriptChanged(s.Path, fc.Path))
		}
	}
	return out, nil
}

// configPaths are the paths the client that keeps a store mcp-guard
// writes (client.Keeper: agentty) opens as project configs, given the
// surfaces of one side: every one of its config kind (`.agentty/mcp.json`),
// and the config's name below every non-directory entry named as its
// directory (a symlinked `.agentty`).
func configPaths(surfaces []gitscan.Surface) []string {
	cfg := surface.Find(string(client.Keeper().ID()), surface.Config)
	dir, name := cfg.Spec().Dir(), cfg.Spec().Base()
	var out []string
	for _, s := range surfaces {
		switch {
		case s.Kind == cfg:
			out = append(out, s.Path)
		case s.Kind == surface.KindLinkedDir && strings.EqualFold(path.Base(s.Path), dir):
			out = append(out, s.Path+"/"+name)
		}
	}
	return out
}

// surfaceFinding reports a surface other than an MCP config; verb says
// what happened to it ("present", "added", "changed").
func surfaceFinding(s gitscan.Surface, verb string) (trust.Finding, bool) {
	return policy.SurfaceFinding(s.Path, s.Kind, verb, nil)
}

func sortFindings(fs []trust.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule < b.Rule
	})
}

func uniqueSorted(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// newReader reads one side, remembering resolved paths.
func newReader(repo *gitscan.Repo, side gitscan.Side, opts Options) *reader {
	sc := opts.Cache.side(side)
	rd := &reader{repo: repo, side: side, cache: map[resolveKey]*resolution{}, items: sc.items, env: opts.Env, vars: opts.Env.Vars(), runDir: opts.RunDir}
	if top := repo.TopLevel(); top != "" {
		rd.top = filepath.ToSlash(filepath.Clean(top))
		rd.tops = []string{rd.top}
		if real, err := filepath.EvalSymlinks(top); err == nil && filepath.ToSlash(real) != rd.top {
			rd.tops = append(rd.tops, filepath.ToSlash(real))
		}
	}
	return rd
}

// loadConfig reads the configuration client id opens at p; nil when
// there is none (absent, or a dangling symlink: agentty then falls back to
// the user's config).
// ErrLinkOutside: a path is reached through a symlink that leads outside
// the repository (or loops); mcp-guard does not follow it.
var ErrLinkOutside = errors.New("reached through a symlink that leads outside the repository (or loops)")

func (rd *reader) loadConfig(id client.ID, p string) (*Config, error) {
	rd.launch = trust.ConfigLaunchDir(ChangeClient(id), p)
	res, err := rd.resolve(p)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", p, rd.side, err)
	}
	c := &Config{Client: id, Path: p, LaunchDir: rd.launch, Linked: res.link.Mode != 0, Entry: res.entry, visited: res.visited, runDir: rd.runDir}
	switch {
	case res.outside:
		c.Config = trust.UnreadableConfig(p, trust.ScopeProject, ErrLinkOutside)
	case res.entry.Mode == 0 && res.link.Mode == 0 && rd.side == gitscan.WorkTree:
		// git sees nothing there; the agent may: a FIFO, device, socket
		// or empty directory in its place cannot be read.
		_, _, err := rd.repo.ReadBlob(rd.side, p, 0)
		if !errors.Is(err, gitscan.ErrNotRegular) {
			return nil, nil
		}
		c.Config = trust.InvalidConfig(p, trust.ScopeProject, err)
	case res.entry.Mode == 0:
		return nil, nil
	case !res.entry.Mode.IsFile():
		c.Config = trust.InvalidConfig(p, trust.ScopeProject, notAFile(res.entry.Mode))
	default:
		if c.Linked {
			c.Target = res.entry.Path
		}
		data, transform, err := rd.configBlob(res.entry.Path)
		switch {
		case transform != "":
			// What git stores is not what the checkout holds: the agent
			// reads the checked-out bytes, so neither "runs nothing" nor
			// the stored servers may be taken for what it runs.
			c.Config = trust.UnreadableConfig(p, trust.ScopeProject,
				fmt.Errorf("git rewrites this file on checkout (%s), so the stored bytes mcp-guard reads here are not what the agent reads", transform))
		case errors.Is(err, gitscan.ErrTooLarge):
			c.Config = trust.UnreadableConfig(p, trust.ScopeProject, err)
		case errors.Is(err, gitscan.ErrNotRegular):
			c.Config = trust.InvalidConfig(p, trust.ScopeProject, err)
		case err != nil:
			return nil, fmt.Errorf("read %s at %s: %w", res.entry.Path, rd.side, err)
		default:
			c.Config, c.data = client.ParseFile(client.Lookup(id), p, data), data
			if j, ok := client.Lookup(id).(client.Joiner); ok {
				j.Join(c.Config, rd.joinRead(c))
			}
			if j, ok := client.Lookup(id).(client.UserJoiner); ok {
				j.JoinUser(c.Config, rd.env, rd.tops)
			}
		}
	}
	if err := resolveServers(c, &sideSource{rd: rd}, launch.Options{Root: rd.top}, rd.vars); err != nil {
		return nil, err
	}
	return c, nil
}

// joinRead reads another file of rd's side for a client.Joiner
// completing c, as loadConfig reads a configuration (through symlinks
// inside the repository; a file git rewrites on checkout is not read);
// c then depends on the paths the read went through.
func (rd *reader) joinRead(c *Config) func(string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		res, err := rd.resolve(p)
		c.visited = append(c.visited, res.visited...)
		if err != nil || res.outside || !res.entry.Mode.IsFile() {
			return nil, false
		}
		data, transform, err := rd.configBlob(res.entry.Path)
		return data, err == nil && transform == ""
	}
}

// configBlob is the stored config at p and the rewrite git applies to it
// on checkout, read once per side however many clients read the file.
func (rd *reader) configBlob(p string) ([]byte, string, error) {
	if b, ok := rd.blobs[p]; ok {
		return b.data, b.transform, b.err
	}
	data, _, err := rd.repo.ReadBlob(rd.side, p, trust.MaxFileSize)
	var transform string
	if err == nil {
		transform, err = rd.repo.CheckoutTransform(rd.side, p)
	}
	if rd.blobs == nil {
		rd.blobs = map[string]configBlob{}
	}
	rd.blobs[p] = configBlob{data, transform, err}
	return data, transform, err
}

type configBlob struct {
	data      []byte
	transform string
	err       error
}

// resolveServers computes every server's code scope with the launch
// model, resolves it at src and computes the deep fingerprints.
func resolveServers(c *Config, src source, opts launch.Options, vars client.Vars) error {
	c.Files = trust.Files{}
	// Servers whose analyses have the same inputs (spawnInput) share one
	// analysis and its files: a configuration of many copies of one
	// command line is analysed once. Only a hash of each input is kept;
	// a match is confirmed against the first server's input, in full.
	seed := maphash.MakeSeed()
	first := map[uint64]int{}
	for _, s := range c.Config.Servers {
		in := spawnInputOf(c, s, opts, vars)
		key := in.key()
		h := maphash.String(seed, key)
		if i, ok := first[h]; ok && spawnInputOf(c, c.Servers[i].Server, opts, vars).key() == key {
			files := c.Servers[i].Files
			c.Servers = append(c.Servers, Server{Server: s, Files: files, Deep: trust.DeepFingerprint(s, files), Scope: c.Servers[i].Scope})
			c.Files[s.Name] = files
			continue
		}
		sc, err := analyzeSpawn(c, in, src, opts, vars)
		if err != nil {
			return fmt.Errorf("%s: server %q: %w", c.Path, s.Name, err)
		}
		files, held, err := scopeFiles(src, sc)
		if err != nil {
			return fmt.Errorf("%s: server %q: %w", c.Path, s.Name, err)
		}
		if _, ok := first[h]; !ok {
			first[h] = len(c.Servers)
		}
		c.Servers = append(c.Servers, Server{Server: s, Files: files, Deep: trust.DeepFingerprint(s, files), Scope: held})
		c.Files[s.Name] = files
	}
	c.visited = append(c.visited, src.visited()...)
	return nil
}

// spawnOf is the launch model's view of a server: what the process
// receives.
func spawnOf(s *trust.Server) launch.Spawn {
	sp := launch.Spawn{Command: s.SpawnCommand(), Args: s.SpawnArgs(), Trees: s.Trees, Remote: s.Remote}
	for _, e := range s.Env {
		sp.Env = append(sp.Env, launch.Var{Name: e.Name, Value: e.Value})
	}
	return sp
}

// object resolves one reference at the reader's side.
func (rd *reader) object(p string, dirOK bool) (trust.Object, []string, error) {
	res, err := rd.resolveCached(p)
	if err != nil {
		return trust.Object{}, nil, fmt.Errorf("at %s: %w", rd.side, err)
	}
	return res.object(dirOK), res.visited, nil
}

func (rd *reader) resolveCached(p string) (resolution, error) {
	key := resolveKey{rd.launch, p}
	if res, ok := rd.cache[key]; ok {
		return *res, nil
	}
	res, err := rd.resolve(p)
	if err == nil && !absentAlone(res, p) {
		rd.cache[key] = &res
	}
	return res, err
}

// absentAlone reports the commonest answer, which the resolution cache
// does not keep: nothing at p, looked up alone (no symlink on the way).
// Every server launched through npx or uvx probes paths named after its
// package; at 100,000 servers their keys alone were a tenth of the heap,
// and looking such a path up again costs one lookup in the side, which
// gitscan remembers for the work tree.
func absentAlone(res resolution, p string) bool {
	return res.entry.Mode == 0 && res.link.Mode == 0 && !res.outside && len(res.visited) == 1 && res.visited[0] == p
}

// notAFile is the error for a configuration path whose entry is not a
// file: worded as every reader words it (filekind).
func notAFile(m gitscan.Mode) error { return &filekind.Error{Kind: "a " + describeMode(m)} }

func describeMode(m gitscan.Mode) string {
	switch m {
	case gitscan.ModeTree:
		return "directory"
	case gitscan.ModeSubmodule:
		return "submodule"
	}
	return "mode " + m.String()
}
