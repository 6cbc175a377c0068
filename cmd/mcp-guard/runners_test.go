package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcp-guard/mcp-guard/internal/npmcache"
)

// The real runners the scripts run where a rule depends on what a runner
// reads (issue 27): yarn, pnpm, bun and tsx, pinned, installed from npm
// into a cache directory (~/.cache/mcp-guard/test/runners-<digest>, or
// below $MCP_GUARD_TEST_CACHE) by internal/npmcache, gated as the fidelity suite is: a cached
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
		base = npmcache.Base("test")
	}
	sum := sha256.Sum256([]byte(strings.Join(realRunners, " ")))
	dir := filepath.Join(base, "runners-"+hex.EncodeToString(sum[:6]))
	switch err := installed(dir); {
	case err == nil:
		return npmcache.Bin(dir), ""
	case errors.Is(err, npmcache.ErrTimedOut): // cached, slow to start on a loaded machine
		return "", fmt.Sprintf("cached in %s, but %v", dir, err)
	}
	if os.Getenv("MCP_GUARD_RUNNERS") != "1" {
		return "", fmt.Sprintf("not cached in %s; MCP_GUARD_RUNNERS=1 installs them", dir)
	}
	if _, err := npmcache.Install(dir, realRunners, 5*time.Minute, installed); err != nil {
		return "", fmt.Sprintf("installing %s: %v", strings.Join(realRunners, " "), err)
	}
	return npmcache.Bin(dir), ""
}

// installed says whether every runner installed in dir starts.
func installed(dir string) error {
	for _, r := range realRunners {
		name, _, _ := strings.Cut(r, "@")
		if out, err := npmcache.Run(2*time.Minute, dir, nil, filepath.Join(npmcache.Bin(dir), name), "--version"); err != nil {
			return fmt.Errorf("%s --version: %v\n%s", name, err, out)
		}
	}
	return nil
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
