package trust

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mcp-guard/mcp-guard/internal/filekind"
)

// Getenv looks up an environment variable; packages take it as a parameter
// so that callers (and tests) decide what the environment is.
type Getenv func(string) string

// Location is the configuration agentty's connect loop would read when
// launched in a directory.
type Location struct {
	// Path is the file agentty reads; empty for ScopeNone.
	Path  string
	Scope Scope
	// Note explains a surprising outcome (AGENTTY_MCP_CONFIG naming a
	// missing file, a symlinked config).
	Note string
	// Symlink is set when the file or its .agentty directory is a symlink;
	// Target is where it resolves to.
	Symlink bool
	Target  string
}

// ProjectConfigPath is where a project config lives relative to the launch
// directory.
var ProjectConfigPath = filepath.Join(".agentty", "mcp.json")

// Discover finds the one configuration agentty's connect loop reads when
// launched in dir, first match wins:
//
//  1. $AGENTTY_MCP_CONFIG when set and non-empty (relative to dir); if it
//     does not name a regular file no configuration is used at all;
//  2. dir/.agentty/mcp.json (project, gated; agentty never walks up);
//  3. $HOME/.agentty/mcp.json, or $USERPROFILE's when HOME is empty (user).
//
// Symlinks are followed as agentty follows them, and reported.
func Discover(dir string, getenv Getenv) (Location, error) {
	if p := getenv("AGENTTY_MCP_CONFIG"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return Location{Scope: ScopeNone, Note: fmt.Sprintf("AGENTTY_MCP_CONFIG names %s, which is not a regular file: agentty uses no MCP configuration at all", p)}, nil
		}
		loc := Location{Path: p, Scope: ScopeExplicit}
		markSymlink(&loc, filepath.Dir(p))
		return loc, nil
	}
	p := filepath.Join(dir, ProjectConfigPath)
	if _, err := os.Stat(p); err == nil {
		loc := Location{Path: p, Scope: ScopeProject}
		markSymlink(&loc, dir)
		return loc, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		// A symlink loop or an unreadable directory: agentty's exists()
		// check would fail the same way; report it rather than guess.
		if _, lerr := os.Lstat(p); lerr == nil {
			return Location{Path: p, Scope: ScopeProject}, nil
		}
	}
	if home := HomeDir(getenv); home != "" {
		p := filepath.Join(home, ".agentty", "mcp.json")
		if _, err := os.Stat(p); err == nil {
			loc := Location{Path: p, Scope: ScopeUser}
			markSymlink(&loc, home)
			return loc, nil
		}
	}
	return Location{Scope: ScopeNone}, nil
}

// HomeDir is agentty's idea of home: $HOME, or $USERPROFILE when HOME is
// empty; empty when neither is set.
func HomeDir(getenv Getenv) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	return getenv("USERPROFILE")
}

// markSymlink records whether the config file or the .agentty directory
// holding it (below base) is a symlink.
func markSymlink(loc *Location, base string) {
	parent := filepath.Dir(loc.Path)
	for _, p := range []string{loc.Path, parent} {
		if p == base {
			break
		}
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			loc.Symlink = true
		}
	}
	if loc.Symlink {
		if t, err := filepath.EvalSymlinks(loc.Path); err == nil {
			loc.Target = t
		}
		loc.Note = "the configuration is reached through a symlink; agentty follows it and hashes the target's bytes"
	}
}

// ErrNotRegular reports a configuration path that is not a regular file
// (a directory, FIFO, device or socket): mcp-guard never opens those. The
// error says which (a *filekind.Error).
var ErrNotRegular = filekind.ErrNotRegular

// ReadFile reads a configuration from disk safely: it refuses anything that
// is not a regular file without blocking on it (a FIFO is never opened for
// blocking reads), and refuses files larger than MaxFileSize before reading
// them whole.
func ReadFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, filekind.Of(fi.Mode()))
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: %w: %d bytes, the limit is %d", path, ErrTooLarge, fi.Size(), MaxFileSize)
	}
	// O_NONBLOCK: if the path was swapped for a FIFO after the Stat, the
	// open does not wait for a writer; the Fstat below then refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, filekind.Of(fi.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w: more than %d bytes", path, ErrTooLarge, MaxFileSize)
	}
	return data, nil
}

func describeMode(m fs.FileMode) string { return filekind.Describe(m) }

// Load discovers and parses the configuration agentty would use in dir.
// A configuration that cannot be read is returned as an invalid Config,
// Unreadable when it is larger than mcp-guard reads, not as an error; the
// error is for failures to look at all.
func Load(dir string, getenv Getenv) (Location, *Config, error) {
	loc, err := Discover(dir, getenv)
	if err != nil || loc.Scope == ScopeNone {
		return loc, nil, err
	}
	return loc, Read(dir, loc), nil
}

// Shown is the path of the configuration at loc (Discover's answer for
// dir) as messages name it: a project's relative to dir.
func (loc Location) Shown(dir string) string {
	if rel, err := filepath.Rel(dir, loc.Path); err == nil && loc.Scope == ScopeProject {
		return rel
	}
	return loc.Path
}

// Read reads the configuration at loc (Discover's answer for dir, not
// ScopeNone) from disk as agentty does.
func Read(dir string, loc Location) *Config {
	display := loc.Shown(dir)
	data, err := ReadFile(loc.Path)
	if errors.Is(err, ErrTooLarge) {
		return UnreadableConfig(display, loc.Scope, err)
	}
	if err != nil {
		return InvalidConfig(display, loc.Scope, err)
	}
	// A symlinked configuration (loc.Symlink) is policy's MG305
	// (policy.InspectionFindings).
	return Parse(display, data, loc.Scope)
}
