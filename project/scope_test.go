package project

import (
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
