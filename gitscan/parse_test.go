package gitscan

import (
	"strings"
	"testing"
)

func TestParseTreeRoundTrip(t *testing.T) {
	entries := []treeEntry{
		{name: "a", mode: ModeRegular, raw: rawOf(strings.Repeat("1", 40))},
		{name: "a.b", mode: ModeExecutable, raw: rawOf(strings.Repeat("2", 40))},
		{name: "a", mode: ModeTree, raw: rawOf(strings.Repeat("3", 40))},
		{name: "l", mode: ModeSymlink, raw: rawOf(strings.Repeat("4", 40))},
		{name: "s", mode: ModeSubmodule, raw: rawOf(strings.Repeat("5", 40))},
	}
	raw := encodeTree(formatSHA1, entries)
	got, err := parseTree(formatSHA1, raw)
	if err != nil || len(got) != len(entries) {
		t.Fatalf("parse: %v %v", got, err)
	}
	for i := range got {
		if got[i] != entries[i] {
			t.Errorf("entry %d: %+v, want %+v", i, got[i], entries[i])
		}
	}
	for _, bad := range []string{"100644 \x00", "100644 a/b\x00" + strings.Repeat("x", 20), "999999 a\x00" + strings.Repeat("x", 20), "100644 a\x00short", "100644 ..\x00" + strings.Repeat("x", 20)} {
		if _, err := parseTree(formatSHA1, []byte(bad)); err == nil {
			t.Errorf("parse %q: no error", bad)
		}
	}
}

func TestModeCanonicalisation(t *testing.T) {
	for raw, want := range map[uint32]Mode{0o100644: ModeRegular, 0o100664: ModeRegular, 0o100755: ModeExecutable, 0o100775: ModeExecutable, 0o120000: ModeSymlink, 0o160000: ModeSubmodule, 0o40000: ModeTree} {
		if m, ok := modeFromGit(raw); !ok || m != want {
			t.Errorf("mode %o: %v, want %v", raw, m, want)
		}
	}
	if _, ok := modeFromGit(0o020000); ok {
		t.Errorf("unknown mode accepted")
	}
}

func TestParseCommit(t *testing.T) {
	raw := "tree " + strings.Repeat("a", 40) + "\nparent " + strings.Repeat("b", 40) + "\nparent " + strings.Repeat("c", 40) +
		"\nauthor A U Thor <a@example.com> 1700000000 +0130\ncommitter C <c@example.com> 1700000100 -0700\n\nmessage\nparent fake\n"
	c, err := parseCommit(formatSHA1, []byte(raw))
	if err != nil || len(c.parents) != 2 || c.author != "A U Thor" || c.authorEmail != "a@example.com" ||
		c.authorTime.Unix() != 1700000000 || c.commitTime.Unix() != 1700000100 {
		t.Fatalf("parse commit: %+v %v", c, err)
	}
	if _, off := c.authorTime.Zone(); off != 90*60 {
		t.Errorf("author zone offset %d", off)
	}
	if _, err := parseCommit(formatSHA1, []byte("parent x\n")); err == nil {
		t.Errorf("commit without tree accepted")
	}
}

func FuzzParseTree(f *testing.F) {
	f.Add(encodeTree(formatSHA1, []treeEntry{{name: "a", mode: ModeRegular, raw: rawOf(strings.Repeat("1", 40))}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseTree(formatSHA1, data)
		if err != nil {
			if entries != nil {
				t.Fatalf("half result on error")
			}
			return
		}
		// Legacy spellings (100664, 040000) re-encode canonically; the
		// canonical form must then round-trip exactly.
		again, err := parseTree(formatSHA1, encodeTree(formatSHA1, entries))
		if err != nil || len(again) != len(entries) {
			t.Fatalf("re-parse of %q: %v", data, err)
		}
		for i := range again {
			if again[i] != entries[i] {
				t.Fatalf("round trip changed entry %d of %q", i, data)
			}
		}
	})
}

func FuzzParseCommit(f *testing.F) {
	f.Add([]byte("tree " + strings.Repeat("a", 40) + "\nauthor A <a> 1 +0000\n\nmsg"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseCommit(formatSHA1, data)
		if err != nil && c != nil {
			t.Fatalf("half result on error")
		}
		if err == nil && !formatSHA1.validID(c.tree) {
			t.Fatalf("invalid tree id accepted")
		}
	})
}

// TestDiffTreesOrderIndependent: the side-by-side walk pairs entries in
// git's order; a tree out of that order (damaged or forged) is paired by
// name instead, with the same answer as for the sorted tree.
func TestDiffTreesOrderIndependent(t *testing.T) {
	id := func(c string) string { return strings.Repeat(c, 40) }
	e := func(name string, m Mode, c string) treeEntry {
		return treeEntry{name: name, mode: m, raw: rawOf(id(c))}
	}
	before := []treeEntry{e("a", ModeRegular, "1"), e("a.txt", ModeRegular, "2"), e("b", ModeRegular, "3"), e("z", ModeRegular, "4")}
	after := []treeEntry{e("a.txt", ModeRegular, "2"), e("a", ModeTree, "5"), e("b", ModeExecutable, "3"), e("c", ModeSymlink, "6")}
	sub := []treeEntry{e("x", ModeRegular, "7")}
	unsorted := []treeEntry{after[3], after[1], after[2], after[0]}
	r := &Repo{format: formatSHA1, trees: newTreeCache(16)}
	r.trees.put(rawOf(id("a")), before)
	r.trees.put(rawOf(id("b")), after)
	r.trees.put(rawOf(id("c")), unsorted)
	r.trees.put(rawOf(id("5")), sub)
	var sorted, shuffled []Change
	if err := r.diffTrees("", id("a"), id("b"), nil, &sorted); err != nil {
		t.Fatal(err)
	}
	if err := r.diffTrees("", id("a"), id("c"), nil, &shuffled); err != nil {
		t.Fatal(err)
	}
	sortChanges(sorted)
	sortChanges(shuffled)
	want := []string{"a 100644:" + id("1") + " - ", "a/x - 100644:" + id("7") + " ", "b 100644:" + id("3") + " 100755:" + id("3") + " ",
		"c - 120000:" + id("6") + " ", "z 100644:" + id("4") + " - "}
	for name, got := range map[string][]Change{"sorted": sorted, "unsorted": shuffled} {
		if g := changeStrings(got); strings.Join(g, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n%s", name, diffLines(want, g))
		}
	}
}

func TestEmptyTreeIDs(t *testing.T) {
	for _, f := range []objectFormat{formatSHA1, formatSHA256} {
		if got, want := f.emptyTree(), f.hashObject("tree", nil); got != want {
			t.Errorf("%s: empty tree %s, want %s", f.name, got, want)
		}
	}
}
