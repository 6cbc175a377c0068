package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// DiffVersion is the version of the `diff --json` document. Fields are only
// ever added within a version; a removal or a change of meaning bumps it.
const DiffVersion = 1

// Diff is what `mcp-guard diff` shows: the two sides compared and what
// changed between them (project.Compare's result).
type Diff struct {
	Old, New DiffSide
	// Changes in the order to show them (trust-preserving first).
	Changes  []trust.Change
	Findings []trust.Finding
	// Contents[i] is what Changes[i] did to the content of its files (nil,
	// or a short slice: not computed).
	Contents []*ChangeContent
	// Configs are every configuration of either side and what its agent
	// read at each (project.Options.Configs).
	Configs []project.ConfigSides
	// Agents names the agents of Changes; FindingClients[i] is the client
	// Findings[i] is about ("" for agentty).
	Agents         Agents
	FindingClients []string
}

// content is the content of change i, nil when there is none.
func (d Diff) content(i int) *ChangeContent {
	if i < len(d.Contents) {
		return d.Contents[i]
	}
	return nil
}

// DiffSide names one side of a comparison.
type DiffSide struct {
	// Rev is the revision as the user gave it ("" for the work tree when
	// none was given).
	Rev string `json:"rev"`
	// Commit is the full commit id, or "worktree", "index" or "empty" (no
	// commit: an unborn HEAD or the all-zeros revision).
	Commit string `json:"commit"`
}

// DiffDoc is the `diff --json` document, version 1.
type DiffDoc struct {
	Version  int             `json:"version"`
	Old      DiffSide        `json:"old"`
	New      DiffSide        `json:"new"`
	Changes  []DiffChange    `json:"changes"`
	Findings []trust.Finding `json:"findings"`
	// Configs, added later in version 1: every agent's config file at
	// either side, with its state at each (null where the side has no
	// such file), so that a file that does not parse is seen.
	Configs []DiffConfig `json:"configs"`
}

// DiffConfig is one config file compared and what its agent read of it
// at each side.
type DiffConfig struct {
	Client string            `json:"client"`
	Title  string            `json:"title"`
	Path   string            `json:"path"`
	Old    *StatusConfigFile `json:"old"`
	New    *StatusConfigFile `json:"new"`
}

// DiffChange is one server's change.
type DiffChange struct {
	// Client is the client whose configuration Path is, added later in
	// version 1: "claude-code", "gemini-cli", "codex", "cursor",
	// "vscode"; absent for agentty.
	Client         string      `json:"client,omitempty"`
	Path           string      `json:"path"`
	Server         string      `json:"server"`
	Change         string      `json:"change"`
	OldName        string      `json:"old_name"`
	Fields         []DiffField `json:"fields"`
	Files          []DiffFile  `json:"files"`
	OldFingerprint string      `json:"old_fingerprint"`
	NewFingerprint string      `json:"new_fingerprint"`
	Impact         string      `json:"impact"`
	// Additions to the contract: mcp-guard's deep fingerprints and
	// the reasons for the impact.
	OldDeep string   `json:"old_deep_fingerprint"`
	NewDeep string   `json:"new_deep_fingerprint"`
	Reasons []string `json:"reasons"`
	// Added later in version 1: the files' content change as unified diff
	// text ("" when none was computed) and the commits that made it.
	ContentDiff string       `json:"content_diff"`
	Commits     []DiffCommit `json:"commits"`
	// Added later in version 1: the files whose added lines content_diff
	// does not all hold (its caps), and how many changed files it left
	// out whole; absent when every added line is there.
	ContentShortened []string `json:"content_shortened,omitempty"`
	ContentMoreFiles int      `json:"content_more_files,omitempty"`
	// Added later in version 1: when no commit on the way to the new side
	// changed the files, the commits of the old side the new one lacks
	// that did (a reset to an older commit).
	UndoneCommits []DiffCommit `json:"undone_commits,omitempty"`
}

// DiffCommit is one commit that changed a server's files.
type DiffCommit struct {
	ID      string `json:"id"`
	Author  string `json:"author"`
	Subject string `json:"subject"`
}

// DiffField is one changed key; Old and New are canonical JSON text, ""
// when absent.
type DiffField struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// DiffFile is one referenced file whose content changed; Old and New are
// object ids ("" when absent), the modes are git's octal modes.
type DiffFile struct {
	Path    string `json:"path"`
	Old     string `json:"old"`
	New     string `json:"new"`
	OldMode string `json:"old_mode"`
	NewMode string `json:"new_mode"`
	// Why the server runs it, in the launch model's words ("" unknown).
	Why string `json:"why,omitempty"`
}

// NewDiffDoc builds the JSON document. Arrays are never null.
func NewDiffDoc(d Diff) DiffDoc {
	doc := DiffDoc{Version: DiffVersion, Old: d.Old, New: d.New, Changes: []DiffChange{}, Findings: []trust.Finding{}}
	for i, c := range d.Changes {
		dc := DiffChange{
			Client: c.Client, Path: c.Path, Server: c.Server, Change: string(c.Change), OldName: c.OldName,
			Fields: []DiffField{}, Files: []DiffFile{},
			OldFingerprint: c.OldFingerprint, NewFingerprint: c.NewFingerprint, Impact: string(c.Impact),
			OldDeep: c.OldDeep, NewDeep: c.NewDeep, Reasons: append([]string{}, c.Reasons...),
			Commits: []DiffCommit{},
		}
		if cc := d.content(i); cc != nil {
			dc.ContentDiff = ContentText(cc.Content)
			dc.ContentShortened, dc.ContentMoreFiles = cc.Content.Shortened()
			if cc.Provenance != nil {
				for _, pc := range cc.Provenance.Commits {
					dc.Commits = append(dc.Commits, DiffCommit{ID: pc.ID, Author: pc.Author, Subject: pc.Subject})
				}
				for _, pc := range cc.Provenance.Undone {
					dc.UndoneCommits = append(dc.UndoneCommits, DiffCommit{ID: pc.ID, Author: pc.Author, Subject: pc.Subject})
				}
			}
		}
		for _, f := range c.Fields {
			dc.Fields = append(dc.Fields, DiffField{Field: f.Field, Old: f.Old, New: f.New})
		}
		for _, f := range c.Files {
			dc.Files = append(dc.Files, DiffFile{Path: f.Path, Old: f.Old.ID, New: f.New.ID, OldMode: f.Old.Mode, NewMode: f.New.Mode, Why: f.Why})
		}
		doc.Changes = append(doc.Changes, dc)
	}
	doc.Findings = append(doc.Findings, d.Findings...)
	doc.Configs = []DiffConfig{}
	for _, c := range d.Configs {
		dc := DiffConfig{Client: string(c.Client), Title: d.Agents.title(string(c.Client)), Path: c.Path}
		if c.Old != nil {
			f := ConfigFile(c.Path, c.Old)
			dc.Old = &f
		}
		if c.New != nil {
			f := ConfigFile(c.Path, c.New)
			dc.New = &f
		}
		doc.Configs = append(doc.Configs, dc)
	}
	return doc
}

// NeedsAttention reports whether the diff holds a change the user must
// look at (invalidated, trust-preserving, new-unapproved, new-preapproved)
// or a finding.
func (d Diff) NeedsAttention() bool {
	for _, c := range d.Changes {
		if c.Impact.NeedsAttention() {
			return true
		}
	}
	return len(d.Findings) > 0
}

// longField is the length from which a changed string is shown as one
// inline diff rather than old → new.
const longField = 32

// WriteDiff renders a diff for people: a heading naming the two sides,
// then per configuration (the one with the most dangerous change first)
// one line per server with its impact, the field and file changes under
// it, the fingerprints shortened, the findings, and what to do. Every
// repository string is sanitised.
func WriteDiff(w io.Writer, d Diff, st Style) error {
	p := &printer{w: w}
	p.printf("%s %s → %s\n", st.Bold("mcp-guard diff:"), sideName(d.Old), sideName(d.New))
	if len(d.Changes) == 0 && len(d.Findings) == 0 {
		p.printf("no change to what agentty runs\n")
		return p.err
	}
	var order []string
	groups := map[string][]int{}
	// A file several agents read (`.mcp.json`) names each of them.
	agents := map[string][]string{}
	for i, c := range d.Changes {
		if _, ok := groups[c.Path]; !ok {
			order = append(order, c.Path)
		}
		groups[c.Path] = append(groups[c.Path], i)
		if t := d.Agents.title(c.Client); c.Client != "" && !slices.Contains(agents[c.Path], t) {
			agents[c.Path] = append(agents[c.Path], t)
		}
	}
	titles := map[string]string{}
	for path, ts := range agents {
		titles[path] = " (" + JoinList(ts, "and") + ")"
	}
	shown := &shownDiffs{at: map[string]string{}}
	for _, path := range order {
		p.printf("\n%s\n", st.Bold(Sanitize(path)+titles[path]+":"))
		shown.where = Sanitize(path) + titles[path]
		var width nameColumn
		for _, i := range groups[path] {
			width.fit(ShowName(d.Changes[i].Server))
		}
		for _, i := range groups[path] {
			writeChange(p, d.Changes[i], d.content(i), width, st, shown)
		}
	}
	if len(d.Findings) > 0 {
		p.printf("\n")
		for _, f := range d.Findings {
			p.wrapf(st, "%s %s %s:%d: %s\n", severityMark(f.Severity, st), f.Rule, Sanitize(f.Path), f.Line, findingMessage(f))
		}
	}
	p.printf("\n")
	for _, line := range whatToDo(d) {
		p.wrapf(st, "%s\n", line)
	}
	return p.err
}

// impactSymbol marks a change's line: ! runs unasked although it changed,
// ✗ approval lost, + new and runs unasked, ? new and agentty will ask,
// - gone, = nothing that runs changed.
func impactSymbol(i trust.Impact, st Style) string {
	switch i {
	case trust.ImpactTrustPreserving:
		return st.Danger("!")
	case trust.ImpactInvalidated:
		return st.Warning("✗")
	case trust.ImpactNewPreapproved:
		return st.Danger("+")
	case trust.ImpactNewUnapproved:
		return st.Pending("?")
	case trust.ImpactRemoved:
		return st.Dim("-")
	}
	return st.Dim("=")
}

func writeChange(p *printer, c trust.Change, cc *ChangeContent, width nameColumn, st Style, shown *shownDiffs) {
	what := string(c.Change)
	if c.Change == trust.ChangeRenamed {
		what = "renamed from " + ShowName(c.OldName)
	}
	name, cut := width.cell(ShowName(c.Server))
	p.printf("  %s %s  %s  %s\n", impactSymbol(c.Impact, st), name, impactLabel(c, st), st.Dim("("+what+")"))
	const indent = "      "
	if cut {
		p.printf("%sname: %s\n", indent, ShowName(c.Server))
	}
	for _, r := range c.Reasons {
		p.wrapf(st, "%s%s\n", indent, ShowNamed(r, c.Server))
	}
	switch {
	case c.Old == nil && c.New != nil:
		p.printf("%sruns: %s\n", indent, CommandLine(c.New))
	case c.New == nil && c.Old != nil:
		p.printf("%sran: %s\n", indent, CommandLine(c.Old))
	}
	for _, f := range c.Fields {
		name := fieldLabel(c, f)
		p.printf("%s%s: %s\n", indent, name, fieldChange(indent, name, f.Old, f.New, st))
	}
	for _, f := range c.Files {
		p.printf("%sfile %s: %s%s\n", indent, Sanitize(f.Path), fileSides(f), whyText(f.Why, st))
	}
	writeChangeContent(p, cc, indent+"  ", st, shown)
	// agentty's fingerprint under agentty's configuration only: no other
	// agent binds anything to it.
	prints := fingerprints("deep", c.OldDeep, c.NewDeep)
	if c.Client == "" {
		prints = fingerprints("fingerprint", c.OldFingerprint, c.NewFingerprint) + " · " + prints
	}
	p.wrapf(st, "%s%s\n", indent, st.Dim(prints))
}

// fieldChange shows a field's old and new JSON text as "old → new", in
// every agent's screens alike. A long value goes on two lines, the new
// under the old, so that a one-character swap in a long command stands
// out: the changed runs coloured on a terminal, and without colour a line
// of carets under what changed in the new value. indent starts the lines
// after the first; field is the name the first line shows before ": ".
func fieldChange(indent, field, old, new string, st Style) string {
	if old == "" || new == "" || (len(old) < longField && len(new) < longField) {
		return absentOr(old) + " → " + absentOr(new)
	}
	// The diff runs on the sanitised texts: sanitising each piece alone
	// would lose a word's context, and a look-alike swapped into a word
	// would show as the letter it imitates.
	dmp := diffmatchpatch.New()
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMain(Sanitize(old), Sanitize(new), false))
	var o, n, marks strings.Builder
	for _, d := range diffs {
		w := cells(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			o.WriteString(st.Danger(d.Text))
		case diffmatchpatch.DiffInsert:
			n.WriteString(st.OK(d.Text))
			// Under the cells it takes; at least one caret, so that an
			// added accent (no cell of its own) is still marked.
			marks.WriteString(strings.Repeat("^", max(w, 1)))
		default:
			o.WriteString(d.Text)
			n.WriteString(d.Text)
			marks.WriteString(strings.Repeat(" ", w))
		}
	}
	pad := indent + strings.Repeat(" ", cells(field))
	out := o.String() + "\n" + pad + "→ " + n.String()
	if m := strings.TrimRight(marks.String(), " "); !st.Color() && m != "" {
		out += "\n" + pad + "  " + m
	}
	return out
}

func absentOr(v string) string {
	if v == "" {
		return "(absent)"
	}
	return Sanitize(v)
}

// objectText is one side of a file of a server's code scope; a zero side
// means the server did not run it there (the file may have been there).
// fileSides is "old → new" of a file of a code scope; a side that does
// not run it by name but holds it in an item says so.
func fileSides(f trust.FileChange) string {
	old, new := objectText(f.Old), objectText(f.New)
	if f.Within != "" && f.Old.ID == "" {
		old = "(in " + Sanitize(f.Within) + ")"
	}
	if f.Within != "" && f.New.ID == "" {
		new = "(in " + Sanitize(f.Within) + ")"
	}
	return old + " → " + new
}

func objectText(o trust.Object) string {
	switch {
	case o.ID == "":
		return "(not run)"
	case o.Mode == "100644" || o.Mode == "":
		return Short(o.ID)
	}
	return Short(o.ID) + " (" + Sanitize(o.Mode) + ")"
}

func fingerprints(label, old, new string) string {
	switch {
	case old == new:
		return label + " " + Short(new) + " (same)"
	case old == "":
		return label + " " + Short(new)
	case new == "":
		return label + " was " + Short(old)
	}
	return label + " " + Short(old) + " → " + Short(new)
}

// sideName names a side for the heading: the revision and its short
// commit id, or the work tree.
func sideName(s DiffSide) string {
	var name string
	switch s.Commit {
	case "worktree":
		name = "the work tree"
	case "index":
		name = "the index"
	case "empty":
		name = "nothing (no commit)"
	default:
		name = Short(s.Commit)
	}
	if s.Rev != "" && s.Rev != s.Commit {
		return Sanitize(s.Rev) + " (" + name + ")"
	}
	return name
}

// changeKinds are the kinds of the entries cs change (the new side's, the
// old one's when removed).
func changeKinds(cs []trust.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		if s := cmp.Or(c.New, c.Old); s != nil {
			out[i] = s.Kind
		}
	}
	return out
}

// whatToDo is the closing advice: the commands that resolve what the diff
// shows.
func whatToDo(d Diff) []string {
	var out []string
	for _, title := range warningClients(Warning{Changes: d.Changes, Agents: d.Agents}) {
		var unasked, ask []trust.Change
		for _, c := range d.Changes {
			if d.Agents.title(c.Client) != title {
				continue
			}
			switch c.Impact {
			case trust.ImpactTrustPreserving, trust.ImpactNewPreapproved:
				unasked = append(unasked, c)
			case trust.ImpactInvalidated, trust.ImpactNewUnapproved:
				ask = append(ask, c)
			}
		}
		if len(unasked) > 0 {
			one, many := kindWords(changeKinds(unasked))
			out = append(out, fmt.Sprintf("%s would run %s without asking: review before you start it here (mcp-guard review)",
				title, Count(len(unasked), "changed "+one, "changed "+many)))
		}
		switch {
		case len(ask) > 0 && title == agenttyTitle:
			out = append(out, fmt.Sprintf("agentty will ask before running %s: approve only after reading them (%s)",
				Count(len(ask), "server", "servers"), strings.Join(approveCommands(ask), "; ")))
		case len(ask) > 0:
			headless := ""
			if h := d.Agents.headlessOf(title); h != "" {
				headless = ", and `" + h + "` runs them without asking"
			}
			out = append(out, fmt.Sprintf("%s will ask before running %s%s: review them (mcp-guard review)",
				title, Count(len(ask), "server", "servers"), headless))
		}
	}
	if len(out) == 0 && len(d.Findings) > 0 {
		out = append(out, "no server runs differently, but read the findings above (mcp-guard review)")
	}
	if len(out) == 0 {
		out = append(out, "nothing to do: no server runs differently")
	}
	return out
}

// approveCommands groups the servers to approve by launch directory. A
// repository chooses its servers' names: one that begins with "-" (a
// server named --all) would be read as a flag, so the names then follow
// "--".
func approveCommands(cs []trust.Change) []string {
	var dirs []string
	names := map[string][]string{}
	dash := map[string]bool{}
	for _, c := range cs {
		d := c.LaunchDir()
		if _, ok := names[d]; !ok {
			dirs = append(dirs, d)
		}
		names[d] = append(names[d], hintWord(c.Server))
		dash[d] = dash[d] || strings.HasPrefix(c.Server, "-") // a quoted word is still read as a flag
	}
	var out []string
	for _, d := range dirs {
		cmd := "mcp-guard approve "
		if d != "" {
			cmd = "mcp-guard -C " + hintWord(d) + " approve "
		}
		if dash[d] {
			cmd += "-- "
		}
		out = append(out, cmd+strings.Join(names[d], " "))
	}
	return out
}
