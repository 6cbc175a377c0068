package trust

import (
	"cmp"
	"fmt"
	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"path"
	"sort"
	"strconv"
	"strings"
)

// ChangeKind says how a server's entry differs between two sides.
type ChangeKind string

const (
	ChangeAdded     ChangeKind = "added"
	ChangeRemoved   ChangeKind = "removed"
	ChangeChanged   ChangeKind = "changed"
	ChangeRenamed   ChangeKind = "renamed" // the same entry under a new name
	ChangeUnchanged ChangeKind = "unchanged"
)

// Impact is what a change does to the user's approvals.
type Impact string

const (
	// ImpactTrustPreserving: agentty's approval still holds (the same
	// fingerprint is approved, a whole-file approval, the blanket env grant,
	// or an http entry that is never gated), yet what runs changed. The
	// dangerous kind: agentty runs it without asking.
	ImpactTrustPreserving Impact = "trust-preserving"
	// ImpactInvalidated: agentty ran it without asking before and will ask
	// now (the approval no longer matches).
	ImpactInvalidated Impact = "invalidated"
	// ImpactNewPreapproved: added or changed, and agentty runs the new
	// entry without asking (its fingerprint is approved from elsewhere, the
	// new file is approved whole, the blanket env grant, or never gated).
	ImpactNewPreapproved Impact = "new-preapproved"
	// ImpactNewUnapproved: added or changed, and agentty will ask first.
	ImpactNewUnapproved Impact = "new-unapproved"
	// ImpactRemoved: it ran before and does not run now.
	ImpactRemoved Impact = "removed"
	// ImpactUnchanged: nothing that runs changed, nor its approval.
	ImpactUnchanged Impact = "unchanged"
)

// Rank orders impacts for display: the most dangerous first (0).
func (i Impact) Rank() int {
	switch i {
	case ImpactTrustPreserving:
		return 0
	case ImpactInvalidated:
		return 1
	case ImpactNewPreapproved:
		return 2
	case ImpactNewUnapproved:
		return 3
	case ImpactRemoved:
		return 4
	case ImpactUnchanged:
		return 5
	}
	return 6
}

// NeedsAttention reports whether the user should look before running
// agentty: every impact but removed and unchanged.
func (i Impact) NeedsAttention() bool { return i.Rank() < ImpactRemoved.Rank() }

// FieldChange is one key of an entry that differs. Old and New are the
// canonical JSON text of the value ("" when absent on that side), so that
// "8080" and 8080 stay distinguishable. Objects are compared member by
// member ("env.NODE_OPTIONS") and arrays element by element ("args[2]");
// deeper values as a whole.
type FieldChange struct {
	Field string // "command", "args[2]", "env.NODE_OPTIONS", "trustAnnotations", ...
	Old   string
	New   string
}

// FileChange is one referenced repository path whose content differs (the
// zero Object where absent or not counted on that side). For an added or
// removed server it lists what the server runs on its one side.
type FileChange struct {
	Path string
	Old  Object
	New  Object
	// Why the server runs it (the new side's reason, else the old one's).
	Why string
	// Within, where one side does not run the path by name, is the item
	// of that side that holds it all the same (a directory's code): the
	// server did not start or stop running it, it is counted there.
	// Package project fills it (it knows what an item holds).
	Within string
	// Submodule is the path of the submodule the file lies in when a
	// side's object is the submodule's commit (mode 160000): its content
	// there was not read. Package project fills it.
	Submodule string
}

// Change is what happened to one server of one configuration.
type Change struct {
	// Client is the client whose configuration Path is, as in ReviewKey:
	// "" for agentty, else the client's id ("claude-code", "gemini-cli",
	// "codex", "cursor", "vscode").
	Client string
	// Path is the configuration's path (repository-relative).
	Path string
	// Server is the name on the new side (the old name when removed).
	Server string
	Change ChangeKind
	// OldName is the previous name of a renamed server.
	OldName string
	Fields  []FieldChange
	Files   []FileChange
	// OldFingerprint and NewFingerprint are agentty's; OldDeep and NewDeep
	// mcp-guard's deep fingerprints. Empty on the side where the server is
	// absent.
	OldFingerprint, NewFingerprint string
	OldDeep, NewDeep               string
	Impact                         Impact
	// Reasons explain the impact in a few words each, for people. They
	// quote repository strings raw: renderers sanitise them.
	Reasons []string
	// Old and New are the entries (nil where absent).
	Old, New *Server
}

// ClientClaudeCode is Claude Code's client id in Change and ReviewKey.
const ClientClaudeCode = "claude-code"

// ClientCline is Cline's: its configs are hook files two directories
// below the workspace they run in (.clinerules/hooks/TaskStart).
const ClientCline = "cline"

// ConfigLaunchDir is the launch directory ("" for the root) of a
// repository-relative configuration path of client: the directory holding
// `.agentty` for agentty (and `.gemini`, `.codex`, `.cursor`, `.vscode`
// for the other clients), the directory holding `.mcp.json` for Claude
// Code (and `.claude` for its settings files, whose hooks and helpers are
// entries too, and for a skill's `.claude/skills/<name>/SKILL.md` or a
// subagent's `.claude/agents/<name>.md` (or in a subdirectory of it),
// whose frontmatter hooks run from there).
func ConfigLaunchDir(client, configPath string) string {
	if client == ClientCline {
		// The directory holding the .clinerules or .cline the file is
		// below (a hook file, a plugin module, a plugin package's
		// package.json).
		parts := strings.Split(configPath, "/")
		for i := len(parts) - 2; i >= 0; i-- {
			if strings.EqualFold(parts[i], ".cline") || strings.EqualFold(parts[i], ".clinerules") {
				return strings.Join(parts[:i], "/")
			}
		}
		return LaunchDir(path.Dir(configPath))
	}
	if client == ClientClaudeCode {
		parts := strings.Split(configPath, "/")
		n := len(parts)
		if n >= 4 && strings.EqualFold(parts[n-1], "SKILL.md") &&
			strings.EqualFold(parts[n-3], "skills") && strings.EqualFold(parts[n-4], ".claude") {
			return strings.Join(parts[:n-4], "/")
		}
		if strings.EqualFold(path.Ext(parts[n-1]), ".md") {
			// a subagent, directly in .claude/agents or below it
			for i := n - 2; i >= 1; i-- {
				if strings.EqualFold(parts[i], "agents") && strings.EqualFold(parts[i-1], ".claude") {
					return strings.Join(parts[:i-1], "/")
				}
			}
		}
	}
	if client != ClientClaudeCode || strings.EqualFold(path.Base(path.Dir(configPath)), ".claude") {
		return LaunchDir(configPath)
	}
	if d := path.Dir(configPath); d != "." && d != "/" {
		return d
	}
	return ""
}

// LaunchDir is the launch directory of the change's configuration.
func (c *Change) LaunchDir() string { return ConfigLaunchDir(c.Client, c.Path) }

// Grader grades a change of a client whose gate is not agentty's: the
// impact and its reasons. c holds everything else (kind, fields, files,
// fingerprints, the entries).
type Grader func(c *Change) (Impact, []string)

// DiffClient is Diff for another client's configuration: the same
// pairing (by name, then renames of identical entries), field and file
// changes and deep fingerprints, with Client set and the impact from
// grade. Unchanged servers whose impact is unchanged are included, as by
// Diff.
func DiffClient(client string, old, new *Config, oldFiles, newFiles Files, grade Grader) []Change {
	return diff(client, old, new, oldFiles, newFiles, Grants{}, grade)
}

// Diff compares one configuration path at two sides (either may be nil:
// absent) and says, per server, what changed and what that does to the
// approvals g describes. Both configs must carry repository-relative paths
// (see LaunchDir) and be project configurations; oldFiles and newFiles
// resolve the references of the servers on each side (nil: none). The
// result holds every server of either side, unchanged ones included,
// sorted by impact (trust-preserving first) and name.
//
// agentty's gate is evaluated on each side as Evaluate does (the blanket
// env, the whole-file hash of that side's file, the server's fingerprint;
// http entries are never gated), and the impact follows:
//
//   - trust-preserving: what runs changed (the entry, its name, or a file it
//     runs) and agentty runs it without asking on both sides with the same
//     grant: the same fingerprint approved, the blanket env, a whole-file
//     approval matching both files, or an http entry (never gated);
//   - invalidated: agentty ran it without asking and will ask now, whether
//     the entry changed or not (an unchanged entry loses a whole-file
//     approval when any other byte of the file changes);
//   - new-preapproved: added, re-enabled or changed, and agentty runs the
//     new entry without asking although nobody approved this change here;
//   - new-unapproved: added, re-enabled or changed, and agentty will ask;
//   - removed: it ran before and is gone or disabled now;
//   - unchanged: nothing that runs changed, nor whether agentty asks (a
//     `type` that leaves agentty's transport as it was included).
//
// When new is a file mcp-guard did not read (Unreadable), nothing is
// compared: what agentty runs from it is unknown, and its MG310 finding
// says so rather than a list of servers "removed".
func Diff(old, new *Config, oldFiles, newFiles Files, g Grants) []Change {
	return diff("", old, new, oldFiles, newFiles, g, nil)
}

func diff(client string, old, new *Config, oldFiles, newFiles Files, g Grants, grade Grader) []Change {
	if new.Unreadable() {
		return nil
	}
	cfgPath := ""
	switch {
	case new != nil:
		cfgPath = new.Path
	case old != nil:
		cfgPath = old.Path
	default:
		return nil
	}
	oldSide := diffSide(old, oldFiles, g, grade == nil)
	newSide := diffSide(new, newFiles, g, grade == nil)

	// Pair servers by name, then removed with added ones whose entries are
	// identical (renames), first come first served in name order.
	var removed, added []string
	pairs := map[string]string{} // new name -> old name
	for _, s := range newSide.servers {
		if oldSide.byName[s.Name] != nil {
			pairs[s.Name] = s.Name
		} else {
			added = append(added, s.Name)
		}
	}
	for _, s := range oldSide.servers {
		if newSide.byName[s.Name] == nil {
			removed = append(removed, s.Name)
		}
	}
	renamedFrom := map[string]bool{}
	if len(removed) > 0 {
		// Each removed entry's canonical form once, the names in order:
		// an added server takes the first one left with its form. (It
		// was computed again for every added server: quadratic in a
		// pull that renames many, and every added server's form was
		// computed even when nothing was removed.)
		byCanon := map[string][]string{}
		for _, r := range removed {
			canon := oldSide.byName[r].Canonical()
			byCanon[canon] = append(byCanon[canon], r)
		}
		for _, a := range added {
			canon := newSide.byName[a].Canonical()
			if rs := byCanon[canon]; len(rs) > 0 {
				pairs[a] = rs[0]
				renamedFrom[rs[0]] = true
				byCanon[canon] = rs[1:]
			}
		}
	}

	var out []Change
	for _, s := range newSide.servers {
		oldName, ok := pairs[s.Name]
		var o *Server
		if ok {
			o = oldSide.byName[oldName]
		}
		out = append(out, diffServer(client, cfgPath, oldSide, newSide, o, s, g, grade))
	}
	for _, r := range removed {
		if !renamedFrom[r] {
			out = append(out, diffServer(client, cfgPath, oldSide, newSide, oldSide.byName[r], nil, g, grade))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := out[i].Impact.Rank(), out[j].Impact.Rank(); ri != rj {
			return ri < rj
		}
		return out[i].Server < out[j].Server
	})
	return out
}

// side is one configuration prepared for Diff.
type side struct {
	cfg      *Config
	launch   string
	files    Files
	servers  []*Server
	byName   map[string]*Server
	verdicts map[string]Verdict
}

func diffSide(c *Config, files Files, g Grants, agentty bool) *side {
	sd := &side{cfg: c, files: files, byName: map[string]*Server{}, verdicts: map[string]Verdict{}}
	if c == nil {
		return sd
	}
	sd.launch = LaunchDir(c.Path)
	if c.Valid() {
		sd.servers = c.Servers
	}
	for _, s := range sd.servers {
		sd.byName[s.Name] = s
	}
	if agentty {
		for _, v := range Evaluate(c, g) {
			sd.verdicts[v.Server.Name] = v
		}
	}
	return sd
}

// runs reports whether agentty starts (or connects) s at all, and whether
// it does so without asking.
func (sd *side) runs(s *Server) (active, auto bool, why Reason) {
	if s == nil || s.Disabled || (s.Command == "" && s.URL == "") {
		return false, false, ""
	}
	v := sd.verdicts[s.Name]
	return true, v.Trusted, v.Reason
}

func diffServer(client, cfgPath string, os, ns *side, o, n *Server, g Grants, grade Grader) Change {
	c := Change{Client: client, Path: cfgPath, Old: o, New: n}
	var oldFiles, newFiles []FileID
	if o != nil {
		c.Server = o.Name
		c.OldFingerprint = o.Fingerprint
		oldFiles = os.files.For(o)
		c.OldDeep = DeepFingerprint(o, oldFiles)
	}
	if n != nil {
		c.Server = n.Name
		c.NewFingerprint = n.Fingerprint
		newFiles = ns.files.For(n)
		c.NewDeep = DeepFingerprint(n, newFiles)
	}
	c.Fields = fieldChanges(o, n)
	c.Files = FileChanges(oldFiles, newFiles)
	switch {
	case o == nil:
		c.Change = ChangeAdded
	case n == nil:
		c.Change = ChangeRemoved
	case o.Name != n.Name:
		c.Change, c.OldName = ChangeRenamed, o.Name
	case len(c.Fields) > 0 || len(c.Files) > 0 || c.OldDeep != c.NewDeep:
		// (The deep fingerprints decide too: reviews are bound to them,
		// so whatever they see changed is never reported unchanged.)
		c.Change = ChangeChanged
	default:
		c.Change = ChangeUnchanged
	}
	if grade != nil {
		c.Impact, c.Reasons = grade(&c)
	} else {
		c.Impact, c.Reasons = impact(&c, os, ns, g)
	}
	return c
}

// impact applies the rules documented on Diff.
func impact(c *Change, os, ns *side, g Grants) (Impact, []string) {
	oActive, oAuto, oWhy := os.runs(c.Old)
	nActive, nAuto, nWhy := ns.runs(c.New)
	changed := c.Change != ChangeUnchanged
	name := c.Server
	switch {
	case c.New == nil:
		return ImpactRemoved, []string{"no longer in the configuration"}
	case !nActive && oActive:
		if c.New.Disabled {
			return ImpactRemoved, []string{"disabled: agentty no longer runs it"}
		}
		return ImpactRemoved, []string{"no command or url left: agentty has nothing to run"}
	case !nActive:
		if changed {
			return ImpactUnchanged, []string{"changed, but agentty runs it on neither side (disabled or empty)"}
		}
		return ImpactUnchanged, nil
	case !oActive:
		what := "added"
		if c.Old != nil {
			what = "enabled"
		}
		if nAuto {
			return ImpactNewPreapproved, []string{what + ": " + grantText(nWhy, c.New, true)}
		}
		return ImpactNewUnapproved, []string{what + ": agentty will ask before running it (" + approveHint(name) + ")"}
	case !changed:
		switch {
		case oAuto && !nAuto:
			return ImpactInvalidated, []string{revokedText(oWhy, c.Old)}
		case !oAuto && nAuto:
			return ImpactNewPreapproved, []string{"unchanged, but now " + grantText(nWhy, c.New, false)}
		}
		return ImpactUnchanged, nil
	}
	// Active on both sides, and what runs changed.
	if note := transportOnly(c); note != "" && oAuto == nAuto && oWhy == nWhy {
		return ImpactUnchanged, []string{note}
	}
	switch {
	case oAuto && nAuto:
		same := oWhy == nWhy && (nWhy != ReasonApproved || c.Old.Fingerprint == c.New.Fingerprint)
		if same || nWhy == ReasonUngated || nWhy == ReasonEnv {
			reasons := []string{grantText(nWhy, c.New, false) + ", yet what runs changed"}
			return ImpactTrustPreserving, append(reasons, unhashedChanges(c, nWhy)...)
		}
		return ImpactNewPreapproved, []string{"changed, and " + grantText(nWhy, c.New, false)}
	case oAuto:
		return ImpactInvalidated, []string{revokedText(oWhy, c.Old)}
	case nAuto:
		return ImpactNewPreapproved, []string{"changed, and " + grantText(nWhy, c.New, false)}
	}
	return ImpactNewUnapproved, []string{"changed: agentty will ask before running it (" + approveHint(name) + ")"}
}

// grantText says why agentty runs a server without asking.
func grantText(why Reason, s *Server, fresh bool) string {
	switch why {
	case ReasonEnv:
		return "AGENTTY_MCP_ALLOW_PROJECT is set: agentty runs every project server without asking"
	case ReasonWholeFile:
		return "the whole file's hash is approved: agentty runs every server in it without asking"
	case ReasonUngated:
		return string(s.Transport) + " servers are never gated: agentty connects without asking"
	case ReasonApproved:
		if fresh {
			return "its fingerprint " + shortHash(s.Fingerprint) + " is already approved (from another repository, name or config): agentty runs it without asking"
		}
		return "its fingerprint " + shortHash(s.Fingerprint) + " is approved: agentty runs it without asking"
	}
	return "agentty runs it without asking (" + string(why) + ")"
}

// revokedText says which approval stopped matching.
func revokedText(why Reason, old *Server) string {
	if why == ReasonWholeFile {
		return "the file changed, so its whole-file approval no longer matches: agentty will ask before running it"
	}
	return "the approved fingerprint " + shortHash(old.Fingerprint) + " no longer matches: agentty will ask before running it"
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// transportOnly says, when the only field that differs is `type` and agentty
// picks the same transport from both entries (a url makes it http
// whatever the type says), that nothing that runs changed; "" otherwise.
func transportOnly(c *Change) string {
	if c.Change != ChangeChanged || len(c.Files) > 0 || len(c.Fields) != 1 || c.Fields[0].Field != "type" ||
		c.Old.Transport != c.New.Transport {
		return ""
	}
	return "type " + fieldVerbText(c.Fields[0]) + ", but agentty still uses " + string(c.New.Transport) + " (the url decides): nothing that runs changed"
}

func fieldVerbText(f FieldChange) string {
	switch {
	case f.Old == "":
		return "added"
	case f.New == "":
		return "removed"
	}
	return "changed"
}

// unhashedChanges explains, for a trust-preserving change granted by why,
// what changed that agentty's approval does not see.
func unhashedChanges(c *Change, why Reason) []string {
	samePrint := c.Old.Fingerprint == c.New.Fingerprint
	var out []string
	if c.Change == ChangeRenamed {
		out = append(out, fmt.Sprintf("renamed from %q: approvals do not bind the name, and the name picks up OAuth tokens and shadows user servers", c.OldName))
	}
	for _, f := range c.Fields {
		switch {
		case strings.HasPrefix(f.Field, "env."):
			out = append(out, f.Field+" changed: env is not part of agentty's fingerprint")
		case strings.HasPrefix(f.Field, "args["):
			if isNonString(f.Old) || isNonString(f.New) {
				out = append(out, f.Field+" is not a string: agentty does not hash it, but passes it to the server")
			} else if samePrint {
				out = append(out, f.Field+" changed while the fingerprint stayed the same (a NUL byte or a split argument)")
			} else {
				out = append(out, f.Field+" changed, and so did the fingerprint, yet "+grantText(why, c.New, false))
			}
		case f.Field == "trustAnnotations":
			out = append(out, "trustAnnotations changed: read-only tools may skip permission prompts")
		case (f.Field == "command" || f.Field == "url") && why == ReasonUngated:
			out = append(out, f.Field+" changed: agentty connects to the new address without asking")
		case (f.Field == "command" || f.Field == "url") && samePrint:
			out = append(out, f.Field+" changed while the fingerprint stayed the same (a NUL byte)")
		case f.Field == "command" || f.Field == "url":
			out = append(out, f.Field+" changed, and so did the fingerprint, yet "+grantText(why, c.New, false))
		default:
			out = append(out, f.Field+" changed: agentty's fingerprint does not cover it")
		}
	}
	for _, f := range c.Files {
		out = append(out, f.Path+" changed: agentty's fingerprint covers only the path, not the content")
	}
	return out
}

// isNonString reports whether canonical JSON text is present and not a
// string.
func isNonString(text string) bool { return text != "" && text[0] != '"' }

// fieldChanges compares two entries key by key (see FieldChange); nil
// when either is absent (an added or removed entry is shown whole).
func fieldChanges(o, n *Server) []FieldChange {
	if o == nil || n == nil {
		return nil
	}
	var out []FieldChange
	diffValue(&out, "", o.entry, n.entry, 2)
	return out
}

// diffValue appends the differences between a and b (either may be nil:
// absent) under the field name at, descending depth levels into objects
// and arrays of the same kind. An absent value descends like an empty one
// of the other's kind, so that a new env lists its variables.
func diffValue(out *[]FieldChange, at string, a, b *jsonValue, depth int) {
	kind := func(v *jsonValue) jsonKind {
		if v == nil {
			return jsonNull
		}
		return v.Kind
	}
	k := kind(a)
	if a == nil {
		k = kind(b)
	}
	descend := depth > 0 && (k == jsonObject || k == jsonArray) &&
		(a == nil || a.Kind == k) && (b == nil || b.Kind == k)
	// An empty object or array that appears or goes has nothing to
	// descend into: it is a change of its own (`"x": {}` is not absent).
	if (a == nil) != (b == nil) {
		if v := cmp.Or(a, b); len(v.Elems) == 0 && len(v.Members) == 0 {
			descend = false
		}
	}
	if !descend {
		text := func(v *jsonValue) string {
			if v == nil {
				return ""
			}
			return compactJSON(v)
		}
		if ta, tb := text(a), text(b); ta != tb {
			*out = append(*out, FieldChange{Field: at, Old: ta, New: tb})
		}
		return
	}
	if k == jsonArray {
		var ae, be []*jsonValue
		if a != nil {
			ae = a.Elems
		}
		if b != nil {
			be = b.Elems
		}
		for i := 0; i < len(ae) || i < len(be); i++ {
			var ea, eb *jsonValue
			if i < len(ae) {
				ea = ae[i]
			}
			if i < len(be) {
				eb = be[i]
			}
			diffValue(out, at+"["+strconv.Itoa(i)+"]", ea, eb, depth-1)
		}
		return
	}
	var am, bm []jsonMember
	if a != nil {
		am = resolvedMembers(a)
	}
	if b != nil {
		bm = resolvedMembers(b)
	}
	i, j := 0, 0
	for i < len(am) || j < len(bm) {
		var ea, eb *jsonValue
		var key string
		switch {
		case j >= len(bm) || (i < len(am) && am[i].Key < bm[j].Key):
			key, ea = am[i].Key, am[i].Value
			i++
		case i >= len(am) || bm[j].Key < am[i].Key:
			key, eb = bm[j].Key, bm[j].Value
			j++
		default:
			key, ea, eb = am[i].Key, am[i].Value, bm[j].Value
			i++
			j++
		}
		diffValue(out, joinKey(at, key), ea, eb, depth-1)
	}
}

// FileChanges lists the references whose content differs.
func FileChanges(old, new []FileID) []FileChange {
	m := map[string]*FileChange{}
	var paths []string
	get := func(p string) *FileChange {
		if fc, ok := m[p]; ok {
			return fc
		}
		fc := &FileChange{Path: p}
		m[p] = fc
		paths = append(paths, p)
		return fc
	}
	for _, f := range old {
		fc := get(f.Path)
		fc.Old, fc.Why = f.Object, f.Why
	}
	for _, f := range new {
		fc := get(f.Path)
		fc.New = f.Object
		if f.Why != "" {
			fc.Why = f.Why
		}
	}
	sort.Strings(paths)
	var out []FileChange
	for _, p := range paths {
		if fc := m[p]; fc.Old != fc.New {
			out = append(out, *fc)
		}
	}
	return out
}

// approveHint is the approve command for the server name: one shell word
// (a repository chooses the name), after `--` when it would read as a flag
// (`--all` approves every server).
func approveHint(name string) string {
	if strings.HasPrefix(name, "-") {
		return "mcp-guard approve -- " + textsafe.ShellWord(name)
	}
	return "mcp-guard approve " + textsafe.ShellWord(name)
}
