package client

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// agentty is one client on the model, delegating every answer to trust
// (Discover, Inspect, Evaluate): its behaviour does not move. trust reads
// the real file system and HOME itself, not Env.FS.
type agenttyClient struct{}

func (agenttyClient) ID() ID                   { return Agentty }
func (agenttyClient) Title() string            { return "agentty" }
func (agenttyClient) Command() string          { return "agentty" }
func (agenttyClient) Handover() Handover       { return HandSnapshotEnv }
func (agenttyClient) Headless() string         { return "" }
func (agenttyClient) Unhanded([]string) string { return "" }
func (agenttyClient) Binds() string {
	return "agentty's approval binds the configuration's bytes, not the code a server runs"
}

// agentty's surfaces: its configuration, hooks and ACP agents in
// `.agentty/` at any depth, and the personas it reads from three roots.
var (
	KindMCPConfig = surface.Register(surface.Spec{Name: "mcp-config", Client: string(Agentty), Role: surface.Config, Patterns: []string{"**/.agentty/mcp.json"}})
	KindHooks     = surface.Register(surface.Spec{Name: "hooks", Client: string(Agentty), Role: surface.Sibling, Patterns: []string{"**/.agentty/hooks.json"}})
	KindACPAgents = surface.Register(surface.Spec{Name: "acp-agents", Client: string(Agentty), Role: surface.Sibling, Patterns: []string{"**/.agentty/acp-agents.json"}})
	KindPersona   = surface.Register(surface.Spec{Name: "persona", Client: string(Agentty), Role: surface.Sibling, Patterns: []string{"**/.agentty/agents/*.md", "**/.agents/agents/*.md", "**/.claude/agents/*.md"}})
	_             = registerDirs(Agentty, "**/.agentty", "**/.agentty/agents", "**/.agents", "**/.agents/agents", "**/.claude", "**/.claude/agents")
)

// AgenttyFile is one of agentty's other JSON files (a hooks.json, an
// acp-agents.json) as agentty reads it: the first value, the bytes after
// it ignored (nlohmann::json stops there), the last duplicate key
// winning, every value positioned in the file. The one reading of those
// files: the launch model's hook commands (ShellRuns) and the rules on
// them (policy) both take it.
func AgenttyFile(data []byte) (trust.Value, error) { return trust.DecodeFirst(data) }

// AgenttyHook is one `run` command of a project's hooks.json.
type AgenttyHook struct {
	// Where names it: "pre_tool[0].run"; At is where its key is.
	Where string
	At    trust.Pos
	// Run is the command as written, whole (agentty hands the shell the
	// text up to its first NUL: ShellRuns).
	Run string
}

// AgenttyHooks lists the `run` commands of hooks.json v (AgenttyFile),
// as agentty reads them: the string `run` of every element of the
// `pre_tool` and `post_tool` arrays, the last duplicate key winning.
// agentty approves the hooks file by its hash, which does not cover the
// scripts they run (spec §6.12).
func AgenttyHooks(v trust.Value) []AgenttyHook {
	var out []AgenttyHook
	for _, phase := range []string{"pre_tool", "post_tool"} {
		list, _ := v.Get(phase)
		for i, e := range list.Elems() {
			run, ok := e.StringAt("run")
			if !ok {
				continue
			}
			at, _ := e.KeyPos("run")
			out = append(out, AgenttyHook{Where: phase + "[" + strconv.Itoa(i) + "].run", At: at, Run: run})
		}
	}
	return out
}

// ShellRuns: agentty runs the `run` commands of a project's
// .agentty/hooks.json with a shell from the launch directory holding
// `.agentty`, each cut at its first NUL. A file agentty cannot parse has
// none.
func (agenttyClient) ShellRuns(k surface.Kind) func(path string, data []byte) (string, []trust.HookRun) {
	if k != KindHooks {
		return nil
	}
	return func(path string, data []byte) (string, []trust.HookRun) {
		v, err := AgenttyFile(data)
		if err != nil {
			return trust.LaunchDir(path), nil
		}
		var runs []trust.HookRun
		for _, h := range AgenttyHooks(v) {
			run, _, _ := strings.Cut(h.Run, "\x00")
			runs = append(runs, trust.HookRun{Where: h.Where, Run: run})
		}
		return trust.LaunchDir(path), runs
	}
}

// Configs is trust.Discover's one file (agentty never walks up).
func (agenttyClient) Configs(launchDir, _ string, env Env) ([]string, error) {
	loc, err := trust.Discover(launchDir, env.getenv)
	if err != nil || loc.Scope == trust.ScopeNone {
		return nil, err
	}
	p, err := filepath.Abs(loc.Path)
	if err != nil {
		return nil, err
	}
	return []string{p}, nil
}

// Parse reads a file as agentty's project configuration; State's
// inspection holds the one agentty reads, with its real scope.
func (agenttyClient) Parse(path string, data []byte) *trust.Config {
	return trust.Parse(path, data, trust.ScopeProject)
}

// Spawn: agentty expands nothing; the server gets agentty's environment
// plus its env, in the launch directory.
func (agenttyClient) Spawn(s *trust.Server, _ Vars) Spawn { return rawSpawn(s) }
func (agenttyClient) interpolates() bool                  { return false }

// AgenttyState is agentty's connect loop for the launch directory.
type AgenttyState struct {
	Inspection *trust.Inspection
	// Approvals is the user's store (~/.agentty/mcp_approvals.json).
	Approvals *trust.Approvals
	// AllowProject is AGENTTY_MCP_ALLOW_PROJECT.
	AllowProject string
	Err          error
}

func (agenttyClient) State(launchDir, _ string, env Env) *State {
	in, err := trust.Inspect(launchDir, env.getenv)
	as := &AgenttyState{Inspection: in, Approvals: trust.LoadUserApprovals(env.getenv),
		AllowProject: env.getenv(allowProjectVar), Err: err}
	st := &State{Client: Agentty, LaunchDir: launchDir, Agentty: as, Err: err}
	if as.Approvals.Path != "" {
		st.Sources = append(st.Sources, Source{Path: as.Approvals.Path, Display: storeShown, Err: as.Approvals.Err, Present: as.Approvals.Exists})
	}
	return st
}

const storeShown = "~/.agentty/mcp_approvals.json"

// allowProjectVar makes agentty run every project server without asking.
const allowProjectVar = "AGENTTY_MCP_ALLOW_PROJECT"

// Grants are the fingerprints of the user's store and
// AGENTTY_MCP_ALLOW_PROJECT, as State reads them.
func (agenttyClient) Grants(env Env) (trust.Grants, error) {
	store := trust.LoadUserApprovals(env.getenv)
	return trust.Grants{Approved: store.Approved, AllowProject: env.getenv(allowProjectVar)}, store.Err
}

// files is the configuration agentty reads, with its real scope, for
// Evaluate; the Path of its servers' entries is made absolute.
func (agenttyClient) files(st *State) (paths []string, cfgs []*trust.Config) {
	in := st.Agentty.Inspection
	if in == nil || in.Config == nil {
		return nil, nil
	}
	p, err := filepath.Abs(in.Location.Path)
	if err != nil {
		p = in.Location.Path
	}
	return []string{p}, []*trust.Config{in.Config}
}

func (a agenttyClient) grants(st *State) trust.Grants {
	return trust.Grants{Approved: st.Agentty.Approvals.Approved, AllowProject: st.Agentty.AllowProject}
}

func (a agenttyClient) Gate(st *State, entries []Entry) []ServerVerdict {
	cfg := st.Agentty.config()
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		one := &trust.Config{Path: cfg.Path, Scope: cfg.Scope, SHA256: cfg.SHA256, Servers: []*trust.Server{e.Server}}
		v := trust.Evaluate(one, a.grants(st))[0]
		why, src := AgenttyWords(v)
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: v.Trusted, Headless: v.Trusted, Why: why, Source: src})
	}
	return out
}

// config is the configuration agentty reads (scope and whole-file hash);
// an empty project one when there is none.
func (as *AgenttyState) config() *trust.Config {
	if as.Inspection != nil && as.Inspection.Config != nil {
		return as.Inspection.Config
	}
	return &trust.Config{Scope: trust.ScopeProject}
}

// AgenttyWords is agentty's verdict v in its words, and the file or
// setting that decided it ("" when none did).
func AgenttyWords(v trust.Verdict) (why, source string) {
	switch v.Reason {
	case trust.ReasonApproved:
		fp := "its fingerprint"
		if v.Server != nil && v.Server.Fingerprint != "" {
			fp = "fingerprint " + v.Server.Fingerprint[:min(12, len(v.Server.Fingerprint))]
		}
		return "agentty approved this exact server (" + fp + "): it runs without asking", storeShown
	case trust.ReasonWholeFile:
		return "the whole file's hash is approved (legacy): agentty runs every server in it without asking", storeShown
	case trust.ReasonEnv:
		return "AGENTTY_MCP_ALLOW_PROJECT is set: agentty runs every project server without asking", "AGENTTY_MCP_ALLOW_PROJECT"
	case trust.ReasonPending:
		return "agentty asks before running it: its fingerprint is not approved", ""
	case trust.ReasonUngated:
		if v.Trusted {
			return "a project http/sse entry: agentty connects without asking", ""
		}
		return "no command and no url: agentty has nothing to run", ""
	case trust.ReasonUser:
		return "from the user's own configuration: agentty never asks", ""
	case trust.ReasonExplicit:
		return "from $AGENTTY_MCP_CONFIG: agentty never asks", "AGENTTY_MCP_CONFIG"
	case trust.ReasonDisabled:
		return "disabled: agentty does not start it", ""
	}
	return string(v.Reason), ""
}

// Impact: agentty binds approval to the fingerprint (command, url, string
// args), and a changed file loses a whole-file approval.
func (a agenttyClient) Impact(st *State, old, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: agentty no longer starts it"}
	}
	cfg := st.Agentty.config()
	one := &trust.Config{Path: cfg.Path, Scope: cfg.Scope, Servers: []*trust.Server{new}}
	v := trust.Evaluate(one, a.grants(st))[0]
	why, src := AgenttyWords(v)
	if v.Reason == trust.ReasonApproved && old != nil && old.Fingerprint == new.Fingerprint {
		why = "agentty's fingerprint did not change: it still runs without asking"
	}
	return Impact{Interactive: v.Trusted, Headless: v.Trusted, Why: why, Source: src}
}

func (agenttyClient) CheckStore(path string) error {
	if path == "" {
		return trust.ErrNoHome
	}
	return trust.LoadApprovals(path).Err
}

func (agenttyClient) WriteStore(ctx context.Context, path string, d trust.Decision, fingerprints []string) (map[string]bool, error) {
	changed := map[string]bool{}
	err := trust.UpdateApprovals(ctx, path, func(ed *trust.ApprovalsEdit) error {
		clear(changed)
		for _, h := range fingerprints {
			var ok bool
			if d == trust.DecisionApproved {
				var err error
				if ok, err = ed.Add(h); err != nil {
					return err
				}
			} else {
				ok = ed.Remove(h)
			}
			changed[h] = ok
		}
		return nil
	})
	return changed, err
}

// Inspected is agentty's state from the gate's inspection in.
func (agenttyClient) Inspected(in *trust.Inspection) *State {
	return &State{Client: Agentty, Agentty: &AgenttyState{Inspection: in}}
}

// Revoke removes the servers' fingerprints from agentty's store (agentty
// has no revoke) and, with whole, the hash of the configuration (its
// legacy whole-file approval); a whole-file approval left in place still
// lets agentty run every server of the file.
func (agenttyClient) Revoke(ctx context.Context, st *State, servers [][]string, whole bool) (StoreRevocation, error) {
	in := st.Agentty.Inspection
	out := StoreRevocation{Changed: make([]bool, len(servers))}
	cfg := st.Agentty.config()
	var hash string
	if whole {
		out.WholeOf, hash = cfg.Path, cfg.SHA256
	}
	var all []string
	for _, fps := range servers {
		all = append(all, fps...)
	}
	if hash != "" {
		all = append(all, hash)
	}
	err := trust.UpdateApprovals(ctx, in.StorePath, func(ed *trust.ApprovalsEdit) error {
		// One pass over the store, whatever the number of servers.
		removed := ed.RemoveAll(all)
		for i, fps := range servers {
			out.Changed[i] = false
			for _, fp := range fps {
				out.Changed[i] = out.Changed[i] || removed[fp]
			}
		}
		out.WholeChanged = hash != "" && removed[hash]
		return nil
	})
	if err != nil {
		return StoreRevocation{}, err
	}
	if in.Blanket == "whole-file" && !whole {
		out.Still = "the whole file is still approved, so agentty still runs every server in it; run `mcp-guard revoke --whole-file`"
	}
	return out, nil
}

// StillRuns: agentty never gates an http/sse entry, and a blanket grant
// (the whole file's hash, AGENTTY_MCP_ALLOW_PROJECT) is not the
// fingerprint a decline removes.
func (agenttyClient) StillRuns(v trust.Verdict) bool {
	return v.Reason == trust.ReasonUngated || (v.Trusted && v.Reason != trust.ReasonApproved)
}

func (agenttyClient) Words(v trust.Verdict) (why, source string) { return AgenttyWords(v) }

// Waits says in a few words why agentty's server blocks (gate verdict v),
// and what agentty does with it meanwhile.
func (agenttyClient) Waits(v trust.GateVerdict) string {
	agentty := "agentty will ask before running it"
	if v.Trusted {
		agentty = "agentty runs it without asking"
	}
	switch v.Why {
	case trust.GateNew:
		return "never reviewed; " + agentty
	case trust.GateChanged:
		when := ""
		if v.Last != nil && !v.Last.Time.IsZero() {
			when = " on " + v.Last.Time.UTC().Format("2006-01-02")
		}
		verb := "reviewed"
		switch {
		case v.Last != nil && v.Last.Decision == trust.DecisionDeclined:
			verb = "declined"
		case v.Last != nil && v.Last.Adopted:
			verb = "adopted"
		}
		return "changed since you " + verb + " it" + when + "; " + agentty
	case trust.GateApprovedUnreviewed:
		return "approved in agentty before mcp-guard reviewed it (review it, or accept every approval agentty already has with `mcp-guard hooks install --adopt`); " + agentty
	case trust.GateBlanket:
		return "trusted by " + blanketText(v.Reason) + ", never reviewed; " + agentty
	case trust.GateUngated:
		return "an " + string(v.Server.Transport) + " server agentty connects without asking, never reviewed"
	case trust.GateDeclinedRuns:
		return "you declined it, yet " + blanketText(v.Reason) + " still lets agentty run it; remove that grant (or the server)"
	}
	return string(v.Why)
}

func (agenttyClient) Recorded(d trust.Decision, v trust.Verdict, changed, stillRuns bool) string {
	s := v.Server
	if s == nil {
		return ""
	}
	fp := "agentty fingerprint " + s.Fingerprint[:min(12, len(s.Fingerprint))]
	if d == trust.DecisionApproved {
		switch {
		case changed:
			return fp + " added"
		case s.Gated:
			return fp + " already there"
		case s.URL != "":
			return string(s.Transport) + ": agentty never asks before connecting"
		}
		return ""
	}
	switch {
	case stillRuns && s.URL != "" && !s.Gated:
		return "an " + string(s.Transport) + " server: agentty connects to it without asking when started directly; mcp-guard launch leaves it out"
	case stillRuns:
		return "trusted by " + blanketText(v.Reason) + " still lets agentty run it when started directly; mcp-guard launch leaves it out"
	case changed:
		return "its approval was removed from agentty's store (approvals are global: other repositories with the same command lose it too)"
	}
	return "agentty will ask before running it"
}

func blanketText(r trust.Reason) string {
	switch r {
	case trust.ReasonEnv:
		return "AGENTTY_MCP_ALLOW_PROJECT"
	case trust.ReasonWholeFile:
		return "a whole-file approval"
	case trust.ReasonUngated:
		return "its transport (agentty never gates http servers)"
	case trust.ReasonApproved:
		return "agentty's approval"
	}
	return string(r)
}

// KeyClient is client id as the ledger's keys and trust.Change name it:
// "" for agentty, whose servers mcp-guard reviewed before it modelled
// any other client; OfKey is its inverse.
func KeyClient(id ID) string {
	if id == Agentty {
		return ""
	}
	return string(id)
}

// OfKey is the client a ledger key's or a trust.Change's client field
// names (KeyClient).
func OfKey(k string) ID {
	if k == "" {
		return Agentty
	}
	return ID(k)
}
