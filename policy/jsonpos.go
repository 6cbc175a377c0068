package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/trust"
)

// jnode is a JSON value with the position of where it starts, for the
// sibling surfaces (hooks.json, acp-agents.json) and for server keys that
// trust keeps as raw JSON (headers). Duplicate keys are kept in order;
// get returns the last, as agentty's parser does.
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

const maxJSONDepth = 512

var errJSONDepth = errors.New("nesting too deep")

// decodePositioned decodes the first JSON value of data with the line and
// column (in characters, as trust counts them) of every value and key.
func decodePositioned(data []byte) (*jnode, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	d := &posDecoder{dec: json.NewDecoder(bytes.NewReader(data)), data: data, line: 1, col: 1}
	d.dec.UseNumber()
	return d.value(0)
}

type posDecoder struct {
	dec  *json.Decoder
	data []byte
	// the position cursor: off is at line:col.
	off, line, col int
}

// next reads a token and the position where it starts.
func (d *posDecoder) next() (json.Token, trust.Pos, error) {
	start := int(d.dec.InputOffset())
	for start < len(d.data) {
		c := d.data[start]
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ',' && c != ':' {
			break
		}
		start++
	}
	tok, err := d.dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, trust.Pos{}, err
	}
	return tok, d.pos(start), nil
}

// pos advances the cursor to off.
func (d *posDecoder) pos(off int) trust.Pos {
	for d.off < off && d.off < len(d.data) {
		c := d.data[d.off]
		switch {
		case c == '\n':
			d.line++
			d.col = 1
			d.off++
			continue
		case c < utf8.RuneSelf:
			d.off++
		default:
			_, n := utf8.DecodeRune(d.data[d.off:])
			d.off += n
		}
		d.col++
	}
	return trust.Pos{Offset: off, Line: d.line, Column: d.col}
}

func (d *posDecoder) value(depth int) (*jnode, error) {
	tok, pos, err := d.next()
	if err != nil {
		return nil, err
	}
	return d.build(tok, pos, depth)
}

func (d *posDecoder) build(tok json.Token, pos trust.Pos, depth int) (*jnode, error) {
	if depth > maxJSONDepth {
		return nil, errJSONDepth
	}
	n := &jnode{pos: pos}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n.kind = 'o'
			for d.dec.More() {
				ktok, kpos, err := d.next()
				if err != nil {
					return nil, err
				}
				key, _ := ktok.(string)
				v, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.members = append(n.members, jmember{key: key, keyPos: kpos, val: v})
			}
		case '[':
			n.kind = 'a'
			for d.dec.More() {
				v, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, v)
			}
		default:
			return nil, errors.New("unexpected " + t.String())
		}
		if _, _, err := d.next(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.kind, n.str = 's', t
	case json.Number:
		n.kind, n.str = 'n', t.String()
	case bool:
		n.kind = 'b'
		if t {
			n.str = "true"
		} else {
			n.str = "false"
		}
	case nil:
		n.kind, n.str = 'z', "null"
	}
	return n, nil
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
