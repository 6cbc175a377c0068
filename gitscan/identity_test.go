package gitscan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestIdentityCache: the roots of a HEAD are remembered in the surface
// cache file, so the launch gate does not walk the whole history on every
// start; both engines give git's answer first and the remembered answer
// after; a damaged file is not believed, and a shallow repository (where
// deepening changes the roots) never uses the cache.
func TestIdentityCache(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	writeFile(t, dir, "a", "a")
	run(t, env, dir, nil, "add", "a")
	run(t, env, dir, nil, "commit", "-q", "-m", "first root")
	run(t, env, dir, nil, "checkout", "-q", "--orphan", "other")
	writeFile(t, dir, "b", "b")
	run(t, env, dir, nil, "add", "b")
	run(t, env, dir, nil, "commit", "-q", "-m", "second root")
	run(t, env, dir, nil, "checkout", "-q", "main")
	run(t, env, dir, nil, "merge", "-q", "--allow-unrelated-histories", "-m", "join", "other")
	for i := range 3 {
		writeFile(t, dir, "a", strings.Repeat("x", i+2))
		run(t, env, dir, nil, "commit", "-q", "-am", "more")
	}
	want := strings.Fields(run(t, env, dir, nil, "rev-list", "--max-parents=0", "HEAD"))
	sort.Strings(want)
	if len(want) != 2 {
		t.Fatalf("roots %v", want)
	}
	cachePath := filepath.Join(dir, ".git", "mcp-guard", cacheFileName)
	identity := func(e Engine, d string) []string {
		t.Helper()
		r := openT(t, d, env, e)
		ids, err := r.Identity()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		return ids
	}
	for _, e := range engines {
		os.RemoveAll(filepath.Dir(cachePath))
		if got := identity(e, dir); !slices.Equal(got, want) {
			t.Fatalf("%v: roots %v, want %v", e, got, want)
		}
		// Remembered, under HEAD's id.
		var cf cacheFile
		b, err := os.ReadFile(cachePath)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &cf); err != nil {
			t.Fatal(err)
		}
		head := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "HEAD"))
		if len(cf.Roots) != 1 || cf.Roots[0].Commit != head || !slices.Equal(cf.Roots[0].Roots, want) {
			t.Fatalf("%v: cached roots %+v", e, cf.Roots)
		}
		// Used: a planted answer (with a matching checksum) comes back,
		// so no walk happened.
		planted := []string{strings.Repeat("1", 40)}
		cf.Roots[0].Roots = planted
		cf.Sum = entriesSum(cf.Entries, cf.Roots)
		b, _ = json.Marshal(cf)
		os.WriteFile(cachePath, b, 0o644)
		if got := identity(e, dir); !slices.Equal(got, planted) {
			t.Fatalf("%v: the remembered roots were not used: %v", e, got)
		}
		// Not believed when the checksum does not match.
		cf.Sum = strings.Repeat("0", 64)
		b, _ = json.Marshal(cf)
		os.WriteFile(cachePath, b, 0o644)
		if got := identity(e, dir); !slices.Equal(got, want) {
			t.Fatalf("%v: roots %v from a damaged cache, want %v", e, got, want)
		}
		// A new HEAD is walked again and remembered next to the old one.
		writeFile(t, dir, "a", "new head "+e.String())
		run(t, env, dir, nil, "commit", "-q", "-am", "new head")
		if got := identity(e, dir); !slices.Equal(got, want) {
			t.Fatalf("%v: roots %v after a commit", e, got)
		}
		b, _ = os.ReadFile(cachePath)
		json.Unmarshal(b, &cf)
		if len(cf.Roots) != 2 {
			t.Errorf("%v: %d HEADs remembered, want 2", e, len(cf.Roots))
		}
	}

	// Shallow: the boundary is a root today and will not be after a
	// deepening; nothing is remembered, and a planted entry is ignored.
	shallow := filepath.Join(t.TempDir(), "shallow")
	run(t, env, "", nil, "clone", "-q", "--depth=2", "file://"+dir, shallow)
	wantShallow := strings.Fields(run(t, env, shallow, nil, "rev-list", "--max-parents=0", "HEAD"))
	sort.Strings(wantShallow)
	for _, e := range engines {
		scache := filepath.Join(shallow, ".git", "mcp-guard", cacheFileName)
		os.RemoveAll(filepath.Dir(scache))
		if got := identity(e, shallow); !slices.Equal(got, wantShallow) {
			t.Fatalf("%v: shallow roots %v, want %v", e, got, wantShallow)
		}
		if b, err := os.ReadFile(scache); err == nil && strings.Contains(string(b), `"roots"`) {
			t.Errorf("%v: roots remembered in a shallow repository", e)
		}
		head := strings.TrimSpace(run(t, env, shallow, nil, "rev-parse", "HEAD"))
		cf := cacheFile{Version: cacheVersion, Format: "sha1", Entries: []cacheEntry{}, Roots: []rootsEntry{{Commit: head, Roots: []string{strings.Repeat("1", 40)}}}}
		cf.Sum = entriesSum(cf.Entries, cf.Roots)
		b, _ := json.Marshal(cf)
		os.MkdirAll(filepath.Dir(scache), 0o755)
		os.WriteFile(scache, b, 0o644)
		if got := identity(e, shallow); !slices.Equal(got, wantShallow) {
			t.Errorf("%v: a shallow repository used remembered roots: %v", e, got)
		}
	}
}
