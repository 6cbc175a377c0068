package project

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// ContentLimits bound a content diff; a zero field takes its default.
type ContentLimits struct {
	// FileLines is the most diff lines kept per file (default 200),
	// TotalLines the most over all files (default 1000).
	FileLines, TotalLines int
	// Bytes is the largest side of a file that is read (default 1 MiB).
	Bytes int64
	// Files is the most files kept in all (default 100).
	Files int
}

func (l ContentLimits) withDefaults() ContentLimits {
	if l.FileLines <= 0 {
		l.FileLines = 200
	}
	if l.TotalLines <= 0 {
		l.TotalLines = 1000
	}
	if l.Bytes <= 0 {
		l.Bytes = 1 << 20
	}
	if l.Files <= 0 {
		l.Files = 100
	}
	return l
}

// ContentRequest asks for the content changes of changed code-scope items.
type ContentRequest struct {
	// Old and New are the sides the items' objects come from.
	Old, New gitscan.Side
	// OldGone: the old side's commit is not in the repository (removed
	// since, or made in another clone), or none was recorded (OldCommit
	// ""), so files are read by their recorded object ids only and
	// directories cannot be listed.
	OldGone   bool
	OldCommit string
	Items     []trust.FileChange
	Limits    ContentLimits
}

// FileStatus is what happened to one file.
type FileStatus string

const (
	FileModified FileStatus = "modified"
	FileAdded    FileStatus = "added"
	FileRemoved  FileStatus = "removed"
)

// LineOp marks a diff line: ' ' context, '-' removed, '+' added.
type LineOp byte

const (
	LineContext LineOp = ' '
	LineDelete  LineOp = '-'
	LineInsert  LineOp = '+'
)

// Line is one line of a hunk, raw from the repository (renderers sanitise
// it), without its newline.
type Line struct {
	Op   LineOp
	Text string
	// NoNewline: the file ends here without a newline.
	NoNewline bool
}

// Hunk is one unified-diff hunk with up to three lines of context, or a
// piece of one when the caps left lines out: its counts are those of its
// Lines, numbered as in the file.
type Hunk struct {
	OldStart, OldLines, NewStart, NewLines int
	Lines                                  []Line
	// Skipped counts the lines of the same hunk left out just before
	// this piece.
	Skipped int
}

// FileDiff is the content change of one file.
type FileDiff struct {
	Path   string
	Status FileStatus
	// OldMode and NewMode are git's octal modes, "" where absent.
	OldMode, NewMode string
	// OldSize and NewSize are the content sizes in bytes, -1 when unknown.
	OldSize, NewSize int
	// OldUnknown, with Status added, says why the file's old content is
	// unknown: the server did not run it by name then and the old side
	// cannot be read, so it may have existed. The hunks add all of it.
	OldUnknown string
	// Binary: a side holds a NUL byte or is mostly not UTF-8; no hunks.
	Binary bool
	// Symlink: a side is a symlink; its target text is OldTarget or
	// NewTarget, and there are no hunks.
	Symlink              bool
	OldTarget, NewTarget string
	// Note says why the content is not shown ("" when it is): too large,
	// a missing object, a submodule.
	Note  string
	Hunks []Hunk
	// More counts the diff lines the caps left out; HiddenAdded how many
	// of them are added lines (the caps keep added lines first, so it is
	// zero unless the additions alone exceed them).
	More, HiddenAdded int
}

// Shortened reports whether the caps left out lines that add to the file.
func (f *FileDiff) Shortened() bool { return f.HiddenAdded > 0 }

// ContentDiff is the content changes of a set of items.
type ContentDiff struct {
	Files []FileDiff
	// MoreFiles counts the changed files the file cap left out.
	MoreFiles int
	// Notes say what could not be listed (a directory of a side that is
	// gone), one line each.
	Notes []string
}

// Shortened names what the caps kept from view that may add code: each
// file whose added lines were not all kept, and how many changed files
// were left out whole.
func (d *ContentDiff) Shortened() (files []string, moreFiles int) {
	if d == nil {
		return nil, 0
	}
	for _, f := range d.Files {
		if f.Shortened() {
			files = append(files, f.Path)
		}
	}
	return files, d.MoreFiles
}

// ProvenancePaths are the paths whose commits brought the change of
// items: the files d lists when it lists every changed file (so a
// directory item's commits are those that touched a file of it that
// changed), else each item's path. d may be nil.
func (d *ContentDiff) ProvenancePaths(items []trust.FileChange) []string {
	var paths []string
	if d != nil && d.MoreFiles == 0 && len(d.Notes) == 0 && len(d.Files) > 0 {
		for _, f := range d.Files {
			paths = append(paths, f.Path)
		}
		return paths
	}
	for _, f := range items {
		// f.Path is the item's label: "tools/ (python code)" walks tools/.
		mode := f.New.Mode
		if mode == "" {
			mode = f.Old.Mode
		}
		paths = append(paths, ItemPath(f.Path, mode))
	}
	return paths
}

// Lines counts the diff lines kept.
func (d *ContentDiff) Lines() int {
	n := 0
	for _, f := range d.Files {
		for _, h := range f.Hunks {
			n += len(h.Lines)
		}
	}
	return n
}

// Contents diffs the content of every changed item: a file (a blob mode)
// is read by its object id, falling back to its path at the side when the
// object database lacks it (a work tree file); any other item (a
// directory, or a kind whose id is not a git object) stands for every
// file below its path that differs between the sides. Failures to read
// one file become its Note; only a cancelled context or an unreadable
// comparison is an error.
func Contents(ctx context.Context, repo *gitscan.Repo, req ContentRequest) (*ContentDiff, error) {
	lim := req.Limits.withDefaults()
	cr := &contentReader{repo: repo, req: req, lim: lim}
	out := &ContentDiff{}
	seen := map[string]bool{}
	var pending []pendingFile
	add := func(p pendingFile) {
		if seen[p.path] {
			return
		}
		seen[p.path] = true
		pending = append(pending, p)
	}
	items := append([]trust.FileChange(nil), req.Items...)
	sort.Slice(items, func(i, j int) bool { return items[i].Path < items[j].Path })
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if blobMode(it.Old) && blobMode(it.New) {
			pf := pendingFile{path: it.Path, old: it.Old, new: it.New, within: it.Within}
			// A file the server did not run (or runs no more) may still
			// be there: diff against it rather than call it new.
			if pf.old.ID == "" && !req.OldGone {
				pf.old, pf.oldKept = cr.lookup(req.Old, it.Path)
			}
			if pf.new.ID == "" {
				pf.new, pf.newKept = cr.lookup(req.New, it.Path)
			}
			add(pf)
			continue
		}
		if req.OldGone && it.Old.ID != "" {
			out.Notes = append(out.Notes, it.Path+": "+req.goneText()+", so the files that changed below it cannot be listed")
			continue
		}
		changes, err := cr.changes()
		if err != nil {
			return nil, err
		}
		mode := it.New.Mode
		if mode == "" {
			mode = it.Old.Mode
		}
		dir, keep := itemPaths(it.Path, mode)
		for _, c := range under(changes, dir) {
			if keep(c.Path) {
				add(pendingFile{path: c.Path, old: entryObject(c.Old), new: entryObject(c.New)})
			}
		}
	}
	sort.Slice(pending, func(i, j int) bool { return pending[i].path < pending[j].path })
	if len(pending) > lim.Files {
		out.MoreFiles = len(pending) - lim.Files
		pending = pending[:lim.Files]
	}
	left := lim.TotalLines
	for _, p := range pending {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fd := cr.file(p, min(lim.FileLines, left))
		for _, h := range fd.Hunks {
			left -= len(h.Lines)
		}
		out.Files = append(out.Files, fd)
	}
	return out, nil
}

// goneText says why the old side cannot be listed.
func (req *ContentRequest) goneText() string {
	if req.OldCommit == "" {
		return "the review recorded no commit"
	}
	return "the reviewed commit " + shortID(req.OldCommit) + " is not in this repository"
}

type pendingFile struct {
	path     string
	old, new trust.Object
	// oldKept, newKept: the server did not run the file on that side,
	// which held it all the same.
	oldKept, newKept bool
	// within is the item of the side that does not run it by name that
	// holds it (FileChange.Within).
	within string
}

// lookup is the file at p of side s, when there is one.
func (cr *contentReader) lookup(s gitscan.Side, p string) (trust.Object, bool) {
	e, ok, err := cr.repo.Lookup(s, p)
	if err != nil || !ok || !e.Mode.IsFile() {
		return trust.Object{}, false
	}
	return trust.Object{Mode: e.Mode.String(), ID: e.ID}, true
}

type contentReader struct {
	repo    *gitscan.Repo
	req     ContentRequest
	lim     ContentLimits
	listed  bool
	changed []gitscan.Change
}

// changes is the comparison of the two sides, computed once.
func (cr *contentReader) changes() ([]gitscan.Change, error) {
	if cr.listed {
		return cr.changed, nil
	}
	c, err := cr.repo.Changes(cr.req.Old, cr.req.New)
	if err != nil {
		return nil, fmt.Errorf("compare %s with %s: %w", cr.req.Old, cr.req.New, err)
	}
	cr.changed, cr.listed = c, true
	return c, nil
}

// under keeps the changes at p or below it ("" is the root).
func under(changes []gitscan.Change, p string) []gitscan.Change {
	var out []gitscan.Change
	for _, c := range changes {
		if p == "" || c.Path == p || strings.HasPrefix(c.Path, p+"/") {
			out = append(out, c)
		}
	}
	return out
}

func entryObject(e *gitscan.Entry) trust.Object {
	if e == nil {
		return trust.Object{}
	}
	return trust.Object{Mode: e.Mode.String(), ID: e.ID}
}

// blobMode reports whether o is a file, a symlink or absent: something
// read by its id.
func blobMode(o trust.Object) bool {
	return o.ID == "" || o.Mode == "" || strings.HasPrefix(o.Mode, "100") || o.Mode == "120000"
}

const (
	modeSymlink   = "120000"
	modeSubmodule = "160000"
)

// side is one side of a file as read.
type side struct {
	data []byte
	note string
}

// read reads o (at path p of side s): by id, else by path when the entry
// there is the same object.
func (cr *contentReader) read(s gitscan.Side, gone bool, p string, o trust.Object) side {
	if o.Mode == modeSubmodule {
		return side{note: "a submodule (commit " + shortID(o.ID) + ")"}
	}
	if !blobMode(o) {
		return side{note: "not a file (mode " + o.Mode + ")"}
	}
	data, err := cr.repo.ReadBlobID(o.ID, cr.lim.Bytes)
	if err == nil {
		return side{data: data}
	}
	if errors.Is(err, gitscan.ErrTooLarge) {
		return side{note: fmt.Sprintf("larger than %d bytes, not shown", cr.lim.Bytes)}
	}
	if !gone {
		d, e, perr := cr.repo.ReadBlob(s, p, cr.lim.Bytes)
		switch {
		case perr == nil && e.ID == o.ID:
			return side{data: d}
		case errors.Is(perr, gitscan.ErrTooLarge):
			return side{note: fmt.Sprintf("larger than %d bytes, not shown", cr.lim.Bytes)}
		}
	}
	return side{note: "content of " + shortID(o.ID) + " not in the repository"}
}

// file builds one file's diff with at most maxLines lines.
func (cr *contentReader) file(p pendingFile, maxLines int) FileDiff {
	fd := FileDiff{Path: p.path, Status: FileModified, OldMode: p.old.Mode, NewMode: p.new.Mode, OldSize: -1, NewSize: -1}
	switch {
	case p.old.ID == "" && cr.req.OldGone:
		// Not run by name then; whether it existed cannot be told.
		fd.Status, fd.OldMode, fd.OldUnknown = FileAdded, "", cr.req.goneText()
	case p.old.ID == "":
		fd.Status, fd.OldMode = FileAdded, ""
	case p.new.ID == "":
		fd.Status, fd.NewMode = FileRemoved, ""
	}
	switch {
	case (p.oldKept || p.newKept) && p.old == p.new && p.within != "":
		if p.oldKept {
			fd.Note = "unchanged; it was counted in " + p.within + " before"
		} else {
			fd.Note = "unchanged; now counted in " + p.within
		}
		return fd
	case p.oldKept && p.old == p.new:
		fd.Note = "unchanged; the server did not run it before"
		return fd
	case p.newKept && p.old == p.new:
		fd.Note = "unchanged; the server no longer runs it"
		return fd
	}
	var a, b side
	if p.old.ID != "" {
		a = cr.read(cr.req.Old, cr.req.OldGone, p.path, p.old)
		if a.note == "" {
			fd.OldSize = len(a.data)
		}
	}
	if p.new.ID != "" {
		b = cr.read(cr.req.New, false, p.path, p.new)
		if b.note == "" {
			fd.NewSize = len(b.data)
		}
	}
	switch {
	case a.note != "" && b.note != "":
		fd.Note = "old: " + a.note + "; new: " + b.note
	case a.note != "":
		fd.Note = "old side " + a.note
	case b.note != "":
		fd.Note = "new side " + b.note
	}
	if fd.Note != "" {
		return fd
	}
	if p.old.Mode == modeSymlink || p.new.Mode == modeSymlink {
		fd.Symlink = true
		if p.old.Mode == modeSymlink {
			fd.OldTarget = string(a.data)
		}
		if p.new.Mode == modeSymlink {
			fd.NewTarget = string(b.data)
		}
		return fd
	}
	if isBinary(a.data) || isBinary(b.data) {
		fd.Binary = true
		return fd
	}
	if bytes.Equal(a.data, b.data) {
		return fd // a mode change only
	}
	fd.Hunks, fd.More, fd.HiddenAdded = unified(string(a.data), string(b.data), 3, maxLines)
	return fd
}

// isBinary is git's test (a NUL byte in the first 8000 bytes), or content
// of which more than one byte in twenty, and at least eight, are not UTF-8.
func isBinary(data []byte) bool {
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return true
	}
	invalid := 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			invalid++
		}
		i += size
	}
	return invalid >= 8 && invalid*20 > len(data)
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// diffTimeout bounds go-diff's search; past it the diff is still correct,
// only less minimal.
const diffTimeout = 2 * time.Second

// unified diffs two texts line by line into hunks with context lines of
// context, keeping at most maxLines lines, the added ones first; more is
// how many it left out, hiddenAdded how many of those add a line.
func unified(a, b string, context, maxLines int) (hunks []Hunk, more, hiddenAdded int) {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var all []Line
	for _, d := range diffs {
		op := LineContext
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = LineDelete
		case diffmatchpatch.DiffInsert:
			op = LineInsert
		}
		all = append(all, splitLines(op, d.Text)...)
	}
	// Group changed lines whose gap is at most 2*context into hunks.
	type span struct{ from, to int } // indexes into all, to exclusive
	var spans []span
	for i := 0; i < len(all); i++ {
		if all[i].Op == LineContext {
			continue
		}
		from := max(0, i-context)
		j := i
		for j < len(all) {
			if all[j].Op != LineContext {
				j++
				continue
			}
			k := j
			for k < len(all) && all[k].Op == LineContext {
				k++
			}
			if k == len(all) || k-j > 2*context {
				break
			}
			j = k
		}
		to := min(len(all), j+context)
		spans = append(spans, span{from, to})
		i = to - 1
	}
	oldNo, newNo := make([]int, len(all)+1), make([]int, len(all)+1)
	o, n := 1, 1
	for i, l := range all {
		oldNo[i], newNo[i] = o, n
		if l.Op != LineInsert {
			o++
		}
		if l.Op != LineDelete {
			n++
		}
	}
	oldNo[len(all)], newNo[len(all)] = o, n
	total := 0
	for _, s := range spans {
		total += s.to - s.from
	}
	// Under the cap every hunk is kept whole. Over it, the added lines are
	// kept first (so a rewrite's removals never crowd out the one line
	// that adds code), then the other lines in file order; what is left
	// out splits a hunk into pieces, each numbered as git would.
	keep := make([]bool, len(all))
	left := maxLines
	for pass := 0; pass < 2; pass++ {
		for _, s := range spans {
			for i := s.from; i < s.to; i++ {
				if !keep[i] && left > 0 && (total <= maxLines || pass == 1 || all[i].Op == LineInsert) {
					keep[i] = true
					left--
				}
			}
		}
	}
	for _, s := range spans {
		skipped := 0
		for i := s.from; i < s.to; {
			if !keep[i] {
				skipped++
				more++
				if all[i].Op == LineInsert {
					hiddenAdded++
				}
				i++
				continue
			}
			j := i
			for j < s.to && keep[j] {
				j++
			}
			hunks = append(hunks, piece(all, oldNo, newNo, i, j, skipped))
			skipped = 0
			i = j
		}
	}
	return hunks, more, hiddenAdded
}

// piece is the hunk of all[from:to], numbered by oldNo and newNo, after
// skipped lines of the same hunk were left out.
func piece(all []Line, oldNo, newNo []int, from, to, skipped int) Hunk {
	h := Hunk{OldStart: oldNo[from], NewStart: newNo[from], Skipped: skipped}
	h.Lines = append([]Line(nil), all[from:to]...)
	for _, l := range h.Lines {
		if l.Op != LineInsert {
			h.OldLines++
		}
		if l.Op != LineDelete {
			h.NewLines++
		}
	}
	// git numbers an empty side by the line before it.
	if h.OldLines == 0 {
		h.OldStart--
	}
	if h.NewLines == 0 {
		h.NewStart--
	}
	return h
}

// splitLines cuts text into lines of op; a last line without a newline is
// marked.
func splitLines(op LineOp, text string) []Line {
	var out []Line
	for text != "" {
		line, rest, ok := strings.Cut(text, "\n")
		out = append(out, Line{Op: op, Text: line, NoNewline: !ok})
		text = rest
	}
	return out
}
