package fidelity

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
)

func init() { predictor = predict }

// predict is mcp-guard's answer for a launch in launchDir with the given
// HOME: for each Claude Code server it finds, whether it would run without
// asking (interactive: `claude mcp list` and the TUI; or under claude -p).
// A name runs if any of its verdicts runs (the walk-up may list a name
// once per config).
func predict(t *testing.T, launchDir, home string, headless bool) map[string]bool {
	t.Helper()
	env := map[string]string{}
	for _, kv := range isolatedEnv(home, nil) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	ev, err := client.Evaluate(launchDir, client.Env{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatalf("client.Evaluate(%s): %v", launchDir, err)
	}
	runs := map[string]bool{}
	for _, c := range ev.Clients {
		if c.Client != client.ClaudeCode {
			continue
		}
		if c.Err != nil {
			t.Fatalf("client.Evaluate(%s): Claude Code: %v", launchDir, c.Err)
		}
		addRuns(runs, c.Servers, headless)
	}
	return runs
}

// addRuns marks each server that would run without asking, in the
// interactive client or headless; a name runs if any of its verdicts runs.
func addRuns(runs map[string]bool, servers []client.ServerVerdict, headless bool) {
	for _, s := range servers {
		r := s.Interactive
		if headless {
			r = s.Headless
		}
		name := s.Name
		if s.Server != nil && s.Server.Kind == client.EntryEnv {
			continue // variables, no process: the scenarios read them in what they reach
		}
		if s.Server != nil && s.Server.Kind == client.EntryPlugin {
			// A plugin runs what it holds: the scenarios' plugin NAME
			// (sandbox.market) a hook marker NAME-hook and a server
			// marker NAME-server.
			id := strings.TrimPrefix(s.Name, "plugins.")
			plugin, _, _ := strings.Cut(id, "@")
			runs[plugin+"-hook"] = runs[plugin+"-hook"] || r
			runs[plugin+"-server"] = runs[plugin+"-server"] || r
			continue
		}
		if s.Server != nil && s.Server.Kind != "" && len(s.Server.Args) == 2 {
			// An entry runs the marker named after the marker flag.
			f := strings.Fields(s.Server.Args[1].Str)
			if i := slices.Index(f, markerFlag); i >= 0 && i+1 < len(f) {
				name = f[i+1]
			}
		}
		runs[name] = runs[name] || r
	}
}
