package policy

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/trust"
)

// IgnoreFileName is the repository's own suppression file. Only `scan`
// reads it: the git hook, review and launch never do, so a repository can
// quiet its own CI but never a user's machine.
const IgnoreFileName = ".mcp-guard.yaml"

// IgnoreRule suppresses the findings it matches. Every selector that is
// given must match; at least one is given.
type IgnoreRule struct {
	// Rules are rule ids (MG204) or slugs (unpinned-package).
	Rules []string
	// Paths are globs over repository-relative paths: * and ? within one
	// path element, ** across elements ("examples/**", "**/.agentty/mcp.json").
	Paths []string
	// Servers are server names, globs allowed.
	Servers []string
	// Reason says why; required.
	Reason string
	// Line is where the entry starts in the file.
	Line int
}

// IgnoreFile is a parsed .mcp-guard.yaml.
type IgnoreFile struct {
	Path  string
	Rules []IgnoreRule
}

// ErrIgnoreFile reports a .mcp-guard.yaml that is not valid; a scan fails
// rather than guess what was meant to be suppressed.
var ErrIgnoreFile = errors.New("invalid ignore file")

// Match returns the first rule that suppresses f, or nil.
func (g *IgnoreFile) Match(f trust.Finding) *IgnoreRule {
	if g == nil {
		return nil
	}
	for i := range g.Rules {
		if g.Rules[i].matches(f) {
			return &g.Rules[i]
		}
	}
	return nil
}

func (r *IgnoreRule) matches(f trust.Finding) bool {
	if len(r.Rules) > 0 && !anyOf(r.Rules, func(s string) bool { return s == f.Rule || s == f.Slug }) {
		return false
	}
	if len(r.Paths) > 0 && !anyOf(r.Paths, func(s string) bool { return globMatch(s, f.Path) }) {
		return false
	}
	if len(r.Servers) > 0 && !anyOf(r.Servers, func(s string) bool { return f.Server != "" && globMatch(s, f.Server) }) {
		return false
	}
	return true
}

func anyOf(list []string, fn func(string) bool) bool {
	for _, s := range list {
		if fn(s) {
			return true
		}
	}
	return false
}

// globMatch matches a slash-separated path against a pattern where ** is
// any number of whole elements and other elements are path.Match patterns.
func globMatch(pattern, name string) bool {
	return globParts(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func globParts(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if globParts(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// ParseIgnoreFile reads a .mcp-guard.yaml. The format is a small, fixed
// subset of YAML, parsed strictly (anything outside it is an error naming
// the line, never a silent guess):
//
//	# comments
//	version: 1
//	ignore:
//	  - rule: MG204                 # or rules: [MG204, MG205]
//	    paths: ["examples/**"]      # or path: …, or a block list
//	    server: legacy-db           # or servers: …
//	    reason: pinned by renovate  # required
//
// Scalars may be plain, 'single-quoted' or "double-quoted"; lists may be
// flow ([a, b]) or block (- a). Anchors, aliases, tags, block scalars,
// flow mappings and tabs for indentation are refused.
func ParseIgnoreFile(name string, data []byte) (*IgnoreFile, error) {
	p := &yamlParser{name: name}
	if err := p.load(data); err != nil {
		return nil, err
	}
	g := &IgnoreFile{Path: name}
	if err := p.document(g); err != nil {
		return nil, err
	}
	return g, nil
}

// yamlLine is one meaningful line: its indentation and content with the
// comment removed.
type yamlLine struct {
	n      int
	indent int
	text   string
}

type yamlParser struct {
	name  string
	lines []yamlLine
	i     int
}

func (p *yamlParser) errf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %w: %s", p.name, line, ErrIgnoreFile, fmt.Sprintf(format, args...))
}

func (p *yamlParser) load(data []byte) error {
	if !utf8.Valid(data) {
		return p.errf(1, "not UTF-8")
	}
	s := strings.TrimPrefix(string(data), "\ufeff")
	for i, raw := range strings.Split(s, "\n") {
		n := i + 1
		raw = strings.TrimSuffix(raw, "\r")
		body := strings.TrimLeft(raw, " ")
		if strings.HasPrefix(body, "\t") {
			return p.errf(n, "tabs are not allowed for indentation")
		}
		text, err := stripComment(body)
		if err != nil {
			return p.errf(n, "%v", err)
		}
		text = strings.TrimRight(text, " \t")
		if text == "" {
			continue
		}
		if text == "---" && len(p.lines) == 0 {
			continue
		}
		if text == "---" || text == "..." {
			return p.errf(n, "only one YAML document is allowed")
		}
		p.lines = append(p.lines, yamlLine{n: n, indent: len(raw) - len(body), text: text})
	}
	return nil
}

// stripComment removes a # comment that is outside quotes and starts the
// line or follows a blank.
func stripComment(s string) (string, error) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'' && c == '\'':
			if i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			quote = 0
		case quote == '"' && c == '\\':
			i++
		case quote == '"' && c == '"':
			quote = 0
		case quote != 0:
		case (c == '\'' || c == '"') && (i == 0 || strings.IndexByte(" [,:-", s[i-1]) >= 0):
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i], nil
		}
	}
	if quote != 0 {
		return "", errors.New("unterminated quoted string")
	}
	return s, nil
}

func (p *yamlParser) peek() (yamlLine, bool) {
	if p.i < len(p.lines) {
		return p.lines[p.i], true
	}
	return yamlLine{}, false
}

// document parses the top-level mapping.
func (p *yamlParser) document(g *IgnoreFile) error {
	seen := map[string]bool{}
	for {
		l, ok := p.peek()
		if !ok {
			return nil
		}
		if l.indent != 0 {
			return p.errf(l.n, "unexpected indentation")
		}
		key, val, err := splitKey(l.text)
		if err != nil {
			return p.errf(l.n, "%v", err)
		}
		if seen[key] {
			return p.errf(l.n, "duplicate key %q", key)
		}
		seen[key] = true
		p.i++
		switch key {
		case "version":
			v, err := scalar(val)
			if err != nil {
				return p.errf(l.n, "%v", err)
			}
			if v != "1" {
				return p.errf(l.n, "version %q is not supported (want 1)", v)
			}
		case "ignore":
			if val != "" {
				if val == "[]" {
					continue
				}
				return p.errf(l.n, "ignore must be a list of entries, each on its own lines")
			}
			if err := p.ignoreList(g); err != nil {
				return err
			}
		default:
			return p.errf(l.n, "unknown key %q (want version or ignore)", key)
		}
	}
}

// ignoreList parses the entries of `ignore:`: a block sequence of
// mappings, at any indentation of zero or more.
func (p *yamlParser) ignoreList(g *IgnoreFile) error {
	first, ok := p.peek()
	if !ok || !isItem(first.text) {
		return nil
	}
	indent := first.indent
	for {
		l, ok := p.peek()
		if !ok || l.indent < indent || (l.indent == indent && !isItem(l.text)) {
			return nil
		}
		if l.indent != indent {
			return p.errf(l.n, "unexpected indentation")
		}
		r, err := p.entry(l)
		if err != nil {
			return err
		}
		g.Rules = append(g.Rules, r)
	}
}

func isItem(s string) bool { return s == "-" || strings.HasPrefix(s, "- ") }

// entry parses one `- key: value` mapping of the ignore list.
func (p *yamlParser) entry(start yamlLine) (IgnoreRule, error) {
	r := IgnoreRule{Line: start.n}
	seen := map[string]bool{}
	keyIndent := start.indent + 2
	text := strings.TrimSpace(strings.TrimPrefix(start.text, "-"))
	if text != "" {
		keyIndent = start.indent + 1 + (len(start.text[1:]) - len(strings.TrimLeft(start.text[1:], " ")))
	}
	p.i++
	handle := func(l yamlLine, kv string) error {
		key, val, err := splitKey(kv)
		if err != nil {
			return p.errf(l.n, "%v", err)
		}
		if seen[key] {
			return p.errf(l.n, "duplicate key %q", key)
		}
		seen[key] = true
		var list []string
		switch key {
		case "reason":
			v, err := scalar(val)
			if err != nil {
				return p.errf(l.n, "%v", err)
			}
			r.Reason = strings.TrimSpace(v)
			return nil
		case "rule", "path", "server":
			v, err := scalar(val)
			if err != nil {
				return p.errf(l.n, "%v", err)
			}
			list = []string{v}
		case "rules", "paths", "servers":
			if val == "" {
				list, err = p.blockList(keyIndent)
			} else {
				list, err = flowList(val)
			}
			if err != nil {
				return p.errf(l.n, "%v", err)
			}
		default:
			return p.errf(l.n, "unknown key %q (want rule(s), path(s), server(s) or reason)", key)
		}
		for _, v := range list {
			if v == "" {
				return p.errf(l.n, "%s: empty value", key)
			}
		}
		switch key {
		case "rule", "rules":
			for _, v := range list {
				if !knownRule(v) {
					return p.errf(l.n, "unknown rule %q (see `mcp-guard rules`)", v)
				}
			}
			r.Rules = append(r.Rules, list...)
		case "path", "paths":
			for _, v := range list {
				if _, err := path.Match(strings.ReplaceAll(v, "**", "*"), ""); err != nil {
					return p.errf(l.n, "bad path pattern %q", v)
				}
			}
			r.Paths = append(r.Paths, list...)
		case "server", "servers":
			r.Servers = append(r.Servers, list...)
		}
		return nil
	}
	if text != "" {
		if err := handle(start, text); err != nil {
			return r, err
		}
	}
	for {
		l, ok := p.peek()
		if !ok || l.indent < keyIndent || (l.indent <= start.indent) {
			break
		}
		if l.indent != keyIndent {
			return r, p.errf(l.n, "unexpected indentation")
		}
		p.i++
		if err := handle(l, l.text); err != nil {
			return r, err
		}
	}
	if len(r.Rules) == 0 && len(r.Paths) == 0 && len(r.Servers) == 0 {
		return r, p.errf(start.n, "the entry selects nothing: give rule(s), path(s) or server(s)")
	}
	if r.Reason == "" {
		return r, p.errf(start.n, "the entry has no reason: say why these findings are accepted")
	}
	return r, nil
}

// blockList parses `- value` lines indented more than the key.
func (p *yamlParser) blockList(keyIndent int) ([]string, error) {
	var out []string
	first, ok := p.peek()
	if !ok || first.indent < keyIndent || !isItem(first.text) {
		return nil, errors.New("empty list")
	}
	indent := first.indent
	for {
		l, ok := p.peek()
		if !ok || l.indent != indent || !isItem(l.text) {
			return out, nil
		}
		v, err := scalar(strings.TrimSpace(strings.TrimPrefix(l.text, "-")))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", l.n, err)
		}
		out = append(out, v)
		p.i++
	}
}

// splitKey splits "key: value" (value possibly empty).
func splitKey(s string) (key, val string, err error) {
	i := strings.Index(s, ":")
	for i >= 0 && i+1 < len(s) && s[i+1] != ' ' {
		j := strings.Index(s[i+1:], ":")
		if j < 0 {
			i = -1
			break
		}
		i += 1 + j
	}
	if i <= 0 {
		return "", "", fmt.Errorf("expected key: value, found %q", s)
	}
	key = s[:i]
	if strings.ContainsAny(key, "\"'{}[]&*!|>%@` ") {
		return "", "", fmt.Errorf("unsupported key %q", key)
	}
	return key, strings.TrimSpace(s[i+1:]), nil
}

// scalar decodes a plain, single-quoted or double-quoted scalar.
func scalar(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	switch s[0] {
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return "", fmt.Errorf("bad single-quoted string %s", s)
		}
		inner := s[1 : len(s)-1]
		if strings.Count(strings.ReplaceAll(inner, "''", ""), "'") != 0 {
			return "", fmt.Errorf("bad single-quoted string %s", s)
		}
		return strings.ReplaceAll(inner, "''", "'"), nil
	case '"':
		v, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("bad double-quoted string %s", s)
		}
		return v, nil
	case '&', '*', '!', '|', '>', '{', '[', '%', '@', '`':
		return "", fmt.Errorf("unsupported YAML construct %q", s)
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return "", fmt.Errorf("unexpected mapping in a value: %q", s)
	}
	return s, nil
}

// flowList decodes [a, "b", 'c'].
func flowList(s string) ([]string, error) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("expected a list like [a, b], found %q", s)
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	if inner == "" {
		return nil, errors.New("empty list")
	}
	var out []string
	for len(inner) > 0 {
		var item string
		switch inner[0] {
		case '"', '\'':
			end := closingQuote(inner)
			if end < 0 {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			item = inner[:end+1]
			inner = strings.TrimSpace(inner[end+1:])
		default:
			i := strings.IndexByte(inner, ',')
			if i < 0 {
				i = len(inner)
			}
			item = strings.TrimSpace(inner[:i])
			inner = inner[i:]
		}
		v, err := scalar(item)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if inner == "" {
			break
		}
		if inner[0] != ',' {
			return nil, fmt.Errorf("expected , in %q", s)
		}
		inner = strings.TrimSpace(inner[1:])
		if inner == "" {
			return nil, fmt.Errorf("trailing comma in %q", s)
		}
	}
	return out, nil
}

// closingQuote finds the index of the quote closing the string s starts.
func closingQuote(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q:
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			return i
		}
	}
	return -1
}

// knownRule reports a catalog id or slug.
func knownRule(s string) bool {
	for _, r := range trust.Rules {
		if r.ID == s || r.Slug == s {
			return true
		}
	}
	return false
}
