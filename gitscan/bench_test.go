package gitscan

import (
	"context"
	"testing"
)

// Benchmarks on generated repositories; the issue-6 comparison against git
// at scale lives in bench/. Run: go test ./gitscan -run XXX -bench . -benchtime 2s

func benchRepos(b *testing.B) (wide string, deep string, hist string, env []string) {
	b.Helper()
	needGit(b)
	env = testEnv(b)
	wide, deep = wideRepo(b, env, 5000)
	hist, _ = genRepo(b, env, 3, 1000, 200)
	return wide, deep, hist, env
}

func BenchmarkChanges(b *testing.B) {
	wide, deep, _, env := benchRepos(b)
	for _, e := range engines {
		b.Run(e.String(), func(b *testing.B) {
			r := openT(b, wide, env, e)
			old, cur := resolveT(b, r, "main~1"), resolveT(b, r, "main")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ch, err := r.Changes(old, cur)
				if err != nil || len(ch) != 1 || ch[0].Path != deep {
					b.Fatal(ch, err)
				}
				r.trees = newTreeCache(4096) // measure reads, not the cache
			}
		})
	}
	b.Run("git-diff-tree", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			run(b, env, wide, nil, "diff-tree", "-r", "--raw", "main~1", "main")
		}
	})
}

func BenchmarkLookup(b *testing.B) {
	wide, deep, _, env := benchRepos(b)
	for _, e := range engines {
		b.Run(e.String(), func(b *testing.B) {
			r := openT(b, wide, env, e)
			old, cur := resolveT(b, r, "main~1"), resolveT(b, r, "main")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, s := range []Side{old, cur} {
					if _, _, err := r.ReadBlob(s, deep, 1<<20); err != nil {
						b.Fatal(err)
					}
				}
				r.trees = newTreeCache(4096)
			}
		})
	}
	b.Run("git-rev-parse", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			run(b, env, wide, nil, "rev-parse", "main~1:"+deep, "main:"+deep)
		}
	})
}

func BenchmarkHistory(b *testing.B) {
	_, _, hist, env := benchRepos(b)
	m, _ := newMatcher(nil)
	for _, e := range engines {
		b.Run(e.String(), func(b *testing.B) {
			r := openT(b, hist, env, e)
			to := resolveT(b, r, "main")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := r.History(context.Background(), Empty, to, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("git-log", func(b *testing.B) {
		args := append([]string{"log", "--format=%H", "--full-history", "-m", "main", "--"}, m.pathspecs()...)
		for i := 0; i < b.N; i++ {
			run(b, env, hist, nil, args...)
		}
	})
}

// BenchmarkHookPath is what the post-checkout hook does: open, resolve two
// revisions, compare them, read the changed config, close.
func BenchmarkHookPath(b *testing.B) {
	wide, _, _, env := benchRepos(b)
	for _, e := range engines {
		b.Run(e.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r, err := Open(wide, WithEngine(e), WithEnv(env), WithoutCache())
				if err != nil {
					b.Fatal(err)
				}
				old, _ := r.Resolve("main~1")
				cur, _ := r.Resolve("main")
				if _, err := r.Changes(old, cur); err != nil {
					b.Fatal(err)
				}
				if _, _, err := r.ReadBlob(cur, ".agentty/mcp.json", 1<<20); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		})
	}
	b.Run("git-rev-parse", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			run(b, env, wide, nil, "rev-parse", "main~1:.agentty/mcp.json", "main:.agentty/mcp.json")
		}
	})
}
