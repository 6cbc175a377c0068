package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHookStartInitialisesLittle runs the git hook's quiet path (a pull
// that changed nothing an agent runs) under GODEBUG=inittrace=1, which
// prints every package initialiser the start ran. Go runs the
// initialisers of every linked package on every start, so what a command
// alone needs must not initialise anything at package level: the man page
// renderer is not linked at all, and regular expressions and templates are
// compiled on first use (internal/lazyre). The binary run is this test
// binary (testscript.Main puts it on PATH as mcp-guard); only the packages
// `go list -deps` says mcp-guard itself links are counted, so the
// test-only ones (testscript, go-git) are left out. The budgets are about
// twice what is left (go.yaml.in/yaml's and mvdan.cc/sh/v3/fileutil's own
// initialisers, small maps); BENCHMARKS.md's "Process start" measures the
// time.
func TestHookStartInitialisesLittle(t *testing.T) {
	for _, tool := range []string{"go", "git", "mcp-guard"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH", tool)
		}
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	linked := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		linked[p] = true
	}
	// What the hook's path needs: the hook itself, its rendering, the
	// registry's words, the terminal check and the signal handler.
	out, err = exec.Command("go", "list", "-deps", "../../hooks", "../../report", "../../client/words", "golang.org/x/term", "os/signal").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	needed := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		needed[p] = true
	}
	for _, banned := range []string{"github.com/russross/blackfriday/v2", "github.com/cpuguy83/go-md2man/v2/md2man", "github.com/urfave/cli-docs/v3"} {
		if linked[banned] {
			t.Errorf("mcp-guard links %s, whose initialisers would run on every start of the hook", banned)
		}
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	gitEnv := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
	for _, args := range [][]string{
		{"init", "-q", repo},
		{"-C", repo, "commit", "-q", "--allow-empty", "-m", "one"},
		{"-C", repo, "update-ref", "ORIG_HEAD", "HEAD"},
		{"-C", repo, "commit", "-q", "--allow-empty", "-m", "two"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Env = gitEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cmd := exec.Command("mcp-guard", "hook", "post-merge", "0")
	cmd.Dir = repo
	cmd.Env = append(gitEnv, "GODEBUG=inittrace=1", "NO_COLOR=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var total, other int
	var lines []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		pkg, bytes, ok := parseInitTrace(line)
		if !ok {
			lines = append(lines, line) // the hook's own output: none on this path
			continue
		}
		if !linked[pkg] {
			continue // linked into the test binary only ("main" is the test's)
		}
		total += bytes
		if bytes > 0 && !needed[pkg] && pkg != "github.com/mcp-guard/mcp-guard/cmd/mcp-guard" {
			// A library only the other commands use (the command line,
			// a renderer, a parser) does work on every start of the hook.
			if why, ok := startOutsideHook[pkg]; !ok {
				t.Errorf("%s is not on the hook's path but its initialisers allocate at start (make what it builds lazy, or keep it out of the build): %s", pkg, line)
			} else if bytes > 8<<10 {
				t.Errorf("%s (%s) allocates %d bytes at start, over 8 KiB: %s", pkg, why, bytes, line)
			}
		}
		// This package's own initialisers include its test files' tables
		// here: only the total holds it.
		if strings.HasPrefix(pkg, "github.com/mcp-guard/mcp-guard") && pkg != "github.com/mcp-guard/mcp-guard/cmd/mcp-guard" {
			if bytes > 32<<10 {
				t.Errorf("%s allocates %d bytes at start (regular expressions or tables built at package level?): %s", pkg, bytes, line)
			}
		} else {
			other += bytes
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the hook failed: %v", err)
	}
	if len(lines) > 0 {
		t.Errorf("the quiet path printed:\n%s", strings.Join(lines, "\n"))
	}
	// Before the man page renderer left and the expressions became lazy:
	// 517 KB in 2,662 allocations.
	if total > 256<<10 {
		t.Errorf("initialisers allocate %d bytes at start (%d outside mcp-guard), over the 256 KiB budget", total, other)
	}
	t.Logf("initialisers allocate %d bytes at start, %d of them outside mcp-guard", total, other)
}

// startOutsideHook are the libraries the hook does not use whose own
// initialisers still allocate at every start, each with why it stays.
var startOutsideHook = map[string]string{
	"github.com/urfave/cli/v3": "the command line's package-level defaults (help flag, templates); the hook dispatches before building a command line",
	"flag":                     "urfave/cli's import: its CommandLine flag set",
}

// parseInitTrace reads one GODEBUG=inittrace=1 line:
// "init PKG @T ms, C ms clock, N bytes, M allocs".
func parseInitTrace(line string) (pkg string, bytes int, ok bool) {
	f := strings.Fields(line)
	if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
		return "", 0, false
	}
	n, err := strconv.Atoi(f[7])
	if err != nil {
		return "", 0, false
	}
	return f[1], n, true
}
