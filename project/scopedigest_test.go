package project

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// TestDirCodeDigest: a package directory's code written through dirCode
// gives the digest of its fields ("name", "dir") followed by the code, as
// when the code was kept and written after them; a directory with no
// code writes nothing.
func TestDirCodeDigest(t *testing.T) {
	want := sha256.New()
	writeFields(want, "pkg", "dir")
	writeFields(want, "a.py", "100644", "0123")
	writeFields(want, "b.py", "100755", "4567")

	h := sha256.New()
	code := &dirCode{h: h, name: "pkg"}
	writeFields(code, "a.py", "100644", "0123")
	writeFields(code, "b.py", "100755", "4567")
	if !bytes.Equal(h.Sum(nil), want.Sum(nil)) {
		t.Error("dirCode's digest is not the fields' then the code's")
	}

	empty, untouched := sha256.New(), sha256.New()
	if n, err := (&dirCode{h: empty, name: "docs"}).Write(nil); n != 0 || err != nil { // writeCode wrote nothing
		t.Fatalf("Write(nil) = %d, %v", n, err)
	}
	if !bytes.Equal(empty.Sum(nil), untouched.Sum(nil)) {
		t.Error("a directory without code changed the digest")
	}
}

// TestWriteFieldsAllocatesNothing: a whole-tree binding writes three
// fields per file; they cost no allocation each.
func TestWriteFieldsAllocatesNothing(t *testing.T) {
	h := sha256.New()
	id := "0123456789abcdef0123456789abcdef01234567"
	if n := testing.AllocsPerRun(100, func() { writeFields(h, "server.js", "100644", id) }); n > 0 {
		t.Errorf("writeFields: %v allocations a call", n)
	}
}
