package report

import (
	"io"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// registry is the client registry in report's words, as the CLI hands it
// in (client/words.Agents, which report's own tests cannot import: it
// imports report).
func registry() Agents {
	out := Agents{}
	for _, c := range client.All() {
		out[project.ChangeClient(c.ID())] = Agent{Title: c.Title(), Command: c.Command(), Headless: c.Headless(),
			Nouns: func(kind string) string { return client.EntryNoun(c, kind) }}
	}
	return out
}

// findingClientsOf is the client of each finding, as the CLI hands it in.
func findingClientsOf(fs []trust.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = project.FindingClient(f)
	}
	return out
}

// writeWarning is WriteWarning with the agents handed in as the CLI does.
func writeWarning(w io.Writer, wr Warning, st Style) error {
	wr.Agents, wr.FindingClients = registry(), findingClientsOf(wr.Findings)
	return WriteWarning(w, wr, st)
}

// writeDiff is WriteDiff with the agents handed in as the CLI does.
func writeDiff(w io.Writer, d Diff, st Style) error {
	d.Agents, d.FindingClients = registry(), findingClientsOf(d.Findings)
	return WriteDiff(w, d, st)
}
