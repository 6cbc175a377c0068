package trust

import (
	"fmt"
	"strings"
	"testing"
)

// oneServer parses a project config holding one entry named "s".
func oneServer(t *testing.T, entry string) *Server {
	t.Helper()
	c := Parse(".agentty/mcp.json", []byte(`{"mcpServers":{"s":`+entry+`}}`), ScopeProject)
	if !c.Valid() || len(c.Servers) != 1 {
		t.Fatalf("entry %s: invalid config: %v", entry, c.Err)
	}
	return c.Servers[0]
}

// refString renders references compactly: "path" or "path/" for Dir.
func refString(refs []Ref) string {
	var parts []string
	for _, r := range refs {
		p := r.Path
		if r.Dir {
			p += "/"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func TestReferences(t *testing.T) {
	tests := []struct {
		name, entry, launch, want string
	}{
		{"relative command", `{"command":"./bin/srv"}`, "", "bin/srv"},
		{"relative command without dot", `{"command":"tools/srv"}`, "", "tools/srv"},
		{"relative command in a nested launch dir", `{"command":"./bin/srv"}`, "sub", "sub/bin/srv"},
		{"bare command", `{"command":"srv"}`, "", ""},
		{"absolute command", `{"command":"/usr/bin/srv"}`, "", ""},
		{"escape refused", `{"command":"../../etc/srv"}`, "sub", ""},
		{"climb inside the repository", `{"command":"../bin/srv"}`, "sub", "bin/srv"},
		{"node script", `{"command":"node","args":["server.js"]}`, "", "server.js/"},
		{"node flags", `{"command":"node","args":["--require","./hook.js","server.js"]}`, "", "hook.js/ server.js"},
		{"python script", `{"command":"python3","args":["-u","srv.py","--port","8080"]}`, "", "8080 srv.py/"},
		{"python3.12 module", `{"command":"python3.12","args":["-m","pkg.sub"]}`, "", "pkg/ pkg.py pkg.sub"},
		{"python joined -m", `{"command":"python","args":["-mpkg"]}`, "", "pkg/ pkg.py"},
		{"python -c", `{"command":"python","args":["-c","import x"]}`, "", "import x"},
		{"bash script", `{"command":"bash","args":["run.sh"]}`, "", "run.sh"},
		{"shell inline script", `{"command":"sh","args":["-c","./run.sh --x=conf/a.toml | tee log"]}`, "", "conf/a.toml conf/a.toml | tee log log run.sh run.sh --x=conf/a.toml | tee log tee"},
		{"deno", `{"command":"deno","args":["run","-A","x.ts"]}`, "", "deno.json deno.jsonc run x.ts"},
		{"flag value", `{"command":"srv","args":["--config=./c.toml","-y"]}`, "", "c.toml"},
		{"key=value", `{"command":"make","args":["CONF=cfg/x.mk"]}`, "", "CONF=cfg/x.mk GNUmakefile Makefile cfg/x.mk makefile"},
		{"go run package", `{"command":"go","args":["run","./cmd/x"]}`, "sub", "go.mod go.sum sub/cmd/x/ sub/go.mod sub/go.sum sub/run"},
		{"go run remote", `{"command":"go","args":["run","example.com/x@v1.2.3"]}`, "", "example.com/x@v1.2.3 go.mod go.sum run"},
		{"go run dot is the launch dir", `{"command":"go","args":["run","."]}`, "", "go.mod go.sum run"},
		{"cargo run", `{"command":"cargo","args":["run","--release"]}`, "", "Cargo.lock Cargo.toml build.rs run src/"},
		{"npx", `{"command":"npx","args":["-y","@scope/tool@1.2.3"]}`, "", ".npmrc .yarnrc .yarnrc.yml @scope/tool@1.2.3 bunfig.toml node_modules/.bin/tool package.json"},
		{"uvx", `{"command":"uvx","args":["mcp-x"]}`, "", "mcp-x pyproject.toml uv.lock uv.toml"},
		{"env wrapper", `{"command":"/usr/bin/env","args":["A=1","python3","-m","srv"]}`, "", "1 A=1 python3 srv/ srv.py"},
		{"env NODE_OPTIONS", `{"command":"node","env":{"NODE_OPTIONS":"--require ./hook.js"}}`, "", "hook.js"},
		{"env library path", `{"command":"python3","env":{"PYTHONPATH":"lib:/abs"}}`, "", "lib/"},
		{"env PATH relative first", `{"command":"srv","env":{"PATH":"bin:/usr/bin"}}`, "", "bin bin/srv"},
		{"env PATH empty element", `{"command":"srv","env":{"PATH":":/usr/bin"}}`, "sub", "sub/srv"},
		{"urls refused", `{"command":"srv","args":["https://example.com/x","~/x","/abs"]}`, "", ""},
		{"launch dir itself refused", `{"command":"srv","args":[".","./","sub/.."]}`, "", ""},
		{"nested launch dir itself refused", `{"command":"srv","args":["."]}`, "sub", ""},
		{"root refused from nested", `{"command":"srv","args":[".."]}`, "sub", ""},
		{"NUL cut as execvp does", `{"command":"node","args":["a.js\u0000b.js"]}`, "", "a.js/"},
		{"non-string args as spawned", `{"command":"node","args":[8080,true,["x.js"]]}`, "", "8080/ [\"x.js\"] true"},
		{"http entry", `{"url":"https://example.com/mcp"}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := oneServer(t, tt.entry)
			got := refString(References(s, tt.launch))
			if got != tt.want {
				t.Errorf("References(%s, %q) = %q, want %q", tt.entry, tt.launch, got, tt.want)
			}
		})
	}
}

func TestReferencesNeverEscape(t *testing.T) {
	// Whatever the entry says, references stay inside the repository and
	// are never the launch directory or the root.
	evil := []string{"..", "../..", "a/../../b", "./../x", "sub/../..", ".", "", "/", "//x", "~", "-", "x/./../..", "../sub"}
	for _, launch := range []string{"", "sub", "a/b"} {
		for _, v := range evil {
			entry := fmt.Sprintf(`{"command":%q,"args":[%q,"--f=%s"],"env":{"PYTHONPATH":%q}}`, v, v, v, v)
			s := oneServer(t, entry)
			for _, r := range References(s, launch) {
				if r.Path == "" || r.Path == "." || r.Path == launch || r.Path == ".." || strings.HasPrefix(r.Path, "../") || strings.HasPrefix(r.Path, "/") {
					t.Errorf("launch %q, value %q: bad reference %+v", launch, v, r)
				}
			}
		}
	}
}

func TestLaunchDir(t *testing.T) {
	for in, want := range map[string]string{
		".agentty/mcp.json":     "",
		"sub/.agentty/mcp.json": "sub",
		"a/b/.agentty/mcp.json": "a/b",
	} {
		if got := LaunchDir(in); got != want {
			t.Errorf("LaunchDir(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDeepFingerprint(t *testing.T) {
	base := oneServer(t, `{"command":"node","args":["server.js"]}`)
	files := []FileID{{Path: "server.js", Object: Object{Mode: "100644", ID: "aaaa"}}}
	fp := DeepFingerprint(base, files)
	if len(fp) != 64 || strings.ToLower(fp) != fp {
		t.Fatalf("deep fingerprint %q: want 64 lower-case hex digits", fp)
	}
	// Stable, and independent of the order files are given in.
	two := append([]FileID{{Path: "a.js", Object: Object{Mode: "100644", ID: "bbbb"}}}, files...)
	rev := []FileID{two[1], two[0]}
	if DeepFingerprint(base, two) != DeepFingerprint(base, rev) {
		t.Error("deep fingerprint depends on the order of files")
	}
	// Everything that changes what runs changes it, including what
	// agentty's own fingerprint ignores.
	variants := map[string]struct {
		entry string
		files []FileID
	}{
		"env":               {`{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"--require x"}}`, files},
		"non-string arg":    {`{"command":"node","args":["server.js",1]}`, files},
		"string vs number":  {`{"command":"node","args":["server.js","1"]}`, files},
		"trustAnnotations":  {`{"command":"node","args":["server.js"],"trustAnnotations":true}`, files},
		"NUL split":         {`{"command":"node","args":["server.js\u0000--x"]}`, files},
		"file content":      {`{"command":"node","args":["server.js"]}`, []FileID{{Path: "server.js", Object: Object{Mode: "100644", ID: "cccc"}}}},
		"file mode":         {`{"command":"node","args":["server.js"]}`, []FileID{{Path: "server.js", Object: Object{Mode: "100755", ID: "aaaa"}}}},
		"file gone":         {`{"command":"node","args":["server.js"]}`, nil},
		"path/id boundary":  {`{"command":"node","args":["server.js"]}`, []FileID{{Path: "server.js1", Object: Object{Mode: "00644", ID: "aaaa"}}}},
		"disabled":          {`{"command":"node","args":["server.js"],"disabled":false}`, files},
		"unknown key":       {`{"command":"node","args":["server.js"],"timeoutMs":5}`, files},
		"type":              {`{"command":"node","args":["server.js"],"type":"stdio"}`, files},
		"args order":        {`{"args":["server.js"],"command":"node","x":1}`, files},
		"different command": {`{"command":"nodejs","args":["server.js"]}`, files},
	}
	seen := map[string]string{fp: "base"}
	for name, v := range variants {
		got := DeepFingerprint(oneServer(t, v.entry), v.files)
		if prev, dup := seen[got]; dup {
			t.Errorf("%s: same deep fingerprint as %s", name, prev)
		}
		seen[got] = name
	}
	// Key order, white space and duplicates that agentty resolves the same
	// way do not change it.
	same := oneServer(t, `{ "args" : ["server.js"], "command":"x", "command" : "node" }`)
	if got := DeepFingerprint(same, files); got != fp {
		t.Errorf("equivalent entry: deep fingerprint %s, want %s", got, fp)
	}
}

func TestFilesFor(t *testing.T) {
	s := oneServer(t, `{"command":"./bin/srv","args":["conf.toml","missing.txt"]}`)
	f := Files{"sub/bin/srv": {Mode: "100755", ID: "1"}, "sub/conf.toml": {Mode: "100644", ID: "2"}, "sub/missing.txt": {}, "other": {Mode: "100644", ID: "3"}}
	got := f.For(s, "sub")
	want := []FileID{{Path: "sub/bin/srv", Object: Object{Mode: "100755", ID: "1"}}, {Path: "sub/conf.toml", Object: Object{Mode: "100644", ID: "2"}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("For = %v, want %v", got, want)
	}
}

func TestHookReferences(t *testing.T) {
	data := []byte(`{"pre_tool":[{"match":"*","run":"./hooks/check.sh --strict"},{"run":1}],"post_tool":[{"run":"bash scripts/log.sh >> /tmp/x"}],"pre_tool":[{"run":"./last.sh"}]}`)
	// The last duplicate of pre_tool wins, as agentty reads it.
	if got, want := refString(HookReferences(data, "sub")), "sub/bash sub/last.sh sub/scripts/log.sh"; got != want {
		t.Errorf("HookReferences = %q, want %q", got, want)
	}
	for _, bad := range []string{``, `[]`, `{"pre_tool":{}}`, `{"pre_tool":[`} {
		if refs := HookReferences([]byte(bad), ""); len(refs) != 0 {
			t.Errorf("%q: %v", bad, refs)
		}
	}
}
