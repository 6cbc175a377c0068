package trust

import "testing"

// TestApproveHintNameIsOneWordNeverAFlag: a repository chooses its
// servers' names, so the hint agentty's impact lines give must pass a
// name as one shell word, and never as a flag (`--all` approves every
// server).
func TestApproveHintNameIsOneWordNeverAFlag(t *testing.T) {
	for name, want := range map[string]string{
		"db":    "mcp-guard approve db",
		"--all": "mcp-guard approve -- --all",
		"-x;id": "mcp-guard approve -- '-x;id'",
		"a;id":  "mcp-guard approve 'a;id'",
		"b$(x)": "mcp-guard approve 'b$(x)'",
	} {
		if got := approveHint(name); got != want {
			t.Errorf("approveHint(%q) = %s, want %s", name, got, want)
		}
	}
}
