package trust

import "fmt"

// The findings of a Codex config, which the client package reads from
// TOML: a rule is built in one package (policy/oneplace_test.go). Codex
// fails every server of every config on any of them.

// CodexUnparsable is MG301: Codex cannot read the file and aborts the run.
func CodexUnparsable(path string, pos Pos, err error) Finding {
	return NewFinding("MG301", path, pos, "", "",
		"Codex cannot read this file and aborts the whole run: no server of any config runs: "+err.Error())
}

// CodexStops reports a finding of a Codex config that makes Codex abort
// the run (CodexUnparsable, CodexWrongType), as opposed to a table it
// ignores.
func CodexStops(f Finding) bool { return f.Rule == "MG301" || f.Rule == "MG307" }

// CodexIgnoredTable is MG304: a server table Codex does not read.
func CodexIgnoredTable(path string, pos Pos, key string) Finding {
	return NewFinding("MG304", path, pos, "", key,
		fmt.Sprintf("Codex ignores [%s] (\"unrecognized configuration settings\"): only [mcp_servers.*] runs", key))
}

// CodexWrongType is MG307: a server Codex fails on, which aborts the run.
func CodexWrongType(path string, pos Pos, server, key, why string) Finding {
	return NewFinding("MG307", path, pos, server, key,
		fmt.Sprintf("Codex fails on server %q and aborts the whole run, so no server of any config runs: %s", server, why))
}
