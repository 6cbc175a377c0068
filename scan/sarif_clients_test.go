package scan_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/scan"
)

// TestClientFindingsSARIF: the other clients' findings reach SARIF with
// the file and the line:column of the key, from a committed revision.
func TestClientFindingsSARIF(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	home := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=c", "GIT_COMMITTER_EMAIL=c@example.com"}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	if err := os.MkdirAll(filepath.Join(dir, "app", ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	tasks := "{\n  \"tasks\": [\n    {\"command\": \"make dev\",\n     \"runOptions\": {\"runOn\": \"folderOpen\"}},\n  ],\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "app", ".vscode", "tasks.json"), []byte(tasks), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "app")
	git("commit", "-q", "-m", "tasks")
	res, err := scan.Scan(t.Context(), scan.Request{Dir: dir, Target: scan.TargetRev, Rev: "HEAD", Git: []gitscan.Option{gitscan.WithEnv(env)}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(report.NewSARIF(res, "test"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Results) != 1 {
		t.Fatalf("SARIF: %s", data)
	}
	r := doc.Runs[0].Results[0]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "MG713" || loc.ArtifactLocation.URI != "app/.vscode/tasks.json" || loc.Region.StartLine != 4 || loc.Region.StartColumn != 21 {
		t.Fatalf("SARIF result %+v", r)
	}
}
