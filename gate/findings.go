package gate

import (
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Findings are the findings about cs, one of cv's servers, the most
// severe first: what its config's parse says about it (MG3xx naming it:
// a duplicate key, a deceptive string, a field the agent ignores) and
// policy's rules on what its entry runs (MG1xx, MG2xx, MG4xx), located
// in its config as cs.Config names it. Every agent's servers get them
// from here, so that status and review show the danger scan shows.
func (cv *ClientView) Findings(cs ClientServer) []trust.Finding {
	if cs.Server == nil {
		return nil
	}
	for i, p := range cv.Eval.Configs {
		if p != cs.Path || i >= len(cv.Eval.Files) || cv.Eval.Files[i] == nil {
			continue
		}
		cfg := *cv.Eval.Files[i]
		var out []trust.Finding
		for _, f := range cfg.Findings {
			if f.Server == cs.Name {
				f.Path = cs.Config
				out = append(out, f)
			}
		}
		cfg.Path = cs.Config
		out = append(out, serverFindings(&cfg, cs.Server)...)
		policy.SortBySeverity(out)
		return out
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
