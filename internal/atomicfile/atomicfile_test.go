package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// temps lists the temporary files in dir.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), tempSuffix) {
			out = append(out, e.Name())
		}
	}
	return out
}

func mustContent(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s = %q, want %q", path, got, want)
	}
}

// pending starts replacing path with content.
func pending(t *testing.T, path, content string) *Pending {
	t.Helper()
	p, err := Create(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := WriteFile(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustContent(t, path, "one")
	if err := WriteFile(path, []byte("two"), 0o640); err != nil {
		t.Fatal(err)
	}
	mustContent(t, path, "two")
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		// chmod, not the umask, decides: 0640 even under a umask of 077.
		if fi.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", fi.Mode().Perm())
		}
	}
	if left := temps(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestTempFileBeside: the temporary file is in the file's own directory
// (a rename across filesystems would not be atomic), named after it, and
// private to its owner until Close gives it its mode.
func TestTempFileBeside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	p, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Cleanup()
	if filepath.Dir(p.Name()) != dir || !strings.HasPrefix(filepath.Base(p.Name()), ".state.json.") || !strings.HasSuffix(p.Name(), ".tmp") {
		t.Errorf("temporary file %s", p.Name())
	}
	if fi, err := os.Stat(p.Name()); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("temporary file: %v %v", fi.Mode(), err)
	}
}

// TestFailureBeforeRename: a failure injected between the synced write and
// the rename leaves the old file intact and no temporary file.
func TestFailureBeforeRename(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	injected := errors.New("injected")
	var sawTemp bool
	hookBeforeRename = func(tmp string) error {
		// The new content is complete and synced in the temporary file.
		got, err := os.ReadFile(tmp)
		sawTemp = err == nil && string(got) == "new"
		return injected
	}
	t.Cleanup(func() { hookBeforeRename = nil })
	if err := WriteFile(path, []byte("new"), 0o600); !errors.Is(err, injected) {
		t.Fatalf("WriteFile: %v, want the injected failure", err)
	}
	if !sawTemp {
		t.Error("the temporary file did not hold the new content before the rename")
	}
	mustContent(t, path, "old")
	if left := temps(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	// The same through the staged API, and with no file yet: none appears.
	fresh := filepath.Join(dir, "fresh.json")
	p := pending(t, fresh, "new")
	defer p.Cleanup()
	if err := p.Replace(); !errors.Is(err, injected) {
		t.Fatalf("Replace: %v", err)
	}
	if _, err := os.Lstat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed replacement created the file: %v", err)
	}
	if left := temps(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestRenameFails: a rename the system refuses (over a directory) leaves
// what was there and no temporary file.
func TestRenameFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "keep"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o600); err == nil {
		t.Fatal("replaced a directory")
	}
	mustContent(t, filepath.Join(path, "keep"), "x")
	if left := temps(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestAbandon: Cleanup before Replace gives up without a trace; after
// Replace it does nothing; Replace twice is an error.
func TestAbandon(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := pending(t, path, "new")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("more")); err == nil {
		t.Error("Write after Close succeeded")
	}
	p.Cleanup()
	p.Cleanup()
	mustContent(t, path, "old")
	if left := temps(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if err := p.Replace(); err == nil {
		t.Error("Replace after Cleanup succeeded")
	}
	mustContent(t, path, "old")

	p = pending(t, path, "new")
	if err := p.Replace(); err != nil {
		t.Fatal(err)
	}
	p.Cleanup()
	mustContent(t, path, "new")
	if err := p.Replace(); err == nil {
		t.Error("second Replace succeeded")
	}
}

func TestCreateFails(t *testing.T) {
	if _, err := Create(filepath.Join(t.TempDir(), "missing", "state.json"), 0o600); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Create in a missing directory: %v", err)
	}
}

// TestKilledWriter: a writer that dies between write and rename (os.Exit
// runs no deferred Cleanup) leaves the old file and a temporary file, which
// RemoveStale removes; it leaves other files alone.
func TestKilledWriter(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_DIE_WRITING"); path != "" {
		p, err := Create(path, 0o600)
		if err != nil {
			os.Exit(2)
		}
		p.Write([]byte("half"))
		p.Close()
		os.Exit(0)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_DIE_WRITING="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writer: %v\n%s", err, out)
	}
	mustContent(t, path, "old")
	if left := temps(t, dir); len(left) != 1 {
		t.Fatalf("temporary files after the kill: %v, want one", left)
	}
	// Not stale temporaries of state.json: another file's, a directory,
	// and a name without the suffix.
	keep := []string{".other.json.1.tmp", ".state.json.2", "state.json.tmp"}
	for _, n := range keep {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".state.json.3.tmp"), 0o700); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, ".state.json.3.tmp")
	RemoveStale(path)
	mustContent(t, path, "old")
	for _, n := range keep {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("RemoveStale removed %s", n)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(keep)+1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("after RemoveStale: %v", names)
	}
}

func TestSyncDirError(t *testing.T) {
	err := error(&SyncDirError{Dir: "/d", Err: fs.ErrPermission})
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "replaced") {
		t.Errorf("%v", err)
	}
	if err := SyncDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("SyncDir of a missing directory succeeded")
	}
}
