// Package surface is the taxonomy of agent surfaces: the files and
// directories of a repository through which an agent client (or its CI)
// runs code. It defines what a surface is (Kind, Role, Spec), holds the
// registry the clients declare their surfaces in, and matches repository
// paths against it. It is a leaf: the git reader (gitscan) asks it which
// paths are surfaces without depending on the agents' model, and package
// client, which knows the agents, fills it.
//
// Each client declares its surfaces in its own file (client/claude.go,
// …) with Register and RegisterDir, the way database drivers register;
// the CI workflows, which are no client's, are declared here (ci.go).
// Nothing reads the registry at package initialisation: every question is
// answered from a table compiled lazily at call time, so the registry is
// complete once the program (or test) imports package client.
package surface

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind is one declared kind of surface file; 0 is none. A kind's number is
// its place in the registry, which depends on the order of registration:
// store a kind's Name, never its number.
type Kind int

// KindLinkedDir is a symlink (or any non-directory entry) standing where
// a surface directory belongs (see RegisterDir): the client follows it, so
// the configuration it reads then lives at the link's target, and callers
// must treat such an entry as a surface they cannot see into. Of never
// returns it: whether a path is a linked directory depends on its mode.
const KindLinkedDir Kind = 1

// Role is what a surface file is to the client that reads it.
type Role int

const (
	// Config defines the client's servers (its project configuration).
	Config Role = iota + 1
	// Governing is a settings file that decides whether the client runs
	// the servers of its config without asking (Claude Code's
	// `.claude/settings.json`, VS Code's `.vscode/settings.json`).
	Governing
	// Sibling is another file the client reads and acts on (agentty's
	// hooks, ACP agents and personas, VS Code's tasks, Gemini CLI's …):
	// findings, no grade.
	Sibling
	// CI is a CI definition, which no client reads.
	CI
)

// String names the role.
func (r Role) String() string {
	switch r {
	case Config:
		return "config"
	case Governing:
		return "governing"
	case Sibling:
		return "sibling"
	case CI:
		return "ci"
	}
	return fmt.Sprintf("role(%d)", int(r))
}

// Spec declares one kind of surface file.
type Spec struct {
	// Name is the kind as the documentation names it ("claude-mcp").
	Name string
	// Client is the id of the client that reads it, "" for CI.
	Client string
	Role   Role
	// Patterns are git `:(glob)` patterns, matched ignoring ASCII case: a
	// leading `**/` means at any depth, otherwise the path is anchored at
	// the repository root, a trailing `/**` means any file below; other
	// segments are literal names, `*` or `*<suffix>`, and one `**` between
	// two of them (none or any number of directories, git's `/**/`).
	Patterns []string
	// SharedOnly: the surface matters only when the repository shares it
	// (tracked, or untracked and not ignored): a gitignored
	// `.claude/settings.local.json` is the user's own state.
	SharedOnly bool
	// Below: launched in a directory below the config's, the client reads
	// this governing file there too.
	Below bool
	// Entries: the client runs entries from this file besides its MCP
	// servers (hooks, helpers): it is read as one of the client's configs
	// too, through the client's Parse.
	Entries bool
	// Same is another client's kind whose files (some or all of them:
	// each of Patterns must be one of Same's) this client reads as this
	// kind: one path, two kinds, each read by its own client in its own
	// way (`.claude/agents/*.md` is agentty's persona and Claude Code's
	// subagent). Of answers Same for such a path, OfAll both.
	Same Kind
}

// File is where the spec's file lives, as a path relative to the
// directory it is found in: ".claude/settings.json" for `**/.claude/
// settings.json` (the first pattern, its `**/` removed).
func (s Spec) File() string { return strings.TrimPrefix(s.Patterns[0], "**/") }

// Dir is the directory the spec's first pattern names its file in ("" for
// a file directly in the launch directory, such as `.mcp.json`), and Base
// the file's name.
func (s Spec) Dir() string {
	f := s.File()
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		return f[:i]
	}
	return ""
}

// Base is the file name of the spec's first pattern.
func (s Spec) Base() string {
	f := s.File()
	return f[strings.LastIndexByte(f, '/')+1:]
}

type registry struct {
	mu    sync.Mutex
	specs []Spec // kind k is specs[k-2]
	dirs  []dirSpec
	// also are the clients that read another client's kind as theirs
	// too (AlsoRead), in declaration order.
	also  []alsoRead
	table atomic.Pointer[table] // nil: recompile on the next question
}

type alsoRead struct {
	client string
	kind   Kind
}

type dirSpec struct {
	client  string
	pattern string
}

var reg registry

// Register declares a kind of surface file and returns its Kind. It panics
// on a declaration the matcher cannot represent, a duplicate name or a
// pattern declared twice: those are programming errors, found at start.
func Register(s Spec) Kind {
	if s.Name == "" || s.Name == "linked-dir" || len(s.Patterns) == 0 || s.Role < Config || s.Role > CI {
		panic(fmt.Sprintf("surface.Register: invalid spec %+v", s))
	}
	if (s.Role == CI) != (s.Client == "") {
		panic(fmt.Sprintf("surface.Register %s: a CI surface has no client, every other one has", s.Name))
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for _, p := range s.Patterns {
		if _, err := compile(p); err != nil {
			panic("surface.Register " + s.Name + ": " + err.Error())
		}
	}
	if s.Same != 0 {
		i := int(s.Same) - 2
		if i < 0 || i >= len(reg.specs) || reg.specs[i].Client == s.Client || reg.specs[i].Role == CI || reg.specs[i].Same != 0 {
			panic("surface.Register " + s.Name + ": Same is not another client's kind")
		}
		for _, q := range s.Patterns {
			if !slices.ContainsFunc(reg.specs[i].Patterns, func(p string) bool { return strings.EqualFold(p, q) }) {
				panic("surface.Register " + s.Name + ": pattern " + q + " is not one of " + reg.specs[i].Name + "'s")
			}
		}
	}
	for j, o := range reg.specs {
		if o.Name == s.Name {
			panic("surface.Register: " + s.Name + " declared twice")
		}
		if s.Same != 0 && j == int(s.Same)-2 {
			continue
		}
		for _, p := range o.Patterns {
			for _, q := range s.Patterns {
				if strings.EqualFold(p, q) {
					panic("surface.Register: pattern " + q + " declared twice")
				}
			}
		}
	}
	s.Patterns = append([]string(nil), s.Patterns...)
	reg.specs = append(reg.specs, s)
	reg.table.Store(nil)
	return Kind(len(reg.specs) + 1)
}

// RegisterDir declares directories whose replacement by a symlink
// redirects client (see KindLinkedDir), as patterns like Spec.Patterns
// ("**/.claude", "**/.claude/agents").
func RegisterDir(client string, patterns ...string) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for _, p := range patterns {
		if _, err := compile(p); err != nil || client == "" {
			panic(fmt.Sprintf("surface.RegisterDir %q %q: %v", client, p, err))
		}
		reg.dirs = append(reg.dirs, dirSpec{client, p})
	}
	reg.table.Store(nil)
}

// AlsoRead declares that client reads files of kind k, which another
// client declared, in the same role (Copilot CLI reads Claude Code's
// `.mcp.json` as its config too). It returns k. It panics on a kind not
// registered, a CI kind, or a client that already reads k.
func AlsoRead(client string, k Kind) Kind {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	i := int(k) - 2
	if client == "" || i < 0 || i >= len(reg.specs) || reg.specs[i].Role == CI || reg.specs[i].Client == client {
		panic(fmt.Sprintf("surface.AlsoRead %q %d: not another client's kind", client, int(k)))
	}
	for _, a := range reg.also {
		if a.client == client && a.kind == k {
			panic(fmt.Sprintf("surface.AlsoRead %q %s: declared twice", client, reg.specs[i].Name))
		}
	}
	reg.also = append(reg.also, alsoRead{client, k})
	reg.table.Store(nil)
	return k
}

// table is the registry compiled for matching.
type table struct {
	specs    []Spec
	files    index
	dirs     index
	dirOwner []string // by index into dirs.pats
	also     []alsoRead
	// same are the kinds that read another kind's files (Spec.Same),
	// each with its own patterns.
	same   []sameKind
	digest string
}

type sameKind struct {
	kind, of Kind
	files    index
}

func current() *table {
	if t := reg.table.Load(); t != nil {
		return t
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if t := reg.table.Load(); t != nil {
		return t
	}
	t := &table{specs: append([]Spec(nil), reg.specs...), also: append([]alsoRead(nil), reg.also...)}
	h := sha256.New()
	for i, s := range t.specs {
		fmt.Fprintf(h, "kind %q %q %d %v %v %d\n", s.Name, s.Client, s.Role, s.SharedOnly, s.Below, s.Same)
		var sk *sameKind
		if s.Same != 0 {
			t.same = append(t.same, sameKind{kind: Kind(i + 2), of: s.Same})
			sk = &t.same[len(t.same)-1]
		}
		for _, p := range s.Patterns {
			c, _ := compile(p)
			c.kind = Kind(i + 2)
			if sk != nil {
				sk.files.add(c)
			} else {
				t.files.add(c)
			}
			fmt.Fprintf(h, "  %q\n", p)
		}
	}
	for _, d := range reg.dirs {
		c, _ := compile(d.pattern)
		c.kind = KindLinkedDir
		t.dirs.add(c)
		t.dirOwner = append(t.dirOwner, d.client)
		fmt.Fprintf(h, "dir %q %q\n", d.client, d.pattern)
	}
	for _, a := range t.also {
		fmt.Fprintf(h, "also %q %q\n", a.client, t.specs[a.kind-2].Name)
	}
	t.digest = hex.EncodeToString(h.Sum(nil))[:16]
	reg.table.Store(t)
	return t
}

// Kinds are the registered kinds, in registration order (KindLinkedDir
// is not one of them).
func Kinds() []Kind {
	t := current()
	out := make([]Kind, len(t.specs))
	for i := range t.specs {
		out[i] = Kind(i + 2)
	}
	return out
}

// Spec is k's declaration; the zero Spec for KindLinkedDir and for a kind
// not registered.
func (k Kind) Spec() Spec {
	t := current()
	if i := int(k) - 2; i >= 0 && i < len(t.specs) {
		return t.specs[i]
	}
	return Spec{}
}

// Readers are the ids of every client that reads k: the one that declared
// it, then those that read it too (AlsoRead), in declaration order; none
// for CI and KindLinkedDir.
func (k Kind) Readers() []string {
	c := k.Client()
	if c == "" {
		return nil
	}
	out := []string{c}
	for _, a := range current().also {
		if a.kind == k {
			out = append(out, a.client)
		}
	}
	return out
}

// Client is the id of the client that declared k ("" for CI and
// KindLinkedDir); Readers are every client that reads it.
func (k Kind) Client() string { return k.Spec().Client }

// Role is k's role (0 for KindLinkedDir).
func (k Kind) Role() Role { return k.Spec().Role }

// String names the kind as the documentation does.
func (k Kind) String() string {
	if k == KindLinkedDir {
		return "linked-dir"
	}
	if s := k.Spec(); s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Named is the kind named name (Kind.String), 0 when none is.
func Named(name string) Kind {
	if name == "linked-dir" {
		return KindLinkedDir
	}
	for i, s := range current().specs {
		if s.Name == name {
			return Kind(i + 2)
		}
	}
	return 0
}

// OfClient are the kinds client declared, in registration order; Shared
// the other clients' kinds it reads too.
func OfClient(client string) []Kind {
	var out []Kind
	for i, s := range current().specs {
		if s.Client == client {
			out = append(out, Kind(i+2))
		}
	}
	return out
}

// Shared are the kinds of other clients that client reads too
// (AlsoRead), in declaration order.
func Shared(client string) []Kind {
	var out []Kind
	for _, a := range current().also {
		if a.client == client {
			out = append(out, a.kind)
		}
	}
	return out
}

// Find is the first kind of client in role, 0 when none is.
func Find(client string, role Role) Kind {
	for i, s := range current().specs {
		if s.Client == client && s.Role == role {
			return Kind(i + 2)
		}
	}
	return 0
}

// Empty reports a registry with nothing declared: a program that reads
// repositories without importing package client would see no surface, so
// the git reader refuses to answer then.
func Empty() bool { return len(current().specs) == 0 }

// Digest identifies the registry's contents: caches of what is a surface
// (gitscan's per-tree cache) are keyed by it, so adding or changing a
// declaration invalidates them.
func Digest() string { return current().digest }

// Of classifies a repository-relative, slash-separated path. Names are
// compared ignoring ASCII case, because a checkout on a case-insensitive
// file system (macOS, Windows) serves `.Agentty/MCP.json` to an agent that
// opens `.agentty/mcp.json`; this matches git's `:(icase)` pathspec magic.
// Of never returns KindLinkedDir (see LinkedDir).
func Of(path string) (Kind, bool) {
	if i := current().files.find(path); i >= 0 {
		return current().files.pats[i].kind, true
	}
	return 0, false
}

// OfAll are every kind path is: Of's, then the kinds that read the same
// file as theirs (Spec.Same), in registration order.
func OfAll(path string) []Kind {
	k, ok := Of(path)
	if !ok {
		return nil
	}
	out := []Kind{k}
	for _, s := range current().same {
		if s.of == k && s.files.find(path) >= 0 {
			out = append(out, s.kind)
		}
	}
	return out
}

// LinkedDir reports whether path names a declared surface directory (see
// KindLinkedDir), ignoring ASCII case like Of.
func LinkedDir(path string) bool {
	_, ok := DirClient(path)
	return ok
}

// DirClient is the first client (in registration order) that declared
// the directory path names.
func DirClient(path string) (string, bool) {
	t := current()
	if i := t.dirs.find(path); i >= 0 {
		return t.dirOwner[i], true
	}
	return "", false
}

// DirClients are every client that declared the directory path names (a
// `.claude` directory is Claude Code's, and agentty reads personas below
// it), in registration order.
func DirClients(path string) []string {
	t := current()
	var out []string
	for i := range t.dirs.pats {
		if t.dirs.pats[i].match(path) && !slices.Contains(out, t.dirOwner[i]) {
			out = append(out, t.dirOwner[i])
		}
	}
	return out
}

// Patterns are the file patterns of every registered kind; with all
// false, only those that count even when ignore rules hide
// them.
func Patterns(all bool) []string {
	var out []string
	for _, s := range current().specs {
		if s.Same != 0 {
			continue // the other kind's patterns say it
		}
		if all || !s.SharedOnly {
			out = append(out, s.Patterns...)
		}
	}
	return out
}

// DirPatterns are the patterns of the declared surface directories.
func DirPatterns() []string {
	var out []string
	for _, d := range reg.snapshotDirs() {
		out = append(out, d.pattern)
	}
	return out
}

func (r *registry) snapshotDirs() []dirSpec {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]dirSpec(nil), r.dirs...)
}
