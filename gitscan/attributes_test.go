package gitscan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A .gitattributes line that makes git rewrite a file on checkout is named
// for that file at a commit and in the index (the stored bytes are not
// what an agent reads), never in the work tree, and never for a file it
// does not match.
func TestCheckoutTransform(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	for _, tt := range []struct {
		name, attrs, attrsPath, path, want string
		more                               map[string]string // further files
	}{
		{"encoding", ".mcp.json working-tree-encoding=ISO646-DE\n", ".gitattributes", ".mcp.json", "working-tree-encoding=ISO646-DE", nil},
		{"lfs filter by glob", "*.json filter=lfs diff=lfs merge=lfs -text\n", ".gitattributes", "a/.mcp.json", "filter=lfs", nil},
		{"ident", "*.toml ident\n", ".gitattributes", ".codex/config.toml", "ident", nil},
		{"nested attributes file", "mcp.json filter=x\n", ".agentty/.gitattributes", ".agentty/mcp.json", "filter=x", nil},
		{"macro", "[attr]sneaky working-tree-encoding=ISO646-DE\n*.json sneaky\n", ".gitattributes", ".mcp.json", "sneaky", nil},
		{"quoted pattern counts as everything", "\"weird name\" filter=x\n", ".gitattributes", ".mcp.json", "filter=x", nil},
		{"later unset still counts", "*.json filter=x\n*.json -filter\n", ".gitattributes", ".mcp.json", "filter=x", nil},
		{"other file", "*.png filter=lfs\n", ".gitattributes", ".mcp.json", "", nil},
		{"eol only", "* text=auto eol=lf\n", ".gitattributes", ".mcp.json", "", nil},
		{"eol=crlf", "*.json text eol=crlf\n", ".gitattributes", ".mcp.json", "eol=crlf", nil},
		{"unset only", "*.json -filter -ident\n", ".gitattributes", ".mcp.json", "", nil},
		{"anchored elsewhere", "/sub/.mcp.json filter=x\n", ".gitattributes", ".mcp.json", "", nil},
		{"macro defined below its use", "*.json sneaky\n[attr]sneaky filter=x\n", ".gitattributes", ".mcp.json", "sneaky", nil},
		{"macro of a macro defined first", "[attr]outer inner\n[attr]inner filter=x\n*.json outer\n", ".gitattributes", ".mcp.json", "outer", nil},
		{"macro from the parent directory", "[attr]sneaky filter=x\n", ".gitattributes", "a/b/.mcp.json", "sneaky",
			map[string]string{"a/b/.gitattributes": ".mcp.json sneaky\n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := gitInit(t, env)
			files := map[string]string{tt.attrsPath: tt.attrs, tt.path: "{}"}
			for p, c := range tt.more {
				files[p] = c
			}
			for p, c := range files {
				os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			run(t, env, dir, nil, "-c", "filter.x.clean=cat", "-c", "filter.lfs.clean=cat", "add", "-A")
			run(t, env, dir, nil, "commit", "-qm", "c")
			for _, e := range []Engine{EngineInProcess, EngineWithGit} {
				r := openT(t, dir, env, e)
				for _, side := range []Side{resolveT(t, r, "HEAD"), Index} {
					got, err := r.CheckoutTransform(side, tt.path)
					if err != nil {
						t.Fatal(err)
					}
					if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
						t.Errorf("%v %s: %q, want %q", e, side, got, tt.want)
					}
				}
				if got, _ := r.CheckoutTransform(WorkTree, tt.path); got != "" {
					t.Errorf("%v work tree: %q", e, got)
				}
			}
		})
	}
}

// Every config at a side shares the .gitattributes above it: a second
// CheckoutTransform at the same commit reads no object again.
func TestCheckoutTransformReadsOnce(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	for p, c := range map[string]string{".gitattributes": "*.png filter=lfs\n", "a/.gitattributes": "*.txt ident\n", "a/.mcp.json": "{}", "a/mcp.json": "{}"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, env, dir, nil, "add", "-A")
	run(t, env, dir, nil, "commit", "-qm", "c")
	for _, e := range []Engine{EngineInProcess, EngineWithGit} {
		var c Counter
		r := openT(t, dir, env, e, WithReadCounter(&c), WithoutCache())
		head := resolveT(t, r, "HEAD")
		if got, err := r.CheckoutTransform(head, "a/.mcp.json"); got != "" || err != nil {
			t.Fatalf("%v: %q, %v", e, got, err)
		}
		if c.Objects() == 0 {
			t.Fatalf("%v: the first call read no object", e)
		}
		c.Reset()
		if got, err := r.CheckoutTransform(head, "a/mcp.json"); got != "" || err != nil {
			t.Fatalf("%v: %q, %v", e, got, err)
		}
		if n := c.Objects(); n != 0 {
			t.Errorf("%v: the second config at the same side read %d objects, want 0", e, n)
		}
	}
}

// A symlinked .gitattributes is not followed: git reads the index's
// entry on checkout and refuses a symlink there (its target's lines
// never apply), so the stored bytes are what the agent reads.
func TestCheckoutTransformSymlinkedAttributes(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	os.MkdirAll(filepath.Join(dir, "a"), 0o755)
	for p, c := range map[string]string{"attrs": "*.json filter=x\n", "a/.mcp.json": "{}"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{".gitattributes", "a/.gitattributes"} {
		target := "attrs"
		if l != ".gitattributes" {
			target = "../attrs"
		}
		if err := os.Symlink(target, filepath.Join(dir, l)); err != nil {
			t.Fatal(err)
		}
	}
	run(t, env, dir, nil, "-c", "filter.x.clean=cat", "add", "-A")
	run(t, env, dir, nil, "commit", "-qm", "c")
	if out := run(t, env, dir, nil, "check-attr", "--cached", "filter", "--", "a/.mcp.json"); !strings.Contains(out, "unspecified") {
		t.Fatalf("git itself: %s", out)
	}
	for _, e := range []Engine{EngineInProcess, EngineWithGit} {
		r := openT(t, dir, env, e)
		for _, side := range []Side{resolveT(t, r, "HEAD"), Index} {
			if got, err := r.CheckoutTransform(side, "a/.mcp.json"); got != "" || err != nil {
				t.Errorf("%v %s: %q, %v", e, side, got, err)
			}
		}
	}
}

// A work tree file git wrote through a transforming attribute is bound by
// the bytes on disk, even when the index's stat data say it is the blob
// it recorded (attack8: run.sh eol=crlf); a file no attribute rewrites
// keeps the index's id.
func TestWorktreeEntryThroughTransform(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	for p, c := range map[string]string{".gitattributes": "run.sh text eol=crlf\n", "run.sh": "f=safe\necho $f\n", "other.sh": "echo 1\n"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, env, dir, nil, "add", "-A")
	run(t, env, dir, nil, "commit", "-qm", "c")
	os.Remove(filepath.Join(dir, "run.sh"))
	run(t, env, dir, nil, "checkout", "--", "run.sh")
	disk, err := os.ReadFile(filepath.Join(dir, "run.sh"))
	if err != nil || !strings.Contains(string(disk), "\r\n") {
		t.Fatalf("run.sh is not CRLF on disk: %q %v", disk, err)
	}
	// Make every entry provably clean: old mtimes, then the index
	// refreshed after them.
	past := time.Now().Add(-time.Hour)
	for _, p := range []string{"run.sh", "other.sh", ".gitattributes"} {
		os.Chtimes(filepath.Join(dir, p), past, past)
	}
	run(t, env, dir, nil, "update-index", "-q", "--really-refresh")
	blob := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", ":run.sh"))
	onDisk := strings.TrimSpace(run(t, env, dir, nil, "hash-object", "--no-filters", "run.sh"))
	other := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", ":other.sh"))
	for _, e := range []Engine{EngineInProcess, EngineWithGit} {
		r := openT(t, dir, env, e, WithWorktreeSnapshot())
		got, ok, err := r.Lookup(WorkTree, "run.sh")
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		if got.ID != onDisk || got.ID == blob {
			t.Errorf("%v: run.sh is %s, want the bytes on disk %s (the blob is %s)", e, got.ID, onDisk, blob)
		}
		o, ok, err := r.Lookup(WorkTree, "other.sh")
		if err != nil || !ok || o.ID != other {
			t.Errorf("%v: other.sh is %s (%v %v), want the index's %s", e, o.ID, ok, err, other)
		}
	}
}
