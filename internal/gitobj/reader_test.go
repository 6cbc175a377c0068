package gitobj

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello world"), []byte{11, 5, 0x90, 5})
	f.Add([]byte("abc"), []byte{3, 4, 0x91, 1, 2, 1, 'x'})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta, 1<<20)
		if err != nil {
			return
		}
		want, n := deltaVarint(delta)
		if n <= 0 {
			t.Fatal("accepted a delta without a header")
		}
		if got, m := deltaVarint(delta[n:]); m <= 0 || uint64(len(out)) != got {
			t.Fatalf("result %d bytes, header says %d (source %d)", len(out), got, want)
		}
	})
}

// TestLooseLimitZero: a limit of 0 is a limit like any other for a loose
// object (it once meant "the header only" inside the reader, and a
// non-empty object came back empty instead of too large).
func TestLooseLimitZero(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	full := strings.TrimSpace(run(t, env, dir, []byte("hello\n"), "hash-object", "-w", "--stdin"))
	empty := strings.TrimSpace(run(t, env, dir, nil, "hash-object", "-w", "--stdin"))
	o, err := Open(SHA1, filepath.Join(dir, ".git", "objects"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if _, data, err := o.Read(full, 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a 6-byte loose blob with limit 0: %q %v, want ErrTooLarge", data, err)
	}
	if typ, data, err := o.Read(empty, 0); err != nil || typ != "blob" || len(data) != 0 {
		t.Errorf("the empty loose blob with limit 0: %s %q %v", typ, data, err)
	}
	if typ, size, err := o.Info(full); err != nil || typ != "blob" || size != 6 {
		t.Errorf("info: %s %d %v", typ, size, err)
	}
}
