package trust

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Dialect switches the token-level reader and the server rules to another
// client's reading of an MCP configuration. agentty's own is Parse's and
// has no Dialect value: its behaviour does not depend on these switches.
type Dialect struct {
	// Client names the client in messages ("Claude Code").
	Client string
	// ServersKey is the one member servers are taken from; a file without
	// it as an object fails whole.
	ServersKey string
	// Lenient decodes text as a JavaScript runtime reading the file as
	// UTF-8 does: invalid UTF-8 and lone \u surrogates become U+FFFD
	// (recorded in Config.Lossy) instead of failing the file.
	Lenient bool
	// Infinity accepts a number too large for a double (1e400) as
	// JavaScript's Infinity instead of failing.
	Infinity bool
	// TrailingFails makes bytes after the first value fail the file.
	TrailingFails bool
	// SkipBadServers skips a server with a value of the wrong type (or no
	// command and no url), with a reason, while its siblings load.
	SkipBadServers bool
	// StringsOnly makes a non-string arg or env value a wrong type.
	StringsOnly bool
	// RemoteTypes are the type values under which an entry with a url is
	// a remote server (never spawned).
	RemoteTypes []string
	// URLIsRemote makes an entry with a url and no command a remote
	// server whatever its type; RemoteWithoutType only when it has no
	// type.
	URLIsRemote       bool
	RemoteWithoutType bool
	// HTTPURLKey names a second endpoint key that wins over url (Gemini
	// CLI's httpUrl, a Streamable HTTP endpoint: createUrlTransport in
	// 0.61.0 takes it first, whatever url and type say).
	HTTPURLKey string
	// Comments makes // and /* */ comments whitespace wherever whitespace
	// may stand, as strip-json-comments does before JSON.parse (an
	// unclosed /* runs to the end of the file); LineCommentCR ends a line
	// comment at a carriage return too, as JSONC readers do.
	Comments      bool
	LineCommentCR bool
	// TrailingCommas accepts a comma before a closing bracket or brace.
	TrailingCommas bool
	// BOMFails makes a leading UTF-8 BOM fail the file.
	BOMFails bool
	// ServersOptional: a file without ServersKey holds no servers and is
	// valid (a settings file with other keys).
	ServersOptional bool
	// EnvStringsOnly makes a non-string env value a wrong type even
	// without StringsOnly.
	EnvStringsOnly bool
	// JSStrings spawns a non-string arg as JavaScript's String(value)
	// ("42", "true", "1,2", "[object Object]") instead of its JSON text.
	JSStrings bool
	// Tolerant is for a client whose reader recovers from syntax errors
	// (or whose reader is not known exactly): a file this reader cannot
	// parse is Unreadable, what the client runs from it unknown, instead
	// of a file that runs nothing.
	Tolerant bool
	// EmptyNoServers: the client reads a 0-byte file as holding no
	// servers and goes on, so it is a valid file with none (its servers
	// removed), not a file that fails. Without it the client fails on the
	// empty file as on any syntax error (Gemini CLI aborts the run,
	// agentty stops every server): the file is invalid. Either way no
	// server comes from no bytes.
	EmptyNoServers bool
}

// ClaudeCode is Claude Code's `.mcp.json` as observed on 2.1.328
// (JSON.parse after a UTF-8 read; see clients-observed.md).
var ClaudeCode = &Dialect{
	Client:         "Claude Code",
	ServersKey:     "mcpServers",
	Lenient:        true,
	Infinity:       true,
	TrailingFails:  true,
	SkipBadServers: true,
	StringsOnly:    true,
	RemoteTypes:    []string{"http", "sse", "ws"},
	// Observed: a 0-byte .mcp.json gives no server and the other
	// .mcp.json files load (docs/fidelity.md, dialect-empty).
	EmptyNoServers: true,
}

// GeminiCLI is Gemini CLI's `.gemini/settings.json` as observed on 0.61.0
// (strip-json-comments, then JSON.parse after a UTF-8 read).
var GeminiCLI = &Dialect{
	Client:          "Gemini CLI",
	ServersKey:      "mcpServers",
	Lenient:         true,
	Infinity:        true,
	TrailingFails:   true,
	SkipBadServers:  true,
	EnvStringsOnly:  true,
	JSStrings:       true,
	Comments:        true,
	BOMFails:        true,
	ServersOptional: true,
	URLIsRemote:     true,
	HTTPURLKey:      "httpUrl",
}

// QwenCode is Qwen Code's `.qwen/settings.json`, modelled from the
// documentation shipped in its npm package (0.24.4), not observed: a
// Gemini CLI fork, read as Gemini CLI reads its settings, except that a
// file this reader cannot parse leaves what runs unknown.
var QwenCode = func() *Dialect {
	d := *GeminiCLI
	d.Client, d.Tolerant = "Qwen Code", true
	return &d
}()

// CopilotCLI is GitHub Copilot CLI's workspace `.mcp.json` and
// `.github/mcp.json` as observed on 1.0.102 (docs/copilot-cli.md): strict
// JSON (a comment or a trailing comma skips the file), `mcpServers`
// required, a server with a non-string arg or env value, or with neither
// command nor url, skipped while its siblings load; an entry with a url
// and no command, or of type http or sse, is connected to; so is one of
// type ws with a url, whose command does not start (observed:
// fidelity's ws-command scenario).
var CopilotCLI = &Dialect{
	Client:         "Copilot CLI",
	ServersKey:     "mcpServers",
	TrailingFails:  true,
	SkipBadServers: true,
	StringsOnly:    true,
	RemoteTypes:    []string{"http", "sse", "ws"},
	URLIsRemote:    true,
	// Observed: a 0-byte file is skipped with a warning, like any file
	// that does not parse, and the session goes on.
	EmptyNoServers: true,
}

// Codex is the JSON form of Codex's `[mcp_servers]` tables (the client
// package reads the TOML and hands the tables over): a wrong type or a
// server with neither command nor url fails every server.
var Codex = &Dialect{
	Client:          "Codex",
	ServersKey:      "mcp_servers",
	TrailingFails:   true,
	StringsOnly:     true,
	ServersOptional: true,
	URLIsRemote:     true,
	// Observed: a 0-byte config.toml is an empty layer (TOML allows it).
	EmptyNoServers: true,
}

// Cursor is Cursor's `.cursor/mcp.json`, modelled from its documentation
// (https://cursor.com/docs/mcp), never observed. The documentation
// does not say how the file is parsed: Cursor is a VS Code fork, so
// comments and trailing commas are accepted and a syntax error leaves
// what runs unknown (docs/cursor.md).
var Cursor = &Dialect{
	Client:            "Cursor",
	ServersKey:        "mcpServers",
	Lenient:           true,
	Infinity:          true,
	TrailingFails:     true,
	SkipBadServers:    true,
	RemoteTypes:       []string{"http", "sse", "streamable-http"},
	RemoteWithoutType: true,
	Comments:          true,
	TrailingCommas:    true,
	Tolerant:          true,
	LineCommentCR:     true,
	// An editor that does not abort on its config files: whatever its
	// reader makes of no bytes, no server comes from it (docs/cursor.md).
	EmptyNoServers: true,
}

// OpenCode is the normalised form of OpenCode's `mcp` entries (the client
// package reads opencode.json/opencode.jsonc, splits each local entry's
// command array into command and args and renames environment to env),
// as observed on OpenCode 1.18.33 (docs/opencode.md): JSON with comments
// and trailing commas; remote entries (type "remote") are connected to.
var OpenCode = &Dialect{
	Client:          "OpenCode",
	ServersKey:      "mcp",
	Lenient:         true,
	Infinity:        true,
	TrailingFails:   true,
	StringsOnly:     true,
	ServersOptional: true,
	RemoteTypes:     []string{"remote"},
	Comments:        true,
	TrailingCommas:  true,
	LineCommentCR:   true,
	// Observed: a 0-byte opencode.json gives no server and the other
	// project configs load (docs/fidelity.md, dialect-empty).
	EmptyNoServers: true,
}

// Cline is the normalised form of the hook files Cline 3.0.65 runs from a
// workspace's .clinerules/hooks and .cline/hooks (docs/cline.md): the
// client package builds one entry per hook file, the interpreter its first
// line or its extension names and the file's path; Cline reads no
// repository MCP configuration.
var Cline = &Dialect{
	Client:          "Cline",
	ServersKey:      "hooks",
	StringsOnly:     true,
	ServersOptional: true,
	TrailingFails:   true,
}

// Continue is .continue/environment.json as `cn serve`
// (@continuedev/cli 1.5.47) reads it (docs/continue.md): JSON.parse of
// readFileSync(path, "utf-8"), so invalid UTF-8 becomes U+FFFD, 1e400 is
// Infinity, and a byte order mark or bytes after the value fail the file
// (checked with node 20). The client package reads the file and builds
// the install command's entry in the normalised form; Continue's CLI
// reads no repository MCP configuration.
var Continue = &Dialect{
	Client:          "Continue",
	ServersKey:      "environment",
	Lenient:         true,
	Infinity:        true,
	BOMFails:        true,
	StringsOnly:     true,
	ServersOptional: true,
	TrailingFails:   true,
}

// VSCode is VS Code's `.vscode/mcp.json` (key "servers", JSONC), modelled
// from https://code.visualstudio.com/docs/copilot/reference/mcp-configuration,
// never observed. VS Code's JSONC reader recovers from syntax errors, so
// one leaves what runs unknown (docs/vscode.md).
var VSCode = &Dialect{
	Client:            "VS Code",
	ServersKey:        "servers",
	Lenient:           true,
	Infinity:          true,
	TrailingFails:     true,
	SkipBadServers:    true,
	RemoteTypes:       []string{"http", "sse"},
	RemoteWithoutType: true,
	Comments:          true,
	TrailingCommas:    true,
	Tolerant:          true,
	LineCommentCR:     true,
	// An editor that does not abort on its config files: whatever its
	// reader makes of no bytes, no server comes from it (docs/vscode.md).
	EmptyNoServers: true,
}

// Skipped is a server a client leaves out while loading its siblings.
type Skipped struct {
	Name   string
	Pos    Pos
	Reason string
}

// who names the client reading c in messages.
func (c *Config) who() string {
	if c.Dialect == nil {
		return "agentty"
	}
	return c.Dialect.Client
}

func (c *Config) nulText() string {
	if c.Dialect == nil {
		return "agentty hashes the bytes after it but the process never sees them"
	}
	return c.Dialect.Client + " passes it to the process, which cannot receive it"
}

// ParseDialect reads one MCP configuration in client dialect d (nil:
// agentty's, exactly Parse). Like Parse it always returns a Config: Err
// says why the client runs nothing from it, Skipped which servers it
// leaves out.
func ParseDialect(path string, data []byte, scope Scope, d *Dialect) *Config {
	return parseDialect(path, data, scope, d, nil)
}

// ParseDialectValue is ParseDialect that also returns the file's decoded
// root, as DecodeDialect would return it (the zero Value where that
// fails: a syntax error, bytes after the value, a file too large), from
// the one decode: for a client that reads more of the file than its
// servers (Gemini CLI's and Qwen Code's settings). d must not be nil.
func ParseDialectValue(path string, data []byte, scope Scope, d *Dialect) (*Config, Value) {
	var v Value
	c := parseDialect(path, data, scope, d, &v)
	return c, v
}

func parseDialect(path string, data []byte, scope Scope, d *Dialect, value *Value) *Config {
	if d == nil {
		return Parse(path, data, scope)
	}
	if len(data) > MaxFileSize {
		c := UnreadableConfig(path, scope, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(data), MaxFileSize))
		c.SHA256, c.Dialect = FileHash(data), d
		return c
	}
	c := &Config{Path: path, Scope: scope, Dialect: d, SHA256: FileHash(data)}
	if len(data) == 0 && d.EmptyNoServers {
		return c
	}
	root, end, lossy, err := decodeDialect(data, d, scope)
	if errors.Is(err, ErrTooManyValues) {
		return c.unread(err)
	}
	fail := func(pos Pos, err error) *Config {
		c.Err = err
		c.Servers, c.Skipped = nil, nil
		c.addFinding("MG301", pos, "", "", d.Client+" cannot read this file, so none of its servers run: "+err.Error())
		return c
	}
	unknown := func(err error) *Config {
		if !mayNameServer(data) {
			// Whatever the reader recovers, no entry has a command or a url.
			return fail(syntaxPos(err), fmt.Errorf("%w; no entry in it names a command or a url, so nothing can run", err))
		}
		u := UnreadableConfig(path, scope, fmt.Errorf("%s may still load servers from a file with a syntax error: %w", d.Client, err))
		u.SHA256, u.Dialect = c.SHA256, d
		return u
	}
	if err != nil {
		pos := Pos{Line: 1, Column: 1}
		var se *SyntaxError
		if errors.As(err, &se) {
			pos = se.Pos
			if d.Tolerant {
				return unknown(err)
			}
		}
		return fail(pos, err)
	}
	c.root, c.Lossy = root, lossy
	if value != nil && end == len(data) {
		*value = Value{v: root, src: data}
	}
	if end < len(data) && d.TrailingFails {
		r := &jsonReader{data: data, cLine: 1, cCol: 1}
		if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
			r.cOff = 3
		}
		pos := r.pos(end)
		se := &SyntaxError{Pos: pos, Msg: "unexpected " + describeByte(data, end) + " after the JSON value"}
		if d.Tolerant {
			return unknown(se)
		}
		return fail(pos, se)
	}
	if root.Kind != jsonObject {
		c.findDuplicates(root, nil)
		return fail(root.Pos(), fmt.Errorf("%w: the file is %s, not an object", ErrWrongType, root.Kind.withArticle()))
	}
	table, ok := root.get(d.ServersKey)
	if !ok || table.Value.Kind != jsonObject {
		c.findDuplicates(root, nil)
		switch {
		case !ok && d.ServersOptional:
			return c
		case d.ServersOptional && table.Value.Kind == jsonArray:
			// A JavaScript client spreads an array into names "0", "1", …:
			// what it runs from one is not modelled, so it is unknown.
			u := UnreadableConfig(path, scope, fmt.Errorf("%q is an array: what %s runs from it is not modelled", d.ServersKey, d.Client))
			u.SHA256, u.Dialect = c.SHA256, d
			return u
		case ok:
			return fail(table.KeyPos(), fmt.Errorf("%w: %q is %s, not an object", ErrWrongType, d.ServersKey, table.Value.Kind.withArticle()))
		case d.ServersKey == "mcpServers":
			if _, has := root.get("servers"); has {
				return fail(root.Pos(), errors.New(`Missing "mcpServers" — found "servers" instead`))
			}
		}
		return fail(root.Pos(), fmt.Errorf("Missing %q", d.ServersKey))
	}
	if err := serversOver(scope, len(table.Value.Members)); err != nil {
		return c.unread(err)
	}
	c.ServersKey = d.ServersKey
	c.findDuplicates(root, table.Value)
	var fatal []error
	for _, m := range resolvedMembers(table.Value) {
		s, why := c.dialectServer(m)
		switch {
		case why == "":
			c.Servers = append(c.Servers, s)
		case d.SkipBadServers:
			c.Skipped = append(c.Skipped, Skipped{Name: m.Key, Pos: m.KeyPos(), Reason: why})
			c.addFinding("MG307", m.KeyPos(), m.Key, d.ServersKey+"."+m.Key,
				fmt.Sprintf("%s skips server %q: %s", d.Client, m.Key, why))
		default:
			fatal = append(fatal, fmt.Errorf("server %q: %w: %s", m.Key, ErrWrongType, why))
		}
	}
	if len(fatal) > 0 {
		c.Err = errors.Join(fatal...)
		c.Servers = nil
	}
	return c
}

// mayNameServer reports whether a file a tolerant reader recovers from
// could hold a server: it spells "command" or "url" (in any case), or has
// an escape that could spell either.
func mayNameServer(data []byte) bool {
	lower := bytes.ToLower(data)
	return bytes.Contains(lower, []byte("command")) || bytes.Contains(lower, []byte("url")) || bytes.ContainsRune(data, '\\')
}

func syntaxPos(err error) Pos {
	var se *SyntaxError
	if errors.As(err, &se) {
		return se.Pos
	}
	return Pos{Line: 1, Column: 1}
}

// noCommandReason says why an entry with no command is skipped, naming
// the fix: the type the client wants for a url, or what is wrong with the
// type it has.
func noCommandReason(s *Server, d *Dialect) string {
	if s.URL == "" {
		return "it has neither a command nor a url, so nothing runs or connects (add a \"command\", or a \"url\" for a remote server)"
	}
	want := ""
	if len(d.RemoteTypes) > 0 {
		want = d.RemoteTypes[0]
	}
	if s.Type == "" {
		return fmt.Sprintf("it has a url but no \"type\", so %s neither connects to it nor runs anything (add \"type\": %q)", d.Client, want)
	}
	return fmt.Sprintf("its \"type\" %q is not one %s knows for a url (%s), so it neither connects nor runs anything (use \"type\": %q)",
		s.Type, d.Client, strings.Join(quoteAll(d.RemoteTypes), ", "), want)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// dialectServer reads one entry under c.Dialect; why says why the client
// does not load it ("" when it does).
func (c *Config) dialectServer(m jsonMember) (s *Server, why string) {
	d := c.Dialect
	if m.Value.Kind != jsonObject {
		return nil, fmt.Sprintf("the entry is %s, not an object", m.Value.Kind.withArticle())
	}
	e := m.Value
	s = &Server{Name: m.Key, NamePos: m.KeyPos(), entry: e}
	for _, k := range resolvedMembers(e) {
		s.Keys = append(s.Keys, k.Key)
	}
	str := func(key string) (string, string) {
		f, ok := e.get(key)
		if !ok {
			return "", ""
		}
		if f.Value.Kind != jsonString {
			return "", fmt.Sprintf("%s is %s, not a string", key, f.Value.Kind.withArticle())
		}
		return f.Value.Str, ""
	}
	for _, k := range []struct {
		key string
		to  *string
	}{{"command", &s.Command}, {"url", &s.URL}, {"type", &s.Type}} {
		v, bad := str(k.key)
		if bad != "" {
			return nil, bad
		}
		*k.to = v
	}
	httpURL := false
	if d.HTTPURLKey != "" {
		v, bad := str(d.HTTPURLKey)
		if bad != "" {
			return nil, bad
		}
		if v != "" {
			s.URL, httpURL = v, true
		}
	}
	if f, ok := e.get("args"); ok {
		if f.Value.Kind != jsonArray {
			return nil, fmt.Sprintf("args is %s, not an array", f.Value.Kind.withArticle())
		}
		s.Args = argsFor(f.Value)
		for i, el := range f.Value.Elems {
			if el.Kind != jsonString {
				if d.StringsOnly {
					return nil, fmt.Sprintf("args[%d] is %s, not a string", i, el.Kind.withArticle())
				}
				spawn := compactJSON(el)
				if d.JSStrings {
					spawn = jsString(el)
				}
				s.Args = append(s.Args, Arg{Spawn: spawn, Pos: el.Pos()})
				continue
			}
			s.Args = append(s.Args, Arg{IsString: true, Str: el.Str, Spawn: el.Str, Pos: el.Pos()})
		}
	}
	if f, ok := e.get("env"); ok {
		if f.Value.Kind != jsonObject {
			return nil, fmt.Sprintf("env is %s, not an object", f.Value.Kind.withArticle())
		}
		for _, v := range resolvedMembers(f.Value) {
			ev := EnvVar{Name: v.Key, Pos: v.KeyPos(), IsString: v.Value.Kind == jsonString}
			if !ev.IsString {
				if d.StringsOnly || d.EnvStringsOnly {
					return nil, fmt.Sprintf("env.%s is %s, not a string", v.Key, v.Value.Kind.withArticle())
				}
				ev.Value = compactJSON(v.Value)
			} else {
				ev.Value = v.Value.Str
			}
			s.Env = append(s.Env, ev)
		}
	}
	remote := d.URLIsRemote && s.URL != "" && s.Command == "" ||
		d.RemoteWithoutType && s.Type == "" && s.Command == "" && s.URL != ""
	for _, t := range d.RemoteTypes {
		remote = remote || (s.Type == t && s.URL != "")
	}
	switch {
	case remote:
		s.Transport = TransportHTTP
		if s.Type == "sse" && !httpURL {
			s.Transport = TransportSSE
		}
	case s.Command == "":
		// A command with type "http" but no url still spawns (over-
		// reporting is the sound side); without a command nothing can.
		return nil, noCommandReason(s, d)
	default:
		s.Transport = TransportStdio
	}
	s.Gated = c.Scope == ScopeProject && s.Transport == TransportStdio
	s.Fingerprint = Fingerprint(s.Command, s.URL, s.HashArgs())
	c.integrity(s, c.ServersKey+"."+m.Key)
	return s, ""
}

// Value returns the decoded value of one of the entry's keys (the winning
// duplicate), for the keys a client reads beyond Server's fields.
func (s *Server) Value(key string) (Value, bool) {
	if m, ok := s.entry.get(key); ok {
		return Value{v: m.Value}, true
	}
	return Value{}, false
}

// jsString is JavaScript's String(v) of a decoded value.
func jsString(v *jsonValue) string {
	switch v.Kind {
	case jsonString:
		return v.Str
	case jsonNull:
		return "null"
	case jsonBool:
		return strconv.FormatBool(v.Bool)
	case jsonNumber:
		return JSNumber(v.Num)
	case jsonObject:
		return "[object Object]"
	}
	// Array.prototype.join, nested arrays joined in turn and null
	// elements empty; an explicit stack, as nesting has no limit.
	type open struct {
		v    *jsonValue
		next int
	}
	var b strings.Builder
	stack := []open{{v: v}}
	for len(stack) > 0 {
		o := &stack[len(stack)-1]
		if o.next == len(o.v.Elems) {
			stack = stack[:len(stack)-1]
			continue
		}
		if o.next > 0 {
			b.WriteByte(',')
		}
		e := o.v.Elems[o.next]
		o.next++
		switch e.Kind {
		case jsonArray:
			stack = append(stack, open{v: e})
		case jsonNull:
		default:
			b.WriteString(jsString(e))
		}
	}
	return b.String()
}

// JSNumber is JavaScript's Number.prototype.toString() of f.
func JSNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	ax := n - 1
	if ax < 0 {
		ax = -ax
	}
	if k == 1 {
		return sign + digits + "e" + es + strconv.Itoa(ax)
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + strconv.Itoa(ax)
}

// Value is a read-only view of a decoded JSON value, for the other files a
// client reads (its settings), so that they go through this one reader.
type Value struct {
	v *jsonValue
	// src is the file v was decoded from (DecodeDialect's values and
	// theirs), for Source; nil for a server's entry.
	src []byte
}

// DecodeDialect decodes a whole JSON file of a repository in dialect d
// (nil: agentty's), within MaxRepoValues; bytes after the value fail it
// when d.TrailingFails or d is nil. A file of the user's own goes through
// DecodeUserDialect.
func DecodeDialect(data []byte, d *Dialect) (Value, error) {
	return decodeWhole(data, d, ScopeProject)
}

// DecodeUserDialect is DecodeDialect for a file of the user's own (their
// settings, state and approval files in HOME), within MaxValues: a
// repository-sized budget must never make the user's own file unreadable.
func DecodeUserDialect(data []byte, d *Dialect) (Value, error) {
	return decodeWhole(data, d, ScopeUser)
}

func decodeWhole(data []byte, d *Dialect, scope Scope) (Value, error) {
	if len(data) > MaxFileSize {
		return Value{}, Unreadable(fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(data), MaxFileSize))
	}
	v, end, _, err := decodeDialect(data, d, scope)
	if errors.Is(err, ErrTooManyValues) {
		return Value{}, Unreadable(err)
	}
	if err != nil {
		return Value{}, err
	}
	if end < len(data) {
		r := &jsonReader{data: data, cLine: 1, cCol: 1}
		return Value{}, &SyntaxError{Pos: r.pos(end), Msg: "unexpected " + describeByte(data, end) + " after the JSON value"}
	}
	return Value{v: v, src: data}, nil
}

// DecodeFirst decodes the first JSON value of data as agentty reads its
// other files (hooks.json, acp-agents.json: nlohmann::json, whose parser
// stops after the first value): a byte order mark skipped, the bytes
// after the value ignored, the last duplicate key winning. Values keep
// their positions in data. Its files are a repository's: MaxRepoValues.
func DecodeFirst(data []byte) (Value, error) {
	if len(data) > MaxFileSize {
		return Value{}, Unreadable(fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(data), MaxFileSize))
	}
	v, _, _, err := decodeDialect(data, nil, ScopeProject)
	if errors.Is(err, ErrTooManyValues) {
		return Value{}, Unreadable(err)
	}
	if err != nil {
		return Value{}, err
	}
	return Value{v: v, src: data}, nil
}

// Kind is "null", "boolean", "number", "string", "array" or "object";
// "" for the zero Value.
func (v Value) Kind() string {
	if v.v == nil {
		return ""
	}
	return v.v.Kind.String()
}

// Get returns the last member named key of an object.
func (v Value) Get(key string) (Value, bool) {
	m, ok := v.v.get(key)
	if !ok {
		return Value{}, false
	}
	return Value{v: m.Value, src: v.src}, true
}

// StringAt returns an object's member key when it is a string.
func (v Value) StringAt(key string) (string, bool) {
	m, ok := v.Get(key)
	if !ok {
		return "", false
	}
	return m.Str()
}

// KeyPos is where an object's last member named key starts (its key).
func (v Value) KeyPos(key string) (Pos, bool) {
	m, ok := v.v.get(key)
	if !ok {
		return Pos{}, false
	}
	return m.KeyPos(), true
}

// Keys returns an object's keys, each once (bytewise order).
func (v Value) Keys() []string {
	if v.v == nil || v.v.Kind != jsonObject {
		return nil
	}
	ms := resolvedMembers(v.v)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Key
	}
	return out
}

// Str returns a string's decoded text.
func (v Value) Str() (string, bool) {
	if v.v == nil || v.v.Kind != jsonString {
		return "", false
	}
	return v.v.Str, true
}

// Bool returns a boolean.
func (v Value) Bool() (b, ok bool) {
	if v.v == nil || v.v.Kind != jsonBool {
		return false, false
	}
	return v.v.Bool, true
}

// Elems returns an array's elements; nil for anything else.
func (v Value) Elems() []Value {
	if v.v == nil || v.v.Kind != jsonArray {
		return nil
	}
	out := make([]Value, len(v.v.Elems))
	for i, e := range v.v.Elems {
		out[i] = Value{v: e, src: v.src}
	}
	return out
}

// JSON is the value's compact JSON text.
func (v Value) JSON() string {
	if v.v == nil {
		return ""
	}
	return compactJSON(v.v)
}

// Source is the value's exact text in the file and where it starts (a
// byte offset), so a client can read a value nested in a larger file
// (VS Code's settings.mcp of a .code-workspace) with the file's own
// positions; nil for the zero Value and for a server's entry's values.
func (v Value) Source() (raw []byte, offset int) {
	if v.v == nil || v.src == nil {
		return nil, 0
	}
	return v.v.raw(v.src), int(v.v.at.off)
}

// Pos is where the value starts.
func (v Value) Pos() Pos {
	if v.v == nil {
		return Pos{}
	}
	return v.v.Pos()
}

// Num returns a number's value (±Inf for JavaScript's Infinity).
func (v Value) Num() float64 {
	if v.v == nil || v.v.Kind != jsonNumber {
		return 0
	}
	return v.v.Num
}
