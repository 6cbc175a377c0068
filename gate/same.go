package gate

import (
	"reflect"

	"github.com/mcp-guard/mcp-guard/client"
)

// One decision for one change (issue 23): when agents here run the same
// version of a server (the same name and kind, the same deep fingerprint:
// the same entry and the same repository files), the user decides about
// it once and the decision is recorded for each of them, agentty's store
// included in the order that fails safe (recordAll).

// SameVersion reports whether a and b, entries of two different agents,
// are one version of one server: the same name and kind, the same deep
// fingerprint, and what each agent starts does not depend on variables
// differently (an entry that interpolates ${VAR} is the same only as one
// that starts exactly the same). An entry without a deep fingerprint is
// the same as nothing.
func SameVersion(a, b ClientServer) bool {
	return a.Key.Client != b.Key.Client && a.Name == b.Name && a.Kind() == b.Kind() &&
		validDeep(a.Deep) && a.Deep == b.Deep && sameSpawn(a.Spawn, b.Spawn)
}

// sameSpawn reports whether two agents start the same thing for one
// entry: neither depends on a variable, or both start exactly the same.
func sameSpawn(a, b client.Spawn) bool {
	if len(a.Vars) == 0 && len(b.Vars) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// OneDecision groups list into the sets one decision covers, in list's
// order: each entry joins the first earlier set whose first entry is the
// same version (SameVersion) and that holds no entry of its agent yet;
// every other entry is a set of its own. It returns indexes into list.
func OneDecision(list []ClientServer) [][]int {
	return OneDecisionOf(len(list), func(i int) *ClientServer { return &list[i] })
}

// OneDecisionOf is OneDecision over n entries that at returns, for a list
// held some other way than one slice: no copy of 100,000 large entries.
func OneDecisionOf(n int, at func(i int) *ClientServer) [][]int {
	var sets [][]int
	// An entry can join only a set whose first entry has its deep
	// fingerprint (SameVersion), so the sets are looked up by it: linear
	// in the entries, where comparing each entry with every earlier set
	// was quadratic (100,000 servers waiting for review). Within one deep
	// fingerprint the sets keep list's order, so the first that takes the
	// entry is the one a scan of every earlier set would find.
	byDeep := map[string][]int{} // deep fingerprint -> indexes into sets
	for i := range n {
		cs := at(i)
		if !validDeep(cs.Deep) { // the same as nothing
			sets = append(sets, []int{i})
			continue
		}
		joined := false
		for _, k := range byDeep[cs.Deep] {
			set := sets[k]
			if SameVersion(*at(set[0]), *cs) && !holdsAgent(at, set, cs.Key.Client) {
				sets[k], joined = append(set, i), true
				break
			}
		}
		if !joined {
			byDeep[cs.Deep] = append(byDeep[cs.Deep], len(sets))
			sets = append(sets, []int{i})
		}
	}
	return sets
}

// holdsAgent reports whether set holds an entry of agent id.
func holdsAgent(at func(int) *ClientServer, set []int, id string) bool {
	for _, j := range set {
		if at(j).Key.Client == id {
			return true
		}
	}
	return false
}
