package gitscan

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wideRepo has n files spread over nested directories and a second commit
// that edits one file four levels deep.
func wideRepo(t testing.TB, env []string, n int) (dir, deep string) {
	t.Helper()
	dir = gitInit(t, env)
	var b strings.Builder
	fmt.Fprintf(&b, "commit refs/heads/main\nmark :1\ncommitter C <c@example.com> 1700000000 +0000\ndata 1\nx\n")
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("a%d/b%d/c%d/f%d.txt", i%10, i%7, i%13, i)
		fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n%s\n", p, len(p), p)
	}
	fmt.Fprintf(&b, "M 100644 inline .agentty/mcp.json\ndata 2\n{}\n")
	fmt.Fprintf(&b, "M 100644 inline a1/b1/c1/.claude/agents/x.md\ndata 1\nx\n")
	deep = "a3/b3/c3/f3.txt"
	fmt.Fprintf(&b, "\ncommit refs/heads/main\nmark :2\ncommitter C <c@example.com> 1700000060 +0000\ndata 1\ny\nfrom :1\n")
	fmt.Fprintf(&b, "M 100644 inline %s\ndata 7\nchanged\n\n", deep)
	run(t, env, dir, []byte(b.String()), "fast-import", "--quiet")
	return dir, deep
}

// TestHookPathReadsOChange: the hook's questions about two commits that
// differ in one file cost a few dozen object reads in a 5,000-file
// repository, never O(repository).
func TestHookPathReadsOChange(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir, deep := wideRepo(t, env, 5000)
	for _, e := range engines {
		os.RemoveAll(filepath.Join(dir, ".git", "mcp-guard"))
		var c Counter
		r := openT(t, dir, env, e, WithReadCounter(&c))
		old, cur := resolveT(t, r, "main~1"), resolveT(t, r, "main")
		c.Reset()
		ch, err := r.Changes(old, cur)
		if err != nil || len(ch) != 1 || ch[0].Path != deep {
			t.Fatalf("%v: changes %+v %v", e, ch, err)
		}
		if n := c.Objects(); n >= 30 {
			t.Errorf("%v: Changes for a one-file change read %d objects, want < 30", e, n)
		}
		c.Reset()
		if _, ok, err := r.Lookup(cur, deep); !ok || err != nil {
			t.Fatalf("%v: lookup %s: %v %v", e, deep, ok, err)
		}
		if n := c.Objects(); n > 5 {
			t.Errorf("%v: Lookup of a depth-4 path read %d objects, want <= 5", e, n)
		}
		c.Reset()
		if _, _, err := r.ReadBlob(cur, ".agentty/mcp.json", 1<<20); err != nil {
			t.Fatal(err)
		}
		if n := c.Objects(); n > 4 {
			t.Errorf("%v: ReadBlob of a top-level config read %d objects", e, n)
		}
		// Surfaces: the old tree is listed once (and cached); the new one
		// is derived from it by the pruned comparison.
		s0, _, err := r.Surfaces(old)
		if err != nil || len(s0) != 2 {
			t.Fatalf("%v: surfaces %v %v", e, s0, err)
		}
		c.Reset()
		s1, _, err := r.Surfaces(cur)
		if err != nil || len(s1) != 2 {
			t.Fatalf("%v: surfaces %v %v", e, s1, err)
		}
		if n := c.Objects(); n >= 30 {
			t.Errorf("%v: Surfaces derived from a cached neighbour read %d objects, want < 30", e, n)
		}
		r.Close() // writes the cache
		c.Reset()
		r2 := openT(t, dir, env, e, WithReadCounter(&c))
		if _, _, err := r2.Surfaces(resolveT(t, r2, "main")); err != nil {
			t.Fatal(err)
		}
		if n := c.Objects(); n > 3 {
			t.Errorf("%v: Surfaces from the cache read %d objects", e, n)
		}
		// History of one literal path descends only that path.
		c.Reset()
		h, err := r2.History(context.Background(), Empty, resolveT(t, r2, "main"), []string{deep})
		if err != nil || len(h) != 2 {
			t.Fatalf("%v: history %v %v", e, h, err)
		}
		if n := c.Objects(); n > 20 {
			t.Errorf("%v: History of one path over 2 commits read %d objects", e, n)
		}
	}
}

// historyRepo has a 5,000-file tree and n commits after it, each editing
// one file four levels deep, every tenth one a surface.
func historyRepo(t testing.TB, env []string, n int) string {
	t.Helper()
	dir, _ := wideRepo(t, env, 5000)
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "commit refs/heads/main\ncommitter C <c@example.com> %d +0000\ndata 1\nh\n", 1700001000+i)
		if i == 0 {
			b.WriteString("from refs/heads/main^0\n")
		}
		p := fmt.Sprintf("a%d/b%d/c%d/f%d.txt", i%10, i%7, i%13, i)
		if i%10 == 0 {
			p = fmt.Sprintf("a%d/b%d/.agentty/mcp.json", i%10, i%7)
		}
		fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n%d\n\n", p, len(fmt.Sprint(i))+1, i)
	}
	run(t, env, dir, []byte(b.String()), "fast-import", "--quiet")
	return dir
}

// TestHistoryReadsFollowTheChanges: a history scan reads each commit once
// and, per commit, only the trees on the changed paths (trees are cached by
// id across commits), never whole trees; a scan-like pass over the commits
// it returns (the surfaces of each) costs the changed trees too, not a
// listing per commit.
func TestHistoryReadsFollowTheChanges(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	const n = 200
	dir := historyRepo(t, env, n)
	for _, e := range engines {
		var c Counter
		r := openT(t, dir, env, e, WithReadCounter(&c), WithoutCache())
		to := resolveT(t, r, "main")
		c.Reset()
		h, err := r.History(context.Background(), Empty, to, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != n/10+1 {
			t.Fatalf("%v: %d commits changed a surface, want %d", e, len(h), n/10+1)
		}
		// Each commit: itself, and the 5 trees on its changed path (its
		// parent's are cached from the commit before); the first one, the
		// whole 5,000-file tree once (about 1,000 trees).
		t.Logf("%v: History read %d objects", e, c.Objects())
		if reads, max := c.Objects(), int64(n*(1+5)+1200); reads > max {
			t.Errorf("%v: History over %d one-file commits read %d objects, want at most %d", e, n, reads, max)
		}
		// What a history scan does next: the surfaces at each commit found,
		// oldest first.
		r2 := openT(t, dir, env, e, WithReadCounter(&c))
		c.Reset()
		for _, hc := range h {
			if _, _, err := r2.Surfaces(resolveT(t, r2, hc.ID)); err != nil {
				t.Fatal(err)
			}
		}
		// The first is listed in full (one ls-tree, or its trees in process),
		// each later one derived from the one before by the changed trees.
		t.Logf("%v: surfaces of the %d commits read %d objects", e, len(h), c.Objects())
		if reads, max := c.Objects(), int64(1200+len(h)*100); reads > max {
			t.Errorf("%v: surfaces of %d commits read %d objects, want at most %d", e, len(h), reads, max)
		}
	}
}
