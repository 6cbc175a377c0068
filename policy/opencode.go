package policy

import (
	"fmt"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// OpenCode's repository-side switches (observed on OpenCode 1.18.33,
// docs/opencode.md): a plugin, which OpenCode imports at start without
// asking (MG722: a file of .opencode/plugin(s)/, or a config's `plugin`
// list), and a `permission` of "allow", which runs tool calls without
// asking over the user's own setting (MG723). The config is JSON with
// comments and trailing commas.
func init() {
	declareContent(client.KindOpenCodeConfig, contentRule{check: func(f File, _ Options) []trust.Finding { return checkOpenCodeConfig(f) }})
	declareContent(client.KindOpenCodePlugin, contentRule{check: func(f File, _ Options) []trust.Finding { return checkOpenCodePlugin(f) }})
}

// checkOpenCodePlugin is MG722 for one plugin file.
func checkOpenCodePlugin(f File) []trust.Finding {
	return []trust.Finding{trust.NewFinding("MG722", f.Path, fileStart, "", "",
		"OpenCode imports this plugin when it starts in the checkout, without asking: its code runs with your rights, and mcp-guard cannot review plugins yet")}
}

// checkOpenCodeConfig reports a config's plugin list (MG722) and the
// permissions it sets to allow (MG723).
func checkOpenCodeConfig(f File) []trust.Finding {
	root, err := clientTree(client.OpenCodeConfig, f.Data)
	if err != nil {
		return unparsedMention(f, err, "OpenCode", `"mcp"`, `"plugin"`, `"permission"`)
	}
	var out []trust.Finding
	if m, ok := root.get("plugin"); ok && !(m.val.kind == 'a' && len(m.val.elems) == 0) {
		var names []string
		for _, e := range m.val.elems {
			if e.kind == 's' {
				names = append(names, quote(e.str))
			}
		}
		what := "this plugin list"
		if len(names) > 0 {
			what = "the plugins " + listShown(names, 8)
		}
		out = append(out, trust.NewFinding("MG722", f.Path, m.keyPos, "", "plugin",
			fmt.Sprintf("OpenCode imports %s when it starts in the checkout, without asking (npm packages are installed first): their code runs with your rights, and mcp-guard cannot review plugins yet", what)))
	}
	out = append(out, opencodePermission(f, root, "permission")...)
	if agents, ok := root.get("agent"); ok && agents.val.kind == 'o' {
		for _, a := range agents.val.resolved() {
			out = append(out, opencodePermission(f, a.val, "agent."+a.key+".permission")...)
		}
	}
	return out
}

// opencodePermission is MG723 for each permission of n set to "allow".
func opencodePermission(f File, n *jnode, key string) []trust.Finding {
	m, ok := n.get("permission")
	if !ok {
		return nil
	}
	finding := func(pos trust.Pos, k, what string) trust.Finding {
		return trust.NewFinding("MG723", f.Path, pos, "", k,
			fmt.Sprintf("%s: \"allow\" in the repository: OpenCode runs %s without asking, over your own config's setting", shortValue(k), what))
	}
	switch m.val.kind {
	case 's':
		if m.val.str == "allow" {
			return []trust.Finding{finding(m.keyPos, key, "every tool call")}
		}
	case 'o':
		var out []trust.Finding
		for _, p := range m.val.resolved() {
			allows := p.val.kind == 's' && p.val.str == "allow"
			if p.val.kind == 'o' {
				for _, q := range p.val.resolved() {
					allows = allows || q.val.kind == 's' && q.val.str == "allow"
				}
			}
			if allows {
				out = append(out, finding(p.keyPos, key+"."+p.key, quote(p.key)+" calls"))
			}
		}
		return out
	}
	return nil
}
