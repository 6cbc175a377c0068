package project

import (
	"context"
	"slices"
	"testing"

	"github.com/mcp-guard/mcp-guard/launch"
)

// TestItemPaths: every label the launch model gives maps back to the
// directory (or file) it stands for, and a directory item keeps only the
// paths that count for it.
func TestItemPaths(t *testing.T) {
	items := []struct {
		it      launch.Item
		mode    string
		dir     string
		keep    []string
		dropped []string
	}{
		{launch.Item{Kind: launch.KindTree, Path: "tools"}, "040000", "tools", []string{"tools/README.md"}, nil},
		{launch.Item{Kind: launch.KindTree, Path: ""}, "040000", "", []string{"x"}, nil},
		{launch.Item{Kind: launch.KindTree, Path: "a b"}, modeTreeLinks, "a b", []string{"a b/c"}, nil},
		{launch.Item{Kind: launch.KindCode, Lang: "javascript", Path: ""}, "code:javascript", "", []string{"lib/a.js", "package.json"}, []string{"README.md", "package-lock.json"}},
		{launch.Item{Kind: launch.KindCode, Lang: "go", Path: "svc"}, "code:go", "svc", []string{"svc/main.go"}, []string{"svc/main_test.go", "svc/README.md"}},
		{launch.Item{Kind: launch.KindModules, Lang: "python", Path: ""}, "modules:python", "", []string{"argparse.py", "pkg/__init__.py"}, []string{"README.md", "my-dir/x.py", "pkg/data.json"}},
		{launch.Item{Kind: launch.KindText, Path: "server/package.json", Key: "scripts.start"}, "text", "server/package.json", []string{"server/package.json"}, nil},
		{launch.Item{Kind: launch.KindFile, Path: "bin/srv"}, "100755", "bin/srv", []string{"bin/srv"}, nil},
	}
	for _, c := range items {
		dir, keep := itemPaths(c.it.Label(), c.mode)
		if dir != c.dir {
			t.Errorf("%q: dir %q, want %q", c.it.Label(), dir, c.dir)
		}
		for _, p := range c.keep {
			if !keep(p) {
				t.Errorf("%q: %s left out", c.it.Label(), p)
			}
		}
		for _, p := range c.dropped {
			if keep(p) {
				t.Errorf("%q: %s kept", c.it.Label(), p)
			}
		}
	}
}

// A directory with no Python code in it cannot run when imported (an
// empty namespace package): python -m srv keeps its deep fingerprint when
// docs/ appears, and loses it when a module appears in it.
func TestModulesIgnoreCodelessDirectories(t *testing.T) {
	r := newRepo(t)
	cfg := `{"mcpServers":{"py":{"command":"python3","args":["-m","srv"]}}}`
	deep := func(rev string) string {
		g := r.open()
		c, err := LoadConfig(context.Background(), g, r.side(g, rev), ".agentty/mcp.json", Options{})
		if err != nil || c == nil || len(c.Servers) != 1 {
			t.Fatalf("LoadConfig: %v, %v", c, err)
		}
		return c.Servers[0].Deep
	}
	a := r.commit(map[string]string{".agentty/mcp.json": cfg, "srv.py": "print(1)"})
	b := r.commit(map[string]string{"docs/README.md": "docs", "docs/img/logo.svg": "<svg/>"})
	c := r.commit(map[string]string{"docs/conf.py": "import os"})
	if deep(a) != deep(b) {
		t.Error("a directory with no Python code re-gated python -m")
	}
	if deep(b) == deep(c) {
		t.Error("a module in an importable directory did not re-gate python -m")
	}
}

// TestScopeKeepsWhatIsThere: a server keeps the items of its scope the
// side holds, with its gaps; a probe with nothing there (npx's
// node_modules/.bin/<package>) is bound by its absence from Files and is
// not kept, and the deep fingerprint is what it was with every item.
func TestScopeKeepsWhatIsThere(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{
		".agentty/mcp.json": `{"mcpServers":{"x":{"command":"npx","args":["-y","pkg-x"]},"n":{"command":"sh","args":["-c","node server.js; eval \"$X\""]}}}`,
		"package.json":      `{"name":"root"}`,
		"server.js":         "1",
	})
	g := r.open()
	c, err := LoadConfig(context.Background(), g, r.side(g, "HEAD"), ".agentty/mcp.json", Options{})
	if err != nil || c == nil || len(c.Servers) != 2 {
		t.Fatalf("LoadConfig: %v, %v", c, err)
	}
	for _, s := range c.Servers {
		full, err := launch.Analyze(spawnOf(s.Server), "", nil, launch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		present := map[string]bool{}
		for _, f := range s.Files {
			present[f.Path] = true
		}
		var kept []string
		for _, it := range s.Scope.Items {
			if !present[it.Label()] {
				t.Errorf("%s keeps %q, which the side does not hold", s.Name, it.Label())
			}
			kept = append(kept, it.Label())
		}
		if len(kept) != len(s.Files) {
			t.Errorf("%s keeps %q for files %+v", s.Name, kept, s.Files)
		}
		if len(full.Items) <= len(s.Files) {
			t.Errorf("%s: the launch model named %d items, %d there: the test binds nothing absent", s.Name, len(full.Items), len(s.Files))
		}
		if s.Name == "n" && len(s.Scope.Gaps) == 0 {
			t.Errorf("n lost its gaps: %+v", s.Scope)
		}
	}
}

// TestLoadKeepsNoDependencyLists: what a load's answers depended on is
// kept for Compare only; a load for the gate keeps none (100,000 servers
// kept a few hundred thousand paths twice over), and binds the same.
func TestLoadKeepsNoDependencyLists(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{".agentty/mcp.json": `{"mcpServers":{"x":{"command":"npx","args":["-y","pkg-x"]}}}`})
	g := r.open()
	rd := newReader(g, r.side(g, "HEAD"), Options{})
	c, err := rd.loadConfig(clientsOf(".agentty/mcp.json")[0], ".agentty/mcp.json")
	if err != nil || c == nil || len(c.Servers) != 1 {
		t.Fatalf("loadConfig: %v, %v", c, err)
	}
	if len(rd.deps) != 0 || slices.Contains(c.visited, "node_modules/.bin/pkg-x") {
		t.Errorf("a load kept dependency lists: %d paths, visited %q", len(rd.deps), c.visited)
	}
	kept := newReader(g, r.side(g, "HEAD"), Options{})
	kept.keepDeps = true
	k, err := kept.loadConfig(clientsOf(".agentty/mcp.json")[0], ".agentty/mcp.json")
	if err != nil || k == nil {
		t.Fatalf("loadConfig: %v, %v", k, err)
	}
	if !kept.deps["node_modules/.bin/pkg-x"] || !slices.Contains(k.visited, "node_modules/.bin/pkg-x") {
		t.Errorf("Compare's reader lost what the answer depended on: visited %q", k.visited)
	}
	if k.Servers[0].Deep != c.Servers[0].Deep {
		t.Error("keeping the lists changed the deep fingerprint")
	}
}

// TestAbsentProbesNotCached: a path looked up alone with nothing there
// (npx's node_modules/.bin/<package>) is not kept in the resolution
// cache; what is there is; the deep fingerprint is what it was.
func TestAbsentProbesNotCached(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{".agentty/mcp.json": `{"mcpServers":{"x":{"command":"npx","args":["-y","pkg-x"]}}}`, ".npmrc": "registry=https://r.example/\n"})
	g := r.open()
	rd := newReader(g, r.side(g, "HEAD"), Options{})
	c, err := rd.loadConfig(clientsOf(".agentty/mcp.json")[0], ".agentty/mcp.json")
	if err != nil || c == nil || len(c.Servers) != 1 {
		t.Fatalf("loadConfig: %v, %v", c, err)
	}
	for key := range rd.cache {
		if key.path == "node_modules/.bin/pkg-x" {
			t.Errorf("the cache keeps the absent probe %q", key.path)
		}
	}
	if _, ok := rd.cache[resolveKey{rd.launch, ".npmrc"}]; !ok {
		t.Error("the cache lost a path that is there")
	}
	again, err := newReader(g, r.side(g, "HEAD"), Options{}).loadConfig(clientsOf(".agentty/mcp.json")[0], ".agentty/mcp.json")
	if err != nil || again.Servers[0].Deep != c.Servers[0].Deep {
		t.Errorf("deep fingerprint %q, then %q (%v)", c.Servers[0].Deep, again.Servers[0].Deep, err)
	}
}
