package gate

import (
	"fmt"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/internal/nearname"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Targets are the servers one decision is about, across clients.
type Targets struct {
	Agentty []trust.GateVerdict
	Clients []ClientServer
}

// Len is how many servers t holds.
func (t Targets) Len() int { return len(t.Agentty) + len(t.Clients) }

// SplitName reads a server name as the user typed it: "claude-code:db"
// (or "claude:db", by the command that starts it: client.Resolve) names
// db of Claude Code (any client, agentty too, may qualify a name);
// anything else is a plain name (id "").
func SplitName(name string) (client.ID, string) {
	if id, rest, ok := strings.Cut(name, ":"); ok && rest != "" {
		if c := client.Resolve(id); c != "" {
			return c, rest
		}
	}
	return "", name
}

// match is one server a typed name may mean.
type match struct {
	agentty *trust.GateVerdict
	client  *ClientServer
}

func (m match) id() client.ID {
	if m.client != nil {
		return m.client.ClientID()
	}
	return client.Keeper().ID()
}

// blocks reports whether the server waits for review.
func (m match) blocks() bool {
	if m.client != nil {
		return m.client.Blocks
	}
	return m.agentty.Blocks
}

// names are the names of the servers in client id ("" any client).
func (v *View) names(id client.ID) []string {
	var out []string
	add := func(c client.ID, name string) {
		if id == "" || id == c {
			out = append(out, name)
		}
	}
	keeper := client.Keeper().ID()
	for _, gv := range v.Verdicts {
		add(keeper, gv.Server.Name)
	}
	for _, cv := range v.Clients {
		for _, cs := range cv.Servers {
			add(cv.Client, cs.Name)
		}
	}
	return out
}

// lookup finds name in client id ("" any client).
func (v *View) lookup(id client.ID, name string) []match {
	var out []match
	if id == "" || id == client.Keeper().ID() {
		for i := range v.Verdicts {
			if v.Verdicts[i].Server.Name == name {
				out = append(out, match{agentty: &v.Verdicts[i]})
			}
		}
	}
	for _, cv := range v.Clients {
		if id != "" && id != cv.Client {
			continue
		}
		for i := range cv.Servers {
			if cv.Servers[i].Name == name {
				out = append(out, match{client: &cv.Servers[i]})
			}
		}
	}
	return out
}

// SelectTargets finds the named servers for a decision across clients:
// only, when set, restricts every name to that client; otherwise a name
// may be qualified ("claude-code:db", see SplitName). A name that two
// clients load (or that reads both as a plain and as a qualified name) is
// refused, never guessed; so is the whole request when any name is
// unknown or cannot be decided about.
func (v *View) SelectTargets(names []string, only client.ID, d trust.Decision) (Targets, error) {
	var t Targets
	var problems []string
	seen := map[string]bool{}
	if only != "" && client.Lookup(only) == nil {
		return t, refuse("the clients are "+strings.Join(client.IDs(), ", "), "no client %q", only)
	}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		var found []match
		if only != "" {
			found = v.lookup(only, name)
		} else {
			found = v.lookup("", name)
			if id, rest := SplitName(name); id != "" {
				found = append(found, v.lookup(id, rest)...)
			}
		}
		switch {
		case len(found) == 0:
			where := "here"
			if only != "" {
				where = "in " + string(only) + "'s configuration"
			}
			p := fmt.Sprintf("%q: no such server %s", name, where)
			if near := v.nearest(name, only); near != "" {
				p += fmt.Sprintf(" (did you mean %q?)", near)
			}
			problems = append(problems, p+v.closedNote(only))
			continue
		case len(found) > 1:
			// One version that several agents run is one decision
			// (issue 23): recorded for each agent that can take it.
			if picked, why := v.sameServer(found, d); picked != nil || why != nil {
				if picked == nil {
					problems = append(problems, why...)
					continue
				}
				for _, m := range picked {
					if m.agentty != nil {
						t.Agentty = append(t.Agentty, *m.agentty)
					} else {
						t.Clients = append(t.Clients, *m.client)
					}
				}
				continue
			}
			var ids []string
			for _, m := range found {
				ids = append(ids, string(m.id()))
			}
			// The example is one that waits, when one does: the name the
			// user most likely means.
			example := found[len(found)-1]
			for _, m := range found {
				if m.blocks() {
					example = m
					break
				}
			}
			problems = append(problems, fmt.Sprintf("%q names a server of more than one client (%s): qualify it as CLIENT:NAME (e.g. %s:%s) or pass --client", name, strings.Join(ids, ", "), example.id(), lastName(name)))
			continue
		}
		m := found[0]
		if m.agentty != nil {
			if p := decidable(*m.agentty, d); p != "" {
				problems = append(problems, p)
				continue
			}
			t.Agentty = append(t.Agentty, *m.agentty)
			continue
		}
		if p := clientDecidable(*m.client, d); p != "" {
			problems = append(problems, p)
			continue
		}
		t.Clients = append(t.Clients, *m.client)
	}
	if len(problems) > 0 {
		return Targets{}, refuse("nothing was recorded; `mcp-guard check` lists what waits for review", "cannot review: %s", strings.Join(problems, "; "))
	}
	return t, nil
}

// nearest is the server name a name that names none most likely meant,
// qualified as it was ("claude:dv" -> "claude:db"); "" when none is close.
func (v *View) nearest(name string, only client.ID) string {
	if id, rest := SplitName(name); id != "" && only == "" {
		if near := nearname.Of(rest, v.names(id)); near != "" {
			return name[:len(name)-len(rest)] + near
		}
		return ""
	}
	return nearname.Of(name, v.names(only))
}

func lastName(name string) string {
	if _, rest := SplitName(name); rest != "" {
		return rest
	}
	return name
}

// clientDecidable says why a decision cannot be recorded for a client's
// server ("" when it can).
func clientDecidable(cs ClientServer, d trust.Decision) string {
	s := cs.Server
	switch {
	case s == nil || (s.Command == "" && s.URL == ""):
		return fmt.Sprintf("%q has neither command nor url: nothing runs", cs.Label())
	case d == trust.DecisionApproved && !cs.Runs:
		return fmt.Sprintf("%q: %s", cs.Label(), cs.ServerVerdict.Why)
	case !validDeep(cs.Deep):
		why := cs.NoDeep
		if why == "" {
			why = "no deep fingerprint"
		}
		return fmt.Sprintf("%q: mcp-guard could not fingerprint what it runs (%s)", cs.Label(), why)
	}
	return ""
}

// review is the ledger record of decision d about cs.
func (cs ClientServer) review(d trust.Decision, head string) trust.Review {
	return trust.Review{
		ReviewKey: cs.Key,
		DecidedVersion: trust.DecidedVersion{Decision: d, ReviewedVersion: trust.ReviewedVersion{
			Deep: cs.Deep, Fingerprint: cs.Server.Fingerprint, Entry: cs.Server.Canonical(),
			Files: trust.ReviewedFiles(cs.Files), Commit: head,
		}},
	}
}

// clientHead is the HEAD a client's review records.
func (v *View) clientHead(cs ClientServer) string {
	if cv := v.ClientOf(client.ID(cs.Key.Client)); cv != nil {
		return cv.Head
	}
	return ""
}

// closedNote is what keeps mcp-guard from seeing every server here (an
// agent whose configuration it cannot read), for a message saying a name
// was not found; "" when nothing does.
func (v *View) closedNote(only client.ID) string {
	var out []string
	for _, cv := range v.All() {
		if only == "" || cv.Client == only {
			for _, c := range cv.Closed {
				out = append(out, cv.Title+": "+c)
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

// entry is the server m means as a ClientServer.
func (v *View) entry(m match) ClientServer {
	if m.client != nil {
		return *m.client
	}
	return v.agenttyServer(m.agentty)
}

// sameServer is what a name that several agents load means when every one
// of them loads the same version of it (SameVersion): each that decision
// d can be recorded for, or, when none can, why not. Both are nil when the
// agents load different versions: the name is then ambiguous.
func (v *View) sameServer(found []match, d trust.Decision) (picked []match, why []string) {
	if !v.oneVersion(found) {
		return nil, nil
	}
	for _, m := range found {
		var p string
		if m.agentty != nil {
			p = decidable(*m.agentty, d)
		} else {
			p = clientDecidable(*m.client, d)
		}
		if p != "" {
			why = append(why, p)
		} else {
			picked = append(picked, m)
		}
	}
	return picked, why
}

// oneVersion reports whether the servers found are one version that
// several agents load (SameVersion, each with the first).
func (v *View) oneVersion(found []match) bool {
	if len(found) < 2 {
		return false
	}
	first := v.entry(found[0])
	for _, m := range found[1:] {
		if !SameVersion(first, v.entry(m)) {
			return false
		}
	}
	return true
}
