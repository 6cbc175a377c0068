package client

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The walk observed on Copilot CLI 1.0.102: in each directory from the
// launch directory up to the git top, `.mcp.json`, else
// `.github/mcp.json`; the nearest file wins a name; nothing above the git
// top; outside git, the launch directory only.
func TestCopilotConfigs(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.mcp.json", `{"mcpServers":{"root":{"command":"node","args":["a.js"]},"shared":{"command":"node","args":["root.js"]}}}`)
	f.write("repo/.github/mcp.json", `{"mcpServers":{"gh":{"command":"node"}}}`)
	f.write("repo/sub/.github/mcp.json", `{"mcpServers":{"shared":{"command":"node","args":["sub.js"]}}}`)
	f.write("repo/sub/deep/.keep", "")
	f.write(".mcp.json", `{"mcpServers":{"above":{"command":"node"}}}`)
	f.write("nogit/.mcp.json", `{"mcpServers":{"up":{"command":"node"}}}`)
	f.write("nogit/a/.keep", "")
	got, _ := copilotClient{}.Configs(filepath.Join(f.root, "repo/sub/deep"), f.repo, f.env())
	want := []string{filepath.Join(f.repo, "sub/.github/mcp.json"), filepath.Join(f.repo, ".mcp.json")}
	if !slices.Equal(got, want) {
		t.Fatalf("configs %q, want %q", got, want)
	}
	f.write("home/.copilot/config.json", `// managed
{"trustedFolders": ["$ROOT/repo"]}`)
	ce := f.evaluate(CopilotCLI, "repo/sub/deep")
	if v := verdict(ce, "shared"); v == nil || !strings.HasSuffix(v.Path, filepath.Join("sub", ".github", "mcp.json")) {
		t.Errorf("the nearest file does not win: %+v", v)
	}
	if verdict(ce, "gh") != nil || verdict(ce, "above") != nil {
		t.Errorf("read .github/mcp.json beside .mcp.json, or above the git top: %+v", ce.Servers)
	}
	if got, _ := (copilotClient{}).Configs(filepath.Join(f.root, "nogit/a"), "", f.env()); len(got) != 0 {
		t.Errorf("outside git, walked up: %q", got)
	}
}

// Folder trust: only a config whose directory a trusted folder holds
// runs (trusting sub/ runs sub's servers, not the top's), through a
// symlinked trusted path too; COPILOT_ALLOW_ALL=true trusts.
func TestCopilotGate(t *testing.T) {
	tests := []struct {
		name, config string
		kv           []string
		top, sub     bool
		why          string
	}{
		{"no config: untrusted", "", nil, false, false, "not trusted"},
		{"the top trusted", `{"trustedFolders": ["$ROOT/repo"]}`, nil, true, true, "trusted folder"},
		{"a parent trusted", `{"trustedFolders": ["$ROOT"]}`, nil, true, true, "trusted folder"},
		{"only sub trusted", `{"trustedFolders": ["$ROOT/repo/sub"]}`, nil, false, true, "not trusted"},
		{"a sibling prefix is not a parent", `{"trustedFolders": ["$ROOT/rep"]}`, nil, false, false, "not trusted"},
		{"trusted through a symlink", `{"trustedFolders": ["$ROOT/link"]}`, nil, true, true, "trusted folder"},
		{"COPILOT_ALLOW_ALL=true", "", []string{"COPILOT_ALLOW_ALL", "true"}, true, true, "COPILOT_ALLOW_ALL"},
		{"COPILOT_ALLOW_ALL=1 only approves tools", "", []string{"COPILOT_ALLOW_ALL", "1"}, false, false, "not trusted"},
		{"COPILOT_HOME", "", []string{"COPILOT_HOME", "$ROOT/ch"}, true, true, "$COPILOT_HOME/config.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.github/mcp.json", `{"mcpServers":{"top":{"command":"node","args":["top.js"]}}}`)
			f.write("repo/sub/.mcp.json", `{"mcpServers":{"sub":{"command":"node","args":["sub.js"]}}}`)
			if err := os.Symlink(f.repo, filepath.Join(f.root, "link")); err != nil {
				t.Fatal(err)
			}
			if tt.config != "" {
				f.write("home/.copilot/config.json", tt.config)
			}
			f.write("ch/config.json", `{"trustedFolders": ["$ROOT/repo"]}`)
			ce := f.evaluate(CopilotCLI, "repo/sub", tt.kv...)
			top, sub := verdict(ce, "top"), verdict(ce, "sub")
			if top == nil || sub == nil || top.Interactive != tt.top || sub.Interactive != tt.sub || top.Headless != tt.top {
				t.Fatalf("top %+v sub %+v; want %v %v", top, sub, tt.top, tt.sub)
			}
			if why := top.Why + sub.Why; !strings.Contains(why, tt.why) {
				t.Errorf("why %q, want %q", why, tt.why)
			}
			if len(ce.Unknown) != 0 {
				t.Errorf("unknown %q", ce.Unknown)
			}
		})
	}
}

// A config.json that cannot be read, and the repository's hook
// directories and plugin settings, leave what runs unknown: the gate
// stays closed. Hooks are entries (TestCopilotHooks), not unknown.
func TestCopilotClosed(t *testing.T) {
	tests := []struct{ name, file, data, want string }{
		{"config.json broken", "home/.copilot/config.json", `{"trustedFolders": [`, "config.json"},
		{"trustedFolders not a list", "home/.copilot/config.json", `{"trustedFolders": "/"}`, "not a list"},
		{"a hook file that does not read", "repo/.github/hooks/start.json", `{"version":1,"hooks":{`, "start.json"},
		{"a hooks directory that is a file", "repo/.github/hooks", `x`, ".github/hooks (cannot be listed)"},
		{"local settings plugins", "repo/.github/copilot/settings.local.json", `{"enabledPlugins":{"p@m":true}}`, "enabledPlugins"},
		{"hook directories", "repo/.github/copilot/settings.json", `{"hookDirectories":["h"]}`, "hookDirectories"},
		{"settings broken", "repo/.github/copilot/settings.json", `{"hooks":`, "cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.mcp.json", `{"mcpServers":{"db":{"command":"node"}}}`)
			f.write(tt.file, tt.data)
			ce := f.evaluate(CopilotCLI, "repo")
			if !strings.Contains(strings.Join(ce.Unknown, "\n"), tt.want) {
				t.Fatalf("unknown %q, want %q", ce.Unknown, tt.want)
			}
		})
	}
	f := newFixture(t)
	f.write("repo/.mcp.json", `{"mcpServers":{"db":{"command":"node"}}}`)
	f.write("repo/.github/copilot/settings.json", `{"model": "gpt-5.4", "disabledMcpServers": ["x"], "hooks": {}}`)
	f.write("repo/.github/hooks/.keep", "")
	f.write("repo/.github/hooks/h.json", `{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"x"}]}}`)
	if ce := f.evaluate(CopilotCLI, "repo"); len(ce.Unknown) != 0 {
		t.Errorf("settings without plugins, or hook files, close the gate: %q", ce.Unknown)
	}
}

// The dialect observed: strict JSON, mcpServers required, a bad server
// skipped, type/url as observed.
func TestCopilotDialect(t *testing.T) {
	parse := parserOf(copilotClient{}, "/r/.github/mcp.json")
	if c := parse("{\n// c\n\"mcpServers\":{}}"); c.Err == nil {
		t.Error("a comment read")
	}
	if c := parse(`{"mcpServers":{"a":{"command":"x","args":["y",]}}}`); c.Err == nil {
		t.Error("a trailing comma read")
	}
	if c := parse(`{"servers":{"a":{"command":"x"}}}`); c.Err == nil {
		t.Error("a file without mcpServers read")
	}
	c := parse(`{"mcpServers":{"n":{"command":"node","args":[1]},"e":{"command":"x","env":{"N":1}},"none":{"args":["a"]},"ok":{"command":"x"},"u":{"url":"http://x"},"h":{"type":"http","url":"http://y","command":"node"},"s":{"type":"stdio","url":"http://y","command":"node"}}}`)
	if c.Err != nil || names(c.Servers) != "h,ok,s,u" {
		t.Fatalf("servers %s (err %v)", names(c.Servers), c.Err)
	}
	if remoteNote(c.Servers[0]) == "" || remoteNote(c.Servers[3]) == "" || remoteNote(c.Servers[2]) != "" {
		t.Errorf("remote/stdio read wrong: %+v", c.Servers)
	}
}

// Interpolation observed: $VAR, ${VAR}, ${VAR:-d} in command, args and
// env; the server's own env resolves a name; undefined stays literal.
func TestCopilotSpawn(t *testing.T) {
	s := parserOf(copilotClient{}, "/r/.mcp.json")(`{"mcpServers":{"m":{"command":"$SHX","args":["${FOO}","$NOPE","${NOPE:-dd}","$K"],"env":{"K":"kval","D":"${FOO:-x}"}}}}`).Servers[0]
	vars := map[string]string{"SHX": "/bin/sh", "FOO": "fooval"}
	sp := copilotClient{}.Spawn(s, func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if sp.Command != "/bin/sh" || strings.Join(sp.Args, " ") != "fooval $NOPE dd kval" || sp.Env[0].Value != "fooval" {
		t.Fatalf("spawn %q %q %+v", sp.Command, sp.Args, sp.Env)
	}
	if !slices.Contains(sp.Missing, "NOPE") {
		t.Errorf("missing %q", sp.Missing)
	}
}

// The launch: exact names joined by "=", before the user's arguments;
// -C is refused.
func TestCopilotArgv(t *testing.T) {
	got, err := CopilotArgv("copilot", []string{"db", "-x", "a,b"}, []string{"-p", "hi"})
	want := []string{"copilot", "--disable-mcp-server=db", "--disable-mcp-server=-x", "--disable-mcp-server=a,b", "-p", "hi"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("argv %q (%v)", got, err)
	}
	if _, err := CopilotArgv("copilot", []string{""}, nil); err == nil {
		t.Error("an empty name passed")
	}
	c := copilotClient{}
	for _, args := range [][]string{{"-C", "/x"}, {"-C/x"}, {"-p", "x", "-C", "y"}} {
		if _, _, err := DisableLaunch(c, "copilot", nil, nil, args, nil); err == nil || !strings.Contains(err.Error(), "-C") {
			t.Errorf("%q: -C not refused (%v)", args, err)
		}
	}
	for _, args := range [][]string{{"--", "-C"}, {"--continue"}} {
		if _, _, err := DisableLaunch(c, "copilot", nil, nil, args, nil); err != nil {
			t.Errorf("%q refused: %v", args, err)
		}
	}
	if DisableLaunch(c, "copilot", []string{"db"}, nil, nil, nil); Lookup(CopilotCLI).Handover() != HandDisableNames || Command("/usr/bin/copilot") != CopilotCLI {
		t.Error("registry")
	}
}

// Attacks: a config that is a symlink is read where it points (Copilot
// CLI follows it, observed); the hooks of a symlinked .github/hooks are
// read where it points; a trusted folder's name that is only a prefix of the repository's
// does not trust it (in TestCopilotGate).
func TestCopilotSymlinks(t *testing.T) {
	f := newFixture(t)
	f.write("repo/conf/servers.json", `{"mcpServers":{"db":{"command":"node","args":["db.js"]}}}`)
	if err := os.MkdirAll(filepath.Join(f.repo, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../conf/servers.json", filepath.Join(f.repo, ".github", "mcp.json")); err != nil {
		t.Fatal(err)
	}
	f.write("elsewhere/hooks/x.json", `{"hooks":{"sessionStart":[{"bash":"./evil.sh"}]}}`)
	if err := os.Symlink(filepath.Join(f.root, "elsewhere", "hooks"), filepath.Join(f.repo, ".github", "hooks")); err != nil {
		t.Fatal(err)
	}
	f.write("home/.copilot/config.json", `{"trustedFolders": ["$ROOT/repo"]}`)
	ce := f.evaluate(CopilotCLI, "repo")
	if v := verdict(ce, "db"); v == nil || !v.Interactive {
		t.Fatalf("a symlinked .github/mcp.json is not read: %+v", ce.Servers)
	}
	if v := verdict(ce, "hooks.sessionStart[0]"); v == nil || !v.Interactive || !strings.HasSuffix(v.Path, filepath.Join(".github", "hooks", "x.json")) {
		t.Errorf("a symlinked hooks directory's hook is not gated: %+v", ce.Servers)
	}
}

// Copilot CLI's hooks as observed on 1.0.102: each command hook of a
// hook file or of the repository settings is an entry; on Linux its
// `bash` line, else its `command`; Claude Code's nested form and
// PascalCase events too; nothing from http or prompt hooks, a
// powershell-only hook or a blank line; `env` and `cwd` are part of the
// entry. A file that does not read closes the gate.
func TestCopilotHooks(t *testing.T) {
	for _, tc := range []struct {
		name, path, data string
		want             []entry
		unreadable       bool
	}{
		{"bash wins over command", ".github/hooks/a.json",
			`{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"./a.sh","command":"b"},{"type":"command","command":"c"}]}}`,
			[]entry{{"hook", "hooks.sessionStart[0]", "./a.sh"}, {"hook", "hooks.sessionStart[1]", "c"}}, false},
		{"nested and PascalCase", ".github/hooks/a.json",
			`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"},{"command":"y"}]}]}}`,
			[]entry{{"hook", "hooks.PreToolUse[0].hooks[0]", "x"}, {"hook", "hooks.PreToolUse[0].hooks[1]", "y"}}, false},
		{"nothing runs from http, prompt, powershell-only or blank", ".github/hooks/a.json",
			`{"hooks":{"sessionStart":[{"type":"http","url":"https://x"},{"type":"prompt","prompt":"p"},{"powershell":"p"},{"bash":"  "},{"bash":7}]}}`,
			nil, false},
		{"an unknown type with a line counts", ".github/hooks/a.json",
			`{"hooks":{"agentStop":[{"type":"future","bash":"z"}]}}`, []entry{{"hook", "hooks.agentStop[0]", "z"}}, false},
		{"settings with comments", ".github/copilot/settings.json",
			"// repo settings\n{\"model\":\"m\",\"hooks\":{\"sessionEnd\":[{\"bash\":\"s\"}]}}",
			[]entry{{"hook", "hooks.sessionEnd[0]", "s"}}, false},
		{"an empty file", ".github/hooks/a.json", ``, nil, false},
		{"a hook file with a comment", ".github/hooks/a.json", "// x\n{}", nil, true},
		{"hooks not an object", ".github/hooks/a.json", `{"hooks":[]}`, nil, true},
		{"not an object", ".github/hooks/a.json", `[]`, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := copilotClient{}.Parse(filepath.Join("/r", tc.path), []byte(tc.data))
			var got []entry
			for _, s := range c.Servers {
				if s.Command != "bash" || len(s.Args) != 2 || s.Args[0].Str != "-c" || s.NamePos.Line < 1 {
					t.Fatalf("%s: not a positioned bash -c line: %+v", s.Name, s)
				}
				got = append(got, entry{s.Kind, s.Name, s.Args[1].Str})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("entries %v, want %v", got, tc.want)
			}
			if c.Unreadable() != tc.unreadable {
				t.Errorf("unreadable %v (%v), want %v", c.Unreadable(), c.Err, tc.unreadable)
			}
		})
	}
}

// The gate of Copilot CLI's hooks: the project root's hook files and
// settings hooks run in a trusted folder, from a subdirectory too; a
// subdirectory's do not (observed); a hook runs in the
// root or its cwd below it, with its env.
func TestCopilotHookGate(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.github/hooks/a.json", `{"hooks":{"sessionStart":[{"bash":"./s.sh","cwd":"sub","env":{"K":"v"}}]}}`)
	f.write("repo/sub/.github/hooks/b.json", `{"hooks":{"sessionStart":[{"bash":"sub-hook"}]}}`)
	f.write("repo/sub/.github/copilot/settings.json", `{"hooks":{"sessionStart":[{"bash":"sub-settings"}]}}`)
	f.write("repo/.github/copilot/settings.json", `{"hooks":{"sessionEnd":[{"command":"end"}]}}`)
	ce := f.evaluate(CopilotCLI, "repo/sub")
	var names []string
	for _, v := range ce.Servers {
		names = append(names, v.Path[len(f.repo):]+":"+v.Name)
		if v.Interactive || v.Headless || !strings.Contains(v.Why, "not trusted") {
			t.Errorf("untrusted: %s runs: %+v", v.Name, v)
		}
	}
	want := []string{"/.github/copilot/settings.json:hooks.sessionEnd[0]", "/.github/hooks/a.json:hooks.sessionStart[0]"}
	if !slices.Equal(names, want) {
		t.Fatalf("entries %q, want %q", names, want)
	}
	f.write("home/.copilot/config.json", `{"trustedFolders": ["$ROOT/repo"]}`)
	ce = f.evaluate(CopilotCLI, "repo/sub")
	for _, v := range ce.Servers {
		if !v.Interactive || !v.Headless || !strings.Contains(v.Why, "runs this hook without asking") {
			t.Errorf("trusted: %s: %+v", v.Name, v)
		}
	}
	a := verdict(ce, "hooks.sessionStart[0]")
	sp := SpawnFor(copilotClient{}, a.Server, a.Path, func(string) (string, bool) { return "", false })
	if sp.Cwd != filepath.Join(f.repo, "sub") || len(sp.Env) != 1 || sp.Env[0].Value != "v" {
		t.Errorf("spawn %+v, want cwd repo/sub and env K=v", sp)
	}
	st := copilotClient{}.State(f.repo, f.repo, f.env())
	if im := (copilotClient{}).Impact(st, nil, a.Server); !im.Interactive || !strings.Contains(im.Why, "Copilot CLI runs this hook") {
		t.Errorf("impact %+v", im)
	}
}

// With no server or hook of its own, a repository's plugin settings or
// a Cline plugin package mcp-guard cannot read as an entry still close
// the gate: the client is evaluated,
// its state saying why.
func TestUnknownWithoutConfig(t *testing.T) {
	for _, tc := range []struct {
		id         ID
		file, want string
	}{
		{CopilotCLI, "repo/.github/copilot/settings.json", "enabledPlugins"},
		{Cline, "repo/.cline/plugins/pkg/index.js", "without a package.json"},
	} {
		f := newFixture(t)
		f.write("repo/README", "x")
		if ev, _ := EvaluateOnly(f.repo, f.env(), tc.id); len(ev.Clients) != 0 {
			t.Errorf("%s: evaluated with nothing there: %+v", tc.id, ev.Clients)
		}
		f.write(tc.file, `{"enabledPlugins":{"p@m":true}}`)
		ce := f.evaluate(tc.id, "repo")
		if !strings.Contains(strings.Join(ce.Unknown, "\n"), tc.want) {
			t.Errorf("%s: unknown %q, want %q", tc.id, ce.Unknown, tc.want)
		}
	}
}
