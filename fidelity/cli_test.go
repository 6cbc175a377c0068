package fidelity

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/npmcache"
	"github.com/mcp-guard/mcp-guard/internal/testtmp"
)

// The pinned client. Re-observe every scenario (go test ./fidelity -update) before changing it.
const (
	claudePackage = "@anthropic-ai/claude-code"
	claudeVersion = "2.1.328"
	claudeBanner  = claudeVersion + " (Claude Code)"
	dummyKey      = "sk-ant-fidelity-dummy"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == markerFlag {
		os.Exit(runMarker(os.Args[2:]))
	}
	// Every client's test and each of its scenarios run in parallel (each
	// in its own HOME, temporary directories and fake endpoint on its own
	// port), as many at a time as go test's -parallel (one per CPU). More
	// buys nothing: a run is busy starting node, not waiting; at four on 2
	// CPUs each Claude Code scenario took 2.4 times as long (BENCHMARKS.md).
	// What the clients leave in the temporary directory after a test
	// (Codex's lock files, written once its HOME was removed) goes with
	// one directory removed after the tests (testtmp).
	os.Exit(testtmp.Run(m))
}

// pinned is one client pinned to an exact npm version, installed on first
// use into its own cache directory and reused after.
type pinned struct {
	pkg, version string
	cache        string // the cache directory's name: <cache>-<version>
	bin          string // the binary under node_modules/.bin
	banner       string // what `<bin> --version` prints
	// env is the environment of the version check in a fresh HOME.
	env func(home string) []string

	once sync.Once
	path string
	err  error
	skip string
	took time.Duration
}

var claudeCLI = &pinned{pkg: claudePackage, version: claudeVersion, cache: "claude-code", bin: "claude",
	banner: claudeBanner, env: func(home string) []string { return isolatedEnv(home, nil) }}

// claude returns the pinned Claude Code binary (see pinned.get).
func claude(t *testing.T) string { return claudeCLI.get(t) }

// get returns the pinned binary, installing it into the cache on first
// use under CI=true or MCP_GUARD_FIDELITY=1 (the three CLIs are about
// 900 MB). It skips without npm, with MCP_GUARD_FIDELITY=0, or locally when
// the binary is not cached and installing was not asked for, and fails
// when npm is there but the install does not work under CI.
func (p *pinned) get(t *testing.T) string {
	t.Helper()
	p.once.Do(func() {
		p.install()
		if p.took > 0 {
			t.Logf("npm install %s@%s took %s", p.pkg, p.version, p.took.Round(time.Millisecond))
		}
	})
	switch {
	case p.skip != "":
		t.Skip(p.skip)
	case p.err != nil && os.Getenv("CI") != "true":
		t.Skipf("real-CLI fidelity suite skipped: %v (it fails instead when CI=true)", p.err)
	case p.err != nil:
		t.Fatalf("installing %s@%s: %v", p.pkg, p.version, p.err)
	}
	return p.path
}

func (p *pinned) cacheDir() (string, error) {
	if d := os.Getenv("MCP_GUARD_FIDELITY_CACHE"); d != "" {
		d, err := filepath.Abs(d)
		if p.cache != "claude-code" { // the variable has always named Claude Code's directory
			d = filepath.Join(filepath.Dir(d), p.cache+"-"+p.version)
		}
		return d, err
	}
	return filepath.Join(npmcache.Base("fidelity"), p.cache+"-"+p.version), nil
}

func (p *pinned) install() {
	if os.Getenv("MCP_GUARD_FIDELITY") == "0" {
		p.skip = "real-CLI fidelity suite skipped: MCP_GUARD_FIDELITY=0"
		return
	}
	dir, err := p.cacheDir()
	if err != nil {
		p.err = err
		return
	}
	bin := filepath.Join(npmcache.Bin(dir), p.bin)
	err = p.versionOK(bin)
	switch {
	case err == nil:
		p.path = bin
		return
	case errors.Is(err, npmcache.ErrTimedOut):
		// Cached, but too slow to answer on a loaded machine: that is no
		// broken cache, and installing again would only be slower.
		p.err = err
		return
	}
	if os.Getenv("CI") != "true" && os.Getenv("MCP_GUARD_FIDELITY") != "1" {
		p.skip = fmt.Sprintf("real-CLI fidelity suite skipped: %s@%s is not cached in %s; "+
			"MCP_GUARD_FIDELITY=1 go test ./fidelity installs it (CI=true does too)", p.pkg, p.version, dir)
		return
	}
	p.took, p.err = npmcache.Install(dir, []string{p.pkg + "@" + p.version}, 5*time.Minute,
		func(string) error { return p.versionOK(bin) })
	switch {
	case errors.Is(p.err, npmcache.ErrNoNPM):
		p.skip = fmt.Sprintf("real-CLI fidelity suite skipped: npm not found, needed to install %s@%s", p.pkg, p.version)
	case p.err == nil:
		p.path = bin
	}
}

// versionTimeout bounds a version check. On a loaded 2-CPU machine a
// cached CLI's first start has taken over a minute (Copilot CLI unpacks
// its native package, 235 MB, into the fresh HOME).
const versionTimeout = 3 * time.Minute

func (p *pinned) versionOK(bin string) error {
	if _, err := os.Stat(bin); err != nil {
		return err
	}
	home, err := os.MkdirTemp("", "fidelity-version-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	out, err := runBounded(versionTimeout, home, p.env(home), bin, "--version")
	if err != nil {
		return fmt.Errorf("%s --version: %v\n%s", bin, err, out)
	}
	// The last line: Codex warns first when its home is under a temporary
	// directory; Copilot CLI adds a line after its banner.
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if got := lines[len(lines)-1]; got != p.banner && (len(lines) < 2 || lines[len(lines)-2] != p.banner) {
		return fmt.Errorf("%s --version printed %q, want %q", bin, got, p.banner)
	}
	return nil
}

// isolatedEnv is the whole environment of a client run: nothing from the
// test's own environment but PATH, a fresh HOME, and every switch that keeps
// Claude Code off the network (no updater, telemetry, error reports, and a
// proxy that refuses everything but loopback).
func isolatedEnv(home string, extra map[string]string) []string {
	env := map[string]string{
		"PATH":                    os.Getenv("PATH"),
		"HOME":                    home,
		"XDG_CONFIG_HOME":         filepath.Join(home, ".config"),
		"XDG_CACHE_HOME":          filepath.Join(home, ".cache"),
		"XDG_DATA_HOME":           filepath.Join(home, ".local", "share"),
		"TMPDIR":                  os.TempDir(),
		"LANG":                    "C.UTF-8",
		"TERM":                    "dumb",
		"NO_COLOR":                "1",
		"ANTHROPIC_API_KEY":       dummyKey,
		"ANTHROPIC_BASE_URL":      "http://127.0.0.1:9",
		"DISABLE_AUTOUPDATER":     "1",
		"DISABLE_TELEMETRY":       "1",
		"DISABLE_ERROR_REPORTING": "1",
		"DISABLE_BUG_COMMAND":     "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY":      "1",
		"HTTP_PROXY":                               "http://127.0.0.1:9",
		"HTTPS_PROXY":                              "http://127.0.0.1:9",
		"http_proxy":                               "http://127.0.0.1:9",
		"https_proxy":                              "http://127.0.0.1:9",
		"NO_PROXY":                                 "127.0.0.1,localhost",
		"no_proxy":                                 "127.0.0.1,localhost",
	}
	for k, v := range extra {
		env[k] = v
	}
	var out []string
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// runBounded runs a command in its own process group and kills the whole
// group at the timeout and once it has exited, so nothing it started lingers.
func runBounded(timeout time.Duration, dir string, env []string, name string, args ...string) ([]byte, error) {
	return npmcache.Run(timeout, dir, env, name, args...)
}
