package policy

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Claude Code's project settings (.claude/settings.json and
// .claude/settings.local.json) in a repository: MG701-MG704, MG707,
// MG745-MG747.
//
// They are read once, by the client model (client.ClaudeSettings: trust's
// reader in Claude Code's dialect, the positioned tree its Parse reads
// too): strict JSON as JSON.parse reads it in Claude Code (a comment,
// a trailing comma or text after the value fails), duplicate keys with
// the last one winning, the line:column of every key for SARIF.

// claudeCommandKeys are the top-level settings Claude Code runs with
// /bin/sh; claudeCommandObjects hold a command of type "command". The
// client model declares them: each is an entry it reviews, whose command
// the server rules check (CheckServers).
var (
	claudeCommandKeys    = client.ClaudeHelperKeys()
	claudeCommandObjects = client.ClaudeCommandObjects()
)

// claudeMentions are the keys whose presence in a file mcp-guard cannot
// parse makes it say so (MG707).
var claudeMentions = append([]string{"enableAllProjectMcpServers", "enabledMcpjsonServers", "hooks", "env"},
	append(append([]string(nil), claudeCommandKeys...), claudeCommandObjects...)...)

func init() {
	declareContent(client.KindClaudeSettings, contentRule{check: func(f File, _ Options) []trust.Finding { return checkClaudeSettings(f) }, mg707: true})
	// The settings' env entry: MG704 and MG745 grade its variables where
	// the file sets them.
	declareEnvEntry(trust.ClaudeCode, client.EntryEnv)
}

// checkClaudeSettings reports what a repository's Claude Code settings
// file makes Claude Code run or approve.
func checkClaudeSettings(f File) []trust.Finding {
	root, err := client.ClaudeSettings(f.Data)
	if err != nil {
		for _, k := range claudeMentions {
			if bytes.Contains(f.Data, []byte(`"`+k+`"`)) {
				return []trust.Finding{trust.NewFinding("MG707", f.Path, fileStart, "", "",
					fmt.Sprintf("Claude Code settings mcp-guard cannot parse as JSON (%v) mention %q: Claude Code may read them differently", err, k))}
			}
		}
		return nil
	}
	if root.Kind() != "object" {
		return nil // Claude Code reads no settings from it
	}
	var out []trust.Finding
	out = append(out, claudeApprovals(f.Path, root)...)
	out = append(out, claudeHooks(f, root)...)
	out = append(out, claudeRemotePlugins(f)...)
	for _, k := range claudeCommandKeys {
		if s, ok := root.StringAt(k); ok && strings.TrimSpace(s) != "" {
			pos, _ := root.KeyPos(k)
			out = append(out, trust.NewFinding("MG703", f.Path, pos, "", k,
				fmt.Sprintf("%s: Claude Code runs %s with /bin/sh", k, quote(s))))
			out = append(out, shellRuleFindings(f.Path, k, pos, s)...)
		}
	}
	for _, k := range claudeCommandObjects {
		m, ok := root.Get(k)
		if !ok {
			continue
		}
		if t, ok := m.StringAt("type"); ok && t != "command" {
			continue
		}
		if c, ok := m.StringAt("command"); ok && strings.TrimSpace(c) != "" {
			pos, _ := m.KeyPos("command")
			out = append(out, trust.NewFinding("MG703", f.Path, pos, "", k+".command",
				fmt.Sprintf("%s.command: Claude Code runs %s as a shell command", k, quote(c))))
			out = append(out, shellRuleFindings(f.Path, k+".command", pos, c)...)
		}
	}
	out = append(out, claudeRisks(f.Path, root)...)
	if env, ok := root.Get("env"); ok && env.Kind() == "object" {
		for _, k := range env.Keys() {
			value, _ := env.StringAt(k)
			if sev, why, drop := envGrade(k, value); !drop {
				pos, _ := env.KeyPos(k)
				g := trust.NewFinding("MG704", f.Path, pos, "", "env."+k,
					fmt.Sprintf("env.%s: Claude Code sets it for every session and what it spawns; %s", shortValue(k), why))
				g.Severity = sev
				out = append(out, g)
			}
		}
	}
	return out
}

// isTrue reports whether v's member key is the boolean true.
func isTrue(v trust.Value, key string) bool {
	m, ok := v.Get(key)
	if !ok {
		return false
	}
	b, ok := m.Bool()
	return ok && b
}

// claudeApprovals is MG701: enableAllProjectMcpServers true, or names in
// enabledMcpjsonServers that the same file does not also deny.
func claudeApprovals(p string, root trust.Value) []trust.Finding {
	var out []trust.Finding
	local := strings.EqualFold(path.Base(p), "settings.local.json")
	whose := "the repository's shared settings"
	if local {
		whose = "a settings.local.json in the repository (Claude Code's per-user file, which it makes git ignore)"
	}
	if isTrue(root, "enableAllProjectMcpServers") {
		pos, _ := root.KeyPos("enableAllProjectMcpServers")
		out = append(out, trust.NewFinding("MG701", p, pos, "", "enableAllProjectMcpServers",
			"enableAllProjectMcpServers: true in "+whose+": once the folder is trusted Claude Code runs every .mcp.json server, present or added later, without asking"))
	}
	m, ok := root.Get("enabledMcpjsonServers")
	if !ok || m.Kind() != "array" {
		return out
	}
	denied := map[string]bool{}
	if d, ok := root.Get("disabledMcpjsonServers"); ok {
		for _, e := range d.Elems() {
			if s, ok := e.Str(); ok {
				denied[s] = true // Claude Code matches names exactly
			}
		}
	}
	var names []string
	for _, e := range m.Elems() {
		if s, ok := e.Str(); ok && !denied[s] { // a non-string names no server
			names = append(names, quote(s))
		}
	}
	if len(names) == 0 {
		return out
	}
	shown := names
	if len(shown) > 8 {
		shown = append(shown[:8:8], fmt.Sprintf("and %d more", len(names)-8))
	}
	pos, _ := root.KeyPos("enabledMcpjsonServers")
	return append(out, trust.NewFinding("MG701", p, pos, "", "enabledMcpjsonServers",
		"enabledMcpjsonServers in "+whose+" approves "+strings.Join(shown, ", ")+
			": once the folder is trusted Claude Code runs these .mcp.json servers without asking, whatever they run after a pull"))
}

// claudeHooks is MG702 for the commands the hooks run, as the client
// model reads them (each a hook entry, whose command the server rules
// check). `disableAllHooks: true` in the same file turns them off.
func claudeHooks(f File, root trust.Value) []trust.Finding {
	if _, ok := root.Get("hooks"); !ok {
		return nil
	}
	if isTrue(root, "disableAllHooks") {
		return nil
	}
	cmds := client.ClaudeSettingsEntries(f.Path, f.Data, client.EntryHook)
	if len(cmds) == 0 {
		return nil
	}
	pos, _ := root.KeyPos("hooks")
	return []trust.Finding{trust.NewFinding("MG702", f.Path, pos, "", "hooks",
		fmt.Sprintf("hooks: Claude Code runs %d shell command(s) on its events once the folder is trusted: %s", len(cmds), shownLines(cmds)))}
}

// shownLines are the first three command lines of shell entries
// (`sh -c LINE`), quoted, and how many more there are.
func shownLines(cmds []*trust.Server) string {
	var shown []string
	for i, c := range cmds {
		if i == 3 {
			shown = append(shown, fmt.Sprintf("and %d more", len(cmds)-3))
			break
		}
		shown = append(shown, quote(c.Args[1].Str))
	}
	return strings.Join(shown, ", ")
}

// claudeRemotePlugins is MG719 for each plugin the settings enable from
// a marketplace outside the repository, as the client model reads it.
func claudeRemotePlugins(f File) []trust.Finding {
	var out []trust.Finding
	for _, s := range client.ClaudeSettingsEntries(f.Path, f.Data, client.EntryPlugin) {
		if s.Remote != "" {
			out = append(out, trust.NewFinding("MG719", f.Path, s.NamePos, "", "enabledPlugins",
				fmt.Sprintf("enabledPlugins: %s comes from %s: %s, from code outside the repository",
					quote(strings.TrimPrefix(s.Name, "plugins.")), shortValue(s.Remote), client.ClaudePluginWhen(s))))
		}
	}
	return out
}

// shellRuleFindings are the shell rules (MG2xx) and literal secrets of a
// command another client runs with a shell. MG1xx are about agentty's
// fingerprint, which does not apply there.
func shellRuleFindings(p, key string, pos trust.Pos, cmd string) []trust.Finding {
	var out []trust.Finding
	for _, hit := range analyzeScript(cmd, 0) {
		if strings.HasPrefix(hit.rule, "MG2") {
			out = append(out, hit.finding(p, pos, "", key, key+": "+hit.detail+hit.tail))
		}
	}
	return append(out, runSecrets(p, key, pos, cmd)...)
}

// claudeRisks are MG745-MG747: what a repository's Claude Code settings
// let through without a prompt (its traffic sent elsewhere, tool calls
// run without asking), read from the client model's tree.
func claudeRisks(p string, root trust.Value) []trust.Finding {
	var out []trust.Finding
	if env, ok := root.Get("env"); ok && env.Kind() == "object" {
		for _, k := range env.Keys() {
			v, _ := env.Get(k)
			s, ok := v.Str()
			if !ok || strings.TrimSpace(s) == "" {
				continue
			}
			sev, why := claudeRedirect(k, s)
			if why == "" {
				continue
			}
			pos, _ := env.KeyPos(k)
			g := trust.NewFinding("MG745", p, pos, "", "env."+k,
				fmt.Sprintf("env.%s: %s in the repository's settings: %s", shortValue(k), quote(s), why))
			g.Severity = sev
			out = append(out, g)
		}
	}
	perm, _ := root.Get("permissions")
	if m, ok := perm.Get("defaultMode"); ok {
		mode, _ := m.Str()
		pos, _ := perm.KeyPos("defaultMode")
		switch mode {
		case "bypassPermissions":
			out = append(out, trust.NewFinding("MG746", p, pos, "", "permissions.defaultMode",
				"permissions.defaultMode: \"bypassPermissions\" in the repository's settings: Claude Code runs every tool call (Bash commands, edits, fetches) without asking, for everyone who starts it here"))
		case "acceptEdits":
			g := trust.NewFinding("MG746", p, pos, "", "permissions.defaultMode",
				"permissions.defaultMode: \"acceptEdits\" in the repository's settings: Claude Code applies every file edit without asking, a script that a hook, a build or a test runs included")
			g.Severity = trust.SeverityMedium
			out = append(out, g)
		}
	}
	if a, ok := perm.Get("allow"); ok {
		for i, e := range a.Elems() {
			if r, ok := e.Str(); ok && claudeAllowsEveryCommand(r) {
				out = append(out, trust.NewFinding("MG747", p, e.Pos(), "", fmt.Sprintf("permissions.allow[%d]", i),
					fmt.Sprintf("permissions.allow: %s in the repository's settings: Claude Code runs every Bash command without asking, whatever a prompt injection asks for", quote(r))))
			}
		}
	}
	return out
}

// claudeRedirect grades an env variable of Claude Code's settings that
// sends its traffic or credentials elsewhere: why, "" for one that does
// not. Names are compared ignoring case (more, never less); a URL on a
// loopback address (a proxy on the user's machine) is low.
func claudeRedirect(name, value string) (trust.Severity, string) {
	switch up := strings.ToUpper(name); up {
	case "ANTHROPIC_BASE_URL", "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL", "ANTHROPIC_FOUNDRY_BASE_URL":
		if loopbackURL(value) {
			return trust.SeverityLow, "Claude Code sends its API requests to this address on your own machine"
		}
		return trust.SeverityHigh, "Claude Code sends every API request (your prompts, the code it reads, your credential) to this server instead of the provider's"
	case "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY":
		if loopbackURL(value) {
			return trust.SeverityLow, "Claude Code sends its traffic through a proxy on your own machine"
		}
		return trust.SeverityHigh, "Claude Code sends its traffic (API requests and credentials) through this proxy"
	case "NODE_EXTRA_CA_CERTS":
		return trust.SeverityMedium, "Claude Code trusts the certificate authority in this file: whoever holds its key can read and change its TLS traffic on the way"
	case "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN":
		return trust.SeverityMedium, "Claude Code authenticates with a credential the repository chose: your sessions run on an account of its choosing, not yours"
	}
	return "", ""
}

// loopbackURL reports whether a URL (or host:port) names this machine
// (loopback: no net import, which would link cgo).
func loopbackURL(s string) bool {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		u, err = url.Parse("//" + s)
	}
	if err != nil || u.Host == "" {
		return false
	}
	return loopback(u.Hostname())
}

// claudeAllowsEveryCommand reports whether a permissions.allow rule lets
// every Bash command run: "Bash", "Bash()", "Bash(*)", "Bash(:*)",
// "Bash(*:*)", spaces aside.
func claudeAllowsEveryCommand(rule string) bool {
	r := strings.TrimSpace(rule)
	if r == "Bash" {
		return true
	}
	inner, ok := strings.CutPrefix(r, "Bash(")
	if !ok {
		return false
	}
	inner, ok = strings.CutSuffix(inner, ")")
	return ok && strings.Trim(inner, "*: \t") == ""
}
