package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The real runners the scripts run where a rule depends on what a runner
// reads (issue 27): yarn, pnpm, bun and tsx, pinned, installed from npm
// into a cache directory (~/.cache/mcp-guard/test/runners-<digest>, or
// below $MCP_GUARD_TEST_CACHE), gated as the fidelity suite is: a cached
// install is used, MCP_GUARD_RUNNERS=1 installs one, MCP_GUARD_RUNNERS=0
// never uses them. CI runs the scripts that need them in a step of their
// own (.ci/run), so this package's time limit is not shared with them. A
// script asks with the condition [runner:NAME] and finds them on its PATH.
var realRunners = []string{"yarn@1.22.22", "pnpm@9.15.9", "bun@1.2.23", "tsx@4.20.6"}

var (
	runnersOnce sync.Once
	runnersDir  string // the bin directory, "" when unavailable
	runnersWhy  string // why not, for the skip message
)

// runnersBin is the runners' bin directory, installing them first when
// the gate allows; "" when they are not available.
func runnersBin() string {
	runnersOnce.Do(func() { runnersDir, runnersWhy = installRunners() })
	return runnersDir
}

func installRunners() (bin, why string) {
	switch os.Getenv("MCP_GUARD_RUNNERS") {
	case "0":
		return "", "MCP_GUARD_RUNNERS=0"
	}
	base := os.Getenv("MCP_GUARD_TEST_CACHE")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err.Error()
		}
		base = filepath.Join(home, ".cache", "mcp-guard", "test")
	}
	sum := sha256.Sum256([]byte(strings.Join(realRunners, " ")))
	dir := filepath.Join(base, "runners-"+hex.EncodeToString(sum[:6]))
	bin = filepath.Join(dir, "node_modules", ".bin")
	if installed(bin) {
		return bin, ""
	}
	if os.Getenv("MCP_GUARD_RUNNERS") != "1" {
		return "", fmt.Sprintf("not cached in %s; MCP_GUARD_RUNNERS=1 installs them", dir)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", "npm not found"
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err.Error()
	}
	// Install beside the cache and rename: an interrupted install never
	// leaves a cache that looks usable.
	tmp, err := os.MkdirTemp(base, "runners.tmp-")
	if err != nil {
		return "", err.Error()
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"install", "--prefix", tmp, "--save-exact", "--no-audit", "--no-fund", "--loglevel=error"}, realRunners...)
	if out, err := exec.CommandContext(ctx, npm, args...).CombinedOutput(); err != nil {
		return "", fmt.Sprintf("npm install %s: %v\n%s", strings.Join(realRunners, " "), err, out)
	}
	if !installed(filepath.Join(tmp, "node_modules", ".bin")) {
		return "", "npm installed the runners, yet one does not start"
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return "", err.Error()
	}
	return bin, ""
}

// installed reports whether every runner in bin starts.
func installed(bin string) bool {
	for _, r := range realRunners {
		name, _, _ := strings.Cut(r, "@")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := exec.CommandContext(ctx, filepath.Join(bin, name), "--version").Run()
		cancel()
		if err != nil {
			return false
		}
	}
	return true
}

// runnerCondition answers [runner:NAME]: the pinned runner NAME is on
// the script's PATH.
func runnerCondition(cond string) (bool, error) {
	name, ok := strings.CutPrefix(cond, "runner:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	for _, r := range realRunners {
		if n, _, _ := strings.Cut(r, "@"); n == name {
			return runnersBin() != "", nil
		}
	}
	return false, fmt.Errorf("[runner:%s]: not one of %v", name, realRunners)
}
