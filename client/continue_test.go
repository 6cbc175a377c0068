package client

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// cn serve runs install with a shell when it is a non-empty string; a
// falsy one runs nothing; any other value leaves what runs unknown.
func TestContinueEnvironment(t *testing.T) {
	tests := []struct {
		data    string
		line    string // "" no entry
		unknown bool
		invalid bool
	}{
		{`{"install": "npm ci && node setup.js"}`, "npm ci && node setup.js", false, false},
		{`{"install": ""}`, "", false, false},
		{`{"install": null}`, "", false, false},
		{`{"install": false}`, "", false, false},
		{`{"other": "x"}`, "", false, false},
		{`{"install": ["sh", "x"]}`, "", true, false},
		{`{"install": "x"`, "", false, true},
		// JSON.parse's reading, held against node 20: the last duplicate
		// wins, 0 is falsy, 1e400 is Infinity (truthy, not a string),
		// invalid UTF-8 and a lone surrogate are U+FFFD, a byte order
		// mark or bytes after the value fail the file, and a value that
		// is not an object holds no install (cn reads config.install).
		{`{"install": "x", "install": ""}`, "", false, false},
		{`{"install": "", "install": "make"}`, "make", false, false},
		{`{"install": 0}`, "", false, false},
		{`{"install": -0.0}`, "", false, false},
		{`{"install": 1}`, "", true, false},
		{`{"install": 1e400}`, "", true, false},
		{`{"install": true}`, "", true, false},
		{`{"install": {}}`, "", true, false},
		{"{\"install\": \"a\xffb\"}", "a\ufffdb", false, false},
		{`{"install": "\ud800x"}`, "\ufffdx", false, false},
		{"\xef\xbb\xbf{\"install\": \"x\"}", "", false, true},
		{`{"install": "x"} {}`, "", false, true},
		{`{"install": "x"} // x`, "", false, true},
		{`["install"]`, "", false, false},
		{`"install"`, "", false, false},
		{`null`, "", false, false},
	}
	for _, tt := range tests {
		c := continueClient{}.Parse("/w/.continue/environment.json", []byte(tt.data))
		if got := c.UnreadableText() != ""; got != tt.unknown {
			t.Errorf("%s: unknown %v, want %v", tt.data, got, tt.unknown)
		}
		if (c.Err != nil && !tt.unknown) != tt.invalid {
			t.Errorf("%s: err %v, want invalid %v", tt.data, c.Err, tt.invalid)
		}
		if tt.line == "" {
			if len(c.Servers) != 0 {
				t.Errorf("%s: %d entries", tt.data, len(c.Servers))
			}
			continue
		}
		if len(c.Servers) != 1 {
			t.Fatalf("%s: %d entries", tt.data, len(c.Servers))
		}
		s := c.Servers[0]
		if got := append([]string{s.SpawnCommand()}, s.SpawnArgs()...); !slices.Equal(got, []string{"/bin/sh", "-c", tt.line}) || s.Kind != EntryInstall {
			t.Errorf("%s: %q kind %q", tt.data, got, s.Kind)
		}
	}
}

// Read from the start directory only; headless-only verdict.
func TestContinueConfigs(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.continue/environment.json", `{"install": "make setup"}`)
	f.write("repo/sub/.keep", "")
	v := verdictOf(t, f.evaluate(Continue, "repo"), EntryInstall)
	if v.Interactive || !v.Headless || !strings.Contains(v.Why, "cn serve") {
		t.Errorf("verdict %+v", v)
	}
	if ev, err := Evaluate(f.root+"/repo/sub", f.env()); err != nil || len(ev.Clients) != 0 {
		t.Errorf("from a subdirectory: %+v %v", ev, err)
	}
	cn := continueClient{}
	if cn.Unhanded([]string{"serve"}) == "" || cn.Unhanded([]string{"-p", "hi"}) != "" {
		t.Error("Unhanded: serve only")
	}
}

// TestContinuePastValueBudget: cn's file is decoded with encoding/json,
// which builds every value of it: a file past a repository file's value
// budget is unreadable (the gate stays closed), one within it reads.
func TestContinuePastValueBudget(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want bool
	}{{trust.MaxRepoValues - 3, true}, {trust.MaxRepoValues - 2, false}} {
		data := []byte(`{"install":"npm i","x":[` + strings.TrimSuffix(strings.Repeat("0,", tc.n), ",") + `]}`)
		c := Lookup(Continue).Parse(".continue/cn.json", data)
		if c.Valid() != tc.want || !tc.want && !errors.Is(c.Err, trust.ErrTooManyValues) {
			t.Errorf("%d values: valid %v (%v), want %v", tc.n, c.Valid(), c.Err, tc.want)
		}
		if want := "mcp-guard cannot read this file (too many JSON values: more than 200,000 by line 1, the most mcp-guard reads from a repository's file"; !tc.want && !strings.HasPrefix(c.UnreadableText(), want) {
			t.Errorf("%d values: %q, want it to start %q", tc.n, c.UnreadableText(), want)
		}
	}
}

// BenchmarkContinueParse: the repository's .continue/environment.json
// through ParseFile, as every reader of it parses it: an everyday file, a
// file packed to a repository file's value budget (read) and one value
// past it (refused).
func BenchmarkContinueParse(b *testing.B) {
	packed := func(n int) []byte {
		return []byte(`{"install":"npm i","x":[` + strings.TrimSuffix(strings.Repeat("0,", n), ",") + `]}`)
	}
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"everyday", []byte("{\n  \"install\": \"npm ci && node scripts/setup.js\"\n}\n")},
		{"at-budget", packed(trust.MaxRepoValues - 3)},
		{"past-budget", packed(trust.MaxRepoValues - 2)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cn := Lookup(Continue)
			b.SetBytes(int64(len(bc.data)))
			b.ReportAllocs()
			for b.Loop() {
				ParseFile(cn, "/w/.continue/environment.json", bc.data)
			}
		})
	}
}
