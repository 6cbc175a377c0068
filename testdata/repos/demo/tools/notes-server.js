// A stand-in MCP server for the demo fixture; mcp-guard never runs it.
console.log("notes server");
