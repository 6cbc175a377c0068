package gitscan

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/surface"
)

func TestKindOf(t *testing.T) {
	for path, want := range map[string]surface.Kind{
		".agentty/mcp.json":                 client.KindMCPConfig,
		"a/b/.agentty/mcp.json":             client.KindMCPConfig,
		"x/.AGENTTY/MCP.JSON":               client.KindMCPConfig,
		".agentty/hooks.json":               client.KindHooks,
		"p/.agentty/acp-agents.json":        client.KindACPAgents,
		".agentty/agents/r.md":              client.KindPersona,
		"a/.agents/agents/r.md":             client.KindPersona,
		".claude/agents/x.MD":               client.KindPersona,
		".claude/agents/.md":                client.KindPersona,
		".agentty/mcp.json.bak":             0,
		".agentty/sub/mcp.json":             0,
		"agentty/mcp.json":                  0,
		".claude/agents/sub/x.md":           client.KindClaudeAgentNested, // Claude Code reads .claude/agents recursively
		".claude/agents/a/b/c/x.md":         client.KindClaudeAgentNested,
		".claude/agents/a/b/c/d/x.md":       client.KindClaudeAgentNested, // at any depth
		"p/.claude/agents/a/b/c/d/e/f/x.md": client.KindClaudeAgentNested,
		".claude/agents/a/b/c/d/x.txt":      0,
		".claude/settings.json":             client.KindClaudeSettings,
		"a/.Claude/Settings.Local.JSON":     client.KindClaudeSettings,
		".claude/settings.json.bak":         0,
		".claude/sub/settings.json":         0,
		"settings.json":                     0,
		".mcp.json":                         client.KindClaudeMCP,
		"a/b/.MCP.json":                     client.KindClaudeMCP,
		"mcp.jsonx":                         0,
		"a.mcp.json":                        0,
		".github/workflows/ci.yml":          surface.KindCIWorkflow,
		".GitHub/Workflows/Release.YAML":    surface.KindCIWorkflow,
		".github/workflows/sub/ci.yml":      0,
		"sub/.github/workflows/ci.yml":      0,
		".github/workflows/ci.yml.txt":      0,
		".github/ci.yml":                    0,
		".gitlab-ci.yml":                    surface.KindCIWorkflow,
		".gemini/settings.json":             client.KindGeminiSettings,
		"a/b/.GEMINI/Settings.json":         client.KindGeminiSettings,
		".gemini/settings.json.bak":         0,
		".gemini/x/settings.json":           0,
		".codex/config.toml":                client.KindCodexConfig,
		"p/.Codex/CONFIG.TOML":              client.KindCodexConfig,
		".codex/config.json":                0,
		".cursor/mcp.json":                  client.KindCursorMCP,
		"w/.cursor/MCP.json":                client.KindCursorMCP,
		".vscode/mcp.json":                  client.KindVSCodeMCP,
		".vscode/settings.json":             client.KindVSCodeSettings,
		"x/y/.VSCode/tasks.JSON":            client.KindVSCodeTasks,
		".vscode/launch.json":               0,
		"vscode/tasks.json":                 0,
		".vscode/sub/tasks.json":            0,
		"sub/.gitlab-ci.yml":                0,
		"mcp.json":                          0,
		".agentty":                          0,
		".claude/agents":                    0,
		"a.agentty/mcp.json":                0,
		".agents/agents/readme.txt":         0,
		"x/.claude/agents/y.md/z":           0,
		".agentty/agents/deep/dir.md":       0,
		".cline/plugins/p.js":               client.KindClinePlugin,
		"a/.cline/plugins/pkg/lib/x.js":     client.KindClinePlugin, // anything below: a plugin runs it
		".cline/plugins":                    0,
	} {
		k, ok := surface.Of(path)
		if ok != (want != 0) || k != want {
			t.Errorf("surface.Of(%q) = %v %v, want %v", path, k, ok, want)
		}
	}
	for path, want := range map[string]bool{".agentty": true, "a/.Claude": true, ".agents/agents": true, ".claude/agents": true, "agents": false, "x/agents": false, ".agentty/mcp.json": false} {
		if got := surface.LinkedDir(path); got != want {
			t.Errorf("surface.LinkedDir(%q) = %v", path, got)
		}
	}
}

// TestPathspecMatchAgreesWithGit asks git which index paths each glob
// pathspec selects and compares with pathspecMatch.
func TestPathspecMatchAgreesWithGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	paths := []string{
		".agentty/mcp.json", "a/.agentty/mcp.json", "a/b/c/.agentty/mcp.json", "A/.AGENTTY/MCP.json",
		".claude/agents/x.md", "d/.claude/agents/y.md", "d/.claude/agents/sub/z.md", ".claude/agentsx/q.md",
		".mcp.json", "a/.MCP.json", ".claude/settings.local.json", ".github/workflows/ci.yml", ".github/workflows/a/b.yml", "x/.github/workflows/c.yml",
		".gemini/settings.json", "a/.Gemini/settings.json", ".codex/config.toml", "b/.cursor/mcp.json", ".vscode/mcp.json", "c/.vscode/tasks.json", ".vscode/settings.json", "e/.vscode", "d/.cursor",
		"src/a.js", "src/b/c.js", "src/b/d/e.js", "srcx/a.js", "README.md", "docs/readme.MD", "lib/[x].js",
		"a/b/c/d", "a/x/c/d", "ab/c", "foo.txt", "foo/bar.txt", "x/foo.txt", "q?r", "tab\there",
	}
	var idx strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&idx, "100644 %s\t%s\n", strings.Repeat("e", 40), p)
	}
	run(t, env, dir, []byte(idx.String()), "update-index", "--add", "--index-info")
	patterns := []string{
		"**/.agentty/mcp.json", "**/.claude/agents/*.md", "src/*.js", "src/**", "src/**/*.js", "src/**/e.js",
		"**/*.md", "*.md", "src", "a/*/c/d", "a/**/d", "a/b", "foo*", "**/foo*", "*/foo.txt", "lib/[x].js",
		"lib/\\[x].js", "q[?]r", "[a-c]*/*", "[!a]*.txt", "**", "*", "a/**", "**/c", "d/.claude/agents/[[:alpha:]].md",
		"src/?.js", "**/**/c.js", "a/b/**/d",
	}
	patterns = append(patterns, surface.Patterns(true)...)
	for _, icase := range []bool{false, true} {
		for _, pat := range patterns {
			magic := ":(glob)"
			if icase {
				magic = ":(glob,icase)"
			}
			out := run(t, env, dir, nil, "ls-files", "-z", "--", magic+pat)
			want := splitZ([]byte(out))
			sort.Strings(want)
			var got []string
			for _, p := range paths {
				if pathspecMatch(pat, p, icase) {
					got = append(got, p)
				}
			}
			sort.Strings(got)
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("pattern %q icase=%v:\n%s", pat, icase, diffLines(want, got))
			}
		}
	}
}

// TestSurfaceOfAgreesWithGit holds the surface registry's own matcher
// (surface.Of, on every hook's path) to git's `:(glob,icase)` reading of
// the registered patterns, which History hands git.
func TestSurfaceOfAgreesWithGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	paths := []string{
		".agentty/mcp.json", "a/.agentty/mcp.json", "A/.AGENTTY/MCP.json", ".agentty/hooks.JSON", "x/.agentty/acp-agents.json",
		".claude/agents/x.md", "d/.claude/agents/y.MD", "d/.claude/agents/sub/z.md", ".claude/agentsx/q.md", ".agents/agents/.md",
		".claude/agents/a/b/c/d/e/z.md", "q/.Claude/Agents/a/b/c/d/z.MD", ".claude/agents/a/b/c/d/z.txt", "x.claude/agents/a/b/z.md",
		".mcp.json", "a/.MCP.json", "a.mcp.json", ".claude/settings.local.json", "q/.Claude/Settings.json", ".claude/settings.jsonx",
		".github/workflows/ci.yml", ".github/workflows/a/b.yml", "x/.github/workflows/c.yml", ".GitHub/Workflows/R.YAML", ".gitlab-ci.yml", "a/.gitlab-ci.yml",
		".gemini/settings.json", "a/.Gemini/settings.json", ".codex/config.toml", "b/.cursor/mcp.json", ".vscode/mcp.json", "c/.vscode/tasks.json",
		".vscode/settings.json", "e/.vscode/x", "src/a.js", "README.md", "mcp.json", "agents/x.md",
	}
	var idx strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&idx, "100644 %s\t%s\n", strings.Repeat("e", 40), p)
	}
	run(t, env, dir, []byte(idx.String()), "update-index", "--add", "--index-info")
	args := []string{"ls-files", "-z", "--"}
	for _, p := range surface.Patterns(true) {
		args = append(args, ":(glob,icase)"+p)
	}
	want := splitZ([]byte(run(t, env, dir, nil, args...)))
	sort.Strings(want)
	var got []string
	for _, p := range paths {
		if _, ok := surface.Of(p); ok {
			got = append(got, p)
		}
	}
	sort.Strings(got)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("surface.Of against git:\n%s", diffLines(want, got))
	}
}

func FuzzWildmatch(f *testing.F) {
	f.Add("**/.agentty/*.json", "a/.agentty/mcp.json", false)
	f.Add("[[:alpha:]-z]*", "q", true)
	f.Fuzz(func(t *testing.T, pat, text string, icase bool) {
		if len(pat) > 64 || len(text) > 64 {
			return // keep the backtracking bounded
		}
		wildmatch(pat, text, icase)
		pathspecMatch(pat, text, icase)
	})
}
