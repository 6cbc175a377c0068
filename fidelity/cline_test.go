package fidelity

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
)

// The pinned Cline CLI. Re-observe (MCP_GUARD_FIDELITY=1 go test ./fidelity -run TestCline) before changing it.
var clineCLI = &pinned{pkg: "cline", version: "3.0.65", cache: "cline", bin: "cline",
	banner: "3.0.65", env: func(home string) []string { return isolatedEnv(home, nil) }}

// TestClineHooksAndNoMCP holds docs/cline.md's observed facts: started in
// a subdirectory of a git work tree, a headless `cline "PROMPT"` runs the
// top's hook files of .clinerules/hooks and .cline/hooks (TaskStart and
// TaskComplete, any case, with or without an extension), runs no file
// that is not named after an event, and spawns no MCP server of any
// repository file; client's model names exactly the hooks that ran.
func TestClineHooksAndNoMCP(t *testing.T) {
	t.Parallel()
	bin := clineCLI.get(t)
	s := newSandbox(t)
	api := newFakeModel(t)
	marks := s.markerRoot
	hook := func(tag string) string {
		return "#!/bin/sh\ncat >/dev/null\ntouch '" + filepath.Join(marks, tag) + "'\n"
	}
	writeExec := func(rel, data string) { writeIn(t, s.repo, rel, data, 0o755) }
	writeExec(".clinerules/hooks/TaskStart", hook("clinerules-TaskStart"))
	writeExec(".cline/hooks/taskcomplete.sh", hook("cline-TaskComplete"))
	writeExec(".cline/hooks/TaskStart.txt", hook("not-a-hook"))
	writeExec("sub/.keep", "")
	mcp := func(name string) string {
		return `{"mcpServers": {"` + name + `": {"command": "/bin/sh", "args": ["-c", "touch '` +
			filepath.Join(marks, "mcp-"+name) + `'; sleep 30"]}}}`
	}
	for i, p := range []string{"cline_mcp_settings.json", ".cline/cline_mcp_settings.json", ".cline/mcp.json",
		".cline/data/settings/cline_mcp_settings.json", ".mcp.json"} {
		writeExec(p, mcp("s"+strconv.Itoa(i)))
	}
	env := isolatedEnv(s.home, map[string]string{"HTTP_PROXY": api.URL, "HTTPS_PROXY": api.URL,
		"http_proxy": api.URL, "https_proxy": api.URL})
	defer killByHome(t, s.home) // the hub daemon Cline starts outlives the run
	if out, err := runBounded(3*time.Minute, s.repo, env, bin, "auth", "-p", "openai", "-k", "fidelity-dummy",
		"-m", "gpt-4o", "-b", api.URL+"/v1"); err != nil {
		t.Fatalf("cline auth: %v\n%s", err, out)
	}
	out, err := runBounded(3*time.Minute, filepath.Join(s.repo, "sub"), env, bin, "say hello please")
	if err != nil {
		t.Fatalf("cline: %v\n%s", err, out)
	}
	if answers, _, _, _ := api.snapshot(); answers == 0 {
		t.Fatalf("the fake model was never asked: the run did not reach a task\n%s", out)
	}
	ran := markerFiles(t, marks)
	if want := []string{"cline-TaskComplete", "clinerules-TaskStart"}; !slices.Equal(ran, want) {
		t.Fatalf("ran %q, want %q (docs/cline.md: hook files only, no repository MCP server)\n%s", ran, want, out)
	}
	// client's model: the same two hooks, each run without asking.
	ev, err := client.EvaluateOnly(filepath.Join(s.repo, "sub"), homeOnly(s.home), client.Cline)
	if err != nil || len(ev.Clients) != 1 {
		t.Fatalf("client: %+v %v", ev, err)
	}
	var predicted []string
	for _, v := range ev.Clients[0].Servers {
		if !v.Interactive || !v.Headless {
			t.Errorf("%s: predicted not to run without asking", v.Name)
		}
		predicted = append(predicted, v.Name)
	}
	if want := []string{".cline/hooks/taskcomplete.sh", ".clinerules/hooks/TaskStart"}; !slices.Equal(predicted, want) {
		t.Errorf("client predicts %q, want %q", predicted, want)
	}
}

// markerFiles are the names of the files in dir: the markers written.
func markerFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// homeOnly is client's environment of a run whose only variable that
// matters is HOME.
func homeOnly(home string) client.Env {
	return client.Env{Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
}

// killByHome ends the processes this test started that outlive their
// process group (Cline's hub daemon): those whose environment holds the
// test's own HOME.
func killByHome(t *testing.T, home string) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		if slices.Contains(strings.Split(string(data), "\x00"), "HOME="+home) {
			t.Logf("ending pid %d, started by this test", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestClinePlugins holds what Cline 3.0.65 runs of a repository's
// `.cline/plugins` (the workspace plugin directory of @cline/shared's
// resolvePluginConfigSearchPaths) on a headless task: nothing written by
// a module's top level or its setup, as CommonJS, ESM and TypeScript
// files and as a package directory; and client's model, which makes each
// plugin an entry to review (docs/cline.md).
func TestClinePlugins(t *testing.T) {
	t.Parallel()
	bin := clineCLI.get(t)
	s := newSandbox(t)
	api := newFakeModel(t)
	marks := s.markerRoot
	write := func(rel, data string) { writeIn(t, s.repo, rel, data, 0o644) }
	mark := func(tag string) string {
		return "require('fs').writeFileSync(" + strconv.Quote(filepath.Join(marks, tag)) + ", 'x');"
	}
	esmMark := func(tag string) string {
		return "import { writeFileSync } from 'node:fs'; writeFileSync(" + strconv.Quote(filepath.Join(marks, tag)) + ", 'x');\n"
	}
	write(".cline/plugins/a.cjs", mark("cjs-top")+"\nmodule.exports = {name: 'a', manifest: {capabilities: ['hooks']}, setup() { "+mark("cjs-setup")+" }};\n")
	write(".cline/plugins/b.js", mark("js-top")+"\nmodule.exports = {name: 'b', manifest: {capabilities: ['hooks']}, setup() { "+mark("js-setup")+" }};\n")
	write(".cline/plugins/c.mjs", esmMark("mjs-top")+"export default {name: 'c', manifest: {capabilities: ['hooks']}, setup() { "+mark("mjs-setup")+" }};\n")
	write(".cline/plugins/d.ts", esmMark("ts-top")+"export default {name: 'd', manifest: {capabilities: ['hooks']}, setup(): void { "+mark("ts-setup")+" }};\n")
	write(".cline/plugins/pkg/package.json", `{"name": "pkg", "cline": {"plugins": ["./index.js"]}}`)
	write(".cline/plugins/pkg/index.js", mark("pkg-top")+"\nmodule.exports = {name: 'pkg', manifest: {capabilities: ['hooks']}, setup() { "+mark("pkg-setup")+" }};\n")
	env := isolatedEnv(s.home, map[string]string{"HTTP_PROXY": api.URL, "HTTPS_PROXY": api.URL,
		"http_proxy": api.URL, "https_proxy": api.URL})
	defer killByHome(t, s.home)
	if out, err := runBounded(time.Minute, s.repo, env, bin, "auth", "-p", "openai", "-k", "fidelity-dummy",
		"-m", "gpt-4o", "-b", api.URL+"/v1"); err != nil {
		t.Fatalf("cline auth: %v\n%s", err, out)
	}
	out, err := runBounded(3*time.Minute, s.repo, env, bin, "say hello please")
	if err != nil {
		t.Fatalf("cline: %v\n%s", err, out)
	}
	if answers, _, _, _ := api.snapshot(); answers == 0 {
		t.Fatalf("the fake model was never asked: the run did not reach a task\n%s", out)
	}
	// Observed on 3.0.65 (with strace): a node child runs
	// plugin-sandbox-bootstrap.js, which opens b.js, d.ts and pkg's
	// index.js through jiti (not a.cjs, c.mjs), and is ended with the run.
	// Whether a module runs before that depends on the machine's load:
	// idle, the three it opens ran their top level and setup (js-*, ts-*,
	// pkg-*; once only ts-*); loaded, none did. Held here: only modules of the directory run, which the
	// model below covers whichever ran.
	ran := markerFiles(t, marks)
	for _, tag := range ran {
		if !slices.Contains([]string{"cjs-top", "cjs-setup", "js-top", "js-setup", "mjs-top", "mjs-setup", "ts-top", "ts-setup", "pkg-top", "pkg-setup"}, tag) {
			t.Errorf("a marker no plugin writes: %q", tag)
		}
	}
	t.Logf("plugin markers written: %q", ran)
	// client's model, sound whichever ran: every module that may run is an
	// entry waiting for review (the .cjs and .mjs ones too: more, never
	// less), the package one entry, and nothing is left unknown.
	ev, err := client.EvaluateOnly(s.repo, homeOnly(s.home), client.Cline)
	if err != nil || len(ev.Clients) != 1 {
		t.Fatalf("client: %+v %v", ev, err)
	}
	var entries []string
	for _, v := range ev.Clients[0].Servers {
		if v.Server != nil && v.Server.Kind == client.EntryPlugin && v.Headless {
			entries = append(entries, v.Name)
		}
	}
	want := []string{".cline/plugins/a.cjs", ".cline/plugins/b.js", ".cline/plugins/c.mjs", ".cline/plugins/d.ts", ".cline/plugins/pkg"}
	if !slices.Equal(entries, want) || len(ev.Clients[0].Unknown) != 0 {
		t.Errorf("client's plugin entries %q (unknown %q), want %q", entries, ev.Clients[0].Unknown, want)
	}
}

// writeIn writes data to rel below dir with perm, making its directories.
func writeIn(t *testing.T, dir, rel, data string, perm os.FileMode) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
}
