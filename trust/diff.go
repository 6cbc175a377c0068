package trust

// ChangeKind says how a server's entry differs between two sides.
type ChangeKind string

const (
	ChangeAdded     ChangeKind = "added"
	ChangeRemoved   ChangeKind = "removed"
	ChangeChanged   ChangeKind = "changed"
	ChangeRenamed   ChangeKind = "renamed" // the same entry under a new name
	ChangeUnchanged ChangeKind = "unchanged"
)

// Impact is what a change does to the user's approvals.
type Impact string

const (
	// ImpactTrustPreserving: agentty's approval still holds (the same
	// fingerprint is approved, a whole-file approval, the blanket env grant,
	// or an http entry that is never gated), yet what runs changed. The
	// dangerous kind: agentty runs it without asking.
	ImpactTrustPreserving Impact = "trust-preserving"
	// ImpactInvalidated: agentty ran it without asking before and will ask
	// now (the approval no longer matches).
	ImpactInvalidated Impact = "invalidated"
	// ImpactNewPreapproved: added or changed, and agentty runs the new
	// entry without asking (its fingerprint is approved from elsewhere, the
	// new file is approved whole, the blanket env grant, or never gated).
	ImpactNewPreapproved Impact = "new-preapproved"
	// ImpactNewUnapproved: added or changed, and agentty will ask first.
	ImpactNewUnapproved Impact = "new-unapproved"
	// ImpactRemoved: it ran before and does not run now.
	ImpactRemoved Impact = "removed"
	// ImpactUnchanged: nothing that runs changed, nor its approval.
	ImpactUnchanged Impact = "unchanged"
)

// Rank orders impacts for display: the most dangerous first (0).
func (i Impact) Rank() int {
	switch i {
	case ImpactTrustPreserving:
		return 0
	case ImpactInvalidated:
		return 1
	case ImpactNewPreapproved:
		return 2
	case ImpactNewUnapproved:
		return 3
	case ImpactRemoved:
		return 4
	case ImpactUnchanged:
		return 5
	}
	return 6
}

// NeedsAttention reports whether the user should look before running
// agentty: every impact but removed and unchanged.
func (i Impact) NeedsAttention() bool { return i.Rank() < ImpactRemoved.Rank() }

// FieldChange is one key of an entry that differs. Old and New are the
// canonical JSON text of the value ("" when absent on that side), so that
// "8080" and 8080 stay distinguishable.
type FieldChange struct {
	Field string // "command", "args[2]", "env.NODE_OPTIONS", "trustAnnotations", ...
	Old   string
	New   string
}

// FileChange is one referenced repository path whose content id differs
// ("" when absent or not counted on that side).
type FileChange struct {
	Path string
	Old  string
	New  string
}

// Change is what happened to one server of one configuration.
type Change struct {
	// Path is the configuration's path (repository-relative).
	Path string
	// Server is the name on the new side (the old name when removed).
	Server string
	Change ChangeKind
	// OldName is the previous name of a renamed server.
	OldName string
	Fields  []FieldChange
	Files   []FileChange
	// OldFingerprint and NewFingerprint are agentty's; OldDeep and NewDeep
	// mcp-guard's deep fingerprints. Empty on the side where the server is
	// absent.
	OldFingerprint, NewFingerprint string
	OldDeep, NewDeep               string
	Impact                         Impact
	// Reasons explain the impact in a few words each, for people.
	Reasons []string
	// Old and New are the entries (nil where absent).
	Old, New *Server
}

// Diff compares one configuration path at two sides (either may be nil:
// absent) and says, per server, what changed and what that does to the
// approvals g describes. Both configs must carry repository-relative paths
// (see LaunchDir); oldFiles and newFiles resolve the references of the
// servers on each side. Entries that are unchanged with an unchanged
// impact are included; callers filter them out if they wish.
func Diff(old, new *Config, oldFiles, newFiles Files, g Grants) []Change {
	return nil
}
