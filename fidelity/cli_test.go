package fidelity

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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
	os.Exit(m.Run())
}

var (
	installOnce sync.Once
	claudeBin   string
	installErr  error
	installSkip string
	installTook time.Duration
)

// claude returns the pinned Claude Code binary, installing it into the
// cache on first use. It skips without npm or with MCP_GUARD_FIDELITY=0,
// and fails when npm is there but the install does not work under CI.
func claude(t *testing.T) string {
	t.Helper()
	installOnce.Do(func() {
		install()
		if installTook > 0 {
			t.Logf("npm install %s@%s took %s", claudePackage, claudeVersion, installTook.Round(time.Millisecond))
		}
	})
	switch {
	case installSkip != "":
		t.Skip(installSkip)
	case installErr != nil && os.Getenv("CI") != "true":
		t.Skipf("real-CLI fidelity suite skipped: %v (it fails instead when CI=true)", installErr)
	case installErr != nil:
		t.Fatalf("installing %s@%s: %v", claudePackage, claudeVersion, installErr)
	}
	return claudeBin
}

func cacheDir() (string, error) {
	if d := os.Getenv("MCP_GUARD_FIDELITY_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	base := os.TempDir() // no HOME (some CI containers): a per-machine cache still
	if home, err := os.UserHomeDir(); err == nil {
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "mcp-guard", "fidelity", "claude-code-"+claudeVersion), nil
}

func install() {
	if os.Getenv("MCP_GUARD_FIDELITY") == "0" {
		installSkip = "real-CLI fidelity suite skipped: MCP_GUARD_FIDELITY=0"
		return
	}
	dir, err := cacheDir()
	if err != nil {
		installErr = err
		return
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "claude")
	if versionOK(bin) == nil {
		claudeBin = bin
		return
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		installSkip = fmt.Sprintf("real-CLI fidelity suite skipped: npm not found, needed to install %s@%s", claudePackage, claudeVersion)
		return
	}
	// Install beside the cache and rename, so an interrupted install never
	// leaves a half-filled cache that looks usable.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		installErr = err
		return
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		installErr = err
		return
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	out, err := runBounded(5*time.Minute, tmp, nil, npm, "install", "--prefix", tmp,
		"--save-exact", "--no-audit", "--no-fund", "--loglevel=error", claudePackage+"@"+claudeVersion)
	installTook = time.Since(start)
	if err != nil {
		installErr = fmt.Errorf("npm install: %v\n%s", err, out)
		return
	}
	os.RemoveAll(dir) // a stale or broken cache
	if err := os.Rename(tmp, dir); err != nil {
		installErr = err
		return
	}
	if err := versionOK(bin); err != nil {
		installErr = err
		return
	}
	claudeBin = bin
}

func versionOK(bin string) error {
	if _, err := os.Stat(bin); err != nil {
		return err
	}
	home, err := os.MkdirTemp("", "fidelity-version-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	out, err := runBounded(time.Minute, home, isolatedEnv(home, nil), bin, "--version")
	if err != nil {
		return fmt.Errorf("%s --version: %v\n%s", bin, err, out)
	}
	if got := strings.TrimSpace(string(out)); got != claudeBanner {
		return fmt.Errorf("%s --version printed %q, want %q", bin, got, claudeBanner)
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
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if ctx.Err() != nil {
		err = errors.Join(fmt.Errorf("timed out after %s", timeout), err)
	}
	return out.Bytes(), err
}
