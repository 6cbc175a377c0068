package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/project"
)

// ChangeContent is what one change did to the content of the files a
// server runs, and the commits that brought it.
type ChangeContent struct {
	// Content is nil when it was not computed.
	Content *project.ContentDiff
	// Provenance is nil when the change did not arrive through git (or
	// the commits could not be walked).
	Provenance *project.Provenance
	// Err says why the content or its commits could not be shown.
	Err string
}

// WriteContent renders a content diff as unified diffs, every line
// prefixed with indent; every repository string is sanitised.
func WriteContent(w io.Writer, d *project.ContentDiff, indent string, st Style) error {
	p := &printer{w: w}
	writeContent(p, d, indent, st, Sanitize)
	return p.err
}

// ContentText is the content diff as plain unified text (for JSON, which
// escapes what a terminal would interpret; no sanitising, no colour).
func ContentText(d *project.ContentDiff) string {
	var b strings.Builder
	writeContent(&printer{w: &b}, d, "", Style{}, func(s string) string { return s })
	return b.String()
}

func writeContent(p *printer, d *project.ContentDiff, indent string, st Style, clean func(string) string) {
	if d == nil {
		return
	}
	for _, f := range d.Files {
		writeFileDiff(p, f, indent, st, clean)
	}
	if d.MoreFiles > 0 {
		p.printf("%s%s\n", indent, st.Warning("… "+Count(d.MoreFiles, "more file", "more files")+" changed, not shown"))
	}
	for _, n := range d.Notes {
		p.printf("%s%s\n", indent, clean(n))
	}
}

func writeFileDiff(p *printer, f project.FileDiff, indent string, st Style, clean func(string) string) {
	path := clean(f.Path)
	switch {
	case f.Note != "":
		p.printf("%s%s: %s\n", indent, path, clean(f.Note))
		return
	case f.Symlink:
		p.printf("%s%s: %s → %s\n", indent, path, linkSide(f.OldMode, f.OldTarget, f.OldSize, clean), linkSide(f.NewMode, f.NewTarget, f.NewSize, clean))
		return
	case f.Binary:
		p.printf("%s%s: binary, %s → %s\n", indent, path, sizeText(f.OldMode, f.OldSize), sizeText(f.NewMode, f.NewSize))
		return
	}
	switch {
	case f.Status == project.FileAdded && f.OldUnknown != "":
		p.printf("%s%s\n", indent, st.Bold("file "+path+" ("+clean(f.NewMode)+"), not run by name before: "+clean(f.OldUnknown)+", so its content then is unknown; all of it:"))
	case f.Status == project.FileAdded:
		p.printf("%s%s\n", indent, st.Bold("new file "+path+" ("+clean(f.NewMode)+")"))
	case f.Status == project.FileRemoved:
		p.printf("%s%s\n", indent, st.Bold("deleted file "+path+" ("+clean(f.OldMode)+")"))
	case f.OldMode != f.NewMode:
		p.printf("%s%s\n", indent, st.Bold("mode of "+path+": "+clean(f.OldMode)+" → "+clean(f.NewMode)))
	}
	if len(f.Hunks) == 0 && f.More == 0 {
		return
	}
	old, new := "a/"+path, "b/"+path
	if f.Status == project.FileAdded {
		old = "/dev/null"
		if f.OldUnknown != "" {
			old = "(unknown)"
		}
	}
	if f.Status == project.FileRemoved {
		new = "/dev/null"
	}
	p.printf("%s%s\n%s%s\n", indent, st.Bold("--- "+old), indent, st.Bold("+++ "+new))
	for _, h := range f.Hunks {
		if h.Skipped > 0 {
			p.printf("%s%s\n", indent, st.Dim("… "+Count(h.Skipped, "line", "lines")+" left out"))
		}
		p.printf("%s%s\n", indent, st.Dim("@@ -"+hunkRange(h.OldStart, h.OldLines)+" +"+hunkRange(h.NewStart, h.NewLines)+" @@"))
		for _, l := range h.Lines {
			text := string(l.Op) + clean(l.Text)
			switch l.Op {
			case project.LineDelete:
				text = st.Danger(text)
			case project.LineInsert:
				text = st.OK(text)
			}
			p.printf("%s%s\n", indent, text)
			if l.NoNewline {
				p.printf("%s%s\n", indent, st.Dim(`\ No newline at end of file`))
			}
		}
	}
	switch {
	case f.HiddenAdded > 0:
		p.printf("%s%s\n", indent, st.Warning(fmt.Sprintf("… the diff is capped: %s left out, %s of them added: %s is not fully shown",
			Count(f.More, "line", "lines"), num(f.HiddenAdded), path)))
	case f.More > 0:
		p.printf("%s%s\n", indent, st.Dim("… the diff is capped: "+Count(f.More, "line", "lines")+" left out, none of them added"))
	}
}

// writeShortened names what the caps kept from view that may add code
// (nothing when every added line was shown).
func writeShortened(p *printer, d *project.ContentDiff, indent string, st Style) {
	files, more := d.Shortened()
	if len(files) == 0 && more == 0 {
		return
	}
	var parts []string
	for _, f := range files {
		parts = append(parts, Sanitize(f))
	}
	if more > 0 {
		parts = append(parts, Count(more, "more changed file", "more changed files"))
	}
	p.printf("%s%s\n", indent, st.Warning("not fully shown (the caps left out what they add): "+strings.Join(parts, ", ")))
}

// hunkRange is git's "start,count", the count left out when it is 1.
func hunkRange(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

func linkSide(mode, target string, size int, clean func(string) string) string {
	switch {
	case mode == "":
		return "(absent)"
	case mode == "120000":
		return "symlink to \"" + clean(target) + "\""
	}
	return "a file of " + sizeText(mode, size)
}

func sizeText(mode string, size int) string {
	switch {
	case mode == "":
		return "(absent)"
	case size < 0:
		return "unknown size"
	}
	return Count(size, "byte", "bytes")
}

// WriteProvenance names the commits that brought a change, newest first,
// every line prefixed with indent.
func WriteProvenance(w io.Writer, pv *project.Provenance, indent string, st Style) error {
	p := &printer{w: w}
	writeProvenance(p, pv, indent, st)
	return p.err
}

func writeProvenance(p *printer, pv *project.Provenance, indent string, st Style) {
	if pv == nil {
		return
	}
	since := Short(pv.Since)
	n, undone := len(pv.Commits)+pv.More, len(pv.Undone)+pv.UndoneMore
	switch {
	case n > 0:
		p.printf("%schanged by %s since %s:\n", indent, Count(n, "commit", "commits"), since)
		writeCommits(p, pv.Commits, pv.More, indent, st)
	case undone > 0:
		p.printf("%schanged by undoing %s of %s that the new side does not have:\n", indent, Count(undone, "commit", "commits"), since)
		writeCommits(p, pv.Undone, pv.UndoneMore, indent, st)
	case pv.Uncommitted:
		p.printf("%sno commit since %s changed these files: the change is not committed\n", indent, since)
		return
	default:
		p.printf("%sno commit between %s and the new side changed these files\n", indent, since)
		return
	}
	if pv.Boundary {
		p.printf("%s  %s\n", indent, st.Dim("(a shallow clone: older commits may have changed them too)"))
	}
}

func writeCommits(p *printer, commits []project.Commit, more int, indent string, st Style) {
	for _, c := range commits {
		p.printf("%s  %s %s  %s\n", indent, st.Dim(Short(c.ID)), Sanitize(c.Author), Sanitize(c.Subject))
	}
	if more > 0 {
		p.printf("%s  … and %s more\n", indent, num(more))
	}
}

// shownDiffs are the file diffs a rendering already showed (their text),
// each with the heading it was shown under: several agents that run the
// same file each see its change, but the diff is written once.
type shownDiffs struct {
	at    map[string]string
	where string // the heading being written
}

// writeChangeContent renders one change's content and commits; a file
// diff shown (the same text) is named instead of written again.
func writeChangeContent(p *printer, cc *ChangeContent, indent string, st Style, shown *shownDiffs) {
	if cc == nil {
		return
	}
	if shown == nil || cc.Content == nil {
		writeProvenance(p, cc.Provenance, indent, st)
		writeContent(p, cc.Content, indent, st, Sanitize)
	} else {
		type file struct{ path, text string }
		var files []file
		fresh := cc.Content.MoreFiles > 0 || len(cc.Content.Notes) > 0
		for _, f := range cc.Content.Files {
			var b strings.Builder
			writeFileDiff(&printer{w: &b}, f, indent, st, Sanitize)
			files = append(files, file{f.Path, b.String()})
			if _, ok := shown.at[b.String()]; !ok {
				fresh = true
			}
		}
		if fresh {
			writeProvenance(p, cc.Provenance, indent, st)
		}
		for _, f := range files {
			if where, ok := shown.at[f.text]; ok {
				p.printf("%s%s\n", indent, st.Dim(Sanitize(f.path)+": the same change as shown above, under "+where))
				continue
			}
			shown.at[f.text] = shown.where
			p.printf("%s", f.text)
		}
		rest := *cc.Content
		rest.Files = nil
		writeContent(p, &rest, indent, st, Sanitize)
	}
	writeShortened(p, cc.Content, indent, st)
	if cc.Err != "" {
		p.printf("%s%s\n", indent, st.Warning("content not shown: "+Sanitize(cc.Err)))
	}
}
