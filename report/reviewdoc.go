package report

import (
	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/trust"
)

// ReviewVersion is the version of the `review --json` document. Fields are
// only ever added within a version; a removal or a change of meaning bumps
// it.
const ReviewVersion = 1

// ReviewDoc is the `review --json` document, version 1: every agent found
// here with its config files and their state (as in status), and every
// entry that waits for review with what the review screen shows of it.
type ReviewDoc struct {
	Version int           `json:"version"`
	Agents  []StatusAgent `json:"agents"`
	Waiting []ReviewEntry `json:"waiting"`
}

// ReviewWait is one entry that waits for review, as the command hands it
// over: its agent, the entry, what changed since its last review (nil:
// never reviewed) and its findings.
type ReviewWait struct {
	View     *gate.ClientView
	Entry    gate.ClientServer
	Since    *trust.Change
	Findings []trust.Finding
}

// ReviewEntry is one entry that waits for review.
type ReviewEntry struct {
	// Label is what `review --approve` and `--decline` take.
	Label  string `json:"label"`
	Client string `json:"client"`
	Name   string `json:"name"`
	// Kind is "" for an MCP server, else the agent's word for the entry
	// (hook, statusLine, headersHelper, …).
	Kind    string   `json:"kind,omitempty"`
	Config  string   `json:"config"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	URL     string   `json:"url,omitempty"`
	// Shown is what an entry that runs nothing itself is, as in status.
	Shown []string `json:"shown,omitempty"`
	// Review is mcp-guard's review state: unreviewed (never, or changed
	// since) or declined; Why says why it waits, in the agent's words.
	Review string `json:"review"`
	Why    string `json:"why"`
	// DeepFingerprint is what approving it records; "" when mcp-guard
	// could not compute it (NoDeep says why, and it cannot be approved).
	DeepFingerprint string      `json:"deep_fingerprint"`
	NoDeep          string      `json:"no_deep,omitempty"`
	Scope           []ScopeItem `json:"scope"`
	Unresolved      []string    `json:"unresolved"`
	// Since is what changed since the last review; null when it was never
	// reviewed.
	Since    *ReviewSince    `json:"since"`
	Findings []trust.Finding `json:"findings"`
}

// ReviewSince is what changed in an entry since its last review.
type ReviewSince struct {
	Fields []DiffField `json:"fields"`
	Files  []DiffFile  `json:"files"`
}

// NewReviewDoc builds the review document. Arrays are never null.
func NewReviewDoc(all []*gate.ClientView, waiting []ReviewWait) ReviewDoc {
	doc := ReviewDoc{Version: ReviewVersion, Agents: AgentStates(all), Waiting: []ReviewEntry{}}
	for _, w := range waiting {
		cs := w.Entry
		e := ReviewEntry{Label: cs.Label(), Client: string(w.View.Client), Name: cs.Name, Config: cs.Config,
			Args: []string{}, Review: string(cs.State), Why: ClientGateText(w.View, cs),
			DeepFingerprint: cs.Deep, NoDeep: cs.NoDeep, Scope: []ScopeItem{}, Unresolved: []string{},
			Findings: append([]trust.Finding{}, w.Findings...)}
		if e.Review == "" {
			e.Review = string(trust.StateUnreviewed)
		}
		if s := cs.Server; s != nil {
			e.Kind, e.Command, e.URL, e.Shown = s.Kind, s.SpawnCommand(), s.URL, s.Shown
			e.Args = append(e.Args, s.SpawnArgs()...)
		}
		sc := NewServerScope(cs.Scope, cs.Files)
		e.Scope = append(e.Scope, sc.Items...)
		e.Unresolved = append(e.Unresolved, sc.Unresolved...)
		if since := w.Since; since != nil {
			e.Since = &ReviewSince{Fields: []DiffField{}, Files: []DiffFile{}}
			for _, f := range since.Fields {
				e.Since.Fields = append(e.Since.Fields, DiffField{Field: f.Field, Old: f.Old, New: f.New})
			}
			for _, f := range since.Files {
				e.Since.Files = append(e.Since.Files, DiffFile{Path: f.Path, Old: f.Old.ID, New: f.New.ID, OldMode: f.Old.Mode, NewMode: f.New.Mode, Why: f.Why})
			}
		}
		doc.Waiting = append(doc.Waiting, e)
	}
	return doc
}
