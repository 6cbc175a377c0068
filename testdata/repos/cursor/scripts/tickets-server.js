// A stand-in MCP server: the repository's own code, run by Cursor.
process.stdin.pipe(process.stdout);
