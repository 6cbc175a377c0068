package trust

// Reason says why agentty would or would not run a server.
type Reason string

const (
	ReasonApproved  Reason = "approved"   // its fingerprint is in the approvals store
	ReasonWholeFile Reason = "whole-file" // the config file's hash is in the store (legacy)
	ReasonEnv       Reason = "env"        // AGENTTY_MCP_ALLOW_PROJECT is truthy
	ReasonPending   Reason = "pending"    // gated and not approved: agentty asks first
	ReasonUngated   Reason = "ungated"    // a project http/sse entry: never gated
	ReasonUser      Reason = "user"       // from the user's own config: never gated
	ReasonExplicit  Reason = "explicit"   // from $AGENTTY_MCP_CONFIG: never gated
	ReasonDisabled  Reason = "disabled"   // disabled: true
)

// Verdict is agentty's decision for one server.
type Verdict struct {
	Server *Server
	// Trusted reports whether agentty would run (or connect) it without asking.
	Trusted bool
	Reason  Reason
}

// Grants is what agentty consults for gated servers besides the entry.
type Grants struct {
	// Approved reports whether a hash is in the user's approvals store.
	Approved func(hash string) bool
	// AllowProject is the value of AGENTTY_MCP_ALLOW_PROJECT.
	AllowProject string
}

// Evaluate reproduces agentty's gate for every server of c, in order. The
// checks are agentty's, in agentty's order: blanket env, whole-file
// approval, per-server approval.
func Evaluate(c *Config, g Grants) []Verdict {
	if c == nil || !c.Valid() {
		return nil
	}
	approved := g.Approved
	if approved == nil {
		approved = func(string) bool { return false }
	}
	out := make([]Verdict, 0, len(c.Servers))
	for _, s := range c.Servers {
		v := Verdict{Server: s}
		switch {
		case s.Disabled:
			v.Reason = ReasonDisabled
		case c.Scope == ScopeUser:
			v.Trusted, v.Reason = true, ReasonUser
		case c.Scope == ScopeExplicit:
			v.Trusted, v.Reason = true, ReasonExplicit
		case !s.Gated:
			// A project entry that is not gated: url set, or no command.
			// With neither command nor url there is nothing to run.
			v.Trusted, v.Reason = s.URL != "", ReasonUngated
		case BlanketEnv(g.AllowProject):
			v.Trusted, v.Reason = true, ReasonEnv
		case approved(c.SHA256):
			v.Trusted, v.Reason = true, ReasonWholeFile
		case s.Fingerprint != "" && approved(s.Fingerprint):
			v.Trusted, v.Reason = true, ReasonApproved
		default:
			v.Reason = ReasonPending
		}
		out = append(out, v)
	}
	return out
}
