package client

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// readJSONFile: absent is no state and no error; any other failure marks
// the file present and records why, so the state counts as unknown.
func TestReadJSONFile(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"obj.json": `{"a":1}`, "arr.json": `[1]`, "bad.json": `{"a":`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file             string
		ok, present, err bool
	}{
		{"absent.json", false, false, false},
		{"obj.json", true, true, false},
		{"arr.json", false, true, true},
		{"bad.json", false, true, true},
		{"sub.json", false, true, true}, // a directory: read fails
	}
	for _, tt := range tests {
		for _, d := range []*trust.Dialect{trust.ClaudeCode, trust.GeminiCLI, trust.VSCode} {
			src := Source{Path: filepath.Join(dir, tt.file)}
			v, ok := readJSONFile(OS, &src, d)
			if ok != tt.ok || src.Present != tt.present || (src.Err != nil) != tt.err {
				t.Errorf("%s: ok %v present %v err %v; want %v %v %v", tt.file, ok, src.Present, src.Err, tt.ok, tt.present, tt.err)
			}
			if ok && v.Kind() != "object" {
				t.Errorf("%s: kind %s", tt.file, v.Kind())
			}
		}
	}
}

// Every Gate that spawns says so when a server is connected to instead:
// a remote entry gets the note, a stdio one does not.
func TestGateRemoteNote(t *testing.T) {
	const note = "(a remote server: connected, not spawned)"
	unknown := &Source{Display: "~/state", Err: errors.New("boom")}
	st := &State{Claude: &ClaudeState{Unknown: unknown}, Gemini: &GeminiState{Unknown: unknown}, Codex: &CodexState{Unknown: unknown}}
	remote := parseClaude(`{"mcpServers":{"r":{"type":"http","url":"http://x"}}}`).Servers[0]
	local := parseClaude(`{"mcpServers":{"l":{"command":"node"}}}`).Servers[0]
	for _, c := range []Client{claudeClient{}, cursorClient{}, geminiClient{}, codexClient{}} {
		vs := c.Gate(st, []Entry{{Name: "r", Server: remote}, {Name: "l", Server: local}, {Name: "gone"}})
		if len(vs) != 3 {
			t.Fatalf("%s: %d verdicts", c.ID(), len(vs))
		}
		if !strings.Contains(vs[0].Why, note) {
			t.Errorf("%s remote: %q", c.ID(), vs[0].Why)
		}
		for _, v := range vs[1:] {
			if v.Why == "" || strings.Contains(v.Why, note) {
				t.Errorf("%s %s: %q", c.ID(), v.Name, v.Why)
			}
		}
	}
}

// TestResolve: a client is named by its id or by the command that starts
// it, nothing else.
func TestResolve(t *testing.T) {
	for in, want := range map[string]ID{
		"claude-code": ClaudeCode, "claude": ClaudeCode, "gemini": Gemini, "gemini-cli": Gemini,
		"agentty": Agentty, "cursor": Cursor, "codex": Codex, "Claude": "", "": "", "db": "",
	} {
		if got := Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}
