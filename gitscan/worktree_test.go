package gitscan

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWorktreeFiles(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	writeFile(t, dir, "big.txt", strings.Repeat("x", 5000))
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "sub", "deep", ".claude", "agents", "evil.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src", filepath.Join(dir, "srclink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "src", "server.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := runtime.GOOS == "linux" || runtime.GOOS == "darwin"
	if fifo {
		if err := syscall.Mkfifo(filepath.Join(dir, "sub", ".agentty-fifo"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "f", ".agentty"), 0o755)
		if err := syscall.Mkfifo(filepath.Join(dir, "f", ".agentty", "mcp.json"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, "src", ".mcp.json"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An empty directory where a config belongs.
	if err := os.MkdirAll(filepath.Join(dir, "src", ".cursor", "mcp.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	hashOf := func(p string) string { return strings.TrimSpace(run(t, env, dir, nil, "hash-object", "--", p)) }
	for _, e := range engines {
		r := openT(t, dir, env, e)
		// Regular file: id as git hash-object computes it, exec bit seen.
		data, ent, err := r.ReadBlob(WorkTree, "src/server.js", 1<<20)
		if err != nil || string(data) != "console.log(1)" || ent.ID != hashOf("src/server.js") || ent.Mode != ModeExecutable {
			t.Errorf("%v: read server.js: %q %+v %v", e, data, ent, err)
		}
		if le, ok, err := r.Lookup(WorkTree, "src/server.js"); !ok || err != nil || le != ent {
			t.Errorf("%v: lookup server.js %+v %v %v, want %+v", e, le, ok, err, ent)
		}
		// Size limit: refused before reading, on every side.
		if _, _, err := r.ReadBlob(WorkTree, "big.txt", 100); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v: big file: %v, want ErrTooLarge", e, err)
		}
		if _, _, err := r.ReadBlob(resolveT(t, r, "HEAD"), ".agentty/mcp.json", 5); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v: big blob at HEAD: %v, want ErrTooLarge", e, err)
		}
		// A symlink is its target text, never followed.
		data, ent, err = r.ReadBlob(WorkTree, "sub/deep/.claude/agents/evil.md", 100)
		if err != nil || string(data) != "/etc/passwd" || ent.Mode != ModeSymlink {
			t.Errorf("%v: symlink read: %q %+v %v", e, data, ent, err)
		}
		// Paths through symlinked directories do not exist, inside or out.
		for _, p := range []string{"out/passwd", "srclink/server.js"} {
			if _, _, err := r.ReadBlob(WorkTree, p, 100); !errors.Is(err, ErrNotFound) {
				t.Errorf("%v: read %s through a symlink: %v, want ErrNotFound", e, p, err)
			}
			if _, ok, err := r.Lookup(WorkTree, p); ok || err != nil {
				t.Errorf("%v: lookup %s through a symlink: %v %v", e, p, ok, err)
			}
		}
		for _, p := range []string{"../etc/passwd", "/etc/passwd", "a//b", "."} {
			if _, _, err := r.ReadBlob(WorkTree, p, 100); err == nil {
				t.Errorf("%v: read %q succeeded", e, p)
			}
		}
		if _, _, err := r.ReadBlob(WorkTree, "src", 100); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%v: read a directory: %v, want ErrNotRegular", e, err)
		}
		s, sk, err := r.Surfaces(WorkTree)
		if err != nil {
			t.Fatal(err)
		}
		joined := strings.Join(surfaceStrings(s, sk), "\n")
		if !strings.Contains(joined, "sub/deep/.claude/agents/evil.md 120000") {
			t.Errorf("%v: symlinked persona not reported as a symlink:\n%s", e, joined)
		}
		if fifo {
			done := make(chan error, 1)
			go func() { _, _, err := r.ReadBlob(WorkTree, "f/.agentty/mcp.json", 100); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) {
					t.Errorf("%v: FIFO read: %v, want ErrNotRegular", e, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%v: reading a FIFO blocked", e)
			}
			// git cannot store a FIFO and lists nothing in f/: enumeration
			// does not see it there (check started in f/ does).
			if strings.Contains(joined, "f/.agentty/mcp.json") {
				t.Errorf("%v: FIFO listed as a surface:\n%s", e, joined)
			}
			// Beside files git lists, it is what the agent would try to
			// read: listed, never read.
			if !strings.Contains(joined, "src/.mcp.json 000000  claude-mcp") {
				t.Errorf("%v: FIFO at src/.mcp.json not listed as special:\n%s", e, joined)
			}
			if _, _, err := r.ReadBlob(WorkTree, "src/.mcp.json", 100); !errors.Is(err, ErrNotRegular) || !strings.HasSuffix(err.Error(), "not a regular file (a FIFO)") {
				t.Errorf("%v: FIFO read: %v", e, err)
			}
		}
		if !strings.Contains(joined, "src/.cursor/mcp.json 000000  cursor-mcp") {
			t.Errorf("%v: directory at src/.cursor/mcp.json not listed as special:\n%s", e, joined)
		}
	}
}

// TestWorktreeDirectoryID: a clean directory's work tree id is its tree
// id at HEAD, and an edit changes it.
func TestWorktreeDirectoryID(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	for _, e := range engines {
		r := openT(t, dir, env, e)
		head := resolveT(t, r, "HEAD")
		for _, p := range []string{"sub", "src", ""} {
			at, ok1, err1 := r.Lookup(head, p)
			wt, ok2, err2 := r.Lookup(WorkTree, p)
			ix, ok3, err3 := r.Lookup(Index, p)
			if !ok1 || !ok2 || !ok3 || err1 != nil || err2 != nil || err3 != nil || at.ID != wt.ID || at.ID != ix.ID || wt.Mode != ModeTree {
				t.Errorf("%v: dir %q: head %+v worktree %+v index %+v (%v %v %v)", e, p, at, wt, ix, err1, err2, err3)
			}
		}
	}
	writeFile(t, dir, "src/extra.js", "x")
	r := openT(t, dir, env, EngineWithGit)
	at, _, _ := r.Lookup(resolveT(t, r, "HEAD"), "src")
	wt, _, _ := r.Lookup(WorkTree, "src")
	if at.ID == wt.ID {
		t.Errorf("untracked file in src did not change its work tree id")
	}
}

// TestStatCacheNeverHidesAnEdit rewrites a file with the same size within
// the same second: git's racy-clean rule must make gitscan hash it.
func TestStatCacheNeverHidesAnEdit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	for _, e := range engines {
		r := openT(t, dir, env, e)
		writeFile(t, dir, ".agentty/mcp.json", `{"mcpServers":{"x":{"command":"evil","args":["src/server.js"]}}}`)
		ch, err := r.Changes(resolveT(t, r, "HEAD"), WorkTree)
		if err != nil || len(ch) != 1 || ch[0].Path != ".agentty/mcp.json" {
			t.Errorf("%v: same-size edit: %+v %v", e, ch, err)
		}
		run(t, env, dir, nil, "checkout", "-q", "--", ".")
		ch, err = r.Changes(resolveT(t, r, "HEAD"), WorkTree)
		if err != nil || len(ch) != 0 {
			t.Errorf("%v: clean work tree: %+v %v", e, ch, err)
		}
	}
}

// TestIgnoredSurfacesAreSurfaces: agentty reads `.agentty/mcp.json`
// whether or not git ignores it, so a work tree's surfaces include the
// ignored files that match the surface patterns (in ignored directories
// too), but not ignored files that are no surface, and nothing inside a
// nested repository.
func TestIgnoredSurfacesAreSurfaces(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	writeFile(t, dir, ".gitignore", ".agentty/\nbuild/\n*.local.md\n.mcp.json\nsettings.local.json\n.vscode/\n.gemini/\n")
	writeFile(t, dir, "README", "r")
	run(t, env, dir, nil, "add", ".")
	run(t, env, dir, nil, "commit", "-q", "-m", "one")
	writeFile(t, dir, ".agentty/mcp.json", "{}")              // ignored by .agentty/
	writeFile(t, dir, ".agentty/notes.txt", "not a surface")  // ignored, no surface
	writeFile(t, dir, "build/x/.agentty/hooks.json", "{}")    // inside an ignored directory
	writeFile(t, dir, "sub/.claude/agents/p.local.md", "# p") // ignored by pattern
	writeFile(t, dir, "sub/.claude/agents/q.md", "# q")       // not ignored at all
	writeFile(t, dir, "build/nested/.agentty/mcp.json", "{}") // in a nested repository
	writeFile(t, dir, ".mcp.json", "{}")                      // Claude Code reads it ignored or not
	writeFile(t, dir, ".claude/settings.local.json", "{}")    // ignored: the user's own state, no surface
	writeFile(t, dir, ".claude/settings.json", "{}")          // not ignored: about to be shared
	writeFile(t, dir, "build/.github/workflows/x.yml", "{}")  // not at the root
	writeFile(t, dir, ".gemini/settings.json", "{}")          // ignored: Gemini CLI reads it anyway
	writeFile(t, dir, ".vscode/mcp.json", "{}")               // ignored: VS Code reads it anyway
	writeFile(t, dir, ".vscode/tasks.json", "{}")             // ignored: the user's own editor setup
	writeFile(t, dir, ".vscode/settings.json", "{}")          // ignored: the user's own editor setup
	writeFile(t, dir, "sub/.cursor/mcp.json", "{}")           // not ignored
	run(t, env, filepath.Join(dir, "build", "nested"), nil, "init", "-q")
	if err := os.Symlink("../elsewhere", filepath.Join(dir, "build", ".claude")); err != nil { // a linked surface directory, ignored
		t.Fatal(err)
	}
	if err := os.Symlink("../elsewhere", filepath.Join(dir, "sub", ".codex")); err != nil { // a linked client directory
		t.Fatal(err)
	}
	want := []string{
		".agentty/mcp.json mcp-config",
		".claude/settings.json claude-settings",
		".gemini/settings.json gemini-settings",
		".mcp.json claude-mcp",
		".vscode/mcp.json vscode-mcp",
		"build/.claude linked-dir",
		"build/x/.agentty/hooks.json hooks",
		"sub/.claude/agents/p.local.md persona",
		"sub/.claude/agents/q.md persona",
		"sub/.codex linked-dir",
		"sub/.cursor/mcp.json cursor-mcp",
	}
	for _, e := range engines {
		r := openT(t, dir, env, e)
		s, _, err := r.Surfaces(WorkTree)
		if err != nil {
			t.Fatalf("%v: %v", e, err)
		}
		var got []string
		for _, x := range s {
			got = append(got, x.Path+" "+x.Kind.String())
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%v: work tree surfaces:\n%s", e, diffLines(want, got))
		}
		if data, _, err := r.ReadBlob(WorkTree, ".agentty/mcp.json", 100); err != nil || string(data) != "{}" {
			t.Errorf("%v: read the ignored config: %q %v", e, data, err)
		}
	}
}
