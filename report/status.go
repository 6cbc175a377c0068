package report

import (
	"encoding/json"
	"fmt"
	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/trust"
)

// StatusVersion is the version of the `status --json` document. Fields are
// only ever added within a version; a removal or a change of meaning bumps
// it. Version 2 made it one list of agents: agentty's configuration,
// servers and findings, top-level in version 1, are in its entry, as every
// other agent's are in theirs (docs/json.md).
const StatusVersion = 2

// StatusDoc is the `status --json` document, version 2.
type StatusDoc struct {
	Version int `json:"version"`
	// Agents are every agent found here, each with the config files it
	// reads and what became of them (so that a file that does not parse is
	// seen), its servers and the findings on its files.
	Agents []StatusDocAgent `json:"agents"`
	// Notes are what finding the configurations said that no agent's entry
	// carries (AGENTTY_MCP_CONFIG naming no file).
	Notes []string `json:"notes,omitempty"`
}

// StatusDocAgent is one agent of the status document.
type StatusDocAgent struct {
	StatusAgent
	// Gated: mcp-guard gates its servers here; false for a configuration
	// the user keeps (agentty's own, an explicit file), or when status
	// could not evaluate the gate (review state unknown).
	Gated bool `json:"gated"`
	// Config is the configuration as the agent reads it, for an agent
	// whose rules mcp-guard reproduces (agentty): scope, whole-file hash,
	// blanket grant; absent for the others.
	Config   *StatusConfig   `json:"config,omitempty"`
	Servers  []StatusServer  `json:"servers"`
	Findings []trust.Finding `json:"findings"`
}

// StatusAgent is one agent found here: its config files, and why its
// gate stays closed whatever is reviewed (Closed, empty when nothing
// does).
type StatusAgent struct {
	Client      string             `json:"client"`
	Title       string             `json:"title"`
	Closed      []string           `json:"closed"`
	Notes       []string           `json:"notes,omitempty"`
	ConfigFiles []StatusConfigFile `json:"config_files"`
}

// StatusConfigFile is one config file an agent reads, in precedence order.
type StatusConfigFile struct {
	// Path is relative to the repository's top when inside it.
	Path string `json:"path"`
	// State: "read" (its servers are listed), "invalid" (it does not
	// parse the way the agent reads it: Error says where), "unreadable"
	// (mcp-guard did not read it, or the agent may still load servers
	// from it: what runs is unknown, Error says why). Closed says what
	// either does to the agent's gate.
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	// Servers are the names it holds that the agent loads; Skipped those
	// the agent leaves out while loading the rest, and why.
	Servers []string            `json:"servers"`
	Skipped []StatusSkippedName `json:"skipped,omitempty"`
}

// StatusSkippedName is a server an agent leaves out of a file it loads.
type StatusSkippedName struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Config file states in StatusConfigFile.State.
const (
	FileRead       = "read"
	FileInvalid    = "invalid"
	FileUnreadable = "unreadable"
)

// AgentStates are every agent of all with its config files and their state:
// the "agents" of the status and review documents.
func AgentStates(all []*gate.ClientView) []StatusAgent {
	out := []StatusAgent{}
	for _, cv := range all {
		a := StatusAgent{Client: string(cv.Client), Title: cv.Title, Closed: append([]string{}, cv.Closed...), Notes: cv.Notes, ConfigFiles: []StatusConfigFile{}}
		for i, name := range configNames(cv) {
			var c *trust.Config
			if i < len(cv.Eval.Files) {
				c = cv.Eval.Files[i]
			}
			a.ConfigFiles = append(a.ConfigFiles, ConfigFile(name, c))
		}
		out = append(out, a)
	}
	return out
}

// ConfigFile is the state of the config file at path as its agent read
// it (c; nil when mcp-guard did not read it): the one wording of a config
// file's state in every JSON document.
func ConfigFile(path string, c *trust.Config) StatusConfigFile {
	f := StatusConfigFile{Path: path, State: FileUnreadable, Servers: []string{}}
	if c == nil {
		f.Error = "mcp-guard did not read it"
		return f
	}
	switch {
	case c.Unreadable():
		f.State = FileUnreadable
	case c.Err != nil:
		f.State = FileInvalid
	default:
		f.State = FileRead
	}
	if c.Err != nil {
		f.Error = c.Err.Error()
	}
	for _, s := range c.Servers {
		f.Servers = append(f.Servers, s.Name)
	}
	for _, sk := range c.Skipped {
		f.Skipped = append(f.Skipped, StatusSkippedName{Name: sk.Name, Reason: sk.Reason})
	}
	return f
}

// StatusConfig describes the configuration agentty would read.
type StatusConfig struct {
	Path    string `json:"path"`
	Scope   string `json:"scope"`
	SHA256  string `json:"sha256"`
	Valid   bool   `json:"valid"`
	Blanket string `json:"blanket"`
	// Unreadable is true when mcp-guard did not read the file (Error says
	// why): what agentty runs from it is unknown, and valid is false.
	Unreadable bool `json:"unreadable,omitempty"`
	// Error is why the file is invalid; Note explains a surprising
	// discovery outcome; StoreError says why the approvals store approves
	// nothing.
	Error      string `json:"error,omitempty"`
	Note       string `json:"note,omitempty"`
	StoreError string `json:"store_error,omitempty"`
}

// StatusServer is one server as agentty sees it.
type StatusServer struct {
	Name        string   `json:"name"`
	Transport   string   `json:"transport"`
	Gated       bool     `json:"gated"`
	Disabled    bool     `json:"disabled"`
	Fingerprint string   `json:"fingerprint"`
	Trusted     bool     `json:"trusted"`
	Trust       string   `json:"trust"`
	Command     string   `json:"command"`
	Args        []string `json:"args"`
	URL         string   `json:"url,omitempty"`
	// Shown is what an entry that runs nothing itself is, word by word
	// (Claude Code's settings env: ["env", "NAME=VALUE", …]), or the argv
	// an exec-form hook spawns without a shell; command and args are then
	// the stand-in the launch model analyses.
	Shown []string `json:"shown,omitempty"`
	// Review and Blocks are mcp-guard's own review state; set when a
	// review ledger was consulted.
	Review string `json:"review,omitempty"`
	Blocks *bool  `json:"blocks,omitempty"`
	// Scope is what the server runs from the repository (the items the
	// repository holds), Unresolved what the launch model could not follow;
	// set when mcp-guard read the repository.
	Scope      []ScopeItem `json:"scope,omitempty"`
	Unresolved []string    `json:"unresolved,omitempty"`
	// Client reads the server (agentty, claude-code); Path is its config.
	// For Claude Code, trusted is "runs without asking in an interactive
	// session" and headless the same under `claude -p`; source is the file
	// that decided, repo_side whether the repository wrote it.
	Client   string `json:"client"`
	Path     string `json:"path"`
	Headless *bool  `json:"headless,omitempty"`
	Source   string `json:"source,omitempty"`
	RepoSide bool   `json:"repo_side,omitempty"`
}

// NewStatusDoc builds the status document: every agent of views (the
// gate's View.Shown) with its servers and findings[i], the findings on
// the files of views[i] (an agent whose Inspection the gate handed over
// has those in it too); notes are what no agent's entry carries.
func NewStatusDoc(views []*gate.ClientView, findings [][]trust.Finding, notes []string) StatusDoc {
	doc := StatusDoc{Version: StatusVersion, Agents: []StatusDocAgent{}, Notes: notes}
	states := AgentStates(views)
	for i, cv := range views {
		a := StatusDocAgent{StatusAgent: states[i], Gated: !cv.Ungated, Servers: []StatusServer{}, Findings: []trust.Finding{}}
		if in := cv.Inspection; in != nil {
			a.Config = statusConfig(in)
			a.Servers = inspectedServers(in, cv)
			a.Findings = append(a.Findings, in.Findings...)
		} else {
			a.Servers = clientServers(cv)
		}
		if i < len(findings) {
			a.Findings = append(a.Findings, findings[i]...)
		}
		doc.Agents = append(doc.Agents, a)
	}
	return doc
}

// statusConfig is the configuration an agent reads as in says it does.
func statusConfig(in *trust.Inspection) *StatusConfig {
	out := &StatusConfig{Scope: string(in.Location.Scope), Note: in.Location.Note, Valid: true}
	if in.StoreErr != nil {
		out.StoreError = in.StoreErr.Error()
	}
	if c := in.Config; c != nil {
		out.Path, out.SHA256, out.Valid, out.Unreadable, out.Blanket = c.Path, c.SHA256, c.Valid(), c.Unreadable(), in.Blanket
		if c.Err != nil {
			out.Error = c.Err.Error()
		}
	}
	return out
}

// inspectedServers are the servers of cv as its Inspection judges them
// (trust is the verdict's reason), with the gate's review state of each
// (cv.Servers, in the same order) when the gate asks about it.
func inspectedServers(in *trust.Inspection, cv *gate.ClientView) []StatusServer {
	out := make([]StatusServer, 0, len(in.Verdicts))
	for i, v := range in.Verdicts {
		s := v.Server
		args := s.SpawnArgs()
		if args == nil {
			args = []string{}
		}
		ss := StatusServer{
			Name: s.Name, Transport: string(s.Transport), Gated: s.Gated, Disabled: s.Disabled,
			Fingerprint: s.Fingerprint, Trusted: v.Trusted, Trust: string(v.Reason),
			Command: s.SpawnCommand(), Args: args, URL: s.URL,
			Client: string(cv.Client), Path: in.Config.Path,
		}
		if i < len(cv.Servers) && cv.Servers[i].Name == s.Name {
			cs := cv.Servers[i]
			if cs.Scope != nil {
				sc := NewServerScope(cs.Scope, cs.Files)
				ss.Scope, ss.Unresolved = sc.Items, sc.Unresolved
			}
			if cs.State != "" {
				blocks := cs.Blocks || cs.Why == trust.GateDeclinedRuns
				ss.Review, ss.Blocks = string(cs.State), &blocks
			}
		}
		out = append(out, ss)
	}
	return out
}

// WriteJSON writes v as indented JSON with a final newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// CommandLine renders a server's command line for people: the command and
// its spawn args joined by spaces, each sanitised; an arg that is empty or
// holds spaces is quoted so the words stay countable. An entry that runs
// nothing itself is rendered as its client says it is (Server.Shown),
// with a NAME=VALUE word quoted after the = as a shell would take it; an
// argv its client spawns without a shell (Server.Exec) as that argv, each
// word a shell word (textsafe.ShellWord).
func CommandLine(s *trust.Server) string {
	if s.Command == "" && s.URL != "" {
		return Sanitize(s.URL)
	}
	if len(s.Shown) > 0 {
		parts := make([]string, len(s.Shown))
		for i, w := range s.Shown {
			parts[i] = quoteAssignment(w)
			if s.Exec {
				// An argv spawned without a shell: each word one shell
				// word, so none reads as a shell's operator.
				parts[i] = hintWord(w)
			}
		}
		return strings.Join(parts, " ")
	}
	parts := []string{quoteWord(s.Command)}
	for _, a := range s.Args {
		w := a.Str
		if !a.IsString {
			w = a.Spawn
		}
		parts = append(parts, quoteWord(w))
	}
	return strings.Join(parts, " ")
}

// hintWord is w, sanitised, as one shell word for a command a hint asks
// the user to run (textsafe.ShellWord): a repository chooses its servers' and
// entries' names, so `a;id` or `b$(id)` must reach mcp-guard as the name.
func hintWord(w string) string {
	return textsafe.ShellWord(Sanitize(w))
}

// quoteAssignment is quoteWord of an environment assignment NAME=VALUE
// that quotes only its value (NODE_OPTIONS='--require ./x.js'); any
// other word is quoteWord's.
func quoteAssignment(w string) string {
	name, value, ok := strings.Cut(w, "=")
	if !ok || !envName(name) {
		return quoteWord(w)
	}
	return name + "=" + quoteWord(value)
}

// envName reports whether n is a shell variable name.
func envName(n string) bool {
	for i, r := range n {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return n != ""
}

func quoteWord(w string) string {
	s := Sanitize(w)
	if s == "" || strings.ContainsAny(s, " '\"") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// reasonText explains a verdict in a few words.
func reasonText(v trust.Verdict) string {
	switch v.Reason {
	case trust.ReasonApproved:
		return "approved (fingerprint " + Short(v.Server.Fingerprint) + ")"
	case trust.ReasonWholeFile:
		return "trusted by a whole-file approval"
	case trust.ReasonEnv:
		return "trusted by AGENTTY_MCP_ALLOW_PROJECT"
	case trust.ReasonPending:
		return "pending approval"
	case trust.ReasonUngated:
		if v.Server.URL == "" {
			return "not gated, nothing to run"
		}
		return "not gated (" + string(v.Server.Transport) + ")"
	case trust.ReasonUser:
		return "user configuration, never gated"
	case trust.ReasonExplicit:
		return "AGENTTY_MCP_CONFIG, never gated"
	case trust.ReasonDisabled:
		return "disabled"
	}
	return string(v.Reason)
}

// Short shortens a fingerprint to its first 12 hex digits.
func Short(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// nameColumnCap is the widest a column of entry names grows, in cells: a
// longer name is cut to it with an ellipsis (nameColumn.cell) and shown
// under it (ShowName), said whole only where it must be typed (the
// approve hint).
const nameColumnCap = 48

// nameShownCap is the most of an entry's name (sanitised), in cells, any
// human output shows: a repository can name an entry with thousands of
// characters, and a name that long would bury everything around it. JSON
// keeps the name whole, and so do hints that ask the user to type it.
const nameShownCap = 120

// ShowName is an entry's name as human outputs show it: sanitised, and
// cut to nameShownCap with an ellipsis when longer. It is the one place
// that decides how much of a name people see.
func ShowName(name string) string {
	s, _ := cutCells(Sanitize(name), nameShownCap)
	return s
}

// ShowLabel is cs's label (agent:name[@file], what approve takes) as
// human outputs show it: its name cut as ShowName cuts it.
func ShowLabel(cs gate.ClientServer) string {
	l := Sanitize(string(cs.ClientID())) + ":" + ShowName(cs.Name)
	if cs.In != "" {
		l += "@" + Sanitize(cs.In)
	}
	return l
}

// findingMessage is f's message as human outputs show it (sanitised), its
// server's name cut as ShowName cuts it.
func findingMessage(f trust.Finding) string {
	return ShowNamed(f.Message, f.Server)
}

// nameCutIn is text (a finding's message, a change's reason) sanitised,
// where it names name (bare or quoted) cut as ShowName cuts it.
func ShowNamed(text, name string) string {
	if cut, ok := cutCells(name, nameShownCap); ok && name != "" {
		text = strings.ReplaceAll(text, strconv.Quote(name), strconv.Quote(cut))
		text = strings.ReplaceAll(text, name, cut)
	}
	return Sanitize(text)
}

// statusNameColumn is where status's name column starts: 16 wide, grown
// for longer names up to nameColumnCap.
const statusNameColumn nameColumn = 16

// nameColumn is the width in cells of a column of entry names
// (sanitised): the widest fitted, up to nameColumnCap.
type nameColumn int

// fit widens the column for name, up to the cap.
func (w *nameColumn) fit(name string) {
	*w = nameColumn(max(int(*w), min(cells(name), nameColumnCap)))
}

// cell is name in the column: padded to its width, or cut to it with an
// ellipsis when wider (cut reports that it was) and padded where a wide
// character did not fit, so the columns after it stay aligned whatever a
// repository names its entries, in whatever script.
func (w nameColumn) cell(name string) (s string, cut bool) {
	s, cut = cutCells(name, int(w))
	return padCells(s, int(w)), cut
}

// StatusText is what `status` shows people.
type StatusText struct {
	// Views are every agent here (the gate's View.Shown); Findings[i]
	// those on the files of Views[i].
	Views    []*gate.ClientView
	Findings [][]trust.Finding
	// Idle[i]: the user keeps no state of Views[i]'s agent on this
	// machine (client.State.InUse is false). Such an agent, when nothing
	// of it blocks a launch or closes its gate, is said in one line.
	Idle []bool
	// Unknown is why the gate could not be evaluated ("" when it was):
	// what the agents here run is then not known.
	Unknown string
	// Notes are what no agent carries; Titles the agents mcp-guard knows,
	// named when there is none here.
	Notes, Titles []string
	// Guard is mcp-guard as the user types it here, -C DIR included
	// ("mcp-guard -C 'DIR'"): the start of every command a hint names.
	// "" is plain "mcp-guard".
	Guard string
}

// WriteStatusText writes status for people. An agent the gate holds no
// gate over (Ungated) whose reading the gate handed over (Inspection:
// agentty's own configuration) is said as the agent finds it
// (writeInspection), first; every other agent in one form
// (WriteClientStatus); a finding once per file, with the agents that
// read it.
func WriteStatusText(w io.Writer, t StatusText, st Style) error {
	p := &printer{w: w}
	guard := t.Guard
	if guard == "" {
		guard = "mcp-guard"
	}
	if len(t.Views) == 0 && t.Unknown == "" {
		p.printf("no MCP configuration of any agent here (%s): no project server starts here\n", strings.Join(t.Titles, ", "))
	}
	var gated []*gate.ClientView
	var idle []bool
	var found []statusFinding
	for i, cv := range t.Views {
		if cv.Ungated && cv.Inspection != nil {
			if err := writeInspection(w, cv.Inspection, guard, st); err != nil {
				return err
			}
			continue
		}
		gated = append(gated, cv)
		idle = append(idle, i < len(t.Idle) && t.Idle[i])
		var fs []trust.Finding
		if cv.Inspection != nil {
			fs = append(fs, cv.Inspection.Findings...)
		}
		if i < len(t.Findings) {
			fs = append(fs, t.Findings[i]...)
		}
		for _, f := range fs {
			found = append(found, statusFinding{Finding: f, by: cv.Title})
		}
	}
	if len(gated) > 0 {
		if err := writeClientStatus(w, gated, idle, mergeFindings(found, gated), len(gated) < len(t.Views), guard, st); err != nil {
			return err
		}
	}
	if t.Unknown != "" {
		p.printf("%s what the agents here run is not known: mcp-guard could not evaluate its gate (%s), so nothing here counts as reviewed\n", st.Danger("state unknown:"), Sanitize(t.Unknown))
	}
	for _, n := range t.Notes {
		p.printf("note: %s\n", Sanitize(n))
	}
	return p.err
}

// statusFinding is a finding as status says it: once per file, with the
// agents that read that file (readers) when more than one does.
type statusFinding struct {
	trust.Finding
	by      string   // the agent whose evaluation found it
	readers []string // the agents that read its file, when several do
	// agent are the spans of Message that name by where the same finding
	// of another reader names that reader (agentSpans), once merged:
	// said "each agent".
	agent  [][2]int
	merged bool
}

// mergeFindings says each finding once: the findings of several agents on
// one file that differ at most in the agent each names (MG105's "Claude
// Code asks nothing when its content changes") are one, said with "each
// agent" where they differ, and the agents that read the file (clients'
// config files, or the agents that found it) are named. Only where the
// readings differ is a word replaced: a server or file name that
// contains an agent's name is the same in every reading, so it stays.
func mergeFindings(found []statusFinding, clients []*gate.ClientView) []statusFinding {
	readers := map[string][]string{}
	for _, cv := range clients {
		for _, n := range configNames(cv) {
			readers[n] = appendOnce(readers[n], cv.Title)
		}
	}
	type key struct {
		rule, path, key, server string
		line, col               int
		sev                     trust.Severity
	}
	index := map[key][]int{}
	var out []statusFinding
next:
	for _, f := range found {
		k := key{f.Rule, f.Path, f.Key, f.Server, f.Line, f.Column, f.Severity}
		for _, i := range index[k] {
			o := &out[i]
			if o.by == f.by || slices.Contains(o.readers, f.by) {
				if o.Message == f.Message {
					continue next
				}
				continue
			}
			spans, ok := agentSpans(o.Message, o.by, f.Message, f.by)
			if !ok || (o.merged && !slices.Equal(spans, o.agent)) {
				continue
			}
			o.agent, o.merged = spans, true
			o.readers = appendOnce(o.readers, f.by)
			continue next
		}
		index[k] = append(index[k], len(out))
		f.readers = []string{f.by}
		out = append(out, f)
	}
	for i := range out {
		o := &out[i]
		for j := len(o.agent) - 1; j >= 0; j-- {
			sp := o.agent[j]
			o.Message = o.Message[:sp[0]] + "each agent" + o.Message[sp[1]:]
		}
		for _, r := range readers[o.Path] {
			o.readers = appendOnce(o.readers, r)
		}
	}
	// In scan's order: a merged finding is one of its kind, so its
	// readers are found again by what it says where.
	type said struct {
		rule, path, key, msg string
		line, col            int
	}
	fs := make([]trust.Finding, len(out))
	by := make(map[said][]string, len(out))
	for i, f := range out {
		fs[i] = f.Finding
		by[said{f.Rule, f.Path, f.Key, f.Message, f.Line, f.Column}] = f.readers
	}
	policy.SortBySeverity(fs)
	for i, f := range fs {
		out[i] = statusFinding{Finding: f, readers: by[said{f.Rule, f.Path, f.Key, f.Message, f.Line, f.Column}]}
	}
	return out
}

// agentSpans reports whether a, in agent ta's words, and b, in tb's, are
// one message that differs only where each names its own agent, and the
// spans of a where it does. The two are walked together: where both go
// on with their own agent's name it is one such span, else they must go
// on alike. Text the two share (a server's name, a file's) is walked
// alike and never taken for an agent's name, unless one name starts the
// other, where nothing is merged.
func agentSpans(a, ta, b, tb string) ([][2]int, bool) {
	if ta == "" || tb == "" || strings.HasPrefix(ta, tb) || strings.HasPrefix(tb, ta) {
		return nil, a == b
	}
	var spans [][2]int
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case strings.HasPrefix(a[i:], ta) && strings.HasPrefix(b[j:], tb):
			spans = append(spans, [2]int{i, i + len(ta)})
			i, j = i+len(ta), j+len(tb)
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		default:
			return nil, false
		}
	}
	return spans, true
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// writeInspection renders agentty's reading of a configuration no gate
// stands over (in: its user's own or an explicit configuration, or one
// read when the gate could not be evaluated), in the manner of `agentty
// plugin list --project`, plus why each server is trusted.
func writeInspection(w io.Writer, in *trust.Inspection, guard string, st Style) error {
	p := &printer{w: w}
	c := in.Config
	p.printf("%s (%s configuration%s):\n", st.Bold(Sanitize(c.Path)), c.Scope, gatedNote(c.Scope))
	if in.Location.Note != "" {
		p.printf("  note: %s\n", Sanitize(in.Location.Note))
	}
	switch {
	case c.Unreadable():
		p.printf("  %s %s\n", st.Danger("unreadable:"), Sanitize(c.UnreadableText()))
		p.printf("  agentty has no such limit: it may run servers from this file, and none is shown here\n")
	case !c.Valid():
		p.printf("  %s %s\n", st.Danger("invalid:"), Sanitize(c.Err.Error()))
		p.printf("  agentty runs nothing from this file, and its own servers do not connect either\n")
	case len(in.Verdicts) == 0:
		p.printf("  no servers\n")
	}
	width := statusNameColumn
	for _, v := range in.Verdicts {
		width.fit(ShowName(v.Server.Name))
	}
	for _, v := range in.Verdicts {
		mark := "  "
		switch {
		case v.Reason == trust.ReasonPending:
			mark = st.Pending("— ")
		case v.Trusted && v.Server.Command != "":
			mark = st.OK("✓ ")
		}
		name, cut := width.cell(ShowName(v.Server.Name))
		line := fmt.Sprintf("  %s%s %s", mark, name, CommandLine(v.Server))
		p.printf("%s  %s\n", line, st.Dim("["+reasonText(v)+"]"))
		if cut {
			p.printf("      name: %s\n", ShowName(v.Server.Name))
		}
	}
	if in.StoreErr != nil {
		p.printf("%s the approvals store approves nothing: %s\n", st.Warning("warning:"), Sanitize(in.StoreErr.Error()))
	}
	if len(in.Findings) > 0 {
		p.printf("\n")
		for _, f := range in.Findings {
			p.wrapf(st, "%s %s %s:%d: %s\n", severityMark(f.Severity, st), f.Rule, Sanitize(f.Path), f.Line, findingMessage(f))
		}
	}
	if c.Scope == trust.ScopeProject && len(in.Verdicts) > 0 {
		p.printf("\n%s agentty runs it without asking · %s agentty asks first · %s approve NAME: you reviewed it, agentty may run it\n", st.OK("✓"), st.Pending("—"), guard)
	}
	return p.err
}

func gatedNote(s trust.Scope) string {
	if s == trust.ScopeProject {
		return ", gated"
	}
	return ", never gated"
}

func severityMark(s trust.Severity, st Style) string {
	switch s {
	case trust.SeverityCritical, trust.SeverityHigh:
		return st.Danger(string(s))
	case trust.SeverityMedium:
		return st.Warning(string(s))
	}
	return st.Dim(string(s))
}

// printer remembers the first write error so renderers stay readable.
type printer struct {
	w   io.Writer
	err error
}

// wrapf is printf of one line that st wraps to the terminal (Style.Wrap).
func (p *printer) wrapf(st Style, format string, args ...any) {
	p.printf("%s", st.Wrap(fmt.Sprintf(format, args...)))
}

func (p *printer) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

// clientServers are cv's servers as its client judges them, with the
// gate's review state of each.
func clientServers(cv *gate.ClientView) []StatusServer {
	out := make([]StatusServer, 0, len(cv.Servers))
	for _, cs := range cv.Servers {
		s := cs.Server
		ss := StatusServer{Name: cs.Name, Client: string(cv.Client), Path: cs.Config, Args: []string{},
			Trusted: cs.Interactive, Trust: cs.ServerVerdict.Why, Source: cs.Source, RepoSide: cs.RepoSide,
			Review: string(cs.State)}
		headless, blocks := cs.Headless, cs.Blocks || declinedRuns(cs)
		ss.Headless, ss.Blocks = &headless, &blocks
		if s != nil {
			// What the client starts: its spawn view after interpolation.
			ss.Transport, ss.Command, ss.URL, ss.Shown = string(s.Transport), cs.Spawn.Command, s.URL, s.Shown
			if cs.Spawn.Args != nil {
				ss.Args = cs.Spawn.Args
			}
			if cs.Spawn.Command == "" {
				ss.Command = s.SpawnCommand()
				if a := s.SpawnArgs(); a != nil {
					ss.Args = a
				}
			}
		}
		if cs.Scope != nil {
			sc := NewServerScope(cs.Scope, cs.Files)
			ss.Scope, ss.Unresolved = sc.Items, sc.Unresolved
		}
		out = append(out, ss)
	}
	return out
}

// AgentWords is an agent's verdict about a server in the words its client
// gave (agentty's names the fingerprint it approved), with what `claude
// -p` does when that differs from an interactive session.
func AgentWords(cv *gate.ClientView, cs gate.ClientServer) string {
	why := cs.ServerVerdict.Why
	if h := cv.Headless; h != "" && cs.Interactive && cs.Headless && !strings.Contains(why, h) {
		why += "; `" + h + "` runs it too"
	}
	return why
}

// WriteClientStatus writes what each agent would run here: per server
// its config, the agent's verdict in its words, what it runs from the
// repository and mcp-guard's review state; then findings about the
// agents' files. after says whether other text came first (a blank line
// then separates them).
func WriteClientStatus(w io.Writer, clients []*gate.ClientView, findings []trust.Finding, after bool, st Style) error {
	fs := make([]statusFinding, len(findings))
	for i, f := range findings {
		fs[i] = statusFinding{Finding: f}
	}
	return writeClientStatus(w, clients, nil, fs, after, "mcp-guard", st)
}

// writeClientStatus is WriteClientStatus with each finding's readers, and
// the agents the user keeps no state of (idle[i] for clients[i]) folded
// into one line when nothing of theirs needs the user (folded) and an
// agent shown in full reads each of their files; its hints start with
// guard (StatusText.Guard).
func writeClientStatus(w io.Writer, clients []*gate.ClientView, idle []bool, findings []statusFinding, after bool, guard string, st Style) error {
	reviewCmd := guard + " review"
	p := &printer{w: w}
	// Folded: an idle agent that needs nothing of the user and reads only
	// files an agent shown in full reads too (.mcp.json beside Claude
	// Code); a file of its own (.qwen/settings.json) keeps it in full.
	read := map[string]bool{}
	for i, cv := range clients {
		if i >= len(idle) || !idle[i] || !folded(cv) {
			for _, n := range configNames(cv) {
				read[n] = true
			}
		}
	}
	var shown, quiet []*gate.ClientView
	for i, cv := range clients {
		if i < len(idle) && idle[i] && folded(cv) && allRead(configNames(cv), read) {
			quiet = append(quiet, cv)
		} else {
			shown = append(shown, cv)
		}
	}
	var waiting bool
	var waitKinds []string // of the entries that wait
	var wayOut []string
	same := sameServers(shown)
	for i, cv := range shown {
		if i > 0 || after {
			p.printf("\n")
		}
		files := "no config file"
		if names := configNames(cv); len(names) > 0 {
			one := "config"
			if k := entryFilesKind(cv, names); k != "" {
				one, _ = kindWords([]string{k})
			}
			files = Count(len(names), one+" file", one+" files") + ": " + Sanitize(strings.Join(names, ", "))
		}
		p.printf("%s (%s):\n", st.Bold(cv.Title), files)
		for _, c := range cv.Closed {
			p.wrapf(st, "  %s %s\n", st.Danger("closed:"), Sanitize(c))
		}
		for _, n := range cv.Notes {
			p.wrapf(st, "  %s %s\n", st.Warning("note:"), Sanitize(n))
		}
		if len(cv.Servers) == 0 {
			p.printf("  no servers\n")
		}
		width := statusNameColumn
		for _, cs := range cv.Servers {
			width.fit(ShowName(cs.Name))
		}
		for k := range cv.Servers {
			cs := &cv.Servers[k]
			mark := serverMark(*cs, st)
			name, cut := width.cell(ShowName(cs.Name))
			// Every entry's review counts for the closing lines, said or not.
			review, blocks, way := reviewState(cv, *cs, reviewCmd)
			waiting = waiting || blocks
			if blocks {
				waitKinds = append(waitKinds, cs.Kind())
			}
			if way != "" {
				wayOut = append(wayOut, way)
			}
			// On a terminal a line wraps under its text: the command's
			// column for the server's line, two past the indent for the
			// lines under it.
			cmdCol := 2 + 2 + int(width) + 1
			under := func(format string, args ...any) {
				p.printf("%s", st.WrapHang(fmt.Sprintf("      "+format+"\n", args...), 8))
			}
			if lead, ok := same.leadOf[cs]; ok {
				p.printf("  %s%s %s  %s\n", mark, name, "the same server as "+lead.cv.Title+"'s above: one decision covers "+coverWord(len(same.others[lead.cs])+1), st.Dim(Sanitize(cs.Config)))
				if cut {
					p.printf("      name: %s\n", ShowName(cs.Name))
				}
				continue
			}
			cmd := ""
			if cs.Server != nil {
				cmd = CommandLine(cs.Server)
			}
			p.printf("%s", st.WrapHang(fmt.Sprintf("  %s%s %s  %s\n", mark, name, cmd, st.Dim(Sanitize(cs.Config))), cmdCol))
			if cut {
				p.printf("      name: %s\n", ShowName(cs.Name))
			}
			members := append([]serverRef{{cv, cs}}, same.others[cs]...)
			if len(members) == 1 {
				under("%s", ShowNamed(AgentWords(cv, *cs), cs.Name))
			} else {
				for _, m := range members {
					under("%s: %s", m.cv.Title, ShowNamed(AgentWords(m.cv, *m.cs), m.cs.Name))
				}
			}
			for _, l := range scopeLines(NewServerScope(cs.Scope, cs.Files), 6) {
				under("%s", st.Dim(l))
			}
			reviews := []string{review}
			for _, m := range members[1:] {
				r, _, _ := reviewState(m.cv, *m.cs, reviewCmd)
				reviews = appendOnce(reviews, r)
			}
			if len(reviews) == 1 {
				under("%s", st.Dim("["+Sanitize(review)+"]"))
			} else {
				for _, m := range members {
					r, _, _ := reviewState(m.cv, *m.cs, reviewCmd)
					under("%s", st.Dim("["+m.cv.Title+": "+Sanitize(r)+"]"))
				}
			}
			if len(members) > 1 {
				titles := make([]string, len(members))
				for i, m := range members {
					titles[i] = m.cv.Title
				}
				p.printf("      %s\n", OneDecisionLine(cs.Name, titles))
			}
		}
	}
	if len(shown) > 0 {
		p.wrapf(st, "%s\n", statusLegend(shown, guard, st))
	}
	for _, l := range foldedLines(quiet, guard) {
		p.printf("%s\n", l)
	}
	for _, f := range findings {
		by := ""
		if len(f.readers) > 1 {
			by = " (read by " + JoinList(f.readers, "and") + ")"
		}
		p.wrapf(st, "%s %s %s:%d: %s%s\n", severityMark(f.Severity, st), f.Rule, Sanitize(f.Path), f.Line, findingMessage(f.Finding), by)
	}
	if waiting {
		_, many := kindWords(waitKinds)
		p.printf("mcp-guard launch refuses to start an agent while its %s wait for review (%s)\n", many, reviewCmd)
	}
	for _, l := range wayOut {
		p.printf("%s\n", l)
	}
	return p.err
}

// serverMark is the mark before a server: runs without asking, or asks.
func serverMark(cs gate.ClientServer, st Style) string {
	switch {
	case cs.Interactive:
		return st.OK("✓ ")
	case cs.Runs:
		return st.Pending("— ")
	}
	return "  "
}

// reviewState is cs's review state as status says it, whether it keeps
// the launch waiting for review, and the way out when it is a declined
// entry its agent runs on its own (which review cannot clear), naming
// reviewCmd.
func reviewState(cv *gate.ClientView, cs gate.ClientServer, reviewCmd string) (review string, waits bool, wayOut string) {
	title := cv.Title
	review = "review: " + string(cs.State)
	switch {
	case declinedRuns(cs):
		return review + ", blocks launch: " + clientGateReason(cv, cs, title), false, DeclinedRunsWayOut(cs, title, reviewCmd)
	case cs.Blocks:
		return review + ", blocks launch: " + clientGateReason(cv, cs, title), true, ""
	case cs.Outside && cs.Runs:
		review += ", left out by launch: " + clientGateReason(cv, cs, title)
	}
	return review, false, ""
}

// serverRef is one agent's entry.
type serverRef struct {
	cv *gate.ClientView
	cs *gate.ClientServer
}

// sameSet is what one decision covers among the agents status shows
// (gate.OneDecision, as review groups them): each set's first entry
// (the lead, said in full) with the others' entries, and each other
// entry's lead (said in one line under its own agent).
type sameSet struct {
	others map[*gate.ClientServer][]serverRef
	leadOf map[*gate.ClientServer]serverRef
}

func sameServers(clients []*gate.ClientView) sameSet {
	out := sameSet{others: map[*gate.ClientServer][]serverRef{}, leadOf: map[*gate.ClientServer]serverRef{}}
	var refs []serverRef
	for _, cv := range clients {
		for k := range cv.Servers {
			refs = append(refs, serverRef{cv, &cv.Servers[k]})
		}
	}
	for _, set := range gate.OneDecisionOf(len(refs), func(i int) *gate.ClientServer { return refs[i].cs }) {
		lead := refs[set[0]]
		for _, i := range set[1:] {
			out.others[lead.cs] = append(out.others[lead.cs], refs[i])
			out.leadOf[refs[i].cs] = lead
		}
	}
	return out
}

// declinedRuns reports whether cs is an entry the user declined that
// its agent runs on its own and launch cannot leave out: it keeps the
// launch refused (gate.ClientView.Blocking), and reviewing it again only
// leads back here (DeclinedRunsWayOut).
func declinedRuns(cs gate.ClientServer) bool {
	return cs.Why == trust.GateDeclinedRuns && cs.Runs && !cs.LaunchLeavesOut()
}

// allRead reports whether every name is in read.
func allRead(names []string, read map[string]bool) bool {
	for _, n := range names {
		if !read[n] {
			return false
		}
	}
	return true
}

// folded reports whether cv can be said in one line when its user keeps
// no state of it: nothing of it blocks a launch, its gate is not closed,
// it has no note, and it starts nothing here without asking.
func folded(cv *gate.ClientView) bool {
	if len(cv.Closed) > 0 || len(cv.Notes) > 0 || len(cv.Servers) == 0 {
		return false
	}
	for _, cs := range cv.Servers {
		if cs.Blocks || declinedRuns(cs) || cs.Interactive || cs.Headless {
			return false
		}
	}
	return true
}

// foldedLines say the agents the user keeps no state of, one line for
// those that read the same files and hold the same servers in the same
// review state: "Qwen Code and Copilot CLI also read .mcp.json (db, x:
// unreviewed) ...".
func foldedLines(quiet []*gate.ClientView, guard string) []string {
	var keys []string
	titles := map[string][]string{}
	for _, cv := range quiet {
		states := map[string][]string{}
		var order []string
		for _, cs := range cv.Servers {
			st := string(cs.State)
			if _, ok := states[st]; !ok {
				order = append(order, st)
			}
			states[st] = append(states[st], ShowName(cs.Name))
		}
		var parts []string
		for _, st := range order {
			parts = append(parts, strings.Join(states[st], ", ")+": "+st)
		}
		k := Sanitize(strings.Join(configNames(cv), ", ")) + " (" + strings.Join(parts, "; ") + ")"
		if _, ok := titles[k]; !ok {
			keys = append(keys, k)
		}
		titles[k] = append(titles[k], cv.Title)
	}
	var out []string
	for _, k := range keys {
		t := titles[k]
		reads, they, none := "reads", "it", "it starts none of them"
		if len(t) > 1 {
			reads, they, none = "read", "them", "none starts them"
		}
		out = append(out, JoinList(t, "and")+" also "+reads+" "+k+": you keep no state of "+they+" on this machine, and "+none+
			" without asking ("+guard+" status --json has "+they+" in full)")
	}
	return out
}

// configNames are cv's config files as status names them: relative to
// the repository's top when inside it (as agentty's), else absolute.
func configNames(cv *gate.ClientView) []string {
	out := make([]string, len(cv.Eval.Configs))
	for i, p := range cv.Eval.Configs {
		out[i] = p
		if cv.Top == "" || !filepath.IsAbs(p) {
			continue
		}
		if rel, err := filepath.Rel(cv.Top, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			out[i] = filepath.ToSlash(rel)
		}
	}
	return out
}

// entryFilesKind is the kind of entry every one of names (cv's config
// files) is, when each file is an entry itself (a Cline hook is its
// file: the entry's name is the file's path) and all are of one kind;
// "" otherwise.
func entryFilesKind(cv *gate.ClientView, names []string) string {
	kinds := map[string]string{}
	for _, cs := range cv.Servers {
		if cs.Name == cs.Config && !cs.IsServer() {
			kinds[cs.Config] = cs.Kind()
		}
	}
	kind := ""
	for i, n := range names {
		k := kinds[n]
		if k == "" || (i > 0 && k != kind) {
			return ""
		}
		kind = k
	}
	return kind
}

// statusLegend is the one legend under every agent's servers: the marks,
// each headless run that starts what an interactive session asks about,
// and the launches that hand over only reviewed servers.
func statusLegend(clients []*gate.ClientView, guard string, st Style) string {
	var launches, headless, own []string
	blank := false
	for _, cv := range clients {
		for _, cs := range cv.Servers {
			blank = blank || (!cs.Interactive && !cs.Runs)
		}
		h := cv.Headless
		if h == "" {
			continue
		}
		if cv.Pending != "" {
			own = append(own, cv.Pending)
		} else {
			headless = append(headless, "`"+h+"` runs it")
		}
		if cv.Command != "" && !cv.HandsNothing {
			launches = append(launches, "`"+guard+" launch -- "+cv.Command+"`")
		}
	}
	pending := own
	if len(headless) > 0 || len(own) == 0 {
		pending = append([]string{strings.Join(append([]string{"asks first"}, headless...), ", ")}, own...)
	}
	legend := st.OK("✓") + " runs without asking · " + st.Pending("—") + " " + strings.Join(pending, "; ")
	if blank {
		legend += " · no mark: asks before it runs it, or does not run it"
	}
	switch len(launches) {
	case 0:
	case 1:
		legend += " · " + launches[0] + " hands over only reviewed servers"
	default:
		legend += " · " + JoinList(launches, "and") + " hand over only reviewed servers"
	}
	return legend
}
