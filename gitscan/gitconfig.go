package gitscan

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// gitConfig is one git config file, parsed as git parses it (config.c):
// sections and subsections (`[remote "origin"]`, the legacy
// `[remote.origin]`), case-insensitive section and key names, quoted
// values with \n \t \b \" \\ escapes, comments after # or ; outside
// quotes, backslash-newline continuations, and a key without `=` meaning
// true. Includes are not followed: gitscan reads only the keys git itself
// reads from the repository's own file (format, extensions, work tree) and
// a few user keys where git is absent. It replaces go-git's config decoder,
// whose dependencies (os/user, hence cgo and dynamic linking) cost every
// mcp-guard process several milliseconds at start.
type gitConfig struct {
	entries []cfgEntry
}

type cfgEntry struct {
	section, subsection, key string // section and key lower-cased
	value                    string
	noValue                  bool // `key` alone: boolean true
}

// maxConfigSize bounds a config file read by gitscan.
const maxConfigSize = 4 << 20

func readGitConfig(p string) (*gitConfig, error) {
	b, err := gitobj.ReadSmallFile(p, maxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return &gitConfig{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	c, err := parseGitConfig(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return c, nil
}

// get returns the last value of section[.subsection].key ("" subsection for
// none) and whether it is set.
func (c *gitConfig) get(section, subsection, key string) (string, bool) {
	section, key = strings.ToLower(section), strings.ToLower(key)
	v, ok := "", false
	for _, e := range c.entries {
		if e.section == section && e.subsection == subsection && e.key == key {
			v, ok = e.value, true
			if e.noValue {
				v = "true"
			}
		}
	}
	return v, ok
}

// value is get without the flag.
func (c *gitConfig) value(section, key string) string {
	v, _ := c.get(section, "", key)
	return v
}

// boolean is git's boolean: true/yes/on/1 (and a key without a value),
// false/no/off/0/"" ; ok is false when unset or not a boolean.
func (c *gitConfig) boolean(section, subsection, key string) (val, ok bool) {
	v, set := c.get(section, subsection, key)
	if !set {
		return false, false
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "":
		return false, true
	}
	return false, false
}

// keys lists the entries of a section without subsection, in file order.
func (c *gitConfig) keys(section string) []cfgEntry {
	section = strings.ToLower(section)
	var out []cfgEntry
	for _, e := range c.entries {
		if e.section == section && e.subsection == "" {
			out = append(out, e)
		}
	}
	return out
}

func isKeyChar(c byte, first bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && (c >= '0' && c <= '9' || c == '-')
}

func parseGitConfig(s string) (*gitConfig, error) {
	c := &gitConfig{}
	section, subsection := "", ""
	line := 1
	bad := func(what string) error { return fmt.Errorf("bad config line %d: %s", line, what) }
	s = strings.TrimPrefix(s, "\ufeff")
	i := 0
	for i < len(s) {
		ch := s[i]
		switch {
		case ch == '\n':
			line++
			i++
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case ch == '#' || ch == ';':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case ch == '[':
			end := i + 1
			for end < len(s) && s[end] != ']' && s[end] != '\n' && s[end] != '"' && s[end] != ' ' && s[end] != '\t' {
				end++
			}
			name := s[i+1 : end]
			sub := ""
			if end < len(s) && (s[end] == ' ' || s[end] == '\t') {
				for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
					end++
				}
				if end >= len(s) || s[end] != '"' {
					return nil, bad("section header")
				}
				var b strings.Builder
				end++
				for ; end < len(s) && s[end] != '"'; end++ {
					if s[end] == '\n' {
						return nil, bad("section header")
					}
					if s[end] == '\\' && end+1 < len(s) && s[end+1] != '\n' {
						end++
					}
					b.WriteByte(s[end])
				}
				if end >= len(s) {
					return nil, bad("section header")
				}
				end++ // closing quote
				sub = b.String()
				if end >= len(s) || s[end] != ']' {
					return nil, bad("section header")
				}
			} else if dot := strings.IndexByte(name, '.'); dot >= 0 {
				name, sub = name[:dot], strings.ToLower(name[dot+1:])
			}
			if end >= len(s) || s[end] != ']' || name == "" {
				return nil, bad("section header")
			}
			for k := 0; k < len(name); k++ {
				if !isKeyChar(name[k], false) && name[k] != '.' {
					return nil, bad("section name")
				}
			}
			section, subsection = strings.ToLower(name), sub
			i = end + 1
		case isKeyChar(ch, true):
			k := i // (git accepts a key before any section header)
			for i < len(s) && isKeyChar(s[i], false) {
				i++
			}
			key := strings.ToLower(s[k:i])
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i >= len(s) || s[i] == '\n' || s[i] == '#' || s[i] == ';' || s[i] == '\r' {
				c.entries = append(c.entries, cfgEntry{section: section, subsection: subsection, key: key, noValue: true})
				continue
			}
			if s[i] != '=' {
				return nil, bad("expected '='")
			}
			i++
			v, n, lines, err := parseConfigValue(s[i:])
			if err != nil {
				return nil, bad(err.Error())
			}
			i += n
			line += lines
			c.entries = append(c.entries, cfgEntry{section: section, subsection: subsection, key: key, value: v})
		default:
			return nil, bad(fmt.Sprintf("unexpected %q", ch))
		}
	}
	return c, nil
}

// parseConfigValue parses a value up to the end of its line, as git's
// parse_value: whitespace outside quotes is trimmed at both ends (inner
// runs kept), comments end it, a backslash escapes.
func parseConfigValue(s string) (value string, n, lines int, err error) {
	var b strings.Builder
	quoted := false
	pending := 0 // whitespace seen outside quotes, kept only if more follows
	started := false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			if quoted {
				return "", 0, 0, errors.New("newline in quoted value")
			}
			break
		}
		if !quoted && (c == ' ' || c == '\t' || c == '\r') {
			if started {
				pending++
				b.WriteByte(' ') // as git: a run of blanks is kept as spaces, trimmed at the end
			}
			continue
		}
		if !quoted && (c == '#' || c == ';') {
			for i < len(s) && s[i] != '\n' {
				i++
			}
			break
		}
		pending = 0
		started = true
		switch c {
		case '"':
			quoted = !quoted
		case '\\':
			i++
			if i >= len(s) {
				return "", 0, 0, errors.New("backslash at end of file")
			}
			switch s[i] {
			case '\n':
				lines++ // continuation
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case '"', '\\':
				b.WriteByte(s[i])
			default:
				return "", 0, 0, fmt.Errorf("bad escape \\%c", s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	if quoted {
		return "", 0, 0, errors.New("unterminated quote")
	}
	v := b.String()
	return v[:len(v)-pending], i, lines, nil
}
