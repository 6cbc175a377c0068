package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/internal/nearname"
	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Targets are the servers one decision is about, across clients: one
// list, agentty's among them (ClientServer.Agentty set), as All lists them.
type Targets struct {
	Clients []ClientServer
}

// Len is how many servers t holds.
func (t Targets) Len() int { return len(t.Clients) }

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

// candidates are the servers a typed name may mean, of client id (""
// any client): every agent's, as Shown lists them (a configuration the
// user keeps among them, so that a decision about one of its servers is
// refused with the reason rather than as an unknown name).
func (v *View) candidates(id client.ID) []*ClientServer {
	var out []*ClientServer
	for _, cv := range v.Shown() {
		if id != "" && id != cv.Client {
			continue
		}
		for i := range cv.Servers {
			out = append(out, &cv.Servers[i])
		}
	}
	return out
}

// names are the names of the servers in client id ("" any client).
func (v *View) names(id client.ID) []string {
	var out []string
	for _, cs := range v.candidates(id) {
		out = append(out, cs.Name)
	}
	return out
}

// lookup finds name in client id ("" any client).
func (v *View) lookup(id client.ID, name string) []*ClientServer {
	var out []*ClientServer
	for _, cs := range v.candidates(id) {
		if cs.Name == name || cs.In != "" && cs.Unique() == name {
			out = append(out, cs)
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
	idle := false // a problem is only that its agent runs nothing of it here
	seen := map[string]bool{}
	if only != "" && client.Lookup(only) == nil {
		return t, refuse("the clients are "+strings.Join(client.IDs(), ", "), "no client %q", only)
	}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		var found []*ClientServer
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
					idle = idle || slices.ContainsFunc(found, func(cs *ClientServer) bool { return cs.runsNotHere(d) })
					continue
				}
				for _, cs := range picked {
					t.Clients = append(t.Clients, *cs)
				}
				continue
			}
			var ids []string
			for _, m := range found {
				ids = append(ids, string(m.ClientID()))
			}
			// The example is one that waits, when one does: the name the
			// user most likely means.
			example := found[len(found)-1]
			for _, m := range found {
				if m.Blocks {
					example = m
					break
				}
			}
			if one, files := oneClient(found); one {
				problems = append(problems, fmt.Sprintf("%q names an entry of more than one file of %s (%s): name one as NAME@FILE (e.g. %s)", name, v.titleOf(example.ClientID()), strings.Join(files, ", "), textsafe.ShellWord(example.Label())))
				continue
			}
			problems = append(problems, fmt.Sprintf("%q names a server of more than one client (%s): qualify it as CLIENT:NAME (e.g. %s) or pass --client", name, strings.Join(ids, ", "), textsafe.ShellWord(example.Label())))
			continue
		}
		// A plain name stays as typed (it names one server); a qualified
		// one is said as the client's own label (claude:db -> claude-code:db).
		shown := name
		if id, _ := SplitName(name); id != "" {
			shown = found[0].Label()
		}
		if p := found[0].refusal(shown, d); p != "" {
			problems = append(problems, p)
			idle = idle || found[0].runsNotHere(d)
			continue
		}
		t.Clients = append(t.Clients, *found[0])
	}
	if len(problems) > 0 {
		hint := "nothing was recorded; `mcp-guard check` lists what waits for review"
		if idle {
			// check lists nothing of it: say when it can be reviewed.
			hint = "nothing was recorded; a server is reviewed once its agent would run it here (`mcp-guard status` says why it does not now), and `mcp-guard review` then asks about it"
		}
		return Targets{}, refuse(hint, "cannot review: %s", strings.Join(problems, "; "))
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

// oneClient reports whether every server of found is one agent's, and
// the configs they are in.
func oneClient(found []*ClientServer) (bool, []string) {
	var files []string
	for _, m := range found {
		if m.ClientID() != found[0].ClientID() {
			return false, nil
		}
		files = append(files, m.Config)
	}
	return true, files
}

// refusal says why decision d cannot be recorded for cs, called name
// there ("" when it can): one rule for every agent's server, agentty's
// among them, each in its own client's words (ServerVerdict.Why).
func (cs ClientServer) refusal(name string, d trust.Decision) string {
	s := cs.Server
	switch {
	case cs.Key.Server == "":
		return fmt.Sprintf("%q is in the user's own configuration: mcp-guard does not review it", name)
	case s == nil || (s.Command == "" && s.URL == ""):
		return fmt.Sprintf("%q has neither command nor url: nothing runs", name)
	case cs.runsNotHere(d):
		return fmt.Sprintf("%q: %s", name, cs.ServerVerdict.Why)
	case !validDeep(cs.Deep):
		return fmt.Sprintf("%q: mcp-guard could not fingerprint what it runs (%s)", name, cs.CannotReview())
	}
	return ""
}

// runsNotHere: approving cs is refused only because its agent runs
// nothing of it here now (a folder it does not trust yet, a disabled
// entry): a review of it waits until the agent would run it.
func (cs ClientServer) runsNotHere(d trust.Decision) bool {
	s := cs.Server
	return d == trust.DecisionApproved && !cs.Runs && cs.Key.Server != "" && s != nil && (s.Command != "" || s.URL != "")
}

// CannotReview says why neither approve nor decline can be recorded for
// cs as it is (mcp-guard could not fingerprint what it runs: NoDeep's
// words, which say what to change); "" when one can. A review that goes
// through what waits leaves such an entry out and says so, rather than
// asking about it or failing on it.
func (cs ClientServer) CannotReview() string {
	if validDeep(cs.Deep) {
		return ""
	}
	if cs.NoDeep != "" {
		return cs.NoDeep
	}
	return "no deep fingerprint"
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
	if cv := v.ClientOf(cs.ClientID()); cv != nil {
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

// sameServer is what a name that several agents load means when every one
// of them loads the same version of it (SameVersion): each that decision
// d can be recorded for, or, when none can, why not. Both are nil when the
// agents load different versions: the name is then ambiguous.
func (v *View) sameServer(found []*ClientServer, d trust.Decision) (picked []*ClientServer, why []string) {
	if !oneVersion(found) {
		return nil, nil
	}
	for _, cs := range found {
		if p := cs.refusal(cs.Label(), d); p != "" {
			why = append(why, p)
		} else {
			picked = append(picked, cs)
		}
	}
	return picked, why
}

// oneVersion reports whether the servers found are one version that
// several agents load (SameVersion, each with the first).
func oneVersion(found []*ClientServer) bool {
	if len(found) < 2 {
		return false
	}
	for _, cs := range found[1:] {
		if !SameVersion(*found[0], *cs) {
			return false
		}
	}
	return true
}
