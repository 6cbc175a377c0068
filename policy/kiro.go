package policy

import (
	"fmt"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Kiro's repository-side switches (modelled from its documentation,
// docs/kiro.md): a workspace server's `autoApprove`, which runs the tools
// it names without confirmation (MG733 for every tool or one that acts,
// MG738 for tools that read), and the agent hooks of
// .kiro/hooks, whose shell commands Kiro runs on its events (MG734). Kiro
// reads JSON with comments, as the client model does.
func init() {
	declareContent(client.KindKiroMCP, contentRule{check: func(f File, _ Options) []trust.Finding { return checkKiroMCP(f) }})
	declareContent(client.KindKiroHook, contentRule{check: func(f File, _ Options) []trust.Finding { return checkKiroHook(f) }})
}

func checkKiroMCP(f File) []trust.Finding {
	root, err := clientTree(client.KiroFile, f.Data)
	if err != nil {
		return unparsedMention(f, err, "Kiro", `"autoApprove"`)
	}
	return toolLists(f, root, "mcpServers", "autoApprove", [2]string{"MG733", "MG738"},
		"mcpServers.%s.autoApprove: Kiro runs %s of this server without asking for confirmation, and the server itself starts without asking")
}

// toolLists is rules[0] for each server of root's serversKey whose listKey
// (an array of tool names) names every tool ("*") or one that acts
// (actingTool), rules[1] for one that names only tools that read; msg is
// formatted with the server's name and the tools.
func toolLists(f File, root *jnode, serversKey, listKey string, rules [2]string, msg string) []trust.Finding {
	servers, ok := root.get(serversKey)
	if !ok || servers.val.kind != 'o' {
		return nil
	}
	var out []trust.Finding
	for _, s := range servers.val.resolved() {
		l, ok := s.val.get(listKey)
		if !ok || l.val.kind != 'a' {
			continue
		}
		if what, acts := toolNames(l.val); what != "" {
			rule := rules[1]
			if acts {
				rule = rules[0]
			}
			out = append(out, trust.NewFinding(rule, f.Path, l.keyPos, s.key, serversKey+"."+s.key+"."+listKey, fmt.Sprintf(msg, shortValue(s.key), what)))
		}
	}
	return out
}

// toolNames says which tools an array of names holds ("every tool" for
// "*", else the names; "" when it holds none), and whether one of them
// acts: "*", or a name actingTool judges so.
func toolNames(a *jnode) (what string, acts bool) {
	var names []string
	for _, e := range a.elems {
		if e.kind != 's' || strings.TrimSpace(e.str) == "" {
			continue
		}
		if e.str == "*" {
			return "every tool", true
		}
		names = append(names, quote(e.str))
		acts = acts || actingTool(e.str)
	}
	if len(names) == 0 {
		return "", false
	}
	return "the tools " + listShown(names, 8), acts
}

// actingWords are the words of a tool's name that say it runs code or
// commands, or writes, deletes or installs: a repository that approves
// such a tool in advance lets a prompt injection do it with no one asked.
var actingWords = map[string]bool{
	"exec": true, "execute": true, "run": true, "shell": true, "bash": true, "cmd": true, "command": true,
	"terminal": true, "eval": true, "script": true, "sql": true, "cli": true, "write": true,
	"delete": true, "remove": true, "drop": true, "apply": true, "migration": true, "migrate": true,
	"install": true, "deploy": true, "push": true, "kill": true, "edit": true, "move": true, "rename": true,
	"upload": true, "create": true, "update": true, "insert": true, "commit": true, "merge": true,
}

// actingTool judges a tool by its name only (the server's code is what a
// review binds, not what a tool does): it acts when a word of its name
// (split at _, -, ., /, spaces and lower-to-upper case changes) is an
// acting word. A glob ("fs_*") may match one that does, so it acts.
func actingTool(name string) bool {
	if strings.ContainsAny(name, "*?") {
		return true
	}
	var words []string
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || strings.ContainsRune("_-./ @", rune(name[i])) ||
			name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z' {
			words = append(words, strings.ToLower(strings.Trim(name[start:i], "_-./ @")))
			start = i
		}
	}
	for _, w := range words {
		if actingWords[w] {
			return true
		}
	}
	return false
}

// checkKiroHook is MG734 for the shell commands of one hook file, as the
// client model reads them.
func checkKiroHook(f File) []trust.Finding {
	return hookEntries(f, client.Kiro, "MG734", "Kiro runs %d shell command(s) from this agent hook on its event, without asking: %s")
}

// hookEntries is rule for the hook entries client id reads from f.
func hookEntries(f File, id client.ID, rule, msg string) []trust.Finding {
	var cmds []string
	for _, s := range client.ParseFile(client.Lookup(id), f.Path, f.Data).Servers {
		if s.Kind == client.EntryHook && len(s.Args) == 2 {
			cmds = append(cmds, quote(s.Args[1].Str))
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	return []trust.Finding{trust.NewFinding(rule, f.Path, fileStart, "", "hooks", fmt.Sprintf(msg, len(cmds), listShown(cmds, 3)))}
}
