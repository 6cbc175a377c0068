package client

import (
	"path/filepath"

	"github.com/mcp-guard/mcp-guard/trust"
)

// uses reports whether the user runs agent id on this machine, as far as
// its trust prompt goes: launch is starting it now (Env.Starting), or its
// home directory (home) is there. A first session asks the same "do you
// trust this folder?" as any later one, so a launch never counts as unused.
func (env Env) uses(id ID, home string) bool {
	if env.Starting == id {
		return true
	}
	_, err := env.fs().Stat(home)
	return err == nil
}

// InUse reports whether the user keeps this agent's own state on this
// machine: a file of st that is the user's (not the repository's) is
// there, or the directory that holds one, other than the home directory
// itself (~/.qwen for ~/.qwen/settings.json; ~/.claude.json alone says
// nothing, every home holds that directory). The hook asks it before it
// names a server an agent asks about anyway (report.Warning.Dormant): a
// line about Qwen Code is noise to someone who never ran Qwen Code. It is
// true wherever that cannot be told: no home directory, a state that
// could not be read, a file that exists but cannot be read, or a state
// that names no file of the user's.
func (st *State) InUse(env Env) bool {
	if st == nil || st.Err != nil {
		return true
	}
	home := trust.HomeDir(env.getenv)
	if home == "" {
		return true
	}
	home = filepath.Clean(home)
	fsys := env.fs()
	user := false
	for _, s := range st.Sources {
		if s.RepoSide {
			continue
		}
		user = true
		if s.Present || s.Err != nil {
			return true
		}
		if !filepath.IsAbs(s.Path) {
			continue
		}
		if d := filepath.Dir(s.Path); d != home {
			if fi, err := fsys.Stat(d); err == nil && fi.IsDir() {
				return true
			}
		}
	}
	return !user
}
