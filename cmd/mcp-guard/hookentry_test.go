package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHookEntryBuildsNoCommandLine: `mcp-guard hook …` is dispatched
// before a command line is built (git starts it on every checkout and
// pull). With the hook turned off, what is left is the entry itself:
// building urfave/cli's command tree, even the hook's command alone,
// took about 450 allocations; the entry takes a handful.
func TestHookEntryBuildsNoCommandLine(t *testing.T) {
	environ := []string{"MCP_GUARD=0", "HOME=/nonexistent", "NO_COLOR=1"}
	var stderr bytes.Buffer
	args := []string{"mcp-guard", "hook", "post-merge", "0"}
	if code := run(context.Background(), args, strings.NewReader(""), &bytes.Buffer{}, &stderr, environ); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	allocs := testing.AllocsPerRun(20, func() {
		run(context.Background(), args, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, environ)
	})
	t.Logf("the hook's entry: %.0f allocations", allocs)
	if allocs > 40 {
		t.Errorf("the hook's entry allocates %.0f times with nothing to do: a command line built on its path?", allocs)
	}
}
