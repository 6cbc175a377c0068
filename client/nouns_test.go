package client

import "testing"

// TestEntryNoun is each client's word for each entry kind it reads, as the
// hook's heading says what a clone brings: a kind without a word of its
// own would be named "commands".
func TestEntryNoun(t *testing.T) {
	for _, tc := range []struct {
		id         ID
		kind, want string
	}{
		{Agentty, "", "MCP servers"},
		{ClaudeCode, "", "MCP servers"},
		{ClaudeCode, EntryHook, "hooks"},
		{ClaudeCode, EntrySkillHook, "hooks"},
		{ClaudeCode, EntrySubagentHook, "hooks"},
		{ClaudeCode, EntryHeadersHelper, "helpers"},
		{ClaudeCode, "apiKeyHelper", "helpers"},
		{ClaudeCode, "awsAuthRefresh", "helpers"},
		{ClaudeCode, "awsCredentialExport", "helpers"},
		{ClaudeCode, "otelHeadersHelper", "helpers"},
		{ClaudeCode, "statusLine", "status line commands"},
		{ClaudeCode, "fileSuggestion", "file suggestion commands"},
		{ClaudeCode, EntryPlugin, "plugins"},
		{ClaudeCode, EntryEnv, "env settings"},
		{Gemini, EntryHook, "hooks"},
		{Gemini, "discoveryCommand", "tool commands"},
		{Gemini, "callCommand", "tool commands"},
		{QwenCode, EntryHook, "hooks"},
		{QwenCode, "discoveryCommand", "tool commands"},
		{QwenCode, "callCommand", "tool commands"},
		{Codex, EntryHook, "hooks"},
		{Cursor, EntryHook, "hooks"},
		{CopilotCLI, EntryHook, "hooks"},
		{VSCode, EntryTask, "tasks"},
		{Continue, EntryInstall, "install commands"},
		{Cline, EntryHook, "hooks"},
		{Cline, clinePluginKind, "plugins"},
		{Codex, "somethingNew", "commands"},
	} {
		c := Lookup(tc.id)
		if c == nil {
			t.Fatalf("no client %s", tc.id)
		}
		if got := EntryNoun(c, tc.kind); got != tc.want {
			t.Errorf("EntryNoun(%s, %q) = %q, want %q", tc.id, tc.kind, got, tc.want)
		}
	}
}

// TestEntryNounsCoverHelpers: every command-valued Claude Code setting
// has a word of its own, so that a key added to those lists is not named
// "commands" by the hook.
func TestEntryNounsCoverHelpers(t *testing.T) {
	c := Lookup(ClaudeCode)
	for _, k := range append(ClaudeHelperKeys(), ClaudeCommandObjects()...) {
		if got := EntryNoun(c, k); got == "commands" {
			t.Errorf("Claude Code's %s has no word of its own", k)
		}
	}
	g := Lookup(Gemini)
	for _, k := range geminiToolCommands {
		if got := EntryNoun(g, k); got == "commands" {
			t.Errorf("Gemini CLI's %s has no word of its own", k)
		}
	}
}
