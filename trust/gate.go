package trust

// This file is mcp-guard's launch gate: which servers of the launch
// directory's configuration keep the agent from starting until the user
// has reviewed them. agentty's own gate (Evaluate) asks only about gated
// servers whose fingerprint is not approved; mcp-guard's asks about every
// server agentty would run or ask to run whose current deep fingerprint the
// user has not reviewed, which catches what agentty's approvals miss.

// GateReason says why a server blocks.
type GateReason string

const (
	// GateNew: never reviewed, and agentty will ask about it (new, or its
	// approval was invalidated).
	GateNew GateReason = "new"
	// GateChanged: reviewed once, changed since (entry or files).
	GateChanged GateReason = "changed"
	// GateApprovedUnreviewed: agentty runs it on an approval given before
	// mcp-guard reviewed it (`hooks install --adopt` accepts those).
	GateApprovedUnreviewed GateReason = "approved-unreviewed"
	// GateBlanket: agentty runs it on a blanket grant (the env switch or a
	// whole-file approval), unreviewed.
	GateBlanket GateReason = "blanket"
	// GateUngated: an http/sse entry agentty connects without asking,
	// unreviewed.
	GateUngated GateReason = "ungated"
	// GateDeclinedRuns: the user declined it, yet agentty would still run
	// it (a blanket grant or an ungated entry): only removing the grant or
	// the entry stops it.
	GateDeclinedRuns GateReason = "declined-but-runs"
)

// GateVerdict is one server as the gate sees it.
type GateVerdict struct {
	Verdict
	// Key is the server's ledger key; Deep its current deep fingerprint.
	Key  ReviewKey
	Deep string
	// State is mcp-guard's review state; empty for servers the gate never
	// asks about (user and explicit configurations).
	State ReviewState
	// Last is the latest decision about the server, nil when there is none.
	Last *Review
	// Blocks reports whether the agent may not start until it is reviewed;
	// Why says why ("" when it does not block).
	Blocks bool
	Why    GateReason
	// RenamedFrom is the name under which the user approved this very
	// version (a rename that changed nothing that runs); "" otherwise.
	RenamedFrom string
}

// Gate evaluates mcp-guard's gate for a configuration.
type Gate struct {
	// Ledger holds the user's reviews; an unusable ledger reviews nothing,
	// so everything that would run blocks.
	Ledger *Ledger
	// Repo is the repository identity (RepoIdentity); Config the
	// configuration's path relative to the repository root.
	Repo, Config string
}

// Evaluate decides, for each of agentty's verdicts (see Evaluate), whether
// the server blocks the launch. deep returns a server's current deep
// fingerprint.
//
// A server blocks when agentty would run it or ask to run it (not
// disabled; a project entry with a command, or an http/sse url) and the
// user has not approved its current deep fingerprint in the ledger; a
// declined one stops blocking unless agentty would run it anyway. Servers
// of the user's own or $AGENTTY_MCP_CONFIG's configuration never block:
// no repository put them there.
func (g Gate) Evaluate(verdicts []Verdict, deep func(*Server) string) []GateVerdict {
	out := make([]GateVerdict, 0, len(verdicts))
	for _, v := range verdicts {
		gv := GateVerdict{Verdict: v}
		switch v.Reason {
		case ReasonUser, ReasonExplicit:
			out = append(out, gv)
			continue
		}
		gv.Key = ReviewKey{Repo: g.Repo, Config: g.Config, Server: v.Server.Name}
		gv.Deep = deep(v.Server)
		gv.State, gv.Last = g.Ledger.State(gv.Key, gv.Deep)
		if gv.State == StateUnreviewed && gv.Last == nil {
			if r := g.Ledger.Renamed(gv.Key, gv.Deep); r != nil {
				gv.State, gv.RenamedFrom = StateReviewed, r.Server
			}
		}
		runs := v.Reason != ReasonDisabled && (v.Server.Command != "" || v.Server.URL != "")
		switch {
		case !runs, gv.State == StateReviewed:
		case gv.State == StateDeclined:
			if v.Trusted {
				gv.Blocks, gv.Why = true, GateDeclinedRuns
			}
		case gv.Last != nil:
			gv.Blocks, gv.Why = true, GateChanged
		case v.Reason == ReasonApproved:
			gv.Blocks, gv.Why = true, GateApprovedUnreviewed
		case v.Reason == ReasonEnv, v.Reason == ReasonWholeFile:
			gv.Blocks, gv.Why = true, GateBlanket
		case v.Reason == ReasonUngated:
			gv.Blocks, gv.Why = true, GateUngated
		default:
			gv.Blocks, gv.Why = true, GateNew
		}
		out = append(out, gv)
	}
	return out
}

// Blocking returns the verdicts that block, in order.
func Blocking(vs []GateVerdict) []GateVerdict {
	var out []GateVerdict
	for _, v := range vs {
		if v.Blocks {
			out = append(out, v)
		}
	}
	return out
}
