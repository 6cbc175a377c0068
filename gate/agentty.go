package gate

import (
	"errors"
	"fmt"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// agenttyView is agentty as one client of the gate: its configuration's
// servers as ClientServers (each carrying agentty's own verdict), so that
// check, launch, review, decide, revoke and status walk one list of every
// agent (View.All). A configuration the user keeps (their own, an
// explicit file) is never gated: its view is Ungated, and only status
// and the refusals that name it see it. nil when agentty reads none here.
// Its state here names its approvals store (Store), which its client
// writes (client.StoreKeeper).
func (v *View) agenttyView() *ClientView {
	cfg := v.In.Config
	if cfg == nil {
		return nil
	}
	keeper := client.Keeper()
	id := keeper.ID()
	cv := &ClientView{Client: id, Repo: v.Repo, Top: v.Top, Head: v.Head, Store: v.In.StorePath, Inspection: v.In,
		Ungated: cfg.Scope != trust.ScopeProject,
		Eval: client.ClientEvaluation{Client: id, Configs: []string{cfg.Path}, Files: []*trust.Config{cfg},
			State: keeper.Inspected(v.In)}}
	cv.name()
	if err := v.Invalid(); err != nil {
		cv.Closed = append(cv.Closed, err.Error())
	}
	if n := v.In.Location.Note; n != "" {
		cv.Notes = append(cv.Notes, n)
	}
	if err := v.In.StoreErr; err != nil {
		cv.Notes = append(cv.Notes, "the approvals store approves nothing: "+err.Error())
	}
	// One allocation: a ClientServer is large, and growing the slice one
	// doubling at a time copied it again and again (100,000 servers).
	cv.Servers = make([]ClientServer, 0, len(v.Verdicts))
	for i := range v.Verdicts {
		cv.Servers = append(cv.Servers, v.agenttyServer(&v.Verdicts[i]))
	}
	if len(cv.Servers) == 0 {
		cv.Servers = nil // as before: no servers is nil, not empty
	}
	return cv
}

// agenttyServer is one of agentty's gate verdicts as a ClientServer.
func (v *View) agenttyServer(gv *trust.GateVerdict) ClientServer {
	cs := AgenttyEntry(gv, v.Config)
	if v.In.Config != nil {
		cs.Path = v.In.Config.Path
		if cs.Config == "" {
			cs.Config = cs.Path // the user's own: named as agentty finds it
		}
	}
	if ps, ok := v.Servers[gv.Server.Name]; ok {
		cs.Files, cs.Scope = ps.Files, ps.Scope
	}
	return cs
}

// AgenttyEntry is agentty's gate verdict gv of a server of the
// configuration at config (repository-relative) as a ClientServer: its
// verdict in agentty's words, and gv itself in Agentty.
func AgenttyEntry(gv *trust.GateVerdict, config string) ClientServer {
	s := gv.Server
	why, src := client.Keeper().Words(gv.Verdict)
	cs := ClientServer{
		ServerVerdict: client.ServerVerdict{Name: s.Name, Server: s,
			Interactive: gv.Trusted, Headless: gv.Trusted, Why: why, Source: src},
		Config: config, Key: gv.Key, Deep: gv.Deep,
		State: gv.State, Last: gv.Last, RenamedFrom: gv.RenamedFrom,
		Runs:    !s.Disabled && (s.Command != "" || s.URL != ""),
		Blocks:  gv.Blocks && gv.Why != trust.GateDeclinedRuns,
		Why:     gv.Why,
		Agentty: gv,
		Waits:   client.Keeper().Waits(*gv),
	}
	if !validDeep(gv.Deep) {
		cs.NoDeep = "what it runs could not be read"
	}
	return cs
}

// All is every agent found here, agentty first when it has a project
// configuration, then the other clients in the registry's order: the one
// list check, launch, review and decide walk.
func (v *View) All() []*ClientView {
	if v.agentty == nil {
		return v.Clients
	}
	return append([]*ClientView{v.agentty}, v.Clients...)
}

// Inspect is agentty's view of dir as agentty reads it, without review
// state or the other agents: what status shows when Evaluate could not
// look (its warning says why). Its view is Ungated: no gate was
// evaluated over it.
func Inspect(dir string, env Env) (*View, error) {
	in, err := trust.Inspect(dir, env.Getenv)
	if err != nil {
		return nil, fail("", err)
	}
	v := &View{Dir: dir, In: in, Ledger: &trust.Ledger{}, Servers: map[string]project.Server{}}
	for _, vd := range in.Verdicts {
		v.Verdicts = append(v.Verdicts, trust.GateVerdict{Verdict: vd})
	}
	if v.own = v.agenttyView(); v.own != nil {
		v.own.Ungated = true
	}
	return v, nil
}

// Notes are what finding the agents' configurations here says that no
// agent's view carries (AGENTTY_MCP_CONFIG naming no file: agentty reads
// none at all).
func (v *View) Notes() []string {
	if v.In != nil && v.In.Config == nil && v.In.Location.Note != "" {
		return []string{v.In.Location.Note}
	}
	return nil
}

// Shown is every agent status shows here: All, after agentty's view of a
// configuration the user keeps (Ungated: the gate counts none of it).
func (v *View) Shown() []*ClientView {
	if v.own == nil {
		return v.All()
	}
	return append([]*ClientView{v.own}, v.All()...)
}

// byClient is every view of Shown by its agent, for a loop over many
// servers that asks each one's view.
func (v *View) byClient() map[client.ID]*ClientView {
	out := map[client.ID]*ClientView{}
	for _, cv := range v.Shown() {
		out[cv.Client] = cv
	}
	return out
}

// viewOf is the view of agent id among Shown, nil when it was not found.
func (v *View) viewOf(id client.ID) *ClientView {
	for _, cv := range v.Shown() {
		if cv.Client == id {
			return cv
		}
	}
	return nil
}

// titleOf names agent id in sentences: its view's title (the registry's
// words), its id when it has none here.
func (v *View) titleOf(id client.ID) string {
	if cv := v.viewOf(id); cv != nil {
		return cv.Title
	}
	return string(id)
}

// ClientOf is the view of agent id among All, nil when it was not found.
func (v *View) ClientOf(id client.ID) *ClientView {
	for _, cv := range v.All() {
		if cv.Client == id {
			return cv
		}
	}
	return nil
}

// BrokenAt is where the first of cv's configs that does not parse breaks,
// "path:line:col" (the path alone when the parser gave no position), for
// a message that names what to fix; "" when every config parses (or one
// cannot be read at all: its closed reason says why).
func (v *View) BrokenAt(cv *ClientView) string {
	for _, cfg := range cv.Eval.Files {
		if cfg == nil || cfg.Valid() || cfg.Unreadable() {
			continue
		}
		var se *trust.SyntaxError
		if errors.As(cfg.Err, &se) {
			return fmt.Sprintf("%s:%d:%d", cfg.Path, se.Pos.Line, se.Pos.Column)
		}
		return cfg.Path
	}
	return ""
}
