package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a HOME and a repository (with a .git directory) in a temp
// directory; files are written relative to it, "$KEY" replaced by the
// repository's real path (Claude Code's project key).
type fixture struct {
	t          *testing.T
	root, home string
	repo       string // real path
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, home: filepath.Join(root, "home"), repo: filepath.Join(root, "repo")}
	f.write("repo/.git/HEAD", "ref: refs/heads/main\n")
	f.write("home/.keep", "")
	return f
}

func (f *fixture) write(rel, data string) {
	f.t.Helper()
	p := filepath.Join(f.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	data = strings.ReplaceAll(strings.ReplaceAll(data, "$KEY", f.repo), "$ROOT", f.root)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) env() Env {
	return Env{Getenv: func(k string) string {
		if k == "HOME" {
			return f.home
		}
		return ""
	}}
}

// claude evaluates Claude Code in dir (relative to root).
func (f *fixture) claude(dir string) ClientEvaluation {
	f.t.Helper()
	ev, err := Evaluate(filepath.Join(f.root, dir), f.env())
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range ev.Clients {
		if c.Client == ClaudeCode {
			return c
		}
	}
	f.t.Fatalf("no Claude Code in %s", dir)
	return ClientEvaluation{}
}

func verdict(ce ClientEvaluation, name string) *ServerVerdict {
	for i := range ce.Servers {
		if ce.Servers[i].Name == name {
			return &ce.Servers[i]
		}
	}
	return nil
}

const trusted = `{"projects":{"$KEY":{"hasTrustDialogAccepted":true}}}`

func TestClaudeGate(t *testing.T) {
	tests := []struct {
		name        string
		files       map[string]string
		launch      string // relative to root; "" = repo
		interactive bool
		headless    bool
		source      string // substring of Source; "" = no source
		repoSide    bool
		why         string // substring of Why
	}{
		{name: "nothing, untrusted", headless: true, why: "not trusted"},
		{name: "trust alone approves nothing", files: map[string]string{"home/.claude.json": trusted}, headless: true, why: "not approved by name"},

		{name: "user list, untrusted", files: map[string]string{"home/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`},
			interactive: true, headless: true, source: "~/.claude/settings.json", why: "by name"},
		{name: "user enableAll, untrusted", files: map[string]string{"home/.claude/settings.json": `{"enableAllProjectMcpServers":true}`},
			interactive: true, headless: true, source: "~/.claude/settings.json", why: "enableAllProjectMcpServers"},
		{name: "local list, untrusted: ignored", files: map[string]string{"repo/.claude/settings.local.json": `{"enabledMcpjsonServers":["db"]}`},
			headless: true},
		{name: "local list, trusted", files: map[string]string{"home/.claude.json": trusted, "repo/.claude/settings.local.json": `{"enabledMcpjsonServers":["db"]}`},
			interactive: true, headless: true, source: ".claude/settings.local.json", repoSide: true},
		{name: "shared list, untrusted: ignored", files: map[string]string{"repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`},
			headless: true},
		{name: "shared list, trusted: committed self-approval", files: map[string]string{"home/.claude.json": trusted, "repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`},
			interactive: true, headless: true, source: ".claude/settings.json", repoSide: true},
		{name: "shared enableAll, untrusted: ignored", files: map[string]string{"repo/.claude/settings.json": `{"enableAllProjectMcpServers":true}`},
			headless: true},
		{name: "shared enableAll, trusted", files: map[string]string{"home/.claude.json": trusted, "repo/.claude/settings.json": `{"enableAllProjectMcpServers":true}`},
			interactive: true, headless: true, source: ".claude/settings.json", repoSide: true},
		{name: "claude.json list, untrusted: ignored", files: map[string]string{"home/.claude.json": `{"projects":{"$KEY":{"enabledMcpjsonServers":["db"]}}}`},
			headless: true},
		{name: "claude.json list, trusted", files: map[string]string{"home/.claude.json": `{"projects":{"$KEY":{"hasTrustDialogAccepted":true,"enabledMcpjsonServers":["db"]}}}`},
			interactive: true, headless: true, source: "~/.claude.json projects["},
		{name: "claude.json enableAll, trusted", files: map[string]string{"home/.claude.json": `{"projects":{"$KEY":{"hasTrustDialogAccepted":true,"enableAllProjectMcpServers":true}}}`},
			interactive: true, headless: true, source: "~/.claude.json"},
		{name: "claude.json enableAll, untrusted: ignored", files: map[string]string{"home/.claude.json": `{"projects":{"$KEY":{"enableAllProjectMcpServers":true}}}`},
			headless: true},

		{name: "local deny, untrusted, beats the user list", files: map[string]string{
			"home/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`, "repo/.claude/settings.local.json": `{"disabledMcpjsonServers":["db"]}`},
			source: ".claude/settings.local.json", repoSide: true, why: "not even under `claude -p`"},
		{name: "shared deny, untrusted, beats user enableAll", files: map[string]string{
			"home/.claude/settings.json": `{"enableAllProjectMcpServers":true}`, "repo/.claude/settings.json": `{"disabledMcpjsonServers":["db"]}`},
			source: ".claude/settings.json", repoSide: true},
		{name: "claude.json deny, untrusted", files: map[string]string{
			"home/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`, "home/.claude.json": `{"projects":{"$KEY":{"disabledMcpjsonServers":["db"]}}}`},
			source: "~/.claude.json"},
		{name: "claude.json disabledMcpServers", files: map[string]string{"home/.claude.json": `{"projects":{"$KEY":{"disabledMcpServers":["db"]}}}`},
			source: "~/.claude.json", why: "disabledMcpServers"},
		{name: "deny beats a trusted shared list", files: map[string]string{"home/.claude.json": trusted,
			"repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`, "repo/.claude/settings.local.json": `{"disabledMcpjsonServers":["db"]}`},
			source: ".claude/settings.local.json", repoSide: true},
		{name: "a deny of another name stops nothing", files: map[string]string{"repo/.claude/settings.local.json": `{"disabledMcpjsonServers":["other"]}`},
			headless: true},

		{name: "scalar: local false beats shared true", files: map[string]string{"home/.claude.json": trusted,
			"repo/.claude/settings.json": `{"enableAllProjectMcpServers":true}`, "repo/.claude/settings.local.json": `{"enableAllProjectMcpServers":false}`},
			headless: true},
		{name: "scalar: shared false beats user true", files: map[string]string{"home/.claude.json": trusted,
			"home/.claude/settings.json": `{"enableAllProjectMcpServers":true}`, "repo/.claude/settings.json": `{"enableAllProjectMcpServers":false}`},
			headless: true},
		{name: "scalar: untrusted, local false is not read", files: map[string]string{
			"home/.claude/settings.json": `{"enableAllProjectMcpServers":true}`, "repo/.claude/settings.local.json": `{"enableAllProjectMcpServers":false}`},
			interactive: true, headless: true, source: "~/.claude/settings.json"},
		{name: "scalar false does not stop a name", files: map[string]string{"home/.claude.json": trusted,
			"repo/.claude/settings.local.json": `{"enableAllProjectMcpServers":false,"enabledMcpjsonServers":["db"]}`},
			interactive: true, headless: true, source: ".claude/settings.local.json", repoSide: true},
		{name: "headless: user enableAll false does not stop -p", files: map[string]string{"home/.claude/settings.json": `{"enableAllProjectMcpServers":false}`},
			headless: true},

		{name: "case-sensitive: DB is not db", files: map[string]string{"home/.claude/settings.json": `{"enabledMcpjsonServers":["DB"]}`},
			headless: true},
		{name: "exact: \"db \" is not db", files: map[string]string{"home/.claude/settings.json": `{"enabledMcpjsonServers":["db "]}`},
			headless: true},
		{name: "case-sensitive deny", files: map[string]string{"repo/.claude/settings.json": `{"disabledMcpjsonServers":["DB"]}`},
			headless: true},

		{name: "trust keyed by the git root from a subdirectory", launch: "repo/a",
			files:       map[string]string{"home/.claude.json": trusted, "repo/.claude/settings.local.json": `{"enabledMcpjsonServers":["db"]}`, "repo/a/.keep": ""},
			interactive: true, headless: true, source: ".claude/settings.local.json", repoSide: true},
		{name: "trust of a subdirectory is not the project's", files: map[string]string{
			"home/.claude.json": `{"projects":{"$KEY/a":{"hasTrustDialogAccepted":true}}}`, "repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`},
			headless: true, why: "not trusted"},
		{name: "trust of a parent is not inherited", files: map[string]string{
			"home/.claude.json": `{"projects":{"$ROOT":{"hasTrustDialogAccepted":true},"/":{"hasTrustDialogAccepted":true}}}`, "repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`},
			headless: true, why: "not trusted"},
		// Observed on 2.1.328 (fidelity subdir-* scenarios): from repo/a,
		// settings.json is the launch directory's only; settings.local.json
		// both the launch directory's and the git root's.
		{name: "subdirectory: the git root's settings.json is not read", launch: "repo/a",
			files:    map[string]string{"home/.claude.json": trusted, "repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`, "repo/a/.keep": ""},
			headless: true, why: "not approved by name"},
		{name: "subdirectory: its own settings.json is", launch: "repo/a",
			files:       map[string]string{"home/.claude.json": trusted, "repo/a/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`},
			interactive: true, headless: true, source: "a/.claude/settings.json", repoSide: true},
		{name: "subdirectory: its settings.local.json approves", launch: "repo/a",
			files:       map[string]string{"home/.claude.json": trusted, "repo/a/.claude/settings.local.json": `{"enabledMcpjsonServers":["db"]}`},
			interactive: true, headless: true, source: "a/.claude/settings.local.json", repoSide: true},
		{name: "subdirectory: a deny in its settings.local.json holds", launch: "repo/a",
			files:  map[string]string{"repo/a/.claude/settings.local.json": `{"disabledMcpjsonServers":["db"]}`},
			source: "a/.claude/settings.local.json", repoSide: true},
		{name: "subdirectory: a deny in the git root's settings.local.json holds", launch: "repo/a",
			files:  map[string]string{"repo/.claude/settings.local.json": `{"disabledMcpjsonServers":["db"]}`, "repo/a/.keep": ""},
			source: ".claude/settings.local.json", repoSide: true},
		{name: "subdirectory: a deny in the git root's settings.json does not", launch: "repo/a",
			files:    map[string]string{"repo/.claude/settings.json": `{"disabledMcpjsonServers":["db"]}`, "repo/a/.keep": ""},
			headless: true},

		{name: "malformed shared settings: unknown, counted as running", files: map[string]string{"repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"],}`},
			interactive: true, headless: true, source: ".claude/settings.json", repoSide: true, why: "unknown"},
		{name: "wrong type in a list: unknown", files: map[string]string{"repo/.claude/settings.local.json": `{"disabledMcpjsonServers":"db"}`},
			interactive: true, headless: true, source: ".claude/settings.local.json", repoSide: true, why: "unknown"},
		{name: "wrong type of enableAll: unknown", files: map[string]string{"home/.claude/settings.json": `{"enableAllProjectMcpServers":"yes"}`},
			interactive: true, headless: true, source: "~/.claude/settings.json", why: "unknown"},
		{name: "malformed claude.json: unknown", files: map[string]string{"home/.claude.json": `{"projects":`},
			interactive: true, headless: true, source: "~/.claude.json", why: "unknown"},
		{name: "truthy trust value counts", files: map[string]string{"home/.claude.json": `{"projects":{"$KEY":{"hasTrustDialogAccepted":1}}}`,
			"repo/.claude/settings.json": `{"enabledMcpjsonServers":["db"]}`},
			interactive: true, headless: true, source: ".claude/settings.json", repoSide: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("repo/.mcp.json", `{"mcpServers":{"db":{"command":"node","args":["srv.js"]}}}`)
			for p, d := range tt.files {
				f.write(p, d)
			}
			launch := tt.launch
			if launch == "" {
				launch = "repo"
			}
			v := verdict(f.claude(launch), "db")
			if v == nil {
				t.Fatal("no verdict for db")
			}
			if v.Interactive != tt.interactive || v.Headless != tt.headless {
				t.Errorf("interactive %v headless %v, want %v %v (%s)", v.Interactive, v.Headless, tt.interactive, tt.headless, v.Why)
			}
			if (tt.source == "") != (v.Source == "") || !strings.Contains(v.Source, tt.source) {
				t.Errorf("source %q, want %q", v.Source, tt.source)
			}
			if v.RepoSide != tt.repoSide {
				t.Errorf("repoSide %v, want %v", v.RepoSide, tt.repoSide)
			}
			if !strings.Contains(v.Why, tt.why) || v.Why == "" {
				t.Errorf("why %q, want %q", v.Why, tt.why)
			}
		})
	}
}

// Symlinks: the project key is the real path; trust stored for the link
// is ignored.
func TestClaudeSymlinkedLaunchDir(t *testing.T) {
	for _, tt := range []struct {
		name, key   string
		interactive bool
	}{
		{"trust for the real path works through the link", "$KEY", true},
		{"trust for the link path is ignored", "LINK", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			link := filepath.Join(f.root, "link")
			if err := os.Symlink(f.repo, link); err != nil {
				t.Fatal(err)
			}
			key := strings.ReplaceAll(tt.key, "LINK", link)
			f.write("repo/.mcp.json", `{"mcpServers":{"db":{"command":"node"}}}`)
			f.write("home/.claude.json", `{"projects":{"`+key+`":{"hasTrustDialogAccepted":true}}}`)
			f.write("repo/.claude/settings.json", `{"enabledMcpjsonServers":["db"]}`)
			ce := f.claude("link")
			v := verdict(ce, "db")
			if v == nil || v.Interactive != tt.interactive || !v.Headless {
				t.Fatalf("verdict %+v", v)
			}
			if ce.State.Claude.ProjectKey != f.repo {
				t.Errorf("project key %s, want %s", ce.State.Claude.ProjectKey, f.repo)
			}
			if v.Path != filepath.Join(f.repo, ".mcp.json") {
				t.Errorf("path %s", v.Path)
			}
		})
	}
}

// Outside git the key is the launch directory's real path.
func TestClaudeOutsideGit(t *testing.T) {
	f := newFixture(t)
	f.write("plain/.mcp.json", `{"mcpServers":{"db":{"command":"node"}}}`)
	f.write("home/.claude.json", `{"projects":{"`+filepath.Join(f.root, "plain")+`":{"hasTrustDialogAccepted":true,"enabledMcpjsonServers":["db"]}}}`)
	ce := f.claude("plain")
	if v := verdict(ce, "db"); v == nil || !v.Interactive {
		t.Fatalf("verdict %+v", v)
	}
}

// The walk: every ancestor's .mcp.json, above the git root too, nearest
// wins on a name clash (from repo/a/b: subsrv + rootsrv + outersrv, shared
// from a/b).
func TestClaudeWalkUp(t *testing.T) {
	f := newFixture(t)
	f.write(".mcp.json", `{"mcpServers":{"outersrv":{"command":"outer"},"shared":{"command":"outer"}}}`)
	f.write("repo/.mcp.json", `{"mcpServers":{"rootsrv":{"command":"root"},"shared":{"command":"root"}}}`)
	f.write("repo/a/b/.mcp.json", `{"mcpServers":{"subsrv":{"command":"sub"},"shared":{"command":"sub"}}}`)
	f.write("repo/a/.mcp.json", `{"mcpServers":{"bad":{"command":"x"},}}`) // fails whole, nothing from it
	ce := f.claude("repo/a/b")
	want := []string{filepath.Join(f.repo, "a/b/.mcp.json"), filepath.Join(f.repo, "a/.mcp.json"), filepath.Join(f.repo, ".mcp.json"), filepath.Join(f.root, ".mcp.json")}
	if len(ce.Configs) < len(want) || strings.Join(ce.Configs[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Fatalf("configs\n%s\nwant\n%s", strings.Join(ce.Configs, "\n"), strings.Join(want, "\n"))
	}
	got := map[string]string{}
	for _, v := range ce.Servers {
		if strings.HasPrefix(v.Path, f.root) {
			got[v.Name] = v.Server.Command + "@" + strings.TrimPrefix(v.Path, f.root)
		}
	}
	wantS := map[string]string{"subsrv": "sub@/repo/a/b/.mcp.json", "shared": "sub@/repo/a/b/.mcp.json", "rootsrv": "root@/repo/.mcp.json", "outersrv": "outer@/.mcp.json"}
	if len(got) != len(wantS) {
		t.Errorf("servers %v, want %v", got, wantS)
	}
	for k, w := range wantS {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	if ce.Files[1].Err == nil {
		t.Error("a/.mcp.json with a trailing comma read as valid")
	}
}

// Evaluate lists the clients found, and says when what one runs is unknown.
func TestEvaluateClientsFound(t *testing.T) {
	f := newFixture(t)
	ev, err := Evaluate(f.repo, f.env())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ev.Clients {
		if strings.HasPrefix(strings.Join(c.Configs, ""), f.root) {
			t.Errorf("client %s found in an empty repository", c.Client)
		}
	}
	f.write("repo/.mcp.json", `{"mcpServers":{"db":{"command":"node"}}}`)
	f.write("repo/.agentty/mcp.json", `{"mcpServers":{"db":{"command":"node"}}}`)
	f.write("repo/.claude/settings.json", `{`)
	ev, err = Evaluate(f.repo, f.env())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range ev.Clients {
		ids = append(ids, string(c.Client))
		if c.Client == ClaudeCode && (len(c.Unknown) != 1 || !strings.Contains(c.Unknown[0], ".claude/settings.json")) {
			t.Errorf("unknown %q", c.Unknown)
		}
	}
	// Qwen Code and Copilot CLI read a workspace .mcp.json too
	// (docs/qwen-code.md, docs/copilot-cli.md).
	if strings.Join(ids, ",") != "agentty,claude-code,qwen-code,copilot-cli" || ev.GitTop != f.repo {
		t.Errorf("clients %v, git top %s", ids, ev.GitTop)
	}
	if Lookup(ClaudeCode).Title() != "Claude Code" || Lookup(Agentty).Title() != "agentty" || Lookup("nope") != nil {
		t.Error("Lookup")
	}
}
