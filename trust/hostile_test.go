package trust

// Hostile input and faults (issue 7): every configuration mcp-guard reads
// is written by the attacker it defends against, and the files it writes
// are the user's own trust store. These tests feed it the fixtures of
// testdata/hostile/ and the large ones internal/hostile generates, and
// break its writes (kill -9, a full disk, a missing or read-only home).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
)

// TestHostileFixtures: each committed fixture gets the behaviour the
// README of testdata/hostile/ promises.
func TestHostileFixtures(t *testing.T) {
	readable := []string{"name", "command", "args[0]", "env.K"}
	tests := []struct {
		file string
		// invalid: agentty runs nothing, and the error says so in words
		// (errText) at the right place.
		invalid bool
		errText string
		// readable keys reported as MG308 (and MG104 for NULs).
		mg308 []string
		mg104 bool
	}{
		{file: "invalid-utf8-key.json", invalid: true, errText: "invalid UTF-8 byte 0xff"},
		{file: "invalid-utf8-overlong.json", invalid: true, errText: "invalid UTF-8 byte 0xc0"},
		{file: "invalid-utf8-cesu.json", invalid: true, errText: "invalid UTF-8 byte 0xed"},
		{file: "invalid-utf8-truncated.json", invalid: true, errText: "invalid UTF-8 byte 0xc3"},
		{file: "lone-surrogate-high.json", invalid: true, errText: `unpaired surrogate \uD800`},
		{file: "lone-surrogate-low.json", invalid: true, errText: `unpaired surrogate \uDC00`},
		{file: "lone-surrogate-reversed.json", invalid: true, errText: `unpaired surrogate \uDC00`},
		{file: "nul-raw-in-string.json", invalid: true, errText: "control character 0x00 in string"},
		{file: "nul-raw-between-tokens.json", invalid: true, errText: "byte 0x00"},
		{file: "control-raw-in-string.json", invalid: true, errText: "control character 0x1b in string"},
		{file: "nul-escaped.json", mg308: []string{"name", "command", "args[1]", "env.K"}, mg104: true},
		{file: "ansi-osc.json", mg308: readable},
		{file: "bidi.json", mg308: readable},
		{file: "zero-width.json", mg308: []string{"name", "command", "args[1]", "env.K"}},
		{file: "lookalike.json", mg308: readable},
		{file: "line-forgery.json", mg308: []string{"name", "command"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c := Parse(".agentty/mcp.json", hostile.ReadFixture(tt.file), ScopeProject)
			if tt.invalid {
				if c.Valid() || len(c.Servers) != 0 {
					t.Fatalf("valid with %d servers; agentty rejects this file", len(c.Servers))
				}
				if !strings.Contains(c.Err.Error(), tt.errText) {
					t.Errorf("Err %q, want it to say %q", c.Err, tt.errText)
				}
				var se *SyntaxError
				if !errors.As(c.Err, &se) || se.Pos.Line != 1 || se.Pos.Column < 2 {
					t.Errorf("Err %v: want a *SyntaxError with the position of the bad byte", c.Err)
				}
				if got := findingsOf(c, "MG301"); len(got) != 1 {
					t.Errorf("findings %q, want one MG301", rules(c))
				}
				if vs := Evaluate(c, Grants{AllowProject: "1"}); len(vs) != 0 {
					t.Errorf("%d verdicts for a file agentty cannot parse", len(vs))
				}
				return
			}
			if !c.Valid() || len(c.Servers) != 1 {
				t.Fatalf("Err %v, %d servers; want one valid server", c.Err, len(c.Servers))
			}
			name := c.Servers[0].Name
			var keys []string
			for _, f := range findingsOf(c, "MG308") {
				if f.Server != name {
					t.Errorf("MG308 %s names server %q, want %q", f.Key, f.Server, name)
				}
				keys = append(keys, strings.TrimPrefix(f.Key, "mcpServers."+name+"."))
			}
			if !slices.Equal(keys, tt.mg308) {
				t.Errorf("MG308 on %q, want %q", keys, tt.mg308)
			}
			if got := len(findingsOf(c, "MG104")) > 0; got != tt.mg104 {
				t.Errorf("MG104 reported %v, want %v", got, tt.mg104)
			}
		})
	}
}

// TestHostileDeceptiveCatalog: every string of the catalogue is reported
// as MG308 in each position a person reads, or makes the file invalid
// (invalid UTF-8: agentty's parser rejects it, so nothing runs).
func TestHostileDeceptiveCatalog(t *testing.T) {
	for _, d := range hostile.Deceptive {
		t.Run(d.Name, func(t *testing.T) {
			c := Parse(".agentty/mcp.json", hostile.DeceptiveConfig(d.Value), ScopeProject)
			if !c.Valid() {
				if !strings.Contains(c.Err.Error(), "invalid UTF-8") {
					t.Fatalf("invalid for another reason: %v", c.Err)
				}
				return
			}
			got := map[string]bool{}
			for _, f := range findingsOf(c, "MG308") {
				got[f.Server+" "+strings.TrimPrefix(f.Key, "mcpServers."+f.Server+".")] = true
			}
			for _, want := range []string{d.Value + " name", "cmd command", "arg args[1]", "env env.K"} {
				if !got[want] {
					t.Errorf("no MG308 for %q", want)
				}
			}
			if n := len(findingsOf(c, "MG308")); n != 4 {
				t.Errorf("%d MG308 findings, want 4", n)
			}
		})
	}
	// The innocent look-alikes of the catalogue stay quiet: text in one
	// script, or a script beside digits and punctuation, is not deceptive.
	for _, s := range []string{"café", "日本語のサーバー", "сервер-1", "Ελληνικά_2", "naïve résumé", "server 😀", "npx -y @scope/pkg@1.2.3"} {
		if Deceptive(s) {
			t.Errorf("Deceptive(%q) = true, want false", s)
		}
	}
}

// TestHostileHugeConfig: a 200 MiB configuration is refused before it is
// read, with a message that says why, whichever way it is reached; the
// memory used does not depend on the file's size.
func TestHostileHugeConfig(t *testing.T) {
	const size = 200 << 20
	dir := t.TempDir()
	home := t.TempDir()
	path := filepath.Join(dir, ".agentty", "mcp.json")
	mustDo(t, os.MkdirAll(filepath.Dir(path), 0o755))
	mustDo(t, hostile.WriteBig(path, size))
	other := filepath.Join(t.TempDir(), "explicit.json")
	mustDo(t, hostile.WriteBig(other, size))

	check := func(t *testing.T, getenv Getenv) {
		var (
			c   *Config
			err error
		)
		n := hostile.Allocated(func() { _, c, err = loadWithin(t, 10*time.Second, dir, getenv) })
		if err != nil || c == nil {
			t.Fatalf("Load: %v, %v", c, err)
		}
		if !errors.Is(c.Err, ErrTooLarge) || c.Valid() || len(c.Servers) != 0 {
			t.Fatalf("Err %v, %d servers; want ErrTooLarge and nothing", c.Err, len(c.Servers))
		}
		if msg := c.Err.Error(); !strings.Contains(msg, "file is too large") || !strings.Contains(msg, strconv.Itoa(size)) || !strings.Contains(msg, strconv.Itoa(MaxFileSize)) {
			t.Errorf("unclear message %q: want the size and the limit", msg)
		}
		// agentty reads files of any size: mcp-guard's refusal says it
		// did not look, never that nothing runs.
		if !c.Unreadable() || len(findingsOf(c, "MG310")) != 1 || len(findingsOf(c, "MG301")) != 0 {
			t.Errorf("unreadable %v, findings %q; want one MG310", c.Unreadable(), rules(c))
		}
		if n > 1<<20 {
			t.Errorf("refusing a %d-byte file allocated %d bytes", size, n)
		}
		t.Logf("refused with %d bytes allocated", n)
	}
	t.Run("project", func(t *testing.T) { check(t, envMap(map[string]string{"HOME": home})) })
	t.Run("AGENTTY_MCP_CONFIG", func(t *testing.T) {
		check(t, envMap(map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": other}))
	})
	t.Run("through a symlink", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link.json")
		mustDo(t, os.Symlink(other, link))
		check(t, envMap(map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": link}))
	})
	t.Run("approvals store", func(t *testing.T) {
		store := filepath.Join(home, ".agentty", ApprovalsFileName)
		mustDo(t, os.MkdirAll(filepath.Dir(store), 0o700))
		mustDo(t, hostile.WriteBig(store, size))
		var a *Approvals
		n := hostile.Allocated(func() { a = LoadApprovals(store) })
		if !errors.Is(a.Err, ErrApprovalsInvalid) || !errors.Is(a.Err, ErrTooLarge) || a.Approved(h("x")) {
			t.Errorf("Err %v: want an invalid store that approves nothing", a.Err)
		}
		if n > 1<<20 {
			t.Errorf("LoadApprovals allocated %d bytes", n)
		}
		fi, _ := os.Stat(store)
		err := UpdateApprovals(context.Background(), store, addAll(h("x")))
		if !errors.Is(err, ErrApprovalsInvalid) {
			t.Errorf("UpdateApprovals: %v, want a refusal", err)
		}
		if fi2, _ := os.Stat(store); fi2.Size() != size || !fi2.ModTime().Equal(fi.ModTime()) {
			t.Errorf("the store was rewritten")
		}
	})
	t.Run("review ledger", func(t *testing.T) {
		ldir := t.TempDir()
		mustDo(t, hostile.WriteBig(filepath.Join(ldir, LedgerFileName), size))
		var l *Ledger
		n := hostile.Allocated(func() { l = LoadLedger(ldir) })
		if !errors.Is(l.Err, ErrLedgerInvalid) || !errors.Is(l.Err, ErrTooLarge) {
			t.Errorf("Err %v: want an unusable ledger (too large)", l.Err)
		}
		if n > 1<<20 {
			t.Errorf("LoadLedger allocated %d bytes", n)
		}
	})
}

// TestHostileDeepNesting: agentty reads 100,000 levels of nesting, so
// mcp-guard does too: the server beside the deep value is read, and the
// memory used is in proportion to the input. Unclosed, the file is a
// syntax error agentty shares.
func TestHostileDeepNesting(t *testing.T) {
	const levels = 100000
	t.Run("arrays", func(t *testing.T) {
		var c *Config
		data := hostile.Deep(levels)
		n := hostile.Allocated(func() { c = Parse(".agentty/mcp.json", data, ScopeProject) })
		if !c.Valid() || len(c.Servers) != 1 || c.Servers[0].Name != "deep" {
			t.Fatalf("Err %v, servers %q; want the one server", c.Err, serverNames(c))
		}
		if len(c.Findings) != 0 {
			t.Errorf("findings %q, want none", rules(c))
		}
		// A value per level (about 200 bytes with the decoder's stack)
		// and the duplicate-key walk's stack (about 350 with the growth
		// of its slices): some 570 bytes a level.
		if limit := uint64(levels * 1000); n > limit {
			t.Errorf("allocated %d bytes for %d levels, want at most %d", n, levels, limit)
		}
		if canon := c.Servers[0].Canonical(); !strings.Contains(canon, strings.Repeat("[", levels)+strings.Repeat("]", levels)) {
			t.Errorf("canonical form lost the nesting")
		}
		t.Logf("%d bytes allocated", n)
	})
	t.Run("objects, unclosed", func(t *testing.T) {
		c := Parse(".agentty/mcp.json", hostile.DeepObjects(levels), ScopeProject)
		var se *SyntaxError
		if !errors.As(c.Err, &se) || len(c.Servers) != 0 || len(findingsOf(c, "MG301")) != 1 {
			t.Fatalf("Err %v, %d servers, findings %q; want a syntax error (MG301)", c.Err, len(c.Servers), rules(c))
		}
	})
	t.Run("duplicate at the bottom", func(t *testing.T) {
		in := `{"mcpServers":{"s":{"command":"x","tools":` + strings.Repeat(`{"a":`, levels) + `{"k":1,"k":2}` + strings.Repeat("}", levels) + `}}}`
		c := Parse(".agentty/mcp.json", []byte(in), ScopeProject)
		dups := findingsOf(c, "MG302")
		if !c.Valid() || len(dups) != 1 || dups[0].Server != "s" || !strings.HasSuffix(dups[0].Key, ".a.k") {
			t.Fatalf("Err %v, MG302 %+v; want one, of server s", c.Err, dups)
		}
	})
	t.Run("approvals store", func(t *testing.T) {
		store := writeStore(t, `["`+strings.Repeat("a", 64)+`",`+string(hostile.Deep(levels))+`]`)
		a := LoadApprovals(store)
		if a.Err != nil || !a.Approved(strings.Repeat("a", 64)) {
			t.Fatalf("Err %v; want the store read, as agentty reads it", a.Err)
		}
		// dump(2) would indent every level: mcp-guard leaves it alone.
		before, _ := os.ReadFile(store)
		err := UpdateApprovals(context.Background(), store, func(e *ApprovalsEdit) error {
			_, err := e.Add(strings.Repeat("b", 64))
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "levels deep") {
			t.Errorf("update: %v, want a refusal to rewrite", err)
		}
		if after, _ := os.ReadFile(store); !bytes.Equal(before, after) {
			t.Errorf("the store was rewritten")
		}
	})
	t.Run("review ledger", func(t *testing.T) {
		ldir := t.TempDir()
		mustDo(t, os.WriteFile(filepath.Join(ldir, LedgerFileName), []byte(`{"version":1,"reviews":`+strings.Repeat("[", levels)), 0o600))
		if l := LoadLedger(ldir); !errors.Is(l.Err, ErrLedgerInvalid) {
			t.Errorf("Err %v, want an unusable ledger", l.Err)
		}
	})
}

// TestHostileManyServers: 100,000 servers (in the user's own file: a
// repository's declares at most MaxServers) work, and cost what 10,000 cost
// times ten: allocations exactly, CPU time within a wide margin (CPU time,
// not wall time, so that a busy machine does not fail the test). Nothing is
// quadratic in the number of servers.
func TestHostileManyServers(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 servers")
	}
	const big, small = 100000, 10000
	type cost struct {
		cpu    time.Duration
		allocs uint64
	}
	measure := func(data []byte) (*Config, cost) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		cpu0 := hostile.CPUTime()
		// The user's own file: a repository's stops at MaxServers.
		c := Parse(".agentty/mcp.json", data, ScopeUser)
		Evaluate(c, Grants{})
		for _, s := range c.Servers {
			s.Canonical()
		}
		cpu := hostile.CPUTime() - cpu0
		runtime.ReadMemStats(&after)
		return c, cost{cpu, after.Mallocs - before.Mallocs}
	}
	// One P: no idle P runs the collector's opportunistic mark workers,
	// whose CPU time depends on how idle the machine is, not on the input.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	smallData := hostile.Many(small)
	measure(smallData) // warm up
	_, cSmall := measure(smallData)
	if _, again := measure(smallData); again.cpu < cSmall.cpu {
		cSmall.cpu = again.cpu
	}
	c, cBig := measure(hostile.Many(big))

	if !c.Valid() || len(c.Servers) != big {
		t.Fatalf("Err %v, %d servers, want %d", c.Err, len(c.Servers), big)
	}
	for i, s := range c.Servers {
		if s.Name != hostile.ServerName(i) || s.Fingerprint == "" {
			t.Fatalf("server %d is %q, want %q in bytewise order", i, s.Name, hostile.ServerName(i))
		}
	}
	vs := Evaluate(c, Grants{})
	if len(vs) != big || vs[123].Reason != ReasonUser || vs[124].Reason != ReasonUser {
		t.Fatalf("verdicts wrong")
	}
	if r := float64(cBig.allocs) / float64(cSmall.allocs); r > 11 {
		t.Errorf("allocations grow %0.1fx for 10x the servers (%d vs %d)", r, cBig.allocs, cSmall.allocs)
	}
	// Linear is 10x; quadratic would be 100x. Measured: 19x to 37x, the
	// larger heap costing more per server (page faults, cache misses, a
	// collector scanning more), so the bound is 60x.
	if r := float64(cBig.cpu) / float64(cSmall.cpu); r > 60 {
		t.Errorf("CPU time grows %0.1fx for 10x the servers (%v vs %v)", r, cBig.cpu, cSmall.cpu)
	}
	t.Logf("%d servers: %v CPU, %d allocs; %d servers: %v CPU, %d allocs", big, cBig.cpu, cBig.allocs, small, cSmall.cpu, cSmall.allocs)
}

// TestHostileNotAFile: a configuration path that is not a regular file is
// never opened for reading (a FIFO would block, a device never ends), and
// the configuration is reported invalid with a clear reason.
func TestHostileNotAFile(t *testing.T) {
	home := t.TempDir()
	project := func(t *testing.T) (dir, path string) {
		dir = t.TempDir()
		mustDo(t, os.Mkdir(filepath.Join(dir, ".agentty"), 0o755))
		return dir, filepath.Join(dir, ".agentty", "mcp.json")
	}
	invalid := func(t *testing.T, dir, want string) {
		t.Helper()
		_, c, err := loadWithin(t, 5*time.Second, dir, envMap(map[string]string{"HOME": home}))
		if err != nil || c == nil {
			t.Fatalf("Load: %v %v", c, err)
		}
		if c.Valid() || len(c.Servers) != 0 || len(findingsOf(c, "MG310")) != 1 {
			t.Fatalf("Err %v, servers %q, findings %q: want invalid with MG310", c.Err, serverNames(c), rules(c))
		}
		if !strings.Contains(c.Err.Error(), want) {
			t.Errorf("Err %q, want it to say %q", c.Err, want)
		}
	}
	t.Run("character device through a symlink", func(t *testing.T) {
		dir, path := project(t)
		mustDo(t, os.Symlink("/dev/zero", path))
		invalid(t, dir, "not a regular file (a device)")
	})
	t.Run("character device node", func(t *testing.T) {
		dir, path := project(t)
		if err := syscall.Mknod(path, syscall.S_IFCHR|0o644, int(1<<8|5)); err != nil { // 1,5 is /dev/zero
			t.Skipf("mknod needs root: %v", err)
		}
		invalid(t, dir, "not a regular file (a device)")
	})
	t.Run("fifo through a symlink", func(t *testing.T) {
		dir, path := project(t)
		fifo := filepath.Join(t.TempDir(), "fifo")
		mustDo(t, syscall.Mkfifo(fifo, 0o644))
		mustDo(t, os.Symlink(fifo, path))
		invalid(t, dir, "not a regular file (a FIFO)")
	})
	t.Run("socket", func(t *testing.T) {
		dir, path := project(t)
		l, err := net.Listen("unix", path)
		if err != nil {
			t.Skipf("unix socket: %v", err)
		}
		defer l.Close()
		invalid(t, dir, "not a regular file (a socket)")
	})
	t.Run("symlink loop", func(t *testing.T) {
		dir, path := project(t)
		mustDo(t, os.Symlink("mcp.json", path))
		invalid(t, dir, "too many levels of symbolic links")
	})
	t.Run("symlink loop of two", func(t *testing.T) {
		dir, path := project(t)
		other := filepath.Join(dir, ".agentty", "other.json")
		mustDo(t, os.Symlink("other.json", path))
		mustDo(t, os.Symlink("mcp.json", other))
		invalid(t, dir, "too many levels of symbolic links")
	})
	t.Run("directory loop", func(t *testing.T) {
		// .agentty -> .agentty: the path does not resolve, so there is no
		// project configuration to read (agentty's exists() fails the same
		// way) and nothing of the repository's runs.
		dir := t.TempDir()
		mustDo(t, os.Symlink(".agentty", filepath.Join(dir, ".agentty")))
		loc, c, err := loadWithin(t, 5*time.Second, dir, envMap(map[string]string{"HOME": home}))
		if err != nil || loc.Scope == ScopeProject || c != nil {
			t.Errorf("Load: %+v %v %v, want no project configuration", loc, c, err)
		}
	})
	t.Run("symlink out of the repository is followed and reported", func(t *testing.T) {
		dir, path := project(t)
		outside := filepath.Join(t.TempDir(), "elsewhere.json")
		mustDo(t, os.WriteFile(outside, []byte(`{"mcpServers":{"s":{"command":"/usr/bin/true"}}}`), 0o644))
		mustDo(t, os.Symlink(outside, path))
		loc, c, err := loadWithin(t, 5*time.Second, dir, envMap(map[string]string{"HOME": home}))
		if err != nil || c == nil || !c.Valid() || len(c.Servers) != 1 {
			t.Fatalf("Load: %v %v: agentty follows the link and runs the target's server", c, err)
		}
		if !loc.Symlink || loc.Target != outside {
			t.Errorf("location %+v, want the symlink to %s recorded (policy reports it as MG305)", loc, outside)
		}
	})
	t.Run("unreadable file", func(t *testing.T) {
		dir, path := project(t)
		mustDo(t, os.WriteFile(path, []byte(`{"mcpServers":{"s":{"command":"/usr/bin/true"}}}`), 0o600))
		if os.Geteuid() != 0 {
			mustDo(t, os.Chmod(path, 0))
			invalid(t, dir, "permission denied")
			return
		}
		// Permissions do not bind root: load as nobody, who cannot read
		// the root-owned 0600 file, in a child process.
		out := asNobody(t, "load", "HOSTILE_DIR="+dir, "HOME="+home)
		if !strings.Contains(out, "invalid: ") || !strings.Contains(out, "permission denied") || !strings.Contains(out, "MG310") {
			t.Errorf("as nobody: %s", out)
		}
	})
}

const hostileHelperEnv = "MCP_GUARD_HOSTILE_HELPER"

// TestHostileHelperProcess is not a test: the tests above run the test
// binary again with hostileHelperEnv set, and this does the child's work.
func TestHostileHelperProcess(t *testing.T) {
	mode := os.Getenv(hostileHelperEnv)
	if mode == "" {
		t.Skip("helper process for the hostile tests")
	}
	switch mode {
	case "load": // print what Load says about HOSTILE_DIR
		_, c, err := Load(os.Getenv("HOSTILE_DIR"), os.Getenv)
		if err != nil || c == nil {
			fmt.Println("error:", err)
			os.Exit(3)
		}
		if c.Err != nil {
			fmt.Println("invalid:", c.Err)
		}
		fmt.Println("findings:", rules(c))
	case "ledger-loop": // record decisions until killed
		dir := os.Getenv("HOSTILE_DIR")
		r, _ := strconv.Atoi(os.Getenv("HOSTILE_START"))
		for ; ; r++ {
			rv := testReview("repo", ".agentty/mcp.json", fmt.Sprintf("loop-%06d", r), DecisionApproved, h(fmt.Sprintf("loop-%d", r)))
			if err := UpdateLedger(context.Background(), dir, record(rv)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
	}
	os.Exit(0)
}

// asNobody runs the helper in mode as user nobody (via setpriv) and returns
// its combined output. The test binary is copied where nobody can run it.
func asNobody(t *testing.T, mode string, env ...string) string {
	t.Helper()
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("running as root without setpriv to drop privileges")
	}
	base := mkdirWorldReadable(t)
	bin := filepath.Join(base, "trust.test")
	copyFile(t, os.Args[0], bin, 0o755)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOSTILE_DIR="); ok {
			// nobody must reach the directory to be refused the file.
			for d := v; d != "/" && d != "."; d = filepath.Dir(d) {
				if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o005 != 0o005 {
					os.Chmod(d, fi.Mode().Perm()|0o005)
				}
			}
			os.Chmod(filepath.Join(v, ".agentty"), 0o755)
		}
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin,
		"-test.run=^TestHostileHelperProcess$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), hostileHelperEnv+"="+mode), env...)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// TestHostileKilledLedgerWriter kills a process recording decisions with
// SIGKILL at random moments, reading the ledger while it writes: reviews.json
// is always the old or the new
// content (it parses, and holds every decision recorded before the last
// one that returned), never a mix, never empty; the audit log holds whole
// lines only, at most one fewer than the reviews (a kill between the two
// writes).
func TestHostileKilledLedgerWriter(t *testing.T) {
	kills := 12
	if testing.Short() {
		kills = 4
	}
	dir := t.TempDir()
	// Many reviews make each rewrite long enough for kills to land in it.
	seed := make([]Review, 0, 1000)
	for i := range cap(seed) {
		seed = append(seed, testReview("repo", ".agentty/mcp.json", fmt.Sprintf("seed-%06d", i), DecisionApproved, h(fmt.Sprintf("seed-%d", i))))
	}
	mustDo(t, UpdateLedger(context.Background(), dir, record(seed...)))
	seen, lostAudit := 0, 0
	for k := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostileHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), hostileHelperEnv+"=ledger-loop", "HOSTILE_DIR="+dir, "HOSTILE_START="+strconv.Itoa(seen))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		mustDo(t, cmd.Start())
		// Until the kill, read the ledger as another process would: it is
		// always whole (an in-place write shows up here as an empty or cut
		// file far more often than a kill lands inside one). The kill
		// comes once the writer has recorded something, at a random
		// moment of its loop.
		recorded := func() int {
			l := LoadLedger(dir)
			if l.Err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("kill %d: a reader saw a broken ledger during a write: %v", k, l.Err)
			}
			return len(l.Reviews()) - len(seed)
		}
		for deadline := time.Now().Add(20 * time.Second); recorded() <= seen && time.Now().Before(deadline); {
		}
		for stop := time.Now().Add(time.Duration(rand.IntN(100)) * time.Millisecond); time.Now().Before(stop); {
			recorded()
		}
		mustDo(t, cmd.Process.Kill())
		cmd.Wait()
		if bytes.Contains(out.Bytes(), []byte("FAIL")) || strings.Contains(out.String(), "exit status 3") {
			t.Fatalf("kill %d: helper failed:\n%s", k, out.Bytes())
		}
		l := LoadLedger(dir)
		if l.Err != nil {
			t.Fatalf("kill %d: ledger broken: %v", k, l.Err)
		}
		rs := l.Reviews()
		loops := 0
		for _, r := range rs {
			if strings.HasPrefix(r.Server, "loop-") {
				loops++
			}
		}
		if len(rs) != len(seed)+loops || loops < seen {
			t.Fatalf("kill %d: %d reviews (%d from the loop), had %d from the loop before", k, len(rs), loops, seen)
		}
		for i := range loops { // exactly loop-0 … loop-(n-1)
			key := ReviewKey{Repo: "repo", Config: ".agentty/mcp.json", Server: fmt.Sprintf("loop-%06d", i)}
			if st, _ := l.State(key, h(fmt.Sprintf("loop-%d", i))); st != StateReviewed {
				t.Fatalf("kill %d: %s missing or wrong", k, key)
			}
		}
		// audit.jsonl is appended after reviews.json is replaced: a kill
		// between the two loses that one line, never more, and never
		// leaves half a line.
		audit := readAudit(t, dir) // fails on a partial line
		switch missing := len(seed) + loops - len(audit); {
		case missing < lostAudit || missing > lostAudit+1:
			t.Fatalf("kill %d: %d audit lines for %d reviews (%d lost before)", k, len(audit), len(seed)+loops, lostAudit)
		case missing == lostAudit+1:
			lostAudit++
		}
		seen = loops
	}
	t.Logf("%d kills, %d decisions recorded by the killed writers, %d kills between the ledger and the audit line", kills, seen, lostAudit)
	mustDo(t, UpdateLedger(context.Background(), dir, record(testReview("repo", ".agentty/mcp.json", "after", DecisionApproved, h("after")))))
	checkNoLedgerTemps(t, dir)
}

// TestHostileDiskFull: on a full disk an update fails with a clear error,
// the old file is intact byte for byte, and no temporary file is left.
func TestHostileDiskFull(t *testing.T) {
	t.Run("approvals store", func(t *testing.T) {
		home := hostile.MountTmpfs(t, 64<<10)
		store := filepath.Join(home, ".agentty", ApprovalsFileName)
		var hashes []string
		for i := range 40 {
			hashes = append(hashes, h(fmt.Sprintf("old-%d", i)))
		}
		mustDo(t, UpdateApprovals(context.Background(), store, addAll(hashes...)))
		old, err := os.ReadFile(store)
		mustDo(t, err)
		hostile.FillDisk(t, home)
		err = UpdateApprovals(context.Background(), store, addAll(h("new")))
		if err == nil {
			t.Fatal("the update succeeded on a full disk")
		}
		if !errors.Is(err, syscall.ENOSPC) && !strings.Contains(err.Error(), "no space left on device") {
			t.Errorf("error %q does not say the disk is full", err)
		}
		if !strings.Contains(err.Error(), "unchanged") {
			t.Errorf("error %q does not say the store is unchanged", err)
		}
		if now, _ := os.ReadFile(store); !bytes.Equal(now, old) {
			t.Errorf("the store changed:\n%s", now)
		}
		checkNoTemps(t, filepath.Dir(store))
		if a := LoadApprovals(store); a.Err != nil || len(a.Hashes()) != len(hashes) {
			t.Errorf("store after the failure: %v, %d hashes", a.Err, len(a.Hashes()))
		}
	})
	t.Run("review ledger", func(t *testing.T) {
		dir := hostile.MountTmpfs(t, 64<<10)
		ldir := filepath.Join(dir, "mcp-guard")
		var seed []Review
		for i := range 20 {
			seed = append(seed, testReview("repo", ".agentty/mcp.json", fmt.Sprintf("s%d", i), DecisionApproved, h(fmt.Sprint(i))))
		}
		mustDo(t, UpdateLedger(context.Background(), ldir, record(seed...)))
		old, err := os.ReadFile(filepath.Join(ldir, LedgerFileName))
		mustDo(t, err)
		oldAudit, err := os.ReadFile(filepath.Join(ldir, AuditFileName))
		mustDo(t, err)
		hostile.FillDisk(t, dir)
		err = UpdateLedger(context.Background(), ldir, record(testReview("repo", ".agentty/mcp.json", "new", DecisionApproved, h("new"))))
		if err == nil {
			t.Fatal("the update succeeded on a full disk")
		}
		if !strings.Contains(err.Error(), "no space left on device") {
			t.Errorf("error %q does not say the disk is full", err)
		}
		if now, _ := os.ReadFile(filepath.Join(ldir, LedgerFileName)); !bytes.Equal(now, old) {
			t.Errorf("reviews.json changed")
		}
		if now, _ := os.ReadFile(filepath.Join(ldir, AuditFileName)); !bytes.Equal(now, oldAudit) {
			t.Errorf("audit.jsonl changed")
		}
		checkNoLedgerTemps(t, ldir)
		if l := LoadLedger(ldir); l.Err != nil || len(l.Reviews()) != len(seed) {
			t.Errorf("ledger after the failure: %v", l.Err)
		}
	})
}

// TestHostileHome: a home directory that is missing or read-only makes
// every write fail with an error that names the directory, and creates
// nothing anywhere.
func TestHostileHome(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		base := t.TempDir()
		home := filepath.Join(base, "gone")
		getenv := envMap(map[string]string{"HOME": home})
		store, err := ApprovalsPath(getenv)
		mustDo(t, err)
		err = UpdateApprovals(context.Background(), store, addAll(h("x")))
		if err == nil || !strings.Contains(err.Error(), home) {
			t.Errorf("UpdateApprovals: %v, want an error naming %s", err, home)
		}
		ldir, err := LedgerDir(getenv)
		mustDo(t, err)
		err = UpdateLedger(context.Background(), ldir, record(testReview("r", "c", "s", DecisionApproved, h("d"))))
		if err == nil || !strings.Contains(err.Error(), home) {
			t.Errorf("UpdateLedger: %v, want an error naming %s", err, home)
		}
		if ents, _ := os.ReadDir(base); len(ents) != 0 {
			t.Errorf("created %v in %s: a missing home must stay missing", ents, base)
		}
	})
	t.Run("unset", func(t *testing.T) {
		getenv := envMap(map[string]string{})
		if _, err := ApprovalsPath(getenv); !errors.Is(err, ErrNoHome) {
			t.Errorf("ApprovalsPath: %v, want ErrNoHome", err)
		}
		if _, err := LedgerDir(getenv); !errors.Is(err, ErrNoHome) {
			t.Errorf("LedgerDir: %v, want ErrNoHome", err)
		}
		if a := LoadUserApprovals(getenv); a.Approved(h("x")) || !errors.Is(a.Err, ErrNoHome) {
			t.Errorf("LoadUserApprovals: %v", a.Err)
		}
	})
	t.Run("read-only", func(t *testing.T) {
		// A read-only filesystem binds root too.
		home := hostile.MountTmpfs(t, 64<<10)
		mustDo(t, os.MkdirAll(filepath.Join(home, ".agentty"), 0o700))
		store := filepath.Join(home, ".agentty", ApprovalsFileName)
		content := "[\n  \"" + h("old") + "\"\n]"
		mustDo(t, os.WriteFile(store, []byte(content), 0o600))
		hostile.RemountReadOnly(t, home)
		err := UpdateApprovals(context.Background(), store, addAll(h("new")))
		if err == nil || !strings.Contains(err.Error(), "read-only file system") {
			t.Errorf("UpdateApprovals: %v, want a read-only error", err)
		}
		if now, _ := os.ReadFile(store); string(now) != content {
			t.Errorf("the store changed")
		}
		ldir := filepath.Join(home, ".agentty", "mcp-guard")
		err = UpdateLedger(context.Background(), ldir, record(testReview("r", "c", "s", DecisionApproved, h("d"))))
		if err == nil || !strings.Contains(err.Error(), "read-only file system") {
			t.Errorf("UpdateLedger: %v, want a read-only error", err)
		}
		if _, err := os.Stat(ldir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the ledger directory exists: %v", err)
		}
	})
}
