package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgo: mcp-guard must stay a statically linked binary. A single cgo
// import anywhere in its dependencies (net, os/user...) makes it dynamic,
// and the dynamic loader, libc and cgo's start-up then cost every process,
// the git hook included, about 8 ms of CPU on the benchmark machine (as
// much as the whole `git rev-parse A:p B:p` the hook is measured against;
// see BENCHMARKS.md).
func TestNoCgo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "github.com/mcp-guard/mcp-guard/cmd/mcp-guard").CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v: %s", err, out)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Errorf("packages linked into mcp-guard use cgo (the binary is no longer static):\n%s", s)
	}
}

// TestEnvOf: the hook runs with what the installed scripts set
// (-hook-env), given as sh's leading VAR=value words.
func TestEnvOf(t *testing.T) {
	b := &bench{env: []string{"HOME=/h"}}
	env, args := b.envOf([]string{"GOMAXPROCS=1", "/bin/mcp-guard", "hook", "x=y"})
	if strings.Join(env, " ") != "HOME=/h GOMAXPROCS=1" || strings.Join(args, " ") != "/bin/mcp-guard hook x=y" {
		t.Errorf("env %q, args %q", env, args)
	}
	if len(b.env) != 1 {
		t.Errorf("b.env changed: %q", b.env)
	}
	for _, w := range []string{"/a=b/mcp-guard", "=x", "1A=x", "A-B=x"} {
		if isAssignment(w) {
			t.Errorf("%q taken for an assignment", w)
		}
	}
}
