package client

import (
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// TestClaudeHandoff holds the settings handoff: the repository's settings
// joined as Claude Code joins its sources, and of what they run only the
// reviewed entries.
func TestClaudeHandoff(t *testing.T) {
	const local, shared = "/r/.claude/settings.local.json", "/r/.claude/settings.json"
	for _, tc := range []struct {
		name     string
		files    map[string]string
		reviewed []string // "path name"
		want     string   // the settings object; "" no handoff
		left     []string
		err      string
	}{
		{name: "no settings file", files: nil, want: ""},
		{name: "unreadable file is no source", files: map[string]string{shared: `{"hooks":`}, want: ""},
		{
			name: "unreviewed hook left out, reviewed kept with its matcher",
			files: map[string]string{shared: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"ok.sh","timeout":5},{"type":"command","command":"evil.sh"}]}],
				"Stop":[{"hooks":[{"type":"command","command":"evil2.sh"},{"type":"prompt","prompt":"x"}]}]},"permissions":{"allow":["Read"]}}`},
			reviewed: []string{shared + " hooks.PreToolUse[0].hooks[0]"},
			want:     `{"hooks":{"PreToolUse":[{"hooks":[{"command":"ok.sh","timeout":5,"type":"command"}],"matcher":"Bash"}]},"permissions":{"allow":["Read"]}}`,
			left:     []string{"hooks.PreToolUse[0].hooks[1]", "hooks.Stop[0].hooks[0]"},
		},
		{
			name: "two files: hooks joined, arrays joined, scalars from the local file, helper by the first file",
			files: map[string]string{
				local:  `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"a.sh"}]}]},"apiKeyHelper":"evil.sh","model":"x","permissions":{"deny":["Bash(rm:*)"]},"env":{"A":"1"}}`,
				shared: `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"b.sh"}]}]},"apiKeyHelper":"ok.sh","model":"y","permissions":{"deny":["Read(.env)","Bash(rm:*)"]},"env":{"A":"2","B":"3"}}`,
			},
			reviewed: []string{local + " hooks.SessionStart[0].hooks[0]", shared + " hooks.SessionStart[0].hooks[0]", shared + " apiKeyHelper", local + " env", shared + " env"},
			want:     `{"env":{"A":"1","B":"3"},"hooks":{"SessionStart":[{"hooks":[{"command":"a.sh","type":"command"}]},{"hooks":[{"command":"b.sh","type":"command"}]}]},"model":"x","permissions":{"deny":["Bash(rm:*)","Read(.env)"]}}`,
			left:     []string{"apiKeyHelper"},
		},
		{
			name: "an env not reviewed is left out, whatever else is",
			files: map[string]string{
				local:  `{"env":{"A":"1"}}`,
				shared: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"ok.sh"}]}]},"env":{"NODE_OPTIONS":"--require ./x.js","A":"2"}}`,
			},
			reviewed: []string{local + " env", shared + " hooks.Stop[0].hooks[0]"},
			want:     `{"env":{"A":"1"},"hooks":{"Stop":[{"hooks":[{"command":"ok.sh","type":"command"}]}]}}`,
			left:     []string{"env"},
		},
		{
			name: "settings Claude Code takes from --settings but not from a repository's file are not handed over; unreviewed helpers of its own list are left out",
			files: map[string]string{shared: `{"processWrapper":"./w.sh","autoMemoryDirectory":"/tmp/m","footerLinksRegexes":[],"model":"x",` +
				`"gcpAuthRefresh":"g.sh","proxyAuthHelper":"p.sh","subagentStatusLine":{"type":"command","command":"s.sh"},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"ok.sh"}]}]}}`},
			reviewed: []string{shared + " hooks.Stop[0].hooks[0]"},
			want:     `{"hooks":{"Stop":[{"hooks":[{"command":"ok.sh","type":"command"}]}]},"model":"x"}`,
			left:     []string{"gcpAuthRefresh", "proxyAuthHelper", "subagentStatusLine"},
		},
		{
			name:     "reviewed statusLine and plugin of a marketplace in the repository",
			files:    map[string]string{shared: `{"statusLine":{"type":"command","command":"s.sh"},"extraKnownMarketplaces":{"m":{"source":{"source":"directory","path":"./m"}},"o":{"source":{"source":"directory","path":"./o"}}},"enabledPlugins":{"p@m":true,"q@o":true}}`},
			reviewed: []string{shared + " statusLine", shared + " plugins.p@m"},
			want:     `{"enabledPlugins":{"p@m":true},"extraKnownMarketplaces":{"m":{"source":{"path":"./m","source":"directory"}}},"statusLine":{"command":"s.sh","type":"command"}}`,
			left:     []string{"plugins.q@o"},
		},
		{
			name:     "every entry reviewed: nothing to keep out, no handoff",
			files:    map[string]string{shared: `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"ok.sh"}]}]}}`},
			reviewed: []string{shared + " hooks.Stop[0].hooks[0]"},
			want:     "",
		},
		{
			name:     "reviewed remote plugin cannot be handed over",
			files:    map[string]string{shared: `{"extraKnownMarketplaces":{"t":{"source":{"source":"github","repo":"x/y"}}},"enabledPlugins":{"spy@t":true},"apiKeyHelper":"declined.sh"}`},
			reviewed: []string{shared + " plugins.spy@t"},
			err:      `the plugin "spy@t" comes from the marketplace`,
		},
		{
			name:     "reviewed remote plugin, nothing to keep out: no handoff",
			files:    map[string]string{shared: `{"extraKnownMarketplaces":{"t":{"source":{"source":"github","repo":"x/y"}}},"enabledPlugins":{"spy@t":true}}`},
			reviewed: []string{shared + " plugins.spy@t"},
			want:     "",
		},
		{
			name:  "unreviewed remote plugin is left out",
			files: map[string]string{shared: `{"extraKnownMarketplaces":{"t":{"source":{"source":"github","repo":"x/y"}}},"enabledPlugins":{"spy@t":true}}`},
			want:  `{}`,
			left:  []string{"plugins.spy@t"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var files []HandoffFile
			for _, p := range []string{local, shared, "/r/.mcp.json"} {
				if d, ok := tc.files[p]; ok {
					files = append(files, HandoffFile{Path: p, Data: []byte(d)})
				}
			}
			h, err := HandoffEntries(ClaudeCode, files, func(config string, s *trust.Server) bool {
				for _, r := range tc.reviewed {
					if r == config+" "+s.Name {
						return true
					}
				}
				return false
			})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if h != nil {
					t.Fatalf("a handoff %s, want none", h.Data)
				}
				return
			}
			if got := strings.TrimSpace(string(h.Data)); got != tc.want {
				t.Errorf("settings\n got %s\nwant %s", got, tc.want)
			}
			if strings.Join(h.Left, " ") != strings.Join(tc.left, " ") {
				t.Errorf("left %q, want %q", h.Left, tc.left)
			}
		})
	}
}

func TestClaudeHandsEntry(t *testing.T) {
	hook, _ := trust.CommandEntry("/r/.claude/settings.json", trust.ClaudeCode, EntryHook, "hooks.X[0]", "", "/bin/sh", "x", trust.Pos{}, nil)
	helper, _ := trust.CommandEntry("/r/.mcp.json", trust.ClaudeCode, EntryHeadersHelper, "api.headersHelper", "api", "/bin/sh", "x", trust.Pos{}, nil)
	for _, tc := range []struct {
		id     ID
		config string
		s      *trust.Server
		want   bool
	}{
		{ClaudeCode, "/r/.claude/settings.json", hook, true},
		{ClaudeCode, ".claude/settings.local.json", hook, true},
		{ClaudeCode, "/r/.claude/skills/x/SKILL.md", hook, false}, // not a settings file: launch cannot keep it out
		{ClaudeCode, "/r/.mcp.json", helper, false},               // travels with its server
		{Gemini, "/r/.gemini/settings.json", hook, false},
	} {
		if got := HandsEntry(tc.id, tc.config, tc.s); got != tc.want {
			t.Errorf("HandsEntry(%s, %s, %s) = %v, want %v", tc.id, tc.config, tc.s.Name, got, tc.want)
		}
	}
}

func TestClaudeSettingsFlag(t *testing.T) {
	for args, want := range map[string]bool{
		"-p hi":                           false,
		"--setting-sources user -p hi":    true,
		"-p hi --setting-sources=project": true,
		"-- --setting-sources":            true,
		"--settings x.json":               false,
	} {
		if got := ClaudeSettingsFlag(strings.Fields(args)); got != want {
			t.Errorf("ClaudeSettingsFlag(%s) = %v, want %v", args, got, want)
		}
	}
}

// TestClaudeVettedNote: the launch line names the reviewed plugins the
// vetted argv leaves running (their hooks) and says their MCP servers do
// not start; no plugin, no note.
func TestClaudeVettedNote(t *testing.T) {
	c := claudeClient{}.Parse(".claude/settings.json", []byte(`{"enabledPlugins": {"b@m": true, "a@m": true},
		"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`))
	if got, want := VettedNote(claudeClient{}, c.Servers), "the reviewed plugins a@m, b@m run their hooks and commands, not their MCP servers (--strict-mcp-config keeps them out)"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	if got := VettedNote(claudeClient{}, c.Servers[:1]); c.Servers[0].Kind != EntryHook || got != "" {
		t.Errorf("hooks only: note %q", got)
	}
	if got := VettedNote(Lookup(Codex), c.Servers); got != "" {
		t.Errorf("a client without the note: %q", got)
	}
}
