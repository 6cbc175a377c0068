package policy

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcp-guard/mcp-guard/trust"
)

// ignoreFileSample is the valid file TestParseIgnoreFile reads; it also
// seeds FuzzIgnoreFile.
const ignoreFileSample = `# Suppressions for this repository's CI.
---
version: 1
ignore:
  - rule: MG204          # npx without a version
    reason: "pinned by renovate: see #42"
  - rules: [MG105, 'shell-wrapper']
    paths:
      - examples/**
      - "**/fixtures/*.json"
    reason: examples are never launched
  -   server: legacy-db
      reason: it's 'known' # trailing comment
  - path: docs/.agentty/mcp.json
    servers: [a, "b c"]
    rule: MG401
    reason: 'the token is a dummy: it''s revoked'
`

func TestParseIgnoreFile(t *testing.T) {
	g, err := ParseIgnoreFile(".mcp-guard.yaml", []byte(ignoreFileSample))
	if err != nil {
		t.Fatal(err)
	}
	want := []IgnoreRule{
		{Rules: []string{"MG204"}, Reason: "pinned by renovate: see #42", Line: 5},
		{Rules: []string{"MG105", "shell-wrapper"}, Paths: []string{"examples/**", "**/fixtures/*.json"}, Reason: "examples are never launched", Line: 7},
		{Servers: []string{"legacy-db"}, Reason: "it's 'known'", Line: 12},
		{Rules: []string{"MG401"}, Paths: []string{"docs/.agentty/mcp.json"}, Servers: []string{"a", "b c"}, Reason: "the token is a dummy: it's revoked", Line: 14},
	}
	if !reflect.DeepEqual(g.Rules, want) {
		t.Fatalf("got  %+v\nwant %+v", g.Rules, want)
	}

	f := func(rule, slug, path, server string) trust.Finding {
		return trust.Finding{Rule: rule, Slug: slug, Path: path, Server: server}
	}
	matches := []struct {
		f    trust.Finding
		line int
	}{
		{f("MG204", "unpinned-package", ".agentty/mcp.json", "x"), 5},
		{f("MG105", "repo-code-unbound", "examples/a/.agentty/mcp.json", "x"), 7},
		{f("MG202", "shell-wrapper", "x/fixtures/c.json", "x"), 7},
		{f("MG202", "shell-wrapper", "fixtures/c.json", "x"), 7},
		{f("MG201", "fetch-and-exec", ".agentty/mcp.json", "legacy-db"), 12},
		{f("MG401", "literal-secret", "docs/.agentty/mcp.json", "b c"), 14},
		{f("MG105", "repo-code-unbound", ".agentty/mcp.json", "x"), 0},
		{f("MG401", "literal-secret", "docs/.agentty/mcp.json", "c"), 0},
		{f("MG401", "literal-secret", ".agentty/mcp.json", "a"), 0},
		{f("MG301", "invalid-config", ".agentty/mcp.json", ""), 0},
	}
	for _, m := range matches {
		r := g.Match(m.f)
		got := 0
		if r != nil {
			got = r.Line
		}
		if got != m.line {
			t.Errorf("%+v matched entry at line %d, want %d", m.f, got, m.line)
		}
	}
}

// ignoreFileErrors maps files to a word of the error each must get; they
// also seed FuzzIgnoreFile.
var ignoreFileErrors = map[string]string{
	"version: 2\n":                                               "version",
	"ignore:\n  - rule: MG204\n":                                 "no reason",
	"ignore:\n  - reason: why\n":                                 "selects nothing",
	"ignore:\n  - rule: MG999\n    reason: x\n":                  "unknown rule",
	"ignore:\n  - rule: MG204\n    reasn: x\n":                   "unknown key",
	"ignore:\n  - rule: MG204\n    reason: ''\n":                 "no reason",
	"ignore:\n\t- rule: MG204\n":                                 "tabs",
	"ignore:\n  - rule: &a MG204\n    reason: x\n":               "unsupported",
	"ignore:\n  - rule: MG204\n    reason: |\n      x\n":         "unsupported",
	"ignore:\n  - {rule: MG204, reason: x}\n":                    "flow mapping",
	"ignores:\n  - rule: MG204\n":                                "unknown key",
	"version: 1\nversion: 1\n":                                   "duplicate",
	"ignore:\n  - rule: MG204\n    rule: MG205\n    reason: x\n": "duplicate",
	"ignore:\n  - rule: MG204\n    reason: \"open\n":             "unterminated",
	"ignore:\n  - rules: [MG204,\n    reason: x\n":               "list",
	"ignore:\n  - rule: MG204\n      reason: x\n":                "indentation",
	"version: 1\n---\nversion: 1\n":                              "one YAML document",
	"ignore:\n  - paths: ['[']\n    reason: x\n":                 "bad path pattern",
	"ignore: [MG204]\n":                                          "list of entries",
}

func TestParseIgnoreFileErrors(t *testing.T) {
	for src, want := range ignoreFileErrors {
		_, err := ParseIgnoreFile("f.yaml", []byte(src))
		if err == nil || !errors.Is(err, ErrIgnoreFile) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one containing %q", src, err, want)
		}
	}
	for _, ok := range []string{"", "# nothing\n", "version: 1\n", "ignore: []\n", "version: 1\nignore:\n"} {
		if _, err := ParseIgnoreFile("f.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		pat, name string
		want      bool
	}{
		{"**", "a/b/c", true},
		{"a/**", "a/b/c", true},
		{"a/**", "b/a/c", false},
		{"**/.agentty/mcp.json", ".agentty/mcp.json", true},
		{"**/.agentty/mcp.json", "x/y/.agentty/mcp.json", true},
		{"*/.agentty/mcp.json", "x/y/.agentty/mcp.json", false},
		{"examples/*/x", "examples/a/x", true},
		{"db-?", "db-1", true},
		{"db-?", "db-12", false},
	} {
		if got := globMatch(c.pat, c.name); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", c.pat, c.name, got, c.want)
		}
	}
}

// hostileIgnoreFiles are files a hostile repository could commit; each is
// refused quickly with an error containing the word given. They also seed
// FuzzIgnoreFile.
func hostileIgnoreFiles() map[string]string {
	laughs := "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for c := 'b'; c <= 'i'; c++ {
		prev := string(c - 1)
		laughs += fmt.Sprintf("%c: &%c [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", c, c, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	return map[string]string{
		// billion laughs: aliases are never expanded, and refused.
		laughs: "anchor",
		"ignore:\n  - rule: MG204\n    reason: &r x\n  - rule: MG205\n    reason: *r\n": "anchor",
		"ignore:\n  - rule: MG204\n    reason: *r\n":                                    "aliases are not allowed",
		"ignore:\n  - &e {rule: MG204, reason: x}\n  - *e\n":                            "anchor",
		// merge keys
		"base: &b\n  reason: x\nignore:\n  - <<: *b\n    rule: MG204\n": "anchor",
		"ignore:\n  - <<: {reason: x}\n    rule: MG204\n":               "merge key",
		// tags, even ones that name a core type
		"ignore:\n  - rule: MG204\n    reason: !!binary aGVsbG8=\n": "tag !!binary",
		"version: !!int 1\n": "tag !!int",
		"ignore: !custom\n  - rule: MG204\n    reason: x\n":      "tag !custom",
		"%TAG !e! tag:example.com,2000:\n---\nversion: !e!v 1\n": "tag",
		// more than one document, even an empty second one
		"version: 1\n---\n":                  "one YAML document",
		"---\nversion: 1\n---\nignore: []\n": "one YAML document",
		// duplicate keys: which copy would apply is a library's choice
		"ignore: []\nignore:\n  - server: a\n    reason: x\n":                      "duplicate key \"ignore\" (first at line 1)",
		"ignore:\n  - server: a\n    reason: x\n    \"reason\": y\n":               "duplicate key \"reason\"",
		"ignore:\n  - server: a\n    reason: x\n    servers: [b]\n    server: c\n": "duplicate key \"server\"",
		// deep nesting stops at the library's limit, or at the format
		"ignore: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n":                        "max depth",
		strings.Repeat("- ", 100000) + "x\n":                                                               "max depth",
		"ignore:\n  - rules: " + strings.Repeat("[", 500) + strings.Repeat("]", 500) + "\n    reason: x\n": "list of single values",
		// non-scalar keys and values
		"? [a]\n: b\n": "unsupported key",
		"ignore:\n  - reason: [x]\n    rule: MG204\n":  "expected a single value",
		"ignore:\n  - server: {a: b}\n    reason: x\n": "flow mapping",
		"[1, 2]\n": "expected key: value",
		// the most values that fit the size limit, then over it
		"ignore: [" + strings.Repeat("a,", (MaxIgnoreFileSize-16)/2) + "a]\n": "list of entries",
		"version: 1\n#" + strings.Repeat("x", MaxIgnoreFileSize) + "\n":       "limit",
		"\xff\xfev\x00": "UTF-8",
	}
}

func TestParseIgnoreFileHostile(t *testing.T) {
	for src, want := range hostileIgnoreFiles() {
		start := time.Now()
		_, err := ParseIgnoreFile("f.yaml", []byte(src))
		if err == nil || !errors.Is(err, ErrIgnoreFile) || !strings.Contains(err.Error(), want) {
			t.Errorf("%.80q: error %.200v, want one containing %q", src, err, want)
		}
		// A gross bound (the worst case takes a second or two on a loaded
		// machine); it catches a limit that stopped applying.
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%.80q: took %v", src, d)
		}
	}
	// A huge scalar within the limit is read like any other.
	huge := strings.Repeat("x", MaxIgnoreFileSize-100)
	g, err := ParseIgnoreFile("f.yaml", []byte("ignore:\n  - server: s\n    reason: \""+huge+"\"\n"))
	if err != nil || len(g.Rules) != 1 || g.Rules[0].Reason != huge {
		t.Fatalf("huge reason: %v", err)
	}
	// Document markers that start or end the one document are fine.
	for _, ok := range []string{"---\nversion: 1\n", "version: 1\n...\n", "\ufeffversion: 1\n", "version: 1\r\nignore:\r\n  - server: s\r\n    reason: x\r\n"} {
		if _, err := ParseIgnoreFile("f.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// FuzzIgnoreFile: the parser never panics, and an accepted file always has
// entries that select something and give a reason. Seeds: the files the
// tests above read, the hostile ones, and the .yaml files of the CLI's
// scan_suppress script.
func FuzzIgnoreFile(f *testing.F) {
	for _, s := range []string{
		ignoreFileSample,
		"version: 1\nignore:\n  - rule: MG204\n    reason: x\n",
		"ignore:\n- rules: [MG105, 'a''b']\n  paths:\n  - x/**\n  reason: \"q\\\"\"\n",
		"ignore: []\n", "# c\n---\n", "ignore:\n  - server: s\n    reason: r # c\n",
	} {
		f.Add([]byte(s))
	}
	for s := range ignoreFileErrors {
		f.Add([]byte(s))
	}
	for s := range hostileIgnoreFiles() {
		if len(s) < 4096 {
			f.Add([]byte(s))
		}
	}
	if ar, err := txtar.ParseFile("../cmd/mcp-guard/testdata/script/scan_suppress.txtar"); err == nil {
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".yaml") {
				f.Add(file.Data)
			}
		}
	} else {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseIgnoreFile("f", data)
		if err != nil {
			if g != nil || !errors.Is(err, ErrIgnoreFile) {
				t.Fatalf("error %v with result %v", err, g)
			}
			return
		}
		for _, r := range g.Rules {
			if r.Reason == "" || len(r.Rules)+len(r.Paths)+len(r.Servers) == 0 {
				t.Fatalf("accepted an entry without reason or selector: %+v", r)
			}
		}
	})
}

func TestBaseline(t *testing.T) {
	doc := `{"version":1,"findings":[
		{"rule":"MG204","path":".agentty/mcp.json","server":"a","key":"mcpServers.a.args[1]","line":3},
		{"rule":"MG204","path":".agentty/mcp.json","server":"a","key":"mcpServers.a.args[1]","line":9}]}`
	b, err := ParseBaseline([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	f := trust.Finding{Rule: "MG204", Path: ".agentty/mcp.json", Server: "a", Key: "mcpServers.a.args[1]", Line: 40}
	other := f
	other.Server = "b"
	keep, dropped := Suppress([]trust.Finding{f, other, f, f}, nil, b)
	if len(keep) != 2 || keep[0].Server != "b" || len(dropped) != 2 || dropped[0].Reason != "baseline" {
		t.Fatalf("keep %v dropped %v", keep, dropped)
	}
	for _, bad := range []string{`[]`, `{"version":2,"findings":[]}`, `{"version":1}`, `{"version":1,"findings":[{"rule":""}]}`, `x`} {
		if _, err := ParseBaseline([]byte(bad)); !errors.Is(err, ErrBaseline) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
