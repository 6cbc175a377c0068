// Package words hands report the client registry in report's words: the
// agents a rendering may name, and the client each finding is about.
// report renders what it is handed and looks nothing up, and it imports
// project, so the one builder lives here, beside the registry, for every
// caller that renders (the commands, and the tests that render as they do).
package words

import (
	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Agents are the registry's agents, keyed as trust.Change names them
// (project.ChangeClient).
func Agents() report.Agents {
	out := report.Agents{}
	for _, c := range client.All() {
		out[project.ChangeClient(c.ID())] = report.Agent{Title: c.Title(), Command: c.Command(), Headless: c.Headless(),
			Nouns: func(kind string) string { return client.EntryNoun(c, kind) }}
	}
	return out
}

// FindingClients are the client each finding is about
// (project.FindingClient), in the findings' order.
func FindingClients(fs []trust.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = project.FindingClient(f)
	}
	return out
}
