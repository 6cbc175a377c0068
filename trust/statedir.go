package trust

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// stateDir is where mcp-guard keeps its own state (the review ledger, its
// audit log, launch snapshots) on this platform, below home: what the
// user decided and when, which is state, not configuration. Linux and
// the BSDs: $XDG_STATE_HOME/mcp-guard (an absolute value only, as the XDG
// Base Directory specification says), else ~/.local/state/mcp-guard;
// macOS: ~/Library/Application Support/mcp-guard; Windows:
// %LOCALAPPDATA%\mcp-guard, else home\AppData\Local\mcp-guard.
func stateDir(getenv Getenv, home string) string {
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "mcp-guard")
	case "windows":
		if d := getenv("LOCALAPPDATA"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "mcp-guard")
		}
		return filepath.Join(home, "AppData", "Local", "mcp-guard")
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcp-guard")
	}
	return filepath.Join(home, ".local", "state", "mcp-guard")
}

// legacyStateDir is where mcp-guard kept its state before it used the
// platform's place: beside agentty's own files.
func legacyStateDir(home string) string { return filepath.Join(home, ".agentty", "mcp-guard") }

// settleStateDir returns the directory to use, moving the legacy one to
// the platform's place first when only the legacy one exists. The move is
// one rename (atomic: every review moves, or none); when it cannot be
// done (another file system, a permission) the legacy directory stays in
// use, so that no review is ever lost.
//
// The directories between home and dir's parent are made (0700) when home
// exists, so that the ledger's writer, which makes only dir and its
// parent and never a home, finds the rest (~/.local).
func settleStateDir(home, dir, legacy string) string {
	if _, err := os.Lstat(dir); err == nil {
		return dir
	}
	if fi, err := os.Stat(home); err == nil && fi.IsDir() {
		if up := filepath.Dir(filepath.Dir(dir)); strings.HasPrefix(up, filepath.Clean(home)+string(filepath.Separator)) {
			os.MkdirAll(up, 0o700) // best effort: the writer says what fails
		}
	}
	if fi, err := os.Lstat(legacy); err != nil || !fi.IsDir() {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err == nil {
		if err := os.Rename(legacy, dir); err == nil {
			return dir
		}
	}
	// Another mcp-guard may have moved it meanwhile.
	if _, err := os.Lstat(dir); err == nil {
		return dir
	}
	return legacy
}
