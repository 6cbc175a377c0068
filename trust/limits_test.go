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

// manyServers is a configuration of n small servers in agentty's form.
func manyServers(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"s%d":{"command":"npx","args":["-y","pkg@1.0.%d","--port","%d"]}`, i, i, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// The user's own file of 100,000 servers is read: a repository-sized
// budget never makes the user's own file unreadable.
func TestParseManyServersOfTheUser(t *testing.T) {
	for _, scope := range []Scope{ScopeUser, ScopeExplicit} {
		c := Parse("x.json", manyServers(100_000), scope)
		if c.Err != nil || len(c.Servers) != 100_000 {
			t.Fatalf("%s: Err = %v, %d servers; want 100000", scope, c.Err, len(c.Servers))
		}
	}
}

// A repository's file declares at most MaxServers servers: one more is
// unreadable (the gate stays closed), with a message that names the count,
// the limit and what to do, in agentty's reader and in every dialect.
func TestRepoServersPerFile(t *testing.T) {
	at, over := manyServers(MaxServers), manyServers(MaxServers+1)
	for _, d := range []*Dialect{nil, ClaudeCode, Cursor, VSCode} {
		name := "agentty"
		if d != nil {
			name = d.Client
		}
		t.Run(name, func(t *testing.T) {
			conv := func(data []byte) []byte {
				if d != nil && d.ServersKey != "mcpServers" {
					return []byte(strings.Replace(string(data), `"mcpServers"`, `"`+d.ServersKey+`"`, 1))
				}
				return data
			}
			if c := ParseDialect("x.json", conv(at), ScopeProject, d); c.Err != nil || len(c.Servers) != MaxServers {
				t.Fatalf("at the limit: Err %v, %d servers", c.Err, len(c.Servers))
			}
			c := ParseDialect("x.json", conv(over), ScopeProject, d)
			if !c.Unreadable() || !errors.Is(c.Err, ErrTooManyServers) || len(c.Servers) != 0 || c.SHA256 != FileHash(conv(over)) {
				t.Fatalf("one over: Err %v, unreadable %v, %d servers; want unreadable, none", c.Err, c.Unreadable(), len(c.Servers))
			}
			if c.Dialect != d {
				t.Errorf("dialect %v, want %v", c.Dialect, d)
			}
			want := "mcp-guard cannot read this file (the file declares 1,001 servers, and mcp-guard reviews at most 1,000 in one repository file (real configurations declare tens): remove the servers the project does not use); nothing in it counts as reviewed and launch stays blocked"
			if len(c.Findings) != 1 || c.Findings[0].Rule != "MG310" || c.Findings[0].Message != want {
				t.Errorf("findings %+v\nwant one MG310: %s", c.Findings, want)
			}
			if u := ParseDialect("x.json", conv(over), ScopeUser, d); u.Err != nil || len(u.Servers) != MaxServers+1 {
				t.Errorf("the user's own: Err %v, %d servers; want all read", u.Err, len(u.Servers))
			}
		})
	}
}

// A repository's file holds at most MaxRepoValues values, in every reader
// of trust (configurations, settings, agentty's other files); the user's
// own holds up to MaxValues. The budget counts every value, nested or not.
func TestRepoValueBudget(t *testing.T) {
	flat := func(n int) []byte { // an object, n values in all
		return []byte(`{"pad":[` + strings.Repeat("0,", n-3) + `0]}`)
	}
	at, over := flat(MaxRepoValues), flat(MaxRepoValues+1)
	readers := map[string]func(data []byte, user bool) error{
		"Parse": func(data []byte, user bool) error {
			scope := ScopeProject
			if user {
				scope = ScopeUser
			}
			return Parse("x.json", data, scope).Err
		},
		"ParseDialect": func(data []byte, user bool) error {
			scope := ScopeProject
			if user {
				scope = ScopeUser
			}
			c := ParseDialect("x.json", data, scope, &Dialect{Client: "Test", ServersKey: "mcpServers", ServersOptional: true})
			return c.Err
		},
		"DecodeDialect": func(data []byte, user bool) error {
			if user {
				_, err := DecodeUserDialect(data, ClaudeCode)
				return err
			}
			_, err := DecodeDialect(data, ClaudeCode)
			return err
		},
		"DecodeFirst": func(data []byte, user bool) error {
			if user {
				return nil // agentty's other files are a repository's only
			}
			_, err := DecodeFirst(data)
			return err
		},
	}
	for name, read := range readers {
		t.Run(name, func(t *testing.T) {
			if err := read(at, false); err != nil {
				t.Errorf("at the budget: %v", err)
			}
			err := read(over, false)
			if !errors.Is(err, ErrTooManyValues) || !errors.Is(err, ErrUnreadable) {
				t.Fatalf("one over: %v, want unreadable, too many values", err)
			}
			if !strings.Contains(err.Error(), "more than 200,000 by line 1, the most mcp-guard reads from a repository's file") {
				t.Errorf("message %q", err)
			}
			if err := read(over, true); err != nil {
				t.Errorf("the user's own, one over the repository's budget: %v", err)
			}
		})
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

// A server's arguments are held in exactly their room: appended one by
// one they held up to twice it, which at the repository's value budget
// (1,000 servers of 196 arguments) was 22 MB instead of 13. An empty
// array stays nil.
func TestArgsHeldInTheirRoom(t *testing.T) {
	args := `"a"` + strings.Repeat(`,"a"`, 195)
	for _, d := range []*Dialect{nil, ClaudeCode} {
		c := ParseDialect("x.json", []byte(`{"mcpServers":{"s":{"command":"x","args":[`+args+`]},"e":{"command":"x","args":[]}}}`), ScopeProject, d)
		if c.Err != nil || len(c.Servers) != 2 {
			t.Fatalf("Err %v, %d servers", c.Err, len(c.Servers))
		}
		if s := c.Server("s"); len(s.Args) != 196 || cap(s.Args) != 196 {
			t.Errorf("%v: %d arguments in room for %d", d, len(s.Args), cap(s.Args))
		}
		if e := c.Server("e"); e.Args != nil {
			t.Errorf("%v: an empty args is %#v, want nil", d, e.Args)
		}
	}
}
