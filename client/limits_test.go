package client

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
	"github.com/mcp-guard/mcp-guard/trust"
)

// jsonPad is a JSON array of n values.
func jsonPad(n int) string { return "[" + strings.Repeat("0,", n-2) + "0]" }

// A repository's budget (trust.MaxRepoValues) is a repository's: the
// user's own files read past it (~/.claude.json keeps megabytes of
// project history), while a repository's settings file past it is one
// mcp-guard cannot read, so what it decides is unknown.
func TestUserFilesKeepTheirBudget(t *testing.T) {
	big := jsonPad(trust.MaxRepoValues + 1)
	t.Run("Claude Code", func(t *testing.T) {
		f := newFixture(t)
		f.write("repo/.mcp.json", `{"mcpServers":{"db":{"command":"node","args":["srv.js"]}}}`)
		f.write("home/.claude.json", `{"history":`+big+`,"projects":{"$KEY":{"hasTrustDialogAccepted":true}}}`)
		f.write("repo/.claude/settings.json", `{"enabledMcpjsonServers":["db"]}`)
		v := verdict(f.claude("repo"), "db")
		if v == nil || !v.Interactive || !strings.Contains(v.Source, ".claude/settings.json") || strings.Contains(v.Why, "unknown") {
			t.Fatalf("a large ~/.claude.json must read (trusted, approved by name): %+v", v)
		}
		f.write("repo/.claude/settings.local.json", `{"pad":`+big+`}`)
		v = verdict(f.claude("repo"), "db")
		if v == nil || !v.Interactive || !strings.Contains(v.Why, "unknown") || !v.RepoSide {
			t.Fatalf("a repository settings file past the budget is unknown: %+v", v)
		}
		ev := f.claude("repo")
		found := false
		for _, s := range ev.State.Sources {
			found = found || (s.RepoSide && errors.Is(s.Err, trust.ErrTooManyValues))
		}
		if !found {
			t.Errorf("no repository source says too many values: %+v", ev.State.Sources)
		}
	})
	t.Run("OpenCode", func(t *testing.T) {
		f := newFixture(t)
		f.write("repo/opencode.json", `{"mcp": {`+ocLocal("db", "x")+`}}`)
		f.write("home/.config/opencode/opencode.json", `{"pad":`+big+`,"mcp": {`+ocLocal("mine", "x")+`}}`)
		ce := f.evaluate(OpenCode, "repo")
		if len(ce.State.Own) != 1 || ce.State.Own[0].Name != "mine" {
			t.Fatalf("the user's large config must read: own %+v, sources %+v", ce.State.Own, ce.State.Sources)
		}
		c := parseOpenCode(`{"pad":` + big + `,"mcp": {` + ocLocal("db", "x") + `}}`)
		if !c.Unreadable() || !errors.Is(c.Err, trust.ErrTooManyValues) {
			t.Errorf("a repository's opencode.json past the budget: Err %v, want unreadable", c.Err)
		}
	})
}

// A Codex layer declares at most trust.MaxServers servers, counted on its
// JSON form after the TOML budget; past it the message says how many.
func TestCodexServersPerFile(t *testing.T) {
	if c := parseCodex(tomlServers(trust.MaxServers)); c.Err != nil || len(c.Servers) != trust.MaxServers {
		t.Fatalf("at the limit: Err %v, %d servers", c.Err, len(c.Servers))
	}
	c := parseCodex(tomlServers(trust.MaxServers + 1))
	if !c.Unreadable() || !errors.Is(c.Err, trust.ErrTooManyServers) || !strings.Contains(c.Err.Error(), "declares 1,001 servers") {
		t.Fatalf("one over: Err %v, want unreadable, too many servers", c.Err)
	}
	over := parseCodex("[x]\npad = [" + strings.Repeat("0,", trust.MaxRepoValues) + "0]\n")
	if !over.Unreadable() || !strings.Contains(over.Err.Error(), "too many TOML values: more than 200,000 by line 2") {
		t.Errorf("TOML past the budget: Err %v", over.Err)
	}
}

// A skill's frontmatter is decoded as YAML only up to trust.MaxRepoYAML
// bytes: yaml.v3 holds about a hundred bytes a node, with no streaming
// count to bound it by.
func TestSkillFrontmatterBudget(t *testing.T) {
	const body = "hooks:\n  Stop:\n    - hooks:\n        - {type: command, command: ./h.sh}\n"
	skill := func(size int) []byte {
		pad := "# " + strings.Repeat("x", size) + "\n"
		front, _, _ := frontmatter([]byte("---\n" + body + pad + "---\n"))
		pad = "# " + strings.Repeat("x", size-(len(front)-size)) + "\n"
		data := []byte("---\n" + body + pad + "---\nbody\n")
		if front, _, _ := frontmatter(data); len(front) != size {
			t.Fatalf("frontmatter of %d bytes, want %d", len(front), size)
		}
		return data
	}
	c := claudeClient{}.Parse("/r/.claude/skills/x/SKILL.md", skill(trust.MaxRepoYAML))
	if c.Err != nil || len(c.Servers) != 1 {
		t.Fatalf("at the limit: Err %v, %d entries", c.Err, len(c.Servers))
	}
	c = claudeClient{}.Parse("/r/.claude/skills/x/SKILL.md", skill(trust.MaxRepoYAML+1))
	if !c.Unreadable() || len(c.Servers) != 0 || !strings.Contains(c.Err.Error(), "the frontmatter is 262145 bytes of YAML") {
		t.Fatalf("one byte over: Err %v, %d entries; want unreadable", c.Err, len(c.Servers))
	}
}

// Entries a client builds outside a server table (a settings file's
// hooks) count toward the same per-file limit, through ParseFile, the one
// parse every reader of a repository file goes through.
func TestEntriesPerFile(t *testing.T) {
	settings := hostile.ManyHooks
	const p = "/r/.claude/settings.json"
	if c := ParseFile(claudeClient{}, p, settings(trust.MaxServers)); c.Err != nil || len(c.Servers) != trust.MaxServers {
		t.Fatalf("at the limit: Err %v, %d entries", c.Err, len(c.Servers))
	}
	c := ParseFile(claudeClient{}, p, settings(trust.MaxServers+1))
	if !c.Unreadable() || !errors.Is(c.Err, trust.ErrTooManyServers) || len(c.Servers) != 0 || c.Dialect != trust.ClaudeCode {
		t.Fatalf("one over: Err %v, %d entries; want unreadable", c.Err, len(c.Servers))
	}
	if want := "the file declares 1,001 commands to run (servers, hooks, tasks), and mcp-guard reviews at most 1,000 in one repository file"; !strings.Contains(c.Err.Error(), want) || len(c.Findings) != 1 || c.Findings[0].Rule != "MG310" {
		t.Errorf("Err %v, findings %+v", c.Err, c.Findings)
	}
	// The gate reads the launch directory's files through it too.
	f := newFixture(t)
	f.write("repo/.claude/settings.json", string(settings(trust.MaxServers+1)))
	f.write("home/.claude.json", trusted)
	ce := f.claude("repo")
	if len(ce.Files) == 0 || !ce.Files[0].Unreadable() {
		t.Errorf("the gate's reading: %+v", ce.Files)
	}
}
