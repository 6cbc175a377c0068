package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// publishedSchema compiles one of the JSON schemas published in
// docs/schema.
func publishedSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("../../docs/schema", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStatusJSONSchema: `status --json` validates against the published
// schema for every client's fixture, and a config that does not parse is
// listed with its state instead of left out.
func TestStatusJSONSchema(t *testing.T) {
	schema := publishedSchema(t, "status.schema.json")
	statusJSON := func(t *testing.T, dir string) []byte {
		t.Helper()
		var o, e bytes.Buffer
		environ := []string{"HOME=" + t.TempDir(), "NO_COLOR=1", "PATH=" + os.Getenv("PATH")}
		run(context.Background(), []string{"mcp-guard", "-C", dir, "status", "--json"}, strings.NewReader(""), &o, &e, environ)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(o.Bytes()))
		if err != nil {
			t.Fatalf("%v:\n%s%s", err, o.String(), e.String())
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("status --json does not validate: %v\n%s", err, o.String())
		}
		return o.Bytes()
	}
	repos, err := filepath.Glob("../../testdata/repos/*")
	if err != nil || len(repos) == 0 {
		t.Fatalf("fixtures: %v", err)
	}
	for _, dir := range repos {
		abs, _ := filepath.Abs(dir)
		t.Run(filepath.Base(dir), func(t *testing.T) { statusJSON(t, abs) })
	}

	t.Run("unparsable", func(t *testing.T) {
		dir := t.TempDir()
		// Cursor's reader recovers from syntax errors: a cut file whose
		// entry names a command may still run it (unreadable), where one
		// naming none runs nothing (invalid).
		for p, data := range map[string]string{".mcp.json": `{"mcpServers": {`, ".gemini/settings.json": `{"mcpServers": {`,
			".cursor/mcp.json": `{"mcpServers": {"a": {"command": "node"`} {
			os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, p), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		var doc struct {
			Agents []struct {
				Client      string
				Closed      []string
				ConfigFiles []struct{ Path, State, Error string } `json:"config_files"`
			}
		}
		if err := json.Unmarshal(statusJSON(t, dir), &doc); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"claude-code": "invalid", "gemini-cli": "invalid", "cursor": "unreadable"}
		for _, a := range doc.Agents {
			w, ok := want[a.Client]
			if !ok {
				continue
			}
			delete(want, a.Client)
			if len(a.ConfigFiles) != 1 || a.ConfigFiles[0].State != w || a.ConfigFiles[0].Error == "" || len(a.Closed) == 0 {
				t.Errorf("%s: %+v", a.Client, a)
			}
		}
		if len(want) > 0 {
			t.Errorf("agents missing from the document: %v", want)
		}
	})
}
