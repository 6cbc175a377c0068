package gitscan

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// testEnv is an isolated environment for real git: no system or user
// configuration, fixed identities and dates.
func testEnv(t testing.TB) []string {
	t.Helper()
	return sharedEnv(t.TempDir())
}

func sharedEnv(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test Author", "GIT_AUTHOR_EMAIL=author@example.com",
		"GIT_COMMITTER_NAME=Test Committer", "GIT_COMMITTER_EMAIL=committer@example.com",
		"GIT_AUTHOR_DATE=1700000000 +0000", "GIT_COMMITTER_DATE=1700000000 +0000",
		// git fast-import grows its heap with thousands of small brk calls,
		// which cost ~1 ms each on some virtual machines (15 s for a
		// 5,000-file import instead of 0.1 s): let glibc grow it in big steps.
		"MALLOC_TOP_PAD_=67108864",
	}
}

// run runs git in dir and returns its stdout; the test fails on error.
func run(t testing.TB, env []string, dir string, stdin []byte, args ...string) string {
	t.Helper()
	out, err := tryRun(env, dir, stdin, args...)
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func tryRun(env []string, dir string, stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%v: %s", err, stderr.String())
	}
	return stdout.String(), nil
}

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
}

// gitInit creates an empty repository with branch main.
func gitInit(t testing.TB, env []string, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	run(t, env, dir, nil, append([]string{"init", "-q", "-b", "main"}, extra...)...)
	return dir
}

// file is one entry of the generator's model of a tree.
type file struct {
	mode    string // 100644, 100755, 120000, 160000
	content string // blob content, symlink target, or gitlink commit id
}

// generator writes a random history as a git fast-import stream: nested
// agentty surfaces (some with odd case), symlinks, a symlinked `.agentty`,
// a submodule gitlink, executable bits, type changes, a file replaced by a
// directory, renames, and side branches merged back both keeping and
// discarding their changes.
type generator struct {
	rnd     *rand.Rand
	buf     bytes.Buffer
	mark    int
	when    int64
	dirs    []string
	nextID  int
	commits []string // marks of every commit, in order
}

func newGenerator(seed int64) *generator {
	return &generator{rnd: rand.New(rand.NewSource(seed)), when: 1700000000}
}

func (g *generator) name(prefix string) string {
	g.nextID++
	return fmt.Sprintf("%s%d", prefix, g.nextID)
}

// initial builds a model with about n files.
func (g *generator) initial(n int) map[string]file {
	g.dirs = []string{""}
	for len(g.dirs) < n/15+2 {
		parent := g.dirs[g.rnd.Intn(len(g.dirs))]
		if strings.Count(parent, "/") >= 4 {
			continue
		}
		g.dirs = append(g.dirs, join(parent, g.name("d")))
	}
	m := map[string]file{}
	for len(m) < n {
		g.addRandomFile(m)
	}
	// Surfaces at several depths, with and without odd case.
	m[".agentty/mcp.json"] = file{"100644", `{"mcpServers":{"a":{"command":"node"}}}`}
	m[".agentty/hooks.json"] = file{"100644", `{"pre_tool":[]}`}
	m[".agents/agents/reviewer.md"] = file{"100644", "# reviewer"}
	for i := 0; i < 6; i++ {
		d := g.dirs[1+g.rnd.Intn(len(g.dirs)-1)]
		switch i % 3 {
		case 0:
			m[join(d, ".agentty/mcp.json")] = file{"100644", g.name("{}")}
		case 1:
			m[join(d, ".claude/agents/"+g.name("p")+".md")] = file{"100644", g.name("persona ")}
		case 2:
			m[join(d, ".agentty/acp-agents.json")] = file{"100644", g.name("{}")}
		}
	}
	m["odd/.Agentty/MCP.json"] = file{"100644", "{}"}
	m["links/cfg"] = file{"120000", "../.agentty/mcp.json"}
	m["links/.agentty"] = file{"120000", "../.agentty"}
	m["links/.agentty-not"] = file{"100644", "not a surface"}
	m["vendor/sub"] = file{"160000", "1111111111111111111111111111111111111111"}
	m["conflict/x"] = file{"100644", "file that becomes a directory"}
	m["tool.sh"] = file{"100755", "#!/bin/sh\n"}
	return m
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func (g *generator) addRandomFile(m map[string]file) {
	d := g.dirs[g.rnd.Intn(len(g.dirs))]
	mode := "100644"
	if g.rnd.Intn(20) == 0 {
		mode = "100755"
	}
	m[join(d, g.name("f")+".txt")] = file{mode, g.name("content ")}
}

func sortedKeys(m map[string]file) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mutate applies a few random edits to a copy of m.
func (g *generator) mutate(m map[string]file, edits int) map[string]file {
	n := make(map[string]file, len(m))
	for k, v := range m {
		n[k] = v
	}
	keys := sortedKeys(n)
	pick := func() string { return keys[g.rnd.Intn(len(keys))] }
	for i := 0; i < edits; i++ {
		switch op := g.rnd.Intn(10); op {
		case 0, 1, 2: // modify
			p := pick()
			if f, ok := n[p]; ok && f.mode != "160000" {
				f.content = g.name(f.content[:min(len(f.content), 8)] + " edited ")
				if f.mode == "120000" {
					f.content = "../" + g.name("target")
				}
				n[p] = f
			}
		case 3: // add
			g.addRandomFile(n)
		case 4: // delete
			p := pick()
			if !strings.HasPrefix(p, "conflict/") {
				delete(n, p)
			}
		case 5: // rename: same content, new path
			p := pick()
			if f, ok := n[p]; ok && f.mode != "160000" && !strings.HasPrefix(p, "conflict/") && !strings.HasPrefix(p, "links/") {
				delete(n, p)
				n[join(g.dirs[g.rnd.Intn(len(g.dirs))], g.name("r")+".txt")] = f
			}
		case 6: // chmod
			p := pick()
			if f, ok := n[p]; ok && (f.mode == "100644" || f.mode == "100755") {
				f.mode = map[string]string{"100644": "100755", "100755": "100644"}[f.mode]
				n[p] = f
			}
		case 7: // surface edit or new nested surface
			if g.rnd.Intn(2) == 0 {
				n[".agentty/mcp.json"] = file{"100644", g.name(`{"mcpServers":{}} `)}
			} else {
				d := g.dirs[g.rnd.Intn(len(g.dirs))]
				n[join(d, ".agentty/mcp.json")] = file{"100644", g.name("{} ")}
			}
		case 8: // type change file <-> symlink
			p := pick()
			if f, ok := n[p]; ok && (f.mode == "100644" || f.mode == "100755") && !strings.HasPrefix(p, "conflict/") {
				n[p] = file{"120000", "../" + g.name("t")}
			}
		case 9: // gitlink moves
			n["vendor/sub"] = file{"160000", fmt.Sprintf("%040x", g.rnd.Int63())}
		}
	}
	return n
}

// commit writes a commit whose tree is exactly m, on branch, with the
// given parents (marks), and returns its mark.
func (g *generator) commit(branch string, parents []string, prev, m map[string]file) string {
	g.mark++
	mark := fmt.Sprintf(":%d", g.mark)
	g.when += 60
	fmt.Fprintf(&g.buf, "commit refs/heads/%s\nmark %s\n", branch, mark)
	fmt.Fprintf(&g.buf, "author A U Thor <author@example.com> %d +0000\n", g.when)
	fmt.Fprintf(&g.buf, "committer C O Mitter <committer@example.com> %d +0000\n", g.when)
	msg := "commit " + mark
	fmt.Fprintf(&g.buf, "data %d\n%s\n", len(msg), msg)
	if len(parents) > 0 {
		fmt.Fprintf(&g.buf, "from %s\n", parents[0])
		for _, p := range parents[1:] {
			fmt.Fprintf(&g.buf, "merge %s\n", p)
		}
	}
	if prev == nil {
		fmt.Fprintf(&g.buf, "deleteall\n")
	}
	for _, p := range sortedKeys(prev) {
		if _, ok := m[p]; !ok {
			fmt.Fprintf(&g.buf, "D %s\n", p)
		}
	}
	for _, p := range sortedKeys(m) {
		f := m[p]
		if old, ok := prev[p]; ok && old == f {
			continue
		}
		if f.mode == "160000" {
			fmt.Fprintf(&g.buf, "M 160000 %s %s\n", f.content, p)
			continue
		}
		fmt.Fprintf(&g.buf, "M %s inline %s\ndata %d\n%s\n", f.mode, p, len(f.content), f.content)
	}
	fmt.Fprintf(&g.buf, "\n")
	g.commits = append(g.commits, mark)
	return mark
}

// history generates the whole repository stream: an initial tree of about
// files entries, then commits on main with side branches merged back
// (alternately keeping and discarding the side's changes).
func (g *generator) history(files, commits int) []byte {
	tip := g.initial(files)
	mainMark := g.commit("main", nil, nil, tip)
	for i := 0; i < commits; i++ {
		switch {
		case i == 3:
			next := map[string]file{}
			for k, v := range tip {
				next[k] = v
			}
			delete(next, "conflict/x")
			next["conflict/x/inner.txt"] = file{"100644", "now a directory"}
			mainMark = g.commit("main", []string{mainMark}, tip, next)
			tip = next
		case i%7 == 5:
			// side branch with two commits touching surfaces
			side := g.mutate(tip, 3)
			side[".agentty/mcp.json"] = file{"100644", g.name(`{"side":true} `)}
			side[join(g.dirs[1], ".claude/agents/side.md")] = file{"100644", g.name("side persona ")}
			sideMark := g.commit(fmt.Sprintf("side%d", i), []string{mainMark}, tip, side)
			side2 := g.mutate(side, 2)
			sideMark = g.commit(fmt.Sprintf("side%d", i), []string{sideMark}, side, side2)
			mainNext := g.mutate(tip, 2)
			mainMark2 := g.commit("main", []string{mainMark}, tip, mainNext)
			var merged map[string]file
			if (i/7)%2 == 0 {
				merged = mainNext // discard every side change ("ours")
			} else {
				merged = map[string]file{}
				for k, v := range side2 {
					merged[k] = v // take the side ("theirs")
				}
			}
			mainMark = g.commit("main", []string{mainMark2, sideMark}, mainNext, merged)
			tip = merged
		default:
			next := g.mutate(tip, 1+g.rnd.Intn(4))
			mainMark = g.commit("main", []string{mainMark}, tip, next)
			tip = next
		}
	}
	return g.buf.Bytes()
}

// genRepo creates a repository from a generated history and checks out main.
func genRepo(t testing.TB, env []string, seed int64, files, commits int) (dir string, g *generator) {
	t.Helper()
	dir = gitInit(t, env)
	g = newGenerator(seed)
	stream := g.history(files, commits)
	run(t, env, dir, stream, "fast-import", "--quiet", "--export-marks=.git/marks")
	run(t, env, dir, nil, "reset", "-q", "--hard", "main")
	return dir, g
}

// marks maps fast-import marks to commit ids.
func marks(t testing.TB, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".git", "marks"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(l)
		out[f[0]] = f[1]
	}
	return out
}

// engines are the engine configurations every differential test runs:
// git with the native reader, git with cat-file only, and in-process.
var engines = []Engine{EngineWithGit, engineGitCatFile, EngineInProcess}

func openT(t testing.TB, dir string, env []string, e Engine, opts ...Option) *Repo {
	t.Helper()
	r, err := Open(dir, append([]Option{WithEngine(e), WithEnv(env)}, opts...)...)
	if err != nil {
		t.Fatalf("open %s with %v: %v", dir, e, err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func resolveT(t testing.TB, r *Repo, rev string) Side {
	t.Helper()
	s, err := r.Resolve(rev)
	if err != nil {
		t.Fatalf("resolve %s (%v): %v", rev, r.Engine(), err)
	}
	return s
}

func changeString(c Change) string {
	e := func(x *Entry) string {
		if x == nil {
			return "-"
		}
		return x.Mode.String() + ":" + x.ID
	}
	return fmt.Sprintf("%s %s %s %s", c.Path, e(c.Old), e(c.New), c.Parent)
}

func changeStrings(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, changeString(c))
	}
	sort.Strings(out)
	return out
}

func diffLines(a, b []string) string {
	as, bs := map[string]bool{}, map[string]bool{}
	for _, x := range a {
		as[x] = true
	}
	for _, x := range b {
		bs[x] = true
	}
	var out []string
	for _, x := range a {
		if !bs[x] {
			out = append(out, "- "+x)
		}
	}
	for _, x := range b {
		if !as[x] {
			out = append(out, "+ "+x)
		}
	}
	if len(out) > 20 {
		out = append(out[:20], fmt.Sprintf("... %d more", len(out)-20))
	}
	return strings.Join(out, "\n")
}

func writeFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
