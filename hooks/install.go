// Package hooks installs mcp-guard's git hooks (post-checkout, post-merge,
// post-rewrite, reference-transaction) beside whatever hooks a repository already has, and holds
// the hook entry: from what git passes a hook to the two states of the
// repository to compare, and the changes a warning is made of.
//
// Installing never clobbers. A hook already in place (Git LFS, pre-commit,
// lefthook, a hand-written script) is renamed aside to
// <type>.mcp-guard-chained, mode and bytes intact, and the small POSIX sh
// script mcp-guard writes in its place runs it first and exits with its
// status. Uninstall renames it back, so the directory is exactly as it was.
// A directory a hook manager owns (husky's .husky/_, lefthook's hooks,
// pre-commit's generated ones) is left alone unless forced: the manager
// would overwrite or lose the chain, so Install returns the one-line
// integration for it instead.
//
// The package never prints: it returns what it did, and cmd/mcp-guard
// tells the user.
package hooks

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/template"
)

// Types are the git hooks mcp-guard installs: post-commit sees a
// cherry-pick and a revert, post-applypatch an `am`. reference-transaction
// (RefTransaction) is installed only on request: git starts it up to three
// times for every ref a fetch updates, while the only moves it adds are a
// reset and a stash pop (SECURITY.md, BENCHMARKS.md).
var Types = []string{"post-checkout", "post-merge", "post-rewrite", "post-commit", "post-applypatch", RefTransaction}

// RefTransaction is the hook installed only with Options.RefTransaction.
const RefTransaction = "reference-transaction"

// IsType reports whether t is one of Types.
func IsType(t string) bool {
	for _, x := range Types {
		if x == t {
			return true
		}
	}
	return false
}

// Marker starts the second line of every hook mcp-guard writes; a hook
// holding it is mcp-guard's to rewrite or remove.
const Marker = "# mcp-guard-hook v"

// TemplateVersion is the version in the marker line.
const TemplateVersion = 1

// ChainedSuffix names the previous hook kept beside mcp-guard's:
// post-merge.mcp-guard-chained.
const ChainedSuffix = ".mcp-guard-chained"

// HookEnv is what the installed hooks set in mcp-guard's environment, and
// only in its: one processor (GOMAXPROCS=1). The hook's path runs nothing
// in parallel (one goroutine does the work while another waits for it or
// the time budget), and a Go program told so from the start faults in
// fewer pages and starts fewer threads (BENCHMARKS.md, branch hook6).
// Set from inside the process, it comes too late to save most of that.
const HookEnv = "GOMAXPROCS=1"

//go:embed templates/hook.sh
var hookTemplateText string

// hookTemplate is parsed on first use, not at start: the hook run never
// needs it.
var hookTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("hook").Parse(hookTemplateText))
})

// Script is the hook mcp-guard installs for hook type typ, calling the
// binary at the absolute path binary (then mcp-guard on PATH).
func Script(typ, binary string) ([]byte, error) {
	if !IsType(typ) {
		return nil, fmt.Errorf("hook type %q: not one of %s", typ, strings.Join(Types, ", "))
	}
	if !filepath.IsAbs(binary) {
		return nil, fmt.Errorf("mcp-guard's path %q is not absolute: the hook runs from another directory", binary)
	}
	var b bytes.Buffer
	err := hookTemplate().Execute(&b, struct{ Type, Binary, Env string }{typ, shellQuote(binary), HookEnv})
	return b.Bytes(), err
}

// shellQuote quotes s for POSIX sh: single quotes, each ' as '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Dir is a hooks directory to act on.
type Dir struct {
	// Path is the absolute hooks directory: git's (core.hooksPath, else
	// <common dir>/hooks) or a template directory's hooks/.
	Path string
	// HooksPath is core.hooksPath as configured; "" when unset.
	HooksPath string
	// WorkTree is the repository's root, for messages; "" for a template.
	WorkTree string
	// Template is set for `hooks install --template DIR`.
	Template bool
}

// Manager is a hook manager that owns hooks in a directory.
type Manager string

const (
	ManagerNone      Manager = ""
	ManagerHusky     Manager = "husky"
	ManagerLefthook  Manager = "lefthook"
	ManagerPreCommit Manager = "pre-commit"
)

// Kind says whose a hook file is.
type Kind string

const (
	KindAbsent  Kind = "absent"  // no hook of this type
	KindOurs    Kind = "ours"    // mcp-guard's script
	KindForeign Kind = "foreign" // someone else's
)

// Hook is one hook type's state in a directory.
type Hook struct {
	Type string
	// Path is where git looks for the hook.
	Path string
	Kind Kind
	// Current is true for mcp-guard's script when it is exactly what
	// Install would write now (same template, same binary).
	Current bool
	// Binary is the mcp-guard path recorded in mcp-guard's script.
	Binary string
	// Chained is the previous hook kept beside it ("" when there is none);
	// ChainedRuns is false when it is not executable (git would not have
	// run it either, and mcp-guard's script does not).
	Chained     string
	ChainedRuns bool
	// Manager is the hook manager that owns this hook, if any.
	Manager Manager
}

// Inspect reports the state of every hook type in d.
func Inspect(d Dir) ([]Hook, error) {
	if fi, err := os.Stat(d.Path); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory; git cannot run hooks from it", d.Path)
	}
	dirManager := directoryManager(d)
	out := make([]Hook, 0, len(Types))
	for _, typ := range Types {
		h, err := inspectOne(d, typ)
		if err != nil {
			return nil, err
		}
		if h.Manager == ManagerNone {
			h.Manager = dirManager
		}
		out = append(out, h)
	}
	return out, nil
}

func inspectOne(d Dir, typ string) (Hook, error) {
	h := Hook{Type: typ, Path: filepath.Join(d.Path, typ), Kind: KindAbsent}
	chained := h.Path + ChainedSuffix
	if _, err := os.Lstat(chained); err == nil {
		h.Chained = chained
		if st, err := os.Stat(chained); err == nil {
			h.ChainedRuns = st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return h, fmt.Errorf("%s: %w", chained, err)
	}
	content, exists, err := readHook(h.Path)
	if err != nil {
		return h, err
	}
	if !exists {
		return h, nil
	}
	if isOurs(content) {
		h.Kind = KindOurs
		h.Binary = recordedBinary(content)
		if h.Binary != "" {
			if want, err := Script(typ, h.Binary); err == nil && bytes.Equal(want, content) {
				h.Current = true
			}
		}
		return h, nil
	}
	h.Kind = KindForeign
	h.Manager = fileManager(content)
	return h, nil
}

// readHook reads the first bytes of a hook (enough to recognise it);
// exists is false when there is none. A dangling symlink exists.
func readHook(path string) (head []byte, exists bool, err error) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, true, nil // a dangling link or a non-file: foreign, kept as is
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	buf := make([]byte, 8192)
	n, _ := f.Read(buf)
	return buf[:n], true, nil
}

func isOurs(content []byte) bool {
	first, rest, _ := bytes.Cut(content, []byte("\n"))
	second, _, _ := bytes.Cut(rest, []byte("\n"))
	return bytes.HasPrefix(first, []byte("#!")) && bytes.HasPrefix(second, []byte(Marker))
}

// recordedBinary extracts the path from the script's mcp_guard='...' line.
func recordedBinary(content []byte) string {
	for _, line := range strings.Split(string(content), "\n") {
		v, ok := strings.CutPrefix(line, "mcp_guard=")
		if !ok {
			continue
		}
		if len(v) < 2 || v[0] != '\'' || v[len(v)-1] != '\'' {
			return ""
		}
		return strings.ReplaceAll(v[1:len(v)-1], `'\''`, "'")
	}
	return ""
}

// fileManager recognises a hook written by a hook manager.
func fileManager(content []byte) Manager {
	lower := bytes.ToLower(content)
	switch {
	case bytes.Contains(content, []byte("File generated by pre-commit")):
		return ManagerPreCommit
	case bytes.Contains(lower, []byte("lefthook")):
		return ManagerLefthook
	case bytes.Contains(lower, []byte("husky")):
		return ManagerHusky
	}
	return ManagerNone
}

// directoryManager recognises a hooks directory that a manager owns as a
// whole: husky's (core.hooksPath .husky/_ or .husky, or husky's runner
// files present), or lefthook's (any hook in it runs lefthook).
func directoryManager(d Dir) Manager {
	hp := filepath.ToSlash(filepath.Clean(d.HooksPath))
	if d.HooksPath != "" && (strings.HasSuffix(hp, ".husky/_") || strings.HasSuffix(hp, ".husky") || strings.Contains(hp, ".husky/")) {
		return ManagerHusky
	}
	base := filepath.Base(d.Path)
	if (base == "_" && filepath.Base(filepath.Dir(d.Path)) == ".husky") || fileExists(filepath.Join(d.Path, "husky.sh")) {
		return ManagerHusky
	}
	ents, err := os.ReadDir(d.Path)
	if err != nil {
		return ManagerNone
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || strings.HasSuffix(e.Name(), ".sample") || strings.HasSuffix(e.Name(), ChainedSuffix) {
			continue
		}
		content, _, _ := readHook(filepath.Join(d.Path, e.Name()))
		if !isOurs(content) && fileManager(content) == ManagerLefthook {
			return ManagerLefthook
		}
	}
	return ManagerNone
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Action is what Install or Uninstall did with one hook type.
type Action string

const (
	ActionInstalled Action = "installed" // written where there was none
	ActionChained   Action = "chained"   // written, the previous hook kept and run first
	ActionUpdated   Action = "updated"   // mcp-guard's script rewritten (new binary or template)
	ActionUnchanged Action = "unchanged" // already current
	ActionManaged   Action = "managed"   // left to the hook manager; see Integration
	ActionRefused   Action = "refused"   // left alone; see Note
	ActionRemoved   Action = "removed"   // mcp-guard's script removed
	ActionRestored  Action = "restored"  // mcp-guard's script removed, the previous hook put back
	ActionAbsent    Action = "absent"    // nothing of mcp-guard's was there
	ActionForeign   Action = "kept"      // someone else's hook, left alone
)

// Result is what happened to one hook type.
type Result struct {
	Type    string
	Path    string
	Action  Action
	Chained string  // the previous hook's kept path, when there is one
	Manager Manager // set with ActionManaged
	Note    string  // why, for ActionRefused and ActionForeign
}

// Options configure Install.
type Options struct {
	// Binary is the absolute path of the mcp-guard executable the hooks
	// call first.
	Binary string
	// Force installs into a directory a hook manager owns.
	Force bool
	// RefTransaction installs reference-transaction too (reset and stash
	// pop are then warned about, at git's cost of starting a hook per ref
	// update). Without it, an earlier install's reference-transaction
	// hook of mcp-guard's is removed.
	RefTransaction bool
}

// Install writes mcp-guard's hook for every type into d, keeping and
// chaining any hook already there. It is idempotent. Hook types it must
// leave alone are reported (ActionManaged, ActionRefused), not errors; an
// error means the directory could not be written.
func Install(d Dir, o Options) ([]Result, error) {
	if !filepath.IsAbs(o.Binary) {
		return nil, fmt.Errorf("mcp-guard's path %q is not absolute", o.Binary)
	}
	state, err := Inspect(d)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(d.Path, 0o755); err != nil {
		return nil, fmt.Errorf("%s: cannot create the hooks directory: %w", d.Path, err)
	}
	var out []Result
	for _, h := range state {
		if h.Type == RefTransaction && !o.RefTransaction {
			if h.Kind == KindOurs {
				r, err := uninstallOne(h)
				r.Note = "installed only with --reference-transaction"
				out = append(out, r)
				if err != nil {
					return out, err
				}
			}
			continue
		}
		r := Result{Type: h.Type, Path: h.Path, Chained: h.Chained}
		script, err := Script(h.Type, o.Binary)
		if err != nil {
			return out, err
		}
		switch {
		case h.Kind == KindOurs && h.Current && h.Binary == o.Binary:
			r.Action = ActionUnchanged
		case h.Kind == KindOurs:
			r.Action = ActionUpdated
		case h.Manager != ManagerNone && !o.Force && !unmanaged(h):
			r.Action, r.Manager = ActionManaged, h.Manager
		case h.Kind == KindForeign && h.Chained != "":
			r.Action = ActionRefused
			r.Note = fmt.Sprintf("%s is not mcp-guard's and %s already holds an earlier hook; move one of them away and install again", h.Path, h.Chained)
		case h.Kind == KindForeign:
			if err := os.Rename(h.Path, h.Path+ChainedSuffix); err != nil {
				return out, fmt.Errorf("%s: cannot move the existing hook aside: %w", h.Path, err)
			}
			r.Action, r.Chained = ActionChained, h.Path+ChainedSuffix
		default:
			r.Action = ActionInstalled
		}
		if r.Action == ActionInstalled || r.Action == ActionChained || r.Action == ActionUpdated {
			if err := writeExecutable(h.Path, script); err != nil {
				return out, err
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// unmanaged reports whether h is a hook the directory's manager does not
// run, so mcp-guard's script goes in directly: pre-commit has no
// reference-transaction or post-applypatch stage (and its post-commit
// stage cannot tell mcp-guard which hook runs it), and lefthook runs only
// the hooks it wrote.
func unmanaged(h Hook) bool {
	switch h.Type {
	case RefTransaction, "post-applypatch", "post-commit":
		return h.Kind == KindAbsent
	}
	return false
}

// writeExecutable replaces path atomically with an executable file.
func writeExecutable(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".mcp-guard-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write the hook: %w", path, err)
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o755)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("%s: cannot write the hook: %w", path, err)
	}
	return nil
}

// Uninstall removes mcp-guard's hooks from d and puts back the hooks they
// chained, by renaming, so each is exactly as it was (bytes, mode, a
// symlink stays a symlink). Hooks that are not mcp-guard's are left alone.
func Uninstall(d Dir) ([]Result, error) {
	state, err := Inspect(d)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, h := range state {
		r, err := uninstallOne(h)
		out = append(out, r)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// uninstallOne removes mcp-guard's hook h, if it is mcp-guard's, and puts
// back the hook it chained.
func uninstallOne(h Hook) (Result, error) {
	r := Result{Type: h.Type, Path: h.Path, Chained: h.Chained}
	switch h.Kind {
	case KindForeign:
		r.Action = ActionForeign
		if h.Chained != "" {
			r.Note = fmt.Sprintf("%s is not mcp-guard's, so it stays; the hook mcp-guard kept is still at %s", h.Path, h.Chained)
		}
		return r, nil
	case KindOurs:
		if err := os.Remove(h.Path); err != nil {
			return r, fmt.Errorf("%s: cannot remove mcp-guard's hook: %w", h.Path, err)
		}
		r.Action = ActionRemoved
	default:
		r.Action = ActionAbsent
	}
	if h.Chained != "" {
		if err := os.Rename(h.Chained, h.Path); err != nil {
			return r, fmt.Errorf("%s: cannot put the earlier hook back: %w", h.Chained, err)
		}
		r.Action = ActionRestored
	}
	return r, nil
}

// SubmoduleDirs are the hooks directories of the submodules whose git
// directories lie below gitDir's modules/ (nested ones included), so
// that a checkout in a submodule (git submodule update) runs the hook
// too. A submodule initialised later gets them from the next install, or
// from a template directory (hooks install --template).
func SubmoduleDirs(gitDir, workTree string) []Dir {
	var out []Dir
	root := filepath.Join(gitDir, "modules")
	filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil || !de.IsDir() {
			return nil
		}
		if de.Name() == "hooks" || de.Name() == "objects" || de.Name() == "refs" || de.Name() == "logs" {
			return filepath.SkipDir
		}
		if fileExists(filepath.Join(p, "HEAD")) && fileExists(filepath.Join(p, "config")) {
			out = append(out, Dir{Path: filepath.Join(p, "hooks"), WorkTree: workTree})
		}
		return nil
	})
	return out
}
