package gate

import (
	"context"
	"fmt"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Adopted is one server Adopt recorded as reviewed (or, Held, left
// waiting), with policy's findings on what it runs.
type Adopted struct {
	Config   string
	Server   project.Server
	Findings []trust.Finding
}

// Adoption is what Adopt did.
type Adoption struct {
	Adopted []Adopted
	// Blanket counts the gated servers agentty runs on a blanket grant
	// (the env switch, a whole-file approval): never adopted, since no one
	// looked at them one by one.
	Blanket int
	// Held are the servers agentty approved that carry a high or critical
	// finding: an approval given before mcp-guard showed the danger is
	// not taken for a review; they wait for one.
	Held []Adopted
}

// Adopt records as reviewed every server of the repository's
// configurations (at any depth, as the work tree holds them) that agentty
// runs on a per-server approval the user gave it: the approvals given
// before mcp-guard was installed.
func Adopt(ctx context.Context, dir string, env Env) (*Adoption, error) {
	repo, err := gitscan.Open(dir, gitscan.WithEnv(env.Environ))
	if err != nil {
		return nil, fail("", err)
	}
	defer repo.Close()
	snap, err := project.Load(ctx, repo, gitscan.WorkTree, project.Options{})
	if err != nil {
		return nil, fail("", fmt.Errorf("reading the repository's MCP configurations: %w", err))
	}
	roots, err := repo.Identity()
	if err != nil {
		return nil, fail("", fmt.Errorf("%s: reading the repository's identity: %w", repo.TopLevel(), err))
	}
	id := trust.RepoIdentity(roots, repo.TopLevel())
	head := ""
	if h, err := repo.Resolve("HEAD"); err == nil {
		head = h.Commit()
	}
	ledgerDir, err := trust.LedgerDir(env.Getenv)
	if err != nil {
		return nil, fail("set HOME (or MCP_GUARD_HOME)", err)
	}
	store := trust.LoadUserApprovals(env.Getenv)
	if store.Err != nil {
		return nil, fail("mcp-guard never rewrites a store it cannot read; fix or move "+store.Path, store.Err)
	}
	grants := trust.Grants{Approved: store.Approved}
	out := &Adoption{}
	err = trust.UpdateLedger(ctx, ledgerDir, func(ed *trust.LedgerEdit) error {
		out.Adopted, out.Blanket, out.Held = out.Adopted[:0], 0, out.Held[:0]
		ed.Path = repo.TopLevel()
		for _, pc := range snap.Configs {
			if pc.Config == nil || !pc.Config.Valid() {
				continue
			}
			byName := map[string]project.Server{}
			for _, s := range pc.Servers {
				byName[s.Name] = s
			}
			for _, v := range trust.Evaluate(pc.Config, grants) {
				s, ok := byName[v.Server.Name]
				if !ok || s.Deep == "" {
					continue
				}
				if v.Reason != trust.ReasonApproved {
					if v.Trusted && v.Server.Gated {
						out.Blanket++
					}
					continue
				}
				key := trust.ReviewKey{Repo: id, Config: pc.Path, Server: s.Name}
				if r, ok := ed.Lookup(key); ok && r.Approves(s.Deep) {
					continue
				}
				fs := serverFindings(pc.Config, v.Server)
				if severe(fs) {
					out.Held = append(out.Held, Adopted{pc.Path, s, fs})
					continue
				}
				if err := ed.Record(trust.Review{ReviewKey: key, DecidedVersion: trust.DecidedVersion{Decision: trust.DecisionApproved, Adopted: true,
					ReviewedVersion: trust.ReviewedVersion{Deep: s.Deep, Fingerprint: s.Fingerprint, Entry: s.Canonical(),
						Files: trust.ReviewedFiles(s.Files), Commit: head}}}); err != nil {
					return err
				}
				out.Adopted = append(out.Adopted, Adopted{pc.Path, s, fs})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fail("", fmt.Errorf("recording adopted approvals: %w", err))
	}
	return out, nil
}

// serverFindings are policy's server rules on s, one of cfg's servers,
// the most severe first.
func serverFindings(cfg *trust.Config, s *trust.Server) []trust.Finding {
	one := *cfg
	one.Servers = []*trust.Server{s}
	out := policy.CheckServers(&one, policy.Options{})
	policy.SortBySeverity(out)
	return out
}

// severe reports whether a finding of fs is high or critical.
func severe(fs []trust.Finding) bool {
	for _, f := range fs {
		if f.Severity.Rank() >= trust.SeverityHigh.Rank() {
			return true
		}
	}
	return false
}
