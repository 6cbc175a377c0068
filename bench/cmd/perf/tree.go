package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The launch gate on a real-sized work tree (issue 22, item 1): a
// checked-out repository of many tracked files whose servers bind the
// whole tree, configured for four agents, measured with `mcp-guard check`
// beside `git status` in the same loop.

// treeShape is one work tree repository: files tracked files in one
// commit, checked out.
type treeShape struct {
	name  string
	files int
}

func treeShapes(f float64) []treeShape {
	return []treeShape{{"tree-20k", scaled(20000, f)}, {"tree-200k", scaled(200000, f)}}
}

func (t treeShape) dir(out string) string { return filepath.Join(out, t.name) }

// treeServers are the two servers every client's config declares: python
// -m srv (binds the srv package and whatever else python imports from the
// work tree's top) and node server.js, whose helper loads child_process
// with a computed command (so the model binds every JavaScript file of
// the repository).
const (
	treeMCP    = `{"mcpServers":{"py":{"command":"python","args":["-m","srv"]},"js":{"command":"node","args":["server.js"]}}}` + "\n"
	treeServer = "const helper = require('./lib/helper');\nhelper.run(process.argv[2] || 'true');\n"
	treeHelper = "const cp = require('child_process');\nexports.run = (cmd) => cp.execSync(cmd);\n"
)

// treeConfigs are the four agents' project configs (agentty, Claude Code,
// Cursor, Gemini CLI), each with both servers.
var treeConfigs = []string{".agentty/mcp.json", ".mcp.json", ".cursor/mcp.json", ".gemini/settings.json"}

// treeFile is the i-th ordinary file: a mix of JavaScript, Python and
// text, 30 directories a level, so the JavaScript binding has thousands
// of files to bind.
func treeFile(i int) (string, string) {
	ext := [...]string{".js", ".py", ".txt", ".md"}[i%4]
	p := fmt.Sprintf("src/d%02d/e%02d/f%06d%s", i%30, (i/30)%30, i, ext)
	switch ext {
	case ".js":
		return p, fmt.Sprintf("module.exports = %d;\n", i)
	case ".py":
		return p, fmt.Sprintf("N = %d\n", i)
	}
	return p, fmt.Sprintf("file %d\n", i)
}

// treeStamp says what made a generated work tree repository.
func treeStamp(t treeShape) string {
	return fmt.Sprintf("perf tree generator v1 %+v\n", t)
}

// ensureTree generates t under out unless it is there: one commit by git
// fast-import, then checked out (the index written after the files, as
// a clone leaves it).
func ensureTree(out string, t treeShape, log io.Writer) error {
	dir := t.dir(out)
	if b, err := os.ReadFile(filepath.Join(dir, ".git", "perf-stamp")); err == nil && string(b) == treeStamp(t) {
		return nil
	}
	start := time.Now()
	os.RemoveAll(dir)
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	err := fastImport(tmp, log, func(w *bufio.Writer) {
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter Bench <bench@example.com> 1600000000 +0000\ndata 5\ntree\n")
		blob := func(p, c string) { fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", p, len(c), c) }
		for i := 0; i < t.files; i++ {
			blob(treeFile(i))
		}
		for _, c := range treeConfigs {
			blob(c, treeMCP)
		}
		blob("server.js", treeServer)
		blob("lib/helper.js", treeHelper)
		blob("srv/__init__.py", "")
		blob("srv/__main__.py", "import sys\nprint(sys.argv)\n")
		fmt.Fprintf(w, "\ndone\n")
	})
	if err != nil {
		return err
	}
	if err := gitIn(tmp, "checkout", "-q", "-f", "main"); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".git", "perf-stamp"), []byte(treeStamp(t)), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	fmt.Fprintf(log, "perf: generated %s (%d tracked files, checked out) in %v\n", dir, t.files, time.Since(start).Round(time.Millisecond))
	return nil
}

// tree measures `mcp-guard check` against `git status` in each work tree
// repository, alternating them, with peak memory beside git's.
func (b *bench) tree(shapes []treeShape) error {
	w := b.report
	fmt.Fprintf(w, "## The launch gate on a work tree\n\n")
	fmt.Fprintf(w, "`mcp-guard check` vs `git status` in a checked-out repository whose servers (`python -m srv`, and `node server.js` whose helper loads child_process with a computed command, so every JavaScript file is bound) are configured for four agents (%s). HOME is empty: every server waits for review, and check computes every fingerprint.\n\n", strings.Join(treeConfigs, ", "))
	fmt.Fprintf(w, "| repository | %s |\n", pairHeader)
	fmt.Fprintf(w, "|---|%s|\n", pairAlign)
	for _, t := range shapes {
		if err := ensureTree(b.o.out, t, os.Stderr); err != nil {
			return err
		}
		dir := t.dir(b.o.out)
		// git status refreshes the index once, as a user's first status
		// after a checkout would; from then on both read a clean tree.
		if _, err := b.git(dir, "status", "--porcelain"); err != nil {
			return err
		}
		so, sg, err := b.compare(dir, []string{b.bin, "check"}, []string{"git", "status"}, nil)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("%s (%d files)", t.name, t.files)
		fmt.Fprintf(w, "| %s | %s |\n", name, pairCells(so, sg))
		b.add("tree", t.name, "", "mcp-guard check", so, "")
		b.add("tree", t.name, "", "git status", sg, "")
	}
	fmt.Fprintln(w)
	return nil
}
