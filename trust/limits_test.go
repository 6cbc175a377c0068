package trust

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A file of millions of tiny values is refused rather than held in memory,
// as unreadable: agentty reads it.
func TestParseRefusesTooManyValues(t *testing.T) {
	in := "[" + strings.Repeat("0,", MaxValues) + "0]"
	c := Parse("x.json", []byte(in), ScopeProject)
	if !errors.Is(c.Err, ErrTooManyValues) || len(c.Servers) != 0 {
		t.Fatalf("Err = %v (servers %d), want ErrTooManyValues and no servers", c.Err, len(c.Servers))
	}
	if !c.Unreadable() || len(c.Findings) != 1 || c.Findings[0].Rule != "MG310" {
		t.Fatalf("unreadable %v, findings %+v; want one MG310", c.Unreadable(), c.Findings)
	}
	if msg := c.Findings[0].Message; !strings.Contains(msg, "mcp-guard cannot read this file (too many JSON values") || strings.Contains(msg, "agentty cannot") {
		t.Errorf("message %q", msg)
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

// A file mcp-guard refuses by its own limits is unreadable, never invalid
// the way agentty would reject it: its message does not claim that nothing
// runs, a project's says the launch stays blocked, and Diff claims nothing
// about its servers.
func TestUnreadableIsNotInvalid(t *testing.T) {
	const cfg = `{"mcpServers":{"a":{"command":"x"}}}`
	pad := func(n int) []byte { return []byte(cfg + strings.Repeat(" ", n-len(cfg))) }
	for _, tt := range []struct {
		name       string
		data       []byte
		scope      Scope
		unreadable bool
		rule       string // the one MG3xx finding; "" for none
		says       string
	}{
		{"at the size limit", pad(MaxFileSize), ScopeProject, false, "", ""},
		{"one byte over", pad(MaxFileSize + 1), ScopeProject, true, "MG310", "mcp-guard cannot read this file (file is too large: 16777217 bytes, the limit is 16777216); nothing in it counts as reviewed and launch stays blocked"},
		{"one byte over, the user's own", pad(MaxFileSize + 1), ScopeUser, true, "MG310", "mcp-guard cannot read this file (file is too large: 16777217 bytes, the limit is 16777216); what agentty runs from it is unknown"},
		{"a syntax error", []byte(`{"mcpServers":{"a":{"command":"x",}}}`), ScopeProject, false, "MG301", "agentty cannot parse this file, so none of its servers run"},
		{"deep", []byte(`{"mcpServers":{"a":{"command":"x","t":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`), ScopeProject, false, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse(".agentty/mcp.json", tt.data, tt.scope)
			if c.Unreadable() != tt.unreadable {
				t.Errorf("Unreadable() = %v (Err %v)", c.Unreadable(), c.Err)
			}
			if tt.unreadable && (!errors.Is(c.Err, ErrUnreadable) || !errors.Is(c.Err, ErrTooLarge) || c.Valid()) {
				t.Errorf("Err %v: want ErrUnreadable wrapping ErrTooLarge, not valid", c.Err)
			}
			if tt.rule == "" {
				if c.Err != nil || len(c.Findings) != 0 || len(c.Servers) != 1 {
					t.Fatalf("Err %v, findings %q, %d servers; want the server", c.Err, rules(c), len(c.Servers))
				}
				return
			}
			if len(c.Findings) != 1 || c.Findings[0].Rule != tt.rule || !strings.Contains(c.Findings[0].Message, tt.says) {
				t.Fatalf("findings %+v, want one %s saying %q", c.Findings, tt.rule, tt.says)
			}
			if tt.unreadable {
				if c.UnreadableText() != c.Findings[0].Message {
					t.Errorf("UnreadableText %q differs from the finding", c.UnreadableText())
				}
				old := Parse(".agentty/mcp.json", []byte(cfg), tt.scope)
				if ch := Diff(old, c, nil, nil, Grants{}); len(ch) != 0 {
					t.Errorf("Diff against it: %+v, want nothing claimed", ch)
				}
			}
		})
	}
}
