package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeFixture: `mcp-guard -C testdata/repos/claude status` explains
// the fixture: both servers, in Claude Code's words, the committed
// self-approval as a critical finding; once the folder is trusted, that
// approval makes db and docs run without asking.
func TestClaudeFixture(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/repos/claude")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	environ := []string{"HOME=" + home, "NO_COLOR=1", "PATH=" + os.Getenv("PATH")}
	status := func(args ...string) (int, string) {
		var o, e bytes.Buffer
		code := run(context.Background(), append([]string{"mcp-guard", "-C", dir, "status"}, args...), strings.NewReader(""), &o, &e, environ)
		return code, o.String() + e.String()
	}
	code, out := status()
	for _, want := range []string{
		"Claude Code (1 config file: ",
		"db               node scripts/db-server.js  testdata/repos/claude/.mcp.json",
		"the folder is not trusted",
		"high MG701 testdata/repos/claude/.claude/settings.json:2:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if code != exitAttention {
		t.Errorf("exit %d, want %d", code, exitAttention)
	}

	// Trust the folder (Claude Code keys it by the git root: this repository).
	top, err := filepath.EvalSymlinks(filepath.Join(dir, "../../.."))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(map[string]any{"projects": map[string]any{top: map[string]any{"hasTrustDialogAccepted": true}}})
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, out = status("--json")
	type server struct {
		Name, Client, Path, Source string
		Trusted                    bool
		RepoSide                   bool `json:"repo_side"`
		Headless                   *bool
	}
	var doc struct {
		Agents []struct {
			Client  string
			Servers []server
		}
		Servers []server
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	// Each agent's servers are in its entry (status version 2).
	for _, a := range doc.Agents {
		for _, s := range a.Servers {
			if s.Client != a.Client {
				t.Errorf("%s's entry holds a server of %s: %+v", a.Client, s.Client, s)
			}
		}
		doc.Servers = append(doc.Servers, a.Servers...)
	}
	// Copilot CLI and Qwen Code read .mcp.json too; with an empty home
	// (no trusted folder, no approval) they run none.
	var claude []int
	for i, s := range doc.Servers {
		if (s.Client == "copilot-cli" || s.Client == "qwen-code") && s.Trusted {
			t.Errorf("%s runs a server of the fixture with an empty home: %+v", s.Client, s)
		}
		if s.Client != "copilot-cli" && s.Client != "qwen-code" {
			claude = append(claude, i)
		}
	}
	if len(claude) != 2 || len(doc.Servers) != 6 {
		t.Fatalf("servers %+v", doc.Servers)
	}
	for _, i := range claude {
		s := doc.Servers[i]
		if s.Client != "claude-code" || s.Path != "testdata/repos/claude/.mcp.json" || !s.Trusted || s.Headless == nil || !*s.Headless ||
			s.Source != "testdata/repos/claude/.claude/settings.json" || !s.RepoSide {
			t.Errorf("%+v", s)
		}
	}
}
