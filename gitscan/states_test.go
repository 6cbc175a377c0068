package gitscan

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
)

// smallRepo makes a repository with two commits touching surfaces.
func smallRepo(t *testing.T, env []string) string {
	t.Helper()
	dir := gitInit(t, env)
	writeFile(t, dir, ".agentty/mcp.json", `{"mcpServers":{}}`)
	writeFile(t, dir, "sub/deep/.claude/agents/a.md", "persona")
	writeFile(t, dir, "src/server.js", "console.log(1)")
	run(t, env, dir, nil, "add", ".")
	run(t, env, dir, nil, "commit", "-q", "-m", "one")
	writeFile(t, dir, ".agentty/mcp.json", `{"mcpServers":{"x":{"command":"node","args":["src/server.js"]}}}`)
	run(t, env, dir, nil, "commit", "-q", "-am", "two")
	return dir
}

func TestOpenOutsideRepository(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := t.TempDir()
	env = append(env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	for _, e := range engines {
		_, err := Open(dir, WithEngine(e), WithEnv(env))
		if !errors.Is(err, ErrNotRepository) {
			t.Errorf("%v: open outside a repository: %v, want ErrNotRepository", e, err)
		}
		// git's own message is not wrapped in ours a second time.
		if n := strings.Count(err.Error(), "not a git repository"); n != 1 {
			t.Errorf("%v: %q says it %d times", e, err, n)
		}
	}
}

func TestOpenDanglingGitFile(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := t.TempDir()
	writeFile(t, dir, ".git", "gitdir: ../gone/.git/worktrees/wt\n")
	for _, e := range engines {
		_, err := Open(dir, WithEngine(e), WithEnv(env))
		if !errors.Is(err, ErrNotRepository) || !strings.Contains(err.Error(), "gone") {
			t.Errorf("%v: dangling .git file: %v, want ErrNotRepository naming the target", e, err)
		}
	}
}

func TestOpenBareRefused(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := t.TempDir()
	run(t, env, dir, nil, "init", "-q", "--bare")
	for _, e := range engines {
		_, err := Open(dir, WithEngine(e), WithEnv(env))
		if !errors.Is(err, ErrNotRepository) || !strings.Contains(err.Error(), "bare") {
			t.Errorf("%v: bare repository: %v, want a refusal naming it bare", e, err)
		}
	}
}

func TestUnbornHead(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	writeFile(t, dir, ".agentty/mcp.json", "{}")
	run(t, env, dir, nil, "add", ".")
	for _, e := range engines {
		r := openT(t, dir, env, e)
		head, err := r.Resolve("HEAD")
		if err != nil || head != Empty {
			t.Fatalf("%v: HEAD when unborn: %v %v, want Empty", e, head, err)
		}
		if ids, err := r.Identity(); err != nil || len(ids) != 0 {
			t.Errorf("%v: identity when unborn: %v %v", e, ids, err)
		}
		ch, err := r.Changes(head, Index)
		if err != nil || len(ch) != 1 || ch[0].Path != ".agentty/mcp.json" || ch[0].Old != nil {
			t.Errorf("%v: changes unborn..index: %+v %v", e, ch, err)
		}
		s, _, err := r.Surfaces(WorkTree)
		if err != nil || len(s) != 1 || s[0].Kind != client.KindMCPConfig {
			t.Errorf("%v: work tree surfaces: %+v %v", e, s, err)
		}
		if h, err := r.History(context.Background(), Empty, head, nil); err != nil || len(h) != 0 {
			t.Errorf("%v: history of nothing: %v %v", e, h, err)
		}
		if _, err := r.Resolve("main"); !errors.Is(err, ErrUnknownRevision) {
			t.Errorf("%v: unborn branch by name: %v, want ErrUnknownRevision", e, err)
		}
	}
}

func TestZerosAndUnknownRevisions(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	files := strings.Fields(run(t, env, dir, nil, "ls-tree", "-r", "--name-only", "HEAD"))
	// A branch whose name is also hex: git takes the ref, so must we.
	run(t, env, dir, nil, "branch", "add", "HEAD~1")
	for _, e := range engines {
		r := openT(t, dir, env, e)
		for _, z := range []string{"", strings.Repeat("0", 40)} {
			s, err := r.Resolve(z)
			if err != nil || s != Empty {
				t.Errorf("%v: resolve %q: %v %v, want Empty", e, z, s, err)
			}
		}
		ch, err := r.Changes(Empty, resolveT(t, r, "HEAD"))
		if err != nil || len(ch) != len(files) {
			t.Errorf("%v: zeros..HEAD: %d changes (%v), want %d", e, len(ch), err, len(files))
		}
		// A suffix that is neither ~N nor ^N is not an ancestor step
		// (HEAD~0x once resolved to HEAD~1).
		for _, bad := range []string{"nope", "HEAD~5", "HEAD:src/server.js", "refs/heads/none", "-q", "HEAD\nHEAD",
			"HEAD~0x", "HEAD~0.", "HEAD^0:", "HEAD~1..HEAD", "HEAD^:src/server.js"} {
			if _, err := r.Resolve(bad); !errors.Is(err, ErrUnknownRevision) {
				t.Errorf("%v: resolve %q: %v, want ErrUnknownRevision", e, bad, err)
			}
		}
		want := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD~1"))
		for _, rev := range []string{"HEAD~1", "main~1", want, "add", "add~0", "@~1^{commit}"} {
			if s := resolveT(t, r, rev); s.Commit() != want || s.String() != want {
				t.Errorf("%v: resolve %s = %s, want %s", e, rev, s, want)
			}
		}
		// An abbreviated id: git resolves it; the in-process engine would guess, so refuses.
		s, err := r.Resolve(want[:12])
		switch {
		case e == EngineWithGit && (err != nil || s.Commit() != want):
			t.Errorf("git: abbreviated id: %v %v", s, err)
		case e == EngineInProcess && !errors.Is(err, ErrUnknownRevision):
			t.Errorf("in-process: abbreviated id: %v %v, want ErrUnknownRevision", s, err)
		}
	}
}

func TestLinkedWorktree(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, env, dir, nil, "worktree", "add", "-q", "-b", "feature", wt)
	wt, _ = filepath.EvalSymlinks(wt)
	writeFile(t, wt, "sub/.agentty/mcp.json", `{"mcpServers":{"y":{"command":"sh"}}}`)
	run(t, env, wt, nil, "add", ".")
	run(t, env, wt, nil, "commit", "-q", "-m", "feature")
	writeFile(t, wt, ".agentty/hooks.json", "{}") // untracked, in the linked work tree only
	for _, e := range engines {
		r := openT(t, filepath.Join(wt, "sub", "deep"), env, e)
		if r.TopLevel() != wt || r.CommonDir() != filepath.Join(dir, ".git") ||
			r.GitDir() != filepath.Join(dir, ".git", "worktrees", "wt") {
			t.Errorf("%v: top %s gitdir %s common %s", e, r.TopLevel(), r.GitDir(), r.CommonDir())
		}
		head := resolveT(t, r, "HEAD")
		if want := strings.TrimSpace(run(t, env, wt, nil, "rev-parse", "HEAD")); head.Commit() != want {
			t.Errorf("%v: HEAD %s, want %s", e, head, want)
		}
		ch, err := r.Changes(resolveT(t, r, "main"), head)
		if err != nil || len(ch) != 1 || ch[0].Path != "sub/.agentty/mcp.json" {
			t.Errorf("%v: main..feature: %+v %v", e, ch, err)
		}
		s, _, err := r.Surfaces(WorkTree)
		if err != nil || len(s) != 4 {
			t.Errorf("%v: work tree surfaces %v %v, want 4", e, surfaceStrings(s, nil), err)
		}
		s, _, err = r.Surfaces(Index)
		if err != nil || len(s) != 3 {
			t.Errorf("%v: index surfaces %v %v, want 3", e, surfaceStrings(s, nil), err)
		}
	}
}

func TestShallowClone(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	src, _ := genRepo(t, env, 7, 200, 12)
	for _, depth := range []string{"1", "3"} {
		dst := filepath.Join(t.TempDir(), "clone")
		run(t, env, src, nil, "clone", "-q", "--depth", depth, "file://"+src, dst)
		for _, e := range engines {
			r := openT(t, dst, env, e)
			if !r.IsShallow() {
				t.Fatalf("%v: depth %s clone not reported shallow", e, depth)
			}
			head := resolveT(t, r, "HEAD")
			hist, err := r.History(context.Background(), Empty, head, nil)
			if err != nil {
				t.Fatalf("%v: history of shallow clone: %v", e, err)
			}
			boundaries := 0
			for _, hc := range hist {
				if hc.Boundary {
					boundaries++
					if len(hc.Changes) == 0 {
						t.Errorf("%v: boundary commit reports no surfaces: a shallow scan must not look clean", e)
					}
					for _, c := range hc.Changes {
						if c.Old != nil {
							t.Errorf("%v: boundary change %s has an old side", e, c.Path)
						}
					}
				}
			}
			if boundaries != 1 {
				t.Errorf("%v: depth %s: %d boundary commits in history, want 1", e, depth, boundaries)
			}
			if depth == "1" {
				if _, err := r.Resolve("HEAD~1"); !errors.Is(err, ErrUnknownRevision) {
					t.Errorf("%v: parent beyond the boundary: %v, want ErrUnknownRevision", e, err)
				}
			}
		}
	}
}

func TestHookEnvironment(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	// A commit in progress stages into a temporary index named relative to
	// the work tree root, as git does for `git commit -a` and hooks.
	alt := append(append([]string(nil), env...), "GIT_INDEX_FILE=.git/alt-index")
	run(t, alt, dir, nil, "read-tree", "HEAD")
	writeFile(t, dir, "x/.agentty/acp-agents.json", "{}")
	run(t, alt, dir, nil, "add", "x")
	hookEnv := append(append([]string(nil), env...), "GIT_DIR=.git", "GIT_WORK_TREE=.", "GIT_INDEX_FILE=.git/alt-index")
	for _, e := range engines {
		r := openT(t, dir, hookEnv, e)
		s, _, err := r.Surfaces(Index)
		if err != nil || !strings.Contains(strings.Join(surfaceStrings(s, nil), "\n"), "x/.agentty/acp-agents.json") {
			t.Errorf("%v: index surfaces under GIT_INDEX_FILE: %v %v", e, surfaceStrings(s, nil), err)
		}
		plain := openT(t, dir, env, e)
		s, _, _ = plain.Surfaces(Index)
		if strings.Contains(strings.Join(surfaceStrings(s, nil), "\n"), "acp-agents") {
			t.Errorf("%v: the default index sees the alternate index's file", e)
		}
	}
}

// TestFormatsTheNativeReaderReads: repositories go-git v5 could not open
// or misread (worktreeConfig from sparse checkout, partial clones) read the
// same with every engine; formats it does not know are refused, never
// guessed at.
func TestFormatsTheNativeReaderReads(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	for _, tc := range []struct {
		name string
		cfg  [][]string
		ok   bool
	}{
		{"worktreeConfig", [][]string{{"core.repositoryformatversion", "1"}, {"extensions.worktreeConfig", "true"}}, true},
		{"partialClone", [][]string{{"core.repositoryformatversion", "1"}, {"extensions.partialClone", "origin"}}, true},
		{"promisor", [][]string{{"remote.origin.promisor", "true"}}, true},
		{"unknown extension", [][]string{{"core.repositoryformatversion", "1"}, {"extensions.frobnicate", "yes"}}, false},
		{"format version 2", [][]string{{"core.repositoryformatversion", "2"}}, false},
	} {
		dir := smallRepo(t, env)
		for _, kv := range tc.cfg {
			run(t, env, dir, nil, "config", kv[0], kv[1])
		}
		if !tc.ok {
			if _, err := Open(dir, WithEngine(EngineInProcess), WithEnv(env)); !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s: in-process engine: %v, want ErrUnsupported", tc.name, err)
			}
			if r, err := Open(dir, WithEngine(EngineWithGit), WithEnv(env)); err == nil {
				if r.readsNatively() {
					t.Errorf("%s: the git engine reads natively what git 2.39 does not know", tc.name)
				}
				r.Close()
			}
			continue
		}
		for _, e := range engines {
			r := openT(t, dir, env, e)
			if s, _, err := r.Surfaces(resolveT(t, r, "HEAD")); err != nil || len(s) != 2 {
				t.Errorf("%s: %v surfaces %v %v", tc.name, e, s, err)
			}
		}
	}
}

func TestSHA256Repository(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := t.TempDir()
	if _, err := tryRun(env, dir, nil, "init", "-q", "--object-format=sha256"); err != nil {
		t.Skip("git without sha256 support")
	}
	writeFile(t, dir, ".agentty/mcp.json", "{}")
	run(t, env, dir, nil, "add", ".")
	run(t, env, dir, nil, "commit", "-q", "-m", "one")
	writeFile(t, dir, ".agentty/mcp.json", `{"a":1}`)
	run(t, env, dir, nil, "commit", "-q", "-am", "two")
	r := openT(t, dir, env, EngineWithGit)
	ch, err := r.Changes(resolveT(t, r, "HEAD~1"), resolveT(t, r, "HEAD"))
	want := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD:.agentty/mcp.json"))
	if err != nil || len(ch) != 1 || ch[0].New.ID != want || len(want) != 64 {
		t.Errorf("sha256 changes %+v %v, want new id %s", ch, err, want)
	}
	_, e, err := r.ReadBlob(WorkTree, ".agentty/mcp.json", 100)
	if err != nil || e.ID != want {
		t.Errorf("sha256 work tree id %s %v, want %s", e.ID, err, want)
	}
	if s, err := r.Resolve(strings.Repeat("0", 64)); err != nil || s != Empty {
		t.Errorf("sha256 zeros: %v %v", s, err)
	}
	for _, e := range engines {
		r := openT(t, dir, env, e)
		ch, err := r.Changes(resolveT(t, r, "HEAD~1"), resolveT(t, r, "HEAD"))
		if err != nil || len(ch) != 1 || ch[0].New.ID != want {
			t.Errorf("%v: sha256 changes %+v %v, want new id %s", e, ch, err, want)
		}
		if data, _, err := r.ReadBlob(resolveT(t, r, "HEAD"), ".agentty/mcp.json", 100); err != nil || string(data) != `{"a":1}` {
			t.Errorf("%v: sha256 read %q %v", e, data, err)
		}
	}
	// Packed, the same.
	run(t, env, dir, nil, "gc", "-q")
	for _, e := range engines {
		r := openT(t, dir, env, e)
		if data, _, err := r.ReadBlob(resolveT(t, r, "HEAD~1"), ".agentty/mcp.json", 100); err != nil || string(data) != "{}" {
			t.Errorf("%v: sha256 packed read %q %v", e, data, err)
		}
	}
}

func TestMissingObjectIsAnErrorNotAbsence(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	// Delete the loose object of the changed config: a damaged or partial
	// clone. Both engines must fail, not report the file as deleted.
	id := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD:.agentty"))
	if err := os.Remove(filepath.Join(dir, ".git", "objects", id[:2], id[2:])); err != nil {
		t.Fatal(err)
	}
	for _, e := range engines {
		r := openT(t, dir, env, e)
		_, err := r.Changes(resolveT(t, r, "HEAD~1"), resolveT(t, r, "HEAD"))
		if !errors.Is(err, ErrMissingObject) {
			t.Errorf("%v: changes over a missing tree: %v, want ErrMissingObject", e, err)
		}
		_, err = r.History(context.Background(), Empty, resolveT(t, r, "HEAD"), nil)
		if !errors.Is(err, ErrMissingObject) {
			t.Errorf("%v: history over a missing tree: %v, want ErrMissingObject", e, err)
		}
	}
}

// TestOldGitWithoutBatchCommand: with a git that lacks
// `cat-file --batch-command` (before 2.36), the engine falls back to
// --batch and --batch-check and answers the same.
func TestOldGitWithoutBatchCommand(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip(err)
	}
	wrapper := filepath.Join(t.TempDir(), "old-git")
	script := "#!/bin/sh\nfor a in \"$@\"; do if [ \"$a\" = --batch-command ]; then echo 'error: unknown option' >&2; exit 129; fi; done\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, WithEnv(env), WithGitExecutable(wrapper), WithEngine(engineGitCatFile))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ch, err := r.Changes(resolveT(t, r, "HEAD~1"), resolveT(t, r, "HEAD"))
	if err != nil || len(ch) != 1 {
		t.Fatalf("changes via the fallback: %+v %v", ch, err)
	}
	data, _, err := r.ReadBlob(resolveT(t, r, "HEAD"), ".agentty/mcp.json", 1<<10)
	if err != nil || !strings.Contains(string(data), "server.js") {
		t.Errorf("read via the fallback: %q %v", data, err)
	}
	if _, _, err := r.ReadBlob(resolveT(t, r, "HEAD"), ".agentty/mcp.json", 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("size check via the fallback: %v", err)
	}
	if g := r.be.(*gitBackend); g.cmdMode != -1 || g.check == nil {
		t.Errorf("fallback not taken: cmdMode %d", g.cmdMode)
	}
}

// TestSafeDirectory: a repository another user owns is read only if git
// itself would read it (safe.directory). gitscan locates repositories
// without git only when the current user owns them; otherwise git decides.
// Needs root (to give the repository away).
func TestSafeDirectory(t *testing.T) {
	needGit(t)
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown the repository to another user")
	}
	env := testEnv(t)
	dir := smallRepo(t, env)
	chown := func(uid int) {
		filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
			if err == nil {
				os.Lchown(p, uid, uid)
			}
			return nil
		})
	}
	chown(54321)
	t.Cleanup(func() { chown(0) })
	_, err := Open(filepath.Join(dir, "src"), WithEnv(env), WithEngine(EngineWithGit))
	if err == nil || !strings.Contains(err.Error(), "safe.directory") {
		t.Errorf("a repository owned by someone else: %v, want git's dubious-ownership refusal", err)
	}
	global := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(global, []byte("[safe]\n\tdirectory = *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(filepath.Join(dir, "src"), WithEnv(append(env, "GIT_CONFIG_GLOBAL="+global)), WithEngine(EngineWithGit))
	if err != nil {
		t.Fatalf("with safe.directory=*: %v", err)
	}
	defer r.Close()
	if s, _, err := r.Surfaces(resolveT(t, r, "HEAD")); err != nil || len(s) == 0 {
		t.Errorf("with safe.directory=*: surfaces %v %v", s, err)
	}
}
