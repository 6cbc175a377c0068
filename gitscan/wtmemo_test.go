package gitscan

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSnapshotNeverHidesAnEdit: a Repo opened WithWorktreeSnapshot takes
// a clean file's id from the index only when git would: an edit of the
// same size in the second the index was written (racily clean), and one
// whose old mtime was put back (only ctime differs), are hashed.
func TestSnapshotNeverHidesAnEdit(t *testing.T) {
	needGit(t)
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		edit func(t *testing.T, env []string, dir string)
	}{
		{"same size, same second as the index", func(t *testing.T, env []string, dir string) {
			run(t, env, dir, nil, "read-tree", "HEAD")
			run(t, env, dir, nil, "update-index", "-q", "--refresh")
			writeFile(t, dir, "src/server.js", "console.log(2)")
		}},
		{"same size, old mtime put back", func(t *testing.T, env []string, dir string) {
			p := filepath.Join(dir, "src", "server.js")
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
			run(t, env, dir, nil, "update-index", "-q", "--refresh")
			writeFile(t, dir, "src/server.js", "console.log(2)")
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		for _, e := range engines {
			env := testEnv(t)
			dir := smallRepo(t, env)
			c.edit(t, env, dir)
			r := openT(t, dir, env, e, WithWorktreeSnapshot())
			want := r.format.hashObject("blob", []byte("console.log(2)"))
			got, ok, err := r.Lookup(WorkTree, "src/server.js")
			if err != nil || !ok || got.ID != want {
				t.Errorf("%s, %v: work tree id %q (%v %v), want %q", c.name, e, got.ID, ok, err, want)
			}
			files, err := r.Files(WorkTree, "src", 10)
			if err != nil || len(files) != 1 || files[0].ID != want {
				t.Errorf("%s, %v: listing %+v %v, want id %q", c.name, e, files, err, want)
			}
		}
	}
}

// TestSnapshotAnswersAsALiveRepo: with and without the snapshot, the
// work tree's entries, listings and directory ids are the same.
func TestSnapshotAnswersAsALiveRepo(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	writeFile(t, dir, "src/extra.js", "x")
	for _, e := range engines {
		live := openT(t, dir, env, e)
		snap := openT(t, dir, env, e, WithWorktreeSnapshot())
		for round := 0; round < 2; round++ { // the second from the memo
			for _, p := range []string{"", "src", "src/server.js", "src/extra.js", "sub", "sub/deep/.claude/agents/a.md", "absent", "src/server.js/x"} {
				a, okA, errA := live.Lookup(WorkTree, p)
				b, okB, errB := snap.Lookup(WorkTree, p)
				if a != b || okA != okB || (errA == nil) != (errB == nil) {
					t.Errorf("%v: %q: live %+v %v %v, snapshot %+v %v %v", e, p, a, okA, errA, b, okB, errB)
				}
			}
			la, errA := live.Files(WorkTree, "", 100)
			lb, errB := snap.Files(WorkTree, "", 100)
			if len(la) != len(lb) || errA != nil || errB != nil {
				t.Fatalf("%v: listings %d %v / %d %v", e, len(la), errA, len(lb), errB)
			}
			for i := range la {
				if la[i] != lb[i] {
					t.Errorf("%v: listing %d: %+v / %+v", e, i, la[i], lb[i])
				}
			}
		}
	}
}

// TestSmudgedEntryIsNotClean: an index entry git wrote with size 0 for a
// racily clean file is clean only for the empty blob, as in git.
func TestSmudgedEntryIsNotClean(t *testing.T) {
	if !statCacheUsable {
		t.Skip("no stat cache on this platform")
	}
	top := t.TempDir()
	p := filepath.Join(top, "f")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	osFI, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	// The snapshot's own lstat (relative to the work tree's top) must
	// give cleanID what os.Lstat gives it.
	r := &Repo{top: top}
	defer r.topDir.close()
	relFI, err := r.lstatRel("f")
	if err != nil {
		t.Fatal(err)
	}
	for _, fi := range []fs.FileInfo{osFI, relFI} {
		ctime, ok := fileCtime(fi)
		if !ok {
			t.Fatalf("%T: no ctime", fi)
		}
		if !sameFile(fi, osFI) || fi.Mode() != osFI.Mode() || !fi.ModTime().Equal(osFI.ModTime()) || fi.Size() != osFI.Size() {
			t.Errorf("%T: not what os.Lstat says: %v %v %v", fi, fi.Mode(), fi.ModTime(), fi.Size())
		}
		for id, clean := range map[string]bool{emptyBlobSHA1: true, "0123456789012345678901234567890123456789": false} {
			c := &indexCache{
				entries: []Entry{{Path: "f", Mode: ModeRegular, ID: id}},
				meta: []indexMeta{{hasStat: true, stat: indexStat{
					mtimeSec: uint32(fi.ModTime().Unix()), mtimeNsec: uint32(fi.ModTime().Nanosecond()),
					ctimeSec: uint32(ctime.Unix()), ctimeNsec: uint32(ctime.Nanosecond()),
					size: 0, ino: uint32(fileIno(fi))}}},
				mtime: fi.ModTime().Add(time.Hour),
			}
			if got, _, ok := c.cleanID("f", fi, ModeRegular, 0); ok != clean || (ok && got != id) {
				t.Errorf("%T: entry %s of size 0: clean %v (%q), want %v", fi, id, ok, got, clean)
			}
		}
	}
}

// TestSnapshotKeepsAnAbsentParent: a snapshot looks at a missing
// directory once, however many paths below it are asked about (every npx
// server of a large configuration probes node_modules/.bin/…): a
// directory created after the first question stays absent for the rest
// of the evaluation, as a directory that existed stays what it was.
func TestSnapshotKeepsAnAbsentParent(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	for _, e := range engines {
		os.RemoveAll(filepath.Join(dir, "node_modules"))
		snap := openT(t, dir, env, e, WithWorktreeSnapshot())
		if _, ok, err := snap.Lookup(WorkTree, "node_modules/.bin/a"); ok || err != nil {
			t.Fatalf("%v: node_modules/.bin/a before it exists: %v %v", e, ok, err)
		}
		writeFile(t, dir, "node_modules/.bin/b", "x")
		if _, ok, err := snap.Lookup(WorkTree, "node_modules/.bin/b"); ok || err != nil {
			t.Errorf("%v: node_modules/.bin/b: found %v (%v), want the absent directory kept from the first lookup", e, ok, err)
		}
		live := openT(t, dir, env, e)
		if _, ok, err := live.Lookup(WorkTree, "node_modules/.bin/b"); !ok || err != nil {
			t.Errorf("%v: without the snapshot node_modules/.bin/b: %v %v, want found", e, ok, err)
		}
	}
}

// TestIndexFindAnyHint: find answers the same wherever its hint points
// (the listing passes the last position; a wrong hint may only cost a
// search), for present, absent, unmerged and out-of-range paths.
func TestIndexFindAnyHint(t *testing.T) {
	var es []Entry
	var meta []indexMeta
	for _, p := range []string{"a", "a/b", "a/c", "b", "b", "b", "c.js", "d/e/f", "z"} {
		stage := 0
		if p == "b" {
			stage = len(es) - 2 // stages 1, 2, 3
		}
		es = append(es, Entry{Path: p})
		meta = append(meta, indexMeta{stage: uint8(stage)})
	}
	c := &indexCache{entries: es, meta: meta, unmerged: true}
	for _, p := range []string{"", "a", "a/", "a/b", "a/bb", "b", "c", "c.js", "d", "d/e/f", "y", "z", "zz"} {
		want := 0
		for want < len(es) && es[want].Path < p {
			want++
		}
		wantOK := want < len(es) && es[want].Path == p
		for from := -1; from <= len(es)+1; from++ {
			if got, ok := c.find(p, from); got != want || ok != wantOK {
				t.Errorf("find(%q, %d) = %d %v, want %d %v", p, from, got, ok, want, wantOK)
			}
		}
		e, ok := c.stage0(p)
		if ok != (wantOK && meta[want].stage == 0) || (ok && e.Path != p) {
			t.Errorf("stage0(%q) = %v %v", p, e, ok)
		}
	}
}
