package trust

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// The golden files are rewritten with `go test ./trust -run Approvals -update`.
// The flag is shared with other golden tests of the package, whoever
// defines it first.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// h returns a distinct, valid approval hash for a label.
func h(label string) string {
	sum := sha256.Sum256([]byte(label))
	return hex.EncodeToString(sum[:])
}

func writeStore(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".agentty", ApprovalsFileName)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadApprovals(t *testing.T) {
	h1, h2 := h("one"), h("two")
	tests := []struct {
		name    string
		content *string // nil: no file
		hashes  []string
		problem string // non-empty: the store is invalid; a part of the reason
	}{
		{name: "missing file is empty and valid", content: nil},
		{name: "empty array", content: ptr("[]")},
		{name: "agentty layout", content: ptr("[\n  \"" + h1 + "\",\n  \"" + h2 + "\"\n]"), hashes: []string{h1, h2}},
		{name: "compact with trailing newline", content: ptr(`["` + h1 + "\"]\n"), hashes: []string{h1}},
		{name: "BOM accepted as nlohmann does", content: ptr("\xef\xbb\xbf[\"" + h1 + "\"]"), hashes: []string{h1}},
		{name: "escapes decoded", content: ptr(`["\u0061bc", "a\"b", "nul\u0000x"]`), hashes: []string{"abc", `a"b`, "nul\x00x"}},
		{name: "duplicates kept", content: ptr(`["` + h1 + `","` + h1 + `"]`), hashes: []string{h1, h1}},
		{name: "non-strings dropped", content: ptr(`[1, "` + h1 + `", null, true, {"a": "` + h2 + `"}, ["` + h2 + `"], -2.5e3]`), hashes: []string{h1}},
		{name: "uppercase kept as written", content: ptr(`["` + strings.ToUpper(h1) + `"]`), hashes: []string{strings.ToUpper(h1)}},
		{name: "zero bytes", content: ptr(""), problem: "is empty"},
		{name: "only whitespace", content: ptr(" \n\t"), problem: "is empty"},
		{name: "object", content: ptr(`{"` + h1 + `": true}`), problem: "is a JSON object, not an array"},
		{name: "string", content: ptr(`"` + h1 + `"`), problem: "is a JSON string, not an array"},
		{name: "null", content: ptr(`null`), problem: "is a JSON null, not an array"},
		{name: "number", content: ptr(`1`), problem: "is a JSON number, not an array"},
		{name: "trailing junk", content: ptr(`["` + h1 + `"] junk`), problem: "content after the JSON value at line 1, column 70"},
		{name: "second array", content: ptr("[\"" + h1 + "\"]\n[\"" + h2 + "\"]"), problem: "content after the JSON value at line 2, column 1"},
		{name: "trailing comma", content: ptr(`["` + h1 + `",]`), problem: "is not valid JSON"},
		{name: "comment", content: ptr("[\n// mine\n\"" + h1 + "\"]"), problem: "is not valid JSON"},
		{name: "truncated write", content: ptr("[\n  \"" + h1 + "\",\n  \"" + h2[:10]), problem: "is not valid JSON"},
		{name: "invalid UTF-8 in a string", content: ptr("[\"" + h1 + "\", \"\xff\"]"), problem: "is not valid JSON"},
		{name: "invalid UTF-8 outside strings", content: ptr("[\"" + h1 + "\"\xc3]"), problem: "is not valid JSON"},
		{name: "unpaired surrogate", content: ptr(`["\ud800", "` + h1 + `"]`), problem: "is not valid JSON"},
		{name: "raw control character", content: ptr("[\"a\x01b\", \"" + h1 + "\"]"), problem: "is not valid JSON"},
		{name: "number out of range", content: ptr(`[1e400, "` + h1 + `"]`), problem: "is not valid JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ApprovalsFileName)
			if tc.content != nil {
				path = writeStore(t, *tc.content)
			}
			a := LoadApprovals(path)
			if a.Path != path || a.Exists != (tc.content != nil) {
				t.Errorf("Path, Exists = %q, %v", a.Path, a.Exists)
			}
			if tc.problem != "" {
				if a.Err == nil || !strings.Contains(a.Err.Error(), tc.problem) || !errors.Is(a.Err, ErrApprovalsInvalid) {
					t.Fatalf("Err = %v, want an ErrApprovalsInvalid containing %q", a.Err, tc.problem)
				}
				var ae *ApprovalsError
				if !errors.As(a.Err, &ae) || ae.Path != path || !strings.HasPrefix(a.Err.Error(), path+": ") {
					t.Errorf("Err = %#v does not name the file first", a.Err)
				}
				if a.Approved(h1) || a.Approved(h2) || a.Hashes() != nil {
					t.Errorf("an invalid store approves something: %v", a.Hashes())
				}
				return
			}
			if a.Err != nil {
				t.Fatalf("Err = %v", a.Err)
			}
			if got := a.Hashes(); !equalStrings(got, tc.hashes) {
				t.Errorf("Hashes() = %q, want %q", got, tc.hashes)
			}
			for _, x := range tc.hashes {
				if !a.Approved(x) {
					t.Errorf("Approved(%q) = false", x)
				}
			}
		})
	}
}

func ptr(s string) *string { return &s }

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestApprovedIsExactByteCompare(t *testing.T) {
	lower := h("x")
	a := LoadApprovals(writeStore(t, `["`+strings.ToUpper(lower)+`", " `+h("y")+`"]`))
	if a.Err != nil {
		t.Fatal(a.Err)
	}
	for _, q := range []string{lower, h("y"), h("y") + " ", ""} {
		if a.Approved(q) {
			t.Errorf("Approved(%q) = true", q)
		}
	}
	if !a.Approved(strings.ToUpper(lower)) {
		t.Error("the exact upper-case string is not found")
	}
	var nilStore *Approvals
	if nilStore.Approved(lower) || nilStore.Hashes() != nil {
		t.Error("a nil store approves something")
	}
}

func TestLoadApprovalsNotARegularFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".agentty")
	if err := os.MkdirAll(filepath.Join(dir, ApprovalsFileName), 0o700); err != nil {
		t.Fatal(err)
	}
	a := LoadApprovals(filepath.Join(dir, ApprovalsFileName))
	if !errors.Is(a.Err, ErrApprovalsInvalid) || !errors.Is(a.Err, ErrNotRegular) {
		t.Errorf("directory: Err = %v", a.Err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	fifo := filepath.Join(t.TempDir(), ApprovalsFileName)
	mkfifo(t, fifo)
	done := make(chan *Approvals, 1)
	go func() { done <- LoadApprovals(fifo) }()
	select {
	case a := <-done:
		if !errors.Is(a.Err, ErrNotRegular) {
			t.Errorf("FIFO: Err = %v", a.Err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("LoadApprovals blocked on a FIFO")
	}
}

func TestApprovalsPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/home/u", "USERPROFILE": `C:\Users\u`}, filepath.Join("/home/u", ".agentty", ApprovalsFileName)},
		{map[string]string{"HOME": "", "USERPROFILE": "/profile"}, filepath.Join("/profile", ".agentty", ApprovalsFileName)},
		{map[string]string{}, ""},
	}
	for _, tc := range tests {
		getenv := func(k string) string { return tc.env[k] }
		got, err := ApprovalsPath(getenv)
		if got != tc.want || (tc.want == "") != errors.Is(err, ErrNoHome) {
			t.Errorf("ApprovalsPath(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
		if tc.want == "" {
			a := LoadUserApprovals(getenv)
			if !errors.Is(a.Err, ErrNoHome) || a.Approved(h("x")) {
				t.Errorf("LoadUserApprovals without a home: %+v", a)
			}
			if err := UpdateApprovals(context.Background(), got, func(e *ApprovalsEdit) error { _, err := e.Add(h("x")); return err }); !errors.Is(err, ErrNoHome) {
				t.Errorf("UpdateApprovals without a home = %v, want ErrNoHome", err)
			}
		}
	}
	home := t.TempDir()
	writeAt := filepath.Join(home, ".agentty", ApprovalsFileName)
	if err := UpdateApprovals(context.Background(), writeAt, addAll(h("u"))); err != nil {
		t.Fatal(err)
	}
	a := LoadUserApprovals(func(k string) string { return map[string]string{"USERPROFILE": home}[k] })
	if a.Err != nil || !a.Approved(h("u")) {
		t.Errorf("LoadUserApprovals via USERPROFILE: %+v", a)
	}
}

func addAll(hashes ...string) func(*ApprovalsEdit) error {
	return func(e *ApprovalsEdit) error {
		for _, x := range hashes {
			if _, err := e.Add(x); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestWriteDumpString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`a"b\c/d`, `"a\"b\\c/d"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x0b\x1b\x1f", `"\u0000\u0001\u000b\u001b\u001f"`},
		{"\x7f", "\"\x7f\""},
		{"café 日本 \u202e \U0001f600", "\"café 日本 \u202e \U0001f600\""},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		writeDumpString(&b, tc.in)
		if b.String() != tc.want {
			t.Errorf("writeDumpString(%q) = %s, want %s", tc.in, b.String(), tc.want)
		}
	}
}

// TestApprovalsLayout checks the bytes agentty itself would write.
func TestApprovalsLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".agentty", ApprovalsFileName)
	ctx := context.Background()
	if err := UpdateApprovals(ctx, path, addAll(h("1"), h("2"))); err != nil {
		t.Fatal(err)
	}
	want := "[\n  \"" + h("1") + "\",\n  \"" + h("2") + "\"\n]"
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Errorf("layout:\n%s\nwant:\n%s", got, want)
	}
	err := UpdateApprovals(ctx, path, func(e *ApprovalsEdit) error {
		e.Remove(h("1"))
		e.Remove(h("2"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "[]" {
		t.Errorf("empty store = %q, want []", got)
	}
}

type approvalsOp struct {
	add    []string
	remove []string
}

func TestApprovalsGolden(t *testing.T) {
	tests := []struct {
		name  string
		input string // file under testdata/approvals, "" for no store
		op    approvalsOp
	}{
		{"new-one", "", approvalsOp{add: []string{h("a")}}},
		{"new-three", "", approvalsOp{add: []string{h("a"), h("b"), h("c")}}},
		{"append-keeps-order", "compact.json", approvalsOp{add: []string{h("a"), h("new")}}},
		{"remove-middle", "compact.json", approvalsOp{remove: []string{h("a")}}},
		{"remove-to-empty", "single.json", approvalsOp{remove: []string{h("a")}}},
		{"non-strings-kept", "non-strings.json", approvalsOp{add: []string{h("new")}}},
		{"escapes", "escapes.json", approvalsOp{add: []string{h("new")}}},
		{"bom", "bom.json", approvalsOp{add: []string{h("new")}}},
		{"duplicates-removed-together", "duplicates.json", approvalsOp{remove: []string{h("a")}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".agentty", ApprovalsFileName)
			if tc.input != "" {
				in, err := os.ReadFile(filepath.Join("testdata", "approvals", tc.input))
				if err != nil {
					t.Fatal(err)
				}
				path = writeStore(t, string(in))
			}
			err := UpdateApprovals(context.Background(), path, func(e *ApprovalsEdit) error {
				for _, x := range tc.op.remove {
					if !e.Remove(x) {
						return fmt.Errorf("remove %s: not present", x)
					}
				}
				return addAll(tc.op.add...)(e)
			})
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "approvals", tc.name+".golden")
			if updateGolden() {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("wrote:\n%s\nwant (%s):\n%s", got, golden, want)
			}
			checkWellFormed(t, got)
		})
	}
}

// checkWellFormed parses what was written with encoding/json, independently
// of the package's own reader, and checks agentty's layout rules.
func checkWellFormed(t *testing.T, data []byte) {
	t.Helper()
	var v []any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("written store is not JSON: %v", err)
	}
	if bytes.HasSuffix(data, []byte("\n")) || (len(v) == 0 && string(data) != "[]") {
		t.Errorf("not agentty's layout: %q", data)
	}
	again, err := parseApprovals("x", data)
	if err != nil {
		t.Fatalf("written store does not parse: %v", err)
	}
	if !bytes.Equal(encodeApprovals(again), data) {
		t.Errorf("encoding is not stable")
	}
}

func TestApprovalsEdit(t *testing.T) {
	ctx := context.Background()
	path := writeStore(t, `[1,"`+h("a")+`",{"k":"`+h("b")+`"},"`+h("a")+`"]`)
	err := UpdateApprovals(ctx, path, func(e *ApprovalsEdit) error {
		if !e.Has(h("a")) || e.Has(h("b")) {
			t.Errorf("Has: non-string entries must not count")
		}
		if added, err := e.Add(h("a")); added || err != nil {
			t.Errorf("Add(present) = %v, %v", added, err)
		}
		for _, bad := range []string{"", "abc", strings.ToUpper(h("c")), h("c") + "0", h("c")[:63] + "g", h("c")[:63] + "\n"} {
			if added, err := e.Add(bad); added || !errors.Is(err, ErrBadHash) {
				t.Errorf("Add(%q) = %v, %v; want ErrBadHash", bad, added, err)
			}
		}
		if e.Remove(h("zzz")) {
			t.Error("Remove(absent) = true")
		}
		if !e.Remove(h("a")) {
			t.Error("Remove(present) = false")
		}
		if got := e.Hashes(); len(got) != 0 {
			t.Errorf("Hashes() after removing both copies = %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "[\n  1,\n  {\n    \"k\": \"" + h("b") + "\"\n  }\n]"
	if string(got) != want {
		t.Errorf("after removal:\n%s\nwant:\n%s", got, want)
	}
}

// TestApprovalsEditLookupAgreesWithList: Has, Add and Remove, in any
// order (Remove before the first Has too), answer what a scan of the
// entries answers; the store keeps non-string entries that look like hashes.
func TestApprovalsEditLookupAgreesWithList(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 4))
	hashes := []string{h("a"), h("b"), h("c"), h("d")}
	for round := 0; round < 200; round++ {
		e := &ApprovalsEdit{entries: []approvalEntry{{str: hashes[0]}, {value: &jsonValue{Kind: jsonString, Str: hashes[1]}}, {str: hashes[0]}}}
		for step := 0; step < 12; step++ {
			x := hashes[r.IntN(len(hashes))]
			scan := false
			for _, en := range e.entries {
				if en.value == nil && en.str == x {
					scan = true
				}
			}
			switch r.IntN(3) {
			case 0:
				if got := e.Has(x); got != scan {
					t.Fatalf("round %d step %d: Has(%.6s) = %v, the entries say %v", round, step, x, got, scan)
				}
			case 1:
				if added, err := e.Add(x); err != nil || added == scan {
					t.Fatalf("round %d step %d: Add(%.6s) = %v, %v with present=%v", round, step, x, added, err, scan)
				}
			case 2:
				if removed := e.Remove(x); removed != scan {
					t.Fatalf("round %d step %d: Remove(%.6s) = %v, the entries say %v", round, step, x, removed, scan)
				}
			}
		}
	}
}

// TestApprovalsNoChangeNoWrite: a no-op leaves the file alone, even when it
// is not in agentty's layout, and creates nothing when there is no store.
func TestApprovalsNoChangeNoWrite(t *testing.T) {
	ctx := context.Background()
	content := `["` + h("a") + `"]` + "\n"
	path := writeStore(t, content)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]func(*ApprovalsEdit) error{
		"add present":    addAll(h("a")),
		"remove absent":  func(e *ApprovalsEdit) error { e.Remove(h("b")); return nil },
		"nothing":        func(*ApprovalsEdit) error { return nil },
		"error from fn":  func(e *ApprovalsEdit) error { e.Add(h("c")); return errors.New("changed my mind") },
		"invalid hash":   addAll(h("d"), "NOT-A-HASH"),
		"add and remove": func(e *ApprovalsEdit) error { e.Add(h("e")); e.Remove(h("e")); return nil },
	}
	for name, fn := range ops {
		err := UpdateApprovals(ctx, path, fn)
		if (name == "error from fn" || name == "invalid hash") != (err != nil) {
			t.Errorf("%s: err = %v", name, err)
		}
		assertUntouched(t, path, content, old)
		if now, err := os.Stat(path); err != nil || !os.SameFile(now, before) {
			t.Errorf("%s: the file was replaced", name)
		}
	}
	fresh := filepath.Join(t.TempDir(), ".agentty", ApprovalsFileName)
	if err := UpdateApprovals(ctx, fresh, func(*ApprovalsEdit) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a no-op created the store: %v", err)
	}
}

func assertUntouched(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != content {
		t.Errorf("%s was rewritten:\n%q\nwas:\n%q", path, got, content)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(mtime) {
		t.Errorf("%s: mtime changed from %v to %v", path, mtime, fi.ModTime())
	}
	checkNoTemps(t, filepath.Dir(path))
}

func checkNoTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestCorruptStoreNeverRewritten: whatever mcp-guard cannot read exactly as
// agentty does is refused, byte for byte untouched, and fn never runs.
func TestCorruptStoreNeverRewritten(t *testing.T) {
	corrupt := map[string]string{
		"empty":          "",
		"object":         `{"` + h("a") + `": true}`,
		"string":         `"` + h("a") + `"`,
		"trailing junk":  `["` + h("a") + `"]x`,
		"two arrays":     `["` + h("a") + `"]` + "\n" + `["` + h("b") + `"]`,
		"truncated":      "[\n  \"" + h("a") + "\",\n  \"" + h("b")[:7],
		"invalid UTF-8":  "[\"" + h("a") + "\", \"caf\xe9\"]",
		"comment":        "[ /* mine */ \"" + h("a") + "\"]",
		"trailing comma": `["` + h("a") + `",]`,
		"NUL byte":       "[\"" + h("a") + "\"]\x00",
	}
	for name, content := range corrupt {
		t.Run(name, func(t *testing.T) {
			path := writeStore(t, content)
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			called := false
			err := UpdateApprovals(context.Background(), path, func(e *ApprovalsEdit) error {
				called = true
				_, err := e.Add(h("new"))
				return err
			})
			var ae *ApprovalsError
			if !errors.Is(err, ErrApprovalsInvalid) || !errors.As(err, &ae) || ae.Path != path {
				t.Fatalf("err = %v, want an *ApprovalsError for %s", err, path)
			}
			if !strings.Contains(err.Error(), "repair it") || !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("the error does not name the file and the fix: %v", err)
			}
			if called {
				t.Error("fn ran on a store that cannot be read")
			}
			assertUntouched(t, path, content, old)
		})
	}
}

func TestStoreThatIsNotAFileRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks and FIFOs")
	}
	cases := map[string]func(t *testing.T, path string){
		"directory": func(t *testing.T, path string) { mustDo(t, os.Mkdir(path, 0o700)) },
		"FIFO":      mkfifo,
		"symlink to a directory": func(t *testing.T, path string) {
			mustDo(t, os.Symlink(t.TempDir(), path))
		},
		"dangling symlink": func(t *testing.T, path string) {
			mustDo(t, os.Symlink(filepath.Join(t.TempDir(), "nowhere"), path))
		},
		"symlink loop": func(t *testing.T, path string) { mustDo(t, os.Symlink(path, path)) },
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".agentty")
			mustDo(t, os.Mkdir(dir, 0o700))
			path := filepath.Join(dir, ApprovalsFileName)
			mk(t, path)
			before, _ := os.Lstat(path)
			done := make(chan error, 1)
			go func() { done <- UpdateApprovals(context.Background(), path, addAll(h("x"))) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("UpdateApprovals blocked")
			}
			if !errors.Is(err, ErrApprovalsInvalid) || !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("err = %v, want an *ApprovalsError naming the file", err)
			}
			after, lerr := os.Lstat(path)
			if lerr != nil || after.Mode() != before.Mode() || !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("the path was changed: %v", lerr)
			}
			checkNoTemps(t, dir)
		})
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if out, err := exec.Command("mkfifo", path).CombinedOutput(); err != nil {
		t.Skipf("cannot make a FIFO: %v %s", err, out)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestSymlinkedStoreUpdatedAtTarget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	dotfiles := t.TempDir()
	target := filepath.Join(dotfiles, "approvals.json")
	mustDo(t, os.WriteFile(target, []byte(`["`+h("a")+`"]`), 0o640))
	dir := filepath.Join(t.TempDir(), ".agentty")
	mustDo(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, ApprovalsFileName)
	mustDo(t, os.Symlink(target, path))

	mustDo(t, UpdateApprovals(context.Background(), path, addAll(h("b"))))
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v", err)
	}
	got, _ := os.ReadFile(target)
	if want := "[\n  \"" + h("a") + "\",\n  \"" + h("b") + "\"\n]"; string(got) != want {
		t.Errorf("target = %q", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode = %v, want 0640 kept", fi.Mode().Perm())
	}
	checkNoTemps(t, dotfiles)
}

func TestApprovalsPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	home := t.TempDir()
	dir := filepath.Join(home, ".agentty")
	path := filepath.Join(dir, ApprovalsFileName)
	mustDo(t, UpdateApprovals(context.Background(), path, addAll(h("a"))))
	for p, want := range map[string]fs.FileMode{dir: 0o700, path: 0o600, path + ".lock": 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
	}

	// An existing file keeps its mode; an existing directory is left alone.
	mustDo(t, os.Chmod(path, 0o644))
	mustDo(t, os.Chmod(dir, 0o755))
	mustDo(t, UpdateApprovals(context.Background(), path, addAll(h("b"))))
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("existing mode not kept: %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o755 {
		t.Errorf("existing directory mode changed: %v", fi.Mode().Perm())
	}

	// A read-only store is the user's decision: agentty could not save
	// either, so it is left alone.
	mustDo(t, os.Chmod(path, 0o444))
	content, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	err := UpdateApprovals(context.Background(), path, addAll(h("c")))
	if err == nil || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "chmod u+w") {
		t.Errorf("read-only store: err = %v", err)
	}
	assertUntouched(t, path, string(content), fi.ModTime())

	// No home directory at all: nothing is created above it.
	missing := filepath.Join(home, "no-such-home", ".agentty", ApprovalsFileName)
	err = UpdateApprovals(context.Background(), missing, addAll(h("a")))
	if err == nil || !strings.Contains(err.Error(), "cannot create the directory") {
		t.Errorf("missing home: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "no-such-home")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the home directory was created")
	}
}

// TestReadOnlyDirectory: when the directory cannot be written the update
// fails with a clear error and the old store is intact. Permissions do not
// bind root, so as root the update runs in a child process as nobody.
func TestReadOnlyDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	for _, withLock := range []bool{false, true} {
		t.Run(fmt.Sprintf("lock file exists %v", withLock), func(t *testing.T) {
			base := mkdirWorldReadable(t)
			dir := filepath.Join(base, "home", ".agentty")
			mustDo(t, os.MkdirAll(dir, 0o700))
			path := filepath.Join(dir, ApprovalsFileName)
			content := "[\n  \"" + h("old") + "\"\n]"
			mustDo(t, os.WriteFile(path, []byte(content), 0o600))
			owned := []string{filepath.Join(base, "home"), dir, path}
			if withLock {
				mustDo(t, os.WriteFile(path+".lock", nil, 0o600))
				owned = append(owned, path+".lock")
			}
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			mustDo(t, os.Chtimes(path, old, old))
			t.Cleanup(func() { os.Chmod(dir, 0o700) })

			var msg string
			if os.Geteuid() == 0 {
				setpriv, err := exec.LookPath("setpriv")
				if err != nil {
					t.Skip("running as root without setpriv to drop privileges")
				}
				const nobody = 65534
				for _, p := range owned {
					mustDo(t, os.Chown(p, nobody, nobody))
				}
				mustDo(t, os.Chmod(dir, 0o500))
				bin := filepath.Join(base, "trust.test")
				copyFile(t, os.Args[0], bin, 0o755)
				cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin,
					"-test.run=^TestApprovalsHelperProcess$", "-test.count=1")
				cmd.Env = append(os.Environ(), helperEnv+"=update", "HELPER_PATH="+path, "HELPER_HASH="+h("new"))
				out, err := cmd.CombinedOutput()
				if err == nil {
					t.Fatalf("the update succeeded in a read-only directory:\n%s", out)
				}
				msg = string(out)
			} else {
				mustDo(t, os.Chmod(dir, 0o500))
				err := UpdateApprovals(context.Background(), path, addAll(h("new")))
				if err == nil {
					t.Fatal("the update succeeded in a read-only directory")
				}
				msg = err.Error()
			}
			t.Logf("error: %s", msg)
			if !strings.Contains(msg, "permission denied") || !strings.Contains(msg, "writable") {
				t.Errorf("unclear error:\n%s", msg)
			}
			assertUntouched(t, path, content, old)
		})
	}
}

// mkdirWorldReadable returns a fresh directory that other users can enter.
func mkdirWorldReadable(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "approvals-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o700)
			}
			return nil
		})
		os.RemoveAll(base)
	})
	mustDo(t, os.Chmod(base, 0o755))
	return base
}

func copyFile(t *testing.T, from, to string, mode fs.FileMode) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, os.WriteFile(to, data, mode))
}

func TestLockTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".agentty", ApprovalsFileName)
	mustDo(t, UpdateApprovals(context.Background(), path, addAll(h("a"))))
	content, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)

	holder := flock.New(path + ".lock")
	if ok, err := holder.TryLock(); !ok || err != nil {
		t.Fatalf("cannot take the lock: %v", err)
	}
	defer holder.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := UpdateApprovals(ctx, path, addAll(h("b")))
	if !errors.Is(err, ErrLockTimeout) || !strings.Contains(err.Error(), path+".lock") {
		t.Errorf("err = %v, want ErrLockTimeout naming the lock file", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %v", d)
	}
	assertUntouched(t, path, string(content), fi.ModTime())

	holder.Unlock()
	mustDo(t, UpdateApprovals(context.Background(), path, addAll(h("b"))))
}

// TestConcurrentWriterWithoutLock: agentty saves without the lock; a save
// that lands while fn runs is not overwritten, the update starts again on
// top of it.
func TestConcurrentWriterWithoutLock(t *testing.T) {
	path := writeStore(t, `["`+h("a")+`"]`)
	calls := 0
	err := UpdateApprovals(context.Background(), path, func(e *ApprovalsEdit) error {
		calls++
		if calls == 1 { // agentty saves its own approval now
			mustDo(t, os.WriteFile(path, []byte("[\n  \""+h("a")+"\",\n  \""+h("agentty")+"\"\n]"), 0o600))
		}
		_, err := e.Add(h("mine"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("fn ran %d times, want 2", calls)
	}
	a := LoadApprovals(path)
	if want := []string{h("a"), h("agentty"), h("mine")}; !equalStrings(a.Hashes(), want) {
		t.Errorf("Hashes() = %q, want %q", a.Hashes(), want)
	}
}

const helperEnv = "MCP_GUARD_APPROVALS_HELPER"

// TestApprovalsHelperProcess is not a test: the multi-process tests run the
// test binary again with helperEnv set, and this function does the child's
// work.
func TestApprovalsHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("helper process for the multi-process tests")
	}
	path := os.Getenv("HELPER_PATH")
	ctx := context.Background()
	switch mode {
	case "update":
		if err := UpdateApprovals(ctx, path, addAll(os.Getenv("HELPER_HASH"))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	case "add":
		worker := os.Getenv("HELPER_WORKER")
		rounds, _ := strconv.Atoi(os.Getenv("HELPER_ROUNDS"))
		for r := range rounds {
			if err := UpdateApprovals(ctx, path, addAll(h(fmt.Sprintf("w%s-r%d", worker, r)))); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
	case "loop": // until killed
		r, _ := strconv.Atoi(os.Getenv("HELPER_START"))
		for ; ; r++ {
			if err := UpdateApprovals(ctx, path, addAll(h(fmt.Sprintf("loop-%d", r)))); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
	}
	os.Exit(0)
}

func helperCmd(env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestApprovalsHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// TestConcurrentProcessesLoseNothing runs 8 OS processes that each add
// distinct hashes, one update per hash, all at once.
func TestConcurrentProcessesLoseNothing(t *testing.T) {
	const workers = 8
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	seed := `[1,"` + h("seed") + `",{"keep":"me"}]`
	path := writeStore(t, seed)

	cmds := make([]*exec.Cmd, workers)
	outs := make([]*bytes.Buffer, workers)
	for w := range workers {
		outs[w] = &bytes.Buffer{}
		cmds[w] = helperCmd(helperEnv+"=add", "HELPER_PATH="+path, "HELPER_WORKER="+strconv.Itoa(w), "HELPER_ROUNDS="+strconv.Itoa(rounds))
		cmds[w].Stdout, cmds[w].Stderr = outs[w], outs[w]
	}
	start := time.Now()
	for _, c := range cmds {
		mustDo(t, c.Start())
	}
	for w, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("worker %d: %v\n%s", w, err, outs[w])
		}
	}
	t.Logf("%d processes x %d updates in %v", workers, rounds, time.Since(start))

	data, _ := os.ReadFile(path)
	entries, err := parseApprovals(path, data)
	if err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, data)
	if len(entries) != 3+workers*rounds {
		t.Errorf("%d entries, want %d", len(entries), 3+workers*rounds)
	}
	if entries[0].value == nil || entries[1].str != h("seed") || entries[2].value == nil {
		t.Errorf("the original entries moved or changed: %s", data[:min(len(data), 200)])
	}
	pos := map[string]int{}
	for i, e := range entries {
		if e.value == nil {
			if _, dup := pos[e.str]; dup {
				t.Errorf("duplicate %s", e.str)
			}
			pos[e.str] = i
		}
	}
	for w := range workers {
		last := -1
		for r := range rounds {
			i, ok := pos[h(fmt.Sprintf("w%d-r%d", w, r))]
			if !ok {
				t.Errorf("worker %d round %d: lost", w, r)
				continue
			}
			if i < last {
				t.Errorf("worker %d round %d: out of order", w, r)
			}
			last = i
		}
	}
	checkNoTemps(t, filepath.Dir(path))
}

// TestKilledWriterLeavesOldOrNew kills a writing process with SIGKILL at
// random moments: the store is always the old or the new content, never a
// mix, never empty, and no approval ever disappears.
func TestKilledWriterLeavesOldOrNew(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	kills := 25
	if testing.Short() {
		kills = 4
	}
	// A store of a realistic large size makes each write take long enough
	// for kills to land in the middle of it.
	const seeds = 5000
	var seed strings.Builder
	seed.WriteString("[")
	for i := range seeds {
		if i > 0 {
			seed.WriteString(",")
		}
		seed.WriteString(`"` + h(fmt.Sprintf("seed-%d", i)) + `"`)
	}
	seed.WriteString("]")
	path := writeStore(t, seed.String())
	seen := seeds
	for k := range kills {
		cmd := helperCmd(helperEnv+"=loop", "HELPER_PATH="+path, "HELPER_START="+strconv.Itoa(seen-seeds))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		mustDo(t, cmd.Start())
		time.Sleep(time.Duration(20+rand.IntN(60)) * time.Millisecond)
		mustDo(t, cmd.Process.Kill())
		cmd.Wait()
		if bytes.Contains(out.Bytes(), []byte("FAIL")) {
			t.Fatalf("kill %d: helper failed:\n%s", k, out.Bytes())
		}
		a := LoadApprovals(path)
		if a.Err != nil {
			t.Fatalf("kill %d: store broken: %v", k, a.Err)
		}
		got := a.Hashes()
		if len(got) < seen {
			t.Fatalf("kill %d: %d entries after %d before", k, len(got), seen)
		}
		// Each run continues where the last one's store ends, so the
		// entries are exactly the seeds, then loop-0, loop-1, ...
		for i, x := range got {
			want := h(fmt.Sprintf("seed-%d", i))
			if i >= seeds {
				want = h(fmt.Sprintf("loop-%d", i-seeds))
			}
			if x != want {
				t.Fatalf("kill %d: entry %d is not what was written", k, i)
			}
		}
		seen = len(got)
	}
	t.Logf("%d kills, %d entries kept", kills, seen)
	// Temporaries left by a killed writer are cleaned by the next update.
	mustDo(t, UpdateApprovals(context.Background(), path, addAll(h("after"))))
	checkNoTemps(t, filepath.Dir(path))
}

// FuzzApprovalsRoundTrip: whatever parses is written in a form that parses
// to the same entries and is stable under rewriting.
func FuzzApprovalsRoundTrip(f *testing.F) {
	for _, s := range []string{
		`[]`, `["a","b"]`, `[1,"x",{"k":[true,null,{}]},[]]`, "\ufeff[\"\\u0000\"]", `{"a":1}`,
		`["\"\\\/\b\f\n\r\t\u001f\u007f é"]`, `[-0.0, 1E5, 1e-5, 123456789012345678901234567890]`,
		`[{"dup":1,"dup":2}]`, `["a"] x`,
	} {
		f.Add([]byte(s))
	}
	ents, _ := os.ReadDir(filepath.Join("testdata", "approvals"))
	for _, e := range ents {
		if data, err := os.ReadFile(filepath.Join("testdata", "approvals", e.Name())); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseApprovals("x", data)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.value != nil && nestingDepth(e.value) > maxRewriteDepth {
				return // never rewritten (updateLocked refuses)
			}
		}
		out := encodeApprovals(entries)
		again, err := parseApprovals("x", out)
		if err != nil {
			t.Fatalf("encoded store does not parse: %v\n%q", err, out)
		}
		if len(again) != len(entries) {
			t.Fatalf("%d entries became %d", len(entries), len(again))
		}
		for i := range entries {
			if (entries[i].value == nil) != (again[i].value == nil) || entries[i].str != again[i].str {
				t.Fatalf("entry %d changed", i)
			}
		}
		if !bytes.Equal(encodeApprovals(again), out) {
			t.Fatalf("encoding is not stable:\n%q\n%q", out, encodeApprovals(again))
		}
		if !json.Valid(out) {
			t.Fatalf("encoding/json rejects %q", out)
		}
	})
}

// TestUpdatesLeaveOneLockFileEach: after any number of writes the stores'
// directories hold the stores, audit.jsonl and one empty lock file per
// store (path + ".lock"), never replaced: a process waiting on it and one
// arriving later must lock the same file, so it is kept rather than
// removed after use (issue 14: the .lock files users find are these).
func TestUpdatesLeaveOneLockFileEach(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	store := filepath.Join(home, ".agentty", ApprovalsFileName)
	ledger := filepath.Join(home, ".agentty", "mcp-guard")
	var first os.FileInfo
	for i := range 3 {
		mustDo(t, UpdateApprovals(ctx, store, func(e *ApprovalsEdit) error {
			_, err := e.Add(h(fmt.Sprint("s", i)))
			return err
		}))
		mustDo(t, UpdateLedger(ctx, ledger, func(e *LedgerEdit) error {
			return e.Record(testReview("r", "c", fmt.Sprint("s", i), DecisionApproved, h(fmt.Sprint("d", i))))
		}))
		fi, err := os.Stat(store + ".lock")
		mustDo(t, err)
		if first == nil {
			first = fi
		} else if !os.SameFile(first, fi) {
			t.Errorf("write %d: the lock file was replaced", i)
		}
		if fi.Size() != 0 || fi.Mode().Perm() != 0o600 {
			t.Errorf("lock file: %d bytes, mode %v", fi.Size(), fi.Mode().Perm())
		}
	}
	for dir, want := range map[string]string{
		filepath.Dir(store): "mcp-guard mcp_approvals.json mcp_approvals.json.lock",
		ledger:              "audit.jsonl reviews.json reviews.json.lock",
	} {
		ents, err := os.ReadDir(dir)
		mustDo(t, err)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%s holds %q, want %q", dir, got, want)
		}
	}
}

// TestApprovalsEditRemoveAll: one pass removes every string entry equal
// to one of the hashes (both copies of a duplicate), keeps the others and
// the non-string entries in order, says which were there, and Has agrees.
func TestApprovalsEditRemoveAll(t *testing.T) {
	ctx := context.Background()
	path := writeStore(t, `[1,"`+h("a")+`",{"k":"`+h("b")+`"},"`+h("c")+`","`+h("a")+`","`+h("d")+`"]`)
	err := UpdateApprovals(ctx, path, func(e *ApprovalsEdit) error {
		if !e.Has(h("a")) {
			t.Error("Has(a) before = false")
		}
		got := e.RemoveAll([]string{h("a"), h("b"), h("d")})
		if !got[h("a")] || got[h("b")] || !got[h("d")] || len(got) != 3 {
			t.Errorf("removed %v", got)
		}
		if e.Has(h("a")) || e.Has(h("d")) || !e.Has(h("c")) {
			t.Error("Has disagrees with what RemoveAll did")
		}
		if hs := e.Hashes(); len(hs) != 1 || hs[0] != h("c") {
			t.Errorf("Hashes() = %q", hs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Contains(data, []byte(`"k"`)) || bytes.Count(data, []byte(h("c"))) != 1 {
		t.Errorf("written store %s, %v", data, err)
	}
}
