package gitscan

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// cacheTreeRepo makes a repository of random files in nested directories
// (a symlink, an executable), committed, with every file's mtime an hour
// back so that no entry is racily clean and the index's cache tree is
// what answers. It returns the directories, "" first.
func cacheTreeRepo(t *testing.T, env []string, seed int64) (string, []string) {
	t.Helper()
	dir := gitInit(t, env)
	rnd := rand.New(rand.NewSource(seed))
	dirs := []string{"", "a", "a/b", "a/b/c", "a-b", "a.b", "z", "z/y"}
	past := time.Now().Add(-time.Hour)
	for _, d := range dirs {
		writeFile(t, dir, filepath.Join(d, "keep.txt"), d)
	}
	for i := 0; i < 30+rnd.Intn(30); i++ {
		d := dirs[rnd.Intn(len(dirs))]
		p := strings.TrimPrefix(fmt.Sprintf("%s/f%d.%s", d, rnd.Intn(20), []string{"js", "py", "txt"}[rnd.Intn(3)]), "/")
		writeFile(t, dir, p, fmt.Sprintf("%s %d", p, rnd.Int()))
		if rnd.Intn(6) == 0 {
			os.Chmod(filepath.Join(dir, p), 0o755)
		}
	}
	os.Symlink("f1.js", filepath.Join(dir, "a", "link"))
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && fi.Mode()&os.ModeSymlink == 0 {
			os.Chtimes(p, past, past)
		}
		return nil
	})
	run(t, env, dir, nil, "add", "-A")
	run(t, env, dir, nil, "commit", "-q", "-m", "x")
	run(t, env, dir, nil, "update-index", "-q", "--refresh")
	return dir, dirs
}

// gitTreeIDs is `git write-tree` of an index (GIT_INDEX_FILE when not
// ""), as `git rev-parse TREE:dir` for each dir.
func gitTreeIDs(t *testing.T, env []string, dir, index string, dirs []string) map[string]string {
	t.Helper()
	if index != "" {
		env = append(env[:len(env):len(env)], "GIT_INDEX_FILE="+index)
	}
	tree := strings.TrimSpace(run(t, env, dir, nil, "write-tree"))
	out := map[string]string{}
	for _, d := range dirs {
		id, err := tryRun(env, dir, nil, "rev-parse", "-q", "--verify", tree+":"+d)
		if err == nil {
			out[d] = strings.TrimSpace(id)
		}
	}
	return out
}

// worktreeTreeIDs is what the work tree's directories would be if all of
// it were added: `git add -A` into a copy of the index.
func worktreeTreeIDs(t *testing.T, env []string, dir string, dirs []string) map[string]string {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "index")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, append(env[:len(env):len(env)], "GIT_INDEX_FILE="+tmp), dir, nil, "add", "-A")
	return gitTreeIDs(t, env, dir, tmp, dirs)
}

// checkTreeIDs compares every directory's id at side with want (absent
// from want: no such directory), for each engine, with and without the
// snapshot.
func checkTreeIDs(t *testing.T, env []string, dir string, side Side, dirs []string, want map[string]string, what string) {
	t.Helper()
	for _, e := range engines {
		for _, opts := range [][]Option{nil, {WithWorktreeSnapshot()}} {
			r := openT(t, dir, env, e, opts...)
			// Deepest first, then shallowest first: memo or none, the
			// same answers.
			order := append([]string(nil), dirs...)
			sort.Sort(sort.Reverse(sort.StringSlice(order)))
			order = append(order, dirs...)
			for _, d := range order {
				got, ok, err := r.Lookup(side, d)
				if errors.Is(err, ErrUnsupported) && e == EngineInProcess {
					break // a split index: only git reads it
				}
				if err != nil {
					t.Fatalf("%s, %v %d: %q: %v", what, e, len(opts), d, err)
				}
				if w, exists := want[d]; ok != exists || got.ID != w {
					t.Errorf("%s, %v %d, %v: %q: %q %v, want %q", what, e, len(opts), side, d, got.ID, ok, w)
				}
			}
		}
	}
}

// TestCacheTreeIsGits: every directory's id at the index and the work
// tree is git's (`git write-tree`, and write-tree after `git add -A` for
// the work tree), on random trees, clean and after each kind of change
// that makes the index's cache tree stale for the work tree or has git
// invalidate it: an edit not added, an edit added, a new untracked file,
// a deleted file, a mode change, an intent-to-add entry, an entry removed
// from the index only; and without the extension (an index written by
// update-index --index-info) and in a split index.
func TestCacheTreeIsGits(t *testing.T) {
	needGit(t)
	changes := []struct {
		name string
		do   func(t *testing.T, env []string, dir string)
	}{
		{"clean", func(*testing.T, []string, string) {}},
		{"edited, not added", func(t *testing.T, env []string, dir string) { writeFile(t, dir, "a/b/new-content.js", "1") }},
		{"edited in place, not added", func(t *testing.T, env []string, dir string) {
			for _, p := range []string{"a/b/c", "a/b", "a", "z", ""} {
				ents, _ := os.ReadDir(filepath.Join(dir, p))
				for _, e := range ents {
					if e.Type().IsRegular() {
						writeFile(t, dir, filepath.Join(p, e.Name()), "edited")
						return
					}
				}
			}
		}},
		{"edited and added", func(t *testing.T, env []string, dir string) {
			writeFile(t, dir, "a/b/added.js", "2")
			run(t, env, dir, nil, "add", "a/b/added.js")
		}},
		{"deleted", func(t *testing.T, env []string, dir string) {
			out := strings.Fields(run(t, env, dir, nil, "ls-files", "a"))
			if len(out) > 0 {
				os.Remove(filepath.Join(dir, out[len(out)-1]))
			}
		}},
		{"mode changed", func(t *testing.T, env []string, dir string) {
			out := strings.Fields(run(t, env, dir, nil, "ls-files", "z"))
			if len(out) > 0 {
				p := filepath.Join(dir, out[0])
				fi, _ := os.Stat(p)
				os.Chmod(p, fi.Mode()^0o100)
			}
		}},
		{"intent to add", func(t *testing.T, env []string, dir string) {
			writeFile(t, dir, "a/ita.js", "ita")
			run(t, env, dir, nil, "add", "-N", "a/ita.js")
		}},
		{"removed from the index only", func(t *testing.T, env []string, dir string) {
			out := strings.Fields(run(t, env, dir, nil, "ls-files", "a"))
			if len(out) > 0 {
				run(t, env, dir, nil, "rm", "-q", "--cached", out[0])
			}
		}},
		{"no cache tree", func(t *testing.T, env []string, dir string) {
			list := run(t, env, dir, nil, "ls-files", "-s")
			os.Remove(filepath.Join(dir, ".git", "index"))
			var info strings.Builder
			for _, l := range strings.Split(strings.TrimSpace(list), "\n") {
				// "mode id stage\tpath" -> "mode id\tpath"
				head, path, _ := strings.Cut(l, "\t")
				f := strings.Fields(head)
				fmt.Fprintf(&info, "%s %s\t%s\n", f[0], f[1], path)
			}
			run(t, env, dir, []byte(info.String()), "update-index", "--index-info")
			run(t, env, dir, nil, "update-index", "-q", "--refresh")
			ix, err := readIndexFile(filepath.Join(dir, ".git", "index"), formatSHA1)
			if err != nil || len(ix.trees) != 0 {
				t.Fatalf("index without a cache tree: %v, %d trees", err, len(ix.trees))
			}
		}},
		{"split index, edited", func(t *testing.T, env []string, dir string) {
			run(t, env, dir, nil, "update-index", "--split-index")
			writeFile(t, dir, "z/split.js", "s")
			run(t, env, dir, nil, "add", "z/split.js")
		}},
	}
	for seed := int64(1); seed <= 4; seed++ {
		for _, c := range changes {
			t.Run(fmt.Sprintf("%d/%s", seed, c.name), func(t *testing.T) {
				env := testEnv(t)
				dir, dirs := cacheTreeRepo(t, env, seed)
				c.do(t, env, dir)
				if c.name == "clean" {
					ix, err := readIndexFile(filepath.Join(dir, ".git", "index"), formatSHA1)
					if err != nil || len(ix.trees) != len(dirs) {
						t.Fatalf("a committed index: %v, cache tree of %d directories, want %d", err, len(ix.trees), len(dirs))
					}
				}
				if c.name != "intent to add" {
					// An intent-to-add entry is in the Index side as an
					// empty file (every engine, before the cache tree
					// was read too); git's write-tree leaves it out.
					checkTreeIDs(t, env, dir, Index, dirs, gitTreeIDs(t, env, dir, "", dirs), c.name+", index")
				}
				checkTreeIDs(t, env, dir, WorkTree, dirs, worktreeTreeIDs(t, env, dir, dirs), c.name+", work tree")
			})
		}
	}
}

// poisonCacheTree overwrites, in the index file, the cache tree's id of
// each directory in ids with a made-up one (and the file's checksum, for
// git to go on reading it) and returns the made-up ids.
func poisonCacheTree(t *testing.T, dir string, ids map[string]string) map[string]string {
	t.Helper()
	p := filepath.Join(dir, ".git", "index")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	ext := bytes.LastIndex(data, []byte("TREE"))
	if ext < 0 {
		t.Fatal("no cache tree")
	}
	out := map[string]string{}
	for d, id := range ids {
		raw, _ := hex.DecodeString(id)
		at := bytes.Index(data[ext:], raw)
		if at < 0 {
			t.Fatalf("%q: id %s not in the cache tree", d, id)
		}
		fake := bytes.Repeat([]byte{0xab}, len(raw))
		fake[0] = byte(len(out))
		copy(data[ext+at:], fake)
		out[d] = hex.EncodeToString(fake)
	}
	sum := sha1.Sum(data[:len(data)-sha1.Size])
	copy(data[len(data)-sha1.Size:], sum[:])
	fi, _ := os.Stat(p)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	return out
}

// TestCacheTreeStaleIsNotTrusted: the index's cache-tree ids of a/b and
// the directories above it are made up (so that an answer taken from them
// is seen). On a clean work tree they are the answer, for the index and
// the work tree: the extension is used. Once a file in a/b is edited,
// added, removed or re-moded in the work tree, those directories' ids are
// git's for the work tree: a cache tree that no longer describes the work
// tree is never trusted.
func TestCacheTreeStaleIsNotTrusted(t *testing.T) {
	needGit(t)
	if !statCacheUsable {
		t.Skip("no stat cache on this platform: every file is hashed, the listing differs from the index only by content")
	}
	edits := []struct {
		name string
		do   func(t *testing.T, dir string)
	}{
		{"none", func(*testing.T, string) {}},
		{"an edit", func(t *testing.T, dir string) { writeFile(t, dir, "a/b/f-edit.js", "x") }},
		{"a new untracked file", func(t *testing.T, dir string) { writeFile(t, dir, "a/b/untracked.js", "u") }},
		{"a removed file", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "a/b/f-edit.js")) }},
		{"a mode change", func(t *testing.T, dir string) { os.Chmod(filepath.Join(dir, "a/b/f-edit.js"), 0o755) }},
	}
	for _, ed := range edits {
		t.Run(ed.name, func(t *testing.T) {
			env := testEnv(t)
			dir, dirs := cacheTreeRepo(t, env, 7)
			// One file the edits are about, as old as the others.
			writeFile(t, dir, "a/b/f-edit.js", "original")
			past := time.Now().Add(-time.Hour)
			os.Chtimes(filepath.Join(dir, "a/b/f-edit.js"), past, past)
			run(t, env, dir, nil, "add", "a/b/f-edit.js")
			run(t, env, dir, nil, "commit", "-q", "-m", "y")
			run(t, env, dir, nil, "update-index", "-q", "--refresh")
			real := gitTreeIDs(t, env, dir, "", dirs)
			ed.do(t, dir)
			wt := worktreeTreeIDs(t, env, dir, dirs)
			// The directories an edit of a/b makes stale; the others
			// keep their ids, for the stale ones' ids to be git's.
			chain := map[string]string{}
			for _, d := range []string{"", "a", "a/b"} {
				chain[d] = real[d]
			}
			fake := poisonCacheTree(t, dir, chain)
			for _, e := range engines {
				// git's cat-file engine reads the index with git
				// ls-files, which says nothing of the cache tree: every
				// id is computed, the real ones.
				fromIndex := e != engineGitCatFile
				for _, snap := range [][]Option{nil, {WithWorktreeSnapshot()}} {
					r := openT(t, dir, env, e, snap...)
					for _, d := range dirs {
						want := real[d]
						if _, poisoned := fake[d]; poisoned && fromIndex {
							want = fake[d]
						}
						got, ok, err := r.Lookup(Index, d)
						if err != nil || !ok || got.ID != want {
							t.Errorf("%v %d: index: %q: %q %v %v, want %q", e, len(snap), d, got.ID, ok, err, want)
						}
						stale := ed.name != "none" && (d == "" || d == "a" || d == "a/b")
						if stale {
							want = wt[d] // what git computes from the work tree
						}
						got, ok, err = r.Lookup(WorkTree, d)
						if err != nil || !ok || got.ID != want {
							t.Errorf("%v %d: work tree: %q: %q %v %v, want %q (made up: %q)", e, len(snap), d, got.ID, ok, err, want, fake[d])
						}
					}
				}
			}
		})
	}
}

// TestIndexListingCopiesNothing: listing the Index side below a directory
// (Claude Code's nested-skills lookup does on every check) answers from
// the index's own entries, without a copy of them, and the same entries
// as git ls-files; with an unmerged path, stage 2 stands for it.
func TestIndexListingCopiesNothing(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	for _, e := range engines {
		r := openT(t, dir, env, e, WithWorktreeSnapshot())
		for _, d := range []string{"", "sub", "src"} {
			files, err := r.Files(Index, d, 100)
			if err != nil {
				t.Fatal(err)
			}
			spec := d
			if spec == "" {
				spec = "."
			}
			want := strings.Fields(run(t, env, dir, nil, "ls-files", "--", spec))
			var got []string
			for _, f := range files {
				got = append(got, f.Path)
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%v: %q: %v, want %v", e, d, got, want)
			}
			if n := testing.AllocsPerRun(20, func() { r.Files(Index, d, 100) }); n > 0 {
				t.Errorf("%v: Files(Index, %q): %v allocations, want no copy", e, d, n)
			}
		}
	}
	blob := strings.TrimSpace(run(t, env, dir, []byte("ours"), "hash-object", "-w", "--stdin"))
	run(t, env, dir, []byte(fmt.Sprintf("0 %s\tsrc/server.js\n100644 %s 2\tsrc/server.js\n", strings.Repeat("0", 40), blob)), "update-index", "--index-info")
	for _, e := range engines {
		r := openT(t, dir, env, e)
		files, err := r.Files(Index, "src", 100)
		if err != nil || len(files) != 1 || files[0].ID != blob {
			t.Errorf("%v: unmerged: %+v %v, want stage 2's %s", e, files, err, blob)
		}
	}
}

// TestCacheTreeCountsEveryEntryBelow: a cache tree whose count is short of
// the index's entries below its directory (an index some other tool
// wrote) is not the id of a listing that matches the first of them: the
// id stands for every entry below the directory, or for none.
func TestCacheTreeCountsEveryEntryBelow(t *testing.T) {
	id := strings.Repeat("1", 40)
	es := []Entry{{Path: "a/x", Mode: ModeRegular, ID: id}, {Path: "a/y", Mode: ModeRegular, ID: id}, {Path: "b", Mode: ModeRegular, ID: id}}
	c := &indexCache{entries: es, meta: make([]indexMeta, len(es)),
		trees: cacheTrees{"": {id: "root", entries: 2}, "a": {id: "a", entries: 1}}}
	for _, tc := range []struct {
		dir     string
		listing []Entry
		want    string
	}{
		{"a", es[:1], ""},
		{"", es[:2], ""},
		{"a", es[:2], ""}, // the count differs
	} {
		if got, ok := c.treeFromIndex(tc.dir, tc.listing); ok != (tc.want != "") || got != tc.want {
			t.Errorf("%q %v: %q %v, want %q", tc.dir, tc.listing, got, ok, tc.want)
		}
	}
	c.trees = cacheTrees{"": {id: "root", entries: 3}, "a": {id: "a", entries: 2}}
	if got, ok := c.treeFromIndex("a", es[:2]); !ok || got != "a" {
		t.Errorf("a: %q %v, want the cache tree's id", got, ok)
	}
	if got, ok := c.treeFromIndex("", es); !ok || got != "root" {
		t.Errorf("root: %q %v, want the cache tree's id", got, ok)
	}
}
