package launch

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Spawn is a server as agentty starts it: the program, its arguments as
// the process receives them (strings cut at their first NUL, non-string
// JSON values as their text) and the variables its entry adds to the
// environment. The working directory is the launch directory.
type Spawn struct {
	Command string
	Args    []string
	Env     []Var
	// EnvFile is the repository path of a file the client reads more
	// variables from (Cursor's and VS Code's envFile); "" when none or
	// when it lies outside the repository.
	EnvFile string
	// Trees are directories (relative to the launch directory) the
	// client runs code from besides the command line (a plugin's
	// marketplace): each is bound whole, one outside the repository is a
	// gap. Remote, when set, is where more of its code comes from,
	// outside the repository: a gap.
	Trees  []string
	Remote string
}

// Var is one environment variable.
type Var struct{ Name, Value string }

// ItemKind says how an item of a code scope binds the repository.
type ItemKind uint8

const (
	// KindFile binds what is at Path (symlinks followed): a file's content
	// and mode, and its absence, so a file appearing there re-gates.
	KindFile ItemKind = iota
	// KindTree binds everything below Path.
	KindTree
	// KindCode binds the files below Path that Lang loads as code (see
	// CodeFile); documentation, data and lock files there do not count.
	KindCode
	// KindModules binds what Lang can import from the directory Path when
	// it is on the search path: the importable names directly in it and
	// the code of each (a Python sys.path entry).
	KindModules
	// KindText binds a value read from the file at Path (Key names it,
	// Text is the value): a package.json script.
	KindText
)

func (k ItemKind) String() string {
	switch k {
	case KindFile:
		return "file"
	case KindTree:
		return "tree"
	case KindCode:
		return "code"
	case KindModules:
		return "modules"
	case KindText:
		return "text"
	}
	return "kind " + strconv.Itoa(int(k))
}

// Item is one part of a code scope.
type Item struct {
	Kind ItemKind
	// Path is repository-relative, slash-separated and clean; "" is the
	// repository root.
	Path string
	// Lang is the language of a KindCode or KindModules item: "javascript",
	// "python", "go", "rust", "java".
	Lang string
	// Key and Text: the value a KindText item binds.
	Key, Text string
	// Source is the part of the entry that put the item here: "command",
	// "args[1]", "env.NODE_OPTIONS".
	Source string
	// Why says in a few words how the server comes to run it.
	Why string
	// Runs is true when the server runs or loads the item as code (a
	// script, a module, a package script); false for what is bound only to
	// be safe (an argument that may name a file, a fallback scope).
	Runs bool
}

// Label names an item for people and keys it in fingerprints: the path,
// "tools/" for a tree, "tools/ (python modules)", "package.json: scripts.start".
func (it Item) Label() string {
	dir := it.Path + "/"
	if it.Path == "" {
		dir = "./"
	}
	switch it.Kind {
	case KindTree:
		return dir
	case KindCode:
		return dir + " (" + it.Lang + " code)"
	case KindModules:
		return dir + " (" + it.Lang + " modules)"
	case KindText:
		return it.Path + ": " + it.Key
	}
	return it.Path
}

// Inline is code given on the command line itself (`python -c`, `node -e`).
type Inline struct {
	Program, Flag, Code string
	Source              string
}

// Gap is something the model could not resolve. It never stands alone: the
// item bound in its place (often a whole directory) is in Scope.Items with
// the same Source.
type Gap struct {
	Source, Why string
}

// Scope is what a server runs from the repository.
type Scope struct {
	// Items, sorted by path then kind; one per (kind, path, lang, key).
	Items []Item
	// Inline code found on the way.
	Inline []Inline
	// Gaps: what could not be resolved, and why.
	Gaps []Gap
}

// Covers reports whether a repository path lies inside the scope's reach:
// an item's own path, or below a tree, code or modules item.
func (s *Scope) Covers(p string) bool {
	for _, it := range s.Items {
		switch it.Kind {
		case KindFile, KindText:
			if it.Path == p {
				return true
			}
		default:
			if it.Path == "" || p == it.Path || strings.HasPrefix(p, it.Path+"/") {
				return true
			}
		}
	}
	return false
}

// scopeBuilder collects items without duplicates.
type scopeBuilder struct {
	s    Scope
	seen map[string]int
}

func (b *scopeBuilder) add(it Item) {
	if it.Path == "." {
		it.Path = ""
	}
	key := it.Kind.String() + "\x00" + it.Path + "\x00" + it.Lang + "\x00" + it.Key
	if b.seen == nil {
		b.seen = map[string]int{}
	}
	if i, dup := b.seen[key]; dup {
		// One item per place; the reason it runs beats a reason to bind it.
		if it.Runs && !b.s.Items[i].Runs {
			b.s.Items[i] = it
		}
		return
	}
	b.seen[key] = len(b.s.Items)
	b.s.Items = append(b.s.Items, it)
}

func (b *scopeBuilder) gap(source, why string) {
	for _, g := range b.s.Gaps {
		if g.Source == source && g.Why == why {
			return
		}
	}
	b.s.Gaps = append(b.s.Gaps, Gap{Source: source, Why: why})
}

func (b *scopeBuilder) done() *Scope {
	sort.SliceStable(b.s.Items, func(i, j int) bool {
		a, c := b.s.Items[i], b.s.Items[j]
		if a.Path != c.Path {
			return a.Path < c.Path
		}
		if a.Kind != c.Kind {
			return a.Kind < c.Kind
		}
		if a.Lang != c.Lang {
			return a.Lang < c.Lang
		}
		return a.Key < c.Key
	})
	// A copy: a pointer to b.s would keep the whole analyzer (its maps of
	// what it read and saw) alive as long as the scope.
	s := b.s
	return &s
}

// repoPath resolves a path word against dir (repository-relative): "" when
// it is not a repository path (absolute, home-relative, a URL, an option,
// empty, or climbing out of the repository).
func repoPath(dir, v string) (string, bool) {
	if v == "" || strings.HasPrefix(v, "-") || strings.HasPrefix(v, "~") || strings.Contains(v, "://") ||
		len(v) > 4096 || strings.ContainsRune(v, 0) {
		return "", false
	}
	if strings.HasPrefix(v, "/") {
		// /proc/self/cwd is the launch directory of the process.
		for _, pre := range []string{"/proc/self/cwd", "/proc/thread-self/cwd"} {
			if v == pre || strings.HasPrefix(v, pre+"/") {
				return repoPath(dir, "."+strings.TrimPrefix(v, pre))
			}
		}
		return "", false
	}
	p := path.Join(dir, v)
	if p == "." {
		return "", true
	}
	if p == ".." || strings.HasPrefix(p, "../") || !possibleName(p) {
		return "", false
	}
	return p, true
}

// maxNameLen is the longest file name Linux, macOS and Windows allow
// (NAME_MAX, 255 bytes): a path with a longer element cannot be a file of
// the repository (a 2,000-character inline JSON after --config is data).
const maxNameLen = 255

// possibleName reports whether every element of p could be a file name.
func possibleName(p string) bool {
	for p != "" {
		var elem string
		elem, p, _ = strings.Cut(p, "/")
		if len(elem) > maxNameLen {
			return false
		}
	}
	return true
}

// Clip shortens text quoted from the repository for a message: at most
// n bytes (cut at a character boundary) and an ellipsis.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
