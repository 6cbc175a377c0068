// Command mcp-guard keeps a cloned repository from running code on a
// developer's machine through agentty's MCP configuration: it warns after
// every pull, gates the agent's launch until changes are reviewed, scans
// configurations in CI, and reads and writes agentty's own approvals store.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}
