package gitscan

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// CheckoutTransform names the .gitattributes line that makes git rewrite
// path's bytes on checkout (working-tree-encoding, a filter driver such as
// Git LFS, ident, eol=crlf), "" when none does. At a commit or the index,
// ReadBlob returns the stored bytes; an agent reads the checked-out ones,
// which then differ, so a caller must not take one for the other. The
// work tree holds the checked-out bytes already: "" there (and its
// entries are those bytes' ids, never the index's for such a file: see
// worktreeEntryOnce).
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
	files, err := r.attrFiles(side, dirs)
	if err != nil || files.tooLarge != "" {
		return files.tooLarge, err
	}
	// git expands a macro wherever it is defined in the stack, even below
	// its use: collect every definition first, until none is added.
	macros := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for _, f := range files.files {
			for _, line := range strings.Split(f.data, "\n") {
				if name, ok := transformMacro(line, macros); ok && !macros[name] {
					macros[name], grew = true, true
				}
			}
		}
	}
	for _, f := range files.files {
		for _, line := range strings.Split(f.data, "\n") {
			if t := transformLine(line, f.domain, p, macros); t != "" {
				return f.domain + ".gitattributes: " + t, nil
			}
		}
	}
	return "", nil
}

// attrStack is the .gitattributes files above one directory at a side,
// the top first, or the first one too large to read.
type attrStack struct {
	files    []attrFile
	tooLarge string
}

type attrFile struct{ domain, data string }

// attrFiles reads the .gitattributes of dirs (the deepest first) at side,
// each file once per Repo and side: every config at a side shares them.
// A commit never changes; the index is keyed by its file's identity.
func (r *Repo) attrFiles(side Side, dirs []string) (attrStack, error) {
	key := side.String()
	if side.kind == sideIndex {
		idx, err := r.index()
		if err != nil {
			return attrStack{}, err
		}
		key += ":" + idx.key
	}
	var st attrStack
	for i := len(dirs) - 1; i >= 0; i-- {
		name := dirs[i] + ".gitattributes"
		m, ok := r.attrs[key+"\x00"+name]
		if !ok {
			data, _, err := r.ReadBlob(side, name, 1<<20)
			switch {
			case errors.Is(err, ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, ErrNotRegular):
			case errors.Is(err, ErrTooLarge):
				m.tooLarge = true
			case err != nil:
				return attrStack{}, err
			default:
				m.data, m.present = string(data), true
			}
			if r.attrs == nil {
				r.attrs = map[string]attrMemo{}
			}
			r.attrs[key+"\x00"+name] = m
		}
		switch {
		case m.tooLarge:
			return attrStack{tooLarge: name + " (over 1 MiB, not read)"}, nil
		case m.present:
			st.files = append(st.files, attrFile{dirs[i], m.data})
		}
	}
	return st, nil
}

// attrMemo is one .gitattributes read at one side.
type attrMemo struct {
	data              string
	present, tooLarge bool
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
		case strings.HasPrefix(a, "working-tree-encoding="), strings.HasPrefix(a, "filter="), a == "ident",
			a == "eol=crlf":
			// eol=crlf writes every LF of a text file as CRLF whatever
			// the user's configuration. text and text=auto do only under
			// the user's core.autocrlf or core.eol, which are not read.
			sets = a
		case macros[a]:
			sets = a + " (a macro that transforms)"
		}
	}
	return fields, sets
}

// checkoutRewrites reports whether git may have written the work tree's p
// through a transforming attribute (CheckoutTransform at the index, whose
// .gitattributes are the ones the last checkout applied): its bytes are
// then not the blob the index records. The answer for each directory's
// attribute stack is kept, so that a tree with no transforming line
// costs one look per directory. An attribute file that cannot be read
// counts as one that transforms.
func (r *Repo) checkoutRewrites(p string) bool {
	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	}
	may, ok := r.attrDirs[dir]
	if !ok {
		may = r.stackTransforms(dir)
		if r.attrDirs == nil {
			r.attrDirs = map[string]bool{}
		}
		r.attrDirs[dir] = may
	}
	if !may {
		return false
	}
	t, err := r.CheckoutTransform(Index, p)
	return err != nil || t != ""
}

// stackTransforms reports whether any line of the .gitattributes of dir
// and the directories above it, at the index, sets a transforming
// attribute for some path (or defines a macro that does).
func (r *Repo) stackTransforms(dir string) bool {
	var dirs []string
	for d := dir; ; d = path.Dir(d) {
		if d == "" || d == "." || d == "/" {
			dirs = append(dirs, "")
			break
		}
		dirs = append(dirs, d+"/")
	}
	files, err := r.attrFiles(Index, dirs)
	if err != nil || files.tooLarge != "" {
		return true
	}
	for _, f := range files.files {
		for _, line := range strings.Split(f.data, "\n") {
			if _, sets := attrLine(line, nil); sets != "" {
				return true
			}
			if strings.HasPrefix(strings.TrimSpace(line), "[attr]") {
				return true // a macro: what it sets is decided per path
			}
		}
	}
	return false
}
