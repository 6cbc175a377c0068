package client

import (
	"context"

	"github.com/mcp-guard/mcp-guard/trust"
)

// StoreKeeper is a client whose own approvals store mcp-guard writes when
// the user decides: agentty's content-hash store
// (~/.agentty/mcp_approvals.json), where agentty looks up each server's
// fingerprint before it runs it. Where such a client differs from the
// others is a method of it (agentty's live in agentty.go), so the gate
// asks the registry (Keeper) instead of naming the client: the gate
// evaluates its servers through trust's reproduction of its rules
// (trust.Inspect, trust.Gate), writes a decision to its store in the
// order that fails safe, a revoke removes fingerprints from it, and
// project grades a change against it (trust.Diff).
type StoreKeeper interface {
	Client
	// Inspected is the client's state here as trust's reading of its
	// configuration in says it (the gate's one read: in names the store,
	// the configuration and its grants); Revoke takes it.
	Inspected(in *trust.Inspection) *State
	// CheckStore says why the store at path cannot take a decision (it
	// does not parse the way the client reads it; mcp-guard never
	// rewrites such a store); nil when it can.
	CheckStore(path string) error
	// Grants is what the client consults before it runs a project server
	// without asking (its store's approvals, the settings that trust every
	// project server), read from the user's home and environment as State
	// reads them: what project grades a change against (trust.Diff) on
	// the hook's and diff's path. err says why the store approves nothing
	// (trust.ErrNoHome when there is no home to find it in).
	Grants(env Env) (g trust.Grants, err error)
	// WriteStore records decision d for fingerprints in the store at path,
	// under its lock: an approval adds each, a decline removes it.
	// changed says, per fingerprint, whether the store changed for it.
	WriteStore(ctx context.Context, path string, d trust.Decision, fingerprints []string) (changed map[string]bool, err error)
	// Revoke takes back the client's own approvals in its store (st is
	// its state here, which names the store and the configuration), under
	// the store's lock: every fingerprint of each server (one list per
	// server: the versions a revoke covers) and, with whole, its approval
	// of the configuration as a whole (agentty's legacy whole-file
	// approval). mcp-guard's ledger keeps its reviews: the client asks
	// again before running what left its store.
	Revoke(ctx context.Context, st *State, servers [][]string, whole bool) (StoreRevocation, error)
	// StillRuns reports whether the client still runs a server whose
	// verdict before a decline was gv once its fingerprint has left the
	// store (started directly, not through `mcp-guard launch`).
	StillRuns(gv trust.Verdict) bool
	// Words are trust's verdict v of one of its servers in the client's
	// words, and the file or setting that decided it ("" when none did).
	Words(v trust.Verdict) (why, source string)
	// Waits is why its server with gate verdict gv waits for review, and
	// what the client does with it meanwhile, in the client's words.
	Waits(gv trust.GateVerdict) string
	// Recorded is what decision d did in the client's own store and to
	// what the client runs when started directly, in its words, for a
	// server whose verdict before the decision was v: changed says
	// whether the store changed for it, stillRuns (a decline) whether the
	// client still runs it (StillRuns). "" when there is nothing to say
	// beyond the review itself.
	Recorded(d trust.Decision, v trust.Verdict, changed, stillRuns bool) string
}

// StoreRevocation is what StoreKeeper.Revoke did in a client's store.
type StoreRevocation struct {
	// Changed says, per server, whether the store lost one of its
	// fingerprints.
	Changed []bool
	// WholeOf is the configuration whose approval as a whole was asked to
	// go ("" when none was); WholeChanged: there was one, and it is gone.
	WholeOf      string
	WholeChanged bool
	// Still is what the client still runs without asking after the
	// revoke, in its words, with the command that stops it ("" when
	// nothing): its approval of the whole configuration, not asked to go.
	Still string
}

// Keeper is the registry's client that keeps a store mcp-guard writes
// (StoreKeeper): agentty, the client whose rules package trust
// reproduces.
func Keeper() StoreKeeper {
	for _, c := range clients {
		if k, ok := c.(StoreKeeper); ok {
			return k
		}
	}
	panic("client: no client in the registry keeps a store mcp-guard writes")
}
