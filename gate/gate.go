// Package gate is where mcp-guard decides what may run when an agent
// starts in a launch directory, and where the user's decisions are
// recorded.
//
// Evaluate reads every agent's view (package client's answer; agentty's
// through trust's reproduction of its rules, on the one read of its
// configuration), what each server runs (project and the launch model:
// deep fingerprints over the work tree) and the user's review ledger, and
// says per agent and server whether it waits for review and why (View.All).
// Decide writes one decision (approve, decline) for servers of any agent
// to the ledger, and to the store of the client that keeps one mcp-guard
// writes (agentty's), having validated all of it first, in the order that
// fails safe. The handovers (Snapshot, Vetted, AllowedNames, …) are what
// `mcp-guard launch` hands each agent: exactly the reviewed servers. The
// CLI only parses, calls and renders; the package never prints and never
// exits.
package gate

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Env is the user's side of the evaluation: the environment mcp-guard
// runs with (HOME, AGENTTY_*, MCP_GUARD_HOME, git's variables).
type Env struct {
	Getenv  trust.Getenv
	Environ []string
	// Starting is the agent launch is starting ("" for check, status and
	// the rest): see client.Env.Starting.
	Starting client.ID
}

// View is the gate evaluated for one launch directory.
type View struct {
	// Dir is the launch directory; In agentty's view of it.
	Dir string
	In  *trust.Inspection
	// Verdicts has one entry per server of the configuration, in order.
	Verdicts []trust.GateVerdict
	// Ledger is the user's review ledger, in LedgerDir.
	Ledger    *trust.Ledger
	LedgerDir string
	// Repo is the repository identity, Top its work tree ("" outside git),
	// Config the configuration's key (path relative to Top), Head HEAD.
	Repo, Top, Config, Head string
	// Servers are the configuration's servers with their code scopes and
	// deep fingerprints, by name.
	Servers map[string]project.Server
	// Clients are the other clients found in Dir (Claude Code's
	// .mcp.json walk-up), each with its own review state; All puts
	// agentty's view in front of them.
	Clients []*ClientView
	agentty *ClientView
	// own is agentty's view of a configuration the user keeps (their
	// own, an explicit file), which the gate never counts (Shown).
	own *ClientView
}

// Refusal is a request the gate understood and refused (the CLI's exit
// status 1); Hint names what resolves it.
type Refusal struct {
	Msg, Hint string
}

func (r *Refusal) Error() string { return r.Msg }

func refuse(hint, format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// Failure is a request the gate could not carry out (I/O, a store or
// ledger it cannot use; the CLI's exit status 2).
type Failure struct {
	Err  error
	Hint string
}

func (f *Failure) Error() string { return f.Err.Error() }
func (f *Failure) Unwrap() error { return f.Err }

func fail(hint string, err error) error { return &Failure{Err: err, Hint: hint} }

// Evaluate works out which servers of the configuration agentty would
// read in dir wait for review.
//
// agentty's project configuration is read once: the read that computes
// the deep fingerprints (project, over the work tree) is the one whose
// servers agentty's verdicts are evaluated on (trust.Inspected), so a
// deep fingerprint only ever binds the very entry agentty's view holds.
// Where that read cannot stand for what agentty reads (it does not parse
// as valid: a symlink out of the repository, a file git rewrites on
// checkout, a file it cannot read), agentty's view is read from disk as
// agentty reads it, and nothing in it has a deep fingerprint: nothing is
// reviewed, the gate stays closed.
func Evaluate(ctx context.Context, dir string, env Env) (*View, error) {
	loc, err := trust.Discover(dir, env.Getenv)
	if err != nil {
		return nil, fail("", err)
	}
	v := &View{Dir: dir, Servers: map[string]project.Server{}}
	v.LedgerDir, err = trust.LedgerDir(env.Getenv)
	if err != nil {
		v.Ledger = &trust.Ledger{Err: err}
	} else {
		v.Ledger = trust.LoadLedger(v.LedgerDir)
	}
	ev := &evaluation{env: env}
	defer ev.close()
	var cfg *trust.Config
	if loc.Scope == trust.ScopeProject {
		if cfg, err = v.loadProject(ctx, ev, loc); err != nil {
			return nil, err
		}
	} else if loc.Scope != trust.ScopeNone {
		cfg = trust.Read(dir, loc)
	}
	in := trust.Inspected(dir, loc, cfg, env.Getenv)
	v.In = in
	g := trust.Gate{Ledger: v.Ledger, Repo: v.Repo, Config: v.Config}
	v.Verdicts = g.Evaluate(in.Verdicts, func(s *trust.Server) string {
		// The deep fingerprint of this very entry (one read), or
		// nothing is reviewed.
		if ps, ok := v.Servers[s.Name]; ok && ps.Server == s {
			return ps.Deep
		}
		return ""
	})
	if err := v.evaluateClients(ctx, ev); err != nil {
		return nil, err
	}
	if cv := v.agenttyView(); cv != nil && cv.Ungated {
		v.own = cv
	} else {
		v.agentty = cv
	}
	for _, cv := range v.All() {
		cv.qualify()
	}
	return v, nil
}

// loadProject reads agentty's project configuration at loc once, with
// deep fingerprints, finding the repository around the launch directory,
// its identity and HEAD (outside git the directory stands for the
// repository), and returns it as agentty's view names it. A read that
// does not parse as valid is replaced by agentty's own read from disk,
// without deep fingerprints (see Evaluate); an invalid configuration
// loads nothing else, as agentty runs nothing from it.
func (v *View) loadProject(ctx context.Context, ev *evaluation, loc trust.Location) (*trust.Config, error) {
	pc, err := v.readProject(ctx, ev)
	if err == nil && pc != nil && pc.Config.Valid() {
		for _, s := range pc.Servers {
			v.Servers[s.Name] = s
		}
		return shownAs(pc.Config, loc.Shown(v.Dir)), nil
	}
	cfg := trust.Read(v.Dir, loc)
	switch {
	case !cfg.Valid():
		// As agentty runs nothing from it, nothing of the repository is
		// loaded for it.
		v.Repo, v.Top, v.Config, v.Head = "", "", "", ""
	case errors.As(err, new(*Failure)):
		return nil, err // the repository around it cannot be read
	case err != nil:
		return nil, fail("nothing counts as reviewed until mcp-guard can read it", fmt.Errorf("%s: %v", cfg.Path, err))
	}
	return cfg, nil
}

// shownAs is cfg, read from the repository, with the path messages name
// it by (its findings' too); its servers are cfg's own.
func shownAs(cfg *trust.Config, shown string) *trust.Config {
	if cfg.Path == shown {
		return cfg
	}
	c := *cfg
	c.Path = shown
	c.Findings = make([]trust.Finding, len(cfg.Findings))
	for i, f := range cfg.Findings {
		if f.Path == cfg.Path {
			f.Path = shown
		}
		c.Findings[i] = f
	}
	return &c
}

// readProject reads .agentty/mcp.json of the launch directory from the
// repository's work tree (or from disk outside git, or when git does not
// see it) with the deep fingerprints of its servers; nil when there is
// none there. A Failure is the repository's, not the file's.
func (v *View) readProject(ctx context.Context, ev *evaluation) (*project.Config, error) {
	real, err := filepath.EvalSymlinks(v.Dir)
	if err != nil {
		real = v.Dir
	}
	repo, cache, err := ev.open(real)
	switch {
	case errors.Is(err, gitscan.ErrNotRepository):
		v.Repo, v.Config = trust.RepoIdentity(nil, real), ".agentty/mcp.json"
		return project.LoadDir(ctx, real, project.Options{})
	case err != nil:
		return nil, fail("", err)
	}
	v.Top = repo.TopLevel()
	rel, rerr := filepath.Rel(v.Top, real)
	if rerr != nil {
		return nil, fail("", fmt.Errorf("%s is not inside %s: %v", real, v.Top, rerr))
	}
	v.Config = path.Join(filepath.ToSlash(rel), ".agentty/mcp.json")
	roots, ierr := repo.Identity()
	if ierr != nil {
		return nil, fail("", fmt.Errorf("%s: reading the repository's identity: %v", v.Top, ierr))
	}
	v.Repo = trust.RepoIdentity(roots, v.Top)
	if head, herr := repo.Resolve("HEAD"); herr == nil {
		v.Head = head.Commit()
	}
	pc, err := project.LoadConfig(ctx, repo, gitscan.WorkTree, v.Config, project.Options{Cache: cache})
	if err == nil && pc == nil {
		// Not visible to git (ignored): read it as agentty does.
		pc, err = project.LoadDir(ctx, real, project.Options{})
	}
	return pc, err
}

// Invalid says why a project configuration that mcp-guard cannot read the
// way agentty does blocks the launch: agentty would run nothing from it if
// mcp-guard read it right, but if mcp-guard is wrong about what agentty
// rejects, agentty would run servers nobody reviewed; one mcp-guard did
// not read at all (Unreadable) may run anything. nil when the
// configuration is valid (or not a project's).
func (v *View) Invalid() error {
	cfg := v.In.Config
	if cfg == nil || cfg.Scope != trust.ScopeProject || cfg.Valid() {
		return nil
	}
	if cfg.Unreadable() {
		return refuse("`mcp-guard status` shows why", "%s: %s", cfg.Path, cfg.UnreadableText())
	}
	if errors.Is(cfg.Err, trust.ErrNotRegular) {
		return refuse("make it a regular file, or remove it", "%s; mcp-guard cannot tell what agentty would run from it, so nothing starts here until it is a file",
			trust.InvalidText(cfg.Path, cfg.Err))
	}
	return refuse("fix the file first; `mcp-guard status` shows why",
		"%s: does not parse the way agentty reads it (%s); mcp-guard cannot tell what agentty would run from it, so nothing starts here until the file is fixed",
		cfg.Path, cfg.Err.Error())
}

// Reviewable refuses where there is nothing mcp-guard reviews: no
// configuration, the user's own, or one it cannot read.
func (v *View) Reviewable() error {
	cfg := v.In.Config
	switch {
	case cfg == nil:
		return refuse("run it in the directory the agent starts in, or pass -C DIR; `mcp-guard status` says what it reads", "no MCP configuration of any agent here: nothing to review")
	case cfg.Scope != trust.ScopeProject:
		return refuse("only a project's .agentty/mcp.json is reviewed",
			"%s is a %s configuration: it did not come with a repository", cfg.Path, cfg.Scope)
	}
	return v.Invalid()
}

// Blocking are the verdicts that keep `mcp-guard launch` from starting the
// agent. A declined server that agentty would still run (an http server,
// a blanket grant) does not block a launch that hands agentty the
// snapshot (which leaves it out); without the snapshot it does.
func (v *View) Blocking(snapshot bool) []trust.GateVerdict {
	var out []trust.GateVerdict
	for _, gv := range v.Verdicts {
		if gv.Blocks && !(snapshot && gv.Why == trust.GateDeclinedRuns) {
			out = append(out, gv)
		}
	}
	return out
}
