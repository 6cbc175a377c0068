package main

// Hostile input and faults through the command line (issue 7): hostile
// configurations shown by status, a home directory that is missing,
// read-only or full, and the git hooks under faults (binary gone, a
// half-written repository, no time left, Ctrl-C), each of which must end
// quickly with git's own result intact.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"github.com/mcp-guard/mcp-guard/trust"
)

// hostileEnviron is an isolated environment: HOME in a temporary
// directory, no system or global git configuration, fixed identities.
func hostileEnviron(t *testing.T, home string) []string {
	t.Helper()
	gitconfig := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(gitconfig, []byte("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "USERPROFILE=", "NO_COLOR=1",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + gitconfig,
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=C", "GIT_COMMITTER_EMAIL=c@example.com",
		"GIT_AUTHOR_DATE=1700000000 +0000", "GIT_COMMITTER_DATE=1700000000 +0000",
	}
}

// withEnv replaces or adds variables.
func withEnv(env []string, kv ...string) []string {
	out := append([]string(nil), env...)
	for _, x := range kv {
		k, _, _ := strings.Cut(x, "=")
		for i := range out {
			if strings.HasPrefix(out[i], k+"=") {
				out[i] = ""
			}
		}
		out = append(out, x)
	}
	var clean []string
	for _, x := range out {
		if x != "" {
			clean = append(clean, x)
		}
	}
	return clean
}

// mcpGuard runs the command in-process and returns its exit code and
// output.
func mcpGuard(env []string, args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), append([]string{"mcp-guard"}, args...), strings.NewReader(""), &o, &e, env)
	return code, o.String(), e.String()
}

// checkTerminalSafe fails on anything a terminal could interpret or a
// reader misread (colour is off in these tests).
func checkTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8:\n%q", what, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if !textsafe.Clean(line) {
			t.Errorf("%s: unsafe line %q", what, line)
		}
	}
}

// TestHostileStatusFixtures: `status` shows every hostile fixture escaped,
// reports it (MG301 for what agentty cannot parse, MG308 for deceptive
// text) and asks for attention (exit 1); --json stays valid JSON.
func TestHostileStatusFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(hostile.FixtureDir(), "*.json"))
	if err != nil || len(files) < 10 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	env := hostileEnviron(t, t.TempDir())
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, ".agentty"), 0o755)
			data, _ := os.ReadFile(f)
			os.WriteFile(filepath.Join(dir, ".agentty", "mcp.json"), data, 0o644)
			code, out, errOut := mcpGuard(env, "-C", dir, "status")
			if code != exitAttention {
				t.Errorf("exit %d, want 1\n%s%s", code, out, errOut)
			}
			checkTerminalSafe(t, "stdout", out)
			checkTerminalSafe(t, "stderr", errOut)
			c := trust.Parse(".agentty/mcp.json", data, trust.ScopeProject)
			want := "MG308"
			if !c.Valid() {
				want = "MG301"
			}
			if !strings.Contains(out, " "+want+" ") {
				t.Errorf("no %s in:\n%s", want, out)
			}
			code, out, _ = mcpGuard(env, "-C", dir, "status", "--json")
			var doc map[string]any
			if code != exitAttention || json.Unmarshal([]byte(out), &doc) != nil {
				t.Errorf("status --json: exit %d, invalid JSON:\n%s", code, out)
			}
		})
	}
}

// TestHostileStatusLimits: a 200 MiB configuration is refused with a clear
// message and memory that does not depend on its size; one nested 100,000
// levels is read, as agentty reads it; 100,000 servers are all listed.
func TestHostileStatusLimits(t *testing.T) {
	env := hostileEnviron(t, t.TempDir())
	project := func(t *testing.T) (dir, path string) {
		dir = t.TempDir()
		os.Mkdir(filepath.Join(dir, ".agentty"), 0o755)
		return dir, filepath.Join(dir, ".agentty", "mcp.json")
	}
	for _, tt := range []struct {
		name  string
		write func(path string) error
		want  string
	}{
		{"200 MiB", func(p string) error { return hostile.WriteBig(p, 200<<20) }, "file is too large: 209715200 bytes, the limit is 16777216"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, path := project(t)
			if err := tt.write(path); err != nil {
				t.Fatal(err)
			}
			var code int
			var out string
			n := hostile.Allocated(func() { code, out, _ = mcpGuard(env, "-C", dir, "status") })
			if code != exitAttention || !strings.Contains(out, "closed: .agentty/mcp.json: mcp-guard cannot read this file") || strings.Contains(out, "agentty runs nothing") || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d:\n%s", code, out)
			}
			if n > 2<<20 {
				t.Errorf("status allocated %d bytes", n)
			}
			t.Logf("%d bytes allocated", n)
		})
	}
	t.Run("100,000 levels", func(t *testing.T) {
		dir, path := project(t)
		os.WriteFile(path, hostile.Deep(100000), 0o644)
		code, out, _ := mcpGuard(env, "-C", dir, "status")
		if code != exitAttention || strings.Contains(out, "invalid") || !strings.Contains(out, "\n  — deep") {
			t.Errorf("exit %d, want the server listed as waiting:\n%s", code, out)
		}
	})
}

// TestHostileStatusManyServers: status lists each of the most servers a
// repository's file may declare (trust.MaxServers); one more and it says
// the file is not read, names the count and the limit, and exits 1.
func TestHostileStatusManyServers(t *testing.T) {
	t.Parallel()
	env := hostileEnviron(t, t.TempDir())
	for _, n := range []int{trust.MaxServers, trust.MaxServers + 1} {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".agentty"), 0o755)
		os.WriteFile(filepath.Join(dir, ".agentty", "mcp.json"), hostile.Many(n), 0o644)
		code, out, _ := mcpGuard(env, "-C", dir, "status")
		pending := strings.Count(out, "\n  — srv-")
		if n == trust.MaxServers && (code != exitAttention || pending != n) {
			t.Errorf("%d servers: exit %d, %d pending lines", n, code, pending)
		}
		if n > trust.MaxServers && (code != exitAttention || pending != 0 ||
			!strings.Contains(out, "the file declares 1,001 servers, and mcp-guard reviews at most 1,000 in one repository file") ||
			!strings.Contains(out, "launch stays blocked")) {
			t.Errorf("%d servers: exit %d, %d pending lines:\n%.2000s", n, code, pending, out)
		}
	}
}

// TestHostileStatusSpecialFiles: a configuration that is a FIFO, a device
// or a symlink loop is never opened; status says why it is unusable and
// exits 1, promptly.
func TestHostileStatusSpecialFiles(t *testing.T) {
	env := hostileEnviron(t, t.TempDir())
	for name, tt := range map[string]struct {
		mk   func(p string) error
		want string
	}{
		"fifo":        {func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file (a FIFO)"},
		"device":      {func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file (a device)"},
		"loop":        {func(p string) error { return os.Symlink("mcp.json", p) }, "too many levels of symbolic links"},
		"directory":   {func(p string) error { return os.Mkdir(p, 0o755) }, "not a regular file (a directory)"},
		"unreachable": {func(p string) error { return os.Symlink("/nonexistent/mcp.json", p) }, ""},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, ".agentty"), 0o755)
			if err := tt.mk(filepath.Join(dir, ".agentty", "mcp.json")); err != nil {
				t.Skip(err)
			}
			done := make(chan struct{})
			var code int
			var out, errOut string
			go func() { code, out, errOut = mcpGuard(env, "-C", dir, "status"); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("status blocked")
			}
			if tt.want == "" { // a dangling link: agentty sees no project file
				if code != exitOK || !strings.Contains(out, "no MCP configuration") {
					t.Errorf("exit %d:\n%s%s", code, out, errOut)
				}
				return
			}
			if code != exitAttention || !strings.Contains(out, tt.want) || !strings.Contains(out, "MG310") {
				t.Errorf("exit %d, want 1 saying %q:\n%s%s", code, tt.want, out, errOut)
			}
		})
	}
}

const oneServer = `{"mcpServers":{"db":{"command":"/usr/bin/true","args":["--db"]}}}`

// TestHostileHome: approve and review with a home directory that is
// missing, unset, read-only or on a full disk fail with exit 2 and an
// error that names the problem and the fix, and write nothing anywhere.
func TestHostileHome(t *testing.T) {
	proj := t.TempDir()
	os.Mkdir(filepath.Join(proj, ".agentty"), 0o755)
	os.WriteFile(filepath.Join(proj, ".agentty", "mcp.json"), []byte(oneServer), 0o644)
	commands := [][]string{{"approve", "db"}, {"review", "--approve", "db"}}
	t.Run("missing", func(t *testing.T) {
		base := t.TempDir()
		home := filepath.Join(base, "gone")
		env := hostileEnviron(t, home)
		for _, args := range commands {
			code, out, errOut := mcpGuard(env, append([]string{"-C", proj}, args...)...)
			if code != exitFailure || !strings.Contains(errOut, "mcp-guard: error: ") || !strings.Contains(errOut, home) || !strings.Contains(errOut, "mcp-guard: hint: ") {
				t.Errorf("%s: exit %d\nstdout: %s\nstderr: %s", args[0], code, out, errOut)
			}
			if ents, _ := os.ReadDir(base); len(ents) != 0 {
				t.Errorf("%s: created %v: a missing home must stay missing", args[0], ents)
			}
		}
	})
	t.Run("unset", func(t *testing.T) {
		env := withEnv(hostileEnviron(t, ""), "HOME=", "USERPROFILE=")
		for _, args := range commands {
			code, _, errOut := mcpGuard(env, append([]string{"-C", proj}, args...)...)
			if code != exitFailure || !strings.Contains(errOut, "HOME") {
				t.Errorf("%s: exit %d: %s", args[0], code, errOut)
			}
		}
	})
	t.Run("read-only", func(t *testing.T) {
		home := hostile.MountTmpfs(t, 256<<10)
		env := hostileEnviron(t, home)
		if code, out, errOut := mcpGuard(env, "-C", proj, "approve", "db"); code != exitOK {
			t.Fatalf("approve on a writable home: %d %s %s", code, out, errOut)
		}
		store := filepath.Join(home, ".agentty", trust.ApprovalsFileName)
		before, _ := os.ReadFile(store)
		hostile.RemountReadOnly(t, home)
		os.WriteFile(filepath.Join(proj, ".agentty", "mcp.json"), []byte(`{"mcpServers":{"db":{"command":"/usr/bin/true","args":["--db2"]}}}`), 0o644)
		defer os.WriteFile(filepath.Join(proj, ".agentty", "mcp.json"), []byte(oneServer), 0o644)
		for _, args := range commands {
			code, _, errOut := mcpGuard(env, append([]string{"-C", proj}, args...)...)
			if code != exitFailure || !strings.Contains(errOut, "read-only file system") {
				t.Errorf("%s: exit %d: %s", args[0], code, errOut)
			}
		}
		if after, _ := os.ReadFile(store); !bytes.Equal(before, after) {
			t.Errorf("the store changed on a read-only home")
		}
	})
	t.Run("disk full", func(t *testing.T) {
		home := hostile.MountTmpfs(t, 64<<10)
		env := hostileEnviron(t, home)
		if code, _, errOut := mcpGuard(env, "-C", proj, "approve", "db"); code != exitOK {
			t.Fatalf("approve: %s", errOut)
		}
		store := filepath.Join(home, ".agentty", trust.ApprovalsFileName)
		before, _ := os.ReadFile(store)
		hostile.FillDisk(t, home)
		os.WriteFile(filepath.Join(proj, ".agentty", "mcp.json"), []byte(`{"mcpServers":{"db":{"command":"/usr/bin/true","args":["--db3"]}}}`), 0o644)
		defer os.WriteFile(filepath.Join(proj, ".agentty", "mcp.json"), []byte(oneServer), 0o644)
		for _, args := range commands {
			code, _, errOut := mcpGuard(env, append([]string{"-C", proj}, args...)...)
			if code != exitFailure || !strings.Contains(errOut, "no space left on device") {
				t.Errorf("%s: exit %d: %s", args[0], code, errOut)
			}
		}
		if after, _ := os.ReadFile(store); !bytes.Equal(before, after) {
			t.Errorf("the store changed on a full disk")
		}
		if m, _ := filepath.Glob(filepath.Join(home, ".agentty", ".*.tmp")); len(m) > 0 {
			t.Errorf("temporary files left: %v", m)
		}
	})
}

// hookRepo is a repository with the hooks installed and two branches:
// "old" with one server, "new" with that server changed and one added.
// HEAD is on old.
type hookRepo struct {
	t        *testing.T
	dir, bin string
	env      []string
	old, new string
}

func (r *hookRepo) git(args ...string) (string, string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	return strings.TrimSpace(o.String()), e.String(), err
}

func (r *hookRepo) mustGit(args ...string) string {
	r.t.Helper()
	out, errOut, err := r.git(args...)
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out
}

// newHookRepo builds the repository with n extra servers on "new" (to make
// the hook's work take a while) and installs the hooks with the binary at
// bin (a copy of mcp-guard that the test may remove).
func newHookRepo(t *testing.T, extra int) *hookRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	self, err := exec.LookPath("mcp-guard")
	if err != nil {
		t.Skip("mcp-guard is not on PATH (testscript.Main puts it there)")
	}
	r := &hookRepo{t: t, dir: t.TempDir(), env: hostileEnviron(t, t.TempDir())}
	r.env = withEnv(r.env, "MCP_GUARD_HOOK_TIMEOUT=60s")
	r.bin = filepath.Join(t.TempDir(), "mcp-guard")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	r.mustGit("init", "-q", "-b", "old")
	os.Mkdir(filepath.Join(r.dir, ".agentty"), 0o755)
	os.WriteFile(filepath.Join(r.dir, ".agentty", "mcp.json"), []byte(oneServer), 0o644)
	r.mustGit("add", "-A")
	r.mustGit("commit", "-q", "-m", "old")
	r.old = r.mustGit("rev-parse", "HEAD")
	r.mustGit("checkout", "-q", "-b", "new")
	var b strings.Builder
	b.WriteString(`{"mcpServers":{"db":{"command":"/usr/bin/true","args":["--db"],"env":{"NODE_OPTIONS":"--require ./x.js"}},"added":{"command":"node","args":["srv.js"]}`)
	// The extra servers: as many as a repository's file may declare in
	// the root config, the rest in nested ones of trust.MaxServers each.
	dir, n := filepath.Join(r.dir, ".agentty"), 2
	for i := range extra {
		if n == trust.MaxServers {
			b.WriteString("}}")
			os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(b.String()), 0o644)
			dir, n = filepath.Join(r.dir, fmt.Sprintf("n%03d", i/trust.MaxServers), ".agentty"), 0
			os.MkdirAll(dir, 0o755)
			b.Reset()
			b.WriteString(`{"mcpServers":{`)
		}
		if n > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"s%06d":{"command":"node","args":["s%d.js"]}`, i, i)
		n++
	}
	b.WriteString("}}")
	os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(b.String()), 0o644)
	r.mustGit("add", "-A")
	r.mustGit("commit", "-q", "-m", "new")
	r.new = r.mustGit("rev-parse", "HEAD")
	r.mustGit("checkout", "-q", "old")
	cmd := exec.Command(r.bin, "hooks", "install")
	cmd.Dir, cmd.Env = r.dir, r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hooks install: %v\n%s", err, out)
	}
	return r
}

// checkout runs `git checkout new` and checks that git's own result is
// intact: exit 0, HEAD on new, the new configuration in the work tree. It
// returns git's stderr and how long it took.
func (r *hookRepo) checkout() (string, time.Duration) {
	r.t.Helper()
	start := time.Now()
	_, errOut, err := r.git("checkout", "-q", "new")
	d := time.Since(start)
	if err != nil {
		r.t.Fatalf("git checkout failed (%v): the hook broke it\n%s", err, errOut)
	}
	r.checkMoved()
	return errOut, d
}

func (r *hookRepo) checkMoved() {
	r.t.Helper()
	if head := r.mustGit("rev-parse", "HEAD"); head != r.new {
		r.t.Errorf("HEAD is %s, want %s", head, r.new)
	}
	if data, _ := os.ReadFile(filepath.Join(r.dir, ".agentty", "mcp.json")); !bytes.Contains(data, []byte("NODE_OPTIONS")) {
		r.t.Errorf("the work tree was not updated")
	}
	if st := r.mustGit("status", "--porcelain"); st != "" {
		r.t.Errorf("the work tree is not clean after the checkout:\n%s", st)
	}
}

// TestHostileHookFaults: whatever goes wrong in the hook, the git
// operation completes, git exits 0, and the hook says in one line what
// happened, quickly.
func TestHostileHookFaults(t *testing.T) {
	t.Run("working", func(t *testing.T) {
		r := newHookRepo(t, 0)
		errOut, _ := r.checkout()
		if !strings.Contains(errOut, "mcp-guard: this checkout changed what agentty may run here:") || !strings.Contains(errOut, "asks first    db") || !strings.Contains(errOut, "env.NODE_OPTIONS \"") {
			t.Errorf("no warning:\n%s", errOut)
		}
	})
	t.Run("binary missing", func(t *testing.T) {
		r := newHookRepo(t, 0)
		os.Remove(r.bin)
		// No mcp-guard on PATH either.
		var path []string
		for _, d := range filepath.SplitList(os.Getenv("PATH")) {
			if _, err := os.Stat(filepath.Join(d, "mcp-guard")); err != nil {
				path = append(path, d)
			}
		}
		r.env = withEnv(r.env, "PATH="+strings.Join(path, string(filepath.ListSeparator)))
		errOut, d := r.checkout()
		lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
		if len(lines) != 1 {
			t.Errorf("%d lines, want one:\n%s", len(lines), errOut)
		}
		if !strings.HasPrefix(lines[0], "mcp-guard: not found ("+r.bin+" is gone and mcp-guard is not on PATH)") {
			t.Errorf("stderr:\n%s", errOut)
		}
		t.Logf("%v: %s", d, errOut)
	})
	t.Run("time budget", func(t *testing.T) {
		r := newHookRepo(t, 0)
		r.env = withEnv(r.env, "MCP_GUARD_HOOK_TIMEOUT=1ns")
		errOut, d := r.checkout()
		want := "mcp-guard: gave up after 1ns checking what this checkout changed in what your agents run; check by hand: mcp-guard diff " + r.old + " " + r.new + "\n"
		if errOut != want {
			t.Errorf("stderr %q, want %q", errOut, want)
		}
		if d > 10*time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("half-written repository", func(t *testing.T) {
		// The old configuration's blob is gone (a repository whose objects
		// were only partly written); git's checkout does not need it, the
		// hook does.
		r := newHookRepo(t, 0)
		blob := r.mustGit("rev-parse", "old:.agentty/mcp.json")
		if err := os.Remove(filepath.Join(r.dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
			t.Fatal(err)
		}
		errOut, _ := r.checkout()
		if !strings.HasPrefix(errOut, "mcp-guard: could not check what this checkout changed in what your agents run: ") ||
			!strings.Contains(errOut, "check by hand: mcp-guard diff "+r.old+" "+r.new) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("stderr:\n%s", errOut)
		}
	})
	t.Run("corrupt pack", func(t *testing.T) {
		r := newHookRepo(t, 0)
		r.mustGit("repack", "-q", "-a", "-d")
		r.mustGit("prune-packed")
		packs, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "*.pack"))
		data, _ := os.ReadFile(packs[0])
		for i := 12; i < len(data)-20; i += 3 {
			data[i] ^= 0xff
		}
		os.Chmod(packs[0], 0o644)
		os.WriteFile(packs[0], data, 0o444)
		// git itself cannot check out now; run the hook as git would.
		cmd := exec.Command(filepath.Join(r.dir, ".git", "hooks", "post-checkout"), r.old, r.new, "1")
		cmd.Dir, cmd.Env = r.dir, r.env
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if err != nil || o.Len() != 0 || !strings.HasPrefix(e.String(), "mcp-guard: could not check what this checkout changed") || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("hook: %v\nstdout: %s\nstderr: %s", err, o.String(), e.String())
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		if testing.Short() {
			t.Skip("a slow hook to interrupt")
		}
		// 20,000 added servers (in 21 configs, at most trust.MaxServers
		// each) keep the hook busy for a while; a wrapper
		// records its pid and exit status, and the test sends it SIGINT
		// (Ctrl-C reaching the hook) once it runs. The wrapper passes the
		// exit status on, so the hook script sees what mcp-guard returned.
		r := newHookRepo(t, 20000)
		state := t.TempDir()
		wrapper := filepath.Join(state, "wrapper")
		script := "#!/bin/sh\n" +
			"sh -c 'echo $$ > \"$0.pid.tmp\" && mv \"$0.pid.tmp\" \"$0.pid\" && exec \"$@\"' " + shellQuote(wrapper) + " " + shellQuote(r.bin) + " \"$@\"\n" +
			"s=$?\necho $s > " + shellQuote(wrapper+".status") + "\nexit $s\n"
		if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		hook := filepath.Join(r.dir, ".git", "hooks", "post-checkout")
		text, _ := os.ReadFile(hook)
		patched := strings.Replace(string(text), "mcp_guard='"+r.bin+"'", "mcp_guard='"+wrapper+"'", 1)
		if patched == string(text) {
			t.Fatalf("cannot find the binary's path in the hook:\n%s", text)
		}
		os.WriteFile(hook, []byte(patched), 0o755)

		cmd := exec.Command("git", "checkout", "-q", "new")
		cmd.Dir, cmd.Env = r.dir, r.env
		var e bytes.Buffer
		cmd.Stderr = &e
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var pid int
		deadline := time.Now().Add(30 * time.Second)
		for pid == 0 && time.Now().Before(deadline) {
			if b, err := os.ReadFile(wrapper + ".pid"); err == nil {
				pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			} else {
				time.Sleep(time.Millisecond)
			}
		}
		if pid == 0 {
			cmd.Process.Kill()
			t.Fatal("the hook never started")
		}
		time.Sleep(300 * time.Millisecond) // well into its work
		if err := syscall.Kill(pid, syscall.SIGINT); err != nil {
			t.Fatalf("SIGINT: %v", err)
		}
		sent := time.Now()
		err := cmd.Wait()
		d := time.Since(sent)
		if err != nil {
			t.Fatalf("git checkout failed after the hook was interrupted: %v\n%s", err, e.String())
		}
		r.checkMoved()
		status, _ := os.ReadFile(wrapper + ".status")
		if strings.TrimSpace(string(status)) != "130" {
			t.Errorf("mcp-guard exit status %q, want 130 (killed by SIGINT): it was not interrupted mid-run", status)
		}
		if d > 5*time.Second {
			t.Errorf("git finished %v after the interrupt", d)
		}
		checkTerminalSafe(t, "stderr", e.String())
		t.Logf("git finished %v after SIGINT; stderr %q", d, e.String())
	})
}
