package policy

import (
	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Cline's repository plugins: a module of .cline/plugins runs at Cline's
// next task, without asking (observed on 3.0.65, docs/cline.md), and
// mcp-guard cannot review plugins yet (MG752).
func init() {
	declareContent(client.KindClinePlugin, contentRule{check: func(f File, _ Options) []trust.Finding { return checkClinePlugin(f) }})
}

func checkClinePlugin(f File) []trust.Finding {
	return []trust.Finding{trust.NewFinding("MG752", f.Path, fileStart, "", "",
		"Cline loads the modules of .cline/plugins at its next task, without asking: their code runs with your rights, and mcp-guard cannot review plugins yet")}
}
