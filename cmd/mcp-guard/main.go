// Command mcp-guard keeps a cloned repository from running code on a
// developer's machine through an AI coding agent (agentty, Claude Code,
// Cursor, VS Code, Gemini CLI, Codex and every other agent of the client
// registry): the MCP servers, hooks and helpers the repository's files
// make an agent run. It warns after every pull, gates the agent's launch
// until what changed is reviewed, scans configurations in CI, and writes
// no agent's files but agentty's approvals store, which it reads and
// writes as agentty does.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}
