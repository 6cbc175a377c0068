package client

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// How `mcp-guard launch` hands each client exactly the reviewed servers.

// Command is the client a launch starts, recognised from the command's
// base name ("claude", "/usr/bin/agentty"); "" for any other command.
func Command(argv0 string) ID {
	switch strings.TrimSuffix(filepath.Base(argv0), ".exe") {
	case "agentty":
		return Agentty
	case "claude":
		return ClaudeCode
	}
	return ""
}

// VettedConfig is a vetted file's content: {"mcpServers":{…}} holding
// servers in order, each entry as it reads now (its canonical form).
func VettedConfig(servers []*trust.Server) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"mcpServers":{`)
	for i, s := range servers {
		name, err := json.Marshal(s.Name)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(name)
		buf.WriteByte(':')
		buf.WriteString(s.Canonical())
	}
	buf.WriteString("}}\n")
	return buf.Bytes(), nil
}

// ClaudeArgv is what `mcp-guard launch -- claude ARGS…` execs: Claude Code
// reads only the vetted file (--strict-mcp-config: no .mcp.json, no user
// or project servers), then the user's arguments unchanged.
// --strict-mcp-config comes after the file: --mcp-config takes several
// files and an option ends the list, so a prompt that follows is not
// taken for a config file.
func ClaudeArgv(argv0, vetted string, args []string) []string {
	out := []string{argv0, "--mcp-config", vetted, "--strict-mcp-config"}
	return append(out, args...)
}

// ClaudeHealthCheck reports whether args run `claude mcp list` or
// `claude mcp get`: those start the project's servers for a health check
// and mcp-guard does not rely on the injected flags reaching them. Every
// occurrence of the word "mcp" followed by list or get counts, options
// in between skipped, so an option that takes a value cannot hide it.
func ClaudeHealthCheck(args []string) bool {
	for i, a := range args {
		if a != "mcp" {
			continue
		}
		for _, b := range args[i+1:] {
			if strings.HasPrefix(b, "-") {
				continue
			}
			if b == "list" || b == "get" {
				return true
			}
			break
		}
	}
	return false
}
