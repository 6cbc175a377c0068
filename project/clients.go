package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// clientRow is one client's project surfaces, as the client declares
// them (surface.Register in its own file): the kind of its config, the
// directory a symlink may stand for, the kinds besides the config that
// govern its grade (its approval or trust state), and its words for a
// change of a file a server runs while the entry stays the same.
type clientRow struct {
	id      client.ID
	config  surface.Kind
	dir     string // ".gemini": a linked dir of that name redirects dir/name
	name    string // the config's file name below dir ("" for a config in the launch directory itself)
	governs []surface.Kind
	// govFiles are the governing files below a launch directory.
	govFiles []string
	// others are the client's other surfaces: findings, no grade.
	others []surface.Kind
	// shared are other clients' configs it reads as its own too
	// (surface.AlsoRead: Copilot CLI's `.mcp.json`).
	shared []surface.Kind
	// entries are the kinds, besides its config, that the client runs
	// entries from (hooks, helpers): read as configs too.
	entries []surface.Kind
	// below: launched below the config's directory, the client reads the
	// governing files there too (Claude Code's `.claude/settings*.json`).
	below bool
	files string
}

// clientRows are the clients graded here (every client but the one that
// keeps a store mcp-guard writes, whose grade is trust.Diff's: keeps), in
// client.All's order, built from the surface registry on first use.
var clientRows = sync.OnceValue(func() []clientRow {
	var rows []clientRow
	for _, c := range client.All() {
		id := c.ID()
		cfg := surface.Find(string(id), surface.Config)
		if keeps(id) || cfg == 0 {
			continue
		}
		r := clientRow{id: id, config: cfg, dir: cfg.Spec().Dir(), files: c.Binds()}
		if r.dir != "" {
			r.name = cfg.Spec().Base()
		}
		for _, k := range surface.OfClient(string(id)) {
			sp := k.Spec()
			if sp.Entries && k != cfg {
				r.entries = append(r.entries, k)
			}
			switch sp.Role {
			case surface.Governing:
				r.governs = append(r.governs, k)
				r.below = r.below || sp.Below
				for _, p := range sp.Patterns {
					r.govFiles = append(r.govFiles, strings.TrimPrefix(p, "**/"))
				}
				if r.dir == "" {
					r.dir = sp.Dir()
				}
			case surface.Sibling:
				r.others = append(r.others, k)
			}
		}
		r.shared = surface.Shared(string(id))
		rows = append(rows, r)
	}
	return rows
})

// keeps reports whether client id keeps a store mcp-guard writes
// (client.StoreKeeper: agentty): a change of its configs is graded by
// trust.Diff against that store (Options.Grants), not by a row here, and
// a Snapshot holds them in Configs.
func keeps(id client.ID) bool {
	_, ok := client.Lookup(id).(client.StoreKeeper)
	return ok
}

// rowOf is the row of client id, nil for agentty.
func rowOf(id client.ID) *clientRow {
	rows := clientRows()
	for i := range rows {
		if rows[i].id == id {
			return &rows[i]
		}
	}
	return nil
}

// KindClient is the client a surface kind belongs to: the client whose
// project config it is, whose grade it governs, or whose other file it is
// (`.vscode/tasks.json`); agentty otherwise (its own kinds, and CI:
// client.Keeper).
func KindClient(k surface.Kind) client.ID {
	for _, r := range clientRows() {
		if r.config == k || slices.Contains(r.governs, k) || slices.Contains(r.others, k) {
			return r.id
		}
	}
	return client.Keeper().ID()
}

// PathClient is KindClient of a repository path's kind.
func PathClient(p string) client.ID {
	if k, ok := surface.Of(p); ok {
		return KindClient(k)
	}
	return client.Keeper().ID()
}

// FindingClient is the client a finding is about, in trust.Change's
// form ("" for agentty): the client of its file (PathClient), else the
// client its rule is about (policy.RuleClient: Claude Code's CI workflow
// rules), else agentty.
func FindingClient(f trust.Finding) string {
	if id := ChangeClient(PathClient(f.Path)); id != "" {
		return id
	}
	return ChangeClient(policy.RuleClient(f.Rule))
}

// clientsOf are the clients whose project configuration p is (their
// config, a config of another client they read too, or a file they run
// entries from), the one that declared its kind first; agentty alone
// otherwise.
func clientsOf(p string) []client.ID {
	var out []client.ID
	if k, ok := surface.Of(p); ok {
		kinds := surface.OfAll(p)
		for _, r := range clientRows() {
			if r.config == k || slices.ContainsFunc(kinds, func(k surface.Kind) bool { return slices.Contains(r.entries, k) }) {
				out = append(out, r.id)
			}
		}
		for _, r := range clientRows() {
			if slices.Contains(r.shared, k) {
				out = append(out, r.id)
			}
		}
	}
	if len(out) == 0 {
		return []client.ID{client.Keeper().ID()}
	}
	return out
}

// ChangeClient is the client's id in trust.Change and trust.ReviewKey
// ("" for agentty: client.KeyClient).
func ChangeClient(id client.ID) string { return client.KeyClient(id) }

// clientPaths are the other clients' project configs among the surfaces
// of one side, at any depth (a symlink too: the clients follow it), the
// config below every symlinked client directory, and the files listed
// below a symlinked directory whose every file may be a config (Cline's
// `.clinerules/hooks` -> scripts/: each hook file there). list names the
// entries of a directory at the side, through symlinks (nil: none).
func clientPaths(surfaces []gitscan.Surface, list func(dir string) []string) []string {
	var out []string
	for _, s := range surfaces {
		for _, r := range clientRows() {
			switch {
			case s.Kind == r.config, slices.ContainsFunc(surface.OfAll(s.Path), func(k surface.Kind) bool { return slices.Contains(r.entries, k) }):
				out = append(out, s.Path)
			case s.Kind == surface.KindLinkedDir && r.name != "" && strings.EqualFold(path.Base(s.Path), r.dir):
				out = append(out, s.Path+"/"+r.name)
			}
			if s.Kind == surface.KindLinkedDir {
				out = append(out, linkedEntryFiles(r, s.Path)...)
			}
		}
		if s.Kind == surface.KindLinkedDir && list != nil && listedDir(s.Path) {
			out = append(out, linkedListed(s.Path, list)...)
		}
	}
	return out
}

// listedDir reports whether a file directly below dir may be a client's
// config or entry file by a pattern that names no one file
// ("**/.clinerules/hooks/*", "**/.github/hooks/*.json"): its files can
// only be found by listing it.
func listedDir(dir string) bool {
	for _, r := range clientRows() {
		for _, k := range append([]surface.Kind{r.config}, r.entries...) {
			for _, pat := range k.Spec().Patterns {
				d, base := path.Split(strings.TrimPrefix(pat, "**/"))
				if strings.ContainsAny(base, "*?[") && pathHasSuffixFold(dir, path.Clean(d)) {
					return true
				}
			}
		}
	}
	return false
}

// pathHasSuffixFold reports whether p ends with the path elements of
// suffix, ignoring ASCII case as the surface matcher does.
func pathHasSuffixFold(p, suffix string) bool {
	if len(p) < len(suffix) || !strings.EqualFold(p[len(p)-len(suffix):], suffix) {
		return false
	}
	return len(p) == len(suffix) || p[len(p)-len(suffix)-1] == '/'
}

// linkedListed are the names listed below the symlinked directory at p
// that are a client's config or entry file there.
func linkedListed(p string, list func(dir string) []string) []string {
	var out []string
	for _, name := range list(p) {
		f := p + "/" + name
		k, ok := surface.Of(f)
		if !ok {
			continue
		}
		for _, r := range clientRows() {
			if k == r.config || slices.Contains(r.entries, k) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// linkedEntryFiles are the files below a symlinked directory at p that
// r's client runs entries from (`.claude` -> conf/: conf's settings).
func linkedEntryFiles(r clientRow, p string) []string {
	var out []string
	for _, k := range r.entries {
		sp := k.Spec()
		for _, pat := range sp.Patterns {
			f := strings.TrimPrefix(pat, "**/")
			dir, base := path.Split(f)
			if strings.EqualFold(path.Base(p), path.Clean(dir)) {
				out = append(out, p+"/"+base)
			}
		}
	}
	return out
}

// governed are the clients whose grade a change of c can move: a file of
// a kind in a row's governs, or an entry named as a row's directory that
// is not one (a symlink standing for it).
func governed(c gitscan.Change, into map[client.ID]bool) {
	k, ok := surface.Of(c.Path)
	base := path.Base(c.Path)
	for _, r := range clientRows() {
		if strings.EqualFold(base, r.dir) {
			into[r.id] = true
		}
		if ok && slices.Contains(r.governs, k) {
			into[r.id] = true
		}
	}
}

// governedThrough adds to into the clients whose governing file, at the
// root, a launch directory of one of their configs or a directory holding
// one, resolves through a path the change touched (a symlinked `.claude`
// or settings file whose target changed). configs are the clients'
// config paths at both sides (clientPaths).
func governedThrough(ro, rn *reader, cs *changeSet, g *grades, configs []string, into map[client.ID]bool) error {
	for _, r := range clientRows() {
		if into[r.id] || len(r.govFiles) == 0 {
			continue
		}
		dirs := append([]string{""}, g.govDirs[r.id]...)
		for _, p := range configs {
			if slices.Contains(clientsOf(p), r.id) {
				dirs = append(dirs, trust.ConfigLaunchDir(ChangeClient(r.id), p))
			}
		}
		for _, d := range uniqueSorted(dirs) {
			for _, rd := range []*reader{ro, rn} {
				for _, name := range r.govFiles {
					res, err := rd.resolve(path.Join(d, name))
					if err != nil {
						return err
					}
					into[r.id] = into[r.id] || cs.touchesAny(res.visited)
				}
			}
		}
	}
	return nil
}

// spawnViews is what the launch model analyses for a server of a client:
// for one that interpolates nothing (client.Interpolates: agentty, Codex)
// the one view as written, in its Cwd; for the others the raw view as
// written and, when interpolation changes it, the view after expansion in
// vars (configPath: the config's absolute path, for ${workspaceFolder}),
// with the variables it used and the directory the client spawns it in
// ("" for the launch directory).
func spawnViews(id client.ID, s *trust.Server, configPath string, vars client.Vars) (views []launch.Spawn, used []string, cwd, envFile string) {
	raw := spawnOf(s)
	c := client.Lookup(id)
	sp := client.SpawnFor(c, s, configPath, vars)
	if !client.Interpolates(c) {
		return []launch.Spawn{raw}, nil, sp.Cwd, ""
	}
	x := launch.Spawn{Command: sp.Command, Args: sp.Args}
	for _, e := range sp.Env {
		x.Env = append(x.Env, launch.Var{Name: e.Name, Value: e.Value})
	}
	if sameSpawn(raw, x) {
		return []launch.Spawn{raw}, nil, sp.Cwd, sp.EnvFile
	}
	return []launch.Spawn{raw, x}, sp.Vars, sp.Cwd, sp.EnvFile
}

// repoPath is p (absolute, or relative to the launch directory
// launchDir) as a clean repository path below root; false when it leads
// outside the repository.
func repoPath(p, launchDir, root string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.FromSlash(root), filepath.FromSlash(launchDir), p)
	}
	rel, err := filepath.Rel(filepath.FromSlash(root), filepath.Clean(p))
	if root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func sameSpawn(a, b launch.Spawn) bool {
	if a.Command != b.Command || len(a.Args) != len(b.Args) || len(a.Env) != len(b.Env) {
		return false
	}
	for i := range a.Args {
		if a.Args[i] != b.Args[i] {
			return false
		}
	}
	for i := range a.Env {
		if a.Env[i] != b.Env[i] {
			return false
		}
	}
	return true
}

// spawnDir is the repository directory a server is spawned in: the launch
// directory, or its cwd below the repository; false when the cwd leads
// outside it (or cannot be placed: top unknown).
func spawnDir(launchDir, cwd, top string) (string, bool) {
	if cwd == "" {
		return launchDir, true
	}
	rel := cwd
	if filepath.IsAbs(cwd) || path.IsAbs(cwd) {
		if top == "" {
			return launchDir, false
		}
		r, err := filepath.Rel(filepath.FromSlash(top), filepath.Clean(cwd))
		if err != nil {
			return launchDir, false
		}
		rel = filepath.ToSlash(r)
	} else {
		rel = path.Join(launchDir, filepath.ToSlash(cwd))
	}
	rel = path.Clean(rel)
	switch {
	case rel == ".":
		return "", true
	case rel == ".." || strings.HasPrefix(rel, "../"):
		return launchDir, false
	}
	return rel, true
}

// spawnInput is everything a server's analysis depends on besides its
// configuration's place and side: the views the launch model analyses,
// the variables they used, the cwd and envFile the client gives it.
type spawnInput struct {
	views        []launch.Spawn
	used         []string
	cwd, envFile string
}

func spawnInputOf(c *Config, s *trust.Server, opts launch.Options, vars client.Vars) spawnInput {
	configPath := c.Path
	if opts.Root != "" {
		configPath = filepath.Join(filepath.FromSlash(opts.Root), filepath.FromSlash(c.Path))
	}
	views, used, cwd, envFile := spawnViews(c.Client, s, configPath, vars)
	return spawnInput{views: views, used: used, cwd: cwd, envFile: envFile}
}

// key encodes every field of in, each length-prefixed, so that two inputs
// have the same key only when they are equal.
func (in spawnInput) key() string {
	var b strings.Builder
	field := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	list := func(ss []string) {
		field(strconv.Itoa(len(ss)))
		for _, s := range ss {
			field(s)
		}
	}
	list(in.used)
	field(in.cwd)
	field(in.envFile)
	field(strconv.Itoa(len(in.views)))
	for _, v := range in.views {
		field(v.Command)
		list(v.Args)
		field(strconv.Itoa(len(v.Env)))
		for _, e := range v.Env {
			field(e.Name)
			field(e.Value)
		}
		field(v.EnvFile)
		list(v.Trees)
		field(v.Remote)
	}
	return b.String()
}

// analyzeSpawn is a server's code scope (in: its spawnInput), spawned in its client's
// directory (a cwd honoured): for a server whose command line depends on
// variables, the union of what the raw and the expanded views run, plus
// one text item per variable binding its value here (so that another
// value re-gates the server) and a gap saying so.
func analyzeSpawn(c *Config, in spawnInput, src source, opts launch.Options, vars client.Vars) (*launch.Scope, error) {
	views, used, cwd, envFile := in.views, in.used, in.cwd, in.envFile
	from := c.LaunchDir
	if c.runDir != nil {
		from = path.Clean(*c.runDir)
		if from == "." {
			from = ""
		}
	}
	dir, placed := spawnDir(from, cwd, opts.Root)
	envRel, envIn := "", false
	if envFile != "" {
		// Its variables reach the server's environment (NODE_OPTIONS
		// included): the launch model reads them like the entry's env.
		envRel, envIn = repoPath(envFile, c.LaunchDir, opts.Root)
	}
	var scopes []*launch.Scope
	for _, v := range views {
		v.EnvFile = envRel
		sc, err := launch.Analyze(v, dir, src, opts)
		if err != nil {
			return nil, err
		}
		scopes = append(scopes, sc)
	}
	sc := scopes[0]
	if len(scopes) > 1 || !placed {
		sc = unionScopes(scopes...)
	}
	if !placed {
		sc.Gaps = append(sc.Gaps, launch.Gap{Source: "cwd",
			Why: "the server is spawned in " + cwd + ", outside the repository: what it runs there is not followed"})
	}
	if envFile != "" && !envIn {
		sc.Gaps = append(sc.Gaps, launch.Gap{Source: "envFile",
			Why: "envFile " + envFile + " lies outside the repository: the variables it sets are not followed"})
	}
	if len(used) == 0 {
		return sc, nil
	}
	title := client.Lookup(c.Client).Title()
	for _, name := range used {
		text := "unset"
		if v, ok := vars(name); ok {
			text = "=" + v
		}
		sc.Items = append(sc.Items, launch.Item{Kind: launch.KindText, Path: c.Path, Key: "${" + name + "}", Text: text,
			Source: "interpolation", Why: title + " expands ${" + name + "} before it spawns the server"})
	}
	sc.Gaps = append(sc.Gaps, launch.Gap{Source: "interpolation",
		Why: "the command line depends on " + varList(used) + ": bound as written and as expanded in mcp-guard's environment; another environment may run something else"})
	sortItems(sc.Items)
	return sc, nil
}

func varList(vs []string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "${" + v + "}"
	}
	return strings.Join(out, ", ")
}

// unionScopes is every item, inline code and gap of the scopes, one item
// per (kind, path, lang, key), the reason it runs winning.
func unionScopes(scopes ...*launch.Scope) *launch.Scope {
	out := &launch.Scope{}
	at := map[string]int{}
	gaps := map[launch.Gap]bool{}
	for _, sc := range scopes {
		for _, it := range sc.Items {
			key := it.Kind.String() + "\x00" + it.Path + "\x00" + it.Lang + "\x00" + it.Key
			if i, dup := at[key]; dup {
				if it.Runs && !out.Items[i].Runs {
					out.Items[i] = it
				}
				continue
			}
			at[key] = len(out.Items)
			out.Items = append(out.Items, it)
		}
		out.Inline = append(out.Inline, sc.Inline...)
		for _, g := range sc.Gaps {
			if !gaps[g] {
				gaps[g] = true
				out.Gaps = append(out.Gaps, g)
			}
		}
	}
	sortItems(out.Items)
	return out
}

// sortItems orders items as launch does: by path, kind, language, key.
func sortItems(items []launch.Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, c := items[i], items[j]
		if a.Path != c.Path {
			return a.Path < c.Path
		}
		if a.Kind != c.Kind {
			return a.Kind < c.Kind
		}
		if a.Lang != c.Lang {
			return a.Lang < c.Lang
		}
		return a.Key < c.Key
	})
}

// grades builds each client's approval state at both sides of a
// comparison, once per client and launch directory, reading the user's
// files (HOME) only when first asked.
type grades struct {
	ro, rn *reader
	env    client.Env
	home   *homeFiles
	states map[string][2]*client.State
	// govDirs hold, per client, a governing file (`.claude/settings*.json`)
	// at either side: the client launched there reads it too.
	govDirs map[client.ID][]string
}

func newGrades(ro, rn *reader, env client.Env, oldSurf, newSurf []gitscan.Surface) *grades {
	g := &grades{ro: ro, rn: rn, env: env, home: &homeFiles{data: map[string]homeFile{}},
		states: map[string][2]*client.State{}, govDirs: map[client.ID][]string{}}
	for _, s := range append(append([]gitscan.Surface(nil), oldSurf...), newSurf...) {
		for _, r := range clientRows() {
			for _, k := range r.governs {
				if r.below && s.Kind == k {
					g.govDirs[r.id] = append(g.govDirs[r.id], trust.LaunchDir(s.Path))
				}
			}
		}
	}
	for id, dirs := range g.govDirs {
		g.govDirs[id] = uniqueSorted(dirs)
	}
	return g
}

// top is the real path of the work tree, which keys the clients' project
// entries; "" when unknown (a bare repository).
func (g *grades) top() string {
	if len(g.rn.tops) == 0 {
		return ""
	}
	return filepath.FromSlash(g.rn.tops[len(g.rn.tops)-1])
}

// pair is client id's state at the old and the new side for launchDir.
func (g *grades) pair(id client.ID, launchDir string) [2]*client.State {
	key := string(id) + "\x00" + launchDir
	if st, ok := g.states[key]; ok {
		return st
	}
	top := g.top()
	dir := filepath.Join(top, filepath.FromSlash(launchDir))
	cl := client.Lookup(id)
	var st [2]*client.State
	for i := range st {
		st[i] = cl.State(dir, top, g.sideEnv(i))
	}
	g.states[key] = st
	return st
}

// sideEnv is the clients' environment at the old (0) or the new (1) side:
// repository files read at that side (stateFS).
func (g *grades) sideEnv(side int) client.Env {
	env := g.env
	env.FS = &stateFS{rd: []*reader{g.ro, g.rn}[side], sides: []*reader{g.ro, g.rn}, top: g.top(), home: g.home}
	return env
}

// grader is trust.Grader for one configuration of client id: the impact
// in the client's words, from its state at each side. A client that reads
// governing files below the config's directory (Claude Code) is graded in
// every such directory too, the most dangerous answer winning (the
// config's own directory on a tie).
func (g *grades) grader(id client.ID, launchDir string) trust.Grader {
	dirs := []string{launchDir}
	for _, d := range g.govDirs[id] {
		if d != launchDir && (launchDir == "" || strings.HasPrefix(d, launchDir+"/")) {
			dirs = append(dirs, d)
		}
	}
	r := rowOf(id)
	return func(c *trust.Change) (trust.Impact, []string) {
		var best trust.Impact
		var why []string
		for i, d := range dirs {
			st := g.pair(id, d)
			im, rs := clientImpact(r, g.abs(c.Path), c, st[0], st[1])
			if i > 0 && len(rs) > 0 {
				rs[0] = "launched in " + d + "/: " + rs[0]
			}
			if i == 0 || im.Rank() < best.Rank() {
				best, why = im, rs
			}
		}
		return best, why
	}
}

// abs is a repository path on this machine (as the clients name configs).
func (g *grades) abs(p string) string {
	if top := g.top(); top != "" {
		return filepath.Join(top, filepath.FromSlash(p))
	}
	return p
}

// clientImpact grades one change: "runs without asking" is the client's
// interactive session; a headless difference (`claude -p`) is in the
// reasons.
func clientImpact(r *clientRow, configPath string, c *trust.Change, oldSt, newSt *client.State) (trust.Impact, []string) {
	cl := client.Lookup(r.id)
	if c.New == nil {
		return trust.ImpactRemoved, []string{cl.Impact(newSt, c.Old, nil).Why}
	}
	now := cl.Impact(newSt, c.Old, c.New)
	if c.Old == nil {
		switch {
		case now.Interactive:
			return trust.ImpactNewPreapproved, []string{"added: " + now.Why}
		case now.Headless:
			return trust.ImpactNewUnapproved, []string{"added: " + now.Why}
		}
		return trust.ImpactUnchanged, []string{"added: " + now.Why}
	}
	before := cl.Impact(oldSt, c.Old, c.Old)
	if c.Change == trust.ChangeUnchanged {
		// Only the approval state moved (a governing file changed).
		why := cl.Gate(newSt, []client.Entry{{Name: c.New.Name, Path: configPath, Server: c.New}})[0].Why
		switch {
		case now.Interactive && !before.Interactive:
			return trust.ImpactNewPreapproved, []string{"unchanged, but now " + why}
		case before.Interactive && !now.Interactive:
			return trust.ImpactInvalidated, []string{why}
		case now.Headless && !before.Headless:
			return trust.ImpactNewUnapproved, []string{"no longer denied: " + why}
		case before.Headless && !now.Headless:
			return trust.ImpactRemoved, []string{why}
		}
		return trust.ImpactUnchanged, nil
	}
	reasons := []string{now.Why}
	for _, f := range c.Files {
		reasons = append(reasons, f.Path+" changed: "+r.files)
	}
	switch {
	case now.Interactive && before.Interactive:
		return trust.ImpactTrustPreserving, reasons
	case now.Interactive:
		return trust.ImpactNewPreapproved, reasons
	case before.Interactive:
		return trust.ImpactInvalidated, reasons
	case now.Headless:
		return trust.ImpactNewUnapproved, reasons
	case before.Headless:
		return trust.ImpactRemoved, reasons
	}
	return trust.ImpactUnchanged, reasons
}

// settingsFindings are MG701-MG718 for the clients' files and CI
// workflows a comparison added or changed, read at the new side through
// symlinks inside the repository.
func settingsFindings(rn *reader, s gitscan.Surface) ([]trust.Finding, error) {
	if !policy.ClientContent(s.Kind) {
		return nil, nil
	}
	f := policy.File{Path: s.Path, Kind: s.Kind, Symlink: s.Mode == gitscan.ModeSymlink}
	res, err := rn.resolve(s.Path)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", s.Path, rn.side, err)
	}
	switch {
	case res.outside:
		f.Err = policy.ErrOutside
	case !res.entry.Mode.IsFile():
		return nil, nil
	default:
		data, _, err := rn.repo.ReadBlob(rn.side, res.entry.Path, trust.MaxFileSize)
		switch {
		case errors.Is(err, gitscan.ErrTooLarge):
			f.Err = err
		case errors.Is(err, gitscan.ErrNotRegular), errors.Is(err, gitscan.ErrNotFound):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("read %s at %s: %w", res.entry.Path, rn.side, err)
		}
		f.Data = data
	}
	return policy.CheckContent(f, policy.Options{}), nil
}

// stateFS is client.FS for a client's state at one side: a file in the
// work tree is read at the side (through symlinks inside the repository),
// and from disk when the side does not hold it (the user's untracked, often
// gitignored, `.claude/settings.local.json`, where Claude Code writes its
// approvals) and neither side of the comparison does; every other file
// (HOME) from disk, once per comparison.
type stateFS struct {
	rd    *reader
	sides []*reader // both sides of the comparison
	top   string
	home  *homeFiles
}

type homeFiles struct{ data map[string]homeFile }

type homeFile struct {
	data []byte
	err  error
}

func (f *stateFS) rel(p string) (string, bool) {
	if f.top == "" {
		return "", false
	}
	r, err := filepath.Rel(f.top, p)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (f *stateFS) ReadFile(p string) ([]byte, error) {
	if !filepath.IsAbs(p) {
		return nil, fs.ErrNotExist // no HOME: no user state
	}
	if r, ok := f.rel(p); ok {
		res, err := f.rd.resolve(r)
		switch {
		case err != nil:
			return nil, err
		case res.outside:
			return nil, ErrLinkOutside
		case res.entry.Mode != 0 && !res.entry.Mode.IsFile():
			return nil, notAFile(res.entry.Mode)
		case res.entry.Mode != 0:
			data, _, err := f.rd.repo.ReadBlob(f.rd.side, res.entry.Path, trust.MaxFileSize)
			if errors.Is(err, gitscan.ErrNotFound) {
				return nil, fs.ErrNotExist
			}
			return data, err
		}
		// Absent at a commit or the index: the work tree's file counts
		// only when neither side of the comparison holds it (the user's
		// own, untracked); one that a side holds is the repository's, and
		// this side has none. In the work tree, the disk decides.
		if f.rd.side != gitscan.WorkTree {
			if _, err := os.Lstat(p); err != nil {
				return nil, fs.ErrNotExist
			}
			for _, rd := range f.sides {
				if rd.side == gitscan.WorkTree {
					continue // holding it there says nothing of tracking
				}
				if res, err := rd.resolve(r); err != nil || res.outside || res.entry.Mode != 0 {
					return nil, fs.ErrNotExist
				}
			}
		}
	}
	if h, ok := f.home.data[p]; ok {
		return h.data, h.err
	}
	data, err := trust.ReadFile(p)
	f.home.data[p] = homeFile{data, err}
	return data, err
}

// Stat and Lstat answer at the side for a path the side holds (or, like
// ReadFile, does not hold), from disk otherwise: the clients ask whether
// a config is there (Codex's layers, VS Code's workspace files).
func (f *stateFS) Stat(p string) (fs.FileInfo, error) {
	if fi, ok, err := f.sideStat(p); ok {
		return fi, err
	}
	return os.Stat(p)
}

func (f *stateFS) Lstat(p string) (fs.FileInfo, error) {
	if fi, ok, err := f.sideStat(p); ok {
		return fi, err
	}
	return os.Lstat(p)
}

func (f *stateFS) sideStat(p string) (fs.FileInfo, bool, error) {
	r, ok := f.rel(p)
	if !ok || !filepath.IsAbs(p) {
		return nil, false, nil
	}
	res, err := f.rd.resolve(r)
	switch {
	case err != nil || res.outside:
		return nil, false, nil
	case res.entry.Mode == 0:
		if f.rd.side == gitscan.WorkTree {
			return nil, false, nil
		}
		if _, err := f.ReadFile(p); errors.Is(err, fs.ErrNotExist) {
			return nil, true, fs.ErrNotExist
		}
		return nil, false, nil
	}
	return sideInfo{name: path.Base(r), mode: res.entry.Mode}, true, nil
}

// sideInfo is what a side holds at a path, as fs.FileInfo.
type sideInfo struct {
	name string
	mode gitscan.Mode
}

func (i sideInfo) Name() string { return i.name }
func (i sideInfo) Size() int64  { return 0 }
func (i sideInfo) Mode() fs.FileMode {
	if i.mode == gitscan.ModeTree {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i sideInfo) ModTime() time.Time { return time.Time{} }
func (i sideInfo) IsDir() bool        { return i.mode == gitscan.ModeTree }
func (i sideInfo) Sys() any           { return nil }

// EvalSymlinks keeps a path in the work tree as it is (the side, not the
// disk, decides what is there); others are resolved on disk.
func (f *stateFS) EvalSymlinks(p string) (string, error) {
	if _, ok := f.rel(p); ok || p == f.top {
		return p, nil
	}
	return filepath.EvalSymlinks(p)
}
