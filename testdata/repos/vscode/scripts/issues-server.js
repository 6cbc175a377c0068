// A stand-in MCP server: the repository's own code, run by VS Code.
process.stdin.pipe(process.stdout);
