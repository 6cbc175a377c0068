package main

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "exit 0 when agentty may start here, 1 with the servers that wait for review",
		UsageText: "mcp-guard [-C DIR] check",
		Description: "A server waits for review when agentty would run it (or ask to) and you have not\n" +
			"reviewed its current version with `mcp-guard review`: new servers, changed ones, servers\n" +
			"agentty approved before mcp-guard looked at them, and servers trusted by a blanket grant.",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("check takes no arguments")
			}
			dir, err := launchDir(c)
			if err != nil {
				return err
			}
			g, err := evaluateGate(c.Context, e, dir)
			if err != nil {
				return err
			}
			g.warnLedger(e)
			if err := g.invalid(); err != nil {
				fmt.Fprintln(e.stdout, err)
				return attention()
			}
			if blocking := trust.Blocking(g.verdicts); len(blocking) > 0 {
				if err := report.WriteBlocking(e.stdout, g.configPath(), blocking, reviewCommandLine(c), e.style(e.stdout)); err != nil {
					return failf("", "writing the list: %v", err)
				}
				return attention()
			}
			fmt.Fprintln(e.stdout, "nothing waits for review: agentty may start here")
			return nil
		},
	}
}

// gateView is mcp-guard's gate evaluated for one launch directory.
type gateView struct {
	dir string
	in  *trust.Inspection
	// verdicts has one entry per server of the configuration, in order.
	verdicts []trust.GateVerdict
	// ledger is the user's review ledger, in ledgerDir.
	ledger    *trust.Ledger
	ledgerDir string
	// repo is the repository identity, top its work tree ("" outside git),
	// config the configuration's key (path relative to top), head HEAD.
	repo, top, config, head string
	// servers are the configuration's servers with their files and deep
	// fingerprints, by name.
	servers map[string]project.Server
}

// configPath names the configuration for people.
func (g *gateView) configPath() string {
	if g.in.Config != nil {
		return g.in.Config.Path
	}
	return ""
}

// invalid says why a project configuration that mcp-guard cannot read
// the way agentty does blocks the launch: agentty would run nothing from
// it if mcp-guard read it right, but if mcp-guard is wrong about what
// agentty rejects, agentty would run servers nobody reviewed; and one
// mcp-guard did not read at all (Unreadable) may run anything. nil when
// the configuration is valid (or not a project's).
func (g *gateView) invalid() error {
	cfg := g.in.Config
	if cfg == nil || cfg.Scope != trust.ScopeProject || cfg.Valid() {
		return nil
	}
	if cfg.Unreadable() {
		return fmt.Errorf("%s: %s (`mcp-guard status` shows why)", report.Sanitize(cfg.Path), report.Sanitize(cfg.UnreadableText()))
	}
	return fmt.Errorf("%s: does not parse the way agentty reads it (%s); mcp-guard cannot tell what agentty would run from it, so nothing starts here until the file is fixed (`mcp-guard status` shows why)",
		report.Sanitize(cfg.Path), report.Sanitize(cfg.Err.Error()))
}

// warnLedger says on stderr why nothing counts as reviewed, if so.
func (g *gateView) warnLedger(e *env) {
	if g.ledger.Err != nil {
		fmt.Fprintf(e.stderr, "mcp-guard: warning: %s\n", report.Sanitize(g.ledger.Err.Error()))
	}
}

// evaluateGate works out which servers of the configuration agentty would
// read in dir block the launch: agentty's verdicts (trust.Inspect), the
// servers' deep fingerprints over what the work tree holds (project), and
// the user's reviews (the ledger).
func evaluateGate(ctx context.Context, e *env, dir string) (*gateView, error) {
	in, err := trust.Inspect(dir, e.getenv)
	if err != nil {
		return nil, failf("", "%v", err)
	}
	g := &gateView{dir: dir, in: in, servers: map[string]project.Server{}}
	g.ledgerDir, err = trust.LedgerDir(e.getenv)
	if err != nil {
		g.ledger = &trust.Ledger{Err: err}
	} else {
		g.ledger = trust.LoadLedger(g.ledgerDir)
	}
	cfg := in.Config
	if cfg != nil && cfg.Scope == trust.ScopeProject && cfg.Valid() {
		if err := g.loadProject(ctx, e); err != nil {
			return nil, err
		}
	}
	gate := trust.Gate{Ledger: g.ledger, Repo: g.repo, Config: g.config}
	g.verdicts = gate.Evaluate(in.Verdicts, func(s *trust.Server) string {
		ps, ok := g.servers[s.Name]
		// Both reads must agree on the entry, or nothing is reviewed.
		if !ok || ps.Canonical() != s.Canonical() {
			return ""
		}
		return ps.Deep
	})
	return g, nil
}

// loadProject finds the repository around the launch directory, its
// identity and HEAD, and the configuration's servers with deep
// fingerprints; outside git the directory stands for the repository.
func (g *gateView) loadProject(ctx context.Context, e *env) error {
	real, err := filepath.EvalSymlinks(g.dir)
	if err != nil {
		real = g.dir
	}
	var pc *project.Config
	repo, err := gitscan.Open(real, gitscan.WithEnv(e.environ))
	switch {
	case errors.Is(err, gitscan.ErrNotRepository):
		g.repo, g.config = trust.RepoIdentity(nil, real), ".agentty/mcp.json"
		pc, err = project.LoadDir(ctx, real, project.Options{})
	case err != nil:
		return failf("", "%v", err)
	default:
		defer repo.Close()
		g.top = repo.TopLevel()
		rel, rerr := filepath.Rel(g.top, real)
		if rerr != nil {
			return failf("", "%s is not inside %s: %v", real, g.top, rerr)
		}
		g.config = path.Join(filepath.ToSlash(rel), ".agentty/mcp.json")
		roots, ierr := repo.Identity()
		if ierr != nil {
			return failf("", "%s: reading the repository's identity: %v", g.top, ierr)
		}
		g.repo = trust.RepoIdentity(roots, g.top)
		if head, herr := repo.Resolve("HEAD"); herr == nil {
			g.head = head.Commit()
		}
		pc, err = project.LoadConfig(ctx, repo, gitscan.WorkTree, g.config, project.Options{})
		if err == nil && pc == nil {
			// Not visible to git (ignored): read it as agentty does.
			pc, err = project.LoadDir(ctx, real, project.Options{})
		}
	}
	if err != nil {
		return failf("nothing counts as reviewed until mcp-guard can read it", "%s: %v", g.in.Config.Path, err)
	}
	if pc != nil {
		for _, s := range pc.Servers {
			g.servers[s.Name] = s
		}
	}
	return nil
}

// statusGate evaluates mcp-guard's gate for the launch directory: the
// review state and what each server runs from the repository. When it
// cannot, a warning on stderr says why and there are none.
func statusGate(c *cli.Context, e *env) ([]trust.GateVerdict, map[string]report.ServerScope) {
	dir, err := launchDir(c)
	if err == nil {
		var g *gateView
		if g, err = evaluateGate(c.Context, e, dir); err == nil {
			scopes := map[string]report.ServerScope{}
			for name, s := range g.servers {
				scopes[name] = report.NewServerScope(s.Scope, s.Files)
			}
			return g.verdicts, scopes
		}
	}
	fmt.Fprintf(e.stderr, "mcp-guard: warning: review state unknown: %s\n", report.Sanitize(err.Error()))
	return nil, nil
}
