// A stand-in MCP server: the repository's own code, run by Gemini CLI.
process.stdin.pipe(process.stdout);
