package gitobj

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CommitGraph reads git's commit-graph (gitformat-commit-graph: the single
// objects/info/commit-graph file or a chain under objects/info/commit-graphs/)
// for a history walk: a commit's root tree, parents and committer time
// without inflating the commit object, as git log does. The author, which
// only the commits a walk returns need, still comes from the object.
//
// The file is the repository's own derived data; anything that does not
// add up (checksum, signature, version, hash, chunk table, fan-out,
// positions) makes the whole graph unused, and commits it does not hold (written after it)
// are read from their objects, so a stale or damaged graph costs time,
// never the answer.
type CommitGraph struct {
	format Format
	layers []*graphLayer // base first; positions run across layers
	unmap  []func() error
}

type graphLayer struct {
	data       []byte
	fanout     [256]uint32
	oidl, cdat []byte
	edge       []byte
	n, base    int
}

const (
	graphParentNone  = 0x70000000
	graphExtraEdges  = 0x80000000
	graphLastEdge    = 0x80000000
	maxGraphFileSize = 1 << 30
)

// OpenCommitGraph loads the graph of an objects directory; nil when there
// is none or it does not add up.
func OpenCommitGraph(objectsDir string, f Format) *CommitGraph {
	g := &CommitGraph{format: f}
	single := filepath.Join(objectsDir, "info", "commit-graph")
	if _, err := os.Stat(single); err == nil {
		if g.addLayer(single) {
			return g
		}
		// As git does, a single file that does not add up leaves the
		// chain to try.
		g.Close()
		g = &CommitGraph{format: f}
	}
	dir := filepath.Join(objectsDir, "info", "commit-graphs")
	b, err := ReadSmallFile(filepath.Join(dir, "commit-graph-chain"), 1<<20)
	if err != nil {
		return nil
	}
	for _, l := range strings.Fields(string(b)) {
		if !f.ValidID(l) || !g.addLayer(filepath.Join(dir, "graph-"+l+".graph")) {
			g.Close()
			return nil
		}
	}
	if len(g.layers) == 0 {
		return nil
	}
	return g
}

// Close releases the graph's mappings.
func (g *CommitGraph) Close() {
	for _, u := range g.unmap {
		u()
	}
	g.unmap, g.layers = nil, nil
}

func (g *CommitGraph) addLayer(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxGraphFileSize {
		return false
	}
	data, unmap, err := mapFile(f)
	if err != nil {
		if data, err = os.ReadFile(path); err != nil {
			return false
		}
		unmap = func() error { return nil }
	}
	g.unmap = append(g.unmap, unmap)
	// The trailing checksum covers the file: a graph damaged on disk
	// could otherwise give a commit a wrong tree or parent, and the walk
	// would silently skip a change (git reads without checking; git
	// commit-graph verify checks the same sum). It costs a hash of the
	// file, once per history walk, never in the hook.
	hl := g.format.RawLen
	if len(data) < hl {
		return false
	}
	h := g.format.NewHash()
	h.Write(data[:len(data)-hl])
	if !bytes.Equal(h.Sum(nil), data[len(data)-hl:]) {
		return false
	}
	l, ok := parseGraphLayer(data, g.format)
	if !ok || l.base != len(g.layers) {
		return false
	}
	l.base = g.total()
	g.layers = append(g.layers, l)
	return true
}

func (g *CommitGraph) total() int {
	n := 0
	for _, l := range g.layers {
		n += l.n
	}
	return n
}

// parseGraphLayer checks a graph file; l.base holds the number of base
// graphs it declares until addLayer turns it into a position offset.
func parseGraphLayer(b []byte, f Format) (*graphLayer, bool) {
	hl := f.RawLen
	if len(b) < 8+12 || string(b[:4]) != "CGPH" || b[4] != 1 {
		return nil, false
	}
	hashVersion := byte(1)
	if f.RawLen == 32 {
		hashVersion = 2
	}
	if b[5] != hashVersion {
		return nil, false
	}
	chunks := int(b[6])
	l := &graphLayer{data: b, base: int(b[7])}
	if 8+(chunks+1)*12 > len(b) {
		return nil, false
	}
	var oidf []byte
	for i := 0; i < chunks; i++ {
		e := b[8+i*12:]
		id := string(e[:4])
		start, end := binary.BigEndian.Uint64(e[4:12]), binary.BigEndian.Uint64(e[16:24])
		if start > end || end > uint64(len(b)) {
			return nil, false
		}
		c := b[start:end]
		switch id {
		case "OIDF":
			oidf = c
		case "OIDL":
			l.oidl = c
		case "CDAT":
			l.cdat = c
		case "EDGE":
			l.edge = c
		}
	}
	if len(oidf) != 256*4 || l.oidl == nil || l.cdat == nil {
		return nil, false
	}
	var ok bool
	if l.fanout, l.n, ok = parseFanout(oidf); !ok {
		return nil, false
	}
	if len(l.oidl) != l.n*hl || len(l.cdat) != l.n*(hl+16) || len(l.edge)%4 != 0 {
		return nil, false
	}
	return l, true
}

// lookup finds a commit's global position.
func (g *CommitGraph) lookup(raw []byte) (int, bool) {
	hl := g.format.RawLen
	for _, l := range g.layers {
		lo := 0
		if raw[0] > 0 {
			lo = int(l.fanout[raw[0]-1])
		}
		hi := int(l.fanout[raw[0]])
		for lo < hi {
			mid := lo + (hi-lo)/2
			switch c := bytes.Compare(l.oidl[mid*hl:mid*hl+hl], raw); {
			case c == 0:
				return l.base + mid, true
			case c < 0:
				lo = mid + 1
			default:
				hi = mid
			}
		}
	}
	return 0, false
}

func (g *CommitGraph) layer(pos int) (*graphLayer, int, bool) {
	for _, l := range g.layers {
		if pos >= l.base && pos < l.base+l.n {
			return l, pos - l.base, true
		}
	}
	return nil, 0, false
}

func (g *CommitGraph) oid(pos int) (string, bool) {
	l, i, ok := g.layer(pos)
	if !ok {
		return "", false
	}
	hl := g.format.RawLen
	return hex.EncodeToString(l.oidl[i*hl : i*hl+hl]), true
}

var errGraph = errors.New("commit-graph does not add up")

// GraphCommit is what the commit-graph records for a commit: no author,
// no message.
type GraphCommit struct {
	Tree       string
	Parents    []string
	CommitTime time.Time
}

// Layers is the number of graph files read (1, or the length of a chain).
func (g *CommitGraph) Layers() int { return len(g.layers) }

// Commit returns what the graph records for commit id (nil, nil when the
// graph does not hold it); an error when the graph does not add up.
func (g *CommitGraph) Commit(id string) (*GraphCommit, error) {
	raw, err := hex.DecodeString(id)
	if err != nil || len(raw) != g.format.RawLen {
		return nil, nil
	}
	pos, ok := g.lookup(raw)
	if !ok {
		return nil, nil
	}
	l, i, _ := g.layer(pos)
	hl := g.format.RawLen
	rec := l.cdat[i*(hl+16) : (i+1)*(hl+16)]
	c := &GraphCommit{Tree: hex.EncodeToString(rec[:hl])}
	p1, p2 := binary.BigEndian.Uint32(rec[hl:]), binary.BigEndian.Uint32(rec[hl+4:])
	w1, w2 := binary.BigEndian.Uint32(rec[hl+8:]), binary.BigEndian.Uint32(rec[hl+12:])
	c.CommitTime = time.Unix(int64(w1&3)<<32|int64(w2), 0).UTC()
	add := func(p uint32) error {
		id, ok := g.oid(int(p))
		if !ok {
			return errGraph
		}
		c.Parents = append(c.Parents, id)
		return nil
	}
	if p1 != graphParentNone {
		if err := add(p1); err != nil {
			return nil, err
		}
	}
	switch {
	case p2 == graphParentNone:
	case p2&graphExtraEdges == 0:
		if err := add(p2); err != nil {
			return nil, err
		}
	default:
		for k := int(p2 &^ graphExtraEdges); ; k++ {
			if 4*k+4 > len(l.edge) || len(c.Parents) > 1<<16 {
				return nil, errGraph
			}
			e := binary.BigEndian.Uint32(l.edge[4*k:])
			if err := add(e &^ graphLastEdge); err != nil {
				return nil, err
			}
			if e&graphLastEdge != 0 {
				break
			}
		}
	}
	return c, nil
}
