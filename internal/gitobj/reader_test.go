package gitobj

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
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

// onePack is a repository whose objects are all in one pack (no deltas:
// one commit), with the id and pack offset of the blob holding content.
func onePack(t *testing.T, content string) (dir, blob string, off int64, pack, idx string) {
	dir, blob, off, _, pack, idx = onePackEntry(t, content)
	return
}

// onePackEntry is onePack with where the blob's entry ends (the offset of
// the next entry, or of the pack's trailing checksum).
func onePackEntry(t *testing.T, content string) (dir, blob string, off, end int64, pack, idx string) {
	t.Helper()
	needGit(t)
	env := testEnv(t)
	dir = gitInit(t, env)
	writeFile(t, dir, "f", content)
	run(t, env, dir, nil, "add", "f")
	run(t, env, dir, nil, "commit", "-q", "-m", "one")
	run(t, env, dir, nil, "repack", "-q", "-a", "-d")
	blob = strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD:f"))
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	pack, idx = packs[0], strings.TrimSuffix(packs[0], ".pack")+".idx"
	idxData, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(pack)
	if err != nil {
		t.Fatal(err)
	}
	off, end = -1, fi.Size()-20
	var offs []int64
	for _, l := range strings.Split(run(t, env, dir, idxData, "show-index"), "\n") {
		if f := strings.Fields(l); len(f) >= 2 {
			o, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			offs = append(offs, o)
			if f[1] == blob {
				off = o
			}
		}
	}
	if off < 0 {
		t.Fatalf("blob %s not in the pack index", blob)
	}
	for _, o := range offs {
		if o > off && o < end {
			end = o
		}
	}
	return dir, blob, off, end, pack, idx
}

// patch overwrites the bytes of file p at off.
func patch(t *testing.T, p string, off int64, b []byte) {
	t.Helper()
	os.Chmod(p, 0o644)
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedPackObject: a pack entry whose zlib stream is damaged is an
// error of the reader's own, neither ErrUnsupported (which would send the
// caller to git and hide the damage, or a reader bug, as slowness) nor
// ErrMissingObject.
func TestDamagedPackObject(t *testing.T) {
	dir, blob, off, pack, _ := onePack(t, strings.Repeat("a server script line\n", 50))
	data, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	hdr := int64(1) // the entry header: type and size, a varint
	for data[off+hdr-1]&0x80 != 0 {
		hdr++
	}
	patch(t, pack, off+hdr, []byte{0x00, 0x00}) // no longer a zlib header
	o, err := Open(SHA1, filepath.Join(dir, ".git", "objects"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	for _, limit := range []int64{-1, 1 << 20} {
		_, _, err := o.Read(blob, limit)
		if err == nil || errors.Is(err, ErrUnsupported) || errors.Is(err, ErrMissingObject) {
			t.Errorf("limit %d: a damaged object: %v, want a damage error", limit, err)
		}
	}
}

// TestUnsupportedVersions: a pack index or pack of a version the reader
// does not implement is ErrUnsupported, so the caller may ask git.
func TestUnsupportedVersions(t *testing.T) {
	for _, tc := range []struct {
		name string
		idx  bool // patch the index, else the pack
		off  int64
		b    []byte
	}{
		{"pack index version 3", true, 4, []byte{0, 0, 0, 3}},
		{"pack version 4", false, 4, []byte{0, 0, 0, 4}},
	} {
		dir, blob, _, pack, idx := onePack(t, "content\n")
		p := pack
		if tc.idx {
			p = idx
		}
		patch(t, p, tc.off, tc.b)
		o, err := Open(SHA1, filepath.Join(dir, ".git", "objects"), "")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := o.Read(blob, -1); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", tc.name, err)
		}
		o.Close()
	}
}

// TestDamagedChecksum: an object whose compressed data inflates to its
// size but fails zlib's Adler-32 check (its last four bytes) is damaged,
// packed or loose: the content it inflates to cannot be trusted, and git
// refuses it too. Reading only size bytes once returned it as good.
func TestDamagedChecksum(t *testing.T) {
	const content = "a server script line\n"
	dir, blob, _, end, pack, _ := onePackEntry(t, content)
	data, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	patch(t, pack, end-1, []byte{data[end-1] ^ 0xff})
	o, err := Open(SHA1, filepath.Join(dir, ".git", "objects"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if _, got, err := o.Read(blob, -1); err == nil || errors.Is(err, ErrUnsupported) {
		t.Errorf("packed, damaged checksum: %q %v, want a damage error", got, err)
	}

	env := testEnv(t)
	dir = gitInit(t, env)
	id := strings.TrimSpace(run(t, env, dir, []byte(content), "hash-object", "-w", "--stdin"))
	loose := filepath.Join(dir, ".git", "objects", id[:2], id[2:])
	b, err := os.ReadFile(loose)
	if err != nil {
		t.Fatal(err)
	}
	patch(t, loose, int64(len(b)-1), []byte{b[len(b)-1] ^ 0xff})
	o2, err := Open(SHA1, filepath.Join(dir, ".git", "objects"), "")
	if err != nil {
		t.Fatal(err)
	}
	defer o2.Close()
	if _, got, err := o2.Read(id, -1); err == nil || errors.Is(err, ErrUnsupported) {
		t.Errorf("loose, damaged checksum: %q %v, want a damage error", got, err)
	}
	if typ, size, err := o2.Info(id); err != nil || typ != "blob" || size != int64(len(content)) {
		t.Errorf("info reads the header only: %s %d %v", typ, size, err)
	}
}
