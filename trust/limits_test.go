package trust

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A file of millions of tiny values is refused rather than held in memory.
func TestParseRefusesTooManyValues(t *testing.T) {
	in := "[" + strings.Repeat("0,", MaxValues) + "0]"
	c := Parse("x.json", []byte(in), ScopeProject)
	if !errors.Is(c.Err, ErrTooManyValues) || len(c.Servers) != 0 {
		t.Fatalf("Err = %v (servers %d), want ErrTooManyValues and no servers", c.Err, len(c.Servers))
	}
	if len(c.Findings) != 1 || c.Findings[0].Rule != "MG301" {
		t.Fatalf("findings %+v, want one MG301", c.Findings)
	}
}

// 100,000 servers stay within the limits.
func TestParseManyServers(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"s%d":{"command":"npx","args":["-y","pkg@1.0.%d","--port",%d]}`, i, i, i)
	}
	b.WriteString(`}}`)
	c := Parse("x.json", []byte(b.String()), ScopeProject)
	if c.Err != nil || len(c.Servers) != 100_000 {
		t.Fatalf("Err = %v, %d servers; want 100000", c.Err, len(c.Servers))
	}
}

// Findings of one rule are capped per file, with one finding saying so.
func TestFindingsCappedPerRule(t *testing.T) {
	in := `{"mcpServers":{"a":{` + strings.Repeat(`"k":1,`, 5000) + `"command":"x"}}}`
	c := Parse("x.json", []byte(in), ScopeProject)
	n := 0
	for _, f := range c.Findings {
		if f.Rule == "MG302" {
			n++
		}
	}
	if n != MaxFindingsPerRule+1 {
		t.Fatalf("%d MG302 findings, want %d listed plus one summary", n, MaxFindingsPerRule)
	}
	last := c.Findings[len(c.Findings)-1]
	if !strings.Contains(last.Message, "not listed") {
		t.Fatalf("last finding %q does not say the rest are not listed", last.Message)
	}
	if len(c.Servers) != 1 {
		t.Fatalf("the cap must not change what is parsed: %d servers", len(c.Servers))
	}
}
