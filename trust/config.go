// Package trust knows agentty's rules: how it reads an MCP configuration,
// which servers it gates, how it fingerprints them and how it stores the
// user's approvals; and mcp-guard's own stronger model on top of them (deep
// fingerprints, diffs, reviews). It never prints or talks to git: it reads
// the files it is told to read and returns data. The only files it writes
// are the user's own state, each under its lock: the approvals store
// (UpdateApprovals), the review ledger (UpdateLedger) and its audit log
// (AppendAudit).
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"

	"github.com/mcp-guard/mcp-guard/internal/filekind"
)

// Scope says where a configuration came from, which decides whether agentty
// gates its servers.
type Scope string

const (
	// ScopeProject is <launch dir>/.agentty/mcp.json: gated.
	ScopeProject Scope = "project"
	// ScopeUser is $HOME/.agentty/mcp.json: never gated.
	ScopeUser Scope = "user"
	// ScopeExplicit is the file named by $AGENTTY_MCP_CONFIG: never gated.
	ScopeExplicit Scope = "explicit"
	// ScopeNone means agentty uses no MCP configuration at all.
	ScopeNone Scope = "none"
)

// Transport is how agentty talks to a server.
type Transport string

const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http"
	TransportSSE   Transport = "sse"
)

// Config is one parsed MCP configuration file.
type Config struct {
	// Path is the file's path as the caller named it (repository-relative
	// for files read from git).
	Path  string
	Scope Scope
	// SHA256 is the lowercase hex SHA-256 of the raw bytes: agentty's
	// whole-file approval hash. Empty when there is no file.
	SHA256 string
	// Err is why agentty would run nothing from this file (parse error,
	// wrong types), or, when it matches ErrUnreadable, why mcp-guard did
	// not read it (then what agentty runs from it is unknown); nil when
	// the file is valid.
	Err error
	// ServersKey is "mcpServers" or "servers": the member agentty takes the
	// servers from; empty when neither is an object.
	ServersKey string
	// Servers in agentty's order (bytewise by name), one per name after
	// duplicate resolution.
	Servers []*Server
	// Findings are integrity problems found while parsing (MG3xx).
	Findings []Finding
	// TrailingOffset is where bytes after the first JSON value start; 0
	// when there are none.
	TrailingOffset int

	// Dialect is the client dialect the file was read in; nil for
	// agentty's (Parse).
	Dialect *Dialect
	// Skipped are the servers the client leaves out while loading their
	// siblings (ParseDialect with SkipBadServers); agentty skips none.
	Skipped []Skipped
	// Lossy lists where the client replaced invalid text by U+FFFD
	// (Dialect.Lenient): what runs differs from the bytes a reviewer sees.
	Lossy []Pos

	root *jsonValue
	// counts findings per rule, for MaxFindingsPerRule.
	counts map[string]int
}

// Valid reports whether agentty would read this file without failing and
// mcp-guard read it. An invalid file blocks the launch either way.
func (c *Config) Valid() bool { return c.Err == nil }

// ErrUnreadable is matched (errors.Is) by the Err of a file mcp-guard did
// not read, by a limit of its own (MaxFileSize, MaxValues) or because it
// does not follow the path there. agentty has none of these limits: it may
// run servers from such a file, and nobody knows which.
var ErrUnreadable = errors.New("mcp-guard cannot read this file")

type unreadableError struct{ reason error }

func (e *unreadableError) Error() string        { return e.reason.Error() }
func (e *unreadableError) Unwrap() error        { return e.reason }
func (e *unreadableError) Is(target error) bool { return target == ErrUnreadable }

// Unreadable marks reason as why mcp-guard did not read a file, so that
// errors.Is(err, ErrUnreadable) holds; its text stays reason's.
func Unreadable(reason error) error { return &unreadableError{reason: reason} }

// Unreadable reports whether mcp-guard did not read the file (see
// ErrUnreadable): unlike an invalid one, agentty may run its servers.
func (c *Config) Unreadable() bool { return c != nil && errors.Is(c.Err, ErrUnreadable) }

// UnreadableText says what a file mcp-guard did not read means; "" when
// it read it. A project's blocks the launch; the user's own does not.
func (c *Config) UnreadableText() string {
	if !c.Unreadable() {
		return ""
	}
	if c.Scope != ScopeProject {
		return "mcp-guard cannot read this file (" + c.Err.Error() + "); what agentty runs from it is unknown"
	}
	return "mcp-guard cannot read this file (" + c.Err.Error() + "); nothing in it counts as reviewed and launch stays blocked"
}

// UnreadableConfig is a configuration mcp-guard did not read: Err is
// Unreadable(reason) and one MG310 finding says so.
func UnreadableConfig(path string, scope Scope, reason error) *Config {
	c := &Config{Path: path, Scope: scope, Err: Unreadable(reason)}
	c.addFinding("MG310", Pos{Line: 1, Column: 1}, "", "", c.UnreadableText())
	return c
}

// unread is c, a file mcp-guard did not read after all (its own limits):
// UnreadableConfig with c's hash and dialect.
func (c *Config) unread(reason error) *Config {
	u := UnreadableConfig(c.Path, c.Scope, reason)
	u.SHA256, u.Dialect = c.SHA256, c.Dialect
	return u
}

// InvalidText says why the configuration at path cannot be read: "cannot
// read PATH: not a regular file (a FIFO)" for what is not a regular file
// (check, review, scan and diff say it alike), else "cannot read the
// configuration: ERR".
func InvalidText(path string, err error) string {
	var fe *filekind.Error
	if errors.As(err, &fe) {
		return "cannot read " + path + ": " + fe.Error()
	}
	return "cannot read the configuration: " + err.Error()
}

// InvalidConfig is a configuration that could not be read at path: MG301
// where the agent would fail on it too; MG310 where the path is not a
// regular file (a FIFO, a directory, a device) or the system would not
// open it (a symlink loop, a denied read), since what an agent reads from
// it is unknown and a scan must never pass it as a broken file that runs
// nothing.
func InvalidConfig(path string, scope Scope, err error) *Config {
	c := &Config{Path: path, Scope: scope, Err: err}
	rule := "MG301"
	var fe *filekind.Error
	var pe *fs.PathError
	if errors.As(err, &fe) || errors.As(err, &pe) {
		rule = "MG310"
	}
	c.addFinding(rule, Pos{Line: 1, Column: 1}, "", "", InvalidText(path, err))
	return c
}

// Server finds a server by name.
func (c *Config) Server(name string) *Server {
	for _, s := range c.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// EnvVar is one entry of a server's env, as agentty passes it to the child.
type EnvVar struct {
	Name string
	// Value is what the child sees: strings as they are, other JSON values
	// as their compact JSON text.
	Value string
	// IsString is false when the JSON value was not a string.
	IsString bool
	Pos      Pos
}

// Arg is one element of a server's args.
type Arg struct {
	// Spawn is what reaches the child's argv: the string cut at its first
	// NUL, or a non-string's compact JSON text.
	Spawn string
	// IsString reports whether the JSON element was a string (only strings
	// are hashed).
	IsString bool
	// Str is the full decoded string (NULs kept) when IsString.
	Str string
	Pos Pos
}

// argsFor is room for the arguments of array v, allocated once: appended
// one by one, a server of many arguments held up to twice their size (a
// file at the repository's value budget, 1,000 servers of 196 arguments,
// kept 22 MB of them). nil for none, as before.
func argsFor(v *jsonValue) []Arg {
	if len(v.Elems) == 0 {
		return nil
	}
	return make([]Arg, 0, len(v.Elems))
}

// Server is one entry of a configuration as agentty sees it.
type Server struct {
	Name    string
	NamePos Pos
	// Transport follows agentty: http/sse when url is non-empty or type
	// names an http transport, stdio otherwise.
	Transport Transport
	// Command, URL and Type are the decoded strings (NULs kept).
	Command string
	URL     string
	Type    string
	Args    []Arg
	Env     []EnvVar
	// Disabled is true only for JSON true, as in agentty.
	Disabled bool
	// Gated reports whether agentty asks for approval before spawning it:
	// a project entry that is not disabled, with a command and no url.
	Gated bool
	// Fingerprint is agentty's per-server fingerprint; empty when command
	// and url are both empty.
	Fingerprint string
	// Keys lists the entry's keys in bytewise order (unknown ones included).
	Keys []string
	// Kind is what the entry is besides an MCP server, in its client's
	// words ("hook", "statusLine", "headersHelper"): a command the client
	// runs from a repository file (CommandEntry); "" for an MCP server.
	Kind string
	// Of is the server an entry belongs to (a server's headersHelper), ""
	// when it stands on its own.
	Of string
	// Trees are the directories (relative to the launch directory) the
	// client runs an entry's code from besides its command line (a
	// plugin's marketplace), bound whole; Remote says where its code
	// comes from when that is outside the repository ("" when it is not).
	Trees  []string
	Remote string
	// Shown, when set, is what people are shown of an entry that runs
	// nothing itself, word by word as the repository wrote them, in place
	// of the stand-in command line it is modelled with (Claude Code's
	// settings env: `env NAME=VALUE …`, not `/bin/sh -c ': …'`). It is
	// no part of what is fingerprinted or gated.
	Shown []string
	// Exec: Shown is the argv the client spawns without a shell, modelled
	// as `/bin/sh -c` of its words quoted (Claude Code's exec-form hook:
	// its command and args); each word is shown as one shell word.
	Exec bool

	entry *jsonValue
}

// HashArgs is agentty's hash view of args: the string elements in order.
func (s *Server) HashArgs() []string {
	var out []string
	for _, a := range s.Args {
		if a.IsString {
			out = append(out, a.Str)
		}
	}
	return out
}

// SpawnArgs is what the child's argv holds after the command.
func (s *Server) SpawnArgs() []string {
	out := make([]string, len(s.Args))
	for i, a := range s.Args {
		out[i] = a.Spawn
	}
	return out
}

// SpawnCommand is the command as execvp sees it (cut at the first NUL).
func (s *Server) SpawnCommand() string { return cutNUL(s.Command) }

// KeyPos returns the position of one of the entry's keys (the last
// duplicate), or the name's position when the key is absent.
func (s *Server) KeyPos(key string) Pos {
	if m, ok := s.entry.get(key); ok {
		return m.KeyPos()
	}
	return s.NamePos
}

// Relocate gives the entry, its keys and every value below them the
// positions at(key) says ("" is the entry's own): for a client whose
// servers are read from a normalised form of its file (OpenCode's command
// arrays), so that findings point into the file itself.
func (s *Server) Relocate(at func(key string) Pos) {
	s.NamePos = at("")
	if s.entry == nil {
		return
	}
	s.entry.setPos(s.NamePos)
	for i := range s.entry.Members {
		m := &s.entry.Members[i]
		m.setKeyPos(at(m.Key))
		relocate(m.Value, m.KeyPos())
	}
	for i := range s.Args {
		s.Args[i].Pos = at("args")
	}
	for i := range s.Env {
		s.Env[i].Pos = at("env")
	}
}

func relocate(v *jsonValue, p Pos) {
	if v == nil {
		return
	}
	v.setPos(p)
	for _, e := range v.Elems {
		relocate(e, p)
	}
	for i := range v.Members {
		v.Members[i].setKeyPos(p)
		relocate(v.Members[i].Value, p)
	}
}

// Member returns the raw JSON text of one of the entry's keys (the winning
// duplicate) and whether it is present. It is for canonical forms and
// field-level diffs.
func (s *Server) Member(key string) (string, bool) {
	if m, ok := s.entry.get(key); ok {
		return compactJSON(m.Value), true
	}
	return "", false
}

// StringMember returns the decoded text of one of the entry's keys (the
// winning duplicate) when it is a string.
func (s *Server) StringMember(key string) (string, bool) {
	if m, ok := s.entry.get(key); ok && m.Value.Kind == jsonString {
		return m.Value.Str, true
	}
	return "", false
}

// Canonical is the entry in a canonical JSON form: every key once (the
// winning duplicate), keys in bytewise order at every level, JSON types
// kept, numbers as agentty would pass them. Two entries agentty treats
// identically in every respect have the same canonical form.
func (s *Server) Canonical() string {
	if s.entry == nil {
		return ""
	}
	return compactJSON(s.entry)
}

// FileHash is agentty's whole-file approval hash: lowercase hex SHA-256 of
// the raw bytes.
func FileHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func cutNUL(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i]
		}
	}
	return s
}
