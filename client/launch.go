package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// How `mcp-guard launch` hands each client exactly the reviewed servers.

// Command is the client a launch starts, recognised from the command's
// base name ("claude", "/usr/bin/agentty"); "" for any other command.
func Command(argv0 string) ID {
	name := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	for _, c := range Started() {
		if c.Command() == name {
			return c.ID()
		}
	}
	return ""
}

// ReadVetted reads back a vetted file (VettedConfig) in client id's
// dialect (Dialect: Claude Code's vetted file, agentty's snapshot), as the
// user's own file: mcp-guard wrote it from servers already
// read within their own files' limits (the reviewed ones, each repository
// file at most trust.MaxServers, plus the user's own), so the repository
// limits (client.ParseFile) do not apply to it: 1,000 reviewed servers and
// one of the user's must still launch. It stays within trust.MaxFileSize
// and the user's value budget (trust.ValueBudget(trust.ScopeUser)); past
// them it reads as unreadable and the launch refuses.
func ReadVetted(id ID, data []byte) *trust.Config {
	return trust.ParseDialect("vetted", data, trust.ScopeUser, Dialect(id))
}

// VettedConfig is a vetted file's content: {"mcpServers":{…}} holding
// the reviewed project servers in order, each entry as it reads now (its
// canonical form), and the user's own servers as the user wrote them.
// Names follow Claude Code's precedence (local scope, then project, then
// user): a local server takes the place of a project server of its name,
// which is then left out (shadowed); a user-scope server gives way to a
// project server of its name, as in Claude Code. A server the user turned
// off is not carried. left are the project's other servers (not handed
// over, but still a project server of their name); own are the names of
// the user's servers the file holds.
func VettedConfig(project []*trust.Server, left []string, user []UserServer) (data []byte, own, shadowed []string, err error) {
	local := map[string]bool{}
	for _, u := range user {
		if u.Scope == "local" {
			local[u.Name] = true
		}
	}
	var buf bytes.Buffer
	buf.WriteString(`{"mcpServers":{`)
	n := 0
	member := func(name, entry string) error {
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		buf.Write(key)
		buf.WriteByte(':')
		buf.WriteString(entry)
		return nil
	}
	inProject := map[string]bool{}
	for _, n := range left {
		inProject[n] = true
	}
	for _, s := range project {
		inProject[s.Name] = true
		if local[s.Name] {
			shadowed = append(shadowed, s.Name)
			continue
		}
		if err := member(s.Name, s.Canonical()); err != nil {
			return nil, nil, nil, err
		}
	}
	for _, u := range user {
		if u.Off || (u.Scope != "local" && inProject[u.Name]) {
			continue
		}
		if err := member(u.Name, u.Entry); err != nil {
			return nil, nil, nil, err
		}
		own = append(own, u.Name)
	}
	buf.WriteString("}}\n")
	return buf.Bytes(), own, shadowed, nil
}

// ClaudeArgv is what `mcp-guard launch -- claude ARGS…` execs: Claude Code
// reads only the vetted file (--strict-mcp-config: no .mcp.json and no
// ~/.claude.json servers of its own; the vetted file carries the user's),
// then the user's arguments unchanged.
// --strict-mcp-config comes after the file: --mcp-config takes several
// files and an option ends the list, so a prompt that follows is not
// taken for a config file. With a settings handoff (settings != ""),
// Claude Code reads the user's settings and that file only
// (--setting-sources user --settings FILE): the repository's settings
// files, and every hook or helper they hold that was not handed over,
// are not read (observed on 2.1.328).
func ClaudeArgv(argv0, vetted, settings string, args []string) []string {
	out := []string{argv0, "--mcp-config", vetted, "--strict-mcp-config"}
	if settings != "" {
		out = append(out, "--setting-sources", ClaudeSettingSources, "--settings", settings)
	}
	return append(out, args...)
}

// ClaudeHealthCheck reports whether args run `claude mcp list` or
// `claude mcp get`: those start the project's servers for a health check
// and mcp-guard does not rely on the injected flags reaching them. Every
// occurrence of the word "mcp" followed by list or get counts, options
// in between skipped, so an option that takes a value cannot hide it.
func ClaudeHealthCheck(args []string) bool {
	for i, a := range args {
		if a != "mcp" {
			continue
		}
		for _, b := range args[i+1:] {
			if strings.HasPrefix(b, "-") {
				continue
			}
			if b == "list" || b == "get" {
				return true
			}
			break
		}
	}
	return false
}

// AllowArgv is what `mcp-guard launch -- gemini|qwen ARGS…` execs: one
// --allowed-mcp-server-names=NAME per name that may run, then the user's
// arguments unchanged. Gemini CLI and Qwen Code (its fork) then run no
// other server (the flag replaces the settings' mcp.allowed and
// mcp.excluded), in interactive sessions and under -p alike; Qwen Code
// applies it to its `.mcp.json` servers too and over YOLO mode. The
// option takes one value (nargs 1) and the value is joined by "=", so a
// prompt that follows is not taken for a name (observed on Gemini CLI
// 0.61.0 and Qwen Code 0.24.4). Every name must be AllowPassable; to run
// no server, pass one name no server has (an empty allowed passes the
// empty value, and Gemini CLI then refuses to start: "mcpName is
// required").
func AllowArgv(argv0 string, allowed []string, args []string) []string {
	out := []string{argv0}
	for _, n := range allowed {
		out = append(out, "--allowed-mcp-server-names="+n)
	}
	if len(allowed) == 0 {
		out = append(out, "--allowed-mcp-server-names=")
	}
	return append(out, args...)
}

// allowUnhanded is Unhanded of a client launch hands an allow-list
// (Gemini CLI, Qwen Code): `CMD mcp list` connects to every server the
// settings let run, whatever the flag says (the same words as Claude
// Code's health check: mcp, then list), and an --allowed-mcp-server-names
// of the user's own adds names to the list (an array option: the values
// accumulate).
func allowUnhanded(c Client, args []string) string {
	if ClaudeHealthCheck(args) {
		return "`" + c.Command() + " mcp list` starts the project's servers to show their status, whatever launch hands it"
	}
	if GeminiAllowFlag(args) {
		return "your --allowed-mcp-server-names adds to the list with which launch hands " + c.Title() + " only the reviewed servers"
	}
	return ""
}

// GeminiPassable reports whether --allowed-mcp-server-names can name
// exactly name: Gemini CLI splits each value at commas and trims the
// parts, so a name with a comma or surrounding space (or "") cannot be
// passed; such a server is left out of the allow-list (it does not run).
func GeminiPassable(name string) bool {
	return name != "" && !strings.Contains(name, ",") && strings.TrimSpace(name) == name
}

// AllowPassable reports whether client id's --allowed-mcp-server-names
// can name exactly name (GeminiPassable; Qwen Code also reads * and ? in
// a value as a pattern, qwenPassable).
func AllowPassable(id ID, name string) bool {
	if p, ok := Lookup(id).(interface{ passable(string) bool }); ok {
		return p.passable(name)
	}
	return GeminiPassable(name)
}

// AllowOwn are the user's own servers of a client whose Handover is
// HandAllowNames: every name (all) and those its settings let run
// (runs), which a launch names too, since the flag replaces the
// settings' lists.
func (st *State) AllowOwn() (runs, all []string) {
	switch {
	case st == nil:
	case st.Gemini != nil:
		return st.Gemini.UserRuns(), st.Gemini.User
	case st.Qwen != nil:
		return st.Qwen.UserRuns(), st.Qwen.User
	}
	return nil, nil
}

// CodexArgv is what `mcp-guard launch -- codex ARGS…` execs: one
// -c mcp_servers.NAME.enabled=false per server that must not run, before
// the user's arguments, where Codex applies them to its subcommands too
// (codex -c … exec and codex exec -c … both work, observed on 0.169.0). A name that cannot be written
// as a bare TOML key is an error: the launch is refused rather than the
// key guessed: Codex splits an override's path at every dot, quotes
// included, and still runs a server named "a.b" (observed on 0.169.0).
func CodexArgv(argv0 string, off []string, args []string) ([]string, error) {
	out := []string{argv0}
	for _, n := range off {
		if !codexBareKey(n) {
			return nil, fmt.Errorf("the Codex server name %q cannot be named in a -c override (only letters, digits, _ and - can)", n)
		}
		out = append(out, "-c", "mcp_servers."+n+".enabled=false")
	}
	return append(out, args...), nil
}

// disableLaunch refuses a run that makes Codex run hooks its hook trust
// would skip (CodexBypassesHookTrust) while one of the repository's hooks
// is not reviewed: the gate counts a hook Codex has not trusted as not
// running, and launch cannot hand Codex only the reviewed hooks.
func (codexClient) disableLaunch(argv0 string, off, unreviewed, args, environ []string) ([]string, []string, error) {
	if how := CodexBypassesHookTrust(args); how != "" && len(unreviewed) > 0 {
		return nil, nil, HintError{
			Err: fmt.Errorf("%s makes Codex run every hook of the project without asking, and mcp-guard has not reviewed %s",
				how, strings.Join(unreviewed, ", ")),
			Hint: "launch without " + how + ", or trust the hooks in Codex (its /hooks review) and review them with `mcp-guard review`"}
	}
	argv, err := CodexArgv(argv0, off, args)
	return argv, environ, err
}

// VettedNote is what a vetted-file launch of c with no settings handoff
// does to the reviewed entries c reads from the repository's own files
// (runs), in c's words, for the launch line ("" when nothing): Claude
// Code's plugins, whose hooks run while --strict-mcp-config keeps their
// MCP servers out.
func VettedNote(c Client, runs []*trust.Server) string {
	if d, ok := c.(interface {
		vettedNote(runs []*trust.Server) string
	}); ok {
		return d.vettedNote(runs)
	}
	return ""
}

// CodexBypassHookTrustFlag runs every enabled hook without Codex's
// persisted hook trust, for that invocation (0.169.0's --help: "Run
// enabled hooks without requiring persisted hook trust").
const CodexBypassHookTrustFlag = "--dangerously-bypass-hook-trust"

// CodexBypassesHookTrust says how args turn Codex's hook trust off ("" when
// they do not): the flag, or a -c/--config override of a key named
// bypass_hook_trust (0.169.0 reads a `bypass_hook_trust` override; which
// -c keys reach it is OPEN, so any such key counts, whatever its value).
// Every argument before `--` is read, a subcommand's included.
func CodexBypassesHookTrust(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if a == CodexBypassHookTrustFlag || strings.HasPrefix(a, CodexBypassHookTrustFlag+"=") {
			return CodexBypassHookTrustFlag
		}
		var kv string
		switch {
		case a == "-c" || a == "--config":
			if i+1 < len(args) {
				i++
				kv = args[i]
			}
		case strings.HasPrefix(a, "--config="):
			kv = strings.TrimPrefix(a, "--config=")
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			kv = strings.TrimPrefix(strings.TrimPrefix(a, "-c"), "=")
		}
		if key, _, _ := strings.Cut(kv, "="); strings.Contains(key, "bypass_hook_trust") {
			return "-c " + strings.TrimSpace(key)
		}
	}
	return ""
}

// DisableLaunch is the argv and environment `mcp-guard launch` starts a
// client whose Handover is HandDisableNames with: the project servers off
// turned off (CodexArgv, OpenCodeLaunchEnv), the user's arguments
// unchanged. unreviewed are the client's other entries (hooks) not
// reviewed at their current version, whether or not the client runs them
// now: a client whose arguments can make it run them refuses. An error
// refuses the launch.
func DisableLaunch(c Client, argv0 string, off, unreviewed, args, environ []string) ([]string, []string, error) {
	d, ok := c.(interface {
		disableLaunch(argv0 string, off, unreviewed, args, environ []string) ([]string, []string, error)
	})
	if !ok {
		return nil, nil, fmt.Errorf("%s cannot be handed a list of servers to turn off", c.Title())
	}
	return d.disableLaunch(argv0, off, unreviewed, args, environ)
}

// HintError is a refused DisableLaunch whose fix is not the usual one
// (renaming a server): Hint names it.
type HintError struct {
	Err  error
	Hint string
}

func (e HintError) Error() string { return e.Err.Error() }
func (e HintError) Unwrap() error { return e.Err }

// codexBareKey reports whether name is a bare TOML key: A-Z a-z 0-9 _ -.
func codexBareKey(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
