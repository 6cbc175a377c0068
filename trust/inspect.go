package trust

// Inspection is what agentty would do if launched in a directory: the
// configuration it reads, the approvals it consults, and its verdict on
// every server.
type Inspection struct {
	Dir      string
	Location Location
	// Config is nil when agentty uses no configuration (ScopeNone).
	Config *Config
	// StorePath is the approvals store consulted; StoreErr says why it
	// approves nothing (unreadable, not an array), nil when it is fine or
	// absent.
	StorePath string
	StoreErr  error
	// Blanket is "env" when AGENTTY_MCP_ALLOW_PROJECT is truthy, or
	// "whole-file" when the file's hash is approved; empty otherwise.
	Blanket  string
	Verdicts []Verdict
	// Findings are the configuration's findings plus those about the
	// environment it is evaluated in (a blanket grant, MG108).
	Findings []Finding
}

// Inspect reproduces agentty's connect loop for launch directory dir: it
// discovers the configuration, reads the user's approvals store and
// evaluates the gate for every server.
func Inspect(dir string, getenv Getenv) (*Inspection, error) {
	loc, cfg, err := Load(dir, getenv)
	if err != nil {
		return nil, err
	}
	return Inspected(dir, loc, cfg, getenv), nil
}

// Inspected is Inspect for a configuration the caller already read: cfg
// is what agentty reads at loc (Discover's answer for dir; nil for
// ScopeNone), parsed once, so that the caller can hand the same servers
// to its other needs.
func Inspected(dir string, loc Location, cfg *Config, getenv Getenv) *Inspection {
	in := &Inspection{Dir: dir, Location: loc, Config: cfg}
	store := LoadUserApprovals(getenv)
	in.StorePath, in.StoreErr = store.Path, store.Err
	approved := store.Approved
	if cfg == nil {
		return in
	}
	g := Grants{Approved: approved, AllowProject: getenv("AGENTTY_MCP_ALLOW_PROJECT")}
	in.Verdicts = Evaluate(cfg, g)
	if cfg.Scope == ScopeProject && cfg.Valid() {
		switch {
		case BlanketEnv(g.AllowProject):
			in.Blanket = "env"
		case approved(cfg.SHA256):
			in.Blanket = "whole-file"
		}
	}
	in.Findings = append(in.Findings, cfg.Findings...)
	switch in.Blanket {
	case "env":
		in.Findings = append(in.Findings, NewFinding("MG108", cfg.Path, Pos{Line: 1, Column: 1}, "", "",
			"AGENTTY_MCP_ALLOW_PROJECT is set to a true value: agentty runs every project server without asking"))
	case "whole-file":
		in.Findings = append(in.Findings, NewFinding("MG108", cfg.Path, Pos{Line: 1, Column: 1}, "", "",
			"the whole file's hash is approved (legacy approval): agentty runs every server in it without asking, and any edit to the file revokes all of them at once"))
	}
	return in
}

// Pending reports whether any gated server waits for approval, or the
// configuration is invalid: both need the user's attention.
func (in *Inspection) Pending() bool {
	if in.Config != nil && !in.Config.Valid() {
		return true
	}
	for _, v := range in.Verdicts {
		if v.Reason == ReasonPending {
			return true
		}
	}
	return false
}
