package policy

import (
	"strconv"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Cline's repository plugins: a module of .cline/plugins runs at Cline's
// next task, without asking (observed on 3.0.65, docs/cline.md): MG752
// for each plugin, and for each file of a plugin package.
func init() {
	declareContent(client.KindClinePlugin, contentRule{check: func(f File, _ Options) []trust.Finding { return checkClinePlugin(f) }})
}

func checkClinePlugin(f File) []trust.Finding {
	name, entry, ok := client.ClinePlugin(f.Path)
	if !ok {
		return nil
	}
	what := "Cline loads the plugin " + strconv.Quote(name) + " of .cline/plugins at its next task, without asking: its code runs with your rights"
	if !entry {
		// Each file of a package: a change of any of them is named.
		what = "code of the plugin package " + strconv.Quote(name) + ", which Cline loads from .cline/plugins at its next task, without asking: it runs with your rights"
	}
	return []trust.Finding{trust.NewFinding("MG752", f.Path, fileStart, "", "", what+"; review it before Cline runs (mcp-guard review)")}
}
