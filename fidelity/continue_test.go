package fidelity

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
)

// The pinned Continue CLI. Re-observe (MCP_GUARD_FIDELITY=1 go test ./fidelity -run TestContinue) before changing it.
var continueCLI = &pinned{pkg: "@continuedev/cli", version: "1.5.47", cache: "continue-cli", bin: "cn",
	banner: "1.5.47", env: func(home string) []string { return isolatedEnv(home, nil) }}

// TestContinueServeInstallOnly holds docs/continue.md's observed facts: with
// every project place that could name an MCP server or a hook holding a
// marker, `cn -p` runs none of them; `cn serve` runs
// .continue/environment.json's install and nothing else; client's model
// says the install runs headless only.
func TestContinueServeInstallOnly(t *testing.T) {
	t.Parallel()
	bin := continueCLI.get(t)
	s := newSandbox(t)
	api := newFakeModel(t)
	touch := func(tag string) string { return "touch '" + filepath.Join(s.markerRoot, tag) + "'" }
	s.write("~/.continue/config.yaml", "name: fidelity\nversion: 0.0.1\nschema: v1\nmodels:\n"+
		"  - name: fake\n    provider: openai\n    model: gpt-4o\n    apiKey: fidelity-dummy\n"+
		"    apiBase: "+api.URL+"/v1\n    roles: [chat]\n")
	server := func(name string) string {
		return "name: " + name + "\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: " + name +
			"\n    command: /bin/sh\n    args: [\"-c\", \"" + touch("mcp-"+name) + "; sleep 30\"]\n"
	}
	s.write(".continue/config.yaml", server("config"))
	s.write(".continue/mcpServers/block.yaml", server("block"))
	json1 := func(name string) obj {
		return obj{"mcpServers": obj{name: obj{"command": "/bin/sh", "args": []string{"-c", touch("mcp-"+name) + "; sleep 30"}}}}
	}
	s.write(".continue/mcpServers/block.json", json1("blockjson"))
	s.write(".mcp.json", json1("dotmcp"))
	events := []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "Notification", "PreCompact"}
	hooks := func(tag string) obj {
		h := obj{}
		for _, e := range events {
			h[e] = []any{obj{"matcher": "", "hooks": []any{obj{"type": "command", "command": touch("hook-" + tag + "-" + e)}}}}
		}
		return obj{"hooks": h}
	}
	s.write(".continue/settings.json", hooks("continue"))
	s.write(".continue/settings.local.json", hooks("continue-local"))
	s.write(".claude/settings.json", hooks("claude"))
	s.write(".continue/environment.json", obj{"install": touch("install")})
	env := isolatedEnv(s.home, map[string]string{"HTTP_PROXY": api.URL, "HTTPS_PROXY": api.URL,
		"http_proxy": api.URL, "https_proxy": api.URL, "CONTINUE_API_BASE": api.URL + "/"})
	ran := func() []string { return markerFiles(t, s.markerRoot) }
	began := time.Now()
	out, err := runBounded(3*time.Minute, s.repo, env, bin, "-p", "hello")
	t.Logf("cn -p took %s", time.Since(began).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("cn -p: %v\n%s", err, out)
	}
	if answers, _, _, _ := api.snapshot(); answers == 0 {
		t.Fatalf("the fake model was never asked\n%s", out)
	}
	if got := ran(); len(got) != 0 {
		t.Fatalf("cn -p ran %q, want nothing (docs/continue.md)\n%s", got, out)
	}
	// cn serve with a 5 s inactivity timeout ends by itself.
	began = time.Now()
	out, err = runBounded(2*time.Minute, s.repo, env, bin, "serve", "--timeout", "5", "--port", "0")
	t.Logf("cn serve took %s (%v)", time.Since(began).Round(time.Millisecond), err)
	if got := ran(); !slices.Equal(got, []string{"install"}) {
		t.Fatalf("cn serve ran %q, want only the install command\n%s", got, out)
	}
	ev, err := client.EvaluateOnly(s.repo, homeOnly(s.home), client.Continue)
	if err != nil || len(ev.Clients) != 1 || len(ev.Clients[0].Servers) != 1 {
		t.Fatalf("client: %+v %v", ev, err)
	}
	v := ev.Clients[0].Servers[0]
	if v.Name != client.EntryInstall || v.Interactive || !v.Headless {
		b, _ := json.Marshal(v)
		t.Errorf("client predicts %s; want install, headless only", b)
	}
}
