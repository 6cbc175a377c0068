package policy

import (
	"slices"

	"github.com/mcp-guard/mcp-guard/trust"
)

// jnode is a JSON value with the position of where it starts, in the form
// the rules walk: always a tree a client model read (fromClient), never
// bytes policy decoded itself. get returns the last member named key.
type jnode struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str     string
	pos     trust.Pos
	members []jmember
	elems   []*jnode
}

type jmember struct {
	key    string
	keyPos trust.Pos
	val    *jnode
}

// get returns the value of the last member named key.
func (n *jnode) get(key string) (*jmember, bool) {
	if n == nil || n.kind != 'o' {
		return nil, false
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return &n.members[i], true
		}
	}
	return nil, false
}

// resolved lists an object's members once each, the last duplicate
// winning, in first-appearance order.
func (n *jnode) resolved() []jmember {
	var out []jmember
	index := map[string]int{}
	for _, m := range n.members {
		if i, ok := index[m.key]; ok {
			out[i] = m
			continue
		}
		index[m.key] = len(out)
		out = append(out, m)
	}
	return out
}

// fromClient is the tree a client model read (trust.Value: its dialect,
// positions in the file) in the form the rules walk, so that a rules file
// reads a file its client reads through that client's reading instead of
// decoding the bytes again. An object's members are the ones the client
// sees (each key once, the last duplicate winning).
func fromClient(v trust.Value) *jnode {
	n := &jnode{pos: v.Pos()}
	switch v.Kind() {
	case "object":
		n.kind = 'o'
		for _, k := range v.Keys() {
			m, _ := v.Get(k)
			kp, _ := v.KeyPos(k)
			n.members = append(n.members, jmember{key: k, keyPos: kp, val: fromClient(m)})
		}
		slices.SortStableFunc(n.members, func(a, b jmember) int { return a.keyPos.Offset - b.keyPos.Offset })
	case "array":
		n.kind = 'a'
		for _, e := range v.Elems() {
			n.elems = append(n.elems, fromClient(e))
		}
	case "string":
		n.kind = 's'
		n.str, _ = v.Str()
	case "number":
		n.kind = 'n'
		raw, _ := v.Source()
		n.str = string(raw)
	case "boolean":
		n.kind = 'b'
		if b, _ := v.Bool(); b {
			n.str = "true"
		} else {
			n.str = "false"
		}
	default:
		n.kind = 'z'
	}
	return n
}

// clientTree is f's bytes as its client model reads them (read: the
// client's reader of that file, client.VSCodeFile, …), in the form the
// rules walk; the client's error where it cannot read them.
func clientTree(read func([]byte) (trust.Value, error), data []byte) (*jnode, error) {
	v, err := read(data)
	if err != nil {
		return nil, err
	}
	return fromClient(v), nil
}
