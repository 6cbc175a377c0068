package project

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/gitscan"
)

// TestQuietCompareAgreesWithFullCompare walks a history the way the git
// hook does (each run compares the previous HEAD with the new one, with the
// per-tree cache kept between runs) and checks every answer against a
// Compare that never uses the cache: the shortcut for "nothing agentty
// runs changed" must never hide a change, including the indirect ones
// (a script a hooks.json runs, a file behind a symlinked config, a config
// appearing where a dangling symlink pointed).
func TestQuietCompareAgreesWithFullCompare(t *testing.T) {
	r := newRepo(t)
	hooks1 := `{"pre_tool":[{"run":"./scripts/check.sh"}]}`
	hooks2 := `{"pre_tool":[{"run":"./scripts/check.sh"},{"run":"sh scripts/other.sh --fast"}]}`
	steps := []struct {
		name  string
		files map[string]string
		quiet bool // the cache proves nothing changed: no configuration read
	}{
		{"initial", map[string]string{
			".agentty/mcp.json": nodeCfg, "server.js": "v1", "README": "r0",
			".agentty/hooks.json": hooks1, "scripts/check.sh": "#!c1", "scripts/other.sh": "#!o1",
			"sub/.agentty/mcp.json": "->../../cfg/sub.json", "docs/a.md": "a",
		}, false},
		{"unrelated edit", map[string]string{"README": "r1"}, false}, // first run: nothing cached yet
		{"unrelated edit again", map[string]string{"docs/a.md": "b"}, true},
		{"hooks.json changed", map[string]string{".agentty/hooks.json": hooks2}, false},
		{"unrelated after hooks", map[string]string{"README": "r2"}, true},
		{"script the new hook runs", map[string]string{"scripts/other.sh": "#!o2"}, false},
		{"script the server runs", map[string]string{"server.js": "v2"}, false},
		{"quiet again", map[string]string{"docs/b.md": "b"}, true},
		{"dangling symlink now resolves", map[string]string{"cfg/sub.json": `{"mcpServers":{"x":{"command":"./x"}}}`}, false},
		{"file the new config runs", map[string]string{"sub/x": "#!x"}, false},
		{"nested config added deep down", map[string]string{"a/b/c/.agentty/mcp.json": nodeCfg}, false},
		{"persona added", map[string]string{"a/.claude/agents/p.md": "# p"}, false},
		{"directory of a reference replaced", map[string]string{"scripts": "->elsewhere"}, false},
		{"quiet at the end", map[string]string{"README": "r3"}, true},
	}
	var ids []string
	for _, s := range steps {
		ids = append(ids, r.commit(s.files))
	}
	for i := 1; i < len(ids); i++ {
		var c gitscan.Counter
		g, err := gitscan.Open(r.dir, gitscan.WithEnv(r.env), gitscan.WithReadCounter(&c))
		if err != nil {
			t.Fatal(err)
		}
		old, cur := r.side(g, ids[i-1]), r.side(g, ids[i])
		c.Reset()
		changes, err := g.Changes(old, cur)
		if err != nil {
			t.Fatal(err)
		}
		compareReads := c.Objects()
		c.Reset()
		got, err := Compare(context.Background(), g, old, cur, Options{})
		if err != nil {
			t.Fatalf("%s: %v", steps[i].name, err)
		}
		reads := c.Objects()
		g.Close() // writes the cache, as the hook does when it exits

		plain := r.open(gitscan.WithoutCache())
		want, err := Compare(context.Background(), plain, r.side(plain, ids[i-1]), r.side(plain, ids[i]), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if brief(got) != brief(want) || strings.Join(got.Skipped, ",") != strings.Join(want.Skipped, ",") {
			t.Errorf("%s: with the cache %q %v, without %q %v", steps[i].name, brief(got), got.Skipped, brief(want), want.Skipped)
		}
		// A quiet step reads nothing beyond the pruned comparison, whose
		// trees this Repo already holds: Compare counts zero reads.
		if steps[i].quiet && reads != 0 {
			t.Errorf("%s: Compare read %d objects after the comparison (%d, %d paths): the cache did not prove it quiet", steps[i].name, reads, compareReads, len(changes))
		}
		if !steps[i].quiet && reads == 0 {
			t.Errorf("%s: Compare read nothing, yet something agentty runs changed", steps[i].name)
		}
	}
}

// TestCompareReadsFollowTheChange: Compare of a one-file change in a
// 20,000-file repository reads a handful of objects, cold or warm, and a
// change that touches nothing agentty runs reads nothing beyond the pruned
// comparison once the cache is warm. The counts are read counts, not
// timings, so the test cannot flake on a busy machine.
func TestCompareReadsFollowTheChange(t *testing.T) {
	r := newRepo(t)
	base := map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "v1"}
	for i := 0; i < 20000; i++ {
		base[fmt.Sprintf("src/d%02d/e%02d/f%05d.txt", i%30, (i/30)%30, i)] = fmt.Sprint(i)
	}
	for i := 0; i < 5; i++ {
		base[fmt.Sprintf("src/d%02d/.agentty/mcp.json", i)] = fmt.Sprintf(`{"mcpServers":{"t%d":{"command":"./tool.sh"}}}`, i)
		base[fmt.Sprintf("src/d%02d/tool.sh", i)] = "#!t"
	}
	a, b := r.fastImport(base, map[string]string{"src/d07/e03/f00217.txt": "edited"})
	r.git("tag", "a", a)
	r.git("tag", "b", b)
	r.git("update-ref", "refs/heads/c", r.git("commit-tree", "-p", b, "-m", "c", r.git("rev-parse", "b^{tree}")))

	run := func(from, to string) (changes, total int64, res *Result) {
		var c gitscan.Counter
		g, err := gitscan.Open(r.dir, gitscan.WithEnv(r.env), gitscan.WithReadCounter(&c))
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		old, cur := r.side(g, from), r.side(g, to)
		c.Reset()
		if _, err := g.Changes(old, cur); err != nil {
			t.Fatal(err)
		}
		changes = c.Objects()
		g2, err := gitscan.Open(r.dir, gitscan.WithEnv(r.env), gitscan.WithReadCounter(&c))
		if err != nil {
			t.Fatal(err)
		}
		defer g2.Close()
		old, cur = r.side(g2, from), r.side(g2, to)
		c.Reset()
		res, err = Compare(context.Background(), g2, old, cur, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return changes, c.Objects(), res
	}
	// Cold: the old tree is listed once (one ls-tree, or its trees with the
	// in-process engine), then only what the change and the configs need.
	_, cold, res := run("a", "b")
	if brief(res) != "" {
		t.Fatalf("an unrelated edit reported %q", brief(res))
	}
	t.Logf("cold: %d reads", cold)
	// Warm, nothing relevant changed: the pruned comparison, nothing else.
	ch, warm, _ := run("a", "b")
	if warm != ch {
		t.Errorf("warm, an unrelated one-file change: Compare read %d objects, the pruned comparison %d", warm, ch)
	}
	if ch > 12 {
		t.Errorf("the pruned comparison of a one-file change read %d objects", ch)
	}
	// The next run starts from the new tree (as the hook's next run does).
	ch, next, _ := run("b", "c")
	if next != ch || ch != 0 {
		t.Errorf("an empty change from the last new tree read %d objects (comparison %d), want 0", next, ch)
	}
}
