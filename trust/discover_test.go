package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func envMap(m map[string]string) Getenv {
	return func(k string) string { return m[k] }
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	projectJSON = `{"mcpServers":{"proj":{"command":"/bin/proj"}}}`
	userJSON    = `{"mcpServers":{"user":{"command":"/bin/user"}}}`
)

// layout makes a repository with a project config at its root, a nested
// directory without one, and a home with a user config.
func layout(t *testing.T) (repo, home string) {
	t.Helper()
	root := t.TempDir()
	repo = filepath.Join(root, "repo")
	home = filepath.Join(root, "home")
	writeFile(t, filepath.Join(repo, ".agentty", "mcp.json"), projectJSON)
	if err := os.MkdirAll(filepath.Join(repo, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".agentty", "mcp.json"), userJSON)
	return repo, home
}

func TestDiscoverOrder(t *testing.T) {
	repo, home := layout(t)
	emptyHome := t.TempDir()
	tests := []struct {
		name  string
		dir   string
		env   map[string]string
		path  string // relative to repo, or "~/" for home, "" for none
		scope Scope
	}{
		{"project wins over user", repo, map[string]string{"HOME": home}, ".agentty/mcp.json", ScopeProject},
		{"nested dir never walks up: user", filepath.Join(repo, "sub"), map[string]string{"HOME": home}, "~/.agentty/mcp.json", ScopeUser},
		{"nested dir never walks up: none", filepath.Join(repo, "sub", "deeper"), map[string]string{"HOME": emptyHome}, "", ScopeNone},
		{"no home at all", filepath.Join(repo, "sub"), map[string]string{}, "", ScopeNone},
		{"HOME empty: USERPROFILE", filepath.Join(repo, "sub"), map[string]string{"HOME": "", "USERPROFILE": home}, "~/.agentty/mcp.json", ScopeUser},
		{"HOME set: USERPROFILE ignored", filepath.Join(repo, "sub"), map[string]string{"HOME": emptyHome, "USERPROFILE": home}, "", ScopeNone},
		{"AGENTTY_MCP_CONFIG absolute", repo, map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": filepath.Join(home, ".agentty", "mcp.json")}, "~/.agentty/mcp.json", ScopeExplicit},
		{"AGENTTY_MCP_CONFIG relative to the launch dir", filepath.Join(repo, "sub"), map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": "../.agentty/mcp.json"}, ".agentty/mcp.json", ScopeExplicit},
		{"AGENTTY_MCP_CONFIG empty is unset", repo, map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": ""}, ".agentty/mcp.json", ScopeProject},
		{"AGENTTY_MCP_CONFIG missing: no config at all", repo, map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": filepath.Join(repo, "nope.json")}, "", ScopeNone},
		{"AGENTTY_MCP_CONFIG relative missing", repo, map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": "nope.json"}, "", ScopeNone},
		{"AGENTTY_MCP_CONFIG a directory", repo, map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": filepath.Join(repo, ".agentty")}, "", ScopeNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := Discover(tt.dir, envMap(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			switch {
			case strings.HasPrefix(tt.path, "~/"):
				want = filepath.Join(home, tt.path[2:])
			case tt.path != "":
				want = filepath.Join(repo, tt.path)
			}
			if filepath.Clean(loc.Path) != filepath.Clean(want) && !(want == "" && loc.Path == "") {
				t.Errorf("path %q, want %q", loc.Path, want)
			}
			if loc.Scope != tt.scope {
				t.Errorf("scope %s, want %s", loc.Scope, tt.scope)
			}
			if tt.env["AGENTTY_MCP_CONFIG"] != "" && tt.scope == ScopeNone && loc.Note == "" {
				t.Errorf("no note explaining why AGENTTY_MCP_CONFIG gives no config")
			}
			if loc.Symlink {
				t.Errorf("Symlink set without a symlink")
			}
		})
	}
}

func TestDiscoverNestedConfig(t *testing.T) {
	repo, home := layout(t)
	sub := filepath.Join(repo, "sub")
	writeFile(t, filepath.Join(sub, ".agentty", "mcp.json"), `{"mcpServers":{"nested":{"command":"/bin/n"}}}`)
	loc, c, err := Load(sub, envMap(map[string]string{"HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Scope != ScopeProject || loc.Path != filepath.Join(sub, ".agentty", "mcp.json") {
		t.Errorf("location %+v, want sub's project config", loc)
	}
	if c.Path != filepath.Join(".agentty", "mcp.json") {
		t.Errorf("config path %q, want relative to the launch dir", c.Path)
	}
	if got := serverNames(c); len(got) != 1 || got[0] != "nested" {
		t.Errorf("servers %q, want only sub's (never the repo root's)", got)
	}
	if !c.Server("nested").Gated {
		t.Errorf("nested project server not gated")
	}
}

func TestLoadScopes(t *testing.T) {
	repo, home := layout(t)
	loc, c, err := Load(filepath.Join(repo, "sub"), envMap(map[string]string{"HOME": home}))
	if err != nil || loc.Scope != ScopeUser || c == nil {
		t.Fatalf("Load: %+v %v %v", loc, c, err)
	}
	if s := c.Server("user"); s == nil || s.Gated || c.Scope != ScopeUser {
		t.Errorf("user config: %+v", c)
	}
	loc, c, err = Load(repo, envMap(map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": filepath.Join(repo, ".agentty", "mcp.json")}))
	if err != nil || loc.Scope != ScopeExplicit || c.Scope != ScopeExplicit {
		t.Fatalf("Load: %+v %v", loc, err)
	}
	if s := c.Server("proj"); s == nil || s.Gated {
		t.Errorf("explicit config server gated: %+v", s)
	}
	loc, c, err = Load(repo, envMap(map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": "missing.json"}))
	if err != nil || loc.Scope != ScopeNone || c != nil {
		t.Errorf("missing AGENTTY_MCP_CONFIG: %+v %v %v, want ScopeNone and no config", loc, c, err)
	}
}

func TestDiscoverSymlinks(t *testing.T) {
	target := t.TempDir()
	targetFile := filepath.Join(target, "real.json")
	writeFile(t, targetFile, projectJSON)
	home := t.TempDir()

	t.Run("symlinked mcp.json", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".agentty"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(targetFile, filepath.Join(dir, ".agentty", "mcp.json")); err != nil {
			t.Fatal(err)
		}
		checkSymlinked(t, dir, home, targetFile)
	})
	t.Run("symlinked .agentty directory", func(t *testing.T) {
		dir := t.TempDir()
		realDir := filepath.Join(t.TempDir(), "elsewhere")
		writeFile(t, filepath.Join(realDir, "mcp.json"), projectJSON)
		if err := os.Symlink(realDir, filepath.Join(dir, ".agentty")); err != nil {
			t.Fatal(err)
		}
		checkSymlinked(t, dir, home, filepath.Join(realDir, "mcp.json"))
	})
	t.Run("relative symlink", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "real", "mcp.json"), projectJSON)
		if err := os.Mkdir(filepath.Join(dir, ".agentty"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join("..", "real", "mcp.json"), filepath.Join(dir, ".agentty", "mcp.json")); err != nil {
			t.Fatal(err)
		}
		checkSymlinked(t, dir, home, filepath.Join(dir, "real", "mcp.json"))
	})
	t.Run("dangling symlink is no project config", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".agentty"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "gone.json"), filepath.Join(dir, ".agentty", "mcp.json")); err != nil {
			t.Fatal(err)
		}
		loc, err := Discover(dir, envMap(map[string]string{"HOME": home}))
		if err != nil || loc.Scope != ScopeNone {
			t.Errorf("dangling symlink: %+v %v, want ScopeNone (agentty's exists() is false)", loc, err)
		}
	})
	t.Run(".agentty is a file", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, ".agentty"), "not a dir")
		loc, err := Discover(dir, envMap(map[string]string{"HOME": home}))
		if err != nil || loc.Scope != ScopeNone {
			t.Errorf(".agentty file: %+v %v, want ScopeNone", loc, err)
		}
	})
}

func checkSymlinked(t *testing.T, dir, home, target string) {
	t.Helper()
	loc, c, err := Load(dir, envMap(map[string]string{"HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Scope != ScopeProject || !loc.Symlink {
		t.Fatalf("location %+v, want a project config reached through a symlink", loc)
	}
	wantTarget, err := filepath.EvalSymlinks(target)
	if err != nil {
		t.Fatal(err)
	}
	if loc.Target != wantTarget {
		t.Errorf("Target %q, want %q", loc.Target, wantTarget)
	}
	if loc.Note == "" {
		t.Errorf("no note for a symlinked config")
	}
	if c.SHA256 != FileHash([]byte(projectJSON)) {
		t.Errorf("SHA256 is not the target's bytes' hash")
	}
	if c.Server("proj") == nil {
		t.Errorf("symlink not followed: servers %q", serverNames(c))
	}
	if !loc.Symlink || loc.Target == "" {
		t.Errorf("location %+v: the symlink is not recorded (policy reports it as MG305)", loc)
	}
}

// loadWithin runs Load and fails the test instead of hanging.
func loadWithin(t *testing.T, d time.Duration, dir string, getenv Getenv) (Location, *Config, error) {
	t.Helper()
	type result struct {
		loc Location
		c   *Config
		err error
	}
	ch := make(chan result, 1)
	go func() {
		loc, c, err := Load(dir, getenv)
		ch <- result{loc, c, err}
	}()
	select {
	case r := <-ch:
		return r.loc, r.c, r.err
	case <-time.After(d):
		t.Fatalf("Load(%s) blocked for %v", dir, d)
	}
	return Location{}, nil, nil
}

func TestLoadNotRegular(t *testing.T) {
	home := t.TempDir()
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".agentty", "mcp.json"), 0o755); err != nil {
			t.Fatal(err)
		}
		checkUnreadable(t, dir, home)
	})
	t.Run("fifo", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".agentty"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, ".agentty", "mcp.json"), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		checkUnreadable(t, dir, home)
	})
	t.Run("fifo named by AGENTTY_MCP_CONFIG", func(t *testing.T) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo.json")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		loc, c, err := loadWithin(t, 5*time.Second, dir, envMap(map[string]string{"HOME": home, "AGENTTY_MCP_CONFIG": fifo}))
		if err != nil || loc.Scope != ScopeNone || c != nil {
			t.Errorf("%+v %v %v, want ScopeNone (not a regular file)", loc, c, err)
		}
	})
}

func checkUnreadable(t *testing.T, dir, home string) {
	t.Helper()
	loc, c, err := loadWithin(t, 5*time.Second, dir, envMap(map[string]string{"HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Scope != ScopeProject || c == nil {
		t.Fatalf("%+v %v, want the project location with an invalid config", loc, c)
	}
	if c.Valid() || !errors.Is(c.Err, ErrNotRegular) {
		t.Errorf("Err %v, want ErrNotRegular", c.Err)
	}
	if len(c.Servers) != 0 || len(findingsOf(c, "MG310")) != 1 {
		t.Errorf("servers %q findings %q", serverNames(c), rules(c))
	}
	if vs := Evaluate(c, Grants{AllowProject: "1"}); len(vs) != 0 {
		t.Errorf("verdicts for an unreadable config")
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil { // sparse: no 16 MiB written
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadFile(big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile(big) = %v, want ErrTooLarge", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want not-exist", err)
	}
	if _, err := ReadFile(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile(dir) = %v, want ErrNotRegular", err)
	}
	ok := filepath.Join(dir, "ok.json")
	writeFile(t, ok, "\xEF\xBB\xBF{}")
	if data, err := ReadFile(ok); err != nil || string(data) != "\xEF\xBB\xBF{}" {
		t.Errorf("ReadFile(ok) = %q %v", data, err)
	}
	if err := os.Truncate(ok, MaxFileSize); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(ok); err != nil || len(data) != MaxFileSize {
		t.Errorf("ReadFile(exactly MaxFileSize) = %d bytes, %v", len(data), err)
	}

	// Load reports a too-large project config as unreadable, not as an error.
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".agentty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(big, filepath.Join(repo, ".agentty", "mcp.json")); err != nil {
		t.Fatal(err)
	}
	_, c, err := Load(repo, envMap(map[string]string{}))
	if err != nil || c == nil || !errors.Is(c.Err, ErrTooLarge) || !c.Unreadable() || len(findingsOf(c, "MG310")) != 1 {
		t.Errorf("Load(too large): %v %v", c, err)
	}
}

// TestDiscoverExplicitSymlink: an AGENTTY_MCP_CONFIG file that is itself a
// symlink is reported; one that merely sits in a symlinked directory (as
// /tmp is on macOS) is not: its directory is the user's choice, not a
// repository's .agentty.
func TestDiscoverExplicitSymlink(t *testing.T) {
	realDir := t.TempDir()
	writeFile(t, filepath.Join(realDir, "cfg.json"), projectJSON)
	linkDir := filepath.Join(t.TempDir(), "linkdir")
	if err := os.Symlink(realDir, linkDir); err != nil {
		t.Fatal(err)
	}
	loc, err := Discover(t.TempDir(), envMap(map[string]string{"AGENTTY_MCP_CONFIG": filepath.Join(linkDir, "cfg.json")}))
	if err != nil || loc.Scope != ScopeExplicit {
		t.Fatalf("%+v %v", loc, err)
	}
	if loc.Symlink {
		t.Errorf("a regular file in a symlinked directory reported as a symlinked config: %+v", loc)
	}
	fileLink := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.Symlink(filepath.Join(realDir, "cfg.json"), fileLink); err != nil {
		t.Fatal(err)
	}
	loc, err = Discover(t.TempDir(), envMap(map[string]string{"AGENTTY_MCP_CONFIG": fileLink}))
	if err != nil || loc.Scope != ScopeExplicit || !loc.Symlink {
		t.Errorf("symlinked explicit config: %+v %v, want Symlink", loc, err)
	}
}
