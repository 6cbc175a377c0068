package trust

// Rule is one entry of the policy catalog. Ids never change meaning once
// released; see docs in the help text.
type Rule struct {
	ID       string
	Slug     string
	Severity Severity
	// Title is a one-line summary.
	Title string
	// Help says why it matters and how to fix it.
	Help string
}

// Rules is the catalog, in id order.
var Rules = []Rule{
	{ID: "MG101", Slug: "env-exec-hijack", Severity: SeverityHigh, Title: "env sets a variable that changes what code runs"},
	{ID: "MG102", Slug: "env-path-override", Severity: SeverityHigh, Title: "env.PATH is set, so a bare command may resolve to a repository file"},
	{ID: "MG103", Slug: "unhashed-arg", Severity: SeverityHigh, Title: "an args element is not a string: it is spawned but never hashed"},
	{ID: "MG104", Slug: "nul-in-string", Severity: SeverityHigh, Title: "a NUL byte in command, args or env: the hash is ambiguous and argv is truncated"},
	{ID: "MG105", Slug: "repo-code-unbound", Severity: SeverityMedium, Title: "the server runs a repository file whose content agentty's approval does not cover"},
	{ID: "MG106", Slug: "trust-annotations", Severity: SeverityMedium, Title: "trustAnnotations: true lets read-only tools skip permission prompts"},
	{ID: "MG107", Slug: "name-shadows-user", Severity: SeverityHigh, Title: "a project server reuses the name of one of the user's servers"},
	{ID: "MG108", Slug: "blanket-trust", Severity: SeverityHigh, Title: "a blanket grant trusts every project server unreviewed"},
	{ID: "MG201", Slug: "fetch-and-exec", Severity: SeverityCritical, Title: "a download is piped or handed to an interpreter"},
	{ID: "MG202", Slug: "shell-wrapper", Severity: SeverityMedium, Title: "the command is a shell running an inline script"},
	{ID: "MG203", Slug: "inline-code", Severity: SeverityMedium, Title: "an interpreter runs inline code"},
	{ID: "MG204", Slug: "unpinned-package", Severity: SeverityMedium, Title: "a package runner without an exact version"},
	{ID: "MG205", Slug: "remote-source-exec", Severity: SeverityHigh, Title: "a runner installs from a URL or git ref"},
	{ID: "MG301", Slug: "invalid-config", Severity: SeverityHigh, Title: "the file does not parse under agentty's rules"},
	{ID: "MG302", Slug: "duplicate-key", Severity: SeverityMedium, Title: "a duplicate key: the last one silently wins"},
	{ID: "MG303", Slug: "trailing-content", Severity: SeverityHigh, Title: "bytes after the first JSON value"},
	{ID: "MG304", Slug: "both-server-keys", Severity: SeverityMedium, Title: "mcpServers and servers are both present"},
	{ID: "MG305", Slug: "symlinked-config", Severity: SeverityMedium, Title: "the config or its .agentty directory is a symlink"},
	{ID: "MG306", Slug: "nested-config", Severity: SeverityMedium, Title: "a .agentty/mcp.json below the repository root"},
	{ID: "MG307", Slug: "wrong-type", Severity: SeverityHigh, Title: "a value has a type agentty fails on"},
	{ID: "MG308", Slug: "deceptive-text", Severity: SeverityHigh, Title: "control, escape, bidi or zero-width characters in a name, command, arg or env value"},
	{ID: "MG309", Slug: "disabled-not-bool", Severity: SeverityMedium, Title: "disabled is not a JSON boolean, so agentty treats the server as enabled"},
	{ID: "MG401", Slug: "literal-secret", Severity: SeverityHigh, Title: "a credential-looking literal"},
	{ID: "MG402", Slug: "plaintext-http", Severity: SeverityMedium, Title: "a non-loopback http:// server URL"},
	{ID: "MG501", Slug: "project-hooks", Severity: SeverityMedium, Title: "a project .agentty/hooks.json runs shell commands on tool calls"},
	{ID: "MG502", Slug: "project-acp-agents", Severity: SeverityMedium, Title: "a project .agentty/acp-agents.json has no content approval at all"},
	{ID: "MG503", Slug: "project-agent-persona", Severity: SeverityLow, Title: "an agent persona (prompt) added or changed"},
}

// RuleByID returns the catalog entry for id, or a zero Rule.
func RuleByID(id string) Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	return Rule{ID: id}
}
