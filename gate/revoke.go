package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Revoked is what Revoke did for one server of any agent.
type Revoked struct {
	Server ClientServer
	// Store: its approval was its client's own, in the store mcp-guard
	// writes for that client (client.StoreKeeper: agentty's); Changed
	// then says that a fingerprint of one of its versions left the store
	// (mcp-guard's review stays: the client asks before running it).
	// Otherwise Changed says mcp-guard's review of it (every version) was
	// forgotten: it waits for review again.
	Store   bool
	Changed bool
}

// WholeRevoked is what Revoke did to a client's approval of a whole
// configuration (agentty's legacy whole-file approval): Config names the
// configuration; Changed: there was one, and it is gone.
type WholeRevoked struct {
	Config  string
	Changed bool
}

// Revocation is what Revoke did: one entry per server, in the order of
// the names (with --all, as All lists the agents and their servers).
type Revocation struct {
	Servers []Revoked
	// Whole is what the whole-file approvals asked to go became.
	Whole []WholeRevoked
	// Still is what a client still runs without asking, in its words,
	// with the command that stops it (a whole-file approval not asked to
	// go).
	Still []string
}

// Revoke takes back decisions about servers of any agent: the named ones
// (qualified as review takes them), every one with all, and, with
// wholeFile, a client's approval of its configuration as a whole. One
// path for every agent: a server whose client keeps its own approvals
// store mcp-guard writes (client.StoreKeeper: agentty, which has no
// revoke) leaves that store, and mcp-guard's ledger keeps its review (a
// revoked agentty server that was reviewed runs again only after agentty
// asks); any other server's review is forgotten in mcp-guard's ledger,
// so it waits for review again (mcp-guard wrote nothing in that client's
// own files). A revoke covers every version of a server: its client's
// store loses the fingerprint of each version the ledger remembers
// (another branch's or worktree's), and the ledger forgets them all.
//
// The whole request is refused if any name is not acceptable; each store
// is then written once, under its lock, the client stores before the
// ledger (a store mcp-guard cannot read stops the revoke before anything
// is written).
func (v *View) Revoke(ctx context.Context, names []string, all, wholeFile bool) (*Revocation, error) {
	if len(v.All()) == 0 {
		return nil, refuse("run it where an agent's MCP configuration is, or pass -C DIR; `mcp-guard status` says what it reads",
			"no MCP configuration here that mcp-guard gates: nothing to revoke")
	}
	selected, err := v.revokeTargets(names, all)
	if err != nil {
		return nil, err
	}
	// Group by client: each store is written once, with its servers.
	stores := map[client.ID][]int{}
	var forget []ClientServer
	views := v.byClient()
	for i, cs := range selected {
		if cv := views[cs.ClientID()]; keeperOf(cv) != nil {
			stores[cv.Client] = append(stores[cv.Client], i)
		} else {
			forget = append(forget, cs)
		}
	}
	var keepers []*ClientView
	for _, cv := range v.All() {
		if keeperOf(cv) == nil {
			continue
		}
		if len(stores[cv.Client]) > 0 || wholeFile || all {
			// A store is not written while mcp-guard cannot tell what the
			// configuration holds (nor is --all said to have nothing to
			// take back).
			if len(cv.Closed) > 0 {
				return nil, refuse("fix the file first; `mcp-guard status` shows why", "nothing was written: %s", cv.Closed[0])
			}
			keepers = append(keepers, cv)
		}
	}
	if wholeFile && len(keepers) == 0 {
		return nil, refuse("`mcp-guard status` says what each agent reads here", "no agent here keeps a whole-file approval mcp-guard can revoke: nothing to revoke")
	}
	if len(forget) > 0 {
		if err := v.ledgerUsable(); err != nil {
			return nil, err
		}
	}
	out := &Revocation{Servers: make([]Revoked, len(selected))}
	for i, cs := range selected {
		out.Servers[i] = Revoked{Server: cs}
	}
	for _, cv := range keepers {
		idx := stores[cv.Client]
		fps := make([][]string, len(idx))
		for j, i := range idx {
			fps[j] = fingerprints(selected[i])
		}
		res, err := keeperOf(cv).Revoke(ctx, cv.Eval.State, fps, wholeFile)
		if err != nil {
			return nil, storeFailure(cv, err)
		}
		for j, i := range idx {
			out.Servers[i].Store, out.Servers[i].Changed = true, res.Changed[j]
		}
		if res.WholeOf != "" {
			out.Whole = append(out.Whole, WholeRevoked{Config: res.WholeOf, Changed: res.WholeChanged})
		}
		if res.Still != "" {
			out.Still = append(out.Still, res.Still)
		}
	}
	if len(forget) > 0 {
		forgotten, err := v.forget(ctx, forget)
		if err != nil {
			var f *Failure
			if len(keepers) > 0 && errors.As(err, &f) {
				// The stores are written: say so, not "nothing was written".
				f.Hint = "the approvals left " + keepers[0].Title + "'s store, but mcp-guard's ledger still holds the other reviews; " +
					strings.Replace(v.ledgerFix(false), "review again", "revoke again", 1)
			}
			return nil, err
		}
		k := 0
		for i := range out.Servers {
			if !out.Servers[i].Store {
				out.Servers[i].Changed = forgotten[k]
				k++
			}
		}
	}
	return out, nil
}

// keeperOf is cv's client when it keeps its own approvals store that
// mcp-guard writes (client.StoreKeeper) and its state here names it; nil
// otherwise (and for nil).
func keeperOf(cv *ClientView) client.StoreKeeper {
	if cv == nil || cv.Eval.State == nil {
		return nil
	}
	k, _ := client.Lookup(cv.Client).(client.StoreKeeper)
	return k
}

// fingerprints are the client's own fingerprints of cs: its current one
// and those of the other versions of it the ledger remembers.
func fingerprints(cs ClientServer) []string {
	var out []string
	if cs.Server != nil && cs.Server.Fingerprint != "" {
		out = append(out, cs.Server.Fingerprint)
	}
	for _, d := range cs.Last.Versions() {
		if d.Fingerprint != "" && (cs.Server == nil || d.Fingerprint != cs.Server.Fingerprint) {
			out = append(out, d.Fingerprint)
		}
	}
	return out
}

// revokeTargets are the servers a revoke of names (with all, every one
// with something to take back) covers, across every agent, or why the
// request is refused. A plain name that several agents load at one
// version (SameVersion) was one decision: its revoke takes it back for
// each of them (issue 23); at different versions it must be qualified.
func (v *View) revokeTargets(names []string, all bool) ([]ClientServer, error) {
	var out []ClientServer
	if all {
		for _, cv := range v.All() {
			for _, cs := range cv.Servers {
				if revocable(cv, cs) {
					out = append(out, cs)
				}
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
		id, bare := SplitName(name)
		var found []*ClientServer
		if id == "" {
			found = v.lookup("", name)
		} else {
			found = v.lookup(id, bare)
		}
		switch {
		case len(found) == 0 && id == "":
			problems = append(problems, fmt.Sprintf("%q: no such server here", name))
			continue
		case len(found) == 0:
			problems = append(problems, fmt.Sprintf("%q: %s has no such server here", name, id))
			continue
		case len(found) > 1 && !oneVersion(found):
			problems = append(problems, fmt.Sprintf("%q names a server of more than one client: qualify it (%s)", name, qualified(found)))
			continue
		}
		for _, cs := range found {
			if p := v.revokeRefusal(name, cs); p != "" {
				problems = append(problems, p)
				continue
			}
			out = append(out, *cs)
		}
	}
	if len(problems) > 0 {
		return nil, refuse("nothing was written; `mcp-guard status` lists the servers", "cannot revoke: %s", strings.Join(problems, "; "))
	}
	return out, nil
}

// revocable reports whether cs, a server of cv, has something a revoke
// --all takes back: a fingerprint its client's own store may hold, or
// (any other client) a decision in mcp-guard's ledger.
func revocable(cv *ClientView, cs ClientServer) bool {
	if keeperOf(cv) != nil {
		return cs.Server != nil && cs.Server.Fingerprint != ""
	}
	return cs.Last != nil || cs.State != trust.StateUnreviewed
}

// revokeRefusal says why cs, named name, cannot be revoked ("" when it
// can): a server of a configuration the user keeps (mcp-guard gates none
// of it), or one with nothing its client's store could hold.
func (v *View) revokeRefusal(name string, cs *ClientServer) string {
	switch {
	case cs.Key.Server == "":
		return fmt.Sprintf("%q is in %s, the user's own configuration: %s never gates it", name, cs.Config, v.titleOf(cs.ClientID()))
	case keeperOf(v.ClientOf(cs.ClientID())) != nil && (cs.Server == nil || cs.Server.Fingerprint == ""):
		return fmt.Sprintf("%q has neither command nor url: it was never approved", name)
	}
	return ""
}

// qualified names each server as CLIENT:NAME.
func qualified(found []*ClientServer) string {
	out := make([]string, len(found))
	for i, cs := range found {
		out[i] = cs.Label()
	}
	return strings.Join(out, ", ")
}

// ledgerUsable refuses a revoke that must forget reviews when mcp-guard's
// ledger cannot be written.
func (v *View) ledgerUsable() error {
	if v.LedgerDir == "" || v.Ledger.Err != nil {
		return fail("nothing was written; "+strings.Replace(v.ledgerFix(true), "review again", "revoke again", 1), fmt.Errorf("mcp-guard's ledger cannot be used: %v", v.Ledger.Err))
	}
	if v.Ledger.Newer {
		return fail("use the newer mcp-guard that wrote it", fmt.Errorf("%s was written by a newer mcp-guard: nothing was written", v.Ledger.Path))
	}
	return nil
}

// forget removes mcp-guard's decisions about servers from the ledger,
// under its lock: each then waits for review again. changed says, per
// server, whether the ledger had one.
func (v *View) forget(ctx context.Context, servers []ClientServer) ([]bool, error) {
	out := make([]bool, len(servers))
	err := trust.UpdateLedger(ctx, v.LedgerDir, func(ed *trust.LedgerEdit) error {
		ed.Path = v.Top
		for i, cs := range servers {
			out[i] = ed.Forget(cs.Key)
		}
		return nil
	})
	if err != nil {
		return nil, fail("nothing was written", err)
	}
	return out, nil
}
