package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
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

// MaxIgnoreFileSize bounds .mcp-guard.yaml, which comes from the
// repository being scanned: a YAML library holds every value of the file
// as a node, so a hostile file costs about a hundred times its size in
// memory (1 MiB of "[a,a,…" takes some 100 MB and a second or two).
// Real suppression files are a few kilobytes.
const MaxIgnoreFileSize = 1 << 20

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

// ParseIgnoreFile reads a .mcp-guard.yaml. It is YAML, read with a YAML
// library, and held to a small, fixed shape (anything outside it is an
// error naming the line, never a silent guess):
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
// flow ([a, b]) or block (- a). The file comes from the repository being
// scanned, so whatever could make reading it costly or ambiguous is
// refused: anchors and aliases (no alias bombs), tags, merge keys, block
// scalars, flow mappings, duplicate keys, unknown keys, more than one
// document, tabs for indentation, and a file over MaxIgnoreFileSize.
func ParseIgnoreFile(name string, data []byte) (*IgnoreFile, error) {
	p := &ignoreParser{name: name}
	doc, err := p.load(data)
	if err != nil {
		return nil, err
	}
	g := &IgnoreFile{Path: name}
	if doc == nil {
		return g, nil
	}
	if err := p.document(doc, g); err != nil {
		return nil, err
	}
	return g, nil
}

type ignoreParser struct {
	name string
}

// errf formats an error at line (0 when the library names none).
func (p *ignoreParser) errf(line int, format string, args ...any) error {
	if line <= 0 {
		return fmt.Errorf("%s: %w: %s", p.name, ErrIgnoreFile, fmt.Sprintf(format, args...))
	}
	return fmt.Errorf("%s:%d: %w: %s", p.name, line, ErrIgnoreFile, fmt.Sprintf(format, args...))
}

// load decodes the one YAML document of data into a node tree (which keeps
// line numbers and never expands an alias), and refuses what the format
// does not use. It returns nil for a file with no document (empty, or
// comments only).
func (p *ignoreParser) load(data []byte) (*yaml.Node, error) {
	if len(data) > MaxIgnoreFileSize {
		return nil, p.errf(0, "%d bytes, more than the limit of %d", len(data), MaxIgnoreFileSize)
	}
	if !utf8.Valid(data) {
		return nil, p.errf(1, "not UTF-8")
	}
	// The library's own message for a tab in the indentation ("found
	// character that cannot start any token") does not say what is wrong.
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "\t") {
			return nil, p.errf(i+1, "tabs are not allowed for indentation")
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, p.libraryErr(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, p.libraryErr(err)
	default:
		return nil, p.errf(next.Line, "only one YAML document is allowed")
	}
	if err := p.refuseConstructs(&doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

var yamlErrLine = lazyre.Regexp{Expr: `^yaml: line ([0-9]+): (.*)$`}

// yamlHints complete the library's messages that leave the likely cause
// unsaid.
var yamlHints = map[string]string{
	"found unexpected end of stream":                 "an unterminated quoted string?",
	"did not find expected ',' or ']'":               "an unclosed list [a, b]?",
	"mapping values are not allowed in this context": "a key at the wrong indentation, or a value with \": \" that needs quotes?",
	"did not find expected key":                      "a key at the wrong indentation?",
	"did not find expected '-' indicator":            "a list item at the wrong indentation?",
}

// libraryErr turns a YAML library error into this file's error format.
func (p *ignoreParser) libraryErr(err error) error {
	msg := err.Error()
	line := 0
	if m := yamlErrLine.Get().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if strings.HasPrefix(msg, "unknown anchor") {
		return p.errf(line, "%s (anchors and aliases are not allowed)", msg)
	}
	if h, ok := yamlHints[msg]; ok {
		msg += " (" + h + ")"
	}
	return p.errf(line, "%s", msg)
}

// refuseConstructs walks the whole tree (at most the library's nesting
// limit deep) and refuses anchors, aliases, explicit tags, merge keys,
// block scalars and flow mappings wherever they are.
func (p *ignoreParser) refuseConstructs(n *yaml.Node) error {
	switch {
	case n.Kind == yaml.AliasNode:
		return p.errf(n.Line, "unsupported YAML: alias *%s (anchors and aliases are not allowed)", n.Value)
	case n.Anchor != "":
		return p.errf(n.Line, "unsupported YAML: anchor &%s (anchors and aliases are not allowed)", n.Anchor)
	case n.Style&yaml.TaggedStyle != 0:
		return p.errf(n.Line, "unsupported YAML: tag %s (tags are not allowed)", n.Tag)
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return p.errf(n.Line, "unsupported YAML: block scalar (| or >); write the value on one line, quoted if need be")
	case n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0:
		return p.errf(n.Line, "unsupported YAML: flow mapping {…}; write each key on its own line")
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			if c.Kind == yaml.ScalarNode && c.ShortTag() == "!!merge" {
				return p.errf(c.Line, "unsupported YAML: merge key << (merge keys are not allowed)")
			}
			if c.Kind != yaml.ScalarNode {
				return p.errf(c.Line, "unsupported key: a key must be a plain word")
			}
		}
		if err := p.refuseConstructs(c); err != nil {
			return err
		}
	}
	return nil
}

// mappingPairs returns a mapping's key/value pairs, refusing duplicate
// keys: a YAML library would keep one of them, and a suppression file must
// not mean something other than what a reader of either copy sees.
func (p *ignoreParser) mappingPairs(m *yaml.Node) ([][2]*yaml.Node, error) {
	seen := map[string]int{}
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if first, dup := seen[k.Value]; dup {
			return nil, p.errf(k.Line, "duplicate key %q (first at line %d)", k.Value, first)
		}
		seen[k.Value] = k.Line
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out, nil
}

// isNull reports an empty value (`key:` with nothing after it).
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" && n.Value == "" && n.Style == 0
}

// document reads the top-level mapping.
func (p *ignoreParser) document(root *yaml.Node, g *IgnoreFile) error {
	if isNull(root) {
		return nil
	}
	if root.Kind != yaml.MappingNode {
		return p.errf(root.Line, "expected key: value lines (version, ignore), found %s", describeNode(root))
	}
	pairs, err := p.mappingPairs(root)
	if err != nil {
		return err
	}
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "version":
			s, err := p.scalar(k, v)
			if err != nil {
				return err
			}
			if s != "1" {
				return p.errf(k.Line, "version %q is not supported (want 1)", s)
			}
		case "ignore":
			if err := p.ignoreList(k, v, g); err != nil {
				return err
			}
		default:
			return p.errf(k.Line, "unknown key %q (want version or ignore)", k.Value)
		}
	}
	return nil
}

// ignoreList reads the entries of `ignore:`, a list of mappings.
func (p *ignoreParser) ignoreList(k, v *yaml.Node, g *IgnoreFile) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return p.errf(k.Line, "ignore must be a list of entries, each on its own lines")
	}
	for _, item := range v.Content {
		if item.Kind != yaml.MappingNode {
			return p.errf(item.Line, "ignore must be a list of entries, each on its own lines")
		}
		r, err := p.entry(item)
		if err != nil {
			return err
		}
		g.Rules = append(g.Rules, r)
	}
	return nil
}

// entry reads one mapping of the ignore list.
func (p *ignoreParser) entry(m *yaml.Node) (IgnoreRule, error) {
	r := IgnoreRule{Line: m.Line}
	pairs, err := p.mappingPairs(m)
	if err != nil {
		return r, err
	}
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		key := k.Value
		var list []string
		switch key {
		case "reason":
			s, err := p.scalar(k, v)
			if err != nil {
				return r, err
			}
			r.Reason = strings.TrimSpace(s)
			continue
		case "rule", "path", "server":
			s, err := p.scalar(k, v)
			if err != nil {
				return r, err
			}
			list = []string{s}
		case "rules", "paths", "servers":
			if list, err = p.list(k, v); err != nil {
				return r, err
			}
		default:
			return r, p.errf(k.Line, "unknown key %q (want rule(s), path(s), server(s) or reason)", key)
		}
		for _, s := range list {
			if s == "" {
				return r, p.errf(k.Line, "%s: empty value", key)
			}
		}
		switch key {
		case "rule", "rules":
			for _, s := range list {
				if !knownRule(s) {
					return r, p.errf(k.Line, "unknown rule %q (see `mcp-guard rules`)", s)
				}
			}
			r.Rules = append(r.Rules, list...)
		case "path", "paths":
			for _, s := range list {
				if _, err := path.Match(strings.ReplaceAll(s, "**", "*"), ""); err != nil {
					return r, p.errf(k.Line, "bad path pattern %q", s)
				}
			}
			r.Paths = append(r.Paths, list...)
		case "server", "servers":
			r.Servers = append(r.Servers, list...)
		}
	}
	if len(r.Rules) == 0 && len(r.Paths) == 0 && len(r.Servers) == 0 {
		return r, p.errf(m.Line, "the entry selects nothing: give rule(s), path(s) or server(s)")
	}
	if r.Reason == "" {
		return r, p.errf(m.Line, "the entry has no reason: say why these findings are accepted")
	}
	return r, nil
}

// scalar is the text of a scalar value, exactly as written (after
// unquoting): `server: 123` names the server "123", `version: 1` is "1".
// An empty value is "".
func (p *ignoreParser) scalar(k, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", p.errf(k.Line, "%s: expected a single value, found %s", k.Value, describeNode(v))
	}
	return v.Value, nil
}

// list is the items of a list value, each a scalar.
func (p *ignoreParser) list(k, v *yaml.Node) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.errf(k.Line, "%s: expected a list like [a, b], found %s", k.Value, describeNode(v))
	}
	if len(v.Content) == 0 {
		return nil, p.errf(k.Line, "%s: empty list", k.Value)
	}
	out := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, p.errf(item.Line, "%s: expected a list of single values, found %s", k.Value, describeNode(item))
		}
		out = append(out, item.Value)
	}
	return out, nil
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
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
