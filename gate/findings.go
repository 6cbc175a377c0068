package gate

import (
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Findings are policy's findings about cs, one of cv's servers: the rules
// on what its entry runs (MG1xx, MG2xx, MG4xx), located in its config as
// cs.Config names it, the most severe first. Every agent's servers get
// them, so that status and review show the danger scan shows.
func (cv *ClientView) Findings(cs ClientServer) []trust.Finding {
	if cs.Server == nil {
		return nil
	}
	for i, p := range cv.Eval.Configs {
		if p != cs.Path || i >= len(cv.Eval.Files) || cv.Eval.Files[i] == nil {
			continue
		}
		cfg := *cv.Eval.Files[i]
		cfg.Path = cs.Config
		return serverFindings(&cfg, cs.Server)
	}
	return nil
}

// ServerFindings are the Findings of every server of every agent in cvs,
// the most severe first.
func ServerFindings(cvs []*ClientView) []trust.Finding {
	var out []trust.Finding
	for _, cv := range cvs {
		for _, cs := range cv.Servers {
			out = append(out, cv.Findings(cs)...)
		}
	}
	policy.SortBySeverity(out)
	return out
}
