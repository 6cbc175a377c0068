package client

import (
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// EnvEntry is one variable a client sets for a server.
type EnvEntry struct{ Name, Value string }

// Spawn is what a client starts for a stdio server: the spawn view after
// its interpolation, the raw view as written, and what the result depends
// on (the same file runs differently in another environment).
type Spawn struct {
	Command string
	Args    []string
	Env     []EnvEntry

	RawCommand string
	RawArgs    []string
	RawEnv     []EnvEntry

	// Vars are the variables the spawn view depends on, in first-use
	// order; Missing those of them undefined with no default (left
	// literal, and the server still spawns).
	Vars    []string
	Missing []string
	// Warning is the client's own warning about Missing ("" when none).
	Warning string
	// Inputs are the ${input:ID} IDs the spawn view depends on (VS Code):
	// the client prompts for them when the server first starts, so their
	// values are unknown here; they stay literal.
	Inputs []string
	// Unresolved are the ${…} variables the client resolves at start time
	// from state mcp-guard does not have (a command, a setting, the open
	// editor): left literal.
	Unresolved []string
	// EnvFile is the file the client loads more variables from (envFile,
	// after interpolation; "" when none): what the server's environment
	// holds depends on that file too.
	EnvFile string
	// Cwd is "" for the launch directory.
	Cwd string
	// InheritEnv is true when the server gets the client's whole
	// environment plus Env.
	InheritEnv bool
}

// Interpolates reports whether client c expands anything in a server's
// entry before spawning it. One that does not (agentty, Codex) runs the
// entry as written: the launch model analyses that one view, in its Cwd,
// and the environment the client passes from its own (Codex's base
// variables) is not part of what the entry runs.
func Interpolates(c Client) bool {
	if n, ok := c.(interface{ interpolates() bool }); ok {
		return n.interpolates()
	}
	return true
}

// rawSpawn is the spawn view of a client without interpolation.
func rawSpawn(s *trust.Server) Spawn {
	sp := Spawn{Command: s.SpawnCommand(), Args: s.SpawnArgs(), RawCommand: s.Command, InheritEnv: true}
	for _, a := range s.Args {
		if a.IsString {
			sp.RawArgs = append(sp.RawArgs, a.Str)
		} else {
			sp.RawArgs = append(sp.RawArgs, a.Spawn)
		}
	}
	for _, e := range s.Env {
		sp.Env = append(sp.Env, EnvEntry{e.Name, e.Value})
	}
	sp.RawEnv = append([]EnvEntry(nil), sp.Env...)
	return sp
}

// expander collects the variables one server's expansion uses.
type expander struct {
	lookup        Vars
	vars, missing []string
	seen, miss    map[string]bool
}

// claude expands s as Claude Code does before spawning: every match of
// /\$\{([^}]+)\}/, left to right, is the variable named by the text before
// the first ":-" (the default is the text between the first and a second
// ":-", as JavaScript's split(":-", 2) keeps it); a defined variable,
// even empty, wins, then the default; otherwise the match stays literal.
// A bare $VAR is never expanded.
func (x *expander) claude(s string) string {
	return substitute(s, false, func(content string) (string, bool) {
		name, def, hasDef := strings.Cut(content, ":-")
		if hasDef {
			def, _, _ = strings.Cut(def, ":-")
		}
		x.use(name)
		switch v, ok := x.lookup(name); {
		case ok:
			return v, true
		case hasDef:
			return def, true
		}
		x.missed(name)
		return "", false
	})
}

// substitute replaces every ${content} of s, left to right and in one pass
// (a replacement is not scanned again), by repl's value; false leaves the
// match literal. An unclosed "${" ends the scan. With empty false, "${}"
// is no match and the scan resumes one byte later (JavaScript's
// /\$\{([^}]+)\}/); with empty true it is a match of "" (/\$\{(.*?)\}/).
func substitute(s string, empty bool, repl func(content string) (string, bool)) string {
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			break
		}
		j += i
		end := strings.IndexByte(s[j+2:], '}')
		if end < 0 {
			break
		}
		if end == 0 && !empty {
			b.WriteString(s[i : j+1])
			i = j + 1
			continue
		}
		b.WriteString(s[i:j])
		if v, ok := repl(s[j+2 : j+2+end]); ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[j : j+3+end])
		}
		i = j + 3 + end
	}
	b.WriteString(s[i:])
	return b.String()
}

func (x *expander) use(name string) {
	if x.seen == nil {
		x.seen, x.miss = map[string]bool{}, map[string]bool{}
	}
	if !x.seen[name] {
		x.seen[name] = true
		x.vars = append(x.vars, name)
	}
}

func (x *expander) missed(name string) {
	if !x.miss[name] {
		x.miss[name] = true
		x.missing = append(x.missing, name)
	}
}

// ExpandClaude is Claude Code's expansion of one string: the result, the
// variables used and those undefined without a default.
func ExpandClaude(s string, lookup Vars) (out string, vars, missing []string) {
	x := &expander{lookup: lookup}
	out = x.claude(s)
	return out, x.vars, x.missing
}

// dollarSpawn expands ${VAR} (and ${VAR:-default}) in command, args and
// env as Claude Code does (its Spawn adds its warning), and as Kiro's
// documentation says ("${VAR}"). An undefined variable stays literal and
// is listed in Missing. A command line (a
// hook) is left to the shell.
func dollarSpawn(s *trust.Server, lookup Vars) Spawn {
	sp := rawSpawn(s)
	if s.Kind != "" {
		return sp
	}
	x := &expander{lookup: lookup}
	sp.Command = x.claude(s.Command)
	for i, a := range sp.RawArgs {
		sp.Args[i] = x.claude(a)
	}
	for i, e := range sp.RawEnv {
		sp.Env[i].Value = x.claude(e.Value)
	}
	sp.Vars, sp.Missing = x.vars, x.missing
	return sp
}
