// A stand-in MCP server: the fixture is read, never run.
process.stdin.resume();
