package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Claude Code's skills: a project skill (.claude/skills/<name>/SKILL.md)
// may declare hooks in its YAML frontmatter (`hooks:`, the settings'
// form). Claude Code runs them while the skill is in use, without asking
// (observed on 2.1.328: `claude -p "/probe"` ran the skill's Stop hook;
// a skill nobody uses runs none). mcp-guard cannot tell when the model
// uses a skill, so each hook counts as running whenever the folder's
// settings hooks do, bound to the command and the SKILL.md it is in.
//
// A project subagent (.claude/agents/<name>.md) declares hooks the same
// way, and Claude Code runs them while the subagent runs (observed on
// 2.1.328: its Stop hook ran when the model ran it through the Task tool;
// an unused subagent's ran nothing). That path is agentty's persona too:
// Claude Code reads it as a kind of its own over the same files
// (surface.Spec.Same), so agentty's rules and Claude Code's entries each
// see it as what it is to them.
//
// Where Claude Code finds them (observed on 2.1.328, docs/fidelity.md):
// launched in a subdirectory, it loads the subagents and skills of every
// directory from there up to the git root (and runs their hooks); not
// those above the git root. It reads .claude/agents recursively (a
// subagent in .claude/agents/team/ runs as one directly in it), which
// agentty does not: those files are a kind of Claude Code's alone.

const (
	// EntrySkillHook is a command hook of a skill's frontmatter.
	EntrySkillHook = "skillHook"
	// EntrySubagentHook is a command hook of a subagent's frontmatter.
	EntrySubagentHook = "subagentHook"
)

// ClaudeSkillFile is a skill's file inside its directory.
const ClaudeSkillFile = "SKILL.md"

var (
	KindClaudeSkill = surface.Register(surface.Spec{Name: "claude-skill", Client: string(ClaudeCode), Role: surface.Sibling, Entries: true,
		Patterns: []string{"**/.claude/skills/*/" + ClaudeSkillFile}})
	_ = registerDirs(ClaudeCode, "**/.claude/skills")
	// KindClaudeAgent is a project subagent: agentty's persona files of
	// `.claude/agents`, read by Claude Code as its subagents.
	KindClaudeAgent = surface.Register(surface.Spec{Name: "claude-agent", Client: string(ClaudeCode), Role: surface.Sibling, Entries: true,
		Patterns: []string{"**/.claude/agents/*.md"}, Same: KindPersona})
	// KindClaudeAgentNested is a subagent in a subdirectory of
	// .claude/agents, at any depth (git's `/**/`: Claude Code reads the
	// directory recursively), so that the git hook names a pull that
	// changes one however deep it is.
	KindClaudeAgentNested = surface.Register(surface.Spec{Name: "claude-agent-nested", Client: string(ClaudeCode), Role: surface.Sibling, Entries: true,
		Patterns: []string{"**/.claude/agents/*/**/*.md"}})
	_ = registerDirs(ClaudeCode, "**/.claude/agents", "**/.claude/agents/*", "**/.claude/agents/*/**/*")
)

// claudeAgentDepth is how many directories below .claude/agents mcp-guard
// follows (a bound for a symlink loop).
const claudeAgentDepth = 16

// isClaudeAgent reports whether p is a .md file below a .claude/agents
// (directly or in a subdirectory of it).
func isClaudeAgent(p string) bool {
	return strings.EqualFold(filepath.Ext(p), ".md") && claudeAgentsRoot(p) != ""
}

// claudeAgentsRoot is the nearest .claude/agents directory p is below, ""
// when none.
func claudeAgentsRoot(p string) string {
	for d := filepath.Dir(p); d != filepath.Dir(d); d = filepath.Dir(d) {
		if strings.EqualFold(filepath.Base(d), "agents") && strings.EqualFold(filepath.Base(filepath.Dir(d)), ".claude") {
			return d
		}
	}
	return ""
}

// claudeProjectDirs are the directories whose .claude/agents and
// .claude/skills Claude Code launched in dir reads: dir and each parent
// up to the git root top (observed on 2.1.328), only dir outside a git
// repository.
// The skills of a directory below the launch directory are
// claudeNestedSkills'.
// OPEN: which parents Claude Code reads outside a git repository. The
// subagents of a directory below the launch directory are not loaded at
// start (observed); whether they are once the session works on files
// there was not observed: claudeNestedSkills counts them, as it counts
// that directory's skills (more, never less).
func claudeProjectDirs(dir, top string) []string {
	out := []string{dir}
	if top == "" || top == dir {
		return out
	}
	if rel, err := filepath.Rel(top, dir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return out
	}
	for d := dir; d != top && d != filepath.Dir(d); {
		d = filepath.Dir(d)
		out = append(out, d)
	}
	return out
}

// claudeAgents are the subagent files of the .claude/agents of dir and
// its parents up to the git root top, read recursively (nil when fsys
// cannot list them). A directory deeper than claudeAgentDepth is named
// itself: not a file, it is read as one mcp-guard cannot read (MG310),
// what runs from it unknown.
func claudeAgents(dir, top string, fsys FS) []string {
	var out []string
	for _, d := range claudeProjectDirs(dir, top) {
		out = append(out, claudeAgentTree(filepath.Join(d, ".claude", "agents"), 0, fsys)...)
	}
	return out
}

func claudeAgentTree(root string, depth int, fsys FS) []string {
	out := claudeDirFiles(root, fsys, func(name string) string {
		if strings.EqualFold(filepath.Ext(name), ".md") {
			return name
		}
		return ""
	})
	ents, _ := readDir(root, fsys)
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		if fi, err := fsys.Stat(p); err != nil || !fi.IsDir() {
			continue
		}
		if depth >= claudeAgentDepth {
			out = append(out, p) // deeper than mcp-guard follows: unknown
			continue
		}
		out = append(out, claudeAgentTree(p, depth+1, fsys)...)
	}
	return out
}

// isClaudeSkill reports whether p is a .claude/skills/<name>/SKILL.md.
func isClaudeSkill(p string) bool {
	return strings.EqualFold(filepath.Base(p), ClaudeSkillFile) &&
		strings.EqualFold(filepath.Base(filepath.Dir(filepath.Dir(p))), "skills") &&
		strings.EqualFold(filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(p)))), ".claude")
}

// claudeSkills are the SKILL.md files of the .claude/skills of dir and
// its parents up to the git root top (nil when fsys cannot list them).
// Claude Code does not read .claude/skills recursively (its docs; a
// skill's own subdirectories are its resources).
func claudeSkills(dir, top string, fsys FS) []string {
	var out []string
	for _, d := range claudeProjectDirs(dir, top) {
		out = append(out, claudeDirFiles(filepath.Join(d, ".claude", "skills"), fsys, func(name string) string {
			return filepath.Join(name, ClaudeSkillFile)
		})...)
	}
	return out
}

// claudeNestedDirs and claudeNestedDepth bound the walk below the launch
// directory for nested skills (a tree as large as a big monorepo's, and
// deeper than any real one): past either, what runs from below is
// unknown, and the walk says where it stopped (ErrNestedBound).
const (
	claudeNestedDirs  = 100000
	claudeNestedDepth = 64
)

// ErrNestedBound is the error of a launch directory whose tree is larger
// or deeper than mcp-guard walks for Claude Code's nested skills.
var ErrNestedBound = errors.New("a tree too deep or too large for mcp-guard's walk")

// claudeNestedSkills are the SKILL.md files of the .claude/skills, and
// the subagent files of the .claude/agents (whether Claude Code loads
// those once the session works beside them was not observed: counted,
// more, never less), of every directory below dir inside the git work tree gitTop (dir's own
// are claudeSkills'): Claude Code loads them once the session works on a
// file beside them, at any depth (observed on 2.1.328, docs/fidelity.md),
// and mcp-guard cannot tell which files a session will touch.
//
// Which .claude/skills directories there are comes from what the
// repository carries (env.Shared: the index, symlinked .claude and
// .claude/skills directories included, and the index of each submodule
// checked out below), not from a walk of the work tree: a launch does not
// list node_modules, and a repository cannot place a skill git does not
// track. Each one found is then read as claudeSkills reads the launch
// directory's.
// OPEN: a skill below the launch directory the repository does not
// carry (untracked: written on this machine after the clone) is not
// gated; outside a git repository nothing below the launch directory is
// (Claude Code's discovery there was not observed). Claude Code skips a
// gitignored directory's skills (observed); a tracked one in an ignored
// directory is read all the same (more, never less).
func claudeNestedSkills(dir, gitTop string, env Env) ([]string, error) {
	if gitTop == "" {
		return nil, nil
	}
	fsys := env.fs()
	if env.Shared == nil {
		return claudeNestedWalk(realDir(dir, fsys), fsys)
	}
	real := realDir(dir, fsys)
	rel, err := filepath.Rel(gitTop, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, nil
	}
	rel = filepath.ToSlash(rel)
	prefix := rel + "/"
	if rel == "." {
		rel, prefix = "", ""
	}
	files, err := env.Shared(gitTop, rel)
	if err != nil {
		return nil, fmt.Errorf("Claude Code loads the skills of any .claude/skills below the launch directory once a session works there; mcp-guard cannot list what the repository carries there: %w", err)
	}
	dirs := map[string]bool{}
	for _, f := range files {
		sub, ok := strings.CutPrefix(f.Path, prefix)
		if !ok || !hasClaudeDir(sub) {
			continue // most of a repository: no allocation per path
		}
		comps := strings.Split(sub, "/")
		for i := 1; i < len(comps); i++ { // 0: the launch directory's own
			if !strings.EqualFold(comps[i], ".claude") {
				continue
			}
			switch {
			case i+1 < len(comps) && (i+2 < len(comps) || f.Link) &&
				(strings.EqualFold(comps[i+1], "skills") || strings.EqualFold(comps[i+1], "agents")):
				dirs[strings.Join(comps[:i+2], "/")] = true
			case i+1 == len(comps) && f.Link: // a symlinked .claude
				d := strings.Join(comps[:i+1], "/")
				dirs[d+"/skills"], dirs[d+"/agents"] = true, true
			}
		}
	}
	var out []string
	for d := range dirs {
		out = append(out, claudeNestedDir(filepath.Join(real, filepath.FromSlash(d)), fsys)...)
	}
	slices.Sort(out)
	return out, nil
}

// hasClaudeDir reports whether p (slash-separated) has a component
// ".claude" (ASCII case ignored) below its first.
func hasClaudeDir(p string) bool {
	const name = "/.claude"
	for i := 0; i+len(name) <= len(p); i++ {
		if p[i] == '/' && strings.EqualFold(p[i:i+len(name)], name) && (i+len(name) == len(p) || p[i+len(name)] == '/') {
			return true
		}
	}
	return false
}

// claudeNestedDir is what a .claude/skills or .claude/agents directory
// below the launch directory holds, read as the launch directory's own:
// each skill's SKILL.md, or the subagent files, recursively.
func claudeNestedDir(d string, fsys FS) []string {
	if strings.EqualFold(filepath.Base(d), "agents") {
		return claudeAgentTree(d, 0, fsys)
	}
	return claudeDirFiles(d, fsys, func(name string) string {
		return filepath.Join(name, ClaudeSkillFile)
	})
}

// claudeNestedWalk is claudeNestedSkills for a caller that cannot list
// what the repository carries (no Env.Shared): a walk of the file system
// below dir, bounded. Symlinked directories are not followed, nor .git.
// Past the walk's bounds it returns an error that says where it stopped:
// the gate stays closed.
func claudeNestedWalk(dir string, fsys FS) ([]string, error) {
	var out []string
	left := claudeNestedDirs
	var walk func(d string, depth int) error
	walk = func(d string, depth int) error {
		ents, ok := readDir(d, fsys)
		if !ok {
			return nil
		}
		for _, e := range ents {
			if !e.IsDir() || e.Name() == ".git" {
				continue
			}
			p := filepath.Join(d, e.Name())
			if depth > 0 && strings.EqualFold(e.Name(), ".claude") { // dir's own: claudeSkills, claudeAgents
				out = append(out, claudeNestedDir(filepath.Join(p, "skills"), fsys)...)
				out = append(out, claudeNestedDir(filepath.Join(p, "agents"), fsys)...)
			}
			switch {
			case depth >= claudeNestedDepth:
				return fmt.Errorf("Claude Code loads the skills of any .claude/skills below the launch directory once a session works there; mcp-guard stops looking %d directories down, at %s, so what runs from below it is unknown (%w)", claudeNestedDepth, p, ErrNestedBound)
			case left <= 0:
				return fmt.Errorf("Claude Code loads the skills of any .claude/skills below the launch directory once a session works there; mcp-guard stops looking after %d directories, at %s, so what runs from the rest is unknown (%w)", claudeNestedDirs, p, ErrNestedBound)
			}
			left--
			if err := walk(p, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(dir, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// claudeDirFiles are the files below root that file names for each entry
// of it ("" for none), sorted: those there, and those there but unreadable
// (to say what cannot be known); nil when fsys cannot list root.
func claudeDirFiles(root string, fsys FS, file func(name string) string) []string {
	ents, ok := readDir(root, fsys)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range ents {
		f := file(e.Name())
		if f == "" {
			continue
		}
		p := filepath.Join(root, f)
		if fi, err := fsys.Stat(p); err == nil && !fi.IsDir() {
			out = append(out, p)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid) {
			if _, lerr := fsys.Lstat(p); lerr == nil {
				out = append(out, p) // there but unreadable: say what cannot be known
			}
		}
	}
	slices.Sort(out)
	return out
}

// readDir lists root when fsys can list directories (false when it
// cannot, or root cannot be listed).
func readDir(root string, fsys FS) ([]fs.DirEntry, bool) {
	lister, ok := fsys.(interface {
		ReadDir(string) ([]fs.DirEntry, error)
	})
	if !ok {
		return nil, false
	}
	ents, err := lister.ReadDir(root)
	return ents, err == nil
}

func (osFS) ReadDir(p string) ([]fs.DirEntry, error) { return os.ReadDir(p) }

// parseClaudeSkill reads a SKILL.md's (or a subagent's, as kind)
// frontmatter hooks as entries. A file
// without frontmatter, or whose frontmatter has no hooks, runs nothing; a
// frontmatter mcp-guard will not read (anchors and aliases, which Claude
// Code's reader expands) leaves what runs unknown.
func parseClaudeSkill(p string, data []byte, kind string) *trust.Config {
	c := &trust.Config{Path: p, Scope: trust.ScopeProject, Dialect: trust.ClaudeCode, SHA256: trust.FileHash(data)}
	if len(data) > trust.MaxFileSize {
		return trust.UnreadableConfig(p, trust.ScopeProject, fmt.Errorf("%w: %d bytes, the limit is %d", trust.ErrTooLarge, len(data), trust.MaxFileSize))
	}
	front, line, ok := frontmatter(data)
	if !ok {
		return c
	}
	if len(front) > trust.MaxRepoYAML {
		return trust.UnreadableConfig(p, trust.ScopeProject, fmt.Errorf("%w: the frontmatter is %d bytes of YAML, and mcp-guard decodes at most %d from a repository's file (real frontmatter is a few hundred): shorten it", trust.ErrTooLarge, len(front), trust.MaxRepoYAML))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		// OPEN: whether Claude Code loads a skill whose frontmatter does
		// not parse; either way its hooks do not read.
		c.Err = fmt.Errorf("Claude Code cannot read this %s's frontmatter: %w", map[string]string{EntrySkillHook: "skill", EntrySubagentHook: "subagent"}[kind], err)
		return c
	}
	if n := yamlAlias(&doc, 0); n != "" {
		return trust.UnreadableConfig(p, trust.ScopeProject, fmt.Errorf("the frontmatter uses %s, which mcp-guard does not expand", n))
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return c
	}
	m := doc.Content[0]
	var key, hooks *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "hooks" {
			key, hooks = m.Content[i], m.Content[i+1] // the last wins, as in a JavaScript object
		}
	}
	if hooks == nil {
		return c
	}
	var v any
	if err := hooks.Decode(&v); err != nil {
		return trust.UnreadableConfig(p, trust.ScopeProject, err)
	}
	js, err := json.Marshal(v)
	var root trust.Value
	if err == nil {
		root, err = trust.DecodeDialect(js, trust.ClaudeCode)
	}
	if err != nil {
		return trust.UnreadableConfig(p, trust.ScopeProject, fmt.Errorf("hooks: %w", err))
	}
	pos := trust.Pos{Line: line + key.Line - 1, Column: key.Column}
	var out []*trust.Server
	for _, h := range hookCommands(root, "hooks", 0) {
		out = addHook(c, out, kind, h, pos)
	}
	c.Servers = out
	uniqueEntries(c)
	return c
}

// frontmatter is the YAML between a first line "---" and the next "---"
// line, and the file line it starts on.
func frontmatter(data []byte) ([]byte, int, bool) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		if rest, ok = bytes.CutPrefix(data, []byte("---\r\n")); !ok {
			return nil, 0, false
		}
	}
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		lineEnd := len(rest)
		if end >= 0 {
			lineEnd = off + end
		}
		if strings.TrimRight(string(rest[off:lineEnd]), "\r \t") == "---" {
			return rest[:off], 2, true
		}
		if end < 0 {
			break
		}
		off = lineEnd + 1
	}
	return nil, 0, false
}

// yamlAlias names the first anchor, alias or merge key below n, "" when
// none (or too deep to follow, which names that).
func yamlAlias(n *yaml.Node, depth int) string {
	switch {
	case depth > 64:
		return "nesting deeper than 64"
	case n.Kind == yaml.AliasNode:
		return "an alias *" + n.Value
	case n.Anchor != "":
		return "an anchor &" + n.Anchor
	case n.Tag == "!!merge":
		return "a merge key"
	}
	for _, c := range n.Content {
		if s := yamlAlias(c, depth+1); s != "" {
			return s
		}
	}
	return ""
}
