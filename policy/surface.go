package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// File is one agentty surface to check.
type File struct {
	// Path is repository-relative (or relative to the scanned directory),
	// slash-separated.
	Path string
	Kind surface.Kind
	// Data is the content agentty would read. For a symlink that stays
	// inside the repository it is the target's content; nil when it could
	// not be read (Err says why) or for a linked directory.
	Data []byte
	// Symlink is set when the file, or a directory on its path that
	// agentty follows, is a symbolic link; Target is the link text.
	Symlink bool
	Target  string
	// Err is why the content could not be read (a FIFO, too large, a link
	// leaving the repository).
	Err error
}

// ErrOutside reports a symlink leading out of the scanned directory.
var ErrOutside = errors.New("a symlink leads outside the scanned directory: mcp-guard does not follow it")

// contentRule is what a rules file says about one kind of surface.
type contentRule struct {
	// check finds what the file's content switches on or runs (nil: no
	// rule reads it, but one that cannot be read is still reported).
	check func(File, Options) []trust.Finding
	// mg707: an unreadable file is MG707 (CI, Claude Code's settings, the
	// files whose rules predate MG718), not MG718.
	mg707 bool
	// ownParse: the rule reports why the client fails on the file itself
	// (Codex's MG716, Gemini CLI's settings), so a plain-directory scan
	// does not add the client reader's parse findings; with
	// ownParseEverywhere (Codex) a scan of a git side leaves them out too.
	// Its servers get the server rules in every scan mode.
	ownParse, ownParseEverywhere bool
}

// contentRules are declared by the rules files (policy/claude.go, …) in
// their init, one per kind they check.
var contentRules = map[surface.Kind]contentRule{}

func declareContent(k surface.Kind, r contentRule) {
	if _, dup := contentRules[k]; dup || k == 0 {
		panic("policy: content rules for " + k.String() + " declared twice")
	}
	contentRules[k] = r
}

// ClientContent reports the surfaces of the clients other than agentty and
// of CI whose content CheckContent reads (or reports unreadable).
func ClientContent(k surface.Kind) bool {
	_, ok := contentRules[k]
	return ok && otherClient(k)
}

// OwnParse reports the kinds whose rules file reports why the client
// fails on the file itself (Codex's MG716): the client reader's parse
// findings are not reported again.
func OwnParse(k surface.Kind) bool {
	return contentRules[k].ownParse && contentRules[k].ownParseEverywhere
}

func init() {
	declareContent(client.KindHooks, contentRule{check: func(f File, _ Options) []trust.Finding { return checkHooks(f) }})
	declareContent(client.KindACPAgents, contentRule{check: checkACPAgents})
	declareContent(client.KindPersona, contentRule{check: func(f File, _ Options) []trust.Finding { return trust.PersonaFindings(f.Path, f.Data) }})
	declareContent(surface.KindCIWorkflow, contentRule{check: func(f File, _ Options) []trust.Finding { return checkCIWorkflow(f) }, mg707: true})
}

// CheckFile returns every finding of one surface read from a plain
// directory, in the order found: the file-level rules (MG305, MG306,
// MG5xx), the integrity findings of parsing, and the per-entry checks.
// Scans of git sides take the file-level findings from package project,
// which builds them with the functions below, and add CheckServers and
// CheckContent.
func CheckFile(f File, opts Options) []trust.Finding {
	var out []trust.Finding
	if f.Kind == surface.KindLinkedDir {
		if lf, ok := linkedClientDir(f.Path, "present"); ok {
			return append(out, lf)
		}
	}
	if f.Symlink && !otherClient(f.Kind) {
		out = append(out, symlinkedFile(f))
	}
	if f.Kind == surface.KindLinkedDir {
		return out
	}
	switch f.Kind {
	case client.KindMCPConfig:
		if dir := path.Dir(f.Path); !strings.EqualFold(dir, ".agentty") {
			out = append(out, NestedConfig(f.Path, path.Dir(dir)))
		}
		if errors.Is(f.Err, trust.ErrTooLarge) || errors.Is(f.Err, ErrOutside) {
			return append(out, trust.UnreadableConfig(f.Path, trust.ScopeProject, f.Err).Findings...)
		}
		if f.Err != nil {
			return append(out, trust.InvalidConfig(f.Path, trust.ScopeProject, f.Err).Findings...)
		}
		cfg := client.ParseFile(kindClient(f.Kind), f.Path, f.Data)
		out = append(out, cfg.Findings...)
		out = append(out, CheckServers(cfg, opts)...)
		return out
	default:
		// A plain directory: the other clients' servers (and the other
		// entries they run, hooks and helpers) go through the same
		// server rules, read by their client's own reader (in a
		// repository, scan takes them from project, which does the same).
		// A path two clients read (surface.Spec.Same) is read by each.
		for _, k := range kindsOf(f) {
			r := contentRules[k]
			if (k.Role() == surface.Config || k.Spec().Entries) && f.Err == nil && f.Data != nil {
				cfg := client.ParseFile(kindClient(k), f.Path, f.Data)
				// CheckContent reports a file the client may read though
				// mcp-guard cannot (MG310), in every scan mode.
				// (a config without content rules of its own, Zed's, too).
				reported := ClientContent(k) || IsServerConfig(k) && otherClient(k)
				if !r.ownParse && !(reported && cfg.Unreadable()) {
					out = append(out, cfg.Findings...)
				}
				var others []*trust.Config
				if k == f.Kind {
					others = client.OtherReadings(k, f.Path, f.Data, nil)
				}
				out = append(out, CheckReadings(cfg, others, opts)...)
			}
		}
	}
	if sf, ok := SurfaceFinding(f.Path, f.Kind, "present", f.Err); ok {
		out = append(out, sf)
	}
	return append(out, CheckContent(f, opts)...)
}

// kindsOf are f's kind and the kinds of other clients that read the same
// path (surface.OfAll), f's own first.
func kindsOf(f File) []surface.Kind {
	out := []surface.Kind{f.Kind}
	for _, k := range surface.OfAll(f.Path) {
		if k != f.Kind {
			out = append(out, k)
		}
	}
	return out
}

// The file-level rules: where a surface is (MG305, MG306) and that it is
// there at all (MG501-MG503). Each finding points at the file's start.
// CheckFile builds them for a plain directory, package project for the
// sides of a repository.

// fileStart is where a file-level finding points.
var fileStart = trust.Pos{Line: 1, Column: 1}

// symlinkedFile is MG305 for a surface of a plain directory that is, or is
// reached through, a symlink.
func symlinkedFile(f File) trust.Finding {
	target := ""
	if f.Target != "" {
		target = " (to " + quote(f.Target) + ")"
	}
	msg := fmt.Sprintf("%s is a symlink%s: agentty follows it and reads the target's bytes", f.Path, target)
	if f.Kind == surface.KindLinkedDir {
		msg = fmt.Sprintf("%s is a symlink%s where agentty expects a directory: agentty follows it, so what it reads there is outside the reviewed tree", f.Path, target)
	}
	return trust.NewFinding("MG305", f.Path, fileStart, "", "", msg)
}

// SymlinkedConfig is MG305 for the configuration at p of a repository side
// when agentty reaches it through a symlink: target is the repository path
// it reads, "" when the link leads outside the repository.
func SymlinkedConfig(p, target string) trust.Finding {
	msg := "the configuration is reached through a symlink that leads outside the repository: agentty reads whatever is there"
	if target != "" {
		msg = "the configuration is reached through a symlink (to " + target + "); agentty follows it and hashes the target's bytes"
	}
	return trust.NewFinding("MG305", p, fileStart, "", "", msg)
}

// NestedConfig is MG306: the configuration at p is below the repository
// root, and agentty runs it when launched from launchDir.
func NestedConfig(p, launchDir string) trust.Finding {
	return trust.NewFinding("MG306", p, fileStart, "", "",
		"a nested configuration: agentty runs it when launched from "+launchDir+"/, and approvals given anywhere hold here too")
}

// PlacementFindings are the findings on where a project config of client
// id lies: MG305 when it is reached through a symlink (linked; target is
// where it leads, "" outside the repository), MG306 when it is nested
// below the repository root (launchDir, where the agent starts to read
// it, is not ""). Only agentty's: both are about what agentty reads; a
// config of another client has only its own findings (MG301, MG307
// naming the client).
func PlacementFindings(id client.ID, p string, linked bool, target, launchDir string) []trust.Finding {
	if id != client.Agentty {
		return nil
	}
	var out []trust.Finding
	if linked {
		out = append(out, SymlinkedConfig(p, target))
	}
	if launchDir != "" {
		out = append(out, NestedConfig(p, launchDir))
	}
	return out
}

// SurfaceFinding reports a surface other than an MCP configuration: hooks
// (MG501), ACP agents (MG502), a persona (MG503), and a symlinked surface
// directory of a repository side (MG305 for .agentty, MG503 for a persona
// directory). verb says what happened to it ("present", "added",
// "changed"); err, when not nil, why it cannot be read. ok is false for an
// MCP configuration, which has findings of its own.
func SurfaceFinding(p string, kind surface.Kind, verb string, err error) (f trust.Finding, ok bool) {
	unreadable := ""
	if err != nil {
		unreadable = "; it cannot be read: " + err.Error()
	}
	switch kind {
	case client.KindHooks:
		return trust.NewFinding("MG501", p, fileStart, "", "",
			"project hooks "+verb+": agentty runs their shell commands on tool calls once the file's hash is approved, and the hash does not cover the scripts they run"+unreadable), true
	case client.KindACPAgents:
		return trust.NewFinding("MG502", p, fileStart, "", "",
			"project ACP agents "+verb+": agentty runs them with no content approval at all when AGENTTY_ACP_ALLOW_PROJECT is on"+unreadable), true
	case client.KindPersona:
		return trust.NewFinding("MG503", p, fileStart, "", "",
			"agent persona "+verb+": its prompt and tool list steer the agent"+unreadable), true
	case surface.KindLinkedDir:
		if lf, ok := linkedClientDir(p, verb); ok {
			return lf, true
		}
		if strings.EqualFold(path.Base(p), ".agentty") {
			return trust.NewFinding("MG305", p, fileStart, "", "",
				"the .agentty directory is a symlink ("+verb+"): agentty reads mcp.json, hooks.json and acp-agents.json wherever it points"), true
		}
		return trust.NewFinding("MG503", p, fileStart, "", "",
			"an agent persona directory is a symlink ("+verb+"): agentty reads personas wherever it points"), true
	}
	return trust.Finding{}, false
}

// HookScriptChanged is MG501 for a hooks file at p that did not change
// while script, a repository file its commands run, did: agentty's
// approval of the hooks file is the hash of its own bytes.
func HookScriptChanged(p, script string) trust.Finding {
	return trust.NewFinding("MG501", p, fileStart, "", "",
		"a script the project hooks run changed ("+script+"): agentty's approval of the hooks file covers only its own bytes")
}

// CheckContent analyses what the sibling surfaces hold: every `run`
// command of a hooks.json like a shell script, every agent of an
// acp-agents.json like a server, hidden characters in a persona, what a
// repository's Claude Code settings approve or run, how its CI workflows
// run an agent, and the other clients' switches and tasks. It
// adds nothing for an MCP configuration (see CheckServers) or a file that
// could not be read.
func CheckContent(f File, opts Options) []trust.Finding {
	r, declared := contentRules[f.Kind]
	if f.Err != nil && r.mg707 {
		return []trust.Finding{trust.NewFinding("MG707", f.Path, fileStart, "", "",
			"mcp-guard cannot read this file ("+f.Err.Error()+"): it cannot tell what Claude Code or CI would run from it")}
	}
	if c := kindClient(f.Kind); f.Err != nil && declared && c != nil && otherClient(f.Kind) {
		return []trust.Finding{trust.NewFinding("MG718", f.Path, fileStart, "", "",
			"mcp-guard cannot read this file ("+f.Err.Error()+"): it cannot tell what "+c.Title()+" would run from it")}
	}
	if f.Err != nil || f.Data == nil {
		return nil
	}
	var out []trust.Finding
	if c := kindClient(f.Kind); c != nil && otherClient(f.Kind) && (IsServerConfig(f.Kind) || declared) {
		// A server config the client may read though mcp-guard cannot
		// (a syntax error a tolerant reader recovers from), or any file
		// of the client's with more entries than mcp-guard reviews in one
		// file (trust.Bounded; its own rules read the file as a value and
		// cannot see that): MG310.
		if cfg := client.ParseFile(c, f.Path, f.Data); cfg.Unreadable() && (IsServerConfig(f.Kind) || errors.Is(cfg.Err, trust.ErrTooManyServers)) {
			out = append(out, cfg.Findings...)
		}
	}
	if r.check == nil {
		return out
	}
	return append(out, r.check(f, opts)...)
}

// checkHooks analyses every `run` command of a hooks.json like a shell
// script, each as agentty reads the file (client.AgenttyHooks), whole as
// written.
func checkHooks(f File) []trust.Finding {
	v, err := client.AgenttyFile(f.Data)
	if err != nil {
		return unreadSibling(f, "MG501", err)
	}
	var out []trust.Finding
	for _, h := range client.AgenttyHooks(v) {
		for _, a := range analyzeScript(h.Run, 0) {
			out = append(out, a.finding(f.Path, h.At, "", h.Where, h.Where+": "+a.detail+a.tail))
		}
		out = append(out, runSecrets(f.Path, h.Where, h.At, h.Run)...)
	}
	return out
}

// unreadSibling is what a hooks.json or acp-agents.json whose reading
// failed with err says: nothing when agentty cannot parse it either (it
// runs nothing from it); rule (MG501, MG502) when mcp-guard did not read
// it (more values than it decodes) while agentty may, so what it runs
// went unchecked.
func unreadSibling(f File, rule string, err error) []trust.Finding {
	if !errors.Is(err, trust.ErrUnreadable) {
		return nil
	}
	return []trust.Finding{trust.NewFinding(rule, f.Path, fileStart, "", "",
		"mcp-guard cannot read this file ("+err.Error()+"): agentty may run what it holds, and no rule checked any of it")}
}

// runSecrets reports known tokens in a hook command.
func runSecrets(p, key string, pos trust.Pos, src string) []trust.Finding {
	if sec, prefix, why, ok := textSecret("", src); ok {
		return []trust.Finding{trust.NewFinding("MG401", p, pos, "", key, secretText(key, sec, prefix, why))}
	}
	return nil
}

// checkACPAgents checks each agent of an acp-agents.json like a server:
// its command line, env and credentials.
func checkACPAgents(f File, opts Options) []trust.Finding {
	root, err := clientTree(client.AgenttyFile, f.Data)
	if err != nil {
		return unreadSibling(f, "MG502", err)
	}
	if root.kind != 'o' {
		return nil
	}
	table, ok := root.get("acpAgents")
	if !ok || table.val.kind != 'o' {
		table, ok = root.get("agents")
	}
	if !ok || table.val.kind != 'o' {
		return nil
	}
	var out []trust.Finding
	for _, m := range table.val.resolved() {
		out = append(out, checkAgent(f.Path, table.key, m, opts)...)
	}
	return out
}

// checkAgent runs the server checks on one ACP agent entry.
func checkAgent(p, tableKey string, m jmember, opts Options) []trust.Finding {
	if m.val.kind != 'o' {
		return nil
	}
	// Present the entry to agentty's reader as a one-server
	// configuration, so that it is read exactly like a server (string
	// views, env, NULs).
	raw := []byte(`{"mcpServers":{"a":` + jnodeJSON(m.val) + `}}`)
	cfg := client.Lookup(client.Agentty).Parse(p, raw)
	if len(cfg.Servers) != 1 {
		return nil
	}
	cfg.Servers[0].Name = m.key
	cfg.ServersKey = tableKey
	var out []trust.Finding
	for _, f := range CheckServers(cfg, opts) {
		// Positions inside the synthetic document mean nothing: point at
		// the agent's entry, and at its key when one is named.
		f.Line, f.Column = m.keyPos.Line, m.keyPos.Column
		sub := strings.TrimPrefix(f.Key, tableKey+"."+m.key+".")
		top, _, _ := strings.Cut(sub, ".")
		top, _, _ = strings.Cut(top, "[")
		if km, ok := m.val.get(top); ok {
			f.Line, f.Column = km.keyPos.Line, km.keyPos.Column
			if top == "args" && strings.HasPrefix(sub, "args[") {
				var i int
				if _, err := fmt.Sscanf(sub, "args[%d]", &i); err == nil && i >= 0 && i < len(km.val.elems) {
					f.Line, f.Column = km.val.elems[i].pos.Line, km.val.elems[i].pos.Column
				}
			}
			if top == "env" && km.val.kind == 'o' {
				if em, ok := km.val.get(strings.TrimPrefix(sub, "env.")); ok {
					f.Line, f.Column = em.keyPos.Line, em.keyPos.Column
				}
			}
		}
		f.Message = strings.Replace(f.Message, "server ", "agent ", 1)
		out = append(out, f)
	}
	return out
}

// jnodeJSON writes a node back as JSON (last duplicate winning).
func jnodeJSON(n *jnode) string {
	var b strings.Builder
	writeJNode(&b, n)
	return b.String()
}

func writeJNode(b *strings.Builder, n *jnode) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, m := range n.resolved() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(m.key))
			b.WriteByte(':')
			writeJNode(b, m.val)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJNode(b, e)
		}
		b.WriteByte(']')
	case 's':
		b.WriteString(jsonString(n.str))
	default:
		b.WriteString(n.str)
	}
}

// jsonString encodes s as a JSON string.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// InspectionFindings are policy's findings about the configuration agentty
// reads in a launch directory (trust.Inspect): MG305 when it is reached
// through a symlink, and CheckServers.
func InspectionFindings(in *trust.Inspection, opts Options) []trust.Finding {
	if in.Config == nil {
		return nil
	}
	var out []trust.Finding
	if in.Location.Symlink {
		out = append(out, SymlinkedConfig(in.Config.Path, in.Location.Target))
	}
	return append(out, CheckServers(in.Config, opts)...)
}
