package trust

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/internal/hostile"
)

// fuzzSeeds are the table inputs' shapes that the files do not cover.
var fuzzSeeds = []string{
	``, `{}`, `[]`, `null`, `"x"`, `01`, `truex`, `{}{}`, "\xEF\xBB\xBF{}",
	`{"mcpServers":{"a":{"command":"x"}},"mcpServers":{"b":{"command":"y"}}}`,
	`{"mcpServers":{"a":{"command":"x","command":null}}}`,
	`{"mcpServers":null,"servers":{"b":{"command":"x","args":[1e5,-0,1e20,0.00001,12345678901234567890123]}}}`,
	`{"mcpServers":{"a":{"command":"/opt/srv","args":["--root","/safe\u0000--read-only"],"env":{"K":1,"K":"v"}}}}`,
	`{"mcpServers":{"a.b":{"url":"https://h","type":"sse","disabled":"true"},"é":{"type":"http","command":"x"}}}`,
	`{"mcpServers":{"a":{"command":"\ud83d\ude00","args":["\ud800"]}}}`,
	`{"mcpServers":{"a":{"command":"x","args":[1e400]}}}`,
	`{"mcpServers":{"a":{"command":"x","args":[-1e-400,1.7976931348623157e308,5e-324]}}}`,
	`{"mcpServers":{"a":{"command":"x","trustAnnotations":true,"tools":[{"n":1,"n":2}]}}}`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
}

func addSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	// Nesting past mcp-guard's former limit (1,000) and past encoding/json's
	// (10,000): agentty reads both.
	for _, levels := range []int{1001, stdMaxDepth + 1, 100_000} {
		f.Add(hostile.Deep(levels))
	}
	f.Add([]byte(strings.Repeat(`{"a":`, 20_000) + `{"a":1,"a":2}` + strings.Repeat("}", 20_000)))
	for _, data := range seedFiles() {
		f.Add(data)
	}
}

// seedFiles are the configuration files the fuzz targets start from: the
// parser's testdata, the hostile fixtures and the real-world corpus.
func seedFiles() [][]byte {
	var out [][]byte
	for _, pattern := range []string{
		filepath.Join("testdata", "parse", "*.json"),
		filepath.Join("..", "testdata", "hostile", "*.json"),
		filepath.Join(corpusDir, "*.json"),
	} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err == nil {
				out = append(out, data)
			}
		}
	}
	return out
}

// FuzzParse checks Parse never panics, never returns a half result, and
// that each server's canonical form stands for it: parsed again on its
// own it has the same canonical form, fingerprint and behaviour.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Parse(".agentty/mcp.json", data, ScopeProject)
		if c.SHA256 != FileHash(data) {
			t.Fatalf("SHA256 is not the raw bytes' hash")
		}
		if !c.Valid() {
			if len(c.Servers) != 0 {
				t.Fatalf("invalid config (%v) with %d servers", c.Err, len(c.Servers))
			}
			if c.Unreadable() != (len(findingsOf(c, "MG310")) == 1) {
				t.Fatalf("unreadable %v, but findings %q", c.Unreadable(), rules(c))
			}
			if len(findingsOf(c, "MG301"))+len(findingsOf(c, "MG307"))+len(findingsOf(c, "MG310")) == 0 {
				t.Fatalf("invalid config without MG301/MG307/MG310: %v", c.Err)
			}
			return
		}
		if _, end, err := decodeJSON(data); err != nil || end <= 0 || end > len(data) {
			t.Fatalf("decodeJSON end %d of %d (err %v) for a valid config", end, len(data), err)
		} else if (end < len(data)) != (c.TrailingOffset != 0) || (c.TrailingOffset != 0 && c.TrailingOffset != end) {
			t.Fatalf("TrailingOffset %d, decodeJSON end %d of %d", c.TrailingOffset, end, len(data))
		}
		for _, fd := range c.Findings {
			if fd.Line < 1 || fd.Column < 1 || fd.Slug == "" {
				t.Fatalf("finding %+v has no position or slug", fd)
			}
			if fd.Server != "" && c.Server(fd.Server) == nil {
				t.Fatalf("finding %s names server %q, which is not in the config", fd.Rule, fd.Server)
			}
		}
		names := serverNames(c)
		if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
			t.Fatalf("servers %q not in bytewise order, one per name", names)
		}
		for _, s := range c.Servers {
			canon := s.Canonical()
			wrapped := `{"mcpServers":{` + quoteJSON(s.Name) + `:` + canon + `}}`
			c2 := Parse("canonical", []byte(wrapped), ScopeProject)
			if !c2.Valid() || len(c2.Servers) != 1 {
				t.Fatalf("canonical form of %q does not parse alone: %v\n%s", s.Name, c2.Err, wrapped)
			}
			s2 := c2.Servers[0]
			if s2.Name != s.Name || s2.Canonical() != canon {
				t.Fatalf("canonical form is not stable:\n%s\n%s", canon, s2.Canonical())
			}
			if s2.Fingerprint != s.Fingerprint || s2.Gated != s.Gated || s2.Transport != s.Transport || s2.Disabled != s.Disabled {
				t.Fatalf("%q behaves differently from its canonical form", s.Name)
			}
			if !slices.Equal(s2.SpawnArgs(), s.SpawnArgs()) || !slices.Equal(s2.HashArgs(), s.HashArgs()) || s2.SpawnCommand() != s.SpawnCommand() {
				t.Fatalf("%q: argv differs from its canonical form's", s.Name)
			}
			if !reflect.DeepEqual(envPairs(s2), envPairs(s)) {
				t.Fatalf("%q: env differs from its canonical form's", s.Name)
			}
			if s.Fingerprint != Fingerprint(s.Command, s.URL, s.HashArgs()) {
				t.Fatalf("%q: fingerprint is not the spec's", s.Name)
			}
			for _, a := range s.Args {
				if strings.IndexByte(a.Spawn, 0) >= 0 {
					t.Fatalf("%q: a NUL reaches argv", s.Name)
				}
			}
		}
	})
}

func envPairs(s *Server) [][2]string {
	var out [][2]string
	for _, e := range s.Env {
		out = append(out, [2]string{e.Name, e.Value})
	}
	return out
}

// toAny converts a decoded value to what encoding/json gives for it.
func toAny(v *jsonValue) any {
	switch v.Kind {
	case jsonNull:
		return nil
	case jsonBool:
		return v.Bool
	case jsonNumber:
		return v.Num
	case jsonString:
		return v.Str
	case jsonArray:
		out := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			out[i] = toAny(e)
		}
		return out
	case jsonObject:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			out[m.Key] = toAny(m.Value) // the last duplicate wins, replacing
		}
		return out
	}
	panic("unknown kind")
}

// stdMaxDepth is the deepest nesting encoding/json accepts.
const stdMaxDepth = 10000

// compactOf decodes s and returns its compact form.
func compactOf(t *testing.T, s string) string {
	v, end, err := decodeJSON([]byte(s))
	if err != nil || end != len(s) {
		t.Fatalf("compact form does not decode: %v", err)
	}
	return compactJSON(v)
}

// surrogateEscape finds \u escapes of surrogates, which encoding/json
// accepts unpaired (replacing them) and nlohmann does not.
var surrogateEscape = regexp.MustCompile(`\\u[dD][89a-fA-F]`)

// FuzzDecodeJSON cross-checks the reader with encoding/json where their
// dialects agree: same acceptance and the same values.
func FuzzDecodeJSON(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, end, err := decodeJSON(data)
		if err == nil && (end <= 0 || end > len(data)) {
			t.Fatalf("end %d outside (0,%d]", end, len(data))
		}
		if err == nil && end < len(data) && len(bytes.TrimLeft(data[end:], " \t\r\n")) == 0 {
			t.Fatalf("end %d stops before trailing whitespace", end)
		}
		bom := bytes.HasPrefix(data, []byte("\xEF\xBB\xBF"))
		body := data
		if bom {
			body = data[3:]
		}
		stdValid := json.Valid(body)
		if err == nil && end == len(data) && !stdValid {
			if nestingDepth(v) > stdMaxDepth {
				// Past encoding/json's depth limit: check only that the
				// compact form is a fixed point.
				if c := compactJSON(v); compactOf(t, c) != c {
					t.Fatalf("compact form of a deep value is not stable")
				}
				return
			}
			t.Fatalf("accepted %q, which encoding/json rejects", data)
		}
		if err != nil && stdValid && utf8.Valid(body) && !surrogateEscape.Match(body) &&
			!errors.Is(err, ErrTooManyValues) && !strings.Contains(err.Error(), "out of range") {
			t.Fatalf("rejected valid JSON %q: %v", data, err)
		}
		if err != nil || end != len(data) {
			return
		}
		var std any
		if jerr := json.Unmarshal(body, &std); jerr != nil {
			t.Fatalf("encoding/json cannot decode what was accepted: %v", jerr)
		}
		if got := toAny(v); !reflect.DeepEqual(got, std) {
			t.Fatalf("values differ for %q:\n ours %#v\n std  %#v", data, got, std)
		}
		// The compact form is JSON both readers take, and a fixed point.
		compact := compactJSON(v)
		if !json.Valid([]byte(compact)) {
			t.Fatalf("compact form %q is not JSON", compact)
		}
		v2, end2, err := decodeJSON([]byte(compact))
		if err != nil || end2 != len(compact) {
			t.Fatalf("compact form %q does not decode: %v", compact, err)
		}
		if again := compactJSON(v2); again != compact {
			t.Fatalf("compact form not stable: %q -> %q", compact, again)
		}
	})
}
