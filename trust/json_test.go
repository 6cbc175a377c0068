package trust

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
)

// These tests pin the JSON reader to nlohmann::json's default dialect
// (spec §2). Each case says what nlohmann does; none is derived from the
// reader's own output.

func TestDecodeJSONAcceptReject(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		ok    bool
		inErr string // substring of the error when !ok
	}{
		{"empty object", `{}`, true, ""},
		{"whitespace around", " \t\r\n{} \n", true, ""},
		{"bom", "\xEF\xBB\xBF{}", true, ""},
		{"bom then space", "\xEF\xBB\xBF \n{}", true, ""},
		{"partial bom", "\xEF\xBB{}", false, ""},
		{"bom not at start", " \xEF\xBB\xBF{}", false, ""},
		{"two boms", "\xEF\xBB\xBF\xEF\xBB\xBF{}", false, ""},
		{"empty input", ``, false, "end of input"},
		{"only whitespace", "  \n", false, "end of input"},
		{"only bom", "\xEF\xBB\xBF", false, "end of input"},
		{"scalar root", `"x"`, true, ""},
		{"number root", `12`, true, ""},
		{"null root", `null`, true, ""},
		{"array root", `[1,"a",null,true,false,{},[]]`, true, ""},
		{"comment", `{/*c*/}`, false, ""},
		{"line comment", "{}\n// c", true, ""}, // trailing: decoded value is fine
		{"comment inside", "{\"a\":1 // c\n}", false, ""},
		{"trailing comma object", `{"a":1,}`, false, ""},
		{"trailing comma array", `[1,]`, false, ""},
		{"leading comma", `[,1]`, false, ""},
		{"missing colon", `{"a" 1}`, false, "':'"},
		{"unquoted key", `{a:1}`, false, "string key"},
		{"single quotes", `{'a':1}`, false, ""},
		{"unterminated object", `{"a":1`, false, "end of input"},
		{"unterminated array", `[1`, false, "end of input"},
		{"unterminated string", `"abc`, false, "unterminated"},
		{"unterminated escape", `"abc\`, false, "unterminated"},
		{"literal true", `true`, true, ""},
		{"literal cut", `tru`, false, "literal"},
		{"literal case", `True`, false, ""},
		{"nul literal", `nul`, false, ""},
		{"NaN", `NaN`, false, ""},
		{"Infinity", `Infinity`, false, ""},
		{"plus number", `+1`, false, ""},
		{"lone minus", `-`, false, "number"},
		{"minus space", `- 1`, false, "number"},
		{"dot no digits", `1.`, false, "'.'"},
		{"dot leading", `.5`, false, ""},
		{"exp no digits", `1e`, false, "exponent"},
		{"exp sign no digits", `1e+`, false, "exponent"},
		{"hex number", `[0x10]`, false, ""},
		{"leading zero in array", `[01]`, false, ""},
		{"raw tab in string", "\"a\tb\"", false, "control character 0x09"},
		{"raw newline in string", "\"a\nb\"", false, "control character 0x0a"},
		{"raw NUL in string", "\"a\x00b\"", false, "control character 0x00"},
		{"raw 0x1f in string", "\"a\x1fb\"", false, "control character 0x1f"},
		{"raw DEL in string", "\"a\x7fb\"", true, ""},
		{"raw NUL outside string", "{\"a\":\x00}", false, ""},
		{"invalid utf8 ff", "\"\xff\"", false, "invalid UTF-8"},
		{"invalid utf8 continuation", "\"\x80\"", false, "invalid UTF-8"},
		{"invalid utf8 truncated", "\"\xc3\"", false, "invalid UTF-8"},
		{"invalid utf8 overlong", "\"\xc0\xaf\"", false, "invalid UTF-8"},
		{"invalid utf8 surrogate encoded", "\"\xed\xa0\x80\"", false, "invalid UTF-8"},
		{"invalid utf8 above max", "\"\xf4\x90\x80\x80\"", false, "invalid UTF-8"},
		{"invalid utf8 in key", "{\"\xff\":1}", false, "invalid UTF-8"},
		{"invalid utf8 after escape", "\"\\n\xff\"", false, "invalid UTF-8"},
		{"invalid utf8 outside string", "{\xff}", false, ""},
		{"valid utf8 4 byte", "\"\xf0\x9f\x98\x80\"", true, ""},
		{"escapes", `"\" \\ \/ \b \f \n \r \t \u0041"`, true, ""},
		{"bad escape", `"\a"`, false, "invalid escape"},
		{"bad escape x", `"\x41"`, false, "invalid escape"},
		{"short u escape", `"\u12"`, false, "\\u"},
		{"bad hex u escape", `"\u12g4"`, false, "\\u"},
		{"lone high surrogate", `"\ud800"`, false, "surrogate"},
		{"lone high surrogate then text", `"\ud800abc"`, false, "surrogate"},
		{"lone low surrogate", `"\udc00"`, false, "surrogate"},
		{"high then non-low", `"\ud800\u0041"`, false, "surrogate"},
		{"high then high", `"\ud800\udbff"`, false, "surrogate"},
		{"high then other escape", `"\ud800\n"`, false, "surrogate"},
		{"low then high", `"\udc00\ud800"`, false, "surrogate"},
		{"paired surrogates", `"\ud83d\ude00"`, true, ""},
		{"paired surrogates upper hex", `"\uD83D\uDE00"`, true, ""},
		{"max pair", `"\udbff\udfff"`, true, ""},
		{"huge exponent", `1e400`, false, "out of range"},
		{"huge negative", `-1e400`, false, "out of range"},
		{"huge mantissa", `[1.7976931348623159e308]`, false, "out of range"},
		{"max double", `[1.7976931348623157e308]`, true, ""},
		{"tiny exponent underflows", `1e-400`, true, ""},
		{"tiny negative underflows", `-1e-400`, true, ""},
		{"huge integer is a float", `123456789012345678901234567890`, true, ""},
		{"integer past double range", `[1` + strings.Repeat("0", 400) + `]`, false, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, end, err := decodeJSON([]byte(tt.in))
			if tt.ok {
				if err != nil {
					t.Fatalf("decodeJSON(%q) failed: %v", tt.in, err)
				}
				if v == nil {
					t.Fatalf("decodeJSON(%q): nil value without error", tt.in)
				}
				if end < 0 || end > len(tt.in) {
					t.Fatalf("end %d outside [0,%d]", end, len(tt.in))
				}
				return
			}
			if err == nil {
				t.Fatalf("decodeJSON(%q) = %s, want an error", tt.in, compactJSON(v))
			}
			if v != nil {
				t.Errorf("decodeJSON(%q) returned a value with its error", tt.in)
			}
			if tt.inErr != "" && !strings.Contains(err.Error(), tt.inErr) {
				t.Errorf("error %q does not mention %q", err, tt.inErr)
			}
		})
	}
}

func TestDecodeJSONStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"abc"`, "abc"},
		{`""`, ""},
		{`"\u0000"`, "\x00"},
		{`"a\u0000b"`, "a\x00b"},
		{`"\" \\ \/ \b \f \n \r \t"`, "\" \\ / \b \f \n \r \t"},
		{`"\u00e9"`, "é"},
		{`"\u00E9"`, "é"},
		{`"caf\u00e9 café"`, "café café"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\udbff\udfff"`, "\U0010FFFF"},
		{`"\u001b[31m"`, "\x1b[31m"},
		{`"\u202e"`, "\u202e"},
		{`"\ufeff"`, "\ufeff"},
		{"\"\x7f\"", "\x7f"},
		{`"日本"`, "日本"},
	}
	for _, tt := range tests {
		v, _, err := decodeJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("decodeJSON(%s): %v", tt.in, err)
			continue
		}
		if v.Kind != jsonString || v.Str != tt.want {
			t.Errorf("decodeJSON(%s) = %v %q, want string %q", tt.in, v.Kind, v.Str, tt.want)
		}
		if raw := v.raw([]byte(tt.in)); string(raw) != tt.in {
			t.Errorf("raw = %q, want %q", raw, tt.in)
		}
	}
}

// TestCompactNumbers pins how a number reaches a server's argv or env:
// nlohmann keeps integers that fit 64 bits (signed or unsigned) as written
// and prints every other number with its to_chars (shortest round trip,
// plain notation for decimal exponents in (-4, 15], ".0" added).
func TestCompactNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"}, // nlohmann stores -0 as the integer 0
		{"8080", "8080"},
		{"-42", "-42"},
		{"9223372036854775807", "9223372036854775807"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"9223372036854775808", "9223372036854775808"},   // fits uint64
		{"18446744073709551615", "18446744073709551615"}, // max uint64
		{"18446744073709551616", "1.8446744073709552e+19"},
		{"-9223372036854775809", "-9.223372036854776e+18"},
		{"12345678901234567890123", "1.2345678901234568e+22"},
		{"1e5", "100000.0"},
		{"1E5", "100000.0"},
		{"1e+5", "100000.0"},
		{"100000.0", "100000.0"},
		{"1.5", "1.5"},
		{"-1.5", "-1.5"},
		{"0.0", "0.0"},
		{"-0.0", "-0.0"},
		{"0e0", "0.0"},
		{"1e-400", "0.0"},
		{"-1e-400", "-0.0"},
		{"1e20", "1e+20"},
		{"1e15", "1e+15"},
		{"1e14", "100000000000000.0"},
		{"123456789012345.6", "123456789012345.6"},
		{"1234567890123456.7", "1.2345678901234568e+15"},
		{"0.0001", "0.0001"},
		{"0.00001", "1e-05"},
		{"0.000123", "0.000123"},
		{"0.0000123", "1.23e-05"},
		{"1.5e-7", "1.5e-07"},
		{"3.14159", "3.14159"},
		{"0.1", "0.1"},
		{"0.30000000000000004", "0.30000000000000004"},
		{"1e100", "1e+100"},
		{"1.7976931348623157e308", "1.7976931348623157e+308"},
		{"5e-324", "5e-324"},
		{"2.5e-324", "5e-324"},
		{"-1e-5", "-1e-05"},
		{"12.0", "12.0"},
		{"1.0e2", "100.0"},
	}
	for _, tt := range tests {
		v, end, err := decodeJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("decodeJSON(%s): %v", tt.in, err)
			continue
		}
		if end != len(tt.in) {
			t.Errorf("decodeJSON(%s): end %d, want %d", tt.in, end, len(tt.in))
		}
		if v.Kind != jsonNumber {
			t.Errorf("decodeJSON(%s) kind %v", tt.in, v.Kind)
			continue
		}
		if got := compactJSON(v); got != tt.want {
			t.Errorf("compactJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestAppendNlohmannFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-1, "-1.0"},
		{100000, "100000.0"},
		{1e15, "1e+15"},
		{1e16, "1e+16"},
		{999999999999999, "999999999999999.0"},
		{1e21, "1e+21"},
		{1.5e300, "1.5e+300"},
		{0.001, "0.001"},
		{1e-5, "1e-05"},
		{1.25e-10, "1.25e-10"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.SmallestNonzeroFloat64, "5e-324"},
		{2.5, "2.5"},
	}
	for _, tt := range tests {
		if got := string(appendNlohmannFloat(nil, tt.f)); got != tt.want {
			t.Errorf("appendNlohmannFloat(%v) = %s, want %s", tt.f, got, tt.want)
		}
	}
}

func TestCompactJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`null`, `null`},
		{`true`, `true`},
		{`false`, `false`},
		{` [ "a" , 1 , {"b" : 1} ] `, `["a",1,{"b":1}]`},
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},                              // bytewise key order
		{`{"a":1,"a":2}`, `{"a":2}`},                                    // last duplicate wins
		{`{"a":{"x":1},"a":{"y":2}}`, `{"a":{"y":2}}`},                  // replaced, not merged
		{`{"é":1,"z":2,"B":3,"a":4}`, `{"B":3,"a":4,"z":2,"é":1}`},      // bytewise
		{`"q\"b\\s/\b\f\n\r\t"`, `"q\"b\\s/\b\f\n\r\t"`},                // '/' is not escaped
		{`"\u0000\u0001\u001f\u007f"`, "\"\\u0000\\u0001\\u001f\x7f\""}, // controls as \u00XX, DEL raw
		{`"é\u00e9😀"`, "\"éé😀\""},                                       // non-ASCII kept raw
		{`"\u202e"`, "\"\u202e\""},
		{`[1e5,-0,1.5]`, `[100000.0,0,1.5]`},
		{`{}`, `{}`},
		{`[]`, `[]`},
		{`{"":""}`, `{"":""}`},
	}
	for _, tt := range tests {
		v, _, err := decodeJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("decodeJSON(%s): %v", tt.in, err)
			continue
		}
		if got := compactJSON(v); got != tt.want {
			t.Errorf("compactJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestDecodeJSONEnd(t *testing.T) {
	tests := []struct {
		in  string
		end int
	}{
		{`{}`, 2},
		{"{} \n\t\r", 6},
		{`{}{}`, 2},
		{`{} junk`, 3},
		{"{}\n{\"a\":1}", 3},
		{`1.5x`, 3},
		{`01`, 1}, // nlohmann reads "0" and stops: the "1" is trailing
		{`truex`, 4},
		{`"a""b"`, 3},
		{"\xEF\xBB\xBF{} x", 6},
		{"[]\x00", 2},
	}
	for _, tt := range tests {
		_, end, err := decodeJSON([]byte(tt.in))
		if err != nil {
			t.Errorf("decodeJSON(%q): %v", tt.in, err)
			continue
		}
		if end != tt.end {
			t.Errorf("decodeJSON(%q): end %d, want %d", tt.in, end, tt.end)
		}
	}
}

func TestDecodeJSONDuplicatesKept(t *testing.T) {
	v, _, err := decodeJSON([]byte(`{"a":1,"b":2,"a":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Members) != 3 {
		t.Fatalf("members %d, want 3 (duplicates kept in source order)", len(v.Members))
	}
	m, ok := v.get("a")
	if !ok || compactJSON(m.Value) != "3" {
		t.Fatalf("get(a) = %v, want the last duplicate 3", m)
	}
	if m.KeyPos().Column != 14 {
		t.Errorf("get(a) key column %d, want 14 (the last duplicate's)", m.KeyPos().Column)
	}
	if _, ok := v.get("A"); ok {
		t.Errorf("get is case-insensitive")
	}
}

func TestDecodeJSONPositions(t *testing.T) {
	// Columns count code points, not bytes; the BOM is not a column.
	in := "\xEF\xBB\xBF{\"é日\": {\"k\": 1},\n" +
		"\t\"😀x\":\r\n" +
		"  [true, \"\\u00e9\", \"z\"]}"
	v, _, err := decodeJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if v.Pos() != (Pos{Offset: 3, Line: 1, Column: 1}) {
		t.Errorf("root pos %+v", v.Pos())
	}
	m0 := v.Members[0]
	if m0.KeyPos().Line != 1 || m0.KeyPos().Column != 2 {
		t.Errorf("key é日 at %d:%d, want 1:2", m0.KeyPos().Line, m0.KeyPos().Column)
	}
	if k := m0.Value.Members[0].KeyPos(); k.Line != 1 || k.Column != 9 {
		t.Errorf("key k at %d:%d, want 1:9", k.Line, k.Column)
	}
	m1 := v.Members[1]
	if m1.KeyPos().Line != 2 || m1.KeyPos().Column != 2 {
		t.Errorf("key 😀x at %d:%d, want 2:2 (a tab is one column)", m1.KeyPos().Line, m1.KeyPos().Column)
	}
	arr := m1.Value
	if arr.Pos().Line != 3 || arr.Pos().Column != 3 {
		t.Errorf("array at %d:%d, want 3:3 (\\r\\n is one line break)", arr.Pos().Line, arr.Pos().Column)
	}
	want := []Pos{{Line: 3, Column: 4}, {Line: 3, Column: 10}, {Line: 3, Column: 20}}
	for i, e := range arr.Elems {
		if e.Pos().Line != want[i].Line || e.Pos().Column != want[i].Column {
			t.Errorf("element %d at %d:%d, want %d:%d", i, e.Pos().Line, e.Pos().Column, want[i].Line, want[i].Column)
		}
		if raw, want := string(e.raw([]byte(in))), []string{"true", `"\u00e9"`, `"z"`}[i]; raw != want {
			t.Errorf("element %d: source text %q, want %q", i, raw, want)
		}
	}
}

func TestDecodeJSONErrorPositions(t *testing.T) {
	tests := []struct {
		in         string
		line, col  int
		msgContain string
	}{
		{"{\n  \"a\": 1,\n  \"b\": x\n}", 3, 8, "expected a value, found 'x'"},
		{"{\"é\": \"\xff\"}", 1, 8, "invalid UTF-8"},
		{"[\n\"日本\", \"a\tb\"]", 2, 9, "control character"},
		{"[\"ab\", \"\\ud800\"]", 1, 9, "surrogate"},
		{"{\n\n  \"n\": 1e400}", 3, 8, "out of range"},
		{"{\"a\" 1}", 1, 6, "':'"},
	}
	for _, tt := range tests {
		_, _, err := decodeJSON([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("decodeJSON(%q) error %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Pos.Line != tt.line || se.Pos.Column != tt.col {
			t.Errorf("decodeJSON(%q) error at %d:%d, want %d:%d (%v)", tt.in, se.Pos.Line, se.Pos.Column, tt.line, tt.col, err)
		}
		if !strings.Contains(se.Error(), tt.msgContain) {
			t.Errorf("error %q does not mention %q", se, tt.msgContain)
		}
	}
}

// agentty's parser has no depth limit, and neither has this one: deep
// files decode, whole, with memory in proportion to the input.
func TestDecodeJSONDepth(t *testing.T) {
	nest := func(n int, open, inner, close string) []byte {
		return []byte(strings.Repeat(open, n) + inner + strings.Repeat(close, n))
	}
	for _, tt := range []struct {
		name  string
		in    []byte
		depth int
		err   string // "" when it decodes
	}{
		{"1,000 arrays", nest(1000, "[", "", "]"), 1000, ""},
		{"1,001 arrays", nest(1001, "[", "", "]"), 1001, ""},
		{"100,000 arrays", nest(100000, "[", "", "]"), 100000, ""},
		{"100,000 objects", nest(100000, `{"a":`, "1", "}"), 100000, ""},
		{"100,000 mixed", nest(50000, `{"a":[`, `"x"`, "]}"), 100000, ""},
		{"wide", []byte("[" + strings.Repeat("[[]],", 5000) + "[]]"), 3, ""},
		{"100,000 arrays, unclosed", []byte(strings.Repeat("[", 100000)), 0, "unexpected end of input"},
		{"100,000 objects, unclosed", []byte(strings.Repeat(`{"a":`, 100000)), 0, "unexpected end of input"},
		{"100,000 arrays, one left open", nest(100000, "[", "", "]")[:199999], 0, "unexpected end of input in array"},
		{"deep, then a trailing comma", nest(100000, "[", "1,", "]"), 0, `expected a value, found ']'`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, end, err := decodeJSON(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if end != len(tt.in) || !bytes.Equal(v.raw(tt.in), tt.in) {
				t.Errorf("end %d of %d, raw %d bytes", end, len(tt.in), len(v.raw(tt.in)))
			}
			if d := nestingDepth(v); d != tt.depth {
				t.Errorf("depth %d, want %d", d, tt.depth)
			}
			// The compact form walks the same depth without recursion.
			if got := compactJSON(v); got != string(tt.in) {
				t.Errorf("compact form differs from the (already compact) input")
			}
		})
	}
}

// Nesting costs heap in proportion to the input (a value per level, a
// slot on the decoder's stack), never goroutine stack: 100,000 levels take
// a bounded, generous amount, and 1,000,000 about ten times that.
func TestDecodeJSONDepthMemory(t *testing.T) {
	alloc := func(levels int) uint64 {
		in := []byte(strings.Repeat("[", levels) + strings.Repeat("]", levels))
		var err error
		n := hostile.Allocated(func() { _, _, err = decodeJSON(in) })
		if err != nil {
			t.Fatalf("%d levels: %v", levels, err)
		}
		return n
	}
	small, big := alloc(100_000), alloc(1_000_000)
	t.Logf("100,000 levels: %d bytes; 1,000,000: %d", small, big)
	if small > 100_000*400 {
		t.Errorf("100,000 levels allocated %d bytes, want at most 400 a level", small)
	}
	if big > 15*small {
		t.Errorf("1,000,000 levels allocated %d bytes, more than 15 times what 100,000 do (%d)", big, small)
	}
}

func BenchmarkDecodeDeep(b *testing.B) {
	in := []byte(strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := decodeJSON(in); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDescribeByteReadable: the byte a parse error found is named without
// escapes a renderer would double (issue 14: `found "\\""`).
func TestDescribeByteReadable(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"x" "y"}`, `found '"'`},
		{`{"a":1 'b'}`, `found "'"`},
		{`{"a":\x}`, "expected a value, found a backslash"},
		{"{\"a\":1 \x01}", "found byte 0x01"},
		{`{"a":1,}`, `expected a string key, found '}'`},
	}
	for _, tt := range tests {
		_, _, err := decodeJSON([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.in, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), `\`) {
			t.Errorf("%q: %v has a backslash", tt.in, err)
		}
	}
}

// TestDecodeSharesCommonWords: keys and values every server repeats are
// one string however many servers hold them, and decode as written.
func TestDecodeSharesCommonWords(t *testing.T) {
	doc := []byte(`{"a":{"command":"npx","args":["-y","pkg-1"]},"b":{"command":"npx","args":["-y","pkg-2"]}}`)
	v, _, err := decodeJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	a, b := v.Members[0].Value, v.Members[1].Value
	for i, want := range []string{"command", "args"} {
		if a.Members[i].Key != want || b.Members[i].Key != want {
			t.Fatalf("keys %q %q", a.Members[i].Key, b.Members[i].Key)
		}
		if unsafe.StringData(a.Members[i].Key) != unsafe.StringData(b.Members[i].Key) {
			t.Errorf("%q decoded as two copies", want)
		}
	}
	if x, y := a.Members[0].Value.Str, b.Members[0].Value.Str; x != "npx" || unsafe.StringData(x) != unsafe.StringData(y) {
		t.Errorf("command %q: two copies", x)
	}
	if x, y := a.Members[1].Value.Elems[1].Str, b.Members[1].Value.Elems[1].Str; x != "pkg-1" || y != "pkg-2" {
		t.Errorf("args %q %q", x, y)
	}
}
