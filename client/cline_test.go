package client

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// A hook file is Cline's by its name (an event, any case) and extension;
// it starts through its #! line, else its extension's interpreter, else
// bash (@cline/core 0.0.86, bundled with cline 3.0.65).
func TestClineHookFile(t *testing.T) {
	tests := []struct {
		base, data string
		argv       []string // "" event: not a hook
		event      string
	}{
		{"TaskStart", "#!/bin/sh\necho hi\n", []string{"sh"}, "TaskStart"},
		{"taskstart", "echo hi\n", []string{"bash"}, "TaskStart"},
		{"PreToolUse.PY", "print(1)\n", []string{"python3"}, "PreToolUse"},
		{"TaskComplete.js", "x()\n", []string{"node"}, "TaskComplete"},
		{"TaskError.ts", "x()\n", []string{"bun", "run"}, "TaskError"},
		{"UserPromptSubmit.ps1", "x\n", []string{"pwsh", "-File"}, "UserPromptSubmit"},
		{"SessionShutdown", "#!/usr/bin/env -S node --no-warnings\n", []string{"-S", "node", "--no-warnings"}, "SessionShutdown"},
		{"TaskResume", "#!/usr/bin/env python3 -u\r\n", []string{"python3", "-u"}, "TaskResume"},
		{"TaskCancel", "#!/opt/evil/run --flag\n", []string{"/opt/evil/run", "--flag"}, "TaskCancel"},
		{"TaskStart.txt", "", nil, ""},
		{"README.md", "", nil, ""},
		{"TaskStart.sh.bak", "", nil, ""},
		{"NotAnEvent", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			if got := ClineHookEvent(tt.base); got != tt.event {
				t.Fatalf("ClineHookEvent(%q) = %q, want %q", tt.base, got, tt.event)
			}
			c := clineClient{}.Parse("/w/.clinerules/hooks/"+tt.base, []byte(tt.data))
			if c.Err != nil {
				t.Fatal(c.Err)
			}
			if tt.event == "" {
				if len(c.Servers) != 0 {
					t.Fatalf("not a hook, yet %d entries", len(c.Servers))
				}
				return
			}
			if len(c.Servers) != 1 {
				t.Fatalf("%d entries", len(c.Servers))
			}
			s := c.Servers[0]
			want := append(slices.Clone(tt.argv), ".clinerules/hooks/"+tt.base)
			if got := append([]string{s.SpawnCommand()}, s.SpawnArgs()...); !slices.Equal(got, want) {
				t.Errorf("argv %q, want %q", got, want)
			}
			if s.Kind != EntryHook || s.Name != ".clinerules/hooks/"+tt.base {
				t.Errorf("kind %q name %q", s.Kind, s.Name)
			}
		})
	}
}

// Started in a subdirectory, Cline runs the git top's hooks (observed);
// a subdirectory's own are read too (OPEN, the side that never
// under-reports). Each runs in its own workspace. Files that are not
// hooks are not entries.
func TestClineConfigs(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.clinerules/hooks/TaskStart", "#!/bin/sh\nnode start.js\n")
	f.write("repo/.clinerules/hooks/lib.sh", "x\n")
	f.write("repo/sub/.cline/hooks/PreToolUse.py", "print(1)\n")
	ce := f.evaluate(Cline, "repo/sub")
	var got []string
	for _, v := range ce.Servers {
		got = append(got, v.Name)
		if !v.Interactive || !v.Headless || !strings.Contains(v.Why, "without asking") {
			t.Errorf("%s: %+v", v.Name, v)
		}
	}
	if want := []string{".cline/hooks/PreToolUse.py", ".clinerules/hooks/TaskStart"}; !slices.Equal(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}
	top := verdictOf(t, ce, ".clinerules/hooks/TaskStart")
	if top.Spawn.Cwd != f.repo {
		t.Errorf("the top's hook runs in %q, want %q", top.Spawn.Cwd, f.repo)
	}
	if len(ce.Unknown) != 0 {
		t.Errorf("unknown: %q", ce.Unknown)
	}
	// Outside the repository's subdirectory chain: nothing from sub.
	if ce := f.evaluate(Cline, "repo"); len(ce.Servers) != 1 {
		t.Errorf("from the top: %+v", ce.Servers)
	}
}

// Each plugin of .cline/plugins is an entry of kind "plugin": a module
// (every JavaScript and TypeScript extension: more than the observed .js
// and .ts), run as tsx runs it from the workspace, and a package, whose
// cline.plugins modules run and whose directory is bound whole. A package
// directory without a package.json, a package.json Cline may still read
// modules from, and a directory that cannot be listed leave what runs
// unknown: the gate stays closed.
func TestClinePluginEntries(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.clinerules/hooks/TaskStart", "echo\n")
	for _, m := range []string{"a.cjs", "b.js", "c.mjs", "d.ts"} {
		f.write("repo/.cline/plugins/"+m, "module.exports = {}\n")
	}
	f.write("repo/.cline/plugins/README.md", "not a plugin\n")
	f.write("repo/.cline/plugins/pkg/package.json", `{"name": "pkg", "cline": {"plugins": ["./index.js", "x's.js"]}}`)
	f.write("repo/.cline/plugins/pkg/index.js", "require('./lib.js')\n")
	ce := f.evaluate(Cline, "repo/sub")
	if len(ce.Unknown) != 0 {
		t.Errorf("unknown %q", ce.Unknown)
	}
	var names []string
	for _, v := range ce.Servers {
		names = append(names, v.Name)
		if v.Server.Kind == EntryPlugin && (!v.Interactive || !v.Headless || !strings.Contains(v.Why, "loads this plugin")) {
			t.Errorf("%s: %+v", v.Name, v)
		}
	}
	want := []string{".cline/plugins/a.cjs", ".cline/plugins/b.js", ".cline/plugins/c.mjs", ".cline/plugins/d.ts", ".cline/plugins/pkg", ".clinerules/hooks/TaskStart"}
	if !eqStrings(names, want) {
		t.Fatalf("entries %q, want %q", names, want)
	}
	if v := verdict(ce, ".cline/plugins/d.ts"); v.Spawn.Command != "tsx" || !eqStrings(v.Spawn.Args, []string{".cline/plugins/d.ts"}) || v.Spawn.Cwd != f.repo {
		t.Errorf("module spawn %+v", v.Spawn)
	}
	pkg := verdict(ce, ".cline/plugins/pkg")
	if line := strings.Join(pkg.Spawn.Args, " "); line != `-c tsx .cline/plugins/pkg/index.js; tsx '.cline/plugins/pkg/x'\''s.js'` ||
		!eqStrings(pkg.Server.Trees, []string{".cline/plugins/pkg"}) || pkg.Spawn.Cwd != f.repo {
		t.Errorf("package spawn %+v, trees %q", pkg.Spawn, pkg.Server.Trees)
	}
	if im := (clineClient{}).Impact(ce.State, nil, pkg.Server); !im.Headless || !strings.Contains(im.Why, "plugin") {
		t.Errorf("impact %+v", im)
	}

	for name, tc := range map[string]struct{ file, data, want string }{
		"a package without a package.json": {"repo/.cline/plugins/nopkg/index.js", "x", "without a package.json"},
		"cline.plugins of a bad shape":     {"repo/.cline/plugins/pkg/package.json", `{"cline": {"plugins": "./index.js"}}`, "Cline may still load"},
		"a package.json that is not JSON":  {"repo/.cline/plugins/pkg/package.json", `{"cline": `, "Cline may still load"},
	} {
		g := newFixture(t)
		g.write(tc.file, tc.data)
		if ce := g.evaluate(Cline, "repo"); !strings.Contains(strings.Join(ce.Unknown, "\n"), tc.want) {
			t.Errorf("%s: unknown %q", name, ce.Unknown)
		}
	}
	env := f.env()
	env.FS = noList{}
	st := clineClient{}.State(f.repo, f.repo, env)
	if len(st.Sources) != 2 || !strings.Contains(st.Sources[0].Err.Error(), "could not list") || !strings.Contains(st.Sources[1].Err.Error(), "plugins of this directory") {
		t.Fatalf("sources %+v", st.Sources)
	}
}

// The hook's comparison places a hook file in its workspace, as the gate
// does.
func TestClineLaunchDir(t *testing.T) {
	if string(Cline) != trust.ClientCline {
		t.Fatalf("client id %q, trust's %q", Cline, trust.ClientCline)
	}
	for p, want := range map[string]string{".clinerules/hooks/TaskStart": "", "a/b/.cline/hooks/x": "a/b",
		".cline/plugins/p.js": "", "a/.cline/plugins/pkg/package.json": "a", "/r/.Cline/plugins/p.ts": "/r"} {
		if got := trust.ConfigLaunchDir(trust.ClientCline, p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}

// noList is the file system without a directory listing.
type noList struct{}

func (noList) ReadFile(p string) ([]byte, error)     { return os.ReadFile(p) }
func (noList) Stat(p string) (fs.FileInfo, error)    { return os.Stat(p) }
func (noList) Lstat(p string) (fs.FileInfo, error)   { return os.Lstat(p) }
func (noList) EvalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }
