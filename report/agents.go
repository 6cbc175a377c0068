package report

// Agent is what report says of one agent. The caller hands it in, from
// the client registry: report looks none of it up.
type Agent struct {
	// Title names it in sentences ("Claude Code").
	Title string
	// Command is what `mcp-guard launch --` starts it with ("" for an
	// editor); Headless its run that starts servers without asking where
	// an interactive session asks ("claude -p"; "" when none).
	Command, Headless string
	// Nouns names its entries of a kind (trust.Server.Kind, "" for an MCP
	// server), plural, in its words ("hooks", "helpers", "tasks"); nil:
	// "MCP servers" for a server, "entries" for any other kind.
	Nouns func(kind string) string
}

// Agents are the agents a rendering may name, by the id trust.Change and
// trust.ReviewKey give them ("" for agentty).
type Agents map[string]Agent

// title names the agent of id in sentences: its Title, agentty's for "",
// else the id itself (escaped) when none was handed in.
func (a Agents) title(id string) string {
	if ag, ok := a[id]; ok && ag.Title != "" {
		return ag.Title
	}
	if id == "" {
		return agenttyTitle
	}
	return Sanitize(id)
}

// noun is what the agent of id calls entries of kind, plural, sanitised.
func (a Agents) noun(id, kind string) string {
	if ag, ok := a[id]; ok && ag.Nouns != nil {
		if w := ag.Nouns(kind); w != "" {
			return Sanitize(w)
		}
	}
	if kind == "" {
		return "MCP servers"
	}
	return "entries"
}

// headlessOf is the headless run of the agent titled title ("" when none).
func (a Agents) headlessOf(title string) string {
	for _, ag := range a {
		if ag.Title == title {
			return ag.Headless
		}
	}
	return ""
}

// findingClient is the client id of findings[i] as handed in (clients,
// one per finding; "" for agentty, or when none was handed in).
func findingClient(clients []string, i int) string {
	if i < len(clients) {
		return clients[i]
	}
	return ""
}
