package gate

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Revoked is what Revoke did for one server.
type Revoked struct {
	Server *trust.Server
	// Changed: its fingerprint, or that of another version of it the
	// ledger remembers, was in agentty's store and is gone.
	Changed bool
}

// Forgotten is what Revoke did for a server of a client other than
// agentty: its decisions in mcp-guard's ledger are gone (Changed), so it
// waits for review again.
type Forgotten struct {
	Server  ClientServer
	Changed bool
}

// Revocation is what Revoke did.
type Revocation struct {
	Servers   []Revoked
	Forgotten []Forgotten
	// WholeFile: a whole-file approval was asked to go; WholeFileChanged:
	// there was one and it is gone.
	WholeFile, WholeFileChanged bool
	// StillBlanket: the whole file is still approved (not asked to go), so
	// agentty still runs every server in it.
	StillBlanket bool
}

// Revoke takes back decisions: for agentty it removes servers' approvals
// from agentty's store (agentty has no revoke), for every other client
// it forgets mcp-guard's review, so the server waits for review again
// (mcp-guard wrote nothing in those clients' own files). The named
// servers (qualified as review takes them), every one with all, and
// agentty's legacy whole-file approval with wholeFile. The whole request
// is refused if any name is not acceptable; each store is then updated
// once, under its lock. mcp-guard's ledger keeps agentty's reviews: a
// revoked agentty server that was reviewed runs again only after agentty
// asks. A revoke covers every version of the server: agentty's store loses
// the fingerprint of each version the ledger remembers (another branch's
// or worktree's), and another client's server forgets them all.
func (v *View) Revoke(ctx context.Context, names []string, all, wholeFile bool) (*Revocation, error) {
	forget, names, err := v.clientRevokes(names, all)
	if err != nil {
		return nil, err
	}
	out := &Revocation{WholeFile: wholeFile}
	cfg := v.In.Config
	// agentty's part: names left for it, its whole-file approval, or --all
	// over its project servers (--all where its only configuration is the
	// user's own, and no other agent is here, is refused as before).
	agentty := len(names) > 0 || wholeFile || (all && cfg != nil && (cfg.Scope == trust.ScopeProject || len(v.Clients) == 0))
	if !agentty && len(forget) == 0 && len(v.Clients) == 0 {
		return nil, refuse("run it where an agent's MCP configuration is, or pass -C DIR", "no MCP configuration of any agent here: nothing to revoke")
	}
	// Everything is validated before anything is written.
	var selected []*trust.Server
	if agentty {
		if selected, err = v.revokable(names, all, wholeFile); err != nil {
			return nil, err
		}
	}
	if len(forget) > 0 {
		if out.Forgotten, err = v.forget(ctx, forget); err != nil {
			return nil, err
		}
	}
	if !agentty {
		return out, nil
	}
	fps := make([][]string, len(selected))
	for i, s := range selected {
		fps[i] = v.fingerprints(s)
	}
	var whole string
	if wholeFile {
		whole = cfg.SHA256
	}
	changed, wholeChanged, err := client.Keeper().RevokeStore(ctx, v.In.StorePath, fps, whole)
	if err != nil {
		return nil, fail("mcp-guard never rewrites a store it cannot read; fix or move "+v.In.StorePath+" (agentty approves nothing while it is invalid)", err)
	}
	for i, s := range selected {
		out.Servers = append(out.Servers, Revoked{Server: s, Changed: changed[i]})
	}
	out.WholeFileChanged = wholeChanged
	out.StillBlanket = v.In.Blanket == "whole-file" && !wholeFile
	return out, nil
}

// fingerprints are agentty's fingerprints of s: its current one and those
// of the other versions of it the ledger remembers.
func (v *View) fingerprints(s *trust.Server) []string {
	out := []string{s.Fingerprint}
	for _, gv := range v.Verdicts {
		if gv.Server != s {
			continue
		}
		for _, d := range gv.Last.Versions() {
			if d.Fingerprint != "" && d.Fingerprint != s.Fingerprint {
				out = append(out, d.Fingerprint)
			}
		}
	}
	return out
}

// revokable are agentty's servers a revoke of names (every gated one with
// all) removes from its store, or why the request is refused.
func (v *View) revokable(names []string, all, wholeFile bool) ([]*trust.Server, error) {
	cfg := v.In.Config
	switch {
	case cfg == nil:
		return nil, refuse("`mcp-guard status` lists the servers here", "no MCP configuration here has %s: nothing to revoke", quoteList(names))
	case cfg.Scope != trust.ScopeProject:
		return nil, refuse("only project servers (.agentty/mcp.json in the launch directory) need approval",
			"%s is a %s configuration: agentty never gates its servers", cfg.Path, cfg.Scope)
	}
	if err := v.Invalid(); err != nil {
		return nil, err
	}
	var selected []*trust.Server
	if all {
		for _, s := range cfg.Servers {
			if s.Fingerprint != "" {
				selected = append(selected, s)
			}
		}
	}
	var problems []string
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		s := cfg.Server(name)
		switch {
		case s == nil:
			problems = append(problems, fmt.Sprintf("%q: no such server in %s", name, cfg.Path))
		case s.Fingerprint == "":
			problems = append(problems, fmt.Sprintf("%q has neither command nor url: it was never approved", name))
		default:
			selected = append(selected, s)
		}
	}
	if len(problems) > 0 {
		return nil, refuse("nothing was written; `mcp-guard status` lists the servers", "cannot revoke: %s", strings.Join(problems, "; "))
	}
	return selected, nil
}

// clientRevokes splits names into the servers of clients other than
// agentty (a plain name is agentty's when agentty has it; a name two
// other clients load must be qualified) and the names left for agentty;
// with all, every server of every other client that has a decision.
func (v *View) clientRevokes(names []string, all bool) ([]ClientServer, []string, error) {
	var out []ClientServer
	var rest, problems []string
	if all {
		for _, cv := range v.Clients {
			for _, cs := range cv.Servers {
				if cs.Last != nil || cs.State != trust.StateUnreviewed {
					out = append(out, cs)
				}
			}
		}
	}
	for _, name := range names {
		id, bare := SplitName(name)
		if same := v.sameAcross(id, name); same != nil {
			// One version several agents load was one decision: its
			// revoke takes it back for each of them (issue 23).
			for _, cs := range same {
				if cs.ClientID() != client.Keeper().ID() {
					out = append(out, *cs)
				} else {
					rest = append(rest, name)
				}
			}
			continue
		}
		if keeper := client.Keeper().ID(); id == "" && len(v.lookup(keeper, name)) > 0 || id == keeper {
			rest = append(rest, bare)
			continue
		}
		found := v.lookup(id, bare)
		switch {
		case len(found) == 0 && id == "":
			rest = append(rest, name) // agentty's to refuse
		case len(found) == 0:
			problems = append(problems, fmt.Sprintf("%q: %s has no such server here", name, id))
		case len(found) > 1:
			problems = append(problems, fmt.Sprintf("%q names a server of more than one client: qualify it (%s)", name, qualified(found)))
		default:
			out = append(out, *found[0])
		}
	}
	if len(problems) > 0 {
		return nil, nil, refuse("nothing was written; `mcp-guard status` lists the servers", "cannot revoke: %s", strings.Join(problems, "; "))
	}
	return out, rest, nil
}

// sameAcross is every server a plain name (id "") means when more than
// one agent loads it and all of them load one version (SameVersion);
// nil otherwise.
func (v *View) sameAcross(id client.ID, name string) []*ClientServer {
	if id != "" {
		return nil
	}
	if found := v.lookup("", name); oneVersion(found) {
		return found
	}
	return nil
}

// qualified names each server as CLIENT:NAME.
func qualified(found []*ClientServer) string {
	out := make([]string, len(found))
	for i, cs := range found {
		out[i] = cs.Label()
	}
	return strings.Join(out, ", ")
}

func quoteList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(out, ", ")
}

// forget removes mcp-guard's decisions about servers from the ledger,
// under its lock: each then waits for review again.
func (v *View) forget(ctx context.Context, servers []ClientServer) ([]Forgotten, error) {
	if v.LedgerDir == "" || v.Ledger.Err != nil {
		return nil, fail("nothing was written; "+strings.Replace(v.ledgerFix(true), "review again", "revoke again", 1), fmt.Errorf("mcp-guard's ledger cannot be used: %v", v.Ledger.Err))
	}
	if v.Ledger.Newer {
		return nil, fail("use the newer mcp-guard that wrote it", fmt.Errorf("%s was written by a newer mcp-guard: nothing was written", v.Ledger.Path))
	}
	var out []Forgotten
	err := trust.UpdateLedger(ctx, v.LedgerDir, func(ed *trust.LedgerEdit) error {
		ed.Path = v.Top
		out = out[:0]
		for _, cs := range servers {
			out = append(out, Forgotten{Server: cs, Changed: ed.Forget(cs.Key)})
		}
		return nil
	})
	if err != nil {
		return nil, fail("nothing was written", err)
	}
	return out, nil
}
