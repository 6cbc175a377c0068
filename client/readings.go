package client

import (
	"slices"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// OtherReadings are the readings of the file at path, of kind k, by the
// clients other than the one that declared k that read it too
// (surface.AlsoRead: Copilot CLI's and Qwen Code's of Claude Code's
// `.mcp.json`), each in its own dialect, in declaration order. It is the
// one answer to "who else reads this file, and what do they read": a
// repository's sides (project.Load) and a plain directory (policy) both
// ask it. data nil means the file could not be read as one: every client
// then reads what unread says (nothing, or what none can tell).
func OtherReadings(k surface.Kind, path string, data []byte, unread *trust.Config) []*trust.Config {
	readers := k.Readers()
	var out []*trust.Config
	for _, id := range readers[min(1, len(readers)):] {
		c := Lookup(ID(id))
		switch {
		case c == nil:
		case data == nil:
			out = append(out, unread)
		default:
			out = append(out, ParseFile(c, path, data))
		}
	}
	return out
}

// Escapes are the entries reading o of a file holds that reading d of the
// same file does not hold as they are: what o's client starts or connects
// to that a check of d alone does not see. d is the reading of the client
// that declared the file (Claude Code's of `.mcp.json`), o another
// reader's (surface.AlsoRead: Copilot CLI's, Qwen Code's), which may skip
// a server d reads, read one d skips (a non-string arg, which Qwen Code
// spawns as text; a url without a type, which Claude Code skips and the
// others connect to), spawn one d connects to (a command beside an http
// url), or read a file d fails on (a comment, which Qwen Code strips):
// then every entry of o escapes. None when o's client reads nothing from
// the file (it fails on it). unknown: mcp-guard cannot tell what o's
// client reads from it (Qwen Code may load servers from a file with a
// syntax error) while it can tell d's: o's own findings say so.
//
// Two readings hold an entry alike when they agree on everything the
// rules and the launch model read of it: name, kind, transport, command,
// url, type, args and env (types and positions included), whether it is
// disabled, and the trees it runs.
func Escapes(d, o *trust.Config) (esc []*trust.Server, unknown bool) {
	if o == nil {
		return nil, false
	}
	if o.Unreadable() {
		return nil, !d.Unreadable()
	}
	if o.Err != nil {
		return nil, false
	}
	for _, s := range o.Servers {
		if d == nil || d.Err != nil || !slices.ContainsFunc(d.Servers, func(t *trust.Server) bool { return sameEntry(s, t) }) {
			esc = append(esc, s)
		}
	}
	return esc, false
}

// sameEntry: a and b are the same entry as Escapes compares them.
func sameEntry(a, b *trust.Server) bool {
	return a.Name == b.Name && a.Kind == b.Kind && a.Of == b.Of &&
		a.Transport == b.Transport && a.Command == b.Command && a.URL == b.URL && a.Type == b.Type &&
		a.Disabled == b.Disabled && a.Remote == b.Remote &&
		slices.Equal(a.Args, b.Args) && slices.Equal(a.Env, b.Env) && slices.Equal(a.Trees, b.Trees)
}
