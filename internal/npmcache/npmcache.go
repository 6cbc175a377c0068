// Package npmcache installs npm packages pinned to exact versions into a
// per-machine cache directory, for the tests that run real programs
// published on npm: the agent CLIs of the real-CLI suite (fidelity/) and
// the JavaScript runners of cmd/mcp-guard's scripts. It is the one home
// of how such an install is done; each caller keeps its own gate (which
// environment variable asks for an install) and its own check that the
// installed program starts.
package npmcache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Base is the directory the caches of sub live in:
// ~/.cache/mcp-guard/<sub>, or below the temporary directory on a machine
// without a HOME (some CI containers), a per-machine cache still.
func Base(sub string) string {
	base := os.TempDir()
	if home, err := os.UserHomeDir(); err == nil {
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "mcp-guard", sub)
}

// Bin is the directory npm links an install's programs into.
func Bin(dir string) string { return filepath.Join(dir, "node_modules", ".bin") }

// ErrNoNPM is Install's answer on a machine without npm.
var ErrNoNPM = errors.New("npm not found")

// ErrTimedOut is Run's answer when the command ran past its timeout. A
// cached program that is merely slow to start on a loaded machine is no
// broken cache: installing it again is slower still.
var ErrTimedOut = errors.New("timed out")

// Install installs packages ("name@version", exact) into dir with npm,
// bounded by timeout. It installs beside dir and renames the result into
// place, so an interrupted install never leaves a half-filled cache that
// looks usable, then runs check on dir (whether what was installed
// starts). It returns how long npm took.
func Install(dir string, packages []string, timeout time.Duration, check func(dir string) error) (time.Duration, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return 0, ErrNoNPM
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	args := append([]string{"install", "--prefix", tmp, "--save-exact", "--no-audit", "--no-fund", "--loglevel=error"}, packages...)
	start := time.Now()
	out, err := Run(timeout, tmp, nil, npm, args...)
	took := time.Since(start)
	if err != nil {
		return took, fmt.Errorf("npm install: %v\n%s", err, out)
	}
	os.RemoveAll(dir) // a stale or broken cache
	if err := os.Rename(tmp, dir); err != nil {
		return took, err
	}
	return took, check(dir)
}

// Run runs a command in its own process group (where the system has
// them) and kills the whole group at the timeout and once it has exited,
// so nothing it started lingers. env nil is the test's own environment.
// It returns stdout and stderr together.
func Run(timeout time.Duration, dir string, env []string, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		killGroup(cmd)
	}
	if ctx.Err() != nil {
		err = errors.Join(fmt.Errorf("%w after %s", ErrTimedOut, timeout), err)
	}
	return out.Bytes(), err
}
