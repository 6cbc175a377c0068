package project

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// repo is a real git repository built by a test.
type repo struct {
	t   testing.TB
	dir string
	env []string
}

func newRepo(t testing.TB) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home := t.TempDir()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	r := &repo{t: t, dir: dir, env: []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=C", "GIT_COMMITTER_EMAIL=c@example.com",
		"GIT_AUTHOR_DATE=1700000000 +0000", "GIT_COMMITTER_DATE=1700000000 +0000",
	}}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// write sets files (path -> content; "" removes; "->target" makes a
// symlink) in the work tree.
func (r *repo) write(files map[string]string) {
	r.t.Helper()
	for p, content := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		os.RemoveAll(full)
		if content == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, full); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(content, "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit writes files, commits everything and returns the commit id.
func (r *repo) commit(files map[string]string) string {
	r.t.Helper()
	r.write(files)
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", "c")
	return r.git("rev-parse", "HEAD")
}

// fastImport writes two commits on main with git fast-import (much faster
// than the work tree for large trees): base, then base updated by next.
func (r *repo) fastImport(base, next map[string]string) (a, b string) {
	r.t.Helper()
	var buf bytes.Buffer
	commit := func(mark int, files map[string]string, from int) {
		fmt.Fprintf(&buf, "commit refs/heads/main\nmark :%d\ncommitter C <c@example.com> 1700000000 +0000\ndata 1\nc\n", mark)
		if from > 0 {
			fmt.Fprintf(&buf, "from :%d\n", from)
		}
		for p, content := range files {
			fmt.Fprintf(&buf, "M 100644 inline %s\ndata %d\n%s\n", p, len(content), content)
		}
	}
	commit(1, base, 0)
	commit(2, next, 1)
	cmd := exec.Command("git", "fast-import", "--quiet")
	// See bench/cmd/gen: glibc's heap trimming makes fast-import crawl.
	env := append(r.env, "MALLOC_TOP_PAD_=268435456", "MALLOC_TRIM_THRESHOLD_=536870912")
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, env, &buf
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git fast-import: %v: %s", err, out)
	}
	return r.git("rev-parse", "main~1"), r.git("rev-parse", "main")
}

func (r *repo) open(opts ...gitscan.Option) *gitscan.Repo {
	r.t.Helper()
	g, err := gitscan.Open(r.dir, append([]gitscan.Option{gitscan.WithEnv(r.env)}, opts...)...)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { g.Close() })
	return g
}

func (r *repo) side(g *gitscan.Repo, rev string) gitscan.Side {
	r.t.Helper()
	s, err := g.Resolve(rev)
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

func approve(hashes ...string) Options {
	set := map[string]bool{}
	for _, h := range hashes {
		set[h] = true
	}
	return Options{Grants: trust.Grants{Approved: func(h string) bool { return set[h] }}}
}

// brief renders a result as "path:server:change:impact" lines plus the
// finding rules.
func brief(res *Result) string {
	var parts []string
	for _, c := range res.Changes {
		parts = append(parts, fmt.Sprintf("%s:%s:%s:%s", c.Path, c.Server, c.Change, c.Impact))
	}
	for _, f := range res.Findings {
		parts = append(parts, f.Rule+":"+f.Path)
	}
	return strings.Join(parts, " ")
}

const (
	nodeCfg = `{"mcpServers":{"srv":{"command":"node","args":["server.js"]}}}`
)

func fingerprint(t *testing.T, cfg, name string) string {
	t.Helper()
	return trust.Parse(".agentty/mcp.json", []byte(cfg), trust.ScopeProject).Server(name).Fingerprint
}

func TestCompareCommits(t *testing.T) {
	fpNode := fingerprint(t, nodeCfg, "srv")
	tests := []struct {
		name      string
		base, new map[string]string
		opts      Options
		want      string
	}{
		{"command swapped, approved",
			map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "ok"},
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"srv":{"command":"node","args":["evil.js"]}}}`},
			approve(fpNode), ".agentty/mcp.json:srv:changed:invalidated"},
		{"script edited, config untouched",
			map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "ok"},
			map[string]string{"server.js": "evil"},
			approve(fpNode), ".agentty/mcp.json:srv:changed:trust-preserving"},
		{"unrelated file edited",
			map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "ok", "README": "a"},
			map[string]string{"README": "b"},
			approve(fpNode), ""},
		{"script made executable",
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"s":{"command":"./run"}}}`, "run": "echo"},
			map[string]string{"run": "#!echo"},
			approve(fingerprint(t, `{"mcpServers":{"s":{"command":"./run"}}}`, "s")), ".agentty/mcp.json:s:changed:trust-preserving"},
		{"script through a symlinked directory",
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"s":{"command":"./tools/srv"}}}`, "tools": "->real", "real/srv": "#!v1"},
			map[string]string{"real/srv": "#!v2"},
			approve(fingerprint(t, `{"mcpServers":{"s":{"command":"./tools/srv"}}}`, "s")), ".agentty/mcp.json:s:changed:trust-preserving"},
		{"script symlink retargeted",
			map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "->lib/a.js", "lib/a.js": "a", "lib/b.js": "b"},
			map[string]string{"server.js": "->lib/b.js"},
			approve(fpNode), ".agentty/mcp.json:srv:changed:trust-preserving"},
		{"env added",
			map[string]string{".agentty/mcp.json": nodeCfg},
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"srv":{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"-r ./x.js"}}}}`},
			approve(fpNode), ".agentty/mcp.json:srv:changed:trust-preserving MG101:.agentty/mcp.json"},
		{"unreadable Codex config: its MG310 once, though its servers and its hooks are two readings",
			map[string]string{"README": "a"},
			map[string]string{".codex/config.toml": "[deep]\nv = " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n"},
			Options{}, "MG310:.codex/config.toml"},
		{"nested config added",
			map[string]string{".agentty/mcp.json": nodeCfg},
			map[string]string{"sub/.agentty/mcp.json": nodeCfg},
			Options{}, "sub/.agentty/mcp.json:srv:added:new-unapproved MG306:sub/.agentty/mcp.json"},
		{"nested config added, approved elsewhere",
			map[string]string{".agentty/mcp.json": nodeCfg},
			map[string]string{"sub/.agentty/mcp.json": nodeCfg},
			approve(fpNode), "sub/.agentty/mcp.json:srv:added:new-preapproved MG306:sub/.agentty/mcp.json"},
		{"config becomes a symlink",
			map[string]string{".agentty/mcp.json": nodeCfg, "conf/mcp.json": `{"mcpServers":{"srv":{"command":"node","args":["evil.js"]}}}`},
			map[string]string{".agentty/mcp.json": "->../conf/mcp.json"},
			approve(fpNode), ".agentty/mcp.json:srv:changed:invalidated MG305:.agentty/mcp.json"},
		{"symlink target edited",
			map[string]string{".agentty/mcp.json": "->../conf/mcp.json", "conf/mcp.json": nodeCfg},
			map[string]string{"conf/mcp.json": `{"mcpServers":{"srv":{"command":"node","args":["server.js"],"trustAnnotations":true}}}`},
			approve(fpNode), ".agentty/mcp.json:srv:changed:trust-preserving MG305:.agentty/mcp.json"},
		{"symlink out of the repository",
			map[string]string{".agentty/mcp.json": nodeCfg},
			map[string]string{".agentty/mcp.json": "->/etc/mcp.json"},
			approve(fpNode), "MG305:.agentty/mcp.json MG310:.agentty/mcp.json"},
		{".agentty directory symlinked",
			map[string]string{"sub/x": "x", "shared/mcp.json": nodeCfg},
			map[string]string{"sub/.agentty": "->../shared"},
			Options{}, "sub/.agentty/mcp.json:srv:added:new-unapproved MG305:sub/.agentty MG305:sub/.agentty/mcp.json MG306:sub/.agentty/mcp.json"},
		{"hooks, acp agents and personas",
			map[string]string{"x": "x", ".claude/agents/old.md": "a"},
			map[string]string{".agentty/hooks.json": "{}", ".agentty/acp-agents.json": "{}", ".claude/agents/new.md": "n", ".claude/agents/old.md": "b"},
			Options{}, "MG502:.agentty/acp-agents.json MG501:.agentty/hooks.json MG503:.claude/agents/new.md MG503:.claude/agents/old.md"},
		{"script a hook runs edited",
			map[string]string{".agentty/hooks.json": `{"pre_tool":[{"match":"*","run":"./hooks/check.sh --all"}]}`, "hooks/check.sh": "#!v1"},
			map[string]string{"hooks/check.sh": "#!v2"},
			Options{}, "MG501:.agentty/hooks.json"},
		{"server renamed",
			map[string]string{".agentty/mcp.json": nodeCfg},
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"svc":{"command":"node","args":["server.js"]}}}`},
			Options{}, ".agentty/mcp.json:svc:renamed:new-unapproved"},
		{"config removed",
			map[string]string{".agentty/mcp.json": nodeCfg},
			map[string]string{".agentty/mcp.json": ""},
			approve(fpNode), ".agentty/mcp.json:srv:removed:removed"},
		{"config becomes invalid",
			map[string]string{".agentty/mcp.json": nodeCfg},
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"srv":{"command":"node",}}}`},
			approve(fpNode), ".agentty/mcp.json:srv:removed:removed MG301:.agentty/mcp.json"},
		{"go run package edited",
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"g":{"command":"go","args":["run","./cmd/srv"]}}}`, "cmd/srv/main.go": "package main", "go.mod": "module x"},
			map[string]string{"cmd/srv/util.go": "package main"},
			approve(fingerprint(t, `{"mcpServers":{"g":{"command":"go","args":["run","./cmd/srv"]}}}`, "g")), ".agentty/mcp.json:g:changed:trust-preserving"},
		{"go.mod edited",
			map[string]string{".agentty/mcp.json": `{"mcpServers":{"g":{"command":"go","args":["run","./cmd/srv"]}}}`, "cmd/srv/main.go": "package main", "go.mod": "module x"},
			map[string]string{"go.mod": "module x\nreplace y => ./evil"},
			Options{}, ".agentty/mcp.json:g:changed:new-unapproved"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			a := r.commit(tt.base)
			b := r.commit(tt.new)
			g := r.open()
			res, err := Compare(context.Background(), g, r.side(g, a), r.side(g, b), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := brief(res); got != tt.want {
				t.Errorf("Compare:\n got %q\nwant %q", got, tt.want)
			}
			if res.NeedsAttention() != (tt.want != "" && !strings.HasSuffix(tt.want, ":removed")) {
				t.Errorf("NeedsAttention = %v", res.NeedsAttention())
			}
			// Reading the same revisions with the go-git engine gives the
			// same answer.
			g2 := r.open(gitscan.WithEngine(gitscan.EngineGoGit), gitscan.WithoutCache())
			res2, err := Compare(context.Background(), g2, r.side(g2, a), r.side(g2, b), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if brief(res2) != brief(res) {
				t.Errorf("go-git engine: %q, git engine %q", brief(res2), brief(res))
			}
		})
	}
}

func TestCompareWorkTreeAndEmpty(t *testing.T) {
	r := newRepo(t)
	a := r.commit(map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "ok"})
	r.write(map[string]string{"server.js": "evil"})
	g := r.open()
	opts := approve(fingerprint(t, nodeCfg, "srv"))
	res, err := Compare(context.Background(), g, r.side(g, a), gitscan.WorkTree, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := brief(res), ".agentty/mcp.json:srv:changed:trust-preserving"; got != want {
		t.Errorf("HEAD vs work tree: %q, want %q", got, want)
	}
	c := res.Changes[0]
	if len(c.Files) != 1 || c.Files[0].Path != "server.js" || c.Files[0].Old == c.Files[0].New {
		t.Errorf("files: %+v", c.Files)
	}
	// The initial clone: everything is new.
	res, err = Compare(context.Background(), g, gitscan.Empty, r.side(g, a), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := brief(res), ".agentty/mcp.json:srv:added:new-preapproved"; got != want {
		t.Errorf("empty vs HEAD: %q, want %q", got, want)
	}
}

// TestCompareCost: with the surface cache warm, comparing two commits
// reads a number of objects that follows the change, not the repository.
func TestCompareCost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds repositories")
	}
	reads := func(dirs int) int64 {
		r := newRepo(t)
		files := map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "ok", "sub/.agentty/mcp.json": nodeCfg}
		for i := 0; i < dirs; i++ {
			for j := 0; j < 10; j++ {
				files[fmt.Sprintf("d%03d/e%d/f%d.txt", i, j%3, j)] = fmt.Sprint(i, j)
			}
		}
		a, b := r.fastImport(files, map[string]string{"server.js": "evil", "d000/e0/f0.txt": "changed"})
		var n gitscan.Counter
		g := r.open(gitscan.WithReadCounter(&n))
		sa, sb := r.side(g, a), r.side(g, b)
		if _, _, err := g.Surfaces(sa); err != nil { // warm the cache, as the hook's previous run did
			t.Fatal(err)
		}
		n.Reset()
		res, err := Compare(context.Background(), g, sa, sb, approve(fingerprint(t, nodeCfg, "srv")))
		if err != nil {
			t.Fatal(err)
		}
		if got := brief(res); got != ".agentty/mcp.json:srv:changed:trust-preserving" {
			t.Fatalf("dirs=%d: %q", dirs, got)
		}
		return n.Objects()
	}
	small, large := reads(5), reads(150)
	t.Logf("objects read: %d (5 dirs), %d (150 dirs)", small, large)
	if large > small+5 {
		t.Errorf("cost grows with the repository: %d objects for 5 dirs, %d for 150", small, large)
	}
}

func TestLoad(t *testing.T) {
	r := newRepo(t)
	a := r.commit(map[string]string{
		".agentty/mcp.json":     nodeCfg,
		"server.js":             "ok",
		"sub/.agentty/mcp.json": `{"mcpServers":{"x":{"command":"./bin/x"},"y":{"url":"https://e.example"}}}`,
		"sub/bin/x":             "#!x",
		".agentty/hooks.json":   "{}",
	})
	g := r.open()
	snap, err := Load(context.Background(), g, r.side(g, a), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range snap.Configs {
		for _, s := range c.Servers {
			var files []string
			for _, f := range s.Files {
				files = append(files, f.Path+"@"+f.Mode)
			}
			got = append(got, fmt.Sprintf("%s:%s:%s:%d", c.Path, s.Name, strings.Join(files, ","), len(s.Deep)))
		}
	}
	want := ".agentty/mcp.json:srv:server.js@100644:64 sub/.agentty/mcp.json:x:sub/bin/x@100755:64 sub/.agentty/mcp.json:y::64"
	if strings.Join(got, " ") != want {
		t.Errorf("Load:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	var rules []string
	for _, f := range snap.Findings {
		rules = append(rules, f.Rule+":"+f.Path)
	}
	if got, want := strings.Join(rules, " "), "MG501:.agentty/hooks.json MG306:sub/.agentty/mcp.json"; got != want {
		t.Errorf("findings %q, want %q", got, want)
	}
	// LoadConfig agrees with Load, and the work tree with the commit.
	for _, side := range []gitscan.Side{r.side(g, a), gitscan.WorkTree, gitscan.Index} {
		c, err := LoadConfig(context.Background(), g, side, "sub/.agentty/mcp.json", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Servers[0].Deep != snap.Configs[1].Servers[0].Deep {
			t.Errorf("%s: deep fingerprint %s, Load says %s", side, c.Servers[0].Deep, snap.Configs[1].Servers[0].Deep)
		}
	}
	if c, err := LoadConfig(context.Background(), g, r.side(g, a), "none/.agentty/mcp.json", Options{}); c != nil || err != nil {
		t.Errorf("absent config: %v, %v", c, err)
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string, mode os.FileMode) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := LoadDir(context.Background(), dir, Options{}); c != nil || err != nil {
		t.Fatalf("no config: %v %v", c, err)
	}
	write(".agentty/mcp.json", `{"mcpServers":{"srv":{"command":"node","args":["server.js"]},"py":{"command":"python3","args":["-m","pkg"]}}}`, 0o644)
	write("server.js", "v1", 0o644)
	write("pkg/__main__.py", "print(1)", 0o644)
	deep := func() map[string]string {
		c, err := LoadDir(context.Background(), dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, s := range c.Servers {
			out[s.Name] = s.Deep
			if len(s.Files) != 1 {
				t.Errorf("%s: files %+v", s.Name, s.Files)
			}
		}
		return out
	}
	first := deep()
	if again := deep(); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("not stable: %v vs %v", again, first)
	}
	write("server.js", "v2", 0o644)
	second := deep()
	if second["srv"] == first["srv"] || second["py"] != first["py"] {
		t.Errorf("server.js edit: %v -> %v", first, second)
	}
	write("pkg/evil.py", "x", 0o644)
	if third := deep(); third["py"] == second["py"] {
		t.Error("a file added to the python package did not change its deep fingerprint")
	}
	// The blob id is git's.
	c, _ := LoadDir(context.Background(), dir, Options{})
	if id := fileID(c.Files["srv"], "server.js"); id != gitBlobID([]byte("v2")) || id != "8494ac27064713465d43ddea83398365ac0ba721" {
		t.Errorf("server.js id %s", id)
	}
}

// fileID is the object id of the file at p among files ("" when absent).
func fileID(files []trust.FileID, p string) string {
	for _, f := range files {
		if f.Path == p {
			return f.ID
		}
	}
	return ""
}

// TestSharedAnalysisOnlyForEqualInputs: servers with the same command
// line, environment and directory share one analysis; one argument or one
// variable apart, each is analysed on its own and binds its own files.
func TestSharedAnalysisOnlyForEqualInputs(t *testing.T) {
	dir := t.TempDir()
	for p, s := range map[string]string{
		".agentty/mcp.json": `{"mcpServers":{
			"a":{"command":"node","args":["server.js"]},
			"b":{"command":"node","args":["server.js"]},
			"c":{"command":"node","args":["other.js"]},
			"d":{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"--require ./hook.js"}},
			"e":{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"--require ./hook2.js"}}}}`,
		"server.js": "1", "other.js": "2", "hook.js": "3", "hook2.js": "4",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := LoadDir(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Server{}
	for _, s := range c.Servers {
		by[s.Name] = s
	}
	if by["a"].Scope != by["b"].Scope {
		t.Error("a and b have the same inputs but were analysed twice")
	}
	if by["a"].Deep == "" || by["a"].Deep != by["b"].Deep {
		t.Errorf("a and b: deep %q and %q", by["a"].Deep, by["b"].Deep)
	}
	for _, x := range []struct{ name, file string }{{"c", "other.js"}, {"d", "hook.js"}, {"e", "hook2.js"}} {
		s := by[x.name]
		if s.Scope == by["a"].Scope {
			t.Errorf("%s shares a's analysis: its inputs differ", x.name)
		}
		if fileID(s.Files, x.file) == "" {
			t.Errorf("%s does not bind %s: %+v", x.name, x.file, s.Files)
		}
		if s.Deep == by["a"].Deep {
			t.Errorf("%s has a's deep fingerprint", x.name)
		}
	}
	if fileID(by["e"].Files, "hook.js") != "" || fileID(by["d"].Files, "hook2.js") != "" {
		t.Error("d and e share an analysis: their env differs")
	}
}
