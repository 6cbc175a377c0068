// Package policy is mcp-guard's rule catalog at work: it checks a parsed
// agentty configuration (trust.Config) and the sibling surfaces a repository
// can carry (hooks.json, acp-agents.json, agent personas) and returns
// findings as plain data (trust.Finding). It also holds a repository's own
// suppressions (an ignore file and a baseline). It reads no repository: the
// scan driver is package scan, and package project, which reads git sides,
// asks this package for the findings of what it reads. policy imports
// neither, so every rule below is built here and nowhere else.
//
// The rules and their texts are in trust.Rules; this package decides when
// they fire:
//
//   - MG1xx: what agentty's fingerprint does not cover (env that changes
//     what code runs, env.PATH, non-string args, repository files the
//     server runs, trustAnnotations, names that shadow the user's servers);
//   - MG2xx: execution risk in what a server runs. Shell strings (`sh -c`,
//     `bash -lc`, `cmd /c`, `powershell -c`) are parsed, never matched with
//     regular expressions: POSIX shells with mvdan.cc/sh/v3, cmd.exe and
//     PowerShell with small tokenizers, so that `curl … | sh`,
//     `bash <(curl …)` and `iwr … | iex` are found wherever they hide;
//   - MG3xx: the integrity findings trust.Parse reports, plus nested and
//     symlinked configurations, which depend on where a file is;
//   - MG4xx: literal credentials (known token prefixes, key-like names with
//     high-entropy values; placeholders such as ${VAR} are not secrets, and
//     a secret is never repeated in full: messages show a redacted prefix)
//     and plaintext transport;
//   - MG5xx: the other surfaces a repository can make agentty run or read;
//   - MG6xx: what a server is given (filesystem roots, the environment);
//   - MG7xx: other clients' approvals and sibling surfaces: what a
//     repository's Claude Code, Gemini CLI and VS Code settings approve,
//     switch on or run, VS Code tasks run on folder open, a Codex config
//     Codex cannot load, one server name running different commands in two
//     clients, and CI workflows that run an agent so that it spawns the
//     checkout's servers.
//
// Nothing here runs what it scans, prints, or exits. The only I/O is
// reading the files and git objects a scan is asked to look at, through
// trust.ReadFile and package gitscan.
package policy
