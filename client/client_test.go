package client

import (
	"os"
	"path/filepath"
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
