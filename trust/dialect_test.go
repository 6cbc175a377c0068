package trust

import (
	"strings"
	"testing"
)

func TestMaximalSubpart(t *testing.T) {
	for _, tt := range []struct {
		in string
		n  int
	}{
		{"\xff", 1}, {"\x80", 1}, {"\xc0\xaf", 1}, {"\xe2\x82", 2}, {"\xe2\x82x", 2},
		{"\xe0\x80", 1}, {"\xed\xa0\x80", 1}, {"\xf0\x9f\x98", 3}, {"\xf4\x90", 1}, {"\xf5", 1},
	} {
		if got := maximalSubpart([]byte(tt.in)); got != tt.n {
			t.Errorf("%q: %d, want %d", tt.in, got, tt.n)
		}
	}
}

func TestDecodeDialect(t *testing.T) {
	v, err := DecodeDialect([]byte("\xEF\xBB\xBF{\"a\":[\"x\",true],\"a\":[\"\xff\"],\"n\":1e400,\"b\":false}"), ClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := v.Get("a")
	if e := a.Elems(); len(e) != 1 {
		t.Fatalf("last duplicate does not win: %d elements", len(e))
	} else if s, _ := e[0].Str(); s != "\uFFFD" {
		t.Errorf("invalid UTF-8 read as %q", s)
	}
	if n, _ := v.Get("n"); n.Num() < 1e308 {
		t.Errorf("1e400 read as %v", n.Num())
	}
	if b, ok := v.Get("b"); ok {
		if x, isBool := b.Bool(); x || !isBool {
			t.Error("false")
		}
	}
	for _, bad := range []string{`{} x`, `{"a":1,}`, `// c` + "\n{}", `{"a":1e400}`} {
		d := ClaudeCode
		if strings.Contains(bad, "1e400") {
			d = nil // agentty's: out of range
		}
		if _, err := DecodeDialect([]byte(bad), d); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
