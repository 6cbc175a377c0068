package gitscan

import (
	"testing"

	_ "github.com/mcp-guard/mcp-guard/client" // the surface registry
)

// benchPaths are the paths a tree walk classifies: mostly ordinary files,
// a few surfaces and surface directories.
var benchPaths = []string{
	"src/main.go", "src/lib/util.js", "README.md", "docs/guide/intro.md", "node_modules/a/b/c/index.js",
	"pkg/server/handler_test.go", "a/b/c/d/e/f/g.txt", ".github/workflows/ci.yml", ".agentty/mcp.json",
	".mcp.json", "x/.claude/settings.json", "tools/.vscode", "Makefile", "go.mod", "web/app/components/Button.tsx",
	"vendor/github.com/x/y/z.go",
}

func BenchmarkIsSurfaceEntry(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, p := range benchPaths {
			isSurfaceEntry(p, ModeRegular)
		}
	}
}
