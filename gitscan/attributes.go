package gitscan

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// CheckoutTransform names the .gitattributes line that makes git rewrite
// path's bytes on checkout (working-tree-encoding, a filter driver such as
// Git LFS, ident), "" when none does. At a commit or the index, ReadBlob
// returns the stored bytes; an agent reads the checked-out ones, which
// then differ, so a caller must not take one for the other. The work tree
// holds the checked-out bytes already: "" there.
//
// It reads the .gitattributes of path's directory and each directory
// above it at side and errs on the side of a transform: a matching line
// sets one even if a later line unsets it, a macro defined with one
// counts wherever it is used, and a quoted pattern that sets one matches
// everything. The user's own attribute files (info/attributes,
// core.attributesFile) are not read: no repository writes them.
func (r *Repo) CheckoutTransform(side Side, p string) (string, error) {
	if side.kind == sideWorkTree || side.kind == sideEmpty {
		return "", nil
	}
	dir := path.Dir(p)
	var dirs []string
	for d := dir; ; d = path.Dir(d) {
		if d == "." || d == "/" {
			dirs = append(dirs, "")
			break
		}
		dirs = append(dirs, d+"/")
	}
	type file struct{ domain, data string }
	var files []file
	for i := len(dirs) - 1; i >= 0; i-- {
		domain := dirs[i]
		data, _, err := r.ReadBlob(side, domain+".gitattributes", 1<<20)
		switch {
		case errors.Is(err, ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, ErrNotRegular):
			continue
		case errors.Is(err, ErrTooLarge):
			return domain + ".gitattributes (over 1 MiB, not read)", nil
		case err != nil:
			return "", err
		}
		files = append(files, file{domain, string(data)})
	}
	// git expands a macro wherever it is defined in the stack, even below
	// its use: collect every definition first, until none is added.
	macros := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for _, f := range files {
			for _, line := range strings.Split(f.data, "\n") {
				if name, ok := transformMacro(line, macros); ok && !macros[name] {
					macros[name], grew = true, true
				}
			}
		}
	}
	for _, f := range files {
		for _, line := range strings.Split(f.data, "\n") {
			if t := transformLine(line, f.domain, p, macros); t != "" {
				return f.domain + ".gitattributes: " + t, nil
			}
		}
	}
	return "", nil
}

// transformMacro names the macro a line defines with a transforming
// attribute (ok false when it defines none).
func transformMacro(line string, macros map[string]bool) (string, bool) {
	fields, sets := attrLine(line, macros)
	if len(fields) == 0 || sets == "" {
		return "", false
	}
	return strings.CutPrefix(fields[0], "[attr]")
}

// transformLine reports the transforming attribute a line sets for p
// ("" when it sets none, does not match, or defines a macro).
func transformLine(line, domain, p string, macros map[string]bool) string {
	fields, sets := attrLine(line, macros)
	if sets == "" || strings.HasPrefix(fields[0], "[attr]") {
		return ""
	}
	if strings.HasPrefix(fields[0], `"`) {
		return sets // a quoted pattern: matched as if it were *
	}
	pat, ok := parseIgnoreLine(fields[0], domain)
	if !ok || pat.negate {
		return sets
	}
	pat.dirOnly = false
	if pat.match(p, false) {
		return fields[0] + " " + sets
	}
	return ""
}

// attrLine splits a line into fields and names the last transforming
// attribute it sets ("" for none, a blank line or a comment).
func attrLine(line string, macros map[string]bool) ([]string, string) {
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	if line == "" || strings.HasPrefix(line, "#") {
		return nil, ""
	}
	fields := strings.Fields(line)
	sets := ""
	for _, a := range fields[1:] {
		switch {
		case strings.HasPrefix(a, "working-tree-encoding="), strings.HasPrefix(a, "filter="), a == "ident":
			sets = a
		case macros[a]:
			sets = a + " (a macro that transforms)"
		}
	}
	return fields, sets
}
