package policy

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// The repository-side switches of Gemini CLI and VS Code (MG708-MG713)
// and the files of those clients mcp-guard cannot read (MG718).
//
// Gemini CLI reads .gemini/settings.json as JSON with comments (observed:
// trailing commas and a BOM reject the whole file, the last duplicate key
// wins); VS Code reads its files as JSONC, comments and trailing commas
// allowed (from its documentation). Each is read once, by its client
// model (client.GeminiSettings, client.VSCodeFile: the readings their
// State and Parse use), with the file's own positions. A settings file
// Gemini CLI rejects runs nothing, so its parse error is no finding; a
// BOM, which Gemini CLI rejects, is skipped here: that reports more, never
// less.

// The other clients' content rules: Gemini CLI's settings (its own reader
// reports why it fails on them), VS Code's settings and tasks; Cursor's
// and VS Code's server configs have no content rule, but one that cannot
// be read is MG718.
func init() {
	declareContent(client.KindGeminiSettings, contentRule{check: func(f File, _ Options) []trust.Finding { return checkGeminiSettings(f) }, ownParse: true})
	declareContent(client.KindVSCodeSettings, contentRule{check: func(f File, _ Options) []trust.Finding { return checkVSCodeSettings(f) }})
	declareContent(client.KindVSCodeTasks, contentRule{check: func(f File, _ Options) []trust.Finding { return checkVSCodeTasks(f) }})
	declareContent(client.KindCursorMCP, contentRule{})
	declareContent(client.KindGeminiEnv, contentRule{check: func(f File, _ Options) []trust.Finding { return checkGeminiEnv(f) }})
	declareContent(client.KindVSCodeMCP, contentRule{})
	declareContent(client.KindVSCodeWorkspace, contentRule{check: func(f File, _ Options) []trust.Finding { return checkVSCodeWorkspace(f) }})
}

// checkGeminiSettings reports what a repository's Gemini CLI workspace
// settings switch on or off.
func checkGeminiSettings(f File) []trust.Finding {
	// A BOM, which Gemini CLI rejects, is skipped: that reports more,
	// never less.
	v, err := client.GeminiSettings(bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf")))
	if err != nil || v.Kind() != "object" {
		return nil // Gemini CLI rejects the file: nothing of it applies
	}
	root := fromClient(v)
	var out []trust.Finding
	out = append(out, trustedServers(f, root, "MG708",
		"mcpServers.%s.trust: true: Gemini CLI runs every tool call of this server without asking for confirmation (and in a trusted folder the server itself runs with no approval at all)")...)
	if m, ok := lookupPath(root, "mcp", "allowed"); ok && m.val.kind == 'a' {
		var names []string
		for _, e := range m.val.elems {
			if e.kind == 's' {
				names = append(names, quote(e.str))
			}
		}
		if len(names) > 0 {
			out = append(out, trust.NewFinding("MG709", f.Path, m.keyPos, "", "mcp.allowed",
				"mcp.allowed in the workspace settings lists "+listShown(names, 8)+
					": Gemini CLI intersects it with the user's own list, so it can only keep servers from running; it approves none, and the servers it names still run unapproved in a trusted folder"))
		}
	}
	if m, ok := lookupPath(root, "mcp", "serverCommand"); ok && m.val.kind == 's' && strings.TrimSpace(m.val.str) != "" {
		out = append(out, trust.NewFinding("MG749", f.Path, m.keyPos, "", "mcp.serverCommand",
			"mcp.serverCommand: "+quote(m.val.str)+" in the workspace settings: in a trusted folder Gemini CLI starts it as the MCP server named `mcp` (in place of any server of that name), split into words with your environment's variables expanded"))
	}
	for _, p := range [][]string{{"security", "folderTrust", "enabled"}, {"folderTrust"}} {
		if m, ok := lookupPath(root, p...); ok && m.val.kind == 'b' && m.val.str == "false" {
			key := strings.Join(p, ".")
			out = append(out, trust.NewFinding("MG710", f.Path, m.keyPos, "", key,
				key+": false in the workspace settings does nothing: Gemini CLI reads folder trust only from the user's settings, so this folder is still asked about (it is not a way to turn trust off)"))
		}
	}
	return out
}

// trustedServers is rule for each mcpServers entry with `trust: true`
// (Gemini CLI and its fork Qwen Code), msg formatted with the name.
func trustedServers(f File, root *jnode, rule, msg string) []trust.Finding {
	var out []trust.Finding
	if servers, ok := root.get("mcpServers"); ok && servers.val.kind == 'o' {
		for _, s := range servers.val.resolved() {
			if t, ok := s.val.get("trust"); ok && t.val.kind == 'b' && t.val.str == "true" {
				out = append(out, trust.NewFinding(rule, f.Path, t.keyPos, s.key, "trust", fmt.Sprintf(msg, shortValue(s.key))))
			}
		}
	}
	return out
}

// checkVSCodeSettings reports the workspace settings that make VS Code
// start MCP servers by itself, or read other clients' server lists.
func checkVSCodeSettings(f File) []trust.Finding {
	root, err := clientTree(client.VSCodeFile, f.Data)
	if err != nil {
		return unparsedMention(f, err, "VS Code", "chat.mcp", `"mcp"`)
	}
	return vscodeSettingsFindings(f, root)
}

// checkVSCodeWorkspace reports what a .code-workspace file applies once
// it is opened: its settings as the workspace settings are, its tasks as
// tasks.json's (named "tasks.tasks[N]").
func checkVSCodeWorkspace(f File) []trust.Finding {
	root, err := clientTree(client.VSCodeFile, f.Data)
	if err != nil {
		return unparsedMention(f, err, "VS Code", "chat.mcp", `"mcp"`, "folderOpen")
	}
	var out []trust.Finding
	if s, ok := root.get("settings"); ok && s.val.kind == 'o' {
		out = append(out, vscodeSettingsFindings(f, s.val)...)
	}
	if t, ok := root.get("tasks"); ok && t.val.kind == 'o' {
		out = append(out, vscodeTaskFindings(f, t.val, "tasks.")...)
	}
	return out
}

// vscodeSettingsFindings are MG711, MG748 and MG712 of a settings object.
func vscodeSettingsFindings(f File, root *jnode) []trust.Finding {
	var out []trust.Finding
	if m, ok := lookupSetting(root, "chat.mcp.autostart"); ok {
		v := m.val
		starts := v.kind == 'b' && v.str == "true" || v.kind == 's' && v.str != "never"
		if starts {
			what := "new and changed"
			switch {
			case v.kind == 's' && v.str == "onlyNew":
				what = "new"
			case v.kind == 's' && v.str != "newAndOutdated":
				what = "(for a value it does not know, by its default) new and changed"
			}
			out = append(out, trust.NewFinding("MG711", f.Path, m.keyPos, "", "chat.mcp.autostart",
				fmt.Sprintf("chat.mcp.autostart: %s in the workspace settings: VS Code starts %s MCP servers when a chat request is sent, without a click, overriding a user who chose never", quote(v.str), what)))
		}
	}
	out = append(out, vscodeAutoApprove(f, root)...)
	if m, ok := lookupSetting(root, "chat.mcp.discovery.enabled"); ok {
		var sources []string
		switch v := m.val; v.kind {
		case 'b':
			if v.str == "true" {
				sources = append(sources, "every supported client")
			}
		case 'o':
			for _, s := range v.resolved() {
				if s.val.kind == 'b' && s.val.str == "true" {
					sources = append(sources, quote(s.key))
				}
			}
		}
		if len(sources) > 0 {
			out = append(out, trust.NewFinding("MG712", f.Path, m.keyPos, "", "chat.mcp.discovery.enabled",
				"chat.mcp.discovery.enabled in the workspace settings: VS Code also reads the MCP servers configured for "+listShown(sources, 8)+" and offers to run them"))
		}
	}
	return out
}

// vscodeAutoApprove is MG748: workspace settings that let VS Code's agent
// run tool calls or terminal commands without asking.
func vscodeAutoApprove(f File, root *jnode) []trust.Finding {
	var out []trust.Finding
	for _, k := range []string{"chat.tools.global.autoApprove", "chat.tools.autoApprove"} {
		if m, ok := lookupSetting(root, k); ok && m.val.kind == 'b' && m.val.str == "true" {
			out = append(out, trust.NewFinding("MG748", f.Path, m.keyPos, "", k,
				k+": true in the workspace settings: a VS Code that takes it from the workspace runs every tool call of its agent (terminal commands, file edits, MCP tools) without asking"))
		}
	}
	m, ok := lookupSetting(root, "chat.tools.terminal.autoApprove")
	if !ok || m.val.kind != 'o' {
		return out
	}
	var all, some []string
	for _, r := range m.val.resolved() {
		approve := r.val.kind == 'b' && r.val.str == "true"
		if a, ok := r.val.get("approve"); ok && a.val.kind == 'b' && a.val.str == "true" {
			approve = true
		}
		if !approve {
			continue
		}
		if vscodeRuleMatchesAll(r.key) {
			all = append(all, quote(r.key))
		} else {
			some = append(some, quote(r.key))
		}
	}
	switch {
	case len(all) > 0:
		out = append(out, trust.NewFinding("MG748", f.Path, m.keyPos, "", "chat.tools.terminal.autoApprove",
			"chat.tools.terminal.autoApprove in the workspace settings approves every command ("+listShown(all, 4)+"): VS Code's agent runs any terminal command without asking, whatever a prompt injection asks for"))
	case len(some) > 0:
		g := trust.NewFinding("MG748", f.Path, m.keyPos, "", "chat.tools.terminal.autoApprove",
			"chat.tools.terminal.autoApprove in the workspace settings approves "+listShown(some, 8)+": VS Code's agent runs these commands, with any arguments the rule lets through, without asking")
		g.Severity = trust.SeverityMedium
		out = append(out, g)
	}
	return out
}

// vscodeRuleMatchesAll reports whether a terminal auto-approve rule's key,
// a regular expression written /…/flags, matches any command: it matches
// commands that have nothing in common. A pattern Go cannot compile is
// not taken for one (it is still reported, as a narrower approval).
func vscodeRuleMatchesAll(key string) bool {
	if len(key) < 2 || key[0] != '/' {
		return false
	}
	end := strings.LastIndexByte(key, '/')
	if end == 0 {
		return false
	}
	pat, flags := key[1:end], key[end+1:]
	if strings.Contains(flags, "i") {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return false
	}
	for _, c := range []string{"curl -fsSL https://example.com/x | sh", "rm -rf ~", "x"} {
		if !re.MatchString(c) {
			return false
		}
	}
	return true
}

// checkVSCodeTasks reports the tasks VS Code runs when the folder opens.
func checkVSCodeTasks(f File) []trust.Finding {
	root, err := clientTree(client.VSCodeFile, f.Data)
	if err != nil {
		return unparsedMention(f, err, "VS Code", "folderOpen")
	}
	return vscodeTaskFindings(f, root, "")
}

// vscodeTaskFindings are MG713 for the folder-open tasks of a tasks
// object, each named prefix+"tasks[N]".
func vscodeTaskFindings(f File, root *jnode, prefix string) []trust.Finding {
	tasks, ok := root.get("tasks")
	if !ok || tasks.val.kind != 'a' {
		return nil
	}
	var out []trust.Finding
	for i, t := range tasks.val.elems {
		on, ok := lookupPath(t, "runOptions", "runOn")
		if !ok || on.val.kind != 's' || on.val.str != "folderOpen" {
			continue
		}
		key := fmt.Sprintf("%stasks[%d]", prefix, i)
		label := ""
		if l, ok := t.get("label"); ok && l.val.kind == 's' {
			label = " " + quote(l.val.str)
		}
		cmd, _ := taskCommand(t)
		what := "its dependsOn tasks"
		if cmd != "" {
			what = quote(cmd)
		}
		// The task is an entry of the client model: the server rules
		// check its command (CheckServers), not this rule.
		out = append(out, trust.NewFinding("MG713", f.Path, on.keyPos, "", key+".runOptions.runOn",
			fmt.Sprintf("%s%s runs %s when the folder opens (runOptions.runOn: folderOpen): once the folder is trusted VS Code runs it with no click", key, label, what)))
	}
	return out
}

// taskCommand is the command line of a task (the Linux override where the
// task has no command of its own), and where it is.
func taskCommand(t *jnode) (string, trust.Pos) {
	for _, n := range []*jnode{t, linuxOf(t)} {
		if n == nil {
			continue
		}
		c, ok := n.get("command")
		if !ok {
			if s, ok := n.get("script"); ok && s.val.kind == 's' {
				return "npm run " + s.val.str, s.keyPos // an npm task
			}
			continue
		}
		parts := []string{taskValue(c.val)}
		if a, ok := n.get("args"); ok && a.val.kind == 'a' {
			for _, e := range a.val.elems {
				parts = append(parts, taskValue(e))
			}
		}
		return strings.TrimSpace(strings.Join(parts, " ")), c.keyPos
	}
	return "", trust.Pos{}
}

func linuxOf(t *jnode) *jnode {
	if l, ok := t.get("linux"); ok && l.val.kind == 'o' {
		return l.val
	}
	return nil
}

// taskValue is a task's command or argument: a string, a {"value": …}
// quoting object, or an array of words.
func taskValue(n *jnode) string {
	switch n.kind {
	case 's':
		return n.str
	case 'o':
		if v, ok := n.get("value"); ok {
			return taskValue(v.val)
		}
	case 'a':
		var ws []string
		for _, e := range n.elems {
			ws = append(ws, taskValue(e))
		}
		return strings.Join(ws, " ")
	}
	return n.str
}

// lookupPath follows nested object keys (the last duplicate winning).
func lookupPath(n *jnode, keys ...string) (*jmember, bool) {
	var m *jmember
	for _, k := range keys {
		var ok bool
		if m, ok = n.get(k); !ok {
			return nil, false
		}
		n = m.val
	}
	return m, m != nil
}

// lookupSetting finds a dotted VS Code setting written flat
// ("chat.mcp.autostart") or nested under any prefix ({"chat": {"mcp.autostart": …}}).
func lookupSetting(n *jnode, key string) (*jmember, bool) {
	if m, ok := n.get(key); ok {
		return m, true
	}
	for i := strings.IndexByte(key, '.'); i > 0; {
		if m, ok := n.get(key[:i]); ok && m.val.kind == 'o' {
			if r, ok := lookupSetting(m.val, key[i+1:]); ok {
				return r, true
			}
		}
		j := strings.IndexByte(key[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return nil, false
}

// unparsedMention is MG718 for a file mcp-guard cannot parse when it
// mentions one of words: the client may read it more leniently.
func unparsedMention(f File, err error, client string, words ...string) []trust.Finding {
	for _, w := range words {
		if bytes.Contains(f.Data, []byte(w)) {
			return []trust.Finding{trust.NewFinding("MG718", f.Path, fileStart, "", "",
				fmt.Sprintf("mcp-guard cannot parse this file (%v) and it mentions %s: %s may read it differently and run what it names", err, quote(strings.Trim(w, `"`)), client))}
		}
	}
	return nil
}

// listShown lists at most max quoted items, then how many more.
func listShown(items []string, max int) string {
	if len(items) > max {
		items = append(items[:max:max], fmt.Sprintf("and %d more", len(items)-max))
	}
	return strings.Join(items, ", ")
}

// linkedClientDir is MG718 for a symlink where a client's directory
// belongs: the client reads its configuration wherever it points.
func linkedClientDir(p, verb string) (trust.Finding, bool) {
	owners := surface.DirClients(p)
	if len(owners) == 0 || slices.Contains(owners, string(client.Agentty)) {
		return trust.Finding{}, false // agentty's rules (MG305, MG503)
	}
	c := client.Lookup(client.ID(owners[0]))
	return trust.NewFinding("MG718", p, fileStart, "", "",
		fmt.Sprintf("the %s directory is a symlink (%s): %s reads its configuration wherever it points, which mcp-guard does not follow", path.Base(p), verb, c.Title())), true
}

// otherClient reports the kinds another client (or CI) reads: MG305, about
// what agentty follows, does not apply to them; their content is checked
// as the client reads it (through the link).
func otherClient(k surface.Kind) bool {
	return k.Role() == surface.CI || (k.Client() != "" && k.Client() != string(client.Agentty))
}

// checkGeminiEnv is MG750 for a committed .env Gemini CLI loads: a
// variable that moves its home (its settings, trusted folders and
// extensions) or sends its API traffic or credential elsewhere. Every
// reading of a value (launch.ParseEnvFile) is graded; the first finding
// of each variable is kept.
func checkGeminiEnv(f File) []trust.Finding {
	var out []trust.Finding
	seen := map[string]bool{}
	for _, v := range launch.ParseEnvFile(f.Data) {
		if seen[v.Name] || strings.TrimSpace(v.Value) == "" {
			continue
		}
		sev, why := geminiEnvRisk(v.Name, v.Value)
		if why == "" {
			continue
		}
		seen[v.Name] = true
		g := trust.NewFinding("MG750", f.Path, envLinePos(f.Data, v.Name), "", v.Name,
			fmt.Sprintf("%s=%s in a committed .env: %s", shortValue(v.Name), quote(v.Value), why))
		g.Severity = sev
		out = append(out, g)
	}
	return out
}

// geminiEnvRisk grades a variable of a project .env Gemini CLI loads
// (names as Gemini CLI reads them: exact case).
func geminiEnvRisk(name, value string) (trust.Severity, string) {
	untrusted := slices.Contains(client.GeminiEnvUntrusted, name)
	where := "in a trusted folder, "
	if untrusted {
		where = "in a trusted folder or not, "
	}
	if slices.Contains(client.GeminiEnvRelocating, name) {
		what := map[string]string{
			"GEMINI_CLI_HOME":                 "its home (its settings, trusted folders, MCP servers and extensions)",
			"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "its system settings, which override yours",
			"GEMINI_CLI_SYSTEM_DEFAULTS_PATH": "its system defaults",
			"GEMINI_CLI_TRUSTED_FOLDERS_PATH": "its list of trusted folders",
		}[name]
		v := strings.TrimSpace(value)
		if !path.IsAbs(v) && !strings.HasPrefix(v, "~") && !strings.HasPrefix(v, "$") {
			return trust.SeverityHigh, where + "Gemini CLI reads " + what + " from this path inside the repository, which the repository writes"
		}
		return trust.SeverityMedium, where + "Gemini CLI reads " + what + " from a path the repository chose instead of yours"
	}
	switch name {
	case "GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL":
		if loopbackURL(value) {
			return trust.SeverityLow, where + "Gemini CLI sends its API requests to this address on your own machine"
		}
		return trust.SeverityHigh, where + "Gemini CLI sends every API request (your prompts, the code it reads, your credential) to this server instead of Google's"
	case "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy":
		if loopbackURL(value) {
			return trust.SeverityLow, where + "Gemini CLI sends its traffic through a proxy on your own machine"
		}
		return trust.SeverityHigh, where + "Gemini CLI sends its traffic (API requests and credentials) through this proxy"
	case "GEMINI_API_KEY", "GOOGLE_API_KEY":
		return trust.SeverityMedium, where + "Gemini CLI authenticates with a credential the repository chose: your sessions run on an account of its choosing, not yours"
	}
	return "", ""
}

// envLinePos is the position of the first assignment of name in a
// dotenv file (line 1 when it cannot be found).
func envLinePos(data []byte, name string) trust.Pos {
	off := 0
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimPrefix(strings.TrimLeft(line, " \t"), "export ")
		if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == name {
			return trust.Pos{Offset: off, Line: i + 1, Column: len(line) - len(strings.TrimLeft(line, " \t")) + 1}
		}
		off += len(line) + 1
	}
	return trust.Pos{Line: 1, Column: 1}
}
