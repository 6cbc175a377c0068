package project

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/trust"
)

func TestUnifiedHunks(t *testing.T) {
	var a, b []string
	for i := 1; i <= 20; i++ {
		a = append(a, fmt.Sprintf("line %d", i))
	}
	b = append(b, a...)
	b[1] = "changed 2"            // hunk 1
	b = append(b[:15], b[16:]...) // hunk 2: line 16 removed
	hunks, more, _ := unified(strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n", 3, 100)
	if more != 0 || len(hunks) != 2 {
		t.Fatalf("hunks %+v more %d", hunks, more)
	}
	h := hunks[0]
	if h.OldStart != 1 || h.OldLines != 5 || h.NewStart != 1 || h.NewLines != 5 {
		t.Errorf("hunk 1: %+v", h)
	}
	h = hunks[1]
	if h.OldStart != 13 || h.OldLines != 7 || h.NewStart != 13 || h.NewLines != 6 {
		t.Errorf("hunk 2: %+v", h)
	}
	if h.Lines[3] != (Line{Op: LineDelete, Text: "line 16"}) {
		t.Errorf("hunk 2 line 3: %+v", h.Lines[3])
	}
}

func TestUnifiedCapsAndNewline(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "x%d\n", i)
	}
	hunks, more, hidden := unified("", b.String(), 3, 10)
	if len(hunks) != 1 || len(hunks[0].Lines) != 10 || more != 40 || hidden != 40 {
		t.Fatalf("got %d hunks, %d lines, more %d, hidden additions %d", len(hunks), len(hunks[0].Lines), more, hidden)
	}
	if h := hunks[0]; h.OldStart != 0 || h.OldLines != 0 || h.NewStart != 1 || h.NewLines != 10 {
		t.Errorf("header %+v", h)
	}
	hunks, _, _ = unified("a\nb", "a\nb\n", 3, 10)
	got := hunks[0].Lines
	if len(got) != 3 || !got[1].NoNewline || got[1].Op != LineDelete || got[2].NoNewline {
		t.Errorf("no-newline lines: %+v", got)
	}
}

// A rewrite whose removals alone exceed the cap still shows every added
// line (#27): the added lines are kept first, the removals shortened, and
// each piece is numbered as in the file.
func TestUnifiedCapKeepsAdditions(t *testing.T) {
	var a, b strings.Builder
	for i := range 250 {
		fmt.Fprintf(&a, "old %d\n", i)
	}
	b.WriteString("require('./x').steal()\n")
	hunks, more, hidden := unified(a.String(), b.String(), 3, 200)
	if hidden != 0 || more != 51 {
		t.Fatalf("more %d, hidden additions %d", more, hidden)
	}
	var added []string
	kept := 0
	for _, h := range hunks {
		kept += len(h.Lines)
		old, new := 0, 0
		for _, l := range h.Lines {
			if l.Op == LineInsert {
				added = append(added, l.Text)
			}
			if l.Op != LineInsert {
				old++
			}
			if l.Op != LineDelete {
				new++
			}
		}
		if h.OldLines != old || h.NewLines != new {
			t.Errorf("piece %+v counts do not match its lines", h)
		}
	}
	if kept != 200 || len(added) != 1 || added[0] != "require('./x').steal()" {
		t.Fatalf("kept %d lines, added %q", kept, added)
	}
	// Additions interleaved with removals: pieces carry what was skipped
	// before them, and the numbers stay those of the file.
	a.Reset()
	b.Reset()
	for i := range 40 {
		fmt.Fprintf(&a, "a%d\n", i)
		if i%10 == 0 {
			fmt.Fprintf(&b, "b%d\n", i)
		}
	}
	hunks, more, hidden = unified(a.String(), b.String(), 3, 8)
	adds, skipped := 0, 0
	for _, h := range hunks {
		skipped += h.Skipped
		for _, l := range h.Lines {
			if l.Op == LineInsert {
				adds++
			}
		}
	}
	if adds != 4 || hidden != 0 || more != 44-8 || skipped > more {
		t.Fatalf("adds %d hidden %d more %d skipped %d: %+v", adds, hidden, more, skipped, hunks)
	}
}

func TestIsBinary(t *testing.T) {
	for _, c := range []struct {
		data string
		want bool
	}{
		{"plain text\n", false},
		{"a\x00b", true},
		{"caf\xe9\n", false}, // one Latin-1 byte: text, shown escaped
		{strings.Repeat("\xff\xfe", 20), true},
		{"日本語\n", false},
	} {
		if got := isBinary([]byte(c.data)); got != c.want {
			t.Errorf("isBinary(%q) = %v", c.data, got)
		}
	}
}

// contentRepo commits v1, then v2 of the files, and returns the sides.
func contentRepo(t *testing.T, v1, v2 map[string]string) (*gitscan.Repo, gitscan.Side, gitscan.Side) {
	t.Helper()
	r := newRepo(t)
	r.write(v1)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "v1")
	r.write(v2)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "v2 by A\n\nbody")
	repo, err := gitscan.Open(r.dir, gitscan.WithEnv(r.env))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	old, err := repo.Resolve("HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	new, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return repo, old, new
}

// item is the FileChange of p between the sides.
func item(t *testing.T, repo *gitscan.Repo, old, new gitscan.Side, p string) trust.FileChange {
	t.Helper()
	obj := func(s gitscan.Side) trust.Object {
		e, ok, err := repo.Lookup(s, p)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return trust.Object{}
		}
		return trust.Object{Mode: e.Mode.String(), ID: e.ID}
	}
	return trust.FileChange{Path: p, Old: obj(old), New: obj(new)}
}

func TestContents(t *testing.T) {
	repo, old, new := contentRepo(t, map[string]string{
		"tools/server.js": "a\nb\nc\n",
		"tools/gone.js":   "bye\n",
		"tools/lib/x.js":  "x1\n",
		"img.bin":         "\x00\x01",
		"link":            "->tools/server.js",
	}, map[string]string{
		"tools/server.js": "a\nB\nc\n",
		"tools/gone.js":   "",
		"tools/new.js":    "hi\n",
		"tools/lib/x.js":  "x2\n",
		"img.bin":         "\x00\x01\x02",
		"link":            "->tools/new.js",
	})
	var items []trust.FileChange
	for _, p := range []string{"tools/server.js", "img.bin", "link"} {
		items = append(items, item(t, repo, old, new, p))
	}
	dir := item(t, repo, old, new, "tools")
	if dir.Old.Mode != "040000" {
		t.Fatalf("tools is %+v", dir)
	}
	items = append(items, dir)
	cd, err := Contents(context.Background(), repo, ContentRequest{Old: old, New: new, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]FileDiff{}
	var order []string
	for _, f := range cd.Files {
		got[f.Path] = f
		order = append(order, f.Path)
	}
	if want := "img.bin link tools/gone.js tools/lib/x.js tools/new.js tools/server.js"; strings.Join(order, " ") != want {
		t.Fatalf("files %q, want %q", order, want)
	}
	if f := got["img.bin"]; !f.Binary || f.OldSize != 2 || f.NewSize != 3 {
		t.Errorf("img.bin: %+v", f)
	}
	if f := got["link"]; !f.Symlink || f.OldTarget != "tools/server.js" || f.NewTarget != "tools/new.js" {
		t.Errorf("link: %+v", f)
	}
	if f := got["tools/gone.js"]; f.Status != FileRemoved || len(f.Hunks) != 1 || f.Hunks[0].Lines[0] != (Line{Op: LineDelete, Text: "bye"}) {
		t.Errorf("gone.js: %+v", f)
	}
	if f := got["tools/new.js"]; f.Status != FileAdded || f.NewSize != 3 {
		t.Errorf("new.js: %+v", f)
	}
	if f := got["tools/server.js"]; len(f.Hunks) != 1 || len(f.Hunks[0].Lines) != 4 {
		t.Errorf("server.js: %+v", f)
	}

	// A file the server did not run before is diffed against what was
	// there: unchanged (img.bin) it says so, changed (x.js) it is modified,
	// never new.
	kept := item(t, repo, old, new, "tools/lib/x.js")
	kept.Old = trust.Object{}
	same := trust.FileChange{Path: "img.bin", New: item(t, repo, old, old, "img.bin").Old}
	cd, err = Contents(context.Background(), repo, ContentRequest{Old: old, New: old, Items: []trust.FileChange{kept, same}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cd.Files) != 2 || cd.Files[0].Note != "unchanged; the server did not run it before" || cd.Files[1].Status != FileModified {
		t.Errorf("kept: %+v", cd.Files)
	}

	// Caps: one file's lines, then the file count.
	cd, err = Contents(context.Background(), repo, ContentRequest{Old: old, New: new, Items: []trust.FileChange{dir},
		Limits: ContentLimits{FileLines: 2, TotalLines: 3, Files: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if cd.MoreFiles != 1 || len(cd.Files) != 3 || cd.Lines() != 3 {
		t.Errorf("capped: %d files, %d more, %d lines", len(cd.Files), cd.MoreFiles, cd.Lines())
	}
}

func TestContentsOldGone(t *testing.T) {
	repo, old, new := contentRepo(t, map[string]string{"s.js": "one\n", "d/a": "1\n"}, map[string]string{"s.js": "two\n", "d/a": "2\n"})
	it := item(t, repo, old, new, "s.js")
	// The blob is still read by id though the old side is unknown.
	cd, err := Contents(context.Background(), repo, ContentRequest{Old: gitscan.Empty, OldGone: true, New: gitscan.WorkTree,
		Items: []trust.FileChange{it, item(t, repo, old, new, "d"),
			{Path: "m.js", Old: trust.Object{Mode: "100644", ID: strings.Repeat("ab", 20)}, New: it.New}}})
	if err != nil {
		t.Fatal(err)
	}
	// No commit was recorded: that is what is said, not "no longer".
	if len(cd.Notes) != 1 || cd.Notes[0] != "d: the review recorded no commit, so the files that changed below it cannot be listed" {
		t.Errorf("notes %q", cd.Notes)
	}
	if len(cd.Files) != 2 || cd.Files[0].Note != "old side content of abababababab not in the repository" || len(cd.Files[1].Hunks) != 1 {
		t.Errorf("files %+v", cd.Files)
	}
}

// A reviewed commit this clone does not have is named as such, and a file
// the server did not run by name then is not called new: it may have
// existed (#27).
func TestContentsOldNotHere(t *testing.T) {
	repo, old, new := contentRepo(t, map[string]string{"s.js": "one\n", "d/a": "1\n"}, map[string]string{"s.js": "two\n", "d/a": "2\n"})
	it := item(t, repo, old, new, "s.js")
	it.Old = trust.Object{}
	missing := strings.Repeat("ab", 20)
	cd, err := Contents(context.Background(), repo, ContentRequest{Old: gitscan.Empty, OldGone: true, OldCommit: missing, New: gitscan.WorkTree,
		Items: []trust.FileChange{it, item(t, repo, old, new, "d")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cd.Notes) != 1 || cd.Notes[0] != "d: the reviewed commit abababababab is not in this repository, so the files that changed below it cannot be listed" {
		t.Errorf("notes %q", cd.Notes)
	}
	if len(cd.Files) != 1 || cd.Files[0].OldUnknown == "" || len(cd.Files[0].Hunks) != 1 {
		t.Errorf("files %+v", cd.Files)
	}
}

// MarkWithin: a path one side no longer names but holds in a directory
// item is counted there, never "no longer runs" (#27).
func TestMarkWithin(t *testing.T) {
	srv := &trust.Server{Name: "s"}
	for _, tc := range []struct {
		name string
		new  []trust.FileID
		path string
		want string
	}{
		{"repository code", []trust.FileID{{Path: "./ (javascript code)", Object: trust.Object{Mode: "code:javascript", ID: "x"}}}, "tools/lib.js", "./ (javascript code)"},
		{"directory code", []trust.FileID{{Path: "tools/ (javascript code)", Object: trust.Object{Mode: "code:javascript", ID: "x"}}}, "tools/lib.js", "tools/ (javascript code)"},
		{"another directory", []trust.FileID{{Path: "lib/ (javascript code)", Object: trust.Object{Mode: "code:javascript", ID: "x"}}}, "tools/lib.js", ""},
		{"another language", []trust.FileID{{Path: "./ (python code)", Object: trust.Object{Mode: "code:python", ID: "x"}}}, "tools/lib.js", ""},
		{"a file item", []trust.FileID{{Path: "tools", Object: trust.Object{Mode: "100644", ID: "x"}}}, "tools/lib.js", ""},
		{"a whole tree", []trust.FileID{{Path: "tools", Object: trust.Object{Mode: "040000", ID: "x"}}}, "tools/lib.js", "tools"},
	} {
		changes := []trust.Change{{Server: "s", Old: srv, New: srv, Files: []trust.FileChange{{Path: tc.path, Old: trust.Object{Mode: "100644", ID: "o"}}}}}
		MarkWithin(changes, trust.Files{"s": {{Path: tc.path, Object: trust.Object{Mode: "100644", ID: "o"}}}}, trust.Files{"s": tc.new})
		if got := changes[0].Files[0].Within; got != tc.want {
			t.Errorf("%s: within %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestChangeProvenance(t *testing.T) {
	repo, old, new := contentRepo(t, map[string]string{"s.js": "one\n", "other": "1"}, map[string]string{"s.js": "two\n"})
	pv, err := ChangeProvenance(context.Background(), repo, old, new, []string{"s.js"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pv.Commits) != 1 || pv.Commits[0].Subject != "v2 by A" || pv.Commits[0].Author != "A" || pv.More != 0 {
		t.Errorf("provenance %+v", pv)
	}
	// The repository root (a code item of the whole repository) names
	// every commit that changed a file at any depth.
	repo2, old2, new2 := contentRepo(t, map[string]string{"a/b/s.js": "one\n"}, map[string]string{"a/b/s.js": "two\n"})
	if pv, err := ChangeProvenance(context.Background(), repo2, old2, new2, []string{""}, 0); err != nil || len(pv.Commits) != 1 {
		t.Errorf("the root: %+v %v", pv, err)
	}
	pv, err = ChangeProvenance(context.Background(), repo, old, new, []string{"nothing"}, 0)
	if err != nil || len(pv.Commits) != 0 {
		t.Errorf("unrelated path: %+v %v", pv, err)
	}
	if _, err := ChangeProvenance(context.Background(), repo, old, gitscan.WorkTree, []string{"s.js"}, 0); err == nil {
		t.Error("work tree end: no error")
	}
	// Backwards (diff ORIG_HEAD HEAD after a reset): no commit brought the
	// change, it undoes one, and that is what is said, not "uncommitted"
	// (#27).
	pv, err = ChangeProvenance(context.Background(), repo, new, old, []string{"s.js"}, 0)
	if err != nil || len(pv.Commits) != 0 || len(pv.Undone) != 1 || pv.Undone[0].Subject != "v2 by A" {
		t.Errorf("backwards: %+v %v", pv, err)
	}
}

// A directory item's commits are those that touched a file of it that
// changed, not every commit below it (#27: the review listed a docs commit
// for a JavaScript change).
func TestProvenancePathsAreTheChangedFiles(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{"tools/lib.js": "1\n", "README.md": "a\n"})
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "v1")
	r.write(map[string]string{"tools/lib.js": "2\n"})
	r.git("commit", "-q", "-am", "lib")
	r.write(map[string]string{"README.md": "b\n"})
	r.git("commit", "-q", "-am", "docs")
	repo, err := gitscan.Open(r.dir, gitscan.WithEnv(r.env))
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	old, _ := repo.Resolve("HEAD~2")
	new, _ := repo.Resolve("HEAD")
	items := []trust.FileChange{{Path: "./ (javascript code)", Old: trust.Object{Mode: "code:javascript", ID: "a"}, New: trust.Object{Mode: "code:javascript", ID: "b"}}}
	cd, err := Contents(context.Background(), repo, ContentRequest{Old: old, New: new, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	paths := cd.ProvenancePaths(items)
	if len(paths) != 1 || paths[0] != "tools/lib.js" {
		t.Fatalf("paths %q", paths)
	}
	pv, err := ChangeProvenance(context.Background(), repo, old, new, paths, 0)
	if err != nil || len(pv.Commits) != 1 || pv.Commits[0].Subject != "lib" {
		t.Errorf("provenance %+v %v", pv, err)
	}
	// Without a listing, the item's own path stands.
	var none *ContentDiff
	if p := none.ProvenancePaths(items); len(p) != 1 || p[0] != "" {
		t.Errorf("no listing: %q", p)
	}
}
