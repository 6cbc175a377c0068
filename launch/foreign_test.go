package launch

import "testing"

// The attacks of attack8 on programs the model does not know: a fetched
// package (or any unknown program) that runs what its arguments name.
// What it may run from them is followed as code, never only the file.
func TestScopeForeignPrograms(t *testing.T) {
	server := mapFS{"server.js": "require('./lib')", "lib.js": "1", "srv.py": "import helper", "helper.py": "x"}
	runScopeCases(t, []scopeCase{
		{name: "a fetched program given a command line", cmd: "npx", args: []string{"-y", "supergateway@3.4.0", "--stdio", "node server.js"},
			fs: server, has: []string{"F* server.js", "F* lib.js"}},
		{name: "a fetched program given a program and its arguments", cmd: "npx", args: []string{"-y", "@modelcontextprotocol/inspector@0.16.0", "node", "server.js"},
			fs: server, has: []string{"F* server.js", "F* lib.js"}},
		{name: "a fetched program given a JavaScript file", cmd: "npx", args: []string{"-y", "nodemon@3.1.0", "server.js"},
			fs: server, has: []string{"F* server.js", "F* lib.js"}},
		{name: "a fetched program given a Python file", cmd: "uvx", args: []string{"mcp-proxy@0.8.0", "--", "python", "srv.py"},
			fs: server, has: []string{"F* srv.py", "M ./ (python modules)"}},
		{name: "an unknown program given a command line after --", cmd: "mcp-wrap", args: []string{"--", "python3", "srv.py"},
			fs: server, has: []string{"F* srv.py", "M ./ (python modules)"}},
		{name: "an unknown program's data file is bound, not followed", cmd: "mytool", args: []string{"--config", "conf.yaml", "--name", "a b c"},
			fs: mapFS{"conf.yaml": "x"}, has: []string{"F conf.yaml"}, hasNot: []string{"T ./", "F* conf.yaml"}},
		{name: "a known program keeps its own reading", cmd: "node", args: []string{"server.js", "--banner", "node other.js"},
			fs: mapFS{"server.js": "1", "other.js": "require('./x')", "x.js": "1"}, has: []string{"F* server.js"}, hasNot: []string{"F* other.js", "F* x.js"}},
	})
}
