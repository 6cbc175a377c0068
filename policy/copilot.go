package policy

import (
	"fmt"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Copilot CLI's repository-side switches (observed on 1.0.102,
// docs/copilot-cli.md). A repository cannot allow tools for Copilot CLI
// (`copilot config --repo` refuses every permission setting), but in a
// trusted folder it runs the repository's hooks without asking (MG725: the
// commands of a file of .github/hooks/, or of `hooks` in
// .github/copilot/settings*.json, each an entry the client model reads and
// the server rules check) and loads the hooks of the directories
// `hookDirectories` names and the plugins the settings enable, with their
// servers and hooks (MG726: `hookDirectories`, `enabledPlugins`,
// `extraKnownMarketplaces`, which mcp-guard cannot see into). The
// settings are JSON with comments.
func init() {
	declareContent(client.KindCopilotHooks, contentRule{check: func(f File, _ Options) []trust.Finding { return checkCopilotHooks(f) }})
	declareContent(client.KindCopilotSettings, contentRule{check: func(f File, _ Options) []trust.Finding { return checkCopilotSettings(f) }})
}

// copilotHookFinding is MG725 for the hook entries of one file, as the
// client model reads them, at the first one's position; nil when none.
func copilotHookFinding(f File, key string) []trust.Finding {
	var cmds []*trust.Server
	for _, s := range client.ParseFile(client.Lookup(client.CopilotCLI), f.Path, f.Data).Servers {
		if s.Kind == client.EntryHook {
			cmds = append(cmds, s)
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	return []trust.Finding{trust.NewFinding("MG725", f.Path, cmds[0].NamePos, "", key,
		fmt.Sprintf("hooks: Copilot CLI runs %d shell command(s) on its events without asking once the folder is trusted: %s",
			len(cmds), shownLines(cmds)))}
}

// checkCopilotHooks is MG725 for one hook file.
func checkCopilotHooks(f File) []trust.Finding {
	return copilotHookFinding(f, "hooks")
}

// checkCopilotSettings is MG725 for the settings' hooks and MG726 for the
// hook directories and plugins they name.
func checkCopilotSettings(f File) []trust.Finding {
	root, err := clientTree(client.CopilotSettings, f.Data)
	if err != nil {
		return unparsedMention(f, err, "Copilot CLI", `"hooks"`, `"hookDirectories"`, `"enabledPlugins"`, `"extraKnownMarketplaces"`)
	}
	out := copilotHookFinding(f, "hooks")
	for _, k := range []struct{ key, what string }{
		{"hookDirectories", "Copilot CLI runs the hooks of these directories without asking once the folder is trusted, and mcp-guard cannot review them"},
		{"enabledPlugins", "Copilot CLI loads these plugins, with their MCP servers and hooks, once the folder is trusted, and mcp-guard cannot review them"},
		{"extraKnownMarketplaces", "Copilot CLI installs plugins from these marketplaces for the repository's enabledPlugins, and mcp-guard cannot review them"},
	} {
		m, ok := root.get(k.key)
		if !ok || copilotEmpty(m.val) {
			continue
		}
		out = append(out, trust.NewFinding("MG726", f.Path, m.keyPos, "", k.key, k.key+": "+k.what))
	}
	return out
}

// copilotEmpty is true for null, false, "" and an empty list or object.
func copilotEmpty(n *jnode) bool {
	switch n.kind {
	case 'z':
		return true
	case 'b':
		return n.str != "true"
	case 's':
		return n.str == ""
	case 'a':
		return len(n.elems) == 0
	case 'o':
		return len(n.members) == 0
	}
	return false
}
