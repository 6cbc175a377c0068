package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// shape describes one generated repository. The same shape and seed give
// the same commits (and so the same ids) whatever the storage variant.
type shape struct {
	name    string
	files   int // ordinary files in the initial tree
	fanout  int // directories per level (two levels below src/)
	commits int // commits before the pull scenarios (merges included)
	// configEvery: one commit in configEvery edits an agentty surface.
	configEvery int
	seed        int64
}

// storage is how the objects of a generated repository are stored.
type storage string

const (
	onePack     storage = "one-pack"
	manyPack    storage = "many-pack"    // a fast-import checkpoint every packEvery commits
	commitGraph storage = "commit-graph" // one pack + commit-graph
	bloom       storage = "bloom"        // one pack + commit-graph with changed-path Bloom filters
)

// The scenario tags every generated repository ends with. Each pull
// branches off bench/base:
//
//	bench/noise   20 commits that touch no agentty surface and no file a server runs
//	bench/config  20 commits, one of which adds env.NODE_OPTIONS to the root config
//	bench/script  20 commits, one of which edits server.js, which the root server runs
//	bench/one     1 commit that touches no surface (the smallest pull)
const pullCommits = 20

const rootServer = `"notes":{"command":"node","args":["server.js"]}`

func rootConfig(v int, extra string) string {
	return fmt.Sprintf(`{"mcpServers":{%s,"db":{"command":"npx","args":["-y","@modelcontextprotocol/server-postgres@0.6.%d"]%s}}}`+"\n", rootServer, v, extra)
}

func nestedConfig(i, v int) string {
	return fmt.Sprintf(`{"mcpServers":{"tool%d":{"command":"./tool.sh","args":["--n","%d"]}}}`+"\n", i, v)
}

// gen writes the fast-import stream of shape s.
type gen struct {
	s     shape
	w     *bufio.Writer
	rng   *rand.Rand
	when  int64
	mark  int
	paths []string // ordinary files
	surf  []string // surface files edited by history commits
	// state of main and of the current side branch: path -> content
	main map[string]string
	// counters for the report
	commits, merges, discarded, surfaceCommits int
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(g.w, format, args...) }

func (g *gen) blob(path, content string) {
	g.printf("M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
}

// commit starts a commit on ref with the given parents (marks; 0 = none).
func (g *gen) commit(ref, msg string, from int, merges ...int) int {
	g.mark++
	g.when += 7
	g.commits++
	g.printf("commit %s\nmark :%d\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", ref, g.mark, g.when, len(msg), msg)
	if from > 0 {
		g.printf("from :%d\n", from)
	}
	for _, m := range merges {
		g.printf("merge :%d\n", m)
	}
	return g.mark
}

func (g *gen) fileName(i int) string {
	f := g.s.fanout
	return fmt.Sprintf("src/d%02d/e%02d/f%05d.txt", i%f, (i/f)%f, i)
}

// edit changes n random ordinary files of state st, writing them.
func (g *gen) edit(st map[string]string, n int, label string) {
	for k := 0; k < n; k++ {
		p := g.paths[g.rng.Intn(len(g.paths))]
		c := fmt.Sprintf("%s %d.%d\n", label, g.commits, k)
		st[p] = c
		g.blob(p, c)
	}
}

// editSurface changes one agentty surface of st.
func (g *gen) editSurface(st map[string]string) string {
	p := g.surf[g.rng.Intn(len(g.surf))]
	var c string
	switch {
	case p == ".agentty/mcp.json":
		c = rootConfig(g.commits, "")
	case strings.HasSuffix(p, "/mcp.json"):
		c = nestedConfig(len(p), g.commits)
	default:
		c = fmt.Sprintf("# persona, revision %d\n", g.commits)
	}
	st[p] = c
	g.blob(p, c)
	g.surfaceCommits++
	return p
}

func (g *gen) generate() {
	s := g.s
	g.when = 1600000000
	g.main = map[string]string{}
	for i := 0; i < s.files; i++ {
		g.paths = append(g.paths, g.fileName(i))
	}
	head := g.commit("refs/heads/main", "initial tree", 0)
	for i, p := range g.paths {
		c := fmt.Sprintf("file %d\n", i)
		g.main[p] = c
		g.blob(p, c)
	}
	put := func(p, c string) { g.main[p] = c; g.blob(p, c) }
	put(".agentty/mcp.json", rootConfig(0, ""))
	put(".agentty/hooks.json", `{"pre_tool":[{"run":"./scripts/check.sh"}]}`+"\n")
	put(".claude/agents/reviewer.md", "# reviewer\n")
	put("server.js", "console.log('v1')\n")
	put("scripts/check.sh", "#!/bin/sh\n")
	g.surf = []string{".agentty/mcp.json", ".agentty/mcp.json", ".agentty/mcp.json", ".claude/agents/reviewer.md"}
	for i := 0; i < 5; i++ {
		d := fmt.Sprintf("src/d%02d", (i*3)%s.fanout)
		put(d+"/.agentty/mcp.json", nestedConfig(i, 0))
		put(d+"/tool.sh", fmt.Sprintf("#!/bin/sh\necho %d\n", i))
		g.surf = append(g.surf, d+"/.agentty/mcp.json")
	}
	surfaceDue := func() bool { return g.rng.Intn(s.configEvery) == 0 }
	for g.commits < s.commits {
		if g.rng.Intn(40) != 0 || s.commits-g.commits < 12 {
			head = g.commit("refs/heads/main", fmt.Sprintf("main %d", g.commits), head)
			if surfaceDue() {
				g.editSurface(g.main)
			}
			g.edit(g.main, 1+g.rng.Intn(3), "main")
			continue
		}
		// A side branch of 2-8 commits, merged back in one of three ways.
		fork := head
		side := map[string]string{}
		tip := fork
		n := 2 + g.rng.Intn(7)
		for k := 0; k < n; k++ {
			tip = g.commit("refs/heads/side", fmt.Sprintf("side %d", g.commits), tip)
			if g.rng.Intn(s.configEvery/4+1) == 0 { // side branches touch surfaces more often
				g.editSurface(side)
			}
			g.edit(side, 1+g.rng.Intn(2), "side")
		}
		// main moves on meanwhile
		for k := 0; k < 1+g.rng.Intn(3); k++ {
			head = g.commit("refs/heads/main", fmt.Sprintf("main %d", g.commits), head)
			g.edit(g.main, 1+g.rng.Intn(3), "main")
		}
		mode := g.rng.Intn(3)
		head = g.commit("refs/heads/main", fmt.Sprintf("merge side (%s)", [...]string{"keep", "discard", "combine"}[mode]), head, tip)
		g.merges++
		switch mode {
		case 1: // -s ours: the merge's tree is main's, every side change is discarded
			g.discarded++
		default:
			for _, p := range sortedKeys(side) {
				c := side[p]
				if mode == 2 && g.rng.Intn(2) == 0 {
					if _, onMain := g.main[p]; onMain {
						continue // this file keeps main's version
					}
				}
				g.main[p] = c
				g.blob(p, c)
			}
		}
	}
	g.printf("reset refs/tags/bench/base\nfrom :%d\n\n", head)
	base := head
	pull := func(tag string, n int, special func(map[string]string)) {
		st := map[string]string{}
		tip := base
		for k := 0; k < n; k++ {
			tip = g.commit("refs/heads/pull-"+tag, fmt.Sprintf("%s %d", tag, k), tip)
			if k == n/2 && special != nil {
				special(st)
			}
			g.edit(st, 1+g.rng.Intn(3), tag)
		}
		g.printf("reset refs/tags/bench/%s\nfrom :%d\n\n", tag, tip)
	}
	pull("noise", pullCommits, nil)
	pull("config", pullCommits, func(st map[string]string) {
		g.blob(".agentty/mcp.json", rootConfig(999, `,"env":{"NODE_OPTIONS":"--require ./preload.js"}`))
	})
	pull("script", pullCommits, func(st map[string]string) { g.blob("server.js", "console.log('v2')\n") })
	pull("one", 1, nil)
	g.printf("done\n")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// genEnv is the environment git runs with while generating: no user or
// system configuration, and glibc told to grow fast-import's heap in big
// steps (otherwise hundreds of thousands of small brk calls make it many
// times slower on this kind of virtual machine).
func genEnv() []string {
	return append(cleanEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"MALLOC_TOP_PAD_=1073741824", "MALLOC_TRIM_THRESHOLD_=2147483648",
		"GLIBC_TUNABLES=glibc.malloc.top_pad=1073741824:glibc.malloc.trim_threshold=2147483648")
}

func gitIn(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = genEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// genVersion changes whenever the generator's output changes, so cached
// repositories from an older generator are made again.
const genVersion = 3

// stamp is written into every generated repository: what made it.
func stamp(s shape, st storage) string {
	return fmt.Sprintf("perf generator v%d %+v %s\n", genVersion, s, st)
}

// create generates shape s, stored one way, at dir (which must not
// exist). The one-pack variant is imported with git fast-import and then
// repacked as git gc would (git repack -a -d -f: fast-import's own deltas
// run from old to new, the opposite of a clone's, and would make the newest
// trees the most expensive to read); the other variants are copies of it:
//
//	many-pack     the same objects in ~50 packs, one per stretch of history
//	              (as a repository that fetched regularly has them)
//	commit-graph  git commit-graph write --reachable
//	bloom         the same with --changed-paths (Bloom filters)
func create(out string, r repo, log io.Writer) error {
	dir := r.dir(out)
	start := time.Now()
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	var g *gen
	if r.storage == onePack {
		var err error
		if g, err = importShape(tmp, r.shape, log); err != nil {
			return err
		}
		if err := gitIn(tmp, "-c", "pack.threads=2", "repack", "-a", "-d", "-f", "-q"); err != nil {
			return err
		}
	} else {
		src := repo{r.shape, onePack}
		if err := ensure(out, src); err != nil {
			return err
		}
		if b, err := exec.Command("cp", "-a", src.dir(out), tmp).CombinedOutput(); err != nil {
			return fmt.Errorf("cp: %v: %s", err, b)
		}
		var err error
		switch r.storage {
		case commitGraph:
			err = gitIn(tmp, "commit-graph", "write", "--reachable")
		case bloom:
			err = gitIn(tmp, "commit-graph", "write", "--reachable", "--changed-paths")
		case manyPack:
			err = splitPacks(tmp, 50)
		}
		if err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, ".git", "perf-stamp"), []byte(stamp(r.shape, r.storage)), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	if g != nil {
		fmt.Fprintf(log, "perf: generated %s: %d commits (%d merges, %d discarding their side), %d touching a surface, in %v\n",
			dir, g.commits, g.merges, g.discarded, g.surfaceCommits, time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Fprintf(log, "perf: generated %s in %v\n", dir, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// importShape writes shape s into a new repository at dir with fast-import.
func importShape(dir string, s shape, log io.Writer) (*gen, error) {
	var g *gen
	err := fastImport(dir, log, func(w *bufio.Writer) {
		g = &gen{s: s, w: w, rng: rand.New(rand.NewSource(s.seed))}
		g.generate()
	})
	if err != nil {
		return nil, err
	}
	// HEAD at bench/base with a matching index (no checkout: the benchmarks
	// compare commits, and a checkout would cost more than the import).
	for _, args := range [][]string{{"update-ref", "--no-deref", "HEAD", "bench/base^{commit}"}, {"read-tree", "HEAD"}} {
		if err := gitIn(dir, args...); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// fastImport makes a new repository at dir from the fast-import stream
// write writes.
func fastImport(dir string, log io.Writer, write func(*bufio.Writer)) error {
	if err := gitIn("", "init", "-q", "-b", "main", dir); err != nil {
		return err
	}
	cmd := exec.Command("git", "fast-import", "--quiet", "--done")
	cmd.Dir, cmd.Env, cmd.Stderr = dir, genEnv(), log
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(in, 1<<20)
	write(w)
	ferr := w.Flush()
	in.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	return ferr
}

// splitPacks replaces the repository's packs by n packs, each holding the
// objects a stretch of main's first-parent history introduced (the last
// one everything else), the way fetches accumulate them.
func splitPacks(dir string, n int) error {
	cmd := exec.Command("git", "rev-list", "--first-parent", "--reverse", "main")
	cmd.Dir, cmd.Env = dir, genEnv()
	b, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git rev-list: %w", err)
	}
	commits := strings.Fields(string(b))
	cmd = exec.Command("git", "for-each-ref", "--format=%(objectname)")
	cmd.Dir, cmd.Env = dir, genEnv()
	tips, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git for-each-ref: %w", err)
	}
	old, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*"))
	if err != nil {
		return err
	}
	prev := ""
	for k := 1; k <= n; k++ {
		var input string
		if k < n {
			tip := commits[k*len(commits)/n-1]
			input = tip + "\n"
			if prev != "" {
				input += "^" + prev + "\n"
			}
			prev = tip
		} else {
			input = string(tips) + "^" + prev + "\n"
		}
		cmd := exec.Command("git", "pack-objects", "-q", "--revs", ".git/objects/pack/pack")
		cmd.Dir, cmd.Env, cmd.Stdin = dir, genEnv(), strings.NewReader(input)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git pack-objects: %v: %s", err, out)
		}
	}
	for _, p := range old {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	// Nothing may be lost on the way.
	return gitIn(dir, "fsck", "--connectivity-only", "--no-progress")
}
