package project

// Hostile repositories for the diff (issue 7): symlinked configurations
// that lead out of the repository or round in circles, configurations too
// large or too deep, 100,000 servers, and files a server "runs" that are
// FIFOs or devices. Each gets a clear, bounded answer.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/internal/hostile"
	"github.com/mcp-guard/mcp-guard/trust"
)

// inTime runs fn and fails the test if it does not return in d.
func inTime(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// TestHostileLinkedConfigs: a configuration reached through a symlink that
// leaves the repository, loops, or chains without end is reported
// (linked, invalid, MG305) and never read from outside the repository, at
// a commit and in the work tree alike.
func TestHostileLinkedConfigs(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(secret, []byte(`{"mcpServers":{"stolen":{"command":"/bin/sh"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	chain := map[string]string{".agentty/mcp.json": "->l0"}
	for i := range 100 {
		chain[fmt.Sprintf(".agentty/l%d", i)] = fmt.Sprintf("->l%d", i+1)
	}
	tests := []struct {
		name  string
		files map[string]string
	}{
		{"absolute link out", map[string]string{".agentty/mcp.json": "->" + secret}},
		{"relative link out", map[string]string{".agentty/mcp.json": "->../../../../../../../../../.." + secret}},
		{"directory linked out", map[string]string{".agentty": "->" + filepath.Dir(secret)}},
		{"link to itself", map[string]string{".agentty/mcp.json": "->mcp.json"}},
		{"two links in a loop", map[string]string{".agentty/mcp.json": "->other.json", ".agentty/other.json": "->mcp.json"}},
		{"directory loop", map[string]string{".agentty": "->.agentty"}},
		{"a chain of 100 links", chain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(map[string]string{"README": "x"})
			head := r.commit(tt.files)
			g := r.open()
			for _, side := range []gitscan.Side{r.side(g, head), gitscan.WorkTree} {
				var snap *Snapshot
				var err error
				inTime(t, 20*time.Second, "Load", func() { snap, err = Load(context.Background(), g, side, Options{}) })
				if err != nil {
					t.Fatalf("%v: Load: %v", side, err)
				}
				for _, c := range snap.Configs {
					for _, s := range c.Servers {
						if s.Name == "stolen" {
							t.Errorf("%v: read the configuration outside the repository", side)
						}
					}
					if c.Config != nil && c.Config.Valid() && len(c.Config.Servers) > 0 {
						t.Errorf("%v: %s: a valid configuration with servers through %s", side, c.Path, tt.name)
					}
				}
				var res *Result
				inTime(t, 20*time.Second, "Compare", func() { res, err = Compare(context.Background(), g, gitscan.Empty, side, Options{}) })
				if err != nil {
					t.Fatalf("%v: Compare: %v", side, err)
				}
				for _, c := range res.Changes {
					if c.Server == "stolen" {
						t.Errorf("%v: a change from outside the repository: %+v", side, c)
					}
				}
				t.Logf("%v: %s", side, brief(res))
			}
		})
	}
}

// commitBlob commits data at path without a work tree file (for blobs too
// large to write out) and returns the commit.
func (r *repo) commitBlob(path string, data func() *os.File) string {
	r.t.Helper()
	f := data()
	defer f.Close()
	cmd := exec.Command("git", "hash-object", "-w", "--stdin")
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, r.env, f
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("hash-object: %v", err)
	}
	r.git("update-index", "--add", "--cacheinfo", "100644,"+strings.TrimSpace(string(out))+","+path)
	r.git("commit", "-q", "-m", "blob")
	return r.git("rev-parse", "HEAD")
}

// TestHostileLargeAndDeepBlobs: a 200 MiB configuration in a commit is
// refused with a clear error, the memory used bounded by the limit, not
// the input. (Deep nesting is no longer refused: trust reads it.)
func TestHostileLargeAndDeepBlobs(t *testing.T) {
	tests := []struct {
		name string
		size int64
		data func(t *testing.T) *os.File
		want error
		text string
	}{
		{"200 MiB", 200 << 20, func(t *testing.T) *os.File {
			p := filepath.Join(t.TempDir(), "big.json")
			if err := hostile.WriteBig(p, 200<<20); err != nil {
				t.Fatal(err)
			}
			f, _ := os.Open(p)
			return f
		}, trust.ErrTooLarge, "too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.size > 0 && testing.Short() {
				t.Skip("200 MiB blob")
			}
			r := newRepo(t)
			r.commit(map[string]string{"README": "x"})
			head := r.commitBlob(".agentty/mcp.json", func() *os.File { return tt.data(t) })
			g := r.open()
			var res *Result
			var err error
			n := hostile.Allocated(func() {
				res, err = Compare(context.Background(), g, r.side(g, "HEAD~1"), r.side(g, head), Options{})
			})
			if err != nil {
				t.Fatal(err)
			}
			if n > 8<<20 {
				t.Errorf("allocated %d bytes", n)
			} else {
				t.Logf("allocated %d bytes", n)
			}
			var mg310 []trust.Finding
			for _, f := range res.Findings {
				if f.Rule == "MG310" {
					mg310 = append(mg310, f)
				}
			}
			if len(mg310) != 1 || !strings.Contains(mg310[0].Message, tt.text) {
				t.Errorf("findings %s, want one MG310 saying %q", brief(res), tt.text)
			}
			c, err := LoadConfig(context.Background(), g, r.side(g, head), ".agentty/mcp.json", Options{})
			if err != nil || c == nil || c.Config == nil {
				t.Fatalf("LoadConfig: %v %v", c, err)
			}
			if !(errors.Is(c.Config.Err, tt.want) || (tt.want == trust.ErrTooLarge && errors.Is(c.Config.Err, gitscan.ErrTooLarge))) || len(c.Servers) != 0 {
				t.Errorf("Err %v, %d servers; want %v", c.Config.Err, len(c.Servers), tt.want)
			}
		})
	}
}

// TestHostileFixturesCompare: each hostile fixture committed arrives as a
// change of its one server with the raw name (the renderers escape it),
// and the comparison reports MG308 for it.
func TestHostileFixturesCompare(t *testing.T) {
	for _, file := range []string{"ansi-osc.json", "bidi.json", "zero-width.json", "lookalike.json", "nul-escaped.json", "line-forgery.json"} {
		t.Run(file, func(t *testing.T) {
			data := hostile.ReadFixture(file)
			want := trust.Parse(".agentty/mcp.json", data, trust.ScopeProject).Servers[0].Name
			r := newRepo(t)
			r.commit(map[string]string{"README": "x"})
			head := r.commit(map[string]string{".agentty/mcp.json": string(data)})
			g := r.open()
			res, err := Compare(context.Background(), g, r.side(g, "HEAD~1"), r.side(g, head), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Changes) != 1 || res.Changes[0].Server != want || res.Changes[0].Impact != trust.ImpactNewUnapproved {
				t.Errorf("changes %s, want %q new-unapproved", brief(res), want)
			}
			found := false
			for _, f := range res.Findings {
				found = found || (f.Rule == "MG308" && f.Server == want)
			}
			if !found {
				t.Errorf("no MG308 for %q: %s", want, brief(res))
			}
		})
	}
}

// TestHostileManyServersCompare: the most servers a repository's file may
// declare (trust.MaxServers) arrive in one pull: every one is reported, at
// a cost linear in their number (against a tenth of them).
func TestHostileManyServersCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 servers")
	}
	cost := func(n int) (time.Duration, uint64, *Result) {
		r := newRepo(t)
		r.fastImport(map[string]string{"README": "x"}, map[string]string{".agentty/mcp.json": string(hostile.Many(n))})
		g := r.open()
		old, cur := r.side(g, "main~1"), r.side(g, "main")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := hostile.CPUTime()
		res, err := Compare(context.Background(), g, old, cur, Options{})
		d := hostile.CPUTime() - start
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		return d, after.Mallocs - before.Mallocs, res
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const small, big = trust.MaxServers / 10, trust.MaxServers
	cpuSmall, allocSmall, _ := cost(small)
	cpuBig, allocBig, res := cost(big)
	if len(res.Changes) != big {
		t.Fatalf("%d changes, want %d", len(res.Changes), big)
	}
	for _, c := range res.Changes[:10] {
		if c.Change != trust.ChangeAdded || c.Impact != trust.ImpactNewUnapproved {
			t.Errorf("%s: %s %s", c.Server, c.Change, c.Impact)
		}
	}
	if r := float64(allocBig) / float64(allocSmall); r > 12 {
		t.Errorf("allocations grow %.1fx for 10x the servers (%d vs %d)", r, allocBig, allocSmall)
	}
	if r := float64(cpuBig) / float64(cpuSmall); r > 60 {
		t.Errorf("CPU time grows %.1fx for 10x the servers (%v vs %v)", r, cpuBig, cpuSmall)
	}
	t.Logf("%d servers: %v CPU, %d allocs; %d: %v CPU, %d allocs", small, cpuSmall, allocSmall, big, cpuBig, allocBig)
}

// TestHostileLoadDirSpecialFiles: outside git, a configuration that is a
// FIFO or a device, and server files that are FIFOs, devices or symlink
// loops, are never opened: LoadDir finishes, the configuration invalid or
// the files not counted.
func TestHostileLoadDirSpecialFiles(t *testing.T) {
	t.Run("configuration", func(t *testing.T) {
		for name, mk := range map[string]func(p string) error{
			"fifo":        func(p string) error { return syscall.Mkfifo(p, 0o644) },
			"device link": func(p string) error { return os.Symlink("/dev/zero", p) },
			"loop":        func(p string) error { return os.Symlink("mcp.json", p) },
		} {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, ".agentty"), 0o755)
			if err := mk(filepath.Join(dir, ".agentty", "mcp.json")); err != nil {
				t.Fatal(err)
			}
			var c *Config
			var err error
			inTime(t, 10*time.Second, name, func() { c, err = LoadDir(context.Background(), dir, Options{}) })
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if c != nil && (c.Config == nil || c.Config.Valid()) {
				t.Errorf("%s: a valid configuration", name)
			}
		}
	})
	t.Run("files a server runs", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".agentty"), 0o755)
		cfg := `{"mcpServers":{"f":{"command":"node","args":["fifo.js"]},"z":{"command":"node","args":["zero.js"]},"l":{"command":"node","args":["loop.js"]},"d":{"command":"python3","args":["-m","pkg"]}}}`
		os.WriteFile(filepath.Join(dir, ".agentty", "mcp.json"), []byte(cfg), 0o644)
		if err := syscall.Mkfifo(filepath.Join(dir, "fifo.js"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Symlink("/dev/zero", filepath.Join(dir, "zero.js"))
		os.Symlink("loop.js", filepath.Join(dir, "loop.js"))
		os.Mkdir(filepath.Join(dir, "pkg"), 0o755)
		syscall.Mkfifo(filepath.Join(dir, "pkg", "__main__.py"), 0o644)
		os.Symlink("/dev/zero", filepath.Join(dir, "pkg", "zero.py"))
		var c *Config
		var err error
		inTime(t, 10*time.Second, "LoadDir", func() { c, err = LoadDir(context.Background(), dir, Options{}) })
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || !c.Config.Valid() || len(c.Servers) != 4 {
			t.Fatalf("config %+v", c)
		}
		for _, s := range c.Servers {
			if s.Deep == "" {
				t.Errorf("%s: no deep fingerprint", s.Name)
			}
		}
	})
}
