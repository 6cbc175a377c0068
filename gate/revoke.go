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
	// Changed: its fingerprint was in agentty's store and is gone.
	Changed bool
}

// Revocation is what Revoke did.
type Revocation struct {
	Servers []Revoked
	// WholeFile: a whole-file approval was asked to go; WholeFileChanged:
	// there was one and it is gone.
	WholeFile, WholeFileChanged bool
	// StillBlanket: the whole file is still approved (not asked to go), so
	// agentty still runs every server in it.
	StillBlanket bool
}

// Revoke removes servers' approvals from agentty's store (agentty has no
// revoke): the named ones, every one with all, and the legacy whole-file
// approval with wholeFile. The whole request is refused if any name is not
// acceptable; the store is then updated once, under its lock. mcp-guard's
// ledger keeps its reviews: a revoked server that was reviewed runs again
// only after agentty asks.
func (v *View) Revoke(ctx context.Context, names []string, all, wholeFile bool) (*Revocation, error) {
	if err := v.revokeClients(names); err != nil {
		return nil, err
	}
	cfg := v.In.Config
	switch {
	case cfg == nil:
		return nil, refuse("run it in agentty's launch directory, or pass -C DIR", "no MCP configuration here: nothing to revoke")
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
	out := &Revocation{WholeFile: wholeFile}
	err := trust.UpdateApprovals(ctx, v.In.StorePath, func(ed *trust.ApprovalsEdit) error {
		out.Servers = out.Servers[:0]
		for _, s := range selected {
			out.Servers = append(out.Servers, Revoked{Server: s, Changed: ed.Remove(s.Fingerprint)})
		}
		if wholeFile {
			out.WholeFileChanged = ed.Remove(cfg.SHA256)
		}
		return nil
	})
	if err != nil {
		return nil, fail("mcp-guard never rewrites a store it cannot read; fix or move "+v.In.StorePath+" (agentty approves nothing while it is invalid)", err)
	}
	out.StillBlanket = v.In.Blanket == "whole-file" && !wholeFile
	return out, nil
}

// revokeClients refuses a revoke that names another client's server:
// mcp-guard records nothing in their own files, so it has nothing there
// to take back; a decline is what keeps `mcp-guard launch` from handing
// the server over.
func (v *View) revokeClients(names []string) error {
	var problems []string
	for _, name := range names {
		// A plain name is agentty's when agentty has it: only agentty has
		// approvals mcp-guard revokes.
		var found []ClientServer
		if len(v.lookup(client.Agentty, name)) == 0 {
			for _, m := range v.lookup("", name) {
				found = append(found, *m.client)
			}
		}
		if id, rest := SplitName(name); id != "" && id != client.Agentty {
			for _, m := range v.lookup(id, rest) {
				found = append(found, *m.client)
			}
		}
		for _, cs := range found {
			p := fmt.Sprintf("%q is %s's: mcp-guard wrote nothing in its files, so there is nothing to revoke; `mcp-guard review --decline %s` keeps `mcp-guard launch` from handing it over", cs.Label(), cs.Key.Client, cs.Label())
			if cs.Source != "" && cs.Interactive {
				p += fmt.Sprintf(", and %s is where its own approval is", cs.Source)
			}
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return refuse("nothing was written", "cannot revoke: %s", strings.Join(problems, "; "))
	}
	return nil
}
