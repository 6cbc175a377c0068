// Command gen generates a large git repository for mcp-guard's benchmarks:
// a wide tree of ordinary files with agentty configurations at the root and
// nested below it, and a long history of small commits, written in one
// pass through `git fast-import` (seconds, not minutes).
//
//	go run ./bench/cmd/gen -dir /tmp/big -files 50000 -commits 20000
//
// The history ends with commits the diff benchmark compares (tagged):
//
//	bench/base       the state before the last commits
//	bench/script     base + an edit of server.js, which the root config's server runs
//	bench/config     bench/script + an added env.NODE_OPTIONS in the root config
//	bench/noise      bench/config + an edit of an unrelated file
//	bench/pull       bench/noise + -pull more small commits (a pull's worth)
//
// so `diff bench/base bench/script` is "a pull that edits what a server
// runs", `diff bench/config bench/noise` a pull that touches nothing of
// agentty's, and `diff bench/base bench/pull` a pull of many commits.
// Every size is a flag, so other benchmarks can reuse the generator.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"time"
)

type options struct {
	dir       string
	files     int
	commits   int
	fanout    int
	configs   int
	pull      int
	perCommit int
	seed      int64
	stdout    bool
}

func main() {
	var o options
	flag.StringVar(&o.dir, "dir", "", "create the repository in `DIR` (must not exist)")
	flag.IntVar(&o.files, "files", 50000, "ordinary files in the tree")
	flag.IntVar(&o.commits, "commits", 20000, "commits of history before bench/base")
	flag.IntVar(&o.fanout, "fanout", 40, "directories per level (two levels)")
	flag.IntVar(&o.configs, "configs", 20, "nested .agentty/mcp.json configurations besides the root one")
	flag.IntVar(&o.pull, "pull", 100, "commits between bench/noise and bench/pull")
	flag.IntVar(&o.perCommit, "per-commit", 2, "files each history commit changes")
	flag.Int64Var(&o.seed, "seed", 1, "random seed (the same flags give the same repository)")
	flag.BoolVar(&o.stdout, "stdout", false, "write the fast-import stream to stdout instead of creating a repository")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.files < 1 || o.commits < 1 || o.fanout < 1 || o.configs < 0 || o.pull < 1 || o.perCommit < 1 {
		return errors.New("sizes must be positive")
	}
	if o.stdout {
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		if err := generate(w, o); err != nil {
			return err
		}
		return w.Flush()
	}
	if o.dir == "" {
		return errors.New("-dir is required (or -stdout)")
	}
	if _, err := os.Stat(o.dir); err == nil {
		return fmt.Errorf("%s exists; remove it first", o.dir)
	}
	start := time.Now()
	if err := git("", "init", "-q", "-b", "main", o.dir); err != nil {
		return err
	}
	cmd := exec.Command("git", "fast-import", "--quiet", "--done")
	cmd.Dir = o.dir
	// fast-import grows and trims its heap for every object; with glibc's
	// defaults that is hundreds of thousands of brk calls (40x slower on a
	// busy machine). A larger top pad and trim threshold avoid them.
	cmd.Env = append(gitEnv(), "MALLOC_TOP_PAD_=268435456", "MALLOC_TRIM_THRESHOLD_=536870912",
		"GLIBC_TUNABLES=glibc.malloc.top_pad=268435456:glibc.malloc.trim_threshold=536870912")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(in, 1<<20)
	genErr := generate(w, o)
	if genErr == nil {
		genErr = w.Flush()
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	if genErr != nil {
		return genErr
	}
	// A checkout would cost as much as the rest together and the benchmarks
	// compare commits; an index matching HEAD keeps `git status` sane.
	if err := git(o.dir, "read-tree", "main"); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: %s: %d files, %d commits in %v\n", o.dir, o.files+2+o.configs, o.commits+o.pull+3, time.Since(start).Round(time.Millisecond))
	return nil
}

func gitEnv() []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	if dir != "" {
		cmd.Dir = dir
	}
	cmd.Env = gitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %v: %v: %s", args, err, out)
	}
	return nil
}

// stream writes fast-import commands.
type stream struct {
	w    io.Writer
	when int64
	err  error
}

func (s *stream) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

// commit starts a commit on main; files follow as modify lines.
func (s *stream) commit(msg string) {
	s.when++
	s.printf("commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", s.when, len(msg), msg)
}

func (s *stream) file(path, content string) {
	s.printf("M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
}

func (s *stream) tag(name string) {
	s.printf("reset refs/tags/%s\nfrom refs/heads/main\n\n", name)
}

const rootConfig = `{"mcpServers":{"notes":{"command":"node","args":["server.js"]},"db":{"command":"npx","args":["-y","@modelcontextprotocol/server-postgres@0.6.2"]}}}`

func generate(w io.Writer, o options) error {
	s := &stream{w: w, when: 1700000000}
	rng := rand.New(rand.NewSource(o.seed))
	paths := make([]string, o.files)
	for i := range paths {
		paths[i] = fmt.Sprintf("src/d%02d/e%02d/f%06d.txt", i%o.fanout, (i/o.fanout)%o.fanout, i)
	}
	s.commit("initial tree")
	for i, p := range paths {
		s.file(p, fmt.Sprintf("file %d\n", i))
	}
	s.file(".agentty/mcp.json", rootConfig)
	s.file("server.js", "console.log('v1')\n")
	for i := 0; i < o.configs; i++ {
		dir := fmt.Sprintf("src/d%02d/e%02d", i%o.fanout, (i*7)%o.fanout)
		s.file(dir+"/.agentty/mcp.json", fmt.Sprintf(`{"mcpServers":{"tool%d":{"command":"./tool.sh","args":["--n","%d"]}}}`, i, i))
		s.file(dir+"/tool.sh", fmt.Sprintf("#!/bin/sh\necho %d\n", i))
	}
	history := func(n int, label string) {
		for c := 0; c < n; c++ {
			s.commit(fmt.Sprintf("%s %d", label, c))
			for k := 0; k < o.perCommit; k++ {
				s.file(paths[rng.Intn(len(paths))], fmt.Sprintf("%s %d.%d\n", label, c, k))
			}
		}
	}
	history(o.commits-1, "history")
	s.tag("bench/base")
	s.commit("edit the script the root server runs")
	s.file("server.js", "console.log('v2')\n")
	s.tag("bench/script")
	s.commit("add NODE_OPTIONS to the root config")
	s.file(".agentty/mcp.json", `{"mcpServers":{"notes":{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"--require ./preload.js"}},"db":{"command":"npx","args":["-y","@modelcontextprotocol/server-postgres@0.6.2"]}}}`)
	s.tag("bench/config")
	s.commit("edit an unrelated file")
	s.file(paths[len(paths)/2], "unrelated\n")
	s.tag("bench/noise")
	history(o.pull, "pull")
	s.tag("bench/pull")
	s.printf("done\n")
	if s.err != nil {
		return s.err
	}
	return nil
}
