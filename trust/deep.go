package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
)

// Ref is one repository path that a server runs (or loads code from) when
// agentty spawns it from its launch directory. References lists candidates;
// a candidate counts only where the repository actually holds something at
// that path (see Ref.Dir).
type Ref struct {
	// Path is repository-relative, slash-separated and clean; never the
	// launch directory itself, never outside the repository.
	Path string
	// Dir is true when the command runs the path as code even when it is a
	// directory (`go run ./cmd/x`, `python -m pkg`, `cargo run`'s src).
	// Otherwise only a file, an executable, a symlink or a submodule at Path
	// counts, and a directory there is ignored.
	Dir bool
	// Why names the part of the entry that points at the path: "command",
	// "args[1]", "env.NODE_OPTIONS", "go run", "python -m", ...
	Why string
}

// FileID is one resolved reference: a repository path and the content id
// of what is there (a git blob, tree or gitlink id, or for files read from
// disk the id git would give them).
type FileID struct {
	Path string
	ID   string
}

// Files resolves reference paths to content ids for one side of a
// repository (or one directory on disk). A path that is absent, or holds
// nothing that counts for its reference, maps to "" or is missing.
type Files map[string]string

// References lists the repository paths that s runs when agentty launches
// it from launchDir (repository-relative, slash-separated, "" for the
// repository root). The result is sorted by path and free of duplicates.
func References(s *Server, launchDir string) []Ref {
	return nil
}

// For returns the references of s (launched from launchDir) that f
// resolves to a content id, sorted by path.
func (f Files) For(s *Server, launchDir string) []FileID {
	var out []FileID
	for _, r := range References(s, launchDir) {
		if id := f[r.Path]; id != "" {
			out = append(out, FileID{Path: r.Path, ID: id})
		}
	}
	return out
}

// DeepFingerprint is mcp-guard's own identity of a server: lowercase hex
// SHA-256 over the entry's canonical form (every key, JSON types kept, env
// included; see Server.Canonical) and the content ids of the repository
// files it runs. Anything that can change what runs changes it.
func DeepFingerprint(s *Server, files []FileID) string {
	fs := append([]FileID(nil), files...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
	h := sha256.New()
	h.Write([]byte(s.Canonical()))
	for _, f := range fs {
		h.Write([]byte(f.Path + f.ID))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// LaunchDir is the launch directory of a repository-relative config path:
// "sub" for "sub/.agentty/mcp.json", "" for ".agentty/mcp.json".
func LaunchDir(configPath string) string {
	return ""
}
