package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// TestManagerYAMLPastLimit: a lefthook configuration of trust.MaxRepoYAML
// bytes is decoded; one byte more is not (yaml.v3 builds a node per
// scalar), and reads as not running mcp-guard, so the hint to add the
// lines stays.
func TestManagerYAMLPastLimit(t *testing.T) {
	body := "post-merge:\n  commands:\n    mcp-guard:\n      run: mcp-guard hook post-merge\n"
	for _, tc := range []struct {
		size int
		want bool
	}{{trust.MaxRepoYAML, true}, {trust.MaxRepoYAML + 1, false}} {
		dir := t.TempDir()
		data := body + "# " + strings.Repeat("x", tc.size-len(body)-3) + "\n"
		if len(data) != tc.size {
			t.Fatalf("padded to %d", len(data))
		}
		if err := os.WriteFile(filepath.Join(dir, lefthookFiles[0]), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		got := RunsMCPGuard(ManagerLefthook, Dir{Path: filepath.Join(dir, ".git", "hooks"), WorkTree: dir}, "post-merge") != ""
		if got != tc.want {
			t.Errorf("%d bytes: runs mcp-guard %v, want %v", tc.size, got, tc.want)
		}
	}
}
