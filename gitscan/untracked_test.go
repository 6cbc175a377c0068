package gitscan

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// TestWalkedListingIsGits: the snapshot's listing of the work tree (the
// index's paths plus git's answer for what the index does not account
// for) is exactly `git ls-files -c -o --exclude-standard`, on random trees
// with nested .gitignore files and negations, info/exclude,
// core.excludesFile, ignored and untracked directories, tracked files
// that the rules ignore, a file replaced by a directory and the reverse,
// a nested repository, a gitlink, symlinks, a `.git` file below the top,
// FIFOs and odd names; in an ordinary, a split and a sparse index.
func TestWalkedListingIsGits(t *testing.T) {
	needGit(t)
	for seed := int64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			env := testEnv(t)
			home := strings.TrimPrefix(env[1], "HOME=")
			dir := gitInit(t, env)
			rnd := rand.New(rand.NewSource(seed))
			dirs := []string{"", "a", "a/b", "a/b/c", "node_modules", "build", "src", "src/x y", "d.git"}
			names := []string{"f.js", "g.py", "h.txt", ".env", "x.log", "keep.log", "a b.js", "ü.md", "-dash", "build"}
			pick := func(s []string) string { return s[rnd.Intn(len(s))] }
			path := func() string { return strings.TrimPrefix(pick(dirs)+"/"+pick(names), "/") }
			var tracked []string
			for i := 0; i < 40; i++ {
				p := path()
				if fi, err := os.Stat(filepath.Join(dir, p)); err == nil && fi.IsDir() {
					continue
				}
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
					continue // a file where a directory would go
				}
				writeFile(t, dir, p, p)
				tracked = append(tracked, p)
			}
			rules := []string{"*.log", "!keep.log", "node_modules/", "build", "/a/b/", "!a/b/c/", "*.txt", "!h.txt", ".env", "c/", "x y/"}
			for _, d := range dirs {
				if rnd.Intn(2) == 0 {
					var ps []string
					for k := rnd.Intn(4); k >= 0; k-- {
						ps = append(ps, pick(rules))
					}
					if fi, err := os.Stat(filepath.Join(dir, d)); err == nil && fi.IsDir() {
						writeFile(t, dir, filepath.Join(d, ".gitignore"), strings.Join(ps, "\n")+"\n")
					}
				}
			}
			writeFile(t, dir, ".git/info/exclude", pick(rules)+"\n")
			writeFile(t, home, ".config/git/ignore", pick(rules)+"\n")
			if rnd.Intn(2) == 0 {
				writeFile(t, home, "excludes", pick(rules)+"\n")
				run(t, env, dir, nil, "config", "--global", "core.excludesFile", filepath.Join(home, "excludes"))
			}
			run(t, env, dir, nil, "add", "-f", "--", ".")
			run(t, env, dir, nil, "commit", "-q", "-m", "x", "--allow-empty")
			// Untracked things, some of them ignored.
			for i := 0; i < 15; i++ {
				p := path()
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
					continue
				}
				if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
					continue
				}
				switch rnd.Intn(5) {
				case 0:
					os.Symlink("f.js", filepath.Join(dir, p))
				case 1:
					os.MkdirAll(filepath.Join(dir, p), 0o755) // an empty directory
				default:
					writeFile(t, dir, p, "u")
				}
			}
			if len(tracked) > 0 && rnd.Intn(2) == 0 {
				// A tracked file replaced by a directory with a file in it.
				p := tracked[rnd.Intn(len(tracked))]
				os.Remove(filepath.Join(dir, p))
				writeFile(t, dir, p+"/inner.js", "i")
			}
			if rnd.Intn(2) == 0 {
				// A tracked directory replaced by a file.
				os.RemoveAll(filepath.Join(dir, "src"))
				writeFile(t, dir, "src", "now a file")
			}
			if rnd.Intn(2) == 0 {
				nested := filepath.Join(dir, "nested")
				run(t, env, dir, nil, "init", "-q", nested)
				writeFile(t, nested, "n.js", "n")
			}
			if rnd.Intn(2) == 0 {
				writeFile(t, dir, "a/.git", "gitdir: /nowhere\n")
			}
			if rnd.Intn(2) == 0 {
				// A gitlink whose directory holds files: git lists the
				// entry, never what is inside.
				writeFile(t, dir, "sub/inside.js", "s")
				run(t, env, dir, nil, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("ab", 20)+",sub")
			}
			if rnd.Intn(3) == 0 {
				os.MkdirAll(filepath.Join(dir, "a"), 0o755)
				syscall.Mkfifo(filepath.Join(dir, "a", "fifo"), 0o644)
			}
			switch seed % 4 {
			case 1:
				// A split index: gitscan's decoder refuses it, git lists
				// the entries.
				run(t, env, dir, nil, "update-index", "--split-index")
			case 2:
				// A sparse index: directories outside the cone are one
				// entry each, their files absent from the work tree.
				run(t, env, dir, nil, "sparse-checkout", "set", "--cone", "--sparse-index", "a")
			}
			want := strings.Split(strings.TrimSuffix(run(t, env, dir, nil, "ls-files", "-z", "-c", "-o", "--exclude-standard"), "\x00"), "\x00")
			sort.Strings(want)
			want = dedupSorted(want)
			if len(want) == 1 && want[0] == "" {
				want = nil
			}
			r := openT(t, dir, env, EngineWithGit, WithWorktreeSnapshot())
			got, ok, err := r.worktreePathsWalked()
			if err != nil || !ok {
				t.Fatalf("walked listing: ok %v, %v", ok, err)
			}
			if d := diffLines(want, got); d != "" || !slices.Equal(want, got) {
				t.Errorf("the walked listing is not git's (-git +walked):\n%s", d)
			}
		})
	}
}
