package client

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

func TestVSCodeDialect(t *testing.T) {
	runJSONC(t, "servers", parseVSCode, []jsoncCase{
		{name: "mcpServers is not VS Code's key", in: `{"mcpServers":{"db":{"command":"n"}}}`, err: `Missing "servers"`},
		{name: "inputs beside servers", in: `{"inputs":[{"type":"promptString","id":"k","description":"Key","password":true},],"servers":{"db":{"type":"stdio","command":"n","env":{"K":"${input:k}"}}}}`, servers: "db"},
		{name: "streamable-http is not a VS Code type: a url without a command is skipped", in: `{"servers":{"web":{"type":"streamable-http","url":"https://x"}}}`, skipped: "web"},
		{name: "stdio type without a command skips", in: `{"servers":{"bad":{"type":"stdio"},"db":{"command":"n"}}}`, servers: "db", skipped: "bad"},
		{name: "dev and sandbox keys accepted", in: `{"servers":{"db":{"type":"stdio","command":"node","dev":{"watch":"src/**/*.js","debug":{"type":"node"}},"sandboxEnabled":true,"sandbox":{"network":{"allowedDomains":["*"]}}}}}`, servers: "db"},
	})
}

// VS Code's interpolation: the predefined variables, ${env:…} and inputs;
// what needs VS Code's own state stays literal and is named.
func TestVSCodeSpawn(t *testing.T) {
	look := vars("HOME", "/home/u", "TOKEN", "t0k")
	tests := []struct {
		name                  string
		entry                 string
		command               string
		args                  []string
		env                   []EnvEntry
		vars, missing, inputs []string
		unresolved            []string
		envFile               string
	}{
		{name: "input", entry: `{"command":"node","env":{"KEY":"${input:api-key}"}}`, command: "node",
			env: []EnvEntry{{"KEY", "${input:api-key}"}}, inputs: []string{"api-key"}},
		{name: "input used twice is listed once", entry: `{"command":"${input:a}","args":["${input:a}","${input:b}"]}`,
			command: "${input:a}", args: []string{"${input:a}", "${input:b}"}, inputs: []string{"a", "b"}},
		{name: "workspaceFolder", entry: `{"command":"node","args":["${workspaceFolder}/srv.js"]}`, command: "node", args: []string{"/w/proj/srv.js"}},
		{name: "workspaceFolderBasename", entry: `{"command":"${workspaceFolderBasename}"}`, command: "proj"},
		{name: "env", entry: `{"command":"${env:TOKEN}"}`, command: "t0k", vars: []string{"TOKEN"}},
		{name: "env undefined", entry: `{"command":"a${env:NOPE}b"}`, command: "ab", vars: []string{"NOPE"}, missing: []string{"NOPE"}},
		{name: "userHome", entry: `{"command":"${userHome}${/}x"}`, command: "/home/u/x", vars: []string{"HOME"}},
		{name: "pathSeparator", entry: `{"command":"a${pathSeparator}b"}`, command: "a/b"},
		{name: "command, config, file and cwd are unresolved", entry: `{"command":"${command:pick}","args":["${config:x.y}","${file}","${cwd}","${workspaceFolder:Other}"]}`,
			command: "${command:pick}", args: []string{"${config:x.y}", "${file}", "${cwd}", "${workspaceFolder:Other}"},
			unresolved: []string{"command:pick", "config:x.y", "file", "cwd", "workspaceFolder:Other"}},
		{name: "empty braces", entry: `{"command":"a${}b"}`, command: "a${}b", unresolved: []string{""}},
		{name: "envFile", entry: `{"command":"node","envFile":"${workspaceFolder}/.env"}`, command: "node", envFile: "/w/proj/.env"},
		{name: "envFile with an input", entry: `{"command":"node","envFile":"${input:f}"}`, command: "node", envFile: "${input:f}", inputs: []string{"f"}},
		{name: "non-string envFile ignored", entry: `{"command":"node","envFile":5}`, command: "node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serverIn(t, parseVSCode, "servers", tt.entry)
			sp := vscodeClient{}.spawnIn(s, "/w/proj/.vscode/mcp.json", look)
			if sp.Command != tt.command || !eqStrings(sp.Args, tt.args) || !eqEnv(sp.Env, tt.env) {
				t.Errorf("spawn %q %q %v", sp.Command, sp.Args, sp.Env)
			}
			if !eqStrings(sp.Vars, tt.vars) || !eqStrings(sp.Missing, tt.missing) || !eqStrings(sp.Inputs, tt.inputs) || !eqStrings(sp.Unresolved, tt.unresolved) {
				t.Errorf("vars %q missing %q inputs %q unresolved %q", sp.Vars, sp.Missing, sp.Inputs, sp.Unresolved)
			}
			if sp.EnvFile != tt.envFile {
				t.Errorf("envFile %q, want %q", sp.EnvFile, tt.envFile)
			}
		})
	}
}

// vscodeState reads .vscode/settings.json from a fixture.
func vscodeState(t *testing.T, settings string) *State {
	t.Helper()
	f := newFixture(t)
	if settings != "" {
		f.write("repo/"+VSCodeSettingsFile, settings)
	}
	return vscodeClient{}.State(f.repo, f.repo, f.env())
}

func TestVSCodeSettings(t *testing.T) {
	tests := []struct {
		name, settings string
		autostart      string
		on             bool
		unknown        string // substring of the Unknown source's error
		discovery      string
		automaticTasks string
	}{
		{name: "no settings file", on: true},
		{name: "unset", settings: `{"editor.fontSize":12}`, on: true},
		{name: "never", settings: `{"chat.mcp.autostart":"never"}`, autostart: AutostartNever},
		{name: "onlyNew", settings: `{"chat.mcp.autostart":"onlyNew"}`, autostart: AutostartOnlyNew, on: true},
		{name: "newAndOutdated", settings: `{"chat.mcp.autostart":"newAndOutdated"}`, autostart: AutostartNewAndOutdated, on: true},
		{name: "autoStart spelling", settings: `{"chat.mcp.autoStart":"onlyNew"}`, autostart: AutostartOnlyNew, on: true},
		{name: "the spelling that starts wins", settings: `{"chat.mcp.autostart":"never","chat.mcp.autoStart":"newAndOutdated"}`, autostart: AutostartNewAndOutdated, on: true},
		{name: "boolean true", settings: `{"chat.mcp.autostart":true}`, autostart: AutostartNewAndOutdated, on: true},
		{name: "boolean false", settings: `{"chat.mcp.autostart":false}`, autostart: AutostartNever},
		{name: "nested objects", settings: `{"chat":{"mcp":{"autostart":"onlyNew"}}}`, autostart: AutostartOnlyNew, on: true},
		{name: "partly nested", settings: `{"chat.mcp":{"autostart":"onlyNew"}}`, autostart: AutostartOnlyNew, on: true},
		{name: "JSONC", settings: "{\n// team settings\n\"chat.mcp.autostart\": \"newAndOutdated\", /* on */\n}", autostart: AutostartNewAndOutdated, on: true},
		{name: "last duplicate wins", settings: `{"chat.mcp.autostart":"newAndOutdated","chat.mcp.autostart":"never"}`, autostart: AutostartNever},
		{name: "unknown value: state unknown", settings: `{"chat.mcp.autostart":"always"}`, on: true, unknown: `unknown value "always"`},
		{name: "wrong type: state unknown", settings: `{"chat.mcp.autostart":1}`, on: true, unknown: "not a string"},
		{name: "malformed: state unknown", settings: `{"chat.mcp.autostart":`, on: true, unknown: "line 1"},
		{name: "not an object: state unknown", settings: `[]`, on: true, unknown: "not an object"},
		{name: "discovery", settings: `{"chat.mcp.discovery.enabled":{"claude-desktop":true}}`, on: true, discovery: `{"claude-desktop":true}`},
		{name: "automatic tasks", settings: `{"task.allowAutomaticTasks":"on"}`, on: true, automaticTasks: `"on"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := vscodeState(t, tt.settings)
			vs := st.VSCode
			if vs.Autostart != tt.autostart || vs.AutostartOn() != tt.on {
				t.Errorf("autostart %q on %v", vs.Autostart, vs.AutostartOn())
			}
			switch {
			case tt.unknown == "" && vs.Unknown != nil:
				t.Errorf("unknown: %v", vs.Unknown.Err)
			case tt.unknown != "" && (vs.Unknown == nil || !strings.Contains(vs.Unknown.Err.Error(), tt.unknown)):
				t.Errorf("unknown %+v, want %q", vs.Unknown, tt.unknown)
			}
			if vs.Discovery != tt.discovery || vs.AllowAutomaticTasks != tt.automaticTasks {
				t.Errorf("discovery %q automatic tasks %q", vs.Discovery, vs.AllowAutomaticTasks)
			}
			if len(st.Sources) != 1 || !st.Sources[0].RepoSide || st.Sources[0].Present != (tt.settings != "") {
				t.Errorf("sources %+v", st.Sources)
			}
		})
	}
}

func TestVSCodeSettingTooLarge(t *testing.T) {
	f := newFixture(t)
	f.write("repo/"+VSCodeSettingsFile, `{"x":"`+strings.Repeat("a", trust.MaxFileSize)+`"}`)
	st := vscodeClient{}.State(f.repo, f.repo, f.env())
	if st.VSCode.Unknown == nil || !strings.Contains(st.VSCode.Unknown.Err.Error(), "too large") {
		t.Errorf("unknown %+v", st.VSCode.Unknown)
	}
}

func TestVSCodeGate(t *testing.T) {
	stdio := serverIn(t, parseVSCode, "servers", `{"type":"stdio","command":"node"}`)
	tests := []struct {
		name, settings string
		server         *trust.Server
		source         string
		why            []string
	}{
		{name: "trusted workspace", server: stdio, why: []string{"once the workspace is trusted", "cannot read either decision"}},
		{name: "autostart from the repository", settings: `{"chat.mcp.autostart":"newAndOutdated"}`, server: stdio, source: VSCodeSettingsFile,
			why: []string{"chat.mcp.autostart = \"newAndOutdated\"", "when a chat message is sent"}},
		{name: "autostart never", settings: `{"chat.mcp.autostart":"never"}`, server: stdio, why: []string{"once the workspace is trusted"}},
		{name: "unknown settings", settings: `{`, server: stdio, source: VSCodeSettingsFile, why: []string{"state is unknown"}},
		{name: "remote", server: serverIn(t, parseVSCode, "servers", `{"type":"http","url":"https://x"}`), why: []string{"remote server"}},
		{name: "sandboxed", server: serverIn(t, parseVSCode, "servers", `{"command":"n","sandboxEnabled":true}`), why: []string{"approves its tool calls without asking"}},
		{name: "dev mode", server: serverIn(t, parseVSCode, "servers", `{"command":"n","dev":{"watch":"**"}}`), why: []string{"restarts it when watched files change"}},
		{name: "envFile", server: serverIn(t, parseVSCode, "servers", `{"command":"n","envFile":".env"}`), why: []string{"environment also comes from a file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := vscodeState(t, tt.settings)
			vs := vscodeClient{}.Gate(st, []Entry{{Name: "db", Path: "/r/.vscode/mcp.json", Server: tt.server}})
			if len(vs) != 1 {
				t.Fatalf("%d verdicts", len(vs))
			}
			v := vs[0]
			if !v.Interactive || !v.Headless || v.Source != tt.source || v.RepoSide != (tt.source != "") {
				t.Errorf("verdict %+v", v)
			}
			for _, w := range tt.why {
				if !strings.Contains(v.Why, w) {
					t.Errorf("why %q lacks %q", v.Why, w)
				}
			}
		})
	}
}

func TestVSCodeImpact(t *testing.T) {
	a := serverIn(t, parseVSCode, "servers", `{"command":"node","args":["srv.js"]}`)
	b := serverIn(t, parseVSCode, "servers", `{"command":"sh","args":["-c","x"]}`)
	tests := []struct {
		name, settings string
		old, new       *trust.Server
		interactive    bool
		source         string
		why            string
	}{
		{name: "changed command runs", old: a, new: b, interactive: true, why: "the new command runs without asking"},
		{name: "new server runs", new: a, interactive: true, why: "the new server `s` runs without asking"},
		{name: "autostart", settings: `{"chat.mcp.autostart":"onlyNew"}`, new: a, interactive: true, source: VSCodeSettingsFile, why: "starts when a chat message is sent"},
		{name: "unknown", settings: `{"chat.mcp.autostart":[]}`, old: a, new: b, interactive: true, source: VSCodeSettingsFile, why: "state is unknown"},
		{name: "removed", old: a, why: "removed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := vscodeClient{}.Impact(vscodeState(t, tt.settings), tt.old, tt.new)
			if im.Interactive != tt.interactive || im.Headless != tt.interactive || im.Source != tt.source || !strings.Contains(im.Why, tt.why) {
				t.Errorf("impact %+v", im)
			}
		})
	}
}

func TestParseVSCodeTasks(t *testing.T) {
	tests := []struct {
		name, in string
		want     []FolderOpenTask
		err      string
	}{
		{name: "no tasks", in: `{"version":"2.0.0"}`},
		{name: "folderOpen task", in: `{"version":"2.0.0","tasks":[
			// runs on open
			{"label":"dev","type":"shell","command":"node .vscode/x.js","args":["a",{"value":"b","quoting":"escape"},3],"runOptions":{"runOn":"folderOpen"},"presentation":{"reveal":"silent"}},
			{"label":"build","type":"shell","command":"make"},
			{"label":"other","command":"x","runOptions":{"runOn":"default"}},
		]}`, want: []FolderOpenTask{{Label: "dev", Type: "shell", Command: "node .vscode/x.js", Args: []string{"a", "b", "3"}}}},
		{name: "platform commands", in: `{"tasks":[{"label":"p","command":"a","linux":{"command":"curl x|sh"},"windows":{"command":{"value":"cmd"}},"runOptions":{"runOn":"folderOpen"}}]}`,
			want: []FolderOpenTask{{Label: "p", Command: "a", PlatformCommands: map[string]string{"linux": "curl x|sh", "windows": "cmd"}}}},
		{name: "command array as JSON", in: `{"tasks":[{"command":["a","b"],"runOptions":{"runOn":"folderOpen"}}]}`,
			want: []FolderOpenTask{{Command: `["a","b"]`}}},
		{name: "odd runOn counts as running", in: `{"tasks":[{"command":"a","runOptions":{"runOn":1}},{"command":"b","runOptions":"folderOpen"}]}`,
			want: []FolderOpenTask{{Command: "a"}, {Command: "b", Index: 1}}},
		{name: "a folder-open task's dependsOn runs the others", in: `{"tasks":[{"label":"x","command":"x"},{"dependsOn":["x"],"runOptions":{"runOn":"folderOpen"}}]}`,
			want: []FolderOpenTask{{Label: "x", Command: "x"}, {Index: 1}}},
		{name: "tasks not an array", in: `{"tasks":{}}`, err: "not an array"},
		{name: "file not an object", in: `[{"label":"x"}]`, err: "not an object"},
		{name: "malformed", in: `{"tasks":[`, err: "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseVSCodeTasks([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].Pos = trust.Pos{}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// Evaluate over a repository holding both configs: each client reads its
// own file, with its own key, and the spawn view knows the workspace.
func TestEvaluateCursorAndVSCode(t *testing.T) {
	f := newFixture(t)
	f.write("repo/"+CursorMCPFile, `{"mcpServers":{"cur":{"command":"node","args":["${workspaceFolder}/c.js"]},},}`)
	f.write("repo/"+VSCodeMCPFile, "{\n// shared\n\"inputs\":[{\"type\":\"promptString\",\"id\":\"k\",\"description\":\"K\"}],\n\"servers\":{\"vs\":{\"type\":\"stdio\",\"command\":\"node\",\"args\":[\"${workspaceFolder}/v.js\"],\"env\":{\"K\":\"${input:k}\"}}}}")
	f.write("repo/"+VSCodeSettingsFile, `{"chat.mcp.autostart":"newAndOutdated"}`)
	f.write("repo/sub/.cursor/mcp.json", `{"mcpServers":{"deep":{"command":"x"}}}`)
	ev, err := Evaluate(f.repo, f.env())
	if err != nil {
		t.Fatal(err)
	}
	got := map[ID]ClientEvaluation{}
	for _, c := range ev.Clients {
		got[c.Client] = c
	}
	cur, vs := got[Cursor], got[VSCode]
	if len(cur.Servers) != 1 || cur.Servers[0].Name != "cur" || len(vs.Servers) != 1 || vs.Servers[0].Name != "vs" {
		t.Fatalf("cursor %+v\nvscode %+v", cur.Servers, vs.Servers)
	}
	if a := cur.Servers[0].Spawn.Args; len(a) != 1 || a[0] != filepath.Join(f.repo, "c.js") {
		t.Errorf("cursor args %q", a)
	}
	sp := vs.Servers[0].Spawn
	if len(sp.Args) != 1 || sp.Args[0] != filepath.Join(f.repo, "v.js") || !eqStrings(sp.Inputs, []string{"k"}) {
		t.Errorf("vscode spawn %+v", sp)
	}
	if !vs.Servers[0].RepoSide || !strings.Contains(vs.Servers[0].Why, "chat.mcp.autostart") || len(vs.Unknown) != 0 || len(cur.Unknown) != 0 {
		t.Errorf("vscode verdict %+v unknown %v %v", vs.Servers[0], vs.Unknown, cur.Unknown)
	}
	if cur.Configs[0] != filepath.Join(f.repo, CursorMCPFile) || vs.Configs[0] != filepath.Join(f.repo, VSCodeMCPFile) {
		t.Errorf("configs %q %q", cur.Configs, vs.Configs)
	}

	// A broken VS Code file: what runs is unknown, and Evaluate says so.
	f.write("repo/"+VSCodeMCPFile, `{"servers":{"vs":{"command":"node"}`)
	f.write("repo/"+VSCodeSettingsFile, `{"chat.mcp.autostart":`)
	ev, _ = Evaluate(f.repo, f.env())
	for _, c := range ev.Clients {
		if c.Client == VSCode && (len(c.Unknown) != 2 || len(c.Servers) != 0 || !c.Files[0].Unreadable()) {
			t.Errorf("unknown %q servers %d", c.Unknown, len(c.Servers))
		}
	}

	// Neither client walks up: from sub/, only sub/.cursor/mcp.json.
	ev, _ = Evaluate(filepath.Join(f.repo, "sub"), f.env())
	if len(ev.Clients) != 1 || ev.Clients[0].Client != Cursor || ev.Clients[0].Servers[0].Name != "deep" {
		t.Errorf("from sub/: %+v", ev.Clients)
	}
}

func TestLookupNewClients(t *testing.T) {
	for _, id := range []ID{Cursor, VSCode} {
		if c := Lookup(id); c == nil || c.ID() != id || c.Title() == "" {
			t.Errorf("Lookup(%s) = %v", id, c)
		}
	}
}

func FuzzVSCodeDialect(f *testing.F) {
	for _, s := range []string{
		`{"inputs":[{"id":"k"}],"servers":{"db":{"type":"stdio","command":"${input:k}","args":["${workspaceFolder}","${command:x}"],"env":{"K":"${env:A}"},"envFile":"${userHome}/.env"}}}`,
		"\xEF\xBB\xBF{//c\n\"servers\":{\"a\":{\"command\":\"\\ud800\xff\",},/*x*/}}",
		`{"mcpServers":{}}`, `{"servers":{"x":{"type":"http","url":"u"}}} /*`, `{"servers":{"n":{"command":"c","args":[1,{}],}}}`,
	} {
		f.Add([]byte(s))
	}
	fuzzParser(f, parseVSCode, func(s *trust.Server) Spawn {
		return vscodeClient{}.spawnIn(s, "/w/p/.vscode/mcp.json", vars("A", "1", "HOME", "/h"))
	})
}

// FuzzVSCodeTasks: any bytes, no panic, the same answer twice.
func FuzzVSCodeTasks(f *testing.F) {
	for _, s := range []string{
		`{"tasks":[{"label":"a","command":{"value":"x"},"args":[{"value":1}],"linux":{"command":"y"},"runOptions":{"runOn":"folderOpen"}}]}`,
		`{"tasks":[{"runOptions":[]},]} // x`, `{"tasks":3}`, `[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, errA := ParseVSCodeTasks(data)
		b, errB := ParseVSCodeTasks(data)
		if (errA == nil) != (errB == nil) || !reflect.DeepEqual(a, b) {
			t.Fatal("not deterministic")
		}
		if errA != nil && a != nil {
			t.Fatal("tasks with an error")
		}
	})
}

func TestWorkspaceConfigs(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.vscode/mcp.json/x", "") // a directory, not a file
	f.write("repo/.cursor/mcp.json", `{}`)
	if got, _ := (vscodeClient{}).Configs(f.repo, f.repo, f.env()); len(got) != 0 {
		t.Errorf("a directory read as a config: %q", got)
	}
	if got, _ := (cursorClient{}).Configs(f.repo, f.repo, f.env()); len(got) != 1 || got[0] != filepath.Join(f.repo, CursorMCPFile) {
		t.Errorf("cursor configs %q", got)
	}
	if got := CursorUserConfig(f.env()); got != filepath.Join(f.home, ".cursor", "mcp.json") {
		t.Errorf("user config %q", got)
	}
	// A config mcp-guard cannot stat through (a symlink loop) is read and
	// reported, not left out.
	os.Remove(filepath.Join(f.repo, ".cursor", "mcp.json"))
	if err := os.Symlink("mcp.json", filepath.Join(f.repo, ".cursor", "mcp.json")); err != nil {
		t.Fatal(err)
	}
	if got, _ := (cursorClient{}).Configs(f.repo, f.repo, f.env()); len(got) != 1 {
		t.Errorf("a looping config left out: %q", got)
	}
}

// TestVSCodeWorkspaceFile: a .code-workspace file in the launch directory
// is a VS Code config (modelled from documentation): its settings' mcp
// servers at their place in the file, its folder-open tasks as entries,
// never its launch configurations; a file VS Code may still read from is
// unknown.
func TestVSCodeWorkspaceFile(t *testing.T) {
	const ws = `{
	// a multi-root workspace
	"folders": [{"path": "."}],
	"settings": {
		"editor.tabSize": 2,
		"mcp": {
			"servers": {
				"db": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/db.js"]},
				"remote": {"type": "http", "url": "https://x.example/mcp"},
			},
		},
	},
	"tasks": {"version": "2.0.0", "tasks": [
		{"label": "build", "type": "shell", "command": "make"},
		{"label": "setup", "type": "shell", "command": "./setup.sh", "args": ["--all"], "runOptions": {"runOn": "folderOpen"}},
	]},
	"launch": {"configurations": [{"type": "node", "request": "launch", "program": "./debug.js"}]},
}`
	c := vscodeClient{}.Parse("/r/app.code-workspace", []byte(ws))
	if c.Err != nil {
		t.Fatal(c.Err)
	}
	var names []string
	for _, s := range c.Servers {
		names = append(names, s.Name)
	}
	if !eqStrings(names, []string{"db", "remote", "tasks.tasks[1]"}) {
		t.Fatalf("entries %q", names)
	}
	if db := c.Server("db"); db.NamePos.Line != 8 || db.Command != "node" {
		t.Errorf("db at %+v, command %q: want line 8 of the file", db.NamePos, db.Command)
	}
	if got := entriesOf(c); len(got) != 1 || got[0] != (entry{EntryTask, "tasks.tasks[1]", "./setup.sh --all"}) {
		t.Errorf("tasks %v", got)
	}
	for name, data := range map[string]string{
		"no mcp, no tasks":      `{"folders":[{"path":"."}],"settings":{"editor.tabSize":2}}`,
		"mcp without servers":   `{"settings":{"mcp":{"inputs":[]}}}`,
		"launch configurations": `{"launch":{"configurations":[{"type":"node","program":"x.js"}]}}`,
	} {
		if c := (vscodeClient{}).Parse("/r/x.code-workspace", []byte(data)); c.Err != nil || len(c.Servers) != 0 {
			t.Errorf("%s: %d servers, %v", name, len(c.Servers), c.Err)
		}
	}
	for name, data := range map[string]string{
		"a syntax error":       `{"settings":{"mcp":{"servers":{"db":{"command":"node"}}`,
		"mcp not an object":    `{"settings":{"mcp":"x"}}`,
		"tasks of a bad shape": `{"tasks":{"tasks":7}}`,
		"a dotted mcp key":     `{"settings":{"mcp.servers":{"db":{"command":"node"}}}}`,
	} {
		if c := (vscodeClient{}).Parse("/r/x.code-workspace", []byte(data)); !c.Unreadable() {
			t.Errorf("%s: not unknown: %v", name, c.Err)
		}
	}

	f := newFixture(t)
	f.write("repo/app.code-workspace", ws)
	f.write("repo/sub/other.code-workspace", ws) // not in the launch directory
	ev, err := Evaluate(f.repo, f.env())
	if err != nil {
		t.Fatal(err)
	}
	for _, ce := range ev.Clients {
		if ce.Client != VSCode {
			continue
		}
		if !eqStrings(ce.Configs, []string{filepath.Join(f.repo, "app.code-workspace")}) {
			t.Errorf("configs %q", ce.Configs)
		}
		v := verdict(ce, "db")
		if v == nil || !v.Interactive || !strings.Contains(v.Why, "from the workspace file app.code-workspace") ||
			!eqStrings(v.Spawn.Args, []string{filepath.Join(f.repo, "db.js")}) {
			t.Errorf("db %+v", v)
		}
		if v := verdict(ce, "tasks.tasks[1]"); v == nil || !v.Interactive || !strings.Contains(v.Why, "when the folder opens") {
			t.Errorf("task %+v", v)
		}
		return
	}
	t.Fatalf("no VS Code in %+v", ev.Clients)
}

// TestVSCodeWorkspaceFolders: the folders a workspace file in the launch
// directory names are VS Code workspace folders, each with its own
// .vscode/mcp.json and folder-open tasks (VS Code's mcpConfigPathsService
// and runAutomaticTasks): a folder inside the repository is followed, its
// ${workspaceFolder} that folder; a folder outside it that holds .vscode
// files, or one mcp-guard cannot place, keeps the gate closed; a missing
// folder, or one outside holding nothing VS Code reads, is quiet.
func TestVSCodeWorkspaceFolders(t *testing.T) {
	const tasks = `{"version": "2.0.0", "tasks": [{"label": "boot", "type": "shell", "command": "./boot.sh", "runOptions": {"runOn": "folderOpen"}}]}`
	const mcp = `{"servers": {"%s": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/srv.js"]}}}`
	cases := []struct {
		name, folders string
		configs       []string // below the repository
		servers       map[string]string
		unknown       []string
	}{
		{"inside, every form", `[{"path": "."}, {"path": "web"}, {"path": "./x/../api"}, {"uri": "file://$ROOT/repo/lib"}, {"path": "$KEY/web"}, {"path": "gone"}, {"name": "no path"}, 7]`,
			[]string{"app.code-workspace", "web/.vscode/tasks.json", "api/.vscode/mcp.json", "lib/.vscode/mcp.json"},
			map[string]string{"tasks[0]": "web/.vscode/tasks.json", "api": "api/.vscode/mcp.json", "lib": "lib/.vscode/mcp.json"}, nil},
		{"a variable is not resolved", `[{"path": "${workspaceFolder}/web"}]`,
			[]string{"app.code-workspace"}, nil, nil},
		{"outside, with .vscode files", `[{"path": "../outside"}]`,
			[]string{"app.code-workspace"}, nil, []string{"folders[0]", "outside the repository"}},
		{"outside, nothing VS Code reads", `[{"path": "../empty"}, {"path": "/"}]`,
			[]string{"app.code-workspace"}, nil, nil},
		{"a remote folder", `[{"uri": "vscode-remote://ssh-remote+h/srv"}]`,
			[]string{"app.code-workspace"}, nil, []string{"folders[0]", "cannot place"}},
		{"a symlink out of the repository", `[{"path": "link"}]`,
			[]string{"app.code-workspace"}, nil, []string{"outside the repository"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/app.code-workspace", `{"folders": `+tc.folders+`}`)
			f.write("repo/web/.vscode/tasks.json", tasks)
			f.write("repo/api/.vscode/mcp.json", fmt.Sprintf(mcp, "api"))
			f.write("repo/lib/.vscode/mcp.json", fmt.Sprintf(mcp, "lib"))
			f.write("outside/.vscode/tasks.json", tasks)
			f.write("empty/README", "")
			if err := os.Symlink(filepath.Join(f.root, "outside"), filepath.Join(f.repo, "link")); err != nil {
				t.Fatal(err)
			}
			ce := f.evaluate(VSCode, "repo")
			var want []string
			for _, c := range tc.configs {
				want = append(want, filepath.Join(f.repo, filepath.FromSlash(c)))
			}
			if !eqStrings(ce.Configs, want) {
				t.Errorf("configs %q, want %q", ce.Configs, want)
			}
			// What the workspace file brings in (the hook's question) is
			// what it adds to the launch directory's configs.
			var inc []string
			for _, in := range (vscodeClient{}).Includes(want[0], f.repo, Env{}) {
				inc = append(inc, in.Path)
				if !strings.HasPrefix(in.Why, "the workspace file app.code-workspace lists the folder ") {
					t.Errorf("%s: why %q", in.Path, in.Why)
				}
			}
			if !eqStrings(inc, want[1:]) {
				t.Errorf("includes %q, want %q", inc, want[1:])
			}
			for name, file := range tc.servers {
				v := verdict(ce, name)
				if v == nil || v.Path != filepath.Join(f.repo, filepath.FromSlash(file)) || !v.Interactive {
					t.Errorf("%s: %+v", name, v)
					continue
				}
				if v.Server.Kind == "" {
					if dir := filepath.Dir(filepath.Dir(v.Path)); !eqStrings(v.Spawn.Args, []string{filepath.Join(dir, "srv.js")}) {
						t.Errorf("%s: ${workspaceFolder} is not its folder: %q", name, v.Spawn.Args)
					}
				}
			}
			if len(ce.Servers) != len(tc.servers) {
				t.Errorf("entries %+v", ce.Servers)
			}
			got := strings.Join(ce.Unknown, "\n")
			if len(tc.unknown) == 0 && got != "" {
				t.Errorf("unknown: %s", got)
			}
			for _, w := range tc.unknown {
				if !strings.Contains(got, w) {
					t.Errorf("unknown %q: no %q", got, w)
				}
			}
		})
	}
}
