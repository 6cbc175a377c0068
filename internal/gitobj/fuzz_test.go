package gitobj

import (
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// packSeed builds a repository whose objects are all in one pack, with
// deltas (versions of the same files), and returns the pack, its index and
// every object id in it.
func packSeed(tb testing.TB) (pack, idx []byte, ids []string) {
	tb.Helper()
	needGit(tb)
	env := testEnv(tb)
	dir := gitInit(tb, env)
	var b strings.Builder
	for v := range 4 {
		for i := range 200 {
			if i%(v+2) == 0 {
				b.WriteString("changed ")
			}
			b.WriteString("line of a server script that several versions share\n")
		}
		writeFile(tb, dir, "tools/server.js", b.String())
		writeFile(tb, dir, ".agentty/mcp.json", `{"mcpServers":{"s":{"command":"node","args":["tools/server.js","--v`+strings.Repeat("x", v)+`"]}}}`)
		run(tb, env, dir, nil, "add", "-A")
		run(tb, env, dir, nil, "commit", "-q", "-m", "v")
	}
	run(tb, env, dir, nil, "repack", "-q", "-a", "-d", "-f", "--depth=10")
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		tb.Fatalf("packs: %v", packs)
	}
	var err error
	if pack, err = os.ReadFile(packs[0]); err != nil {
		tb.Fatal(err)
	}
	if idx, err = os.ReadFile(strings.TrimSuffix(packs[0], ".pack") + ".idx"); err != nil {
		tb.Fatal(err)
	}
	out := run(tb, env, dir, nil, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(deltabase)")
	deltas := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		id, base, _ := strings.Cut(l, " ")
		ids = append(ids, id)
		if strings.Trim(base, "0") != "" {
			deltas++
		}
	}
	if deltas == 0 {
		tb.Fatal("the seed pack has no deltas")
	}
	return pack, idx, ids
}

// FuzzPackedObjects: the in-process object reader, given any pack and
// index bytes (seeded with a real pack holding deltas), never panics,
// never hangs, and never allocates far beyond what the files could hold:
// a damaged or hostile object store yields errors, not huge allocations.
func FuzzPackedObjects(f *testing.F) {
	pack, idx, ids := packSeed(f)
	f.Add(pack, idx)
	// The same pack with a damaged byte in each region: header, entries,
	// checksum; and the index's fan-out, names and offsets.
	for _, at := range []int{5, 9, 12, 13, len(pack) / 3, len(pack) / 2, len(pack) - 21, len(pack) - 1} {
		p := append([]byte(nil), pack...)
		p[at] ^= 0xff
		f.Add(p, idx)
	}
	for _, at := range []int{9, 8 + 4*128, 8 + 1024 + 3, len(idx) / 2, len(idx) - 41} {
		x := append([]byte(nil), idx...)
		x[at] ^= 0x80
		f.Add(pack, x)
	}
	f.Fuzz(func(t *testing.T, pack, idx []byte) {
		dir := t.TempDir()
		pdir := filepath.Join(dir, "pack")
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(pdir, "pack-x.pack"), pack, 0o444)
		os.WriteFile(filepath.Join(pdir, "pack-x.idx"), idx, 0o444)
		o, err := Open(SHA1, dir, "")
		if err != nil {
			return
		}
		defer o.Close()
		// zlib inflates at most about 1032 bytes per input byte: nothing
		// honest in these files needs more than that for one object.
		limit := 1032*uint64(len(pack)+len(idx)) + 1<<20
		// runtime/metrics, not ReadMemStats: no stop-the-world per read,
		// which made this target run a few inputs a second.
		sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		allocated := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
		start := time.Now()
		for _, id := range ids {
			for _, read := range []func(){
				func() { o.Info(id) },
				func() { o.Read(id, 1<<20) },
				func() { o.Read(id, -1) },
			} {
				before := allocated()
				read()
				if n := allocated() - before; n > limit {
					t.Fatalf("object %s: allocated %d bytes from %d bytes of pack and index", id, n, len(pack)+len(idx))
				}
			}
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Fatalf("reading %d objects took %v", len(ids), d)
		}
	})
}

// FuzzCommitGraph: any file where a commit-graph belongs is either refused
// or read without panics or unbounded work.
func FuzzCommitGraph(f *testing.F) {
	f.Add([]byte("CGPH\x01\x01\x03\x00"))
	// Real graphs as seeds: one with a merge, one with an octopus (EDGE).
	needGit(f)
	env := testEnv(f)
	dir := gitInit(f, env)
	for i, b := range []string{"a", "b", "c"} {
		writeFile(f, dir, b, b)
		run(f, env, dir, nil, "add", b)
		run(f, env, dir, nil, "commit", "-q", "-m", b)
		if i == 0 {
			for _, s := range []string{"s1", "s2"} {
				run(f, env, dir, nil, "branch", s)
			}
		}
	}
	run(f, env, dir, nil, "merge", "-q", "-s", "ours", "-m", "octopus", "s1", "s2")
	run(f, env, dir, nil, "commit-graph", "write", "--reachable")
	seed, err := os.ReadFile(filepath.Join(dir, ".git", "objects", "info", "commit-graph"))
	if err != nil {
		f.Fatal(err)
	}
	if _, ok := parseGraphLayer(seed, SHA1); !ok {
		f.Fatal("git's own commit-graph is refused")
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		l, ok := parseGraphLayer(data, SHA1)
		if !ok {
			return
		}
		l.base = 0
		g := &CommitGraph{format: SHA1, layers: []*graphLayer{l}}
		for i := 0; i < l.n && i < 8; i++ {
			id, _ := g.oid(i)
			g.Commit(id)
		}
		g.Commit(strings.Repeat("0", 40))
	})
}
