package surface

import "testing"

func TestCompileRefusesWhatItCannotMatchLikeGit(t *testing.T) {
	for _, p := range []string{"", "/a", "a/", "a//b", "**/", "a/../b", "a/?b", "a/[ab]", "a/b*c", "**/**/a", "a/**/**/b", "a/**/b/**/c", "a/**x/b", "*x*", `a\b`, "/**", "**/**", "a/**/**"} {
		if _, err := compile(p); err == nil {
			t.Errorf("compile(%q) accepted", p)
		}
	}
}

func TestIndexMatchesLikeTheDeclaredPatterns(t *testing.T) {
	var x index
	for i, p := range []string{"**/.agentty/mcp.json", "**/.mcp.json", ".github/workflows/*.yml", "**/.claude/agents/*.md", "**/.vscode", "**/.claude/agents/*/**/*.md", "docs/**/x", "**/.cline/plugins/**"} {
		c, err := compile(p)
		if err != nil {
			t.Fatal(err)
		}
		c.kind = Kind(i + 2)
		x.add(c)
	}
	for path, want := range map[string]int{
		".agentty/mcp.json": 0, "a/B/.AGENTTY/MCP.JSON": 0, "agentty/mcp.json": -1, ".agentty/mcp.jsonx": -1,
		".mcp.json": 1, "x/.Mcp.json": 1, "a.mcp.json": -1,
		".github/workflows/ci.yml": 2, ".github/workflows/.yml": 2, "x/.github/workflows/ci.yml": -1, ".github/workflows/a/ci.yml": -1,
		".claude/agents/r.md": 3, "a/.claude/agents/R.MD": 3, ".claude/agents/r.mdx": -1, "agents/r.md": -1,
		".vscode": 4, "a/.VSCode": 4, ".vscode/x": -1, "": -1, "/": -1,
		// `**` between two segments: none or any number of names (git's `/**/`).
		".claude/agents/a/r.md": 5, "p/.claude/agents/a/b/c/d/e/r.md": 5, ".claude/agents/a/b/r.txt": -1,
		".claude/agents/a/b/.claude/agents/r.md": 3, "x.claude/agents/a/r.md": -1, ".claude/agents/a": -1,
		"docs/x": 6, "docs/a/b/x": 6, "a/docs/x": -1, "docs/a/xx": -1, "docsx": -1,
		".cline/plugins/a.js": 7, "x/.Cline/Plugins/pkg/index.js": 7, ".cline/plugins/pkg/lib/deep/x.ts": 7,
		".cline/plugins": -1, ".cline/pluginsx/a.js": -1, "cline/plugins/a.js": -1, ".cline/a.js": -1,
	} {
		if got := x.find(path); got != want {
			t.Errorf("find(%q) = %d, want %d", path, got, want)
		}
	}
}

func TestSpecNames(t *testing.T) {
	s := Spec{Patterns: []string{"**/.claude/settings.json"}}
	if s.File() != ".claude/settings.json" || s.Dir() != ".claude" || s.Base() != "settings.json" {
		t.Errorf("%q %q %q", s.File(), s.Dir(), s.Base())
	}
	s = Spec{Patterns: []string{"**/.mcp.json"}}
	if s.File() != ".mcp.json" || s.Dir() != "" || s.Base() != ".mcp.json" {
		t.Errorf("%q %q %q", s.File(), s.Dir(), s.Base())
	}
}

func FuzzOf(f *testing.F) {
	f.Add("a/.agentty/mcp.json")
	f.Add("//")
	f.Fuzz(func(t *testing.T, p string) {
		Of(p)
		LinkedDir(p)
	})
}

// A kind another client reads too names both as readers, the declaring
// one first; a second declaration and a CI kind are refused.
func TestAlsoRead(t *testing.T) {
	k := Register(Spec{Name: "test-also-cfg", Client: "test-a", Role: Config, Patterns: []string{"**/.test-also.json"}})
	ci := Register(Spec{Name: "test-also-ci", Role: CI, Patterns: []string{".test-also-ci/*.yml"}})
	before := Digest()
	if got := AlsoRead("test-b", k); got != k {
		t.Errorf("AlsoRead = %v", got)
	}
	if got := k.Readers(); len(got) != 2 || got[0] != "test-a" || got[1] != "test-b" {
		t.Errorf("Readers = %v", got)
	}
	if got := Shared("test-b"); len(got) != 1 || got[0] != k {
		t.Errorf("Shared = %v", got)
	}
	if Digest() == before {
		t.Error("the digest ignores a shared reading")
	}
	for _, f := range []func(){func() { AlsoRead("test-b", k) }, func() { AlsoRead("test-a", k) }, func() { AlsoRead("test-b", ci) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

// A kind declared over another client's files (Spec.Same) is the same
// path read twice: Of answers the first kind, OfAll both; a pattern the
// other kind does not declare, a kind of the same client and a second
// overlay are refused.
func TestSame(t *testing.T) {
	p := Register(Spec{Name: "test-same-persona", Client: "test-a", Role: Sibling, Patterns: []string{"**/.test-a/agents/*.md", "**/.test-b/agents/*.md"}})
	before := Digest()
	s := Register(Spec{Name: "test-same-agent", Client: "test-b", Role: Sibling, Entries: true, Patterns: []string{"**/.test-b/agents/*.md"}, Same: p})
	if Digest() == before {
		t.Error("the digest ignores a kind over another's files")
	}
	for path, want := range map[string][]Kind{
		"x/.Test-B/agents/r.md": {p, s},
		".test-a/agents/r.md":   {p},
		".test-b/agents/r.txt":  nil,
	} {
		got := OfAll(path)
		if len(got) != len(want) || (len(want) > 0 && (got[0] != want[0] || got[len(got)-1] != want[len(want)-1])) {
			t.Errorf("OfAll(%q) = %v, want %v", path, got, want)
		}
		if k, _ := Of(path); len(want) > 0 && k != p {
			t.Errorf("Of(%q) = %v, want the first kind", path, k)
		}
	}
	for _, sp := range []Spec{
		{Name: "test-same-x1", Client: "test-b", Role: Sibling, Patterns: []string{"**/.test-c/agents/*.md"}, Same: p},
		{Name: "test-same-x2", Client: "test-a", Role: Sibling, Patterns: []string{"**/.test-a/agents/*.md"}, Same: p},
		{Name: "test-same-x3", Client: "test-c", Role: Sibling, Patterns: []string{"**/.test-b/agents/*.md"}, Same: s},
		{Name: "test-same-x4", Client: "test-c", Role: Sibling, Patterns: []string{"**/.test-b/agents/*.md"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", sp.Name)
				}
			}()
			Register(sp)
		}()
	}
}
