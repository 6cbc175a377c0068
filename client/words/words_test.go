package words

import (
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Every agent of the registry is named, under the id its changes carry.
func TestAgentsNameTheRegistry(t *testing.T) {
	a := Agents()
	if len(a) != len(client.All()) {
		t.Fatalf("%d agents for %d clients", len(a), len(client.All()))
	}
	for _, c := range client.All() {
		got, ok := a[project.ChangeClient(c.ID())]
		if !ok || got.Title != c.Title() || got.Command != c.Command() || got.Headless != c.Headless() {
			t.Errorf("%s: %+v", c.ID(), got)
		}
		// Each agent's entries in its own words (the hook's heading).
		for _, kind := range []string{"", "hook", "task", "apiKeyHelper"} {
			if got.Nouns == nil || got.Nouns(kind) != client.EntryNoun(c, kind) {
				t.Errorf("%s: the noun of %q is not the client's", c.ID(), kind)
			}
		}
	}
}

func TestFindingClientsFollowTheFindings(t *testing.T) {
	fs := []trust.Finding{
		trust.NewFinding("MG501", ".agentty/hooks.json", trust.Pos{Line: 1, Column: 1}, "", "", "m"),
		trust.NewFinding("MG201", ".mcp.json", trust.Pos{Line: 1, Column: 1}, "db", "", "m"),
	}
	got := FindingClients(fs)
	if len(got) != len(fs) {
		t.Fatalf("%d clients for %d findings", len(got), len(fs))
	}
	for i, f := range fs {
		if got[i] != project.FindingClient(f) {
			t.Errorf("finding %d: %q, project says %q", i, got[i], project.FindingClient(f))
		}
	}
}
