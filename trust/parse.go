package trust

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxFileSize is the largest configuration mcp-guard reads. Real ones are
// a few kilobytes; anything near this size is an attack or an accident.
// agentty reads files of any size: a larger one is Unreadable, not invalid.
const MaxFileSize = 16 << 20

// ErrTooLarge reports a file larger than MaxFileSize.
var ErrTooLarge = errors.New("file is too large")

// ErrWrongType reports a value of a type agentty fails on.
var ErrWrongType = errors.New("wrong type")

// Parse reads one MCP configuration as agentty's connect loop does (see the
// package doc and the compatibility spec). It always returns a Config; when
// agentty would run nothing from the file, or mcp-guard does not read it
// (larger than MaxFileSize, more values than ValueBudget(scope), a
// repository's file declaring more than MaxServers servers: Unreadable),
// Config.Err says why and Config.Servers is empty. Findings list every
// integrity problem seen on the way, whether or not the file is valid.
func Parse(path string, data []byte, scope Scope) *Config {
	if len(data) > MaxFileSize {
		c := UnreadableConfig(path, scope, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(data), MaxFileSize))
		c.SHA256 = FileHash(data)
		return c
	}
	c := &Config{Path: path, Scope: scope}
	c.SHA256 = FileHash(data)
	root, end, _, err := decodeDialect(data, nil, scope)
	if errors.Is(err, ErrTooManyValues) {
		return c.unread(err)
	}
	if err != nil {
		c.Err = err
		pos := Pos{Line: 1, Column: 1}
		var se *SyntaxError
		if errors.As(err, &se) {
			pos = se.Pos
		}
		c.addFinding("MG301", pos, "", "", "agentty cannot parse this file, so none of its servers run: "+err.Error())
		return c
	}
	c.root = root
	if end < len(data) {
		c.TrailingOffset = end
		r := &jsonReader{data: data, cLine: 1, cCol: 1}
		if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
			r.cOff = 3 // the BOM is not a column, as in decodeJSON
		}
		msg := "bytes after the first JSON value: agentty's connect loop runs the first value, while `agentty plugin list` shows nothing"
		if data[end] == 0 {
			// nlohmann's lexer takes a raw NUL for the end of input
			// wherever it occurs: every agentty reader stops here, and
			// what follows is seen only by editors, reviewers and other
			// tools.
			msg = "a NUL byte ends the JSON text here: agentty stops reading at it, so the bytes after it are shown by editors and other tools but never read by agentty"
		}
		c.addFinding("MG303", r.pos(end), "", "", msg)
	}
	if root.Kind != jsonObject {
		c.findDuplicates(root, nil)
	}

	var fatal []error
	if root.Kind == jsonObject {
		mcp, hasMCP := root.get("mcpServers")
		srv, hasSrv := root.get("servers")
		if hasMCP && hasSrv {
			c.addFinding("MG304", srv.KeyPos(), "", "servers",
				"both \"mcpServers\" and \"servers\" are present; agentty reads only one of them")
		}
		var table *jsonMember
		switch {
		case hasMCP && mcp.Value.Kind == jsonObject:
			table = mcp
		case hasSrv && srv.Value.Kind == jsonObject:
			table = srv
		}
		var tableValue *jsonValue // keys below its members name a server
		if table != nil {
			tableValue = table.Value
			if err := serversOver(scope, len(table.Value.Members)); err != nil {
				return c.unread(err)
			}
		}
		c.findDuplicates(root, tableValue)
		if table != nil {
			c.ServersKey = table.Key
			for _, m := range resolvedMembers(table.Value) {
				s, err := c.server(m)
				if err != nil {
					fatal = append(fatal, err)
					continue
				}
				c.Servers = append(c.Servers, s)
			}
		}
	}
	if len(fatal) > 0 {
		c.Err = errors.Join(fatal...)
		c.Servers = nil
	}
	return c
}

// MaxFindingsPerRule is how many findings of one rule a file reports; past
// it one more finding says that the rest are not listed. A hostile file
// can hold millions of duplicate keys or NUL bytes: listing each would
// cost gigabytes and minutes and tell the reader nothing more.
const MaxFindingsPerRule = 100

// full reports whether rule has no room left for another listed finding,
// so that callers can skip building its message.
func (c *Config) full(rule string) bool { return c.counts[rule] > MaxFindingsPerRule }

func (c *Config) addFinding(rule string, pos Pos, server, key, msg string) {
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	n := c.counts[rule]
	c.counts[rule] = n + 1
	switch {
	case n < MaxFindingsPerRule:
		c.Findings = append(c.Findings, NewFinding(rule, c.Path, pos, server, key, msg))
	case n == MaxFindingsPerRule:
		c.Findings = append(c.Findings, NewFinding(rule, c.Path, pos, "", "",
			fmt.Sprintf("more %s findings in this file are not listed (at most %d per rule and file)", rule, MaxFindingsPerRule)))
	}
}

// findDuplicates reports every duplicate key at every level. The members
// of table (the server table agentty reads, or nil) are servers: keys below
// one name it as server. Attribution follows the tree, not the key path,
// which is ambiguous when a name holds a dot.
//
// The walk keeps its own stack (nesting has no limit), and the path as a
// stack of parts joined only when a duplicate is reported: building every
// path eagerly costs depth x size on a hostile file.
func (c *Config) findDuplicates(root, table *jsonValue) {
	type open struct {
		v      *jsonValue
		next   int             // the next element or member to look at
		seen   map[string]bool // an object's keys so far
		server string
		at     int // len(at) for v's own path
	}
	var at []string
	stack := []open{{v: root}}
	for len(stack) > 0 {
		o := &stack[len(stack)-1]
		var child *jsonValue
		var part, srv string
		switch o.v.Kind {
		case jsonArray:
			for child == nil && o.next < len(o.v.Elems) {
				i := o.next
				o.next++
				if e := o.v.Elems[i]; e.Kind == jsonArray || e.Kind == jsonObject {
					child, part, srv = e, "["+strconv.Itoa(i)+"]", o.server
				}
			}
		case jsonObject:
			if o.seen == nil {
				o.seen = make(map[string]bool, len(o.v.Members))
			}
			for child == nil && o.next < len(o.v.Members) {
				m := o.v.Members[o.next]
				o.next++
				s := o.server
				if o.v == table {
					s = m.Key
				}
				if o.seen[m.Key] && !c.full("MG302") {
					p := joinKey(strings.Join(at[:o.at], ""), m.Key)
					c.addFinding("MG302", m.KeyPos(), s, p,
						fmt.Sprintf("duplicate key %q: %s keeps only the last one, replacing the earlier value", p, c.who()))
				}
				o.seen[m.Key] = true
				if m.Value.Kind == jsonArray || m.Value.Kind == jsonObject {
					child, part, srv = m.Value, m.Key, s
					if o.at > 0 {
						part = "." + part
					}
				}
			}
		}
		if child == nil {
			stack = stack[:len(stack)-1]
			continue
		}
		at = append(at[:o.at], part)
		stack = append(stack, open{v: child, server: srv, at: len(at)})
	}
}

func joinKey(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func (c *Config) server(m jsonMember) (*Server, error) {
	keyPath := c.ServersKey + "." + m.Key
	if m.Value.Kind != jsonObject {
		c.addFinding("MG307", m.KeyPos(), m.Key, keyPath,
			fmt.Sprintf("server %q is %s, not an object: agentty fails on it", m.Key, m.Value.Kind.withArticle()))
		return nil, fmt.Errorf("server %q: %w: entry is %s, not an object", m.Key, ErrWrongType, m.Value.Kind.withArticle())
	}
	e := m.Value
	s := &Server{Name: m.Key, NamePos: m.KeyPos(), entry: e}
	for _, k := range resolvedMembers(e) {
		s.Keys = append(s.Keys, k.Key)
	}
	var errs []error
	str := func(key string) string {
		f, ok := e.get(key)
		if !ok {
			return ""
		}
		if f.Value.Kind != jsonString {
			c.addFinding("MG307", f.KeyPos(), s.Name, keyPath+"."+key,
				fmt.Sprintf("server %q: %q is %s, not a string: agentty fails on it", s.Name, key, f.Value.Kind.withArticle()))
			errs = append(errs, fmt.Errorf("server %q: %w: %s is %s, not a string", s.Name, ErrWrongType, key, f.Value.Kind.withArticle()))
			return ""
		}
		return f.Value.Str
	}
	s.Command = str("command")
	s.URL = str("url")
	s.Type = str("type")

	if f, ok := e.get("disabled"); ok {
		switch f.Value.Kind {
		case jsonBool:
			s.Disabled = f.Value.Bool
		default:
			c.addFinding("MG309", f.KeyPos(), s.Name, keyPath+".disabled",
				fmt.Sprintf("server %q: disabled is %s, not a boolean: agentty treats the server as enabled", s.Name, compactJSON(f.Value)))
		}
	}
	if f, ok := e.get("args"); ok {
		if f.Value.Kind != jsonArray {
			c.addFinding("MG307", f.KeyPos(), s.Name, keyPath+".args",
				fmt.Sprintf("server %q: args is %s, not an array", s.Name, f.Value.Kind.withArticle()))
			errs = append(errs, fmt.Errorf("server %q: %w: args is %s, not an array", s.Name, ErrWrongType, f.Value.Kind.withArticle()))
		} else {
			s.Args = argsFor(f.Value)
			for _, el := range f.Value.Elems {
				a := Arg{Pos: el.Pos()}
				if el.Kind == jsonString {
					a.IsString, a.Str, a.Spawn = true, el.Str, cutNUL(el.Str)
				} else {
					a.Spawn = cutNUL(compactJSON(el))
				}
				s.Args = append(s.Args, a)
			}
		}
	}
	if f, ok := e.get("env"); ok {
		if f.Value.Kind != jsonObject {
			c.addFinding("MG307", f.KeyPos(), s.Name, keyPath+".env",
				fmt.Sprintf("server %q: env is %s, not an object", s.Name, f.Value.Kind.withArticle()))
			errs = append(errs, fmt.Errorf("server %q: %w: env is %s, not an object", s.Name, ErrWrongType, f.Value.Kind.withArticle()))
		} else {
			for _, v := range resolvedMembers(f.Value) {
				ev := EnvVar{Name: v.Key, Pos: v.KeyPos(), IsString: v.Value.Kind == jsonString}
				if ev.IsString {
					ev.Value = v.Value.Str
				} else {
					ev.Value = compactJSON(v.Value)
				}
				s.Env = append(s.Env, ev)
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	switch {
	case s.URL != "", s.Type == "http", s.Type == "streamable-http":
		s.Transport = TransportHTTP
		if s.Type == "sse" {
			s.Transport = TransportSSE
		}
	case s.Type == "sse":
		s.Transport = TransportSSE
	default:
		s.Transport = TransportStdio
	}
	s.Gated = c.Scope == ScopeProject && !s.Disabled && s.Command != "" && s.URL == ""
	s.Fingerprint = Fingerprint(s.Command, s.URL, s.HashArgs())
	c.integrity(s, keyPath)
	return s, nil
}

// integrity reports NULs and deceptive characters in what agentty spawns
// or shows.
func (c *Config) integrity(s *Server, keyPath string) {
	nul := func(key string, pos Pos, v string) {
		if !c.full("MG104") && strings.IndexByte(v, 0) >= 0 {
			c.addFinding("MG104", pos, s.Name, keyPath+"."+key,
				fmt.Sprintf("server %q: %s contains a NUL byte: %s", s.Name, key, c.nulText()))
		}
	}
	deceptive := func(key string, pos Pos, v string) {
		if !c.full("MG308") && Deceptive(v) {
			c.addFinding("MG308", pos, s.Name, keyPath+"."+key,
				fmt.Sprintf("server %q: %s contains control, escape, bidi or invisible characters that can make it look like something else", s.Name, key))
		}
	}
	deceptive("name", s.NamePos, s.Name)
	for _, key := range []string{"command", "url", "type"} {
		if v, ok := s.entry.get(key); ok && v.Value.Kind == jsonString {
			nul(key, v.KeyPos(), v.Value.Str)
			deceptive(key, v.KeyPos(), v.Value.Str)
		}
	}
	for i, a := range s.Args {
		k := fmt.Sprintf("args[%d]", i)
		if a.IsString {
			nul(k, a.Pos, a.Str)
			deceptive(k, a.Pos, a.Str)
		}
	}
	for _, ev := range s.Env {
		k := "env." + ev.Name
		nul(k, ev.Pos, ev.Name+"="+ev.Value)
		deceptive(k, ev.Pos, ev.Name+"="+ev.Value)
	}
}
