package policy

import (
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// A project .codex/config.toml Codex cannot load (MG716). Observed on
// Codex 0.169.0: a duplicate key or table is a parse error that aborts
// the whole run; a non-string argument, a server with neither command nor
// url, or a value of the wrong type fails deserialization, fatal for every
// server. The file is read by the client model's Codex reader, the one
// place mcp-guard reads Codex's TOML; each reason it gives for Codex
// stopping becomes an MG716 at its position.

func init() {
	declareContent(client.KindCodexConfig, contentRule{check: func(f File, _ Options) []trust.Finding { return checkCodexConfig(f) }, ownParse: true, ownParseEverywhere: true})
}

// checkCodexConfig is MG716 for a project config Codex fails on, and
// MG741 for one that records trust for hooks.
func checkCodexConfig(f File) []trust.Finding {
	var out []trust.Finding
	if pos, ok := client.CodexProjectHookTrust(f.Path, f.Data); ok {
		out = append(out, trust.NewFinding("MG741", f.Path, pos, "", "hooks.state",
			"the project's config records which hooks are trusted, the answer Codex keeps in your own ~/.codex/config.toml"))
	}
	return append(out, checkCodexInvalid(f)...)
}

// checkCodexInvalid is MG716 for a project config Codex fails on.
func checkCodexInvalid(f File) []trust.Finding {
	cfg := client.ParseFile(client.Lookup(client.Codex), f.Path, f.Data)
	if cfg.Err == nil || cfg.Unreadable() {
		return nil // an unreadable file is MG718 (CheckContent's caller) or MG310
	}
	var out []trust.Finding
	for _, x := range cfg.Findings {
		if !trust.CodexStops(x) {
			continue // an ignored table: not why Codex stops
		}
		msg := x.Message
		if x.Server != "" {
			msg = "mcp_servers." + shortValue(x.Server) + ": " + msg
		}
		out = append(out, trust.NewFinding("MG716", f.Path, trust.Pos{Line: x.Line, Column: x.Column}, x.Server, x.Key, msg))
	}
	if len(out) == 0 {
		out = append(out, trust.NewFinding("MG716", f.Path, fileStart, "", "",
			"Codex cannot load this file, so every Codex run here aborts and mcp-guard cannot tell what it would run: "+shortValue(firstLine(cfg.Err.Error()))))
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
