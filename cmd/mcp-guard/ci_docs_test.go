package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionSpec is the part of an action.yml the examples depend on.
type actionSpec struct {
	Inputs  map[string]any `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
}

func readYAML(t *testing.T, rel string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

// TestCIExamplesMatchTheAction holds the CI examples in docs/ci against the
// actions they use: every file parses, every `with:` key of a step using
// mcp-guard's action or its comment action is one of that action's
// inputs, and every output the scan action declares is one its script
// sets.
func TestCIExamplesMatchTheAction(t *testing.T) {
	actions := map[string]actionSpec{}
	for name, rel := range map[string]string{"mcp-guard/mcp-guard": "action.yml", "mcp-guard/mcp-guard/action/comment": "action/comment/action.yml"} {
		var a actionSpec
		readYAML(t, rel, &a)
		if len(a.Inputs) == 0 {
			t.Fatalf("%s declares no inputs", rel)
		}
		actions[name] = a
	}
	examples, err := filepath.Glob(filepath.Join(repoRoot, "docs", "ci", "*.yml"))
	if err != nil || len(examples) < 4 {
		t.Fatalf("docs/ci examples: %v %v", examples, err)
	}
	used := 0
	for _, ex := range examples {
		rel, _ := filepath.Rel(repoRoot, ex)
		var doc map[string]any
		readYAML(t, filepath.ToSlash(rel), &doc)
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				if uses, ok := v["uses"].(string); ok {
					name, _, _ := strings.Cut(uses, "@")
					if a, ok := actions[name]; ok {
						used++
						with, _ := v["with"].(map[string]any)
						for k := range with {
							if _, ok := a.Inputs[k]; !ok {
								t.Errorf("%s: %s has no input %q", rel, name, k)
							}
						}
					}
				}
				for _, x := range v {
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(doc)
	}
	if used < 3 {
		t.Fatalf("the examples use mcp-guard's actions %d times, want the scan, the comment and the fleet", used)
	}

	script, err := os.ReadFile(filepath.Join(repoRoot, "action", "scan.sh"))
	if err != nil {
		t.Fatal(err)
	}
	ref := regexp.MustCompile(`^\$\{\{ steps\.(scan|install)\.outputs\.([a-z-]+) \}\}$`)
	var missing []string
	for out, o := range actions["mcp-guard/mcp-guard"].Outputs {
		m := ref.FindStringSubmatch(o.Value)
		if m == nil {
			t.Errorf("output %s: value %q is no step output", out, o.Value)
			continue
		}
		file := "scan.sh"
		data := script
		if m[1] == "install" {
			file = "install.sh"
			if data, err = os.ReadFile(filepath.Join(repoRoot, "action", file)); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(string(data), "set_output "+m[2]+" ") {
			missing = append(missing, out+" ("+file+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("outputs no script sets: %s", strings.Join(missing, ", "))
	}
}
