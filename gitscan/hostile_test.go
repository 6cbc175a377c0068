package gitscan

// Hostile repositories (issue 7): every engine answers these with a clear
// error or a correct result, quickly, never by hanging, crashing or
// reading without bound.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
)

// within runs fn and fails the test if it does not return in d.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// TestHostileDotGit: a `.git` entry that is not a usable repository is
// refused with ErrNotRepository and a message naming the problem, by both
// engines, without blocking (a FIFO is never read) or reading a huge file.
func TestHostileDotGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	tests := []struct {
		name string
		make func(t *testing.T, dotgit string)
		want string // in the message
	}{
		{"file pointing nowhere", func(t *testing.T, p string) {
			mustWrite(t, p, "gitdir: /nonexistent/repo/.git\n")
		}, "nonexistent"},
		{"file pointing to a file", func(t *testing.T, p string) {
			mustWrite(t, filepath.Join(filepath.Dir(p), "plain"), "x")
			mustWrite(t, p, "gitdir: plain\n")
		}, "plain"},
		{"empty file", func(t *testing.T, p string) { mustWrite(t, p, "") }, ".git"},
		{"garbage", func(t *testing.T, p string) { mustWrite(t, p, "\x1b[2J\x00\xff not a gitfile") }, ".git"},
		{"huge file", func(t *testing.T, p string) {
			if err := hostile.WriteBig(p, 200<<20); err != nil {
				t.Fatal(err)
			}
		}, ".git"},
		{"fifo", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, ".git"},
		{"symlink loop", func(t *testing.T, p string) {
			if err := os.Symlink(".git", p); err != nil {
				t.Fatal(err)
			}
		}, ".git"},
		{"empty directory", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "repo")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.make(t, filepath.Join(dir, ".git"))
			// Keep the search from reaching a repository above the test's
			// directory.
			env := append(env, "GIT_CEILING_DIRECTORIES="+base)
			for _, e := range engines {
				var err error
				var r *Repo
				within(t, 10*time.Second, fmt.Sprintf("%v: Open", e), func() { r, err = Open(dir, WithEngine(e), WithEnv(env)) })
				if err == nil {
					r.Close()
					t.Errorf("%v: opened a repository whose .git is %s", e, tt.name)
					continue
				}
				if !errors.Is(err, ErrNotRepository) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%v: %v, want ErrNotRepository saying %q", e, err, tt.want)
				}
				t.Logf("%v: %v", e, err)
			}
		})
	}
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// packedRepo makes a repository with two commits whose objects are all in
// one pack (no loose objects), and returns it with the pack's path.
func packedRepo(t *testing.T, env []string) (dir, pack string) {
	t.Helper()
	dir = smallRepo(t, env)
	// Content that does not compress to nothing, so that damage in the
	// middle of the pack lands in object data.
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "line %d %x\n", i, i*2654435761)
	}
	writeFile(t, dir, "src/server.js", b.String())
	writeFile(t, dir, ".agentty/mcp.json", `{"mcpServers":{"x":{"command":"node","args":["src/server.js","--v2"]}}}`)
	run(t, env, dir, nil, "commit", "-q", "-am", "three")
	run(t, env, dir, nil, "repack", "-q", "-a", "-d")
	run(t, env, dir, nil, "prune-packed")
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	return dir, packs[0]
}

// readAll does what the hook does with a repository: resolve both sides,
// compare them, read the configuration and the file it runs. It returns
// the first error.
func readAll(r *Repo) error {
	old, err := r.Resolve("HEAD~1")
	if err != nil {
		return err
	}
	cur, err := r.Resolve("HEAD")
	if err != nil {
		return err
	}
	if _, err := r.Changes(old, cur); err != nil {
		return err
	}
	if _, _, err := r.Surfaces(cur); err != nil {
		return err
	}
	for _, p := range []string{".agentty/mcp.json", "src/server.js"} {
		if _, _, err := r.ReadBlob(cur, p, 1<<20); err != nil {
			return err
		}
	}
	return nil
}

// TestHostileDamagedObjects: a corrupt pack, a truncated pack (a
// half-written repository) and a missing object give an error that names
// the problem, from both engines, never a wrong answer or a hang.
func TestHostileDamagedObjects(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	tests := []struct {
		name   string
		damage func(t *testing.T, dir, pack string)
	}{
		{"corrupt pack", func(t *testing.T, dir, pack string) {
			data, err := os.ReadFile(pack)
			if err != nil {
				t.Fatal(err)
			}
			// Overwrite the middle of the pack (object data), leaving the
			// header and the index intact, so the damage is found only
			// when an object is inflated.
			for i := len(data) / 3; i < 2*len(data)/3; i += 7 {
				data[i] ^= 0x5a
			}
			os.Chmod(pack, 0o644)
			if err := os.WriteFile(pack, data, 0o444); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated pack", func(t *testing.T, dir, pack string) {
			os.Chmod(pack, 0o644)
			fi, _ := os.Stat(pack)
			if err := os.Truncate(pack, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing pack", func(t *testing.T, dir, pack string) {
			if err := os.Remove(pack); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, pack := packedRepo(t, env)
			for _, e := range engines {
				r := openT(t, dir, env, e)
				if err := readAll(r); err != nil {
					t.Fatalf("%v: before the damage: %v", e, err)
				}
				r.Close()
			}
			tt.damage(t, dir, pack)
			if _, err := tryRun(env, dir, nil, "fsck", "--no-dangling"); err == nil {
				t.Fatalf("git fsck finds nothing wrong: the damage did not happen")
			}
			for _, e := range engines {
				var err error
				within(t, 20*time.Second, fmt.Sprintf("%v: reading", e), func() {
					var r *Repo
					r, err = Open(dir, WithEngine(e), WithEnv(env), WithoutCache())
					if err == nil {
						err = readAll(r)
						r.Close()
					}
				})
				if err == nil {
					t.Errorf("%v: read a damaged repository without an error", e)
					continue
				}
				t.Logf("%v: %v", e, err)
				if msg := err.Error(); len(msg) > 2000 || strings.Count(msg, "\n") > 3 {
					t.Errorf("%v: error is not a short message: %q", e, msg)
				}
			}
		})
	}
}

// TestHostileManyRefs: 50,000 refs change nothing: the repository opens
// and is read as usual, with right answers. They are packed, as a clone
// leaves them; 5,000 loose ones are checked too (50,000 loose files cost
// tens of seconds to create and delete on a busy machine, and git itself
// packs refs long before that).
func TestHostileManyRefs(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	head := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD"))
	first := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD~1"))
	check := func(t *testing.T, probe []string) {
		out := run(t, env, dir, nil, "for-each-ref", "--format=%(refname)", probe[len(probe)-1])
		if strings.TrimSpace(out) != probe[len(probe)-1] {
			t.Fatalf("git does not see the refs: %q", out)
		}
		for _, e := range engines {
			start := time.Now()
			r := openT(t, dir, env, e)
			cur := resolveT(t, r, "HEAD")
			for _, rev := range probe {
				if s := resolveT(t, r, rev); s != cur {
					t.Errorf("%v: %s is %v, want HEAD", e, rev, s)
				}
			}
			ch, err := r.Changes(resolveT(t, r, first), cur)
			if err != nil || len(ch) != 1 || ch[0].Path != ".agentty/mcp.json" {
				t.Errorf("%v: changes %v %v", e, changeStrings(ch), err)
			}
			if ids, err := r.Identity(); err != nil || len(ids) != 1 || ids[0] != first {
				t.Errorf("%v: identity %v %v, want %s", e, ids, err, first)
			}
			r.Close()
			t.Logf("%v: %v", e, time.Since(start))
		}
	}
	t.Run("50,000 packed", func(t *testing.T) {
		names := hostile.RefNames(50000)
		var b strings.Builder
		b.WriteString("# pack-refs with: peeled fully-peeled sorted \n")
		for _, name := range names {
			b.WriteString(head + " " + name + "\n")
		}
		mustWrite(t, filepath.Join(dir, ".git", "packed-refs"), b.String())
		check(t, []string{"branch-049998", "tag-049999", names[0], names[len(names)-1]})
	})
	t.Run("5,000 loose", func(t *testing.T) {
		os.Remove(filepath.Join(dir, ".git", "packed-refs"))
		names := hostile.RefNames(5000)
		for _, name := range names {
			p := filepath.Join(dir, ".git", filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			mustWrite(t, p, head+"\n")
		}
		check(t, []string{"branch-004998", "tag-004999", names[0], names[len(names)-1]})
	})
}

// TestHostileHugeBlob: a 200 MiB configuration in a commit is refused from
// its size (ErrTooLarge) without being inflated: the memory used does not
// depend on the blob's size.
func TestHostileHugeBlob(t *testing.T) {
	needGit(t)
	if testing.Short() {
		t.Skip("200 MiB blob")
	}
	env := testEnv(t)
	dir := gitInit(t, env)
	const size = 200 << 20
	cmd := exec.Command("git", "hash-object", "-w", "--stdin")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, hostile.BigReader(size)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	blob := strings.TrimSpace(string(out))
	run(t, env, dir, nil, "update-index", "--add", "--cacheinfo", "100644,"+blob+",.agentty/mcp.json")
	run(t, env, dir, nil, "commit", "-q", "-m", "huge")
	for _, e := range engines {
		r := openT(t, dir, env, e)
		head := resolveT(t, r, "HEAD")
		var ent Entry
		var err error
		n := hostile.Allocated(func() { _, ent, err = r.ReadBlob(head, ".agentty/mcp.json", 16<<20) })
		if !errors.Is(err, ErrTooLarge) || ent.ID != blob {
			t.Errorf("%v: %+v %v, want ErrTooLarge for blob %s", e, ent, err, blob)
		}
		if n > 4<<20 {
			t.Errorf("%v: refusing a %d-byte blob allocated %d bytes", e, size, n)
		} else {
			t.Logf("%v: refused with %d bytes allocated", e, n)
		}
		r.Close()
	}
}

// TestHostileWorktreeSpecialFiles: a character device, a FIFO, a socket
// and a symlink loop where configurations live are never opened: reading
// and comparing the work tree finishes and reports them as not regular.
func TestHostileWorktreeSpecialFiles(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	mk := func(rel string, fn func(p string) error) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fn(p); err != nil {
			t.Skipf("%s: %v", rel, err)
		}
	}
	special := []string{"dev/.agentty/mcp.json", "fifo/.agentty/mcp.json", "loop/.agentty/mcp.json", "zero/.agentty/mcp.json"}
	mk(special[0], func(p string) error {
		if os.Geteuid() != 0 {
			return os.Symlink("/dev/null", p) // not a device node, but still never read
		}
		return syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|5) // /dev/zero
	})
	mk(special[1], func(p string) error { return syscall.Mkfifo(p, 0o644) })
	mk(special[2], func(p string) error { return os.Symlink("mcp.json", p) })
	mk(special[3], func(p string) error { return os.Symlink("/dev/zero", p) })
	for _, e := range engines {
		r := openT(t, dir, env, e)
		head := resolveT(t, r, "HEAD")
		within(t, 20*time.Second, fmt.Sprintf("%v: work tree", e), func() {
			if _, err := r.Changes(head, WorkTree); err != nil {
				t.Errorf("%v: Changes(HEAD, work tree): %v", e, err)
			}
			if _, _, err := r.Surfaces(WorkTree); err != nil {
				t.Errorf("%v: Surfaces(work tree): %v", e, err)
			}
			for _, p := range special {
				data, ent, err := r.ReadBlob(WorkTree, p, 1<<20)
				switch {
				case ent.Mode == ModeSymlink && err == nil:
					// A symlink is its target text, never followed.
					if len(data) > 100 {
						t.Errorf("%v: %s: %d bytes", e, p, len(data))
					}
				case !errors.Is(err, ErrNotRegular):
					t.Errorf("%v: %s: %v, want ErrNotRegular", e, p, err)
				}
			}
		})
		r.Close()
	}
}
