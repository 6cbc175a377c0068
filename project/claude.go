package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/trust"
)

// clientOf is the client whose project configuration p is.
func clientOf(p string) client.ID {
	if k, ok := gitscan.KindOf(p); ok && k == gitscan.KindClaudeMCP {
		return client.ClaudeCode
	}
	return client.Agentty
}

// changeClient is the client's id in trust.Change and trust.ReviewKey
// ("" for agentty).
func changeClient(id client.ID) string {
	if id == client.Agentty {
		return ""
	}
	return string(id)
}

// claudePaths are Claude Code's project configs among the surfaces of one
// side: every `.mcp.json`, at any depth (a symlink too: Claude Code
// follows it).
func claudePaths(surfaces []gitscan.Surface) []string {
	var out []string
	for _, s := range surfaces {
		if s.Kind == gitscan.KindClaudeMCP {
			out = append(out, s.Path)
		}
	}
	return out
}

// governsClaude reports whether a changed path is one Claude Code reads its
// approvals from (`.claude/settings.json`, `.claude/settings.local.json`,
// or a `.claude` entry that is not a directory).
func governsClaude(c gitscan.Change) bool {
	if k, ok := gitscan.KindOf(c.Path); ok && k == gitscan.KindClaudeSettings {
		return true
	}
	return strings.EqualFold(path.Base(c.Path), ".claude")
}

// spawnViews is what the launch model analyses for a server of client:
// agentty's one view; for Claude Code the raw view as written and, when
// `${VAR}` interpolation changes it, the view after expansion in vars, with
// the variables it used.
func spawnViews(id client.ID, s *trust.Server, vars client.Vars) (views []launch.Spawn, used []string) {
	raw := spawnOf(s)
	if id != client.ClaudeCode {
		return []launch.Spawn{raw}, nil
	}
	sp := client.Lookup(client.ClaudeCode).Spawn(s, vars)
	if len(sp.Vars) == 0 {
		return []launch.Spawn{raw}, nil
	}
	x := launch.Spawn{Command: sp.Command, Args: sp.Args}
	for _, e := range sp.Env {
		x.Env = append(x.Env, launch.Var{Name: e.Name, Value: e.Value})
	}
	return []launch.Spawn{raw, x}, sp.Vars
}

// analyzeServer is the server's code scope: for a Claude Code server whose
// command line depends on variables, the union of what the raw and the
// expanded views run, plus one text item per variable binding its value
// here (so that another value re-gates the server) and a gap saying so.
func analyzeServer(c *Config, s *trust.Server, src source, opts launch.Options, vars client.Vars) (*launch.Scope, error) {
	views, used := spawnViews(c.Client, s, vars)
	var scopes []*launch.Scope
	for _, v := range views {
		sc, err := launch.Analyze(v, c.LaunchDir, src, opts)
		if err != nil {
			return nil, err
		}
		scopes = append(scopes, sc)
	}
	if len(scopes) == 1 {
		return scopes[0], nil
	}
	sc := unionScopes(scopes...)
	for _, name := range used {
		text := "unset"
		if v, ok := vars(name); ok {
			text = "=" + v
		}
		sc.Items = append(sc.Items, launch.Item{Kind: launch.KindText, Path: c.Path, Key: "${" + name + "}", Text: text,
			Source: "interpolation", Why: "Claude Code expands ${" + name + "} before it spawns the server"})
	}
	sc.Gaps = append(sc.Gaps, launch.Gap{Source: "interpolation",
		Why: "the command line depends on " + varList(used) + ": bound as written and as expanded in mcp-guard's environment; another environment may run something else"})
	sortItems(sc.Items)
	return sc, nil
}

func varList(vs []string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "${" + v + "}"
	}
	return strings.Join(out, ", ")
}

// unionScopes is every item, inline code and gap of the scopes, one item
// per (kind, path, lang, key), the reason it runs winning.
func unionScopes(scopes ...*launch.Scope) *launch.Scope {
	out := &launch.Scope{}
	at := map[string]int{}
	gaps := map[launch.Gap]bool{}
	for _, sc := range scopes {
		for _, it := range sc.Items {
			key := it.Kind.String() + "\x00" + it.Path + "\x00" + it.Lang + "\x00" + it.Key
			if i, dup := at[key]; dup {
				if it.Runs && !out.Items[i].Runs {
					out.Items[i] = it
				}
				continue
			}
			at[key] = len(out.Items)
			out.Items = append(out.Items, it)
		}
		out.Inline = append(out.Inline, sc.Inline...)
		for _, g := range sc.Gaps {
			if !gaps[g] {
				gaps[g] = true
				out.Gaps = append(out.Gaps, g)
			}
		}
	}
	sortItems(out.Items)
	return out
}

// sortItems orders items as launch does: by path, kind, language, key.
func sortItems(items []launch.Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, c := items[i], items[j]
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
}

// claudeGrades builds Claude Code's approval state at both sides of a
// comparison, once per launch directory, reading the user's files (HOME)
// only when first asked.
type claudeGrades struct {
	ro, rn *reader
	env    client.Env
	home   *homeFiles
	states map[string][2]*client.State
	// settingsDirs hold a `.claude/settings*.json` at either side: Claude
	// Code launched there reads them too.
	settingsDirs []string
}

func newClaudeGrades(ro, rn *reader, env client.Env, oldSurf, newSurf []gitscan.Surface) *claudeGrades {
	g := &claudeGrades{ro: ro, rn: rn, env: env, home: &homeFiles{data: map[string]homeFile{}}, states: map[string][2]*client.State{}}
	var dirs []string
	for _, s := range append(append([]gitscan.Surface(nil), oldSurf...), newSurf...) {
		if s.Kind == gitscan.KindClaudeSettings {
			d := path.Dir(path.Dir(s.Path))
			if d == "." {
				d = ""
			}
			dirs = append(dirs, d)
		}
	}
	g.settingsDirs = uniqueSorted(dirs)
	return g
}

// top is the real path of the work tree, which keys Claude Code's project
// entry; "" when unknown (a bare repository).
func (g *claudeGrades) top() string {
	if len(g.rn.tops) == 0 {
		return ""
	}
	return filepath.FromSlash(g.rn.tops[len(g.rn.tops)-1])
}

// pair is the state at the old and the new side for launchDir.
func (g *claudeGrades) pair(launchDir string) [2]*client.State {
	if st, ok := g.states[launchDir]; ok {
		return st
	}
	top := g.top()
	dir := filepath.Join(top, filepath.FromSlash(launchDir))
	cl := client.Lookup(client.ClaudeCode)
	var st [2]*client.State
	for i, rd := range []*reader{g.ro, g.rn} {
		env := g.env
		env.FS = &stateFS{rd: rd, sides: []*reader{g.ro, g.rn}, top: top, home: g.home}
		st[i] = cl.State(dir, top, env)
	}
	g.states[launchDir] = st
	return st
}

// grader is trust.Grader for one Claude Code configuration: the impact in
// Claude Code's words, from the approval state at each side. Claude Code
// launched below the config's directory uses it too and reads the
// settings there as well, so every such directory holding settings is
// graded and the most dangerous answer wins (the config's own directory
// on a tie).
func (g *claudeGrades) grader(launchDir string) trust.Grader {
	dirs := []string{launchDir}
	for _, d := range g.settingsDirs {
		if d != launchDir && (launchDir == "" || strings.HasPrefix(d, launchDir+"/")) {
			dirs = append(dirs, d)
		}
	}
	return func(c *trust.Change) (trust.Impact, []string) {
		var best trust.Impact
		var why []string
		for i, d := range dirs {
			st := g.pair(d)
			im, r := claudeImpact(c, st[0], st[1])
			if i > 0 && len(r) > 0 {
				r[0] = "launched in " + d + "/: " + r[0]
			}
			if i == 0 || im.Rank() < best.Rank() {
				best, why = im, r
			}
		}
		return best, why
	}
}

// claudeImpact grades one change: "runs without asking" is Claude Code's
// interactive session (and `claude mcp list`); `claude -p` runs whatever
// is not denied, which the reasons say.
func claudeImpact(c *trust.Change, oldSt, newSt *client.State) (trust.Impact, []string) {
	cl := client.Lookup(client.ClaudeCode)
	if c.New == nil {
		return trust.ImpactRemoved, []string{cl.Impact(newSt, c.Old, nil).Why}
	}
	now := cl.Impact(newSt, c.Old, c.New)
	if c.Old == nil {
		switch {
		case now.Interactive:
			return trust.ImpactNewPreapproved, []string{"added: " + now.Why}
		case now.Headless:
			return trust.ImpactNewUnapproved, []string{"added: " + now.Why}
		}
		return trust.ImpactUnchanged, []string{"added: " + now.Why}
	}
	before := cl.Impact(oldSt, c.Old, c.Old)
	if c.Change == trust.ChangeUnchanged {
		// Only the approval state moved (a settings file changed).
		why := cl.Gate(newSt, []client.Entry{{Name: c.New.Name, Path: c.Path, Server: c.New}})[0].Why
		switch {
		case now.Interactive && !before.Interactive:
			return trust.ImpactNewPreapproved, []string{"unchanged, but now " + why}
		case before.Interactive && !now.Interactive:
			return trust.ImpactInvalidated, []string{why}
		case now.Headless && !before.Headless:
			return trust.ImpactNewUnapproved, []string{"no longer denied: " + why}
		case before.Headless && !now.Headless:
			return trust.ImpactRemoved, []string{why}
		}
		return trust.ImpactUnchanged, nil
	}
	reasons := []string{now.Why}
	for _, f := range c.Files {
		reasons = append(reasons, f.Path+" changed: Claude Code's approval binds only the name")
	}
	switch {
	case now.Interactive && before.Interactive:
		return trust.ImpactTrustPreserving, reasons
	case now.Interactive:
		return trust.ImpactNewPreapproved, reasons
	case before.Interactive:
		return trust.ImpactInvalidated, reasons
	case now.Headless:
		return trust.ImpactNewUnapproved, reasons
	case before.Headless:
		return trust.ImpactRemoved, reasons
	}
	return trust.ImpactUnchanged, reasons
}

// settingsFindings are MG701-MG707 for the Claude Code settings and CI
// workflows a comparison added or changed, read at the new side through
// symlinks inside the repository.
func settingsFindings(rn *reader, s gitscan.Surface) ([]trust.Finding, error) {
	if s.Kind != gitscan.KindClaudeSettings && s.Kind != gitscan.KindCIWorkflow {
		return nil, nil
	}
	f := policy.File{Path: s.Path, Kind: s.Kind, Symlink: s.Mode == gitscan.ModeSymlink}
	res, err := rn.resolve(s.Path)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", s.Path, rn.side, err)
	}
	switch {
	case res.outside:
		f.Err = policy.ErrOutside
	case !res.entry.Mode.IsFile():
		return nil, nil
	default:
		data, _, err := rn.repo.ReadBlob(rn.side, res.entry.Path, trust.MaxFileSize)
		switch {
		case errors.Is(err, gitscan.ErrTooLarge):
			f.Err = err
		case errors.Is(err, gitscan.ErrNotRegular), errors.Is(err, gitscan.ErrNotFound):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("read %s at %s: %w", res.entry.Path, rn.side, err)
		}
		f.Data = data
	}
	return policy.CheckContent(f, policy.Options{}), nil
}

// stateFS is client.FS for Claude Code's state at one side: a file in the
// work tree is read at the side (through symlinks inside the repository),
// and from disk when the side does not hold it (the user's untracked, often
// gitignored, `.claude/settings.local.json`, where Claude Code writes its
// approvals) and neither side of the comparison does; every other file
// (HOME) from disk, once per comparison.
type stateFS struct {
	rd    *reader
	sides []*reader // both sides of the comparison
	top   string
	home  *homeFiles
}

type homeFiles struct{ data map[string]homeFile }

type homeFile struct {
	data []byte
	err  error
}

func (f *stateFS) rel(p string) (string, bool) {
	if f.top == "" {
		return "", false
	}
	r, err := filepath.Rel(f.top, p)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (f *stateFS) ReadFile(p string) ([]byte, error) {
	if !filepath.IsAbs(p) {
		return nil, fs.ErrNotExist // no HOME: no user state
	}
	if r, ok := f.rel(p); ok {
		res, err := f.rd.resolve(r)
		switch {
		case err != nil:
			return nil, err
		case res.outside:
			return nil, errors.New("reached through a symlink that leads outside the repository (or loops)")
		case res.entry.Mode != 0 && !res.entry.Mode.IsFile():
			return nil, fmt.Errorf("a %s, not a file", describeMode(res.entry.Mode))
		case res.entry.Mode != 0:
			data, _, err := f.rd.repo.ReadBlob(f.rd.side, res.entry.Path, trust.MaxFileSize)
			if errors.Is(err, gitscan.ErrNotFound) {
				return nil, fs.ErrNotExist
			}
			return data, err
		}
		// Absent at a commit or the index: the work tree's file counts
		// only when neither side of the comparison holds it (the user's
		// own, untracked); one that a side holds is the repository's, and
		// this side has none. In the work tree, the disk decides.
		if f.rd.side != gitscan.WorkTree {
			if _, err := os.Lstat(p); err != nil {
				return nil, fs.ErrNotExist
			}
			for _, rd := range f.sides {
				if rd.side == gitscan.WorkTree {
					continue // holding it there says nothing of tracking
				}
				if res, err := rd.resolve(r); err != nil || res.outside || res.entry.Mode != 0 {
					return nil, fs.ErrNotExist
				}
			}
		}
	}
	if h, ok := f.home.data[p]; ok {
		return h.data, h.err
	}
	data, err := trust.ReadFile(p)
	f.home.data[p] = homeFile{data, err}
	return data, err
}

// Stat and Lstat answer from disk: Claude Code's State does not ask.
func (f *stateFS) Stat(p string) (fs.FileInfo, error)  { return os.Stat(p) }
func (f *stateFS) Lstat(p string) (fs.FileInfo, error) { return os.Lstat(p) }

// EvalSymlinks keeps a path in the work tree as it is (the side, not the
// disk, decides what is there); others are resolved on disk.
func (f *stateFS) EvalSymlinks(p string) (string, error) {
	if _, ok := f.rel(p); ok || p == f.top {
		return p, nil
	}
	return filepath.EvalSymlinks(p)
}
