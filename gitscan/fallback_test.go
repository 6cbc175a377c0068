package gitscan

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// loggingGit is a git executable that appends its arguments to a log file
// before it runs the real git; gitRuns reads the log back.
func loggingGit(t *testing.T) (path string, gitRuns func() string) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip(err)
	}
	d := t.TempDir()
	log := filepath.Join(d, "log")
	path = filepath.Join(d, "git")
	script := "#!/bin/sh\necho \"$*\" >> " + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, func() string { b, _ := os.ReadFile(log); return string(b) }
}

// damagePackedBlob repacks dir into one pack and damages the zlib header
// of the blob at HEAD:path; it returns the blob's id.
func damagePackedBlob(t *testing.T, env []string, dir, path string) string {
	t.Helper()
	run(t, env, dir, nil, "repack", "-q", "-a", "-d", "-f")
	blob := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD:"+path))
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	idx, err := os.ReadFile(strings.TrimSuffix(packs[0], ".pack") + ".idx")
	if err != nil {
		t.Fatal(err)
	}
	var off int64 = -1
	for _, l := range strings.Split(run(t, env, dir, idx, "show-index"), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[1] == blob {
			off, _ = strconv.ParseInt(f[0], 10, 64)
		}
	}
	data, err := os.ReadFile(packs[0])
	if err != nil || off < 0 {
		t.Fatalf("blob %s in %s: offset %d, %v", blob, packs[0], off, err)
	}
	if typ := data[off] >> 4 & 7; typ != 3 {
		t.Fatalf("blob %s is packed as type %d, not as a whole blob", blob, typ)
	}
	hdr := int64(1)
	for data[off+hdr-1]&0x80 != 0 {
		hdr++
	}
	data[off+hdr], data[off+hdr+1] = 0, 0 // no longer a zlib header
	os.Chmod(packs[0], 0o644)
	if err := os.WriteFile(packs[0], data, 0o444); err != nil {
		t.Fatal(err)
	}
	return blob
}

// TestDamagedObjectIsNotRetriedWithGit: when the in-process reader finds
// an object damaged, EngineWithGit reports the error; it does not ask git
// (which would hide a reader bug, or damage, as slowness).
func TestDamagedObjectIsNotRetriedWithGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	damagePackedBlob(t, env, dir, ".agentty/mcp.json")
	git, gitRuns := loggingGit(t)
	r, err := Open(dir, WithEnv(env), WithGitExecutable(git), WithEngine(EngineWithGit), WithoutCache())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.readsNatively() {
		t.Fatal("the repository is not read in process")
	}
	head := resolveT(t, r, "HEAD")
	if data, _, err := r.ReadBlob(head, ".agentty/mcp.json", 1<<20); err == nil || errors.Is(err, gitobj.ErrUnsupported) || errors.Is(err, ErrMissingObject) {
		t.Errorf("a damaged blob: %q %v, want the reader's damage error", data, err)
	}
	if runs := gitRuns(); strings.Contains(runs, "cat-file") {
		t.Errorf("git was asked for the damaged object:\n%s", runs)
	}
	// An undamaged object still reads, in process.
	if _, _, err := r.ReadBlob(head, "src/server.js", 1<<20); err != nil {
		t.Errorf("an intact blob: %v", err)
	}
	r2 := openT(t, dir, env, EngineInProcess, WithoutCache())
	if _, _, err := r2.ReadBlob(resolveT(t, r2, "HEAD"), ".agentty/mcp.json", 1<<20); err == nil || errors.Is(err, ErrUnsupported) {
		t.Errorf("in-process engine, a damaged blob: %v, want the damage error", err)
	}
}

// TestUnsupportedFallsBackToGit: what the reader declares unsupported
// (gitobj.ErrUnsupported) EngineWithGit reads through git's cat-file and
// gets git's answer; EngineInProcess reports it as ErrUnsupported.
func TestUnsupportedFallsBackToGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	git, gitRuns := loggingGit(t)
	r, err := Open(dir, WithEnv(env), WithGitExecutable(git), WithEngine(EngineWithGit), WithoutCache())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head := resolveT(t, r, "HEAD")
	nat := r.be.(*gitBackend).nat
	nat.objects = declaresUnsupported{nat.objects}
	data, _, err := r.ReadBlob(head, ".agentty/mcp.json", 1<<20)
	if err != nil || !strings.Contains(string(data), "src/server.js") {
		t.Errorf("an object the reader declares unsupported: %q %v, want git's answer", data, err)
	}
	if !strings.Contains(gitRuns(), "cat-file") {
		t.Error("git's cat-file was not asked")
	}

	r2 := openT(t, dir, env, EngineInProcess, WithoutCache())
	head2 := resolveT(t, r2, "HEAD")
	nat2 := r2.be.(*inProcessBackend).nat
	nat2.objects = declaresUnsupported{nat2.objects}
	if _, _, err := r2.ReadBlob(head2, ".agentty/mcp.json", 1<<20); !errors.Is(err, ErrUnsupported) {
		t.Errorf("in-process engine: %v, want ErrUnsupported", err)
	}
}

// declaresUnsupported wraps a store: every read is gitobj.ErrUnsupported.
type declaresUnsupported struct{ objectStore }

func (declaresUnsupported) Read(id string, limit int64) (string, []byte, error) {
	return "", nil, &unsupportedErr{id}
}

func (declaresUnsupported) ReadRaw(raw []byte, id string, limit int64) (string, []byte, error) {
	return "", nil, &unsupportedErr{id}
}

type unsupportedErr struct{ id string }

func (e *unsupportedErr) Error() string {
	return "object " + e.id + ": pack version 9: " + gitobj.ErrUnsupported.Error()
}
func (e *unsupportedErr) Unwrap() error { return gitobj.ErrUnsupported }
