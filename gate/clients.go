package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// ClientView is one agent found in the launch directory (package
// client's answer; agentty's through trust's reproduction of its rules),
// with mcp-guard's review state of each server it loads.
type ClientView struct {
	Client client.ID
	// Title names the agent in sentences; Command is what `mcp-guard
	// launch --` starts it with ("" for an editor); Headless its run that
	// starts servers without asking where a session would ask ("claude
	// -p"; "" when none): the registry's words, handed to report.
	Title, Command, Headless string
	// Pending is what status's "—" mark means for it when its own words
	// say more than "asks first, `Headless` runs it" (client.PendingWords).
	Pending string
	// HandsNothing: launch hands it nothing and starts it only once all it
	// runs is reviewed (Cline, Continue); otherwise it hands over only the
	// reviewed servers.
	HandsNothing bool
	// Ungated: mcp-guard holds no gate over the configuration here: one
	// the user keeps (agentty's own, an explicit file), or one status read
	// as the agent reads it because the gate could not be evaluated
	// (Inspect). Only status shows it (View.Shown).
	Ungated bool
	// Inspection is the client's reading of its configuration the way
	// it reads it (scope, the whole file's hash, its grants, each server's
	// verdict), for a client whose rules trust reproduces (agentty); nil
	// for every other client. Its verdicts are Servers' in order.
	Inspection *trust.Inspection
	// Store is the approvals store of the client's own that mcp-guard
	// writes (client.StoreKeeper: agentty's), "" for every other client.
	Store string
	Eval  client.ClientEvaluation
	// Servers are the winning entry of each name, sorted by name.
	Servers []ClientServer
	// Closed says why the gate stays closed for this client whatever was
	// reviewed (its state or a config mcp-guard cannot read); nil when
	// nothing does.
	Closed []string
	// Notes are what the agent's own state says that the user should
	// know and that does not close the gate (agentty's store that
	// approves nothing, where its configuration was found).
	Notes []string
	// Repo is the identity of the repository around the launch directory
	// ("dir:…" outside git), Top its work tree ("" outside git), Head HEAD.
	Repo, Top, Head string
}

// ClientServer is one server of a client as the gate sees it.
type ClientServer struct {
	// ServerVerdict is the client's own verdict: Interactive, Headless,
	// Why, Source, RepoSide.
	client.ServerVerdict
	// Config is the config's path relative to the repository's top
	// (slash-separated), or its absolute path when it lies outside the
	// repository (Claude Code walks above the git root).
	Config string
	// Key is the ledger key (Client set); Deep the current deep
	// fingerprint, "" when mcp-guard could not compute it (NoDeep says why).
	Key    trust.ReviewKey
	Deep   string
	NoDeep string
	// Agentty is agentty's own verdict for one of its servers (nil for
	// every other client): its approvals store is the one client store
	// mcp-guard writes, and Decide writes it for these.
	Agentty *trust.GateVerdict
	// Waits is why it waits for review (or would, declined) and what the
	// agent does meanwhile, in the words of a client that says more than
	// the gate's reason (agentty's); "" for the others.
	Waits string
	// Outside: the config lies outside the git work tree (above its top,
	// or no git at all), where mcp-guard does not fingerprint what a
	// server runs: it cannot be reviewed, a launch that hands the client
	// the vetted file leaves it out, and any other launch is blocked.
	Outside bool
	// Files and Scope are what it runs from the repository.
	Files []trust.FileID
	Scope *launch.Scope
	// State and Last: mcp-guard's review state, as for agentty.
	State       trust.ReviewState
	Last        *trust.Review
	RenamedFrom string
	// Runs: the client would run it, or ask to (not denied, something to
	// start or connect).
	Runs bool
	// Blocks: not reviewed at its current deep fingerprint while the
	// client would run it; Why says why (the client's own reason is
	// ServerVerdict.Why). A declined server does not block
	// a launch that hands the client the vetted file (it is left out);
	// Blocking(false) counts it.
	Blocks bool
	Why    trust.GateReason
	// In is set when another entry of the same agent in another file has
	// this name (two subagents' "hooks.Stop[0].hooks[0]", a hook in
	// settings.json and in settings.local.json): the config's path, which
	// Label appends ("claude-code:env@.claude/settings.local.json") so
	// that every name approve takes names one entry.
	In string
}

// Since is what changed in cs since the version last reviewed (its
// baseline: the last approved version, else the last decision): fields
// and the items of its code scope, read in its client's dialect (nil:
// agentty's, trust.Parse). nil when it was never reviewed.
func (cv *ClientView) Since(cs ClientServer) *trust.Change {
	base := cs.Last.Baseline()
	if base == nil || cs.Server == nil {
		return nil
	}
	d := client.Dialect(cv.Client)
	serversKey := "mcpServers"
	if d != nil {
		serversKey = d.ServersKey
	}
	name, _ := json.Marshal(cs.Name)
	key, _ := json.Marshal(serversKey)
	wrap := func(entry string) *trust.Config {
		return trust.ParseDialect(cs.Config, []byte(`{`+string(key)+`:{`+string(name)+`:`+entry+`}}`), trust.ScopeProject, d)
	}
	old := trust.Files{cs.Name: base.FileIDs()}
	cur := trust.Files{cs.Name: cs.Files}
	changes := trust.Diff(wrap(base.Entry), wrap(cs.Server.Canonical()), old, cur, trust.Grants{})
	project.MarkWithin(changes, old, cur)
	for _, c := range changes {
		if c.Server == cs.Name {
			return &c
		}
	}
	return &trust.Change{Server: cs.Name}
}

// name sets the agent's words from the registry.
func (cv *ClientView) name() {
	if c := client.Lookup(cv.Client); c != nil {
		cv.Title, cv.Command, cv.Headless = c.Title(), c.Command(), c.Headless()
		cv.Pending = client.PendingWords(c)
		cv.HandsNothing = c.Handover() == client.HandNothing
	}
}

// Label is how messages name the server: "claude-code:db", "agentty:db"
// (what review --approve takes, whatever else is here).
func (s ClientServer) Label() string {
	return string(s.ClientID()) + ":" + s.Unique()
}

// Unique is the name that names s alone among its agent's entries: its
// name, and "@" and its config's path when another file of the agent
// has an entry of that name (In).
func (s ClientServer) Unique() string {
	if s.In != "" {
		return s.Name + "@" + s.In
	}
	return s.Name
}

// qualify sets In on every entry of cv whose name another of its
// configs also has, so that each one's Label names it alone.
func (cv *ClientView) qualify() {
	// Each name's first config, and the names seen in a second one: a
	// set of configs per name was a map per server (100,000 of them).
	first := make(map[string]string, len(cv.Servers))
	shared := map[string]bool{}
	for _, cs := range cv.Servers {
		if c, ok := first[cs.Name]; !ok {
			first[cs.Name] = cs.Config
		} else if c != cs.Config {
			shared[cs.Name] = true
		}
	}
	if len(shared) == 0 {
		return
	}
	for i := range cv.Servers {
		if cs := &cv.Servers[i]; shared[cs.Name] {
			cs.In = cs.Config
		}
	}
}

// ClientID is the agent s is a server of (its ledger key's client).
func (s ClientServer) ClientID() client.ID { return client.OfKey(s.Key.Client) }

// TurnOff is how the user keeps s from running, in its agent's words
// (client.TurnOff).
func (s ClientServer) TurnOff() string {
	kind := ""
	if s.Server != nil {
		kind = s.Server.Kind
	}
	if c := client.Lookup(s.ClientID()); c != nil {
		return client.TurnOff(c, kind, s.Config)
	}
	return "remove it from " + s.Config
}

// clientEnv is the environment package client evaluates in.
func clientEnv(env Env) client.Env {
	ce := client.Env{Getenv: env.Getenv, Starting: env.Starting}
	if env.Environ != nil {
		vars := map[string]string{}
		for _, kv := range env.Environ {
			if k, v, ok := strings.Cut(kv, "="); ok {
				vars[k] = v
			}
		}
		ce.LookupEnv = func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	return ce
}

// evaluateClients evaluates every client found in dir but the one that
// keeps a store mcp-guard writes (client.StoreKeeper: agentty, whose view
// is the View's own, from trust.Inspect).
func (v *View) evaluateClients(ctx context.Context, e *evaluation) error {
	env := e.env
	var others []client.ID
	for _, c := range client.All() {
		if _, keeps := c.(client.StoreKeeper); !keeps {
			others = append(others, c.ID())
		}
	}
	cenv := clientEnv(env)
	cenv.Shared = e.shared
	ev, err := client.EvaluateOnly(v.Dir, cenv, others...)
	if err != nil {
		return fail("", err)
	}
	found := ev.Clients
	if len(found) == 0 {
		return nil
	}
	repo, loc, err := openRepo(e, ev.GitTop, ev.LaunchDir)
	if err != nil {
		return err
	}
	launchReal := ev.LaunchDir
	if r, err := filepath.EvalSymlinks(launchReal); err == nil {
		launchReal = r
	}
	for _, ce := range found {
		cv := &ClientView{Client: ce.Client, Eval: ce, Repo: loc.repo, Top: loc.top, Head: loc.head}
		cv.name()
		if ce.Err != nil {
			cv.Closed = append(cv.Closed, fmt.Sprintf("%s's state cannot be read: %v", cv.Title, ce.Err))
		}
		cv.Closed = append(cv.Closed, ce.Unknown...)
		for i, cfg := range ce.Files {
			switch {
			case cfg.Err == nil, cfg.Unreadable():
			case errors.Is(cfg.Err, trust.ErrNotRegular):
				cv.Closed = append(cv.Closed, fmt.Sprintf("%s; mcp-guard cannot tell what %s would run from it", trust.InvalidText(ce.Configs[i], cfg.Err), cv.Title))
			default:
				cv.Closed = append(cv.Closed, fmt.Sprintf("%s: does not parse the way %s reads it (%v); mcp-guard cannot tell what it would run from it", ce.Configs[i], cv.Title, cfg.Err))
			}
		}
		loaded := map[string]*project.Config{}
		noDeep := map[string]string{}
		for _, p := range ce.Configs {
			loaded[p], noDeep[p] = loc.load(ctx, repo, p, launchReal)
		}
		for _, sv := range ce.Servers {
			if loc.usersOwn(sv, noDeep[sv.Path]) {
				continue
			}
			cv.Servers = append(cv.Servers, v.clientServer(cv, sv, loc, repo != nil, loaded[sv.Path], noDeep[sv.Path]))
		}
		v.Clients = append(v.Clients, cv)
	}
	return nil
}

// clientServer is the gate's view of one of cv's servers: its ledger key,
// deep fingerprint (from pc, the config read with fingerprints, unless
// noDeep says why not), review state and whether it blocks a launch.
// inGit says whether a repository is open around the launch directory.
// The deep fingerprint is of what the server runs when the client is
// started here: a server whose code does not depend on the directory (an
// absolute command, a pinned package) has the one it has at the
// config's own directory, and one that does is reviewed from where it
// runs.
func (v *View) clientServer(cv *ClientView, sv client.ServerVerdict, loc location, inGit bool, pc *project.Config, noDeep string) ClientServer {
	cs := ClientServer{ServerVerdict: sv, NoDeep: noDeep}
	cs.Config, cs.Key = loc.key(cv.Client, sv.Path, sv.Name)
	_, inside := loc.inside(sv.Path)
	cs.Outside = !inside || !inGit
	if pc != nil && sv.Server != nil {
		for _, ps := range pc.Servers {
			// Both reads must agree on the entry, or nothing is reviewed.
			if ps.Name == sv.Name && ps.Canonical() == sv.Server.Canonical() {
				cs.Deep, cs.Files, cs.Scope = ps.Deep, ps.Files, ps.Scope
			}
		}
		if cs.Deep == "" && cs.NoDeep == "" {
			cs.NoDeep = "mcp-guard's two reads of the entry disagree"
		}
	}
	if cs.NoDeep != "" {
		cs.Deep, cs.Files, cs.Scope = "", nil, nil
	}
	cs.State, cs.Last = v.Ledger.State(cs.Key, cs.Deep)
	if cs.State == trust.StateUnreviewed && cs.Last == nil {
		if r := v.Ledger.Renamed(cs.Key, cs.Deep); r != nil {
			cs.State, cs.RenamedFrom = trust.StateReviewed, r.Server
		}
	}
	s := sv.Server
	cs.Runs = s != nil && (sv.Interactive || sv.Headless) && (s.Command != "" || s.URL != "")
	switch {
	case !cs.Runs, cs.State == trust.StateReviewed:
	case cs.Outside:
		cs.Why = trust.GateNew // blocks only without the vetted file
	case cs.State == trust.StateDeclined:
		cs.Why = trust.GateDeclinedRuns // blocks only without the vetted file
	case cs.Last != nil:
		cs.Blocks, cs.Why = true, trust.GateChanged
	case sv.Interactive:
		cs.Blocks, cs.Why = true, trust.GateApprovedUnreviewed
	default:
		cs.Blocks, cs.Why = true, trust.GateNew
	}
	return cs
}

// location is the repository around a launch directory, for ledger keys.
type location struct {
	repo, top, head string
	env             Env
	// cache is project's cache for the open repository (see evaluation).
	cache *project.Cache
}

// openRepo opens the repository at gitTop ("" outside git: the launch
// directory stands for it).
func openRepo(e *evaluation, gitTop, dir string) (*gitscan.Repo, location, error) {
	loc := location{env: e.env}
	if gitTop == "" {
		loc.repo = trust.RepoIdentity(nil, dir)
		return nil, loc, nil
	}
	repo, cache, err := e.open(gitTop)
	if errors.Is(err, gitscan.ErrNotRepository) {
		loc.repo = trust.RepoIdentity(nil, gitTop)
		return nil, loc, nil
	}
	if err != nil {
		return nil, loc, fail("", err)
	}
	loc.top, loc.cache = repo.TopLevel(), cache
	roots, err := repo.Identity()
	if err != nil {
		return nil, loc, fail("", fmt.Errorf("%s: reading the repository's identity: %v", loc.top, err))
	}
	loc.repo = trust.RepoIdentity(roots, loc.top)
	if head, err := repo.Resolve("HEAD"); err == nil {
		loc.head = head.Commit()
	}
	return repo, loc, nil
}

// inside is p relative to the work tree, slash-separated, when it is in it.
func (l location) inside(p string) (string, bool) {
	if l.top == "" {
		return "", false
	}
	rel, err := filepath.Rel(l.top, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// key is a server's config path for output and its ledger key. A config
// outside the repository (above its top, or no git at all) is keyed as
// a plain directory, as agentty's non-git case is.
func (l location) key(id client.ID, cfgPath, name string) (string, trust.ReviewKey) {
	if rel, ok := l.inside(cfgPath); ok {
		return rel, trust.ReviewKey{Repo: l.repo, Client: string(id), Config: rel, Server: name}
	}
	dir := filepath.Dir(cfgPath)
	return cfgPath, trust.ReviewKey{Repo: trust.RepoIdentity(nil, dir), Client: string(id), Config: path.Base(filepath.ToSlash(cfgPath)), Server: name}
}

// notSeen is why a file git does not see has no deep fingerprint.
const notSeen = "git does not see the file (ignored?): mcp-guard fingerprints only what git sees"

// usersOwn reports whether sv is an entry of a file the user keeps for
// themselves (a gitignored `.claude/settings.local.json`, where the
// client writes its own state): the repository did not place it.
func (l location) usersOwn(sv client.ServerVerdict, noDeep string) bool {
	if sv.Server == nil || sv.Server.Kind == "" || noDeep != notSeen {
		return false
	}
	rel, ok := l.inside(sv.Path)
	if !ok {
		return false
	}
	k, ok := surface.Of(rel)
	return ok && k.Spec().SharedOnly
}

// load reads the config at p with deep fingerprints of what its servers
// run when the client is started in launchReal, or says why it cannot:
// then nothing in it counts as reviewed.
func (l location) load(ctx context.Context, repo *gitscan.Repo, p, launchReal string) (*project.Config, string) {
	rel, ok := l.inside(p)
	if !ok || repo == nil {
		return nil, "mcp-guard fingerprints what a server runs only inside a git work tree; this file is outside it"
	}
	run, ok := l.inside(launchReal)
	if !ok {
		return nil, "mcp-guard fingerprints what a server runs only inside a git work tree; the launch directory is outside it"
	}
	pc, err := project.LoadConfig(ctx, repo, gitscan.WorkTree, rel, project.Options{Env: clientEnv(l.env), RunDir: &run, Cache: l.cache})
	switch {
	case err != nil:
		return nil, err.Error()
	case pc == nil:
		return nil, notSeen
	case errors.Is(pc.Config.Err, project.ErrLinkOutside):
		// The agent read servers from it, so the link leads somewhere:
		// out of the repository, where a review could not bind it.
		return nil, rel + " is reached through a symlink leading out of the repository: mcp-guard does not follow it, the agent does; " +
			"to review its entries, put the file itself in the repository in place of the link"
	}
	return pc, ""
}

// Blocking are the client's servers that keep a launch from starting;
// vetted is true when the launch hands the client the vetted file (then
// a declined server, or one outside the work tree, left out of it, does
// not block).
//
// An entry that is not a server (a hook, a helper) is left out likewise
// when the client's handover carries entries (client.HandsEntry);
// otherwise no handover keeps it from running: declined or outside, it
// blocks every launch.
//
// When every server blocks (a configuration nobody reviewed yet), the
// list is the view's own, capped so that appending to it copies: a
// ClientServer is large, and a copy of 100,000 of them was a sixth of
// review --all's peak. Callers read it and never modify it.
func (cv *ClientView) Blocking(vetted bool) []ClientServer {
	blocks := func(s *ClientServer) bool { return s.BlocksLaunch(vetted) }
	// Counted first: a ClientServer is large, and a configuration may
	// hold 100,000 servers, all waiting for review.
	n := 0
	for i := range cv.Servers {
		if blocks(&cv.Servers[i]) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if n == len(cv.Servers) {
		return cv.Servers[:n:n]
	}
	out := make([]ClientServer, 0, n)
	for i := range cv.Servers {
		if blocks(&cv.Servers[i]) {
			out = append(out, cv.Servers[i])
		}
	}
	return out
}

// reviewed reports whether a launch lets the client run s: reviewed at
// its current version, inside the work tree.
func (s ClientServer) reviewed() bool {
	return s.State == trust.StateReviewed && !s.Outside && s.Server != nil
}

// BlocksLaunch reports whether s keeps a launch from starting (the rule
// of Blocking, vetted as there): it waits for review, or its agent runs
// it on its own while it is declined or outside the work tree and the
// launch cannot leave it out.
func (s ClientServer) BlocksLaunch(vetted bool) bool {
	return s.Blocks || (!s.LeftOut(vetted) && s.Runs && (s.Why == trust.GateDeclinedRuns || s.Outside))
}

// LeftOut: the launch (handing over the vetted set, when vetted) leaves
// s out of what it hands its agent.
func (s ClientServer) LeftOut(vetted bool) bool { return vetted && s.LaunchLeavesOut() }

// LaunchLeavesOut: `mcp-guard launch` can hand its client a set without
// s (a server, or an entry the client's handover carries), so a declined
// s does not keep the launch from starting.
func (s ClientServer) LaunchLeavesOut() bool {
	return s.IsServer() || client.HandsEntry(s.ClientID(), s.Path, s.Server)
}

// LaunchWithholds: the agent `mcp-guard launch` starts runs nothing of
// a declined s, since launch hands it a set without s; false for an
// editor's entry (launch starts no editor) and for an entry the agent
// runs whatever it is handed, which it then runs on its own.
func (s ClientServer) LaunchWithholds() bool {
	c := client.Lookup(s.ClientID())
	return s.LaunchLeavesOut() && c != nil && c.Handover() != client.HandNothing
}

// IsServer reports whether s is an MCP server, what a handover carries;
// false for every other entry a client runs (a hook, a helper).
func (s ClientServer) IsServer() bool { return s.Server == nil || s.Server.Kind == "" }

// Kind is what s is, in its client's words: "server", "hook", ….
func (s ClientServer) Kind() string {
	if s.IsServer() {
		return "server"
	}
	return s.Server.Kind
}

// AllowedNames is what `mcp-guard launch -- gemini|qwen` passes to
// --allowed-mcp-server-names (client.AllowArgv): the project servers
// reviewed at their current version that the client would run, then the
// user's own servers its settings let run, unless a project server of
// the same name (which wins in the client) is not reviewed. Names the
// flag cannot carry are left out. Nothing allowed: a name no server has
// (Gemini CLI refuses an empty value, observed on 0.61.0).
func (cv *ClientView) AllowedNames() []string {
	project, own := cv.allowNames()
	out := append(project, own...)
	if len(out) == 0 {
		known := map[string]bool{}
		for _, s := range cv.Servers {
			known[s.Name] = true
		}
		_, all := cv.Eval.State.AllowOwn()
		for _, n := range all {
			known[n] = true
		}
		none := "mcp-guard-none"
		for known[none] {
			none += "-"
		}
		out = []string{none}
	}
	return out
}

// allowNames are the reviewed project servers the client may run and the
// user's own it may run (AllowedNames).
func (cv *ClientView) allowNames() (project, own []string) {
	inProject := map[string]bool{}
	for _, s := range cv.Servers {
		if !s.IsServer() {
			continue
		}
		inProject[s.Name] = true
		if s.reviewed() && s.Runs && client.AllowPassable(cv.Client, s.Name) {
			project = append(project, s.Name)
		}
	}
	runs, _ := cv.Eval.State.AllowOwn()
	for _, n := range runs {
		if !inProject[n] && client.AllowPassable(cv.Client, n) {
			own = append(own, n)
		}
	}
	return project, own
}

// CodexOff are the project servers `mcp-guard launch -- codex` disables
// (client.CodexArgv): every one not reviewed at its current version
// (unreviewed, changed, declined, outside the work tree).
func (cv *ClientView) CodexOff() []string {
	var out []string
	for _, s := range cv.Servers {
		if s.IsServer() && !s.reviewed() {
			out = append(out, s.Name)
		}
	}
	return out
}

// UnreviewedEntries are the client's entries other than servers (hooks,
// helpers) not reviewed at their current version, whether or not the
// client runs them now: what a run that bypasses the client's own review
// of them would start (client.DisableLaunch).
func (cv *ClientView) UnreviewedEntries() []string {
	var out []string
	for _, s := range cv.Servers {
		if !s.IsServer() && !s.reviewed() {
			out = append(out, s.Name)
		}
	}
	return out
}

// Handoff is what a launch that hands the client a name list tells the
// user: the reviewed project servers it runs, the user's own, and the
// ones left out (with an allow-list also those whose name the flag
// cannot carry).
func (cv *ClientView) Handoff() *Snapshot {
	snap := &Snapshot{}
	allow := client.Lookup(cv.Client).Handover() == client.HandAllowNames
	for _, s := range cv.Servers {
		if !s.IsServer() {
			continue
		}
		if s.reviewed() && s.Runs && (!allow || client.AllowPassable(cv.Client, s.Name)) {
			snap.Servers = append(snap.Servers, s.Name)
		} else {
			snap.Left = append(snap.Left, s.Name)
		}
	}
	if allow {
		_, snap.Own = cv.allowNames()
	} else {
		snap.OwnAll = true
	}
	return snap
}
