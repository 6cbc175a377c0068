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
