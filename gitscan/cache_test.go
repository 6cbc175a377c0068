package gitscan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSurfaceCacheIsUntrusted: a damaged, truncated or inconsistent cache
// file is ignored (the answer is recomputed), never believed.
func TestSurfaceCacheIsUntrusted(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	cachePath := filepath.Join(dir, ".git", "mcp-guard", cacheFileName)
	truth := func(e Engine) []string {
		r := openT(t, dir, env, e, WithoutCache())
		s, sk, err := r.Surfaces(resolveT(t, r, "HEAD"))
		if err != nil {
			t.Fatal(err)
		}
		return surfaceStrings(s, sk)
	}
	want := truth(EngineWithGit)
	r := openT(t, dir, env, EngineWithGit)
	if _, _, err := r.Surfaces(resolveT(t, r, "HEAD")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cachePath); err == nil {
		t.Fatal("the cache is written before Close")
	}
	r.Close()
	good, err := os.ReadFile(cachePath)
	if err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	var cf cacheFile
	if err := json.Unmarshal(good, &cf); err != nil || len(cf.Entries) != 1 {
		t.Fatalf("cache file: %v %+v", err, cf)
	}
	// A forged entry that hides the config: wrong checksum.
	forged := cf
	forged.Entries = []cacheEntry{{Tree: cf.Entries[0].Tree, Surfaces: []cacheSurface{}, Skipped: []string{}}}
	noSum, _ := json.Marshal(forged)
	// An entry with a consistent checksum but a path that is no surface.
	bad := cf
	bad.Entries = []cacheEntry{{Tree: cf.Entries[0].Tree, Surfaces: []cacheSurface{{Path: "README", Mode: ModeRegular, ID: strings.Repeat("a", 40)}}, Skipped: []string{}}}
	bad.Sum = entriesSum(bad.Entries, nil)
	badKind, _ := json.Marshal(bad)
	// A consistent file written under other surface declarations (an
	// older mcp-guard, another client set): its entry lists no surface.
	other := forged
	other.Sum = entriesSum(other.Entries, nil)
	other.Taxonomy = "0123456789abcdef"
	otherTaxonomy, _ := json.Marshal(other)
	for name, content := range map[string][]byte{
		"taxonomy":  otherTaxonomy,
		"garbage":   []byte("\x00\x01garbage"),
		"truncated": good[:len(good)/2],
		"checksum":  noSum,
		"kind":      badKind,
		"empty":     nil,
	} {
		if err := os.WriteFile(cachePath, content, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, e := range engines {
			r := openT(t, dir, env, e)
			s, sk, err := r.Surfaces(resolveT(t, r, "HEAD"))
			if err != nil {
				t.Fatalf("%s/%v: %v", name, e, err)
			}
			if g := surfaceStrings(s, sk); strings.Join(g, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s/%v: surfaces with a bad cache:\n%s", name, e, diffLines(want, g))
			}
		}
	}
	// A directory where the file should be: ignored, no crash.
	os.Remove(cachePath)
	os.MkdirAll(cachePath, 0o755)
	r = openT(t, dir, env, EngineInProcess)
	if s, _, err := r.Surfaces(resolveT(t, r, "HEAD")); err != nil || len(s) != len(want) {
		t.Errorf("cache path is a directory: %v %v", s, err)
	}
}

func FuzzSurfaceCacheLoad(f *testing.F) {
	f.Add([]byte(`{"version":2,"format":"sha1","entries":[],"sum":""}`))
	f.Add([]byte(`{"version":2,"format":"sha1","entries":[{"tree":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","surfaces":[],"skipped":[],"deps":{"k":["a","b"]}}],"sum":""}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "mcp-guard"), 0o755)
		os.WriteFile(filepath.Join(dir, "mcp-guard", cacheFileName), data, 0o644)
		c := openSurfaceCache(dir, formatSHA1)
		for _, e := range c.entries {
			if !c.valid(e) {
				t.Fatalf("invalid entry accepted: %+v", e)
			}
		}
	})
}
