// Package fidelity holds the real-CLI fidelity suite: it installs a pinned
// Claude Code from npm, runs it against scratch repositories whose MCP
// servers are marker programs, and holds what actually spawned against the
// contract (docs/fidelity.md records the agreement). It has tests only.
package fidelity
