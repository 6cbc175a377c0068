// A stand-in MCP server: the repository's own code, run by Codex.
process.stdin.pipe(process.stdout);
