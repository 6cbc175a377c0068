package gitscan

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// bigRepo is shared by the differential tests: generating it is the
// expensive part.
type bigRepo struct {
	dir   string
	env   []string
	marks map[string]string
	order []string // commit ids in generation order
}

var shared struct {
	once sync.Once
	root string
	repo *bigRepo
}

// TestMain removes the shared generated repository.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.root != "" {
		os.RemoveAll(shared.root)
	}
	os.Exit(code)
}

// generated returns the shared random repository, generating it once per
// test binary (tests that change its index or work tree restore it).
func generated(t *testing.T) *bigRepo {
	t.Helper()
	needGit(t)
	shared.once.Do(func() {
		files, commits := 3000, 60
		if testing.Short() {
			files, commits = 400, 25
		}
		root, err := os.MkdirTemp("", "gitscan-test-")
		if err != nil {
			t.Fatal(err)
		}
		shared.root = root
		env := sharedEnv(root)
		dir := filepath.Join(root, "repo")
		run(t, env, root, nil, "init", "-q", "-b", "main", dir)
		g := newGenerator(1)
		run(t, env, dir, g.history(files, commits), "fast-import", "--quiet", "--export-marks=.git/marks")
		run(t, env, dir, nil, "reset", "-q", "--hard", "main")
		m := marks(t, dir)
		b := &bigRepo{dir: dir, env: env, marks: m}
		for _, mk := range g.commits {
			b.order = append(b.order, m[mk])
		}
		shared.repo = b
	})
	if shared.repo == nil {
		t.Fatal("generating the shared repository failed earlier")
	}
	return shared.repo
}

// oracleChanges is go-git's own full-tree diff, as change strings.
func oracleChanges(t *testing.T, repo *git.Repository, a, b string) []string {
	t.Helper()
	tree := func(id string) *object.Tree {
		if id == "" {
			return nil
		}
		c, err := repo.CommitObject(plumbing.NewHash(id))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := c.Tree()
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	changes, err := object.DiffTree(tree(a), tree(b))
	if err != nil {
		t.Fatal(err)
	}
	conv := func(e object.ChangeEntry) *Entry {
		if e.Name == "" {
			return nil
		}
		mode, ok := modeFromGit(uint32(e.TreeEntry.Mode))
		if !ok || e.TreeEntry.Mode == filemode.Dir {
			t.Fatalf("oracle: unexpected mode %v for %s", e.TreeEntry.Mode, e.Name)
		}
		return &Entry{Path: e.Name, Mode: mode, ID: e.TreeEntry.Hash.String()}
	}
	var out []Change
	for _, c := range changes {
		ch := Change{Old: conv(c.From), New: conv(c.To)}
		ch.Path = c.From.Name
		if ch.Path == "" {
			ch.Path = c.To.Name
		}
		out = append(out, ch)
	}
	return changeStrings(out)
}

func TestChangesMatchGoGitDiffTree(t *testing.T) {
	b := generated(t)
	repo, err := git.PlainOpen(b.dir)
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ a, b string }
	pairs := []pair{{"", b.order[0]}, {b.order[0], b.order[len(b.order)-1]}, {b.order[len(b.order)-1], b.order[1]}}
	for i := 1; i < len(b.order); i++ {
		pairs = append(pairs, pair{b.order[i-1], b.order[i]})
	}
	for _, e := range engines {
		r := openT(t, b.dir, b.env, e)
		for _, p := range pairs {
			sa, sb := Empty, resolveT(t, r, p.b)
			if p.a != "" {
				sa = resolveT(t, r, p.a)
			}
			got, err := r.Changes(sa, sb)
			if err != nil {
				t.Fatalf("%v: changes %s..%s: %v", e, p.a, p.b, err)
			}
			if !sort.SliceIsSorted(got, func(i, j int) bool { return got[i].Path < got[j].Path }) {
				t.Errorf("%v: changes not sorted by path", e)
			}
			want := oracleChanges(t, repo, p.a, p.b)
			if g := changeStrings(got); strings.Join(g, "\n") != strings.Join(want, "\n") {
				t.Errorf("%v: changes %.8s..%.8s differ from go-git DiffTree:\n%s", e, p.a, p.b, diffLines(want, g))
			}
		}
	}
}

// gitLogSet is git's own answer for History: the commits of
// `git log --format=%H --full-history -m <range> -- <pathspecs>`.
func gitLogSet(t *testing.T, b *bigRepo, rng []string, pathspecs []string) []string {
	t.Helper()
	args := append([]string{"log", "--format=%H", "--full-history", "-m"}, rng...)
	args = append(append(args, "--"), pathspecs...)
	out := run(t, b.env, b.dir, nil, args...)
	set := map[string]bool{}
	for _, l := range strings.Fields(out) {
		set[l] = true
	}
	var ids []string
	for id := range set {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func TestHistoryMatchesGitLog(t *testing.T) {
	b := generated(t)
	patternSets := [][]string{
		nil,
		{"**/.agentty/mcp.json"},
		{"**/*.md", "tool.sh"},
		{"links"},
		{"conflict/*/inner.txt", "vendor/sub"},
	}
	mid := b.order[len(b.order)/2]
	ranges := []struct {
		since string
		rng   []string
	}{
		{"", []string{"main"}},
		{mid, []string{mid + "..main"}},
	}
	for _, e := range engines {
		r := openT(t, b.dir, b.env, e)
		to := resolveT(t, r, "main")
		for _, rg := range ranges {
			since := Empty
			if rg.since != "" {
				since = resolveT(t, r, rg.since)
			}
			for _, pats := range patternSets {
				m, _ := newMatcher(pats)
				want := gitLogSet(t, b, rg.rng, m.pathspecs())
				hist, err := r.History(context.Background(), since, to, pats)
				if err != nil {
					t.Fatalf("%v: history %v: %v", e, pats, err)
				}
				var got []string
				for i, hc := range hist {
					got = append(got, hc.ID)
					if i > 0 && hist[i-1].Time.After(hc.Time) {
						t.Errorf("%v: history not oldest first", e)
					}
					checkHistoryChanges(t, r, e, hc, m)
				}
				if pats == nil && rg.since == "" && !hasDiscardingMerge(hist) {
					t.Errorf("%v: no merge that discards a side change among %d commits: the generator broke", e, len(hist))
				}
				sort.Strings(got)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%v: history %v %v: commits differ from git log:\n%s", e, rg.rng, pats, diffLines(want, got))
				}
				if len(want) == 0 && rg.since == "" {
					t.Errorf("%v: pattern set %v selects nothing: the test proves nothing", e, pats)
				}
			}
		}
	}
}

// hasDiscardingMerge reports whether a merge in hist changes matched paths
// against one parent only: the side-branch changes `git log -- path`
// without --full-history would hide.
func hasDiscardingMerge(hist []HistoryCommit) bool {
	for _, hc := range hist {
		if len(hc.Parents) < 2 {
			continue
		}
		per := map[string]int{}
		for _, c := range hc.Changes {
			per[c.Parent]++
		}
		if len(per) == 1 && per[hc.Parents[1]] > 0 {
			return true
		}
	}
	return false
}

// checkHistoryChanges verifies each per-parent change list against the full
// Changes between the parent and the commit, filtered by the matcher.
func checkHistoryChanges(t *testing.T, r *Repo, e Engine, hc HistoryCommit, m *matcher) {
	t.Helper()
	parents := hc.Parents
	if hc.Boundary || len(parents) == 0 {
		parents = []string{""}
	}
	var want []Change
	for _, p := range parents {
		old := Empty
		if p != "" {
			old = resolveT(t, r, p)
		}
		all, err := r.Changes(old, resolveT(t, r, hc.ID))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range all {
			mode := ModeRegular
			if c.New != nil {
				mode = c.New.Mode
			} else {
				mode = c.Old.Mode
			}
			if m.match(c.Path, mode) || (c.Old != nil && m.match(c.Path, c.Old.Mode)) {
				c.Parent = p
				want = append(want, c)
			}
		}
	}
	if g, w := changeStrings(hc.Changes), changeStrings(want); strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("%v: history changes of %.8s:\n%s", e, hc.ID, diffLines(w, g))
	}
}

func surfaceStrings(s []Surface, skipped []string) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.Path+" "+x.Mode.String()+" "+x.ID+" "+x.Kind.String())
	}
	for _, p := range skipped {
		out = append(out, "skipped "+p)
	}
	return out
}

func TestSurfacesAgreeAcrossEngines(t *testing.T) {
	b := generated(t)
	var results [][]string
	for _, e := range engines {
		r := openT(t, b.dir, b.env, e, WithoutCache())
		var all []string
		for _, id := range []string{b.order[0], b.order[len(b.order)/2], b.order[len(b.order)-1]} {
			s, sk, err := r.Surfaces(resolveT(t, r, id))
			if err != nil {
				t.Fatal(err)
			}
			if len(s) == 0 || len(sk) == 0 {
				t.Fatalf("%v: no surfaces or no skipped submodule at %s: the generator broke", e, id)
			}
			all = append(all, surfaceStrings(s, sk)...)
			// Surfaces must equal the full listing filtered by KindOf.
			flat, err := r.flatten(resolveT(t, r, id))
			if err != nil {
				t.Fatal(err)
			}
			ws, wsk := surfacesOf(flat)
			if g, w := surfaceStrings(s, sk), surfaceStrings(ws, wsk); strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("%v: surfaces at %.8s:\n%s", e, id, diffLines(w, g))
			}
		}
		for _, side := range []Side{Index, WorkTree} {
			s, sk, err := r.Surfaces(side)
			if err != nil {
				t.Fatalf("%v: surfaces %v: %v", e, side, err)
			}
			all = append(all, surfaceStrings(s, sk)...)
		}
		results = append(results, all)
	}
	if g, w := results[1], results[0]; strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("in-process engine surfaces differ from git engine:\n%s", diffLines(w, g))
	}
	// The generated tree has a mixed-case surface and a symlinked .agentty.
	joined := strings.Join(results[0], "\n")
	for _, want := range []string{"odd/.Agentty/MCP.json 100644", "links/.agentty 120000", "skipped vendor/sub"} {
		if !strings.Contains(joined, want) {
			t.Errorf("surfaces lack %q", want)
		}
	}
}

// TestIndexAndWorktreeChangesAgree compares the non-commit sides across
// engines after staging and editing a few files.
func TestIndexAndWorktreeChangesAgree(t *testing.T) {
	b := generated(t)
	dir := b.dir
	writeFile(t, dir, ".agentty/mcp.json", `{"mcpServers":{"evil":{"command":"sh"}}}`)
	writeFile(t, dir, "newdir/.claude/agents/new.md", "hello")
	run(t, b.env, dir, nil, "add", ".agentty/mcp.json", "newdir")
	writeFile(t, dir, ".agentty/hooks.json", `{"pre_tool":[{"match":"*","run":"curl"}]}`)
	writeFile(t, dir, "untracked.txt", "u")
	t.Cleanup(func() {
		run(t, b.env, dir, nil, "reset", "-q", "--hard", "main")
		run(t, b.env, dir, nil, "clean", "-qfd")
	})
	var results [][]string
	for _, e := range engines {
		r := openT(t, dir, b.env, e)
		head := resolveT(t, r, "HEAD")
		var all []string
		for _, pr := range [][2]Side{{head, Index}, {Index, WorkTree}, {head, WorkTree}, {Empty, Index}} {
			ch, err := r.Changes(pr[0], pr[1])
			if err != nil {
				t.Fatalf("%v: %v..%v: %v", e, pr[0], pr[1], err)
			}
			all = append(all, "## "+pr[0].String()+".."+pr[1].String())
			all = append(all, changeStrings(ch)...)
		}
		results = append(results, all)
		joined := strings.Join(all, "\n")
		for _, want := range []string{".agentty/hooks.json 100644:", "untracked.txt -", "newdir/.claude/agents/new.md -"} {
			if !strings.Contains(joined, want) {
				t.Errorf("%v: missing change %q in\n%s", e, want, joined)
			}
		}
		// git's own view of HEAD..index
		want := strings.Fields(run(t, b.env, dir, nil, "diff", "--cached", "--name-only", "--no-renames", "HEAD"))
		ch, _ := r.Changes(head, Index)
		var got []string
		for _, c := range ch {
			got = append(got, c.Path)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%v: HEAD..index %v, git diff --cached says %v", e, got, want)
		}
	}
	if strings.Join(results[0], "\n") != strings.Join(results[1], "\n") {
		t.Errorf("engines disagree on index/worktree changes:\n%s", diffLines(results[0], results[1]))
	}
}
