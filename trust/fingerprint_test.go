package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// vectorsFile holds agentty's fingerprint and whole-file hash vectors,
// computed with Python's hashlib, independently of this code
// (docs/agentty.md explains the fingerprint).
const vectorsFile = "testdata/vectors.json"

type vectors struct {
	Cases []struct {
		ID          string          `json:"id"`
		Entry       json.RawMessage `json:"entry"`
		Blob        string          `json:"blob"`
		Fingerprint string          `json:"fingerprint"`
	} `json:"cases"`
	WholeFile []struct {
		ID        string `json:"id"`
		FileBytes string `json:"file_bytes"`
		SHA256    string `json:"sha256"`
	} `json:"whole_file"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) == 0 || len(v.WholeFile) == 0 {
		t.Fatal("no vectors")
	}
	return v
}

// unescapeBlob turns the vectors' "cmd\x00..." notation into bytes.
func unescapeBlob(t *testing.T, s string) []byte {
	t.Helper()
	u, err := strconv.Unquote(`"` + s + `"`)
	if err != nil {
		t.Fatalf("blob %q: %v", s, err)
	}
	return []byte(u)
}

// specBlob builds agentty's blob from the spec's formula.
func specBlob(command, url string, args []string) []byte {
	b := []byte("cmd\x00" + command + "\x00url\x00" + url)
	for _, a := range args {
		b = append(b, 0)
		b = append(b, a...)
	}
	return b
}

func TestFingerprintVectors(t *testing.T) {
	v := loadVectors(t)
	byID := map[string]string{}
	for _, tc := range v.Cases {
		t.Run(tc.ID, func(t *testing.T) {
			c := parseProject(t, `{"mcpServers":{"x":`+string(tc.Entry)+`}}`)
			s := mustServer(t, c, "x")
			if s.Fingerprint != tc.Fingerprint {
				t.Errorf("Server.Fingerprint = %s, want %s", s.Fingerprint, tc.Fingerprint)
			}
			blob := specBlob(s.Command, s.URL, s.HashArgs())
			if want := unescapeBlob(t, tc.Blob); !bytes.Equal(blob, want) {
				t.Errorf("blob from the parsed entry = %q, want %q", blob, want)
			}
			sum := sha256.Sum256(unescapeBlob(t, tc.Blob))
			if got := hex.EncodeToString(sum[:]); got != tc.Fingerprint {
				t.Fatalf("vector inconsistent: sha256(blob) = %s", got)
			}
			if got := Fingerprint(s.Command, s.URL, s.HashArgs()); got != tc.Fingerprint {
				t.Errorf("Fingerprint() = %s, want %s", got, tc.Fingerprint)
			}
			if !s.Gated {
				t.Errorf("a project stdio entry is not gated")
			}
			byID[tc.ID] = s.Fingerprint
		})
	}
	if byID["V4"] == "" || byID["V4"] != byID["V4b"] {
		t.Errorf("V4 %s and V4b %s must collide (the blob is not injective with NUL)", byID["V4"], byID["V4b"])
	}
}

func TestFileHashVectors(t *testing.T) {
	for _, tc := range loadVectors(t).WholeFile {
		data := []byte(tc.FileBytes)
		if got := FileHash(data); got != tc.SHA256 {
			t.Errorf("%s: FileHash = %s, want %s", tc.ID, got, tc.SHA256)
		}
		if c := Parse(".agentty/mcp.json", data, ScopeProject); c.SHA256 != tc.SHA256 {
			t.Errorf("%s: Config.SHA256 = %s, want %s", tc.ID, c.SHA256, tc.SHA256)
		}
	}
}

func TestFingerprintEdges(t *testing.T) {
	if got := Fingerprint("", "", []string{"a"}); got != "" {
		t.Errorf("no command, no url: %q, want no fingerprint", got)
	}
	for _, tc := range []struct {
		cmd, url string
		args     []string
	}{
		{"x", "", nil},
		{"x", "", []string{""}}, // an empty arg still adds its separator
		{"", "https://h", nil},
		{"x", "https://h", []string{"a", "b"}},
		{"日本", "", []string{"café", "\x00"}},
	} {
		got := Fingerprint(tc.cmd, tc.url, tc.args)
		sum := sha256.Sum256(specBlob(tc.cmd, tc.url, tc.args))
		if want := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("Fingerprint(%q, %q, %q) = %s, want %s", tc.cmd, tc.url, tc.args, got, want)
		}
		if len(got) != 64 || strings.ToLower(got) != got {
			t.Errorf("fingerprint %q is not 64 lowercase hex digits", got)
		}
	}
	if Fingerprint("x", "", nil) == Fingerprint("x", "", []string{""}) {
		t.Errorf("an empty string arg does not change the fingerprint")
	}
}

// randString draws strings that stress the blob: empty, NULs, quotes,
// backslashes, control and non-ASCII characters.
func randString(r *rand.Rand) string {
	alphabet := []string{"a", "b", "-", "/", ".", " ", "\x00", "\"", "\\", "\n", "\x1b", "é", "日", "😀", "\u202e", "--read-only", "x"}
	n := r.IntN(6)
	var b strings.Builder
	for range n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func quoteJSON(s string) string { return string(appendNlohmannString(nil, s)) }

// entryJSON writes an entry with the given string args, optional
// non-string args inserted at positions, and env.
func entryJSON(command string, args []string, extra map[int]string, env map[string]string) string {
	var parts []string
	for i, a := range args {
		if x, ok := extra[i]; ok {
			parts = append(parts, x)
		}
		parts = append(parts, quoteJSON(a))
	}
	if x, ok := extra[len(args)]; ok {
		parts = append(parts, x)
	}
	var envParts []string
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		envParts = append(envParts, quoteJSON(k)+":"+env[k])
	}
	return `{"command":` + quoteJSON(command) + `,"args":[` + strings.Join(parts, ",") + `],"env":{` + strings.Join(envParts, ",") + `}}`
}

func fingerprintOf(t *testing.T, entry string) string {
	t.Helper()
	c := parseProject(t, `{"mcpServers":{"s":`+entry+`}}`)
	if !c.Valid() {
		t.Fatalf("entry %s: %v", entry, c.Err)
	}
	return mustServer(t, c, "s").Fingerprint
}

var nonStrings = []string{"8080", "true", "false", "null", "1e5", "-0", "1.5", `["a"]`, `{"b":1}`, "[]", "{}", "12345678901234567890123"}

func TestFingerprintProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		cmd := "c" + randString(r)
		args := make([]string, r.IntN(5))
		for j := range args {
			args[j] = randString(r)
		}
		env := map[string]string{}
		for range r.IntN(3) {
			env[randString(r)] = quoteJSON(randString(r))
		}
		base := fingerprintOf(t, entryJSON(cmd, args, nil, env))
		if want := Fingerprint(cmd, "", args); base != want {
			t.Fatalf("case %d: parsed fingerprint %s, want %s", i, base, want)
		}

		// Changing env never changes the fingerprint.
		env2 := map[string]string{"NODE_OPTIONS": quoteJSON("--require ./x.js"), "N": nonStrings[r.IntN(len(nonStrings))]}
		for k, v := range env {
			if r.IntN(2) == 0 {
				env2[k+"x"] = v
			}
		}
		if got := fingerprintOf(t, entryJSON(cmd, args, nil, env2)); got != base {
			t.Errorf("case %d: changing env changed the fingerprint", i)
		}

		// Changing any string arg always changes it.
		if len(args) > 0 {
			j := r.IntN(len(args))
			changed := slices.Clone(args)
			for changed[j] == args[j] {
				changed[j] = randString(r)
			}
			if got := fingerprintOf(t, entryJSON(cmd, changed, nil, env)); got == base {
				t.Errorf("case %d: args[%d] %q -> %q kept the fingerprint", i, j, args[j], changed[j])
			}
		}

		// Adding a non-string arg anywhere never changes it.
		extra := map[int]string{r.IntN(len(args) + 1): nonStrings[r.IntN(len(nonStrings))]}
		if got := fingerprintOf(t, entryJSON(cmd, args, extra, env)); got != base {
			t.Errorf("case %d: adding non-string arg %v changed the fingerprint", i, extra)
		}

		// Splitting an arg at a NUL is the same blob (agentty's collision).
		for j, a := range args {
			if k := strings.IndexByte(a, 0); k >= 0 {
				split := slices.Concat(args[:j], []string{a[:k], a[k+1:]}, args[j+1:])
				if got := fingerprintOf(t, entryJSON(cmd, split, nil, env)); got != base {
					t.Errorf("case %d: splitting %q at its NUL changed the fingerprint", i, a)
				}
				break
			}
		}
	}
}
