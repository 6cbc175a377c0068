// A stand-in MCP server: the repository's own code, run by Claude Code.
process.stdin.pipe(process.stdout);
