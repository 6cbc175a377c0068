package gitobj

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// addDir adds an object directory and, recursively (as deep as git goes),
// the alternates it names.
func (o *Reader) addDir(dir string, depth int) {
	dir = filepath.Clean(dir)
	for _, d := range o.dirs {
		if d == dir {
			return
		}
	}
	if !isDir(dir) {
		return // git warns and goes on; a missing object is reported later
	}
	o.dirs = append(o.dirs, dir)
	if depth >= 5 {
		return
	}
	b, err := ReadSmallFile(filepath.Join(dir, "info", "alternates"), 1<<20)
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimRight(l, "\r")
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, `"`) {
			u, err := unquoteC(l)
			if err != nil {
				continue
			}
			l = u
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(dir, l)
		}
		o.addDir(l, depth+1)
	}
}

// splitPathList splits a colon-separated list of directories, each
// possibly C-quoted, as git splits GIT_ALTERNATE_OBJECT_DIRECTORIES.
func splitPathList(s string) []string {
	var out []string
	for s != "" {
		if strings.HasPrefix(s, `"`) {
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end < len(s) {
				if u, err := unquoteC(s[:end+1]); err == nil {
					out = append(out, u)
				}
				s = strings.TrimPrefix(s[end+1:], string(filepath.ListSeparator))
				continue
			}
		}
		p, rest, _ := strings.Cut(s, string(filepath.ListSeparator))
		out = append(out, p)
		s = rest
	}
	return out
}

// unquoteC undoes git's C-style quoting of a path ("a\tb", "\303\251").
func unquoteC(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", errors.New("not quoted")
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", errors.New("trailing backslash")
		}
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '"', '\\':
			b.WriteByte(c)
		default:
			if c < '0' || c > '3' || i+2 >= len(s) {
				return "", fmt.Errorf("bad escape \\%c", c)
			}
			v := 0
			for k := 0; k < 3; k++ {
				d := s[i+k]
				if d < '0' || d > '7' {
					return "", errors.New("bad octal escape")
				}
				v = v*8 + int(d-'0')
			}
			b.WriteByte(byte(v))
			i += 2
		}
	}
	return b.String(), nil
}
