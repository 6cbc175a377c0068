package client

import "testing"

// TestTurnOff: how to keep an entry from running is said in its agent's
// words: a Cline hook or plugin is its file (delete it), Kiro and Roo Code
// read "disabled": true in a server's entry, VS Code's folder-open tasks
// stop with the user's task.allowAutomaticTasks "off", the others their
// own settings.
func TestTurnOff(t *testing.T) {
	for _, tc := range []struct {
		id           ID
		kind, config string
		want         string
	}{
		{Cline, EntryHook, ".clinerules/hooks/TaskStart", "delete .clinerules/hooks/TaskStart (the file is the hook; Cline has no switch that leaves one out)"},
		{Cline, EntryPlugin, ".cline/plugins/p.js", "delete .cline/plugins/p.js (the file is the plugin; Cline has no switch that leaves one out)"},
		{Cline, EntryHook, "", "delete its file (the file is the hook; Cline has no switch that leaves one out)"},
		{Kiro, "", ".kiro/settings/mcp.json", `set "disabled": true in its entry in .kiro/settings/mcp.json, or remove it`},
		{RooCode, "", ".roo/mcp.json", `set "disabled": true in its entry in .roo/mcp.json, or remove it`},
		{RooCode, "", "", `set "disabled": true in its entry, or remove it`},
		{VSCode, EntryTask, ".vscode/tasks.json", `set "task.allowAutomaticTasks": "off" in your VS Code user settings (no folder-open task runs then) or remove it from .vscode/tasks.json`},
		{VSCode, "", ".vscode/mcp.json", "turn it off in VS Code's own settings or remove it from .vscode/mcp.json"},
		{ClaudeCode, "", ".mcp.json", "turn it off in Claude Code's own settings or remove it from .mcp.json"},
		{ClaudeCode, EntryHook, "", "turn it off in Claude Code's own settings or remove it"},
	} {
		c := Lookup(tc.id)
		if c == nil {
			t.Fatalf("no client %s", tc.id)
		}
		if got := TurnOff(c, tc.kind, tc.config); got != tc.want {
			t.Errorf("TurnOff(%s, %q, %q) = %q, want %q", tc.id, tc.kind, tc.config, got, tc.want)
		}
	}
}
