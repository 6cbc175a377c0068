package trust

import (
	"strings"
	"testing"
)

// TestRuleTitlesNameTheirAgent: a rule that finds something in any
// agent's configuration speaks of "the agent" in its title; only a rule
// about agentty's own files (or agentty's own grants) names agentty.
func TestRuleTitlesNameTheirAgent(t *testing.T) {
	agenttyOnly := map[string]bool{"MG108": true, "MG305": true, "MG306": true, "MG501": true, "MG502": true}
	for _, r := range Rules {
		if strings.Contains(r.Title, "agentty") && !agenttyOnly[r.ID] {
			t.Errorf("%s's title speaks of agentty, but the rule is about every agent: %q", r.ID, r.Title)
		}
	}
	// The help of a rule about every agent does not tell the user to start
	// agentty, or speak of agentty alone as what runs the server.
	for _, id := range []string{"MG101", "MG105", "MG301", "MG404"} {
		r, _ := LookupRule(id)
		if strings.Contains(r.Help, "start agentty") || strings.HasPrefix(r.Help, "agentty") {
			t.Errorf("%s's help speaks of agentty alone: %q", id, r.Help)
		}
	}
}
