package gate

import (
	"context"

	"github.com/mcp-guard/mcp-guard/trust"
)

// Record is Decide for agentty's servers, by their gate verdicts: the
// tests' way of deciding about them.
func (v *View) Record(ctx context.Context, d trust.Decision, targets []trust.GateVerdict) ([]Outcome, error) {
	return v.record(ctx, d, targets, nil)
}

func (v *View) record(ctx context.Context, d trust.Decision, targets []trust.GateVerdict, inject func(step) error) ([]Outcome, error) {
	t := Targets{Clients: make([]ClientServer, len(targets))}
	for i := range targets {
		t.Clients[i] = v.agenttyServer(&targets[i])
	}
	return v.recordAll(ctx, d, t, inject)
}
