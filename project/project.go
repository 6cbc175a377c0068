// Package project reads the agentty surfaces of a repository at one or two
// sides (commits, the index, the work tree) through gitscan, parses them
// with trust, and compares them: which servers changed, which repository
// files they run changed, and what that does to the user's approvals. It
// never prints and never exits.
package project

import (
	"context"
	"errors"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// errTODO marks the skeleton; it disappears with the implementation.
var errTODO = errors.New("project: not implemented yet")

// Options tune Load and Compare.
type Options struct {
	// Grants is what agentty consults (the approvals store and
	// AGENTTY_MCP_ALLOW_PROJECT); Compare uses it for impacts.
	Grants trust.Grants
}

// Server is one server of a loaded configuration with its resolved
// references and deep fingerprint.
type Server struct {
	*trust.Server
	Files []trust.FileID
	Deep  string
}

// Config is one `.agentty/mcp.json` at one side.
type Config struct {
	// Path is the repository-relative path of the mcp.json entry (the
	// link's path when it is a symlink); LaunchDir its launch directory
	// ("" for the root).
	Path      string
	LaunchDir string
	// Entry is the entry at Path.
	Entry gitscan.Entry
	// Linked is true when Path or its .agentty directory is a symlink;
	// Target is then the repository path agentty would read through it,
	// "" when it leads outside the repository (unknowable: Config.Err).
	Linked bool
	Target string
	// Config is the parse result (never nil for a present entry).
	Config *trust.Config
	// Files resolves the references of every server at this side.
	Files   trust.Files
	Servers []Server
}

// Snapshot is every agentty surface at one side.
type Snapshot struct {
	Side    gitscan.Side
	Configs []*Config         // sorted by path
	Others  []gitscan.Surface // hooks.json, acp-agents.json, personas, linked dirs
	Skipped []string          // submodules gitscan did not enter
	// Findings: MG305 (symlinked), MG306 (nested), MG501-MG503 (present),
	// and each config's parse findings.
	Findings []trust.Finding
}

// Load reads every configuration at side, with deep fingerprints.
func Load(ctx context.Context, repo *gitscan.Repo, side gitscan.Side, opts Options) (*Snapshot, error) {
	return nil, errTODO
}

// LoadConfig reads the one configuration at configPath (a repository-
// relative `.agentty/mcp.json` path) at side; nil, nil when absent.
func LoadConfig(ctx context.Context, repo *gitscan.Repo, side gitscan.Side, configPath string, opts Options) (*Config, error) {
	return nil, errTODO
}

// LoadDir reads dir/.agentty/mcp.json from disk for a launch directory that
// is not inside a git repository: references are resolved against dir and
// hashed from disk (bounded); nil, nil when there is no such file.
func LoadDir(ctx context.Context, dir string, opts Options) (*Config, error) {
	return nil, errTODO
}

// Result is what Compare found.
type Result struct {
	Old, New gitscan.Side
	// Changes sorted by impact (trust-preserving first), config path and
	// server name. Servers that are unchanged with an unchanged impact are
	// left out.
	Changes []trust.Change
	// Findings about what changed: MG305, MG306, MG501-MG503 and the parse
	// findings of changed configurations.
	Findings []trust.Finding
	Skipped  []string
}

// NeedsAttention reports whether any change needs the user's attention
// (invalidated, trust-preserving, new-unapproved, new-preapproved) or any
// finding was made.
func (r *Result) NeedsAttention() bool {
	for _, c := range r.Changes {
		if c.Impact.NeedsAttention() {
			return true
		}
	}
	return len(r.Findings) > 0
}

// Compare finds what changed in the agentty surfaces between old and new,
// at a cost proportional to the change.
func Compare(ctx context.Context, repo *gitscan.Repo, old, new gitscan.Side, opts Options) (*Result, error) {
	return nil, errTODO
}
