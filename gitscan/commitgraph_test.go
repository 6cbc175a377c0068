package gitscan

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestHistoryWithCommitGraph: with a commit-graph (one file, or a split
// chain; octopus merges use its extra-edge list) History returns exactly
// what it returns without one, authors included; a graph that does not
// add up, or a stale one, costs reads, never the answer.
func TestHistoryWithCommitGraph(t *testing.T) {
	needGit(t)
	env := testEnv(t)
	dir := gitInit(t, env)
	g := newGenerator(7)
	run(t, env, dir, g.history(300, 40), "fast-import", "--quiet")
	// An octopus merge of three side branches, one of which edits a
	// surface (the merge, -s ours, discards it).
	for _, b := range []string{"o1", "o2", "o3"} {
		run(t, env, dir, nil, "branch", b, "main~3")
	}
	run(t, env, dir, nil, "reset", "-q", "--hard", "main")
	for _, b := range []string{"o1", "o2", "o3"} {
		run(t, env, dir, nil, "checkout", "-q", b)
		writeFile(t, dir, "side-"+b+".txt", b)
		if b == "o2" {
			writeFile(t, dir, ".agentty/mcp.json", `{"mcpServers":{"octo":{"command":"x"}}}`)
		}
		run(t, env, dir, nil, "add", ".")
		run(t, env, dir, nil, "commit", "-q", "-m", b)
	}
	run(t, env, dir, nil, "checkout", "-q", "main")
	run(t, env, dir, nil, "merge", "-q", "-s", "ours", "-m", "octopus", "o1", "o2", "o3")
	if ps := strings.Fields(run(t, env, dir, nil, "log", "-1", "--format=%P")); len(ps) != 4 {
		t.Fatalf("octopus has %d parents", len(ps))
	}
	history := func(e Engine) []string {
		var c Counter
		r := openT(t, dir, env, e, WithReadCounter(&c), WithoutCache())
		h, err := r.History(context.Background(), Empty, resolveT(t, r, "main"), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, hc := range h {
			var ch []string
			for _, x := range hc.Changes {
				ch = append(ch, changeString(x))
			}
			out = append(out, hc.ID+" "+hc.Author+" "+hc.AuthorEmail+" "+hc.Time.String()+" "+strings.Join(hc.Parents, ",")+" "+strings.Join(ch, ";"))
		}
		sort.Strings(out)
		return out
	}
	want := history(EngineInProcess)
	octopus := strings.Fields(run(t, env, dir, nil, "rev-parse", "main"))[0]
	if !strings.Contains(strings.Join(want, "\n"), octopus) {
		t.Fatal("the octopus merge that discards a surface change is not in the history")
	}
	graphs := filepath.Join(dir, ".git", "objects", "info")
	check := func(name string) {
		t.Helper()
		for _, e := range []Engine{EngineWithGit, EngineInProcess} {
			if got := history(e); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s, %v: history differs:\n%s", name, e, diffLines(want, got))
			}
		}
	}
	run(t, env, dir, nil, "commit-graph", "write", "--reachable")
	if r := openT(t, dir, env, EngineInProcess); r.commitGraph() == nil {
		t.Fatal("the commit-graph was not loaded")
	}
	check("one file")
	// A graph that does not add up: ignored.
	f := filepath.Join(graphs, "commit-graph")
	data, _ := os.ReadFile(f)
	os.Chmod(f, 0o644)
	bad := append([]byte(nil), data...)
	copy(bad[8:], "XXXX") // first chunk id
	os.WriteFile(f, bad, 0o644)
	if r := openT(t, dir, env, EngineInProcess); r.commitGraph() != nil {
		t.Error("a damaged commit-graph was used")
	}
	check("damaged")
	// A byte of a commit's record (its root tree id) flipped on disk:
	// the chunks still add up, the checksum does not.
	cdat := bytes.Index(data, []byte("CDAT"))
	if cdat < 0 {
		t.Fatal("no CDAT chunk")
	}
	at := int(binary.BigEndian.Uint64(data[cdat+4:]))
	flipped := append([]byte(nil), data...)
	flipped[at+3] ^= 0x01
	os.WriteFile(f, flipped, 0o644)
	if r := openT(t, dir, env, EngineInProcess); r.commitGraph() != nil {
		t.Error("a commit-graph with a wrong checksum was used")
	}
	check("flipped tree id")
	// The same graph made consistent again (its checksum recomputed) but
	// giving HEAD (the octopus, whose tree is its first parent's) the tree
	// of o2, which changed a surface: the walk believes the graph, so HEAD
	// looks like a change, and the commit it returns is checked against
	// its object.
	headID := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "main"))
	parentTree := strings.TrimSpace(run(t, env, dir, nil, "rev-parse", "o2^{tree}"))
	raw, _ := hex.DecodeString(headID)
	oidf := bytes.Index(data, []byte("OIDF"))
	oidl := bytes.Index(data, []byte("OIDL"))
	names := data[int(binary.BigEndian.Uint64(data[oidl+4:])):]
	pos := int(binary.BigEndian.Uint32(data[int(binary.BigEndian.Uint64(data[oidf+4:]))+4*int(raw[0]-1):]))
	for !bytes.Equal(names[20*pos:20*pos+20], raw) {
		pos++
	}
	lying := append([]byte(nil), data...)
	treeRaw, _ := hex.DecodeString(parentTree)
	copy(lying[at+36*pos:], treeRaw)
	sum := sha1.Sum(lying[:len(lying)-20])
	copy(lying[len(lying)-20:], sum[:])
	os.WriteFile(f, lying, 0o644)
	for _, e := range []Engine{EngineWithGit, EngineInProcess} {
		r := openT(t, dir, env, e, WithoutCache())
		_, err := r.History(context.Background(), Empty, resolveT(t, r, "main"), nil)
		if err == nil || !strings.Contains(err.Error(), "disagrees") {
			t.Errorf("%v: a consistent graph that lies about HEAD's tree: %v, want the disagreement", e, err)
		}
	}
	os.Remove(f)
	// A split chain, the newest commits in the top layer, the rest stale.
	run(t, env, dir, nil, "commit-graph", "write", "--reachable", "--split=no-merge")
	writeFile(t, dir, ".agentty/mcp.json", `{"later":1}`)
	run(t, env, dir, nil, "commit", "-q", "-am", "after the first layer")
	want = history(EngineInProcess) // (the graph does not hold the new commit)
	run(t, env, dir, nil, "commit-graph", "write", "--reachable", "--split=no-merge")
	if _, err := os.Stat(filepath.Join(graphs, "commit-graphs", "commit-graph-chain")); err != nil {
		t.Fatal(err)
	}
	if r := openT(t, dir, env, EngineInProcess); r.commitGraph() == nil || r.commitGraph().Layers() < 2 {
		t.Fatal("the commit-graph chain was not loaded")
	}
	check("chain")
	// Stale: a commit after the last layer is read from its object.
	writeFile(t, dir, ".agentty/mcp.json", `{"latest":1}`)
	run(t, env, dir, nil, "commit", "-q", "-am", "not in any graph")
	run(t, env, dir, nil, "config", "core.commitGraph", "false")
	want = history(EngineInProcess)
	run(t, env, dir, nil, "config", "core.commitGraph", "true")
	check("stale")
}
