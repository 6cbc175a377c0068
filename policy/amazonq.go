package policy

import (
	"fmt"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Amazon Q Developer's repository-side switches (modelled from its
// documentation, docs/amazon-q.md): a workspace agent's `allowedTools`
// (MG735 for a whole server's tools or one that acts, MG740 for tools that
// read) and the `toolsSettings` that widen what a built-in tool does
// without prompting (MG735), and its `hooks`, commands run on the agent's
// events (MG736). The files are strict JSON.
func init() {
	declareContent(client.KindAmazonQAgent, contentRule{check: func(f File, _ Options) []trust.Finding { return checkAmazonQAgent(f) }})
}

// amazonqWidening are the toolsSettings keys that let a built-in tool act
// without prompting (execute_bash's allowedCommands and
// autoAllowReadonly, fs_read's and fs_write's allowedPaths, use_aws's
// allowedServices).
var amazonqWidening = []string{"allowedCommands", "allowedPaths", "allowedServices", "autoAllowReadonly"}

func checkAmazonQAgent(f File) []trust.Finding {
	root, err := clientTree(client.AmazonQFile, f.Data)
	if err != nil {
		return unparsedMention(f, err, "Amazon Q Developer", `"allowedTools"`, `"hooks"`, `"mcpServers"`)
	}
	var out []trust.Finding
	if a, ok := root.get("allowedTools"); ok && a.val.kind == 'a' {
		if what, acts := toolNames(a.val); what != "" {
			rule := "MG740"
			if acts || amazonqWholeServer(a.val) {
				rule = "MG735"
			}
			out = append(out, trust.NewFinding(rule, f.Path, a.keyPos, "", "allowedTools",
				fmt.Sprintf("allowedTools: Amazon Q Developer runs %s without prompting in a chat with this workspace agent", what)))
		}
	}
	if ts, ok := root.get("toolsSettings"); ok && ts.val.kind == 'o' {
		for _, t := range ts.val.resolved() {
			for _, k := range amazonqWidening {
				if v, ok := t.val.get(k); ok && !(v.val.kind == 'b' && v.val.str == "false") && !(v.val.kind == 'a' && len(v.val.elems) == 0) {
					rule := "MG735"
					if k == "autoAllowReadonly" {
						rule = "MG740"
					}
					out = append(out, trust.NewFinding(rule, f.Path, v.keyPos, "", "toolsSettings."+t.key+"."+k,
						fmt.Sprintf("toolsSettings.%s.%s: Amazon Q Developer lets %s act on what this lists without prompting, in a chat with this workspace agent", shortValue(t.key), k, quote(t.key))))
				}
			}
		}
	}
	return append(out, hookEntries(f, client.AmazonQ, "MG736", "Amazon Q Developer runs %d command(s) from this workspace agent's hooks without asking when a chat uses it: %s")...)
}

// amazonqWholeServer reports whether allowedTools names every tool of a
// server ("@git", not "@git/status").
func amazonqWholeServer(a *jnode) bool {
	for _, e := range a.elems {
		if e.kind == 's' && strings.HasPrefix(e.str, "@") && !strings.Contains(e.str, "/") {
			return true
		}
	}
	return false
}
