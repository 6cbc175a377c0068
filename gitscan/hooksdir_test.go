package gitscan

import (
	"path/filepath"
	"testing"
)

// TestHooksDir: git's default, core.hooksPath relative and absolute, a
// global setting, and a linked worktree (the common directory's hooks),
// the same from both engines.
func TestHooksDir(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	home := env[1][len("HOME="):]
	dir := gitInit(t, env)
	run(t, env, dir, nil, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, env, dir, nil, "worktree", "add", "-q", wt)

	check := func(name, in, wantDir, wantRaw string) {
		t.Helper()
		for _, eng := range []Engine{EngineWithGit, EngineInProcess} {
			r, err := Open(in, WithEnv(env), WithEngine(eng))
			if err != nil {
				t.Fatalf("%s %v: %v", name, eng, err)
			}
			d, raw, err := r.HooksDir()
			r.Close()
			if err != nil || d != wantDir || raw != wantRaw {
				t.Errorf("%s %v: %q %q %v; want %q %q", name, eng, d, raw, err, wantDir, wantRaw)
			}
		}
	}
	check("default", dir, filepath.Join(dir, ".git", "hooks"), "")
	check("worktree", wt, filepath.Join(dir, ".git", "hooks"), "")
	run(t, env, dir, nil, "config", "core.hooksPath", ".husky/_")
	check("relative", dir, filepath.Join(dir, ".husky", "_"), ".husky/_")
	run(t, env, dir, nil, "config", "core.hooksPath", "/opt/hooks")
	check("absolute", dir, "/opt/hooks", "/opt/hooks")
	run(t, env, dir, nil, "config", "--unset", "core.hooksPath")
	run(t, env, dir, nil, "config", "--global", "core.hooksPath", filepath.Join(home, "githooks"))
	check("global", dir, filepath.Join(home, "githooks"), filepath.Join(home, "githooks"))
}
