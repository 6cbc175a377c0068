package gate

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// TestOneDecision: entries of different agents with one name, kind and
// deep fingerprint are one decision; a different version, an entry
// without a deep fingerprint, a hook and a second entry of one agent are
// not.
func TestOneDecision(t *testing.T) {
	deep1, deep2 := strings.Repeat("a", 64), strings.Repeat("b", 64)
	hook := &trust.Server{Name: "db", Kind: "hook"}
	e := func(agent, name, deep string, s *trust.Server) ClientServer {
		if s == nil {
			s = &trust.Server{Name: name}
		}
		return ClientServer{ServerVerdict: client.ServerVerdict{Name: name, Server: s},
			Key: trust.ReviewKey{Client: agent, Server: name}, Deep: deep}
	}
	list := []ClientServer{
		e("", "db", deep1, nil),            // 0: agentty
		e("claude-code", "db", deep1, nil), // 1: same version
		e("gemini-cli", "db", deep2, nil),  // 2: another version
		e("codex", "db", deep1, nil),       // 3: same version
		e("cursor", "db", "", nil),         // 4: no deep fingerprint
		e("vscode", "db", deep1, hook),     // 5: a hook, not a server
		e("opencode", "web", deep1, nil),   // 6: another name
		e("claude-code", "db", deep1, nil), // 7: claude-code's again
		e("qwen-code", "db", deep2, nil),   // 8: joins 2
	}
	got := OneDecision(list)
	want := [][]int{{0, 1, 3}, {2, 8}, {4}, {5}, {6}, {7}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OneDecision = %v, want %v", got, want)
	}
	// One that starts what depends on a variable is the same only as
	// one that starts exactly the same.
	vars := e("claude-code", "db", deep1, nil)
	vars.Spawn = client.Spawn{Command: "node", Args: []string{"/home/u/db.js"}, Vars: []string{"HOME"}}
	if SameVersion(list[0], vars) {
		t.Error("an entry that interpolates ${HOME} is the same as agentty's, which does not")
	}
	twin := vars
	twin.Key.Client = "gemini-cli"
	if !SameVersion(vars, twin) {
		t.Error("two agents that start exactly the same are not the same version")
	}
	if SameVersion(list[4], list[4]) {
		t.Error("an entry without a deep fingerprint is the same version as itself")
	}
}

// TestOneDecisionAgreesWithEveryEarlierSet: OneDecision looks sets up by
// deep fingerprint; on random lists (few names, agents and versions, some
// without a deep fingerprint, some hooks, some that start what depends on
// a variable) it groups exactly as comparing each entry with every earlier
// set, in order, does.
func TestOneDecisionAgreesWithEveryEarlierSet(t *testing.T) {
	reference := func(list []ClientServer) [][]int {
		var sets [][]int
		for i, cs := range list {
			joined := false
			for k, set := range sets {
				held := false
				for _, j := range set {
					held = held || list[j].Key.Client == cs.Key.Client
				}
				if SameVersion(list[set[0]], cs) && !held {
					sets[k], joined = append(set, i), true
					break
				}
			}
			if !joined {
				sets = append(sets, []int{i})
			}
		}
		return sets
	}
	agents := []string{"", "claude-code", "gemini-cli", "codex", "cursor"}
	deeps := []string{strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64), "", "AB"}
	rng := rand.New(rand.NewPCG(1, 2))
	grouped := 0
	for round := 0; round < 500; round++ {
		list := make([]ClientServer, rng.IntN(30))
		for i := range list {
			name := []string{"db", "web"}[rng.IntN(2)]
			s := &trust.Server{Name: name}
			if rng.IntN(5) == 0 {
				s.Kind = "hook"
			}
			agent := agents[rng.IntN(len(agents))]
			list[i] = ClientServer{ServerVerdict: client.ServerVerdict{Name: name, Server: s},
				Key: trust.ReviewKey{Client: agent, Server: name}, Deep: deeps[rng.IntN(len(deeps))]}
			if rng.IntN(4) == 0 {
				list[i].Spawn = client.Spawn{Command: "node", Args: []string{"/home/u/" + name + ".js"}, Vars: []string{"HOME"}}
			}
		}
		got, want := OneDecision(list), reference(list)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: OneDecision = %v, every earlier set gives %v", round, got, want)
		}
		grouped += len(list) - len(got)
	}
	if grouped == 0 {
		t.Fatal("no random list had two entries in one set: the comparison proves nothing")
	}
}
