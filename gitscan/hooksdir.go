package gitscan

import (
	"path/filepath"
	"strings"
)

// HooksDir is the absolute directory git runs this repository's hooks
// from: core.hooksPath when it is set (a relative value is relative to the
// work tree root, where git runs hooks; "~/" is the home directory), else
// <CommonDir>/hooks, shared by every worktree. hooksPath is core.hooksPath
// as configured, "" when unset, so callers can tell a hook manager's
// directory (husky's ".husky/_") from git's own.
//
// With EngineWithGit this is git's own answer (`rev-parse --git-path hooks`,
// every configuration level); EngineInProcess reads the repository's config
// file and, when the repository does not set it, the user's global one.
// (Added for the hooks installer, issue 4.)
func (r *Repo) HooksDir() (dir, hooksPath string, err error) {
	if h, ok := r.be.(hooksDirLister); ok {
		return h.hooksDir()
	}
	for _, p := range r.configFiles() {
		cfg, err := readGitConfig(p)
		if err != nil {
			return "", "", err
		}
		if v := cfg.value("core", "hooksPath"); v != "" {
			hooksPath = v
			break
		}
	}
	switch home, _ := getenv(r.opts.env, "HOME"); {
	case hooksPath == "":
		return filepath.Join(r.commonDir, "hooks"), "", nil
	case strings.HasPrefix(hooksPath, "~/") && home != "":
		return filepath.Join(home, hooksPath[2:]), hooksPath, nil
	}
	return absUnder(r.top, hooksPath), hooksPath, nil
}

// configFiles are the config files EngineInProcess consults for HooksDir,
// most specific first: the repository's, then the user's global one.
func (r *Repo) configFiles() []string {
	out := []string{filepath.Join(r.commonDir, "config")}
	if g, ok := getenv(r.opts.env, "GIT_CONFIG_GLOBAL"); ok {
		return append(out, g)
	}
	if x, ok := getenv(r.opts.env, "XDG_CONFIG_HOME"); ok && x != "" {
		out = append(out, filepath.Join(x, "git", "config"))
	}
	if h, ok := getenv(r.opts.env, "HOME"); ok && h != "" {
		out = append(out, filepath.Join(h, ".gitconfig"))
	}
	return out
}
