package trust

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"path"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
)

// Object is what a repository holds at a path: a git mode in octal
// ("100644", "100755", "120000", "160000", "040000") and an object id (a
// blob, gitlink or tree id; for files read from disk the id git would give
// them). The zero Object means nothing that counts is there.
type Object struct {
	Mode string
	ID   string
}

// FileID is one resolved item of a server's code scope: its label, what
// is there, and (for people, not part of any fingerprint) why the server
// runs it.
type FileID struct {
	Path string
	Object
	Why string
}

// Files holds, per server name of one configuration at one side, what the
// side holds for each item of the server's code scope (package launch
// decides the items; package project resolves them).
type Files map[string][]FileID

// For returns the files of s, sorted by path.
func (f Files) For(s *Server) []FileID {
	out := append([]FileID(nil), f[s.Name]...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// DeepFingerprint is mcp-guard's own identity of a server: lowercase hex
// SHA-256 over the entry's canonical form (every key, JSON types kept, env
// included; see Server.Canonical) and the mode and content id of every
// repository file it runs. Anything mcp-guard can see that changes what
// runs changes it; the server's name is not part of it (a review binds the
// name separately). Every part is length-prefixed, so the encoding is
// injective.
func DeepFingerprint(s *Server, files []FileID) string {
	fs := append([]FileID(nil), files...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
	h := sha256.New()
	writeField(h, "mcp-guard deep fingerprint v1")
	writeField(h, s.Canonical())
	for _, f := range fs {
		writeField(h, f.Path)
		writeField(h, f.Mode)
		writeField(h, f.ID)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func writeField(h hash.Hash, s string) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	h.Write([]byte(s))
}

// LaunchDir is the launch directory of a repository-relative config path:
// "sub" for "sub/.agentty/mcp.json", "" for ".agentty/mcp.json". A client
// file the surface registry declares two directories deep
// (".kiro/settings/mcp.json", ".amazonq/cli-agents/*.json") is read from
// the directory above both: "sub" for "sub/.kiro/settings/mcp.json".
func LaunchDir(configPath string) string {
	d := path.Dir(path.Dir(configPath))
	if k, ok := surface.Of(configPath); ok {
		if sp := k.Spec(); sp.Client != "" && (sp.Role == surface.Config || sp.Entries) {
			for range strings.Count(sp.Dir(), "/") {
				d = path.Dir(d)
			}
		}
	}
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// HookRun is one `run` command of a project .agentty/hooks.json, as the
// launch model runs it (client.AgenttyHooks reads them).
type HookRun struct {
	// Where names it: "pre_tool[0].run".
	Where string
	// Run is the shell command line (cut at its first NUL, as agentty
	// passes it to the shell).
	Run string
}
