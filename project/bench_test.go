package project

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcp-guard/mcp-guard/gitscan"
)

// BenchmarkCompare measures Compare in process (no process start, one
// open repository) between two commits of a repository of the given size
// that differ by one edit of the script the root server runs, with gitscan's
// surface cache warm. objects/op is the number of git objects read; it must
// not grow with the repository. The end-to-end comparison with git lives in
// bench/diffbench.sh.
//
//	go test ./project -run XXX -bench Compare
func BenchmarkCompare(b *testing.B) {
	for _, files := range []int{1000, 30000} {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			r := newRepo(b)
			base := map[string]string{".agentty/mcp.json": nodeCfg, "server.js": "v1"}
			for i := 0; i < 10; i++ {
				base[fmt.Sprintf("d%02d/.agentty/mcp.json", i)] = `{"mcpServers":{"t":{"command":"./t.sh"}}}`
			}
			for i := 0; i < files; i++ {
				base[fmt.Sprintf("src/d%02d/e%02d/f%d.txt", i%40, (i/40)%40, i)] = fmt.Sprint(i)
			}
			a, c := r.fastImport(base, map[string]string{"server.js": "v2"})
			var n gitscan.Counter
			g := r.open(gitscan.WithReadCounter(&n))
			sa, sc := r.side(g, a), r.side(g, c)
			if _, _, err := g.Surfaces(sa); err != nil {
				b.Fatal(err)
			}
			if _, _, err := g.Surfaces(sc); err != nil {
				b.Fatal(err)
			}
			n.Reset()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := Compare(context.Background(), g, sa, sc, Options{})
				if err != nil || len(res.Changes) != 1 {
					b.Fatal(res, err)
				}
			}
			b.ReportMetric(float64(n.Objects())/float64(b.N), "objects/op")
		})
	}
}
