package client

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStateInUse: an agent is in use when the user keeps its state in
// HOME (a file of its state, or the directory that holds one); an empty
// HOME says it is not, and what cannot be told counts as in use.
func TestStateInUse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(home string)
		noEnv bool
		want  bool
	}{
		{"nothing in HOME", func(string) {}, false, false},
		{"the agent's directory", func(h string) { inUseDir(t, filepath.Join(h, ".qwen")) }, false, true},
		{"a state file", func(h string) {
			inUseDir(t, filepath.Join(h, ".qwen"))
			inUseFile(t, filepath.Join(h, ".qwen", "mcpApprovals.json"), "{}")
		}, false, true},
		{"an unreadable state file", func(h string) {
			inUseDir(t, filepath.Join(h, ".qwen"))
			inUseFile(t, filepath.Join(h, ".qwen", "settings.json"), "{")
		}, false, true},
		{"another agent's directory", func(h string) { inUseDir(t, filepath.Join(h, ".gemini")) }, false, false},
		{"no HOME", func(string) {}, true, true},
	} {
		root := t.TempDir()
		home, repo := filepath.Join(root, "home"), filepath.Join(root, "repo")
		inUseDir(t, home)
		inUseDir(t, repo)
		tc.setup(home)
		env := Env{Getenv: func(k string) string {
			if k == "HOME" && !tc.noEnv {
				return home
			}
			return ""
		}}
		st := qwenClient{}.State(repo, repo, env)
		if got := st.InUse(env); got != tc.want {
			t.Errorf("%s: InUse = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func inUseDir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func inUseFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
