package gitscan

import (
	"strings"
	"testing"
)

func TestParseTreeRoundTrip(t *testing.T) {
	entries := []treeEntry{
		{name: "a", mode: ModeRegular, id: strings.Repeat("1", 40)},
		{name: "a.b", mode: ModeExecutable, id: strings.Repeat("2", 40)},
		{name: "a", mode: ModeTree, id: strings.Repeat("3", 40)},
		{name: "l", mode: ModeSymlink, id: strings.Repeat("4", 40)},
		{name: "s", mode: ModeSubmodule, id: strings.Repeat("5", 40)},
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
	f.Add(encodeTree(formatSHA1, []treeEntry{{name: "a", mode: ModeRegular, id: strings.Repeat("1", 40)}}))
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
