package policy

import "strings"

// searchPathVars are the variables whose value is a list of directories a
// program loads code from. Setting one is a repository injection vector
// only when an element resolves inside the repository: a relative (or
// empty) element resolves against the launch directory, while an absolute
// one names a place outside any checkout, since a repository cannot know
// where it will be cloned.
var searchPathVars = map[string]bool{
	"PYTHONPATH": true, "NODE_PATH": true, "PERL5LIB": true, "PERLLIB": true, "RUBYLIB": true,
	"CLASSPATH": true, "LUA_PATH": true, "LUA_CPATH": true,
}

// outsideRepoSearchPath reports a search-path variable every element of
// which is absolute (or home-relative): it cannot make the program load
// repository code.
func outsideRepoSearchPath(name, value string) bool {
	if !searchPathVars[strings.ToUpper(name)] || value == "" {
		return false
	}
	sep := ":"
	if strings.Contains(value, ";") || (len(value) >= 3 && value[1] == ':' && isASCIILetter(value[0])) {
		sep = ";" // a Windows list: C:\x;D:\y
	}
	for _, el := range strings.Split(value, sep) {
		// Lua's templates ("/opt/lua/?.lua") are absolute too; ".." or a
		// variable agentty does not expand is not.
		if !absolutePath(el) || strings.Contains(el, "..") || strings.ContainsAny(el, "$%") {
			return false
		}
	}
	return true
}

// plainCmdLine reports a cmd.exe command line that is one program with
// arguments: no operators, redirections, escapes, groups or %expansions.
// `cmd /c npx -y pkg` is the standard Windows launcher for a .cmd shim, and
// mcp-guard analyses what it launches; only a real script is an MG202.
func plainCmdLine(line string) bool {
	return strings.TrimSpace(line) != "" && !strings.ContainsAny(line, "&|<>^%()\n\r")
}
