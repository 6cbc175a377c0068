package trust

import (
	"strings"
	"testing"
)

// oneServer parses a project config holding one entry named "s".
func oneServer(t *testing.T, entry string) *Server {
	t.Helper()
	c := Parse(".agentty/mcp.json", []byte(`{"mcpServers":{"s":`+entry+`}}`), ScopeProject)
	if !c.Valid() || len(c.Servers) != 1 {
		t.Fatalf("entry %s: invalid config: %v", entry, c.Err)
	}
	return c.Servers[0]
}

func TestLaunchDir(t *testing.T) {
	for in, want := range map[string]string{
		".agentty/mcp.json":     "",
		"sub/.agentty/mcp.json": "sub",
		"a/b/.agentty/mcp.json": "a/b",
	} {
		if got := LaunchDir(in); got != want {
			t.Errorf("LaunchDir(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConfigLaunchDir: Claude Code's configs launch from the directory
// holding `.mcp.json`, or `.claude` for its settings and skills.
func TestConfigLaunchDir(t *testing.T) {
	for in, want := range map[string]string{
		"a/.mcp.json":                     "a",
		".mcp.json":                       "",
		"a/.claude/settings.json":         "a",
		".claude/skills/fmt/SKILL.md":     "",
		"a/b/.Claude/Skills/fmt/skill.md": "a/b",
		"a/.claude/agents/helper.md":      "a",
		".claude/agents/helper.md":        "",
		"docs/skills/fmt/SKILL.md":        "docs/skills/fmt",
		"a/.codex/hooks.json":             "a",
	} {
		client := ClientClaudeCode
		if strings.Contains(in, ".codex") {
			client = "codex"
		}
		if got := ConfigLaunchDir(client, in); got != want {
			t.Errorf("ConfigLaunchDir(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDeepFingerprint(t *testing.T) {
	base := oneServer(t, `{"command":"node","args":["server.js"]}`)
	files := []FileID{{Path: "server.js", Object: Object{Mode: "100644", ID: "aaaa"}}}
	fp := DeepFingerprint(base, files)
	if len(fp) != 64 || strings.ToLower(fp) != fp {
		t.Fatalf("deep fingerprint %q: want 64 lower-case hex digits", fp)
	}
	// Stable, and independent of the order files are given in.
	two := append([]FileID{{Path: "a.js", Object: Object{Mode: "100644", ID: "bbbb"}}}, files...)
	rev := []FileID{two[1], two[0]}
	if DeepFingerprint(base, two) != DeepFingerprint(base, rev) {
		t.Error("deep fingerprint depends on the order of files")
	}
	// Everything that changes what runs changes it, including what
	// agentty's own fingerprint ignores.
	variants := map[string]struct {
		entry string
		files []FileID
	}{
		"env":               {`{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"--require x"}}`, files},
		"non-string arg":    {`{"command":"node","args":["server.js",1]}`, files},
		"string vs number":  {`{"command":"node","args":["server.js","1"]}`, files},
		"trustAnnotations":  {`{"command":"node","args":["server.js"],"trustAnnotations":true}`, files},
		"NUL split":         {`{"command":"node","args":["server.js\u0000--x"]}`, files},
		"file content":      {`{"command":"node","args":["server.js"]}`, []FileID{{Path: "server.js", Object: Object{Mode: "100644", ID: "cccc"}}}},
		"file mode":         {`{"command":"node","args":["server.js"]}`, []FileID{{Path: "server.js", Object: Object{Mode: "100755", ID: "aaaa"}}}},
		"file gone":         {`{"command":"node","args":["server.js"]}`, nil},
		"path/id boundary":  {`{"command":"node","args":["server.js"]}`, []FileID{{Path: "server.js1", Object: Object{Mode: "00644", ID: "aaaa"}}}},
		"disabled":          {`{"command":"node","args":["server.js"],"disabled":false}`, files},
		"unknown key":       {`{"command":"node","args":["server.js"],"timeoutMs":5}`, files},
		"type":              {`{"command":"node","args":["server.js"],"type":"stdio"}`, files},
		"args order":        {`{"args":["server.js"],"command":"node","x":1}`, files},
		"different command": {`{"command":"nodejs","args":["server.js"]}`, files},
	}
	seen := map[string]string{fp: "base"}
	for name, v := range variants {
		got := DeepFingerprint(oneServer(t, v.entry), v.files)
		if prev, dup := seen[got]; dup {
			t.Errorf("%s: same deep fingerprint as %s", name, prev)
		}
		seen[got] = name
	}
	// Key order, white space and duplicates that agentty resolves the same
	// way do not change it.
	same := oneServer(t, `{ "args" : ["server.js"], "command":"x", "command" : "node" }`)
	if got := DeepFingerprint(same, files); got != fp {
		t.Errorf("equivalent entry: deep fingerprint %s, want %s", got, fp)
	}
}
