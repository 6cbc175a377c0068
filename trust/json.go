package trust

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/internal/numfmt"
)

// This file is a token-level JSON reader that reproduces the dialect of
// nlohmann::json with its default settings, which is what agentty uses:
//
//   - a UTF-8 byte order mark is skipped at the very start;
//   - the first value is decoded and the offset after it (and after any
//     whitespace) is returned, so callers decide what trailing bytes mean;
//   - strings must be valid UTF-8 with no raw control characters, escapes
//     must be the eight JSON escapes or \uXXXX with surrogates paired, and
//     \u0000 decodes to a real NUL byte;
//   - numbers follow the JSON grammar; a floating point value that does not
//     fit a double (1e400) is an error, integers that overflow 64 bits fall
//     back to a double as nlohmann does;
//   - objects keep every member in source order, duplicates included, so the
//     caller can report them; lookups take the last one (nlohmann replaces).
//
// encoding/json is not used on repository bytes: it matches keys
// case-insensitively, merges duplicate objects and silently replaces
// invalid UTF-8, each of which would make mcp-guard disagree with agentty.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	switch k {
	case jsonNull:
		return "null"
	case jsonBool:
		return "boolean"
	case jsonNumber:
		return "number"
	case jsonString:
		return "string"
	case jsonArray:
		return "array"
	case jsonObject:
		return "object"
	}
	return "unknown"
}

// withArticle names the kind as a sentence needs it: "an array", "null".
func (k jsonKind) withArticle() string {
	switch k {
	case jsonNull:
		return "null"
	case jsonArray, jsonObject:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// Pos is a position in a file: 1-based line, and 1-based column counted in
// Unicode code points, as SARIF's unicodeCodePoints column kind expects.
type Pos struct {
	Offset int `json:"-"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

// jsonValue is one decoded value. A configuration of 100,000 servers
// holds about half a million of them while it is evaluated, so the struct
// is kept small: positions as 32-bit numbers (a file is at most
// MaxFileSize), and no copy of the source text.
type jsonValue struct {
	Kind jsonKind
	Bool bool
	// Int reports whether nlohmann would keep a number as an integer (no
	// fraction or exponent, fits 64 bits).
	Int bool
	// end is the offset just past the value's source text.
	end int32
	at  pos32
	// Str is the decoded text of a string, the source text of a number.
	Str string
	// Num is the value of a number.
	Num float64
	// Elems are the elements of an array.
	Elems []*jsonValue
	// Members are the members of an object in source order, duplicates
	// included.
	Members []jsonMember
}

// pos32 is a Pos in a third of the space.
type pos32 struct{ off, line, col int32 }

func packPos(p Pos) pos32 { return pos32{int32(p.Offset), int32(p.Line), int32(p.Column)} }

func (p pos32) Pos() Pos { return Pos{Offset: int(p.off), Line: int(p.line), Column: int(p.col)} }

// Pos is where the value starts.
func (v *jsonValue) Pos() Pos { return v.at.Pos() }

func (v *jsonValue) setPos(p Pos) { v.at = packPos(p) }

// raw is the value's source text in data, the file it was decoded from.
func (v *jsonValue) raw(data []byte) []byte { return data[v.at.off:v.end] }

type jsonMember struct {
	Key   string
	keyAt pos32
	Value *jsonValue
}

// KeyPos is where the member's key starts.
func (m jsonMember) KeyPos() Pos { return m.keyAt.Pos() }

func (m *jsonMember) setKeyPos(p Pos) { m.keyAt = packPos(p) }

// get returns the value of the last member named key (nlohmann replaces
// earlier duplicates), or nil.
func (v *jsonValue) get(key string) (*jsonMember, bool) {
	if v == nil || v.Kind != jsonObject {
		return nil, false
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return &v.Members[i], true
		}
	}
	return nil, false
}

// SyntaxError is a JSON parse failure at a position.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Pos.Line, e.Pos.Column, e.Msg)
}

// MaxValues is the most JSON values (strings, numbers, objects, …) one
// of the user's own files may hold (~/.claude.json keeps megabytes of
// project history): a file made of millions of tiny values, which would
// cost gigabytes to hold, is refused instead.
const MaxValues = 2_000_000

// MaxRepoValues is the most JSON values one file in a repository (scope
// ScopeProject, written by whoever wrote the repository) may hold. The
// largest real configuration in testdata/corpus holds 105; agentty's spec
// vectors nest an array 100,000 levels deep beside a server, which is
// 100,001 values and must still read. 200,000 values hold about 25 MB of
// decoded tree: a bound on what a repository can make mcp-guard build.
const MaxRepoValues = 200_000

// MaxServers is the most server entries one repository file may declare,
// and the most entries of any kind (hooks, tasks: Bounded). The largest
// real configuration in testdata/corpus declares 10; a person cannot
// review thousands, and every entry costs its launch analysis and
// fingerprints. A file past it is unreadable: the gate stays closed.
const MaxServers = 1_000

// MaxRepoYAML is the most bytes of YAML mcp-guard decodes from a
// repository's file (a skill's or subagent's frontmatter, a hook
// manager's configuration), and of the TOML or YAML configuration of a
// runner the launch model decodes (pyproject.toml, .cargo/config.toml,
// .yarnrc.yml, …). yaml.v3 keeps every scalar as a node of about a
// hundred bytes and offers no streaming count, so its budget is in bytes:
// 256 KiB holds at most about 25 MB of nodes, as MaxRepoValues does; real
// frontmatter is a few hundred bytes, a runner's configuration a few KiB.
const MaxRepoYAML = 256 << 10

// ValueBudget is the most JSON (or TOML) values a file of scope may hold:
// MaxRepoValues for a repository's file, MaxValues for the user's own.
// Every reader of a repository file decodes within it.
func ValueBudget(scope Scope) int {
	if scope == ScopeProject {
		return MaxRepoValues
	}
	return MaxValues
}

// ErrTooManyValues reports a file with more values than its budget.
var ErrTooManyValues = errors.New("too many JSON values")

// ErrTooManyServers reports a repository file declaring more than
// MaxServers servers, or entries of any kind.
var ErrTooManyServers = errors.New("too many servers")

// limitError is a limit's error (is) in its own words: a sentence that
// names the count, the limit and what to do.
type limitError struct {
	msg string
	is  error
}

func (e *limitError) Error() string        { return e.msg }
func (e *limitError) Is(target error) bool { return target == e.is }

// TooManyValues is the error of a file of scope and format ("JSON",
// "TOML") past its value budget by line: it names the budget and, for a
// repository's file, what the user can do.
func TooManyValues(scope Scope, format string, line int) error {
	n := numfmt.Grouped(ValueBudget(scope))
	msg := fmt.Sprintf("too many %s values: more than %s by line %d", format, n, line)
	if scope == ScopeProject {
		msg += ", the most mcp-guard reads from a repository's file (real configurations hold a few hundred): remove what the project does not use"
	}
	return &limitError{msg, ErrTooManyValues}
}

// TooManyServers is the error of a repository file declaring n servers.
func TooManyServers(n int) error {
	return &limitError{fmt.Sprintf("the file declares %s servers, and mcp-guard reviews at most %s in one repository file (real configurations declare tens): remove the servers the project does not use", numfmt.Grouped(n), numfmt.Grouped(MaxServers)), ErrTooManyServers}
}

// TooManyEntries is the error of a repository file of n entries built
// outside a server table: hooks, tasks, a settings file's commands.
func TooManyEntries(n int) error {
	return &limitError{fmt.Sprintf("the file declares %s commands to run (servers, hooks, tasks), and mcp-guard reviews at most %s in one repository file (real files declare tens): remove the ones the project does not use", numfmt.Grouped(n), numfmt.Grouped(MaxServers)), ErrTooManyServers}
}

// Bounded is c, a file as a client read it, or, for a repository's file
// (ScopeProject) of more than MaxServers entries of any kind, c unread:
// the limit on entries a client builds outside a server table (Parse and
// ParseDialect count a table's before building one). client.ParseFile
// applies it to every repository file a client reads.
func Bounded(c *Config) *Config {
	if c == nil || c.Scope != ScopeProject || len(c.Servers) <= MaxServers {
		return c
	}
	return c.unread(TooManyEntries(len(c.Servers)))
}

// serversOver reports the error of a table of n server entries in a file
// of scope: nil within MaxServers or for the user's own file.
func serversOver(scope Scope, n int) error {
	if scope != ScopeProject || n <= MaxServers {
		return nil
	}
	return TooManyServers(n)
}

type jsonReader struct {
	data []byte
	i    int
	// cursor for incremental line/column computation; positions are asked
	// for in increasing offset order, so the total cost is linear.
	cOff, cLine, cCol int
	values            int
	// scope is whose file it is; max its value budget (ValueBudget).
	scope Scope
	max   int
	// d switches another client's dialect on; nil is agentty's.
	d *Dialect
	// lossy are where text was replaced by U+FFFD (d.Lenient only).
	lossy []Pos
}

func (r *jsonReader) pos(off int) Pos {
	if off < r.cOff { // never happens in one pass; stay correct anyway
		r.cOff, r.cLine, r.cCol = 0, 1, 1
	}
	for r.cOff < off && r.cOff < len(r.data) {
		c := r.data[r.cOff]
		if c == '\n' {
			r.cLine++
			r.cCol = 1
			r.cOff++
			continue
		}
		if c < utf8.RuneSelf {
			r.cOff++
		} else {
			_, n := utf8.DecodeRune(r.data[r.cOff:])
			r.cOff += n
		}
		r.cCol++
	}
	return Pos{Offset: off, Line: r.cLine, Column: r.cCol}
}

func (r *jsonReader) errorf(off int, format string, args ...any) error {
	return &SyntaxError{Pos: r.pos(off), Msg: fmt.Sprintf(format, args...)}
}

// decodeJSON decodes the first JSON value in data, a file of the user's
// own (MaxValues; a repository's file goes through decodeDialect with its
// scope). end is the offset just after the value and the whitespace that
// follows it: end < len(data) means trailing content.
func decodeJSON(data []byte) (v *jsonValue, end int, err error) {
	v, end, _, err = decodeDialect(data, nil, ScopeUser)
	return v, end, err
}

// decodeDialect is decodeJSON with d's switches (nil: agentty's) and the
// value budget of scope (ValueBudget); lossy lists where text was replaced
// by U+FFFD.
func decodeDialect(data []byte, d *Dialect, scope Scope) (v *jsonValue, end int, lossy []Pos, err error) {
	r := &jsonReader{data: data, cLine: 1, cCol: 1, d: d, scope: scope, max: ValueBudget(scope)}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		if d != nil && d.BOMFails {
			return nil, 0, nil, r.errorf(0, "unexpected U+FEFF (a byte order mark)")
		}
		r.i = 3
		r.cOff = 3
	}
	r.skipSpace()
	v, err = r.value()
	if err != nil {
		return nil, 0, nil, err
	}
	r.skipSpace()
	return v, r.i, r.lossy, nil
}

// lenient reports whether text is decoded as JavaScript does: invalid
// UTF-8 and lone surrogates become U+FFFD instead of failing.
func (r *jsonReader) lenient() bool { return r.d != nil && r.d.Lenient }

// maxLossy bounds how many replaced positions one file records.
const maxLossy = 100

func (r *jsonReader) replaced(off int) {
	if len(r.lossy) < maxLossy {
		r.lossy = append(r.lossy, r.pos(off))
	}
}

func (r *jsonReader) skipSpace() {
	for r.i < len(r.data) {
		switch r.data[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		case '/':
			if r.d == nil || !r.d.Comments || !r.comment() {
				return
			}
		default:
			return
		}
	}
}

// comment skips the comment at r.i (d.Comments): "//" to the end of the
// line (its line break stays), "/*" to the next "*/". A line ends at a
// newline, and for JSONC readers (d.LineCommentCR) at a carriage return
// too: strip-json-comments does not end a line comment at a lone CR, VS
// Code's reader does. An unterminated block comment runs to the end of the
// input, where the value that should follow is missing.
func (r *jsonReader) comment() bool {
	if r.i+1 >= len(r.data) {
		return false
	}
	rest := r.data[r.i+2:]
	switch r.data[r.i+1] {
	case '/':
		var j int
		if r.d.LineCommentCR {
			j = bytes.IndexAny(rest, "\r\n")
		} else {
			j = bytes.IndexByte(rest, '\n')
		}
		if j >= 0 {
			r.i += 2 + j
		} else {
			r.i = len(r.data)
		}
	case '*':
		if j := bytes.Index(rest, []byte("*/")); j >= 0 {
			r.i += 2 + j + 2
		} else {
			r.i = len(r.data)
		}
	default:
		return false
	}
	return true
}

// closes reports whether a trailing comma (d.TrailingCommas) is followed
// by end, the closing bracket, and consumes it.
func (r *jsonReader) closes(v *jsonValue, end byte) bool {
	if r.d == nil || !r.d.TrailingCommas {
		return false
	}
	r.skipSpace()
	if r.i < len(r.data) && r.data[r.i] == end {
		r.i++
		v.end = int32(r.i)
		return true
	}
	return false
}

// value decodes one value with an explicit stack of the arrays and objects
// still open, so nesting costs heap memory (bounded by ValueBudget), never
// the goroutine's stack: agentty's parser has no depth limit, and neither
// does this one.
func (r *jsonReader) value() (*jsonValue, error) {
	var open []*jsonValue
	for {
		v, err := r.begin()
		if err != nil {
			return nil, err
		}
		if v.Kind == jsonArray || v.Kind == jsonObject {
			more, err := r.first(v)
			if err != nil {
				return nil, err
			}
			if more {
				open = append(open, v)
				continue
			}
		}
		// v is complete: add it to the innermost open value, and close
		// every value it completes in turn.
		for {
			if len(open) == 0 {
				return v, nil
			}
			p := open[len(open)-1]
			if p.Kind == jsonArray {
				p.Elems = append(p.Elems, v)
			} else {
				p.Members[len(p.Members)-1].Value = v
			}
			more, err := r.next(p)
			if err != nil {
				return nil, err
			}
			if more {
				break
			}
			open = open[:len(open)-1]
			v = p
		}
	}
}

// begin starts the value at r.i: a scalar is decoded whole, an array or
// object only opened.
func (r *jsonReader) begin() (*jsonValue, error) {
	r.values++
	if r.values > r.max {
		return nil, TooManyValues(r.scope, "JSON", r.pos(r.i).Line)
	}
	if r.i >= len(r.data) {
		return nil, r.errorf(r.i, "unexpected end of input")
	}
	start := r.i
	v := &jsonValue{at: packPos(r.pos(start))}
	switch c := r.data[r.i]; {
	case c == '{':
		v.Kind = jsonObject
		r.i++
		return v, nil
	case c == '[':
		v.Kind = jsonArray
		r.i++
		return v, nil
	case c == '"':
		s, err := r.str()
		if err != nil {
			return nil, err
		}
		v.Kind, v.Str = jsonString, s
	case c == 't':
		if err := r.literal("true"); err != nil {
			return nil, err
		}
		v.Kind, v.Bool = jsonBool, true
	case c == 'f':
		if err := r.literal("false"); err != nil {
			return nil, err
		}
		v.Kind = jsonBool
	case c == 'n':
		if err := r.literal("null"); err != nil {
			return nil, err
		}
		v.Kind = jsonNull
	case c == '-' || (c >= '0' && c <= '9'):
		if err := r.number(v); err != nil {
			return nil, err
		}
	default:
		return nil, r.errorf(r.i, "expected a value, found %s", describeByte(r.data, r.i))
	}
	v.end = int32(r.i)
	return v, nil
}

// describeByte names the byte at i for an error message, in the quotes the
// messages use for expected bytes ("expected ':'"), with no escape that a
// renderer would escape again: '"', "'", a backslash, byte 0x01.
func describeByte(data []byte, i int) string {
	switch c := data[i]; {
	case c == '\\':
		return "a backslash"
	case c == '\'':
		return `"'"`
	case c >= 0x21 && c < 0x7f:
		return "'" + string(c) + "'"
	default:
		return fmt.Sprintf("byte 0x%02x", c)
	}
}

func (r *jsonReader) literal(word string) error {
	if len(r.data)-r.i >= len(word) && string(r.data[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return nil
	}
	return r.errorf(r.i, "invalid literal, expected %q", word)
}

// first reads what follows the opening bracket of v: more is false when v
// is empty (and now closed), true when r.i is at its first element (for
// an object, after its first key and colon).
func (r *jsonReader) first(v *jsonValue) (more bool, err error) {
	r.skipSpace()
	end := byte(']')
	if v.Kind == jsonObject {
		end = '}'
	}
	if r.i < len(r.data) && r.data[r.i] == end {
		r.i++
		v.end = int32(r.i)
		return false, nil
	}
	if v.Kind == jsonObject {
		return true, r.key(v)
	}
	return true, nil
}

// next reads what follows an element of v: more is true when r.i is at
// the next element (for an object, after its key and colon), false when
// v is now closed.
func (r *jsonReader) next(v *jsonValue) (more bool, err error) {
	r.skipSpace()
	in, end := "array", byte(']')
	if v.Kind == jsonObject {
		in, end = "object", '}'
	}
	if r.i >= len(r.data) {
		return false, r.errorf(r.i, "unexpected end of input in %s", in)
	}
	switch r.data[r.i] {
	case ',':
		r.i++
		if r.closes(v, end) {
			return false, nil
		}
		if v.Kind == jsonObject {
			return true, r.key(v)
		}
		r.skipSpace()
		return true, nil
	case end:
		r.i++
		v.end = int32(r.i)
		return false, nil
	}
	return false, r.errorf(r.i, "expected ',' or '%c' in %s, found %s", end, in, describeByte(r.data, r.i))
}

// key reads an object member's key and colon, and adds the member with
// its value still to come.
func (r *jsonReader) key(v *jsonValue) error {
	r.skipSpace()
	if r.i >= len(r.data) {
		return r.errorf(r.i, "unexpected end of input in object")
	}
	if r.data[r.i] != '"' {
		return r.errorf(r.i, "expected a string key, found %s", describeByte(r.data, r.i))
	}
	kpos := r.pos(r.i)
	key, err := r.str()
	if err != nil {
		return err
	}
	r.skipSpace()
	if r.i >= len(r.data) {
		return r.errorf(r.i, "unexpected end of input after key")
	}
	if r.data[r.i] != ':' {
		return r.errorf(r.i, "expected ':' after key, found %s", describeByte(r.data, r.i))
	}
	r.i++
	r.skipSpace()
	v.Members = append(v.Members, jsonMember{Key: key, keyAt: packPos(kpos)})
	return nil
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

func (r *jsonReader) hex4(at int) (rune, bool) {
	if at+4 > len(r.data) {
		return 0, false
	}
	var x rune
	for k := 0; k < 4; k++ {
		h := hexVal(r.data[at+k])
		if h < 0 {
			return 0, false
		}
		x = x<<4 | h
	}
	return x, true
}

// str decodes a string starting at the opening quote.
// commonWord is s as a constant when it is one of the keys and values
// that configurations repeat for every server: a configuration of 100,000
// servers otherwise holds 100,000 copies of "command", "args" and "npx".
func commonWord(s []byte) (string, bool) {
	switch string(s) {
	case "command":
		return "command", true
	case "args":
		return "args", true
	case "env":
		return "env", true
	case "type":
		return "type", true
	case "url":
		return "url", true
	case "cwd":
		return "cwd", true
	case "disabled":
		return "disabled", true
	case "headers":
		return "headers", true
	case "stdio":
		return "stdio", true
	case "npx":
		return "npx", true
	case "-y":
		return "-y", true
	case "node":
		return "node", true
	case "uvx":
		return "uvx", true
	case "python":
		return "python", true
	case "python3":
		return "python3", true
	case "docker":
		return "docker", true
	case "run":
		return "run", true
	case "-i":
		return "-i", true
	case "--rm":
		return "--rm", true
	}
	return "", false
}

func (r *jsonReader) str() (string, error) {
	start := r.i
	r.i++
	// Fast path: no escapes.
	j := r.i
	for j < len(r.data) {
		c := r.data[j]
		if c == '"' {
			s := r.data[r.i:j]
			if !utf8.Valid(s) {
				break // slow path reports the exact position
			}
			r.i = j + 1
			if w, ok := commonWord(s); ok {
				return w, nil
			}
			return string(s), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		j++
	}
	var b []byte
	i := r.i
	for {
		if i >= len(r.data) {
			return "", r.errorf(start, "unterminated string")
		}
		c := r.data[i]
		switch {
		case c == '"':
			r.i = i + 1
			return string(b), nil
		case c < 0x20:
			return "", r.errorf(i, "control character 0x%02x in string (must be escaped)", c)
		case c == '\\':
			if i+1 >= len(r.data) {
				return "", r.errorf(start, "unterminated string")
			}
			e := r.data[i+1]
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				x, ok := r.hex4(i + 2)
				if !ok {
					return "", r.errorf(i, "invalid \\u escape")
				}
				i += 6
				switch {
				case utf16.IsSurrogate(x):
					if x < 0xDC00 && i+1 < len(r.data) && r.data[i] == '\\' && r.data[i+1] == 'u' {
						lo, ok := r.hex4(i + 2)
						if ok && lo >= 0xDC00 && lo <= 0xDFFF {
							b = utf8.AppendRune(b, utf16.DecodeRune(x, lo))
							i += 6
							continue
						}
					}
					if r.lenient() {
						r.replaced(i - 6)
						b = utf8.AppendRune(b, utf8.RuneError)
						continue
					}
					return "", r.errorf(i-6, "unpaired surrogate \\u%04X", x)
				}
				b = utf8.AppendRune(b, x)
				continue
			default:
				return "", r.errorf(i, "invalid escape '\\%c'", printable(e))
			}
			i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			rn, n := utf8.DecodeRune(r.data[i:])
			if rn == utf8.RuneError && n <= 1 {
				if r.lenient() {
					r.replaced(i)
					b = utf8.AppendRune(b, utf8.RuneError)
					i += maximalSubpart(r.data[i:])
					continue
				}
				return "", r.errorf(i, "invalid UTF-8 byte 0x%02x in string", c)
			}
			b = append(b, r.data[i:i+n]...)
			i += n
		}
	}
}

// maximalSubpart is how many bytes of an invalid UTF-8 sequence one U+FFFD
// replaces, as the WHATWG decoder (and so Node's readFileSync) counts them:
// the longest prefix of a well-formed sequence, at least one byte.
func maximalSubpart(b []byte) int {
	n, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		n = 2
	case c == 0xE0:
		n, lo = 3, 0xA0
	case c == 0xED:
		n, hi = 3, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		n = 3
	case c == 0xF0:
		n, lo = 4, 0x90
	case c >= 0xF1 && c <= 0xF3:
		n = 4
	case c == 0xF4:
		n, hi = 4, 0x8F
	default:
		return 1
	}
	k := 1
	for k < n && k < len(b) && b[k] >= lo && b[k] <= hi {
		k++
		lo, hi = 0x80, 0xBF
	}
	return k
}

func printable(c byte) rune {
	if c >= 0x21 && c < 0x7f {
		return rune(c)
	}
	return '?'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (r *jsonReader) number(v *jsonValue) error {
	start := r.i
	i := r.i
	if r.data[i] == '-' {
		i++
	}
	if i >= len(r.data) || !isDigit(r.data[i]) {
		return r.errorf(start, "invalid number")
	}
	if r.data[i] == '0' {
		i++
	} else {
		for i < len(r.data) && isDigit(r.data[i]) {
			i++
		}
	}
	isFloat := false
	if i < len(r.data) && r.data[i] == '.' {
		isFloat = true
		i++
		if i >= len(r.data) || !isDigit(r.data[i]) {
			return r.errorf(start, "invalid number: digits expected after '.'")
		}
		for i < len(r.data) && isDigit(r.data[i]) {
			i++
		}
	}
	if i < len(r.data) && (r.data[i] == 'e' || r.data[i] == 'E') {
		isFloat = true
		i++
		if i < len(r.data) && (r.data[i] == '+' || r.data[i] == '-') {
			i++
		}
		if i >= len(r.data) || !isDigit(r.data[i]) {
			return r.errorf(start, "invalid number: digits expected in exponent")
		}
		for i < len(r.data) && isDigit(r.data[i]) {
			i++
		}
	}
	text := string(r.data[start:i])
	v.Kind, v.Str = jsonNumber, text
	if !isFloat {
		if text[0] == '-' {
			if n, err := strconv.ParseInt(text, 10, 64); err == nil {
				v.Num, v.Int = float64(n), true
			}
		} else if n, err := strconv.ParseUint(text, 10, 64); err == nil {
			v.Num, v.Int = float64(n), true
		}
	}
	if !v.Int {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return r.errorf(start, "invalid number %q", text)
		}
		if math.IsInf(f, 0) && (r.d == nil || !r.d.Infinity) {
			return r.errorf(start, "number out of range: %s", text)
		}
		// Underflow to zero is accepted, as strtod does.
		v.Num = f
	}
	r.i = i
	return nil
}

// compactJSON renders a value the way nlohmann's dump() does with no
// indentation: this is what agentty passes to a server for a non-string
// argument or environment value.
func compactJSON(v *jsonValue) string {
	var b []byte
	b = appendCompact(b, v)
	return string(b)
}

// appendCompact walks v with an explicit stack, so that a value nested
// as deep as the decoder accepts costs heap, not goroutine stack.
func appendCompact(b []byte, v *jsonValue) []byte {
	type open struct {
		v       *jsonValue
		members []jsonMember // an object's, resolved
		next    int          // the next element or member to write
	}
	var stack []open
	for {
		switch v.Kind {
		case jsonNull:
			b = append(b, "null"...)
		case jsonBool:
			if v.Bool {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		case jsonNumber:
			switch {
			case !v.Int:
				b = appendNlohmannFloat(b, v.Num)
			case v.Str == "-0":
				// Integers are kept as written (no leading zeros or
				// signs other than '-' are valid), except "-0", which
				// nlohmann stores as the integer 0.
				b = append(b, '0')
			default:
				b = append(b, v.Str...)
			}
		case jsonString:
			b = appendNlohmannString(b, v.Str)
		case jsonArray:
			b = append(b, '[')
			stack = append(stack, open{v: v})
		case jsonObject:
			b = append(b, '{')
			stack = append(stack, open{v: v, members: resolvedMembers(v)})
		}
		// Find the next value to write, closing what is complete.
		v = nil
		for v == nil && len(stack) > 0 {
			o := &stack[len(stack)-1]
			i := o.next
			o.next++
			switch {
			case o.v.Kind == jsonArray && i < len(o.v.Elems):
				if i > 0 {
					b = append(b, ',')
				}
				v = o.v.Elems[i]
			case o.v.Kind == jsonObject && i < len(o.members):
				if i > 0 {
					b = append(b, ',')
				}
				b = appendNlohmannString(b, o.members[i].Key)
				b = append(b, ':')
				v = o.members[i].Value
			case o.v.Kind == jsonArray:
				b = append(b, ']')
				stack = stack[:len(stack)-1]
			default:
				b = append(b, '}')
				stack = stack[:len(stack)-1]
			}
		}
		if v == nil {
			return b
		}
	}
}

// nestingDepth is how many arrays and objects v holds inside each other,
// v included (0 for a scalar).
func nestingDepth(v *jsonValue) int {
	type at struct {
		v *jsonValue
		d int
	}
	deepest := 0
	stack := []at{{v, 1}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x.v.Kind {
		case jsonArray:
			for _, e := range x.v.Elems {
				stack = append(stack, at{e, x.d + 1})
			}
		case jsonObject:
			for _, m := range x.v.Members {
				stack = append(stack, at{m.Value, x.d + 1})
			}
		default:
			continue
		}
		deepest = max(deepest, x.d)
	}
	return deepest
}

// resolvedMembers returns an object's members as nlohmann holds them: one
// per key, the last duplicate winning, in bytewise key order.
func resolvedMembers(v *jsonValue) []jsonMember {
	last := make(map[string]int, len(v.Members))
	for i, m := range v.Members {
		last[m.Key] = i
	}
	out := make([]jsonMember, 0, len(last))
	for i, m := range v.Members {
		if last[m.Key] == i {
			out = append(out, m)
		}
	}
	sortMembers(out)
	return out
}

// appendNlohmannString writes s as nlohmann's dump() does with its default
// (non-ASCII kept) settings: '"' and '\\' escaped, \b \f \n \r \t by name,
// other control characters as \u00XX, everything else as is.
func appendNlohmannString(b []byte, s string) []byte {
	const hexd = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&0xf])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

// appendNlohmannFloat formats a double as nlohmann's to_chars does: the
// shortest digits that round-trip, plain notation when the decimal point
// falls within (-4, 15], exponent notation otherwise ("1e+20", "1.5e-07"),
// and ".0" appended when plain notation has no fraction.
func appendNlohmannFloat(b []byte, f float64) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// 'e' with precision -1 gives d.ddddde±XX with the shortest digits.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expPart, _ := strings.Cut(e, "e")
	digits := make([]byte, 0, len(mant))
	for i := 0; i < len(mant); i++ {
		if mant[i] != '.' {
			digits = append(digits, mant[i])
		}
	}
	exp10, _ := strconv.Atoi(expPart)
	k := len(digits)
	n := exp10 + 1 // position of the decimal point relative to the digits
	const minExp, maxExp = -4, 15
	switch {
	case k <= n && n <= maxExp:
		b = append(b, digits...)
		for i := k; i < n; i++ {
			b = append(b, '0')
		}
		return append(b, '.', '0')
	case 0 < n && n <= maxExp:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		return append(b, digits[n:]...)
	case minExp < n && n <= 0:
		b = append(b, '0', '.')
		for i := n; i < 0; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	b = append(b, digits[0])
	if k > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'e')
	x := n - 1
	if x < 0 {
		b = append(b, '-')
		x = -x
	} else {
		b = append(b, '+')
	}
	if x < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(x), 10)
}

func sortMembers(ms []jsonMember) {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Key < ms[j].Key })
}
