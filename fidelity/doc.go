// Package fidelity holds the real-CLI fidelity suite: it installs pinned
// Claude Code, Gemini CLI and Codex releases from npm, runs them against
// scratch repositories whose MCP servers are marker programs, and holds what
// actually spawned against the contract (docs/fidelity.md records the
// agreement). It has tests only.
package fidelity
