package gitscan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestGitConfigAgreesWithGit parses config files as git does: the same
// key/value list as `git config --file F --list -z`, and an error exactly
// where git reports a bad config line.
func TestGitConfigAgreesWithGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := t.TempDir()
	cases := []string{
		"[core]\n\trepositoryformatversion = 0\n\tbare = false\n",
		"[core]\nbare\n[extensions]\n\tobjectFormat = sha256\n\tworktreeConfig\n",
		"[Core]\n  WorkTree = \"../a b\"   # comment\n\thooksPath = ~/hooks ; also a comment\n",
		"[remote \"origin\"]\n\turl = x\n\tpromisor = true\n[remote.Legacy]\n\tpromisor = yes\n",
		"[remote \"we\\\"ird\\\\name\"]\n\tpromisor = on\n",
		"[core]\n\texcludesFile = \"a\\tb\\\\c\\\"d\"\n",
		"[core]\n\tx = one \\\n two\n",
		"[core]\n\tx = \"  keep  \"  \n\ty =   inner   spaces   kept\t\n",
		"[core]\n\tx = a#b\n\ty = \"a#b\"\n",
		"# only a comment\n; another\n\n",
		"[core]\n\tx =\n\ty = \"\"\n",
		"[a.b.c]\n\tk = v\n",
		"[core] bare = true\n",
		// git refuses these
		"[core\n\tx = 1\n",
		"x = 1\n",
		"[core]\n\tx = \"unterminated\n",
		"[core]\n\tx = bad \\q escape\n",
		"[core]\n\t1x = 2\n",
	}
	for i, c := range cases {
		p := filepath.Join(dir, fmt.Sprintf("config%d", i))
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		out, gitErr := tryRun(env, dir, nil, "config", "--file", p, "--list", "-z")
		cfg, err := readGitConfig(p)
		if (gitErr != nil) != (err != nil) {
			t.Errorf("case %d %q: git error %v, gitscan error %v", i, c, gitErr, err)
			continue
		}
		if err != nil {
			continue
		}
		var want []string
		for _, rec := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
			if rec != "" {
				want = append(want, rec)
			}
		}
		var got []string
		for _, e := range cfg.entries {
			name := e.section
			if e.subsection != "" {
				name += "." + e.subsection
			}
			if name != "" {
				name += "."
			}
			name += e.key
			if e.noValue {
				got = append(got, name)
			} else {
				got = append(got, name+"\n"+e.value)
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("case %d %q:\n got %q\nwant %q", i, c, got, want)
		}
	}
}

func FuzzParseGitConfig(f *testing.F) {
	f.Add("[core]\n\tbare = true\n[remote \"o\"]\n\tpromisor\n")
	f.Add("[a]\nx = \"q\\\"\" ; c\ny = a \\\n b\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseGitConfig(s)
		if err != nil {
			return
		}
		for _, e := range c.entries {
			if e.key == "" {
				t.Fatalf("empty key accepted: %+v", e)
			}
		}
	})
}

// TestIgnoreRulesAgreeWithGit: the in-process work tree walk classifies
// files as git does (`git ls-files -o [-i] --exclude-standard`) for the
// gitignore rules people write: negation, anchoring, directory-only
// patterns, **, escapes, trailing spaces, nested files overriding outer
// ones, info/exclude.
func TestIgnoreRulesAgreeWithGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	writeFile(t, dir, ".gitignore", strings.Join([]string{
		"*.log", "!keep.log", "/root-only.txt", "build/", "docs/**/*.tmp", "**/cache", "a/*/c.txt",
		`\#hash.txt`, `\!bang.txt`, "trailing.txt   ", `space\ .txt`, "[abc].md", "?.q", "sub/deep/",
	}, "\n")+"\n")
	writeFile(t, dir, "sub/.gitignore", "!important.log\n*.txt\n!/keep.txt\n")
	writeFile(t, dir, ".git/info/exclude", "excluded-by-info\n")
	files := []string{
		"x.log", "keep.log", "sub/x.log", "sub/important.log", "root-only.txt", "sub/root-only.txt",
		"build/out.o", "x/build/out.o", "build", "docs/a/b.tmp", "docs/b.tmp", "docs/a/b.md", "cache/x", "p/q/cache/y",
		"a/b/c.txt", "a/b/d/c.txt", "#hash.txt", "!bang.txt", "trailing.txt", "space .txt", "a.md", "d.md", "z.q", "zz.q",
		"sub/keep.txt", "sub/other.txt", "sub/deep/x", "excluded-by-info", "plain.go",
	}
	for _, f := range files {
		if f == "build" {
			continue // a directory of that name exists in x/build
		}
		writeFile(t, dir, f, "x")
	}
	paths, ignored, err := walkWorktree(dir, filepath.Join(dir, ".git"), nil, env, true)
	if err != nil {
		t.Fatal(err)
	}
	shown := func(args ...string) []string {
		out := run(t, env, dir, nil, append([]string{"ls-files", "-z"}, args...)...)
		var ps []string
		for _, p := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
			if p != "" {
				ps = append(ps, p)
			}
		}
		sort.Strings(ps)
		return ps
	}
	sort.Strings(paths)
	if want := shown("-o", "--exclude-standard"); strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Errorf("untracked, not ignored:\n%s", diffLines(want, paths))
	}
	// The walk reports only ignored surfaces; compare the full ignored set
	// by walking with every file counted as a surface-shaped name.
	var allIgnored []string
	for _, f := range files {
		if f == "build" {
			continue
		}
		if !contains(paths, f) {
			allIgnored = append(allIgnored, f)
		}
	}
	sort.Strings(allIgnored)
	if want := shown("-o", "-i", "--exclude-standard"); strings.Join(allIgnored, "\n") != strings.Join(want, "\n") {
		t.Errorf("ignored:\n%s", diffLines(want, allIgnored))
	}
	if len(ignored) != 0 {
		t.Errorf("ignored surfaces among plain files: %v", ignored)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestDecodeIndexAgreesWithGit: index versions 2, 3 and 4, with
// skip-worktree and intent-to-add entries and a conflict, decode to what
// `git ls-files -s -t` lists; a split index is refused, not half-read.
func TestDecodeIndexAgreesWithGit(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := smallRepo(t, env)
	writeFile(t, dir, "a/very/long/directory/name/for/prefix/compression/one.txt", "1")
	writeFile(t, dir, "a/very/long/directory/name/for/prefix/compression/two.txt", "2")
	run(t, env, dir, nil, "add", ".")
	run(t, env, dir, nil, "commit", "-q", "-m", "more")
	run(t, env, dir, nil, "update-index", "--skip-worktree", "src/server.js")
	writeFile(t, dir, "new.txt", "n")
	run(t, env, dir, nil, "add", "-N", "new.txt")
	// A conflict: stages 1-3 for one path.
	blob := func(s string) string {
		return strings.TrimSpace(run(t, env, dir, []byte(s), "hash-object", "-w", "--stdin"))
	}
	run(t, env, dir, []byte(fmt.Sprintf("0 %s\tconflict.txt\n100644 %s 1\tconflict.txt\n100644 %s 2\tconflict.txt\n100644 %s 3\tconflict.txt\n",
		strings.Repeat("0", 40), blob("base"), blob("ours"), blob("theirs"))), "update-index", "--index-info")
	for _, v := range []string{"2", "3", "4"} {
		run(t, env, dir, nil, "update-index", "--index-version", v)
		entries, err := readIndexFile(filepath.Join(dir, ".git", "index"), formatSHA1)
		if err != nil {
			t.Fatalf("version %s: %v", v, err)
		}
		var got []string
		for k, e := range entries.entries {
			tag := "H"
			if entries.meta[k].skipWorktree {
				tag = "S"
			}
			got = append(got, fmt.Sprintf("%s %s %s %d\t%s", tag, e.Mode, e.ID, entries.meta[k].stage, e.Path))
		}
		want := strings.Split(strings.TrimSpace(run(t, env, dir, nil, "ls-files", "-s", "-t")), "\n")
		// ls-files tags conflicts "M"; the stage says the same.
		for i := range want {
			if strings.HasPrefix(want[i], "M ") {
				want[i] = "H " + want[i][2:]
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("index version %s:\n%s", v, diffLines(want, got))
		}
	}
	run(t, env, dir, nil, "update-index", "--split-index")
	if _, err := readIndexFile(filepath.Join(dir, ".git", "index"), formatSHA1); !errors.Is(err, ErrUnsupported) {
		t.Errorf("split index: %v, want ErrUnsupported", err)
	}
	// The git engine still reads it (through ls-files).
	r := openT(t, dir, env, EngineWithGit)
	if s, _, err := r.Surfaces(Index); err != nil || len(s) == 0 {
		t.Errorf("git engine on a split index: %v %v", s, err)
	}
}

func FuzzDecodeIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + strings.Repeat("\x00", 20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := decodeIndex(data, formatSHA1, "index")
		if err != nil {
			return
		}
		for _, e := range ix.entries {
			if validPath(e.Path) != nil || e.Path == "" || !formatSHA1.validID(e.ID) {
				t.Fatalf("invalid entry accepted: %+v", e)
			}
		}
		for dir, ct := range ix.trees {
			if validPath(dir) != nil || ct.entries < 0 || !formatSHA1.validID(ct.id) {
				t.Fatalf("invalid cache tree accepted: %q %+v", dir, ct)
			}
		}
	})
}
