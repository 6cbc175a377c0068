package policy

import (
	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// CheckReadings is the server rules on one file as every client that
// reads it reads it, the one place scan (a plain directory, or a
// repository's work tree, index, revision, range or history) applies them
// to a file several clients read (surface.AlsoRead: Claude Code's
// `.mcp.json`, which Copilot CLI and Qwen Code read too). decl is the
// reading of the client that declared the file, others those of the
// clients that read it too. The rules go through decl's entries, then
// through each entry another reader holds otherwise (client.Escapes: a
// server Claude Code skips or connects to that Qwen Code spawns, or
// every server where Claude Code fails the file); a reading mcp-guard
// cannot tell is said by its own finding (MG310, in its client's words).
// A finding already said (the same rule on the same server at the same
// place and key) is not said again in another reader's words.
func CheckReadings(decl *trust.Config, others []*trust.Config, opts Options) []trust.Finding {
	out := CheckServers(decl, opts)
	type at struct {
		rule, path, server, key string
		line, col               int
	}
	said := map[at]bool{}
	for _, f := range out {
		said[at{f.Rule, f.Path, f.Server, f.Key, f.Line, f.Column}] = true
	}
	if decl != nil {
		for _, f := range decl.Findings {
			said[at{f.Rule, f.Path, f.Server, f.Key, f.Line, f.Column}] = true
		}
	}
	for _, o := range others {
		esc, unknown := client.Escapes(decl, o)
		var fs []trust.Finding
		if unknown {
			fs = o.Findings
		} else if len(esc) > 0 {
			only := *o
			only.Servers = esc
			fs = CheckServers(&only, opts)
		}
		for _, f := range fs {
			if k := (at{f.Rule, f.Path, f.Server, f.Key, f.Line, f.Column}); !said[k] {
				said[k] = true
				out = append(out, f)
			}
		}
	}
	return out
}
