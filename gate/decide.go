package gate

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

func validDeep(d string) bool {
	if len(d) != 64 || strings.ToLower(d) != d {
		return false
	}
	_, err := hex.DecodeString(d)
	return err == nil
}

// Outcome is what Decide did for one server of any agent: Entry is the
// server (Entry.Agentty set for agentty's, whose verdict GateVerdict
// then is), Title and Command its agent's name and the command launch
// starts it with ("" for an editor).
type Outcome struct {
	trust.GateVerdict
	// Entry is the target decided (one of Targets.Clients, shared: an
	// outcome of 100,000 held its own copy of each).
	Entry          *ClientServer
	Title, Command string
	Decision       trust.Decision
	// Changed: agentty's store changed for it (its fingerprint added on
	// approve, removed on decline).
	Changed bool
	// StillRuns: declined, yet its agent runs it when started directly:
	// agentty when its grant is not the fingerprint the decline removed
	// (an http server, which agentty never gates, or a blanket grant),
	// another agent when it runs the entry without asking
	// (ClientServer.Runs). Whether that keeps a launch from starting is
	// Blocks.
	StillRuns bool
	// Note is what the decision did in the agent's own files and to what
	// it runs when started directly, in its words (a client that keeps a
	// store mcp-guard writes: client.StoreKeeper.Recorded); "" when
	// mcp-guard writes none of its files.
	Note string
	// Findings are the high and critical findings on what an approval
	// let run, said beside it.
	Findings []trust.Finding
	// Covers, on the first outcome of a decision that covered one server
	// version several agents run (SameVersion), names those agents in
	// order (its own first); the outcomes of the others follow it.
	Covers []string
}

// Writes, between which a failure can be injected in tests.
type step string

const (
	stepStore  step = "store"
	stepLedger step = "ledger"
)

// Decide records decision d for servers of every client in mcp-guard's
// ledger (the reviewed version: entry, code scope, deep fingerprint,
// HEAD), and for those of the client that keeps a store mcp-guard writes
// (client.Keeper: agentty) in that store too (approve adds the
// fingerprint of each gated server, decline removes it); mcp-guard writes
// nothing in any other client's own files: `mcp-guard launch` hands them
// the reviewed servers. Everything is validated before anything is
// written, the ledger gets every review in one write, and the two writes
// go in the order that fails safe: an approval reaches the ledger first
// (a failure before agentty's store leaves agentty asking the user), a
// decline reaches agentty's store first (a failure before the ledger
// leaves the server waiting for review, never running behind a decline).
func (v *View) Decide(ctx context.Context, d trust.Decision, t Targets) ([]Outcome, error) {
	return v.recordAll(ctx, d, t, nil)
}

func (v *View) recordAll(ctx context.Context, d trust.Decision, t Targets, inject func(step) error) ([]Outcome, error) {
	// One path for every agent's server: validated, reviewed in the
	// ledger; the servers of the client that keeps a store mcp-guard
	// writes (client.Keeper: agentty) also in its store, first or last as
	// below. stored are their verdicts.
	var keeper client.StoreKeeper
	var storeView *ClientView
	var stored []trust.GateVerdict
	views := v.byClient()
	for _, cs := range t.Clients {
		cv := views[cs.ClientID()]
		if cv != nil && cv.Ungated {
			cv = nil // the gate writes nothing for it (refused below)
		}
		if k := keeperOf(cv); k != nil && cs.Agentty != nil {
			keeper, storeView = k, cv
			stored = append(stored, *cs.Agentty)
		}
	}
	if d != trust.DecisionApproved && d != trust.DecisionDeclined {
		return nil, fmt.Errorf("decision %q: not one mcp-guard records", d)
	}
	if len(stored) > 0 || len(stored) == len(t.Clients) {
		if err := v.Reviewable(); err != nil {
			return nil, err
		}
	}
	switch err := v.Ledger.Err; {
	case errors.Is(err, trust.ErrNoHome):
		// The ledger warning already said why; say what to do.
		return nil, fail("set HOME (or MCP_GUARD_HOME), then review again", errors.New("nothing was recorded: mcp-guard has nowhere to keep reviews"))
	case err != nil:
		return nil, fail("nothing was recorded; "+v.ledgerFix(true), err)
	}
	if v.Ledger.Newer {
		return nil, fail("use the newer mcp-guard that wrote it", fmt.Errorf("%s was written by a newer mcp-guard: nothing was recorded", v.Ledger.Path))
	}
	var problems []string
	for _, cs := range t.Clients {
		if p := cs.refusal(cs.Label(), d); p != "" {
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return nil, refuse("nothing was recorded; `mcp-guard check` lists what waits for review", "cannot review: %s", strings.Join(problems, "; "))
	}
	reviews := make([]trust.Review, 0, len(t.Clients))
	for _, cs := range t.Clients {
		r := cs.review(d, v.clientHead(cs))
		if err := r.Validate(); err != nil {
			return nil, refuse("nothing was recorded", "cannot review %q: %v", cs.Label(), err)
		}
		reviews = append(reviews, r)
	}

	storeErr := func(err error) error { return storeFailure(storeView, err) }
	// The store must be writable as agentty reads it before either write.
	if needsStore(stored) {
		if err := keeper.CheckStore(storeView.Store); err != nil {
			return nil, storeErr(err) // nothing was recorded
		}
	}
	var changed map[string]bool
	writeStore := func() error {
		var hashes []string
		for _, gv := range stored {
			if gv.Server.Gated && gv.Server.Fingerprint != "" {
				hashes = append(hashes, gv.Server.Fingerprint)
			}
		}
		if len(hashes) == 0 {
			return nil
		}
		if inject != nil {
			if err := inject(stepStore); err != nil {
				return err
			}
		}
		var err error
		changed, err = keeper.WriteStore(ctx, storeView.Store, d, hashes)
		return err
	}
	writeLedger := func() error {
		if inject != nil {
			if err := inject(stepLedger); err != nil {
				return err
			}
		}
		return trust.UpdateLedger(ctx, v.LedgerDir, func(ed *trust.LedgerEdit) error {
			ed.Path = v.Top
			if ed.Path == "" {
				ed.Path = v.Dir
			}
			for _, r := range reviews {
				if err := ed.Record(r); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if d == trust.DecisionApproved {
		if err := writeLedger(); err != nil {
			return nil, fail("nothing was recorded; "+v.writeFix(err), fmt.Errorf("recording the review: %w", err))
		}
		if err := writeStore(); err != nil {
			return nil, withNote(storeErr(err), "the review is recorded, but "+storeView.Title+"'s store was not changed: "+storeView.Title+" will ask before running it; approve again once the store is fixed")
		}
	} else {
		if err := writeStore(); err != nil {
			return nil, withNote(storeErr(err), "nothing was recorded")
		}
		if err := writeLedger(); err != nil {
			hint := "nothing was recorded; "
			if slices.Contains(slices.Collect(maps.Values(changed)), true) {
				hint = storeView.Title + "'s store no longer approves it, but mcp-guard's ledger does not record the decline; "
			}
			return nil, fail(hint+v.writeFix(err), fmt.Errorf("recording the review: %w", err))
		}
	}
	out := make([]Outcome, len(t.Clients))
	for i := range t.Clients {
		cs := &t.Clients[i]
		o := &out[i]
		*o = Outcome{Entry: cs, Decision: d}
		if cv := views[cs.ClientID()]; cv != nil {
			o.Title, o.Command = cv.Title, cv.Command
		}
		if gv := cs.Agentty; gv != nil && keeper != nil && cs.ClientID() == keeper.ID() {
			o.GateVerdict, o.Changed = *gv, changed[gv.Server.Fingerprint]
			if d == trust.DecisionDeclined {
				// After the decline, agentty still runs it when its grant
				// is not the fingerprint just removed.
				o.StillRuns = keeper.StillRuns(gv.Verdict)
			}
			o.Note = keeper.Recorded(d, gv.Verdict, o.Changed, o.StillRuns)
		} else if d == trust.DecisionDeclined {
			o.StillRuns = cs.Runs
		}
	}
	if d == trust.DecisionApproved {
		for i := range out {
			out[i].Findings = v.severeFindings(*out[i].Entry)
		}
	}
	return oneDecisionOrder(out), nil
}

// Blocks reports whether the entry decided still keeps a launch from
// starting (ClientView.Blocking's rule, vetted as there): a declined
// entry its agent runs all the same that the launch cannot leave out.
// An approval never does.
func (o Outcome) Blocks(vetted bool) bool {
	return o.Decision == trust.DecisionDeclined && o.StillRuns && !o.Entry.LeftOut(vetted)
}

// oneDecisionOrder puts the outcomes of one server version several agents
// run (OneDecision) together, the first naming the agents it covered.
func oneDecisionOrder(out []Outcome) []Outcome {
	sets := OneDecisionOf(len(out), func(i int) *ClientServer { return out[i].Entry })
	if len(sets) == len(out) {
		return out
	}
	ordered := make([]Outcome, 0, len(out))
	for _, set := range sets {
		first := len(ordered)
		for _, i := range set {
			ordered = append(ordered, out[i])
		}
		if len(set) > 1 {
			for _, i := range set {
				ordered[first].Covers = append(ordered[first].Covers, out[i].Title)
			}
		}
	}
	return ordered
}

// severeFindings are the high and critical Findings on cs, a server of
// one of the agents here.
func (v *View) severeFindings(cs ClientServer) []trust.Finding {
	cv := v.ClientOf(cs.ClientID())
	if cv == nil {
		return nil
	}
	var out []trust.Finding
	for _, f := range cv.Findings(cs) {
		if severe([]trust.Finding{f}) {
			out = append(out, f)
		}
	}
	return out
}

// needsStore reports whether a decision about targets writes agentty's
// store (some target is gated).
func needsStore(targets []trust.GateVerdict) bool {
	for _, gv := range targets {
		if gv.Server.Gated && gv.Server.Fingerprint != "" {
			return true
		}
	}
	return false
}

// withNote puts note in front of a failure's hint.
func withNote(err error, note string) error {
	var f *Failure
	if errors.As(err, &f) {
		if f.Hint == "" {
			f.Hint = note
		} else {
			f.Hint = note + "; " + f.Hint
		}
		return f
	}
	return fail(note, err)
}

// storeFailure is err, a failure to read or write the approvals store
// of cv's client (client.StoreKeeper), with what resolves it.
func storeFailure(cv *ClientView, err error) error {
	switch {
	case errors.Is(err, trust.ErrApprovalsInvalid):
		return fail("mcp-guard never rewrites a store it cannot read; fix or move "+cv.Store+" ("+cv.Title+" approves nothing while it is invalid)", err)
	case errors.Is(err, trust.ErrNoHome):
		return fail("set HOME", err)
	}
	return fail("", err)
}

// writeFix is what resolves err, the ledger's write failing.
func (v *View) writeFix(err error) string {
	if errors.Is(err, trust.ErrTooLarge) {
		return "the review ledger holds at most 16 MiB of reviews (about 30,000 small servers): decide about fewer servers, or `mcp-guard revoke` what is no longer used"
	}
	return v.ledgerFix(false)
}

// ledgerFix says how to make mcp-guard's ledger usable again: name its
// file, and MCP_GUARD_HOME for a HOME that cannot be written; unreadable
// when the ledger could not be read (its warning says why), else it could
// not be written.
func (v *View) ledgerFix(unreadable bool) string {
	file := v.Ledger.Path
	if file == "" {
		file = filepath.Join(v.LedgerDir, trust.LedgerFileName)
	}
	fix := "make " + file + " and its directory writable"
	if unreadable {
		fix = "repair " + file + " or move it aside"
	}
	return fmt.Sprintf("%s, or set %s to a writable directory, then review again", fix, trust.LedgerHomeEnv)
}
