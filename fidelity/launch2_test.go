package fidelity

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
)

// launchScenario runs exactly the argv `mcp-guard launch -- gemini|codex`
// builds (client.AllowArgv, client.CodexArgv) around the agent's own
// command, and checks which servers spawned.
type launchScenario struct {
	name  string
	setup func(s *sandbox)
	// wrap is the launch's flags around the agent's argv (argv[0] dropped).
	wrap func(t *testing.T, argv []string) []string
	// args replaces the agent's headless argv when set.
	args []string
	want []string
	// fails: the client refuses to start.
	fails bool
	says  string
}

func testLaunch(t *testing.T, a *agent, all []launchScenario) {
	t.Parallel()
	bin := a.cli.get(t)
	for _, sc := range all {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			sc.setup(s)
			s.commit()
			wrapped := *a
			wrapped.command = func(m mode, args []string) []string {
				argv := a.command(m, args)
				if sc.args != nil {
					argv = sc.args
				}
				return sc.wrap(t, argv)
			}
			o, _ := s.runAgent(&wrapped, bin, agentScenario{mode: headless, fails: sc.fails})
			if !strings.Contains(o.output, sc.says) {
				t.Errorf("output lacks %q:\n%s", sc.says, o.output)
			}
			if got, want := names(o.spawned), sortedCopy(sc.want); !slices.Equal(got, want) {
				t.Errorf("spawned %v, want %v\n%s", got, want, o.output)
			}
		})
	}
}

func geminiAllow(allowed ...string) func(*testing.T, []string) []string {
	return func(_ *testing.T, argv []string) []string {
		return client.AllowArgv("gemini", allowed, argv)[1:]
	}
}

func codexOff(off ...string) func(*testing.T, []string) []string {
	return func(t *testing.T, argv []string) []string {
		out, err := client.CodexArgv("codex", off, argv)
		if err != nil {
			t.Fatal(err)
		}
		return out[1:]
	}
}

func TestLaunchGemini(t *testing.T) {
	twoTrusted := func(s *sandbox) { s.gemini("", "db", "other"); s.trustGemini() }
	testLaunch(t, gemini, []launchScenario{
		{name: "allowed-one/-p", setup: twoTrusted, wrap: geminiAllow("db"), want: []string{"db"}},
		{name: "allowed-two/-p", setup: twoTrusted, wrap: geminiAllow("db", "other"), want: []string{"db", "other"}},
		{name: "empty-value/-p", setup: twoTrusted, wrap: geminiAllow(), fails: true, says: "mcpName is required"},
		{name: "allowed-none/-p", setup: twoTrusted, wrap: geminiAllow("mcp-guard-none"), want: nil},
		{name: "exact-case/-p", setup: twoTrusted, wrap: geminiAllow("DB"), want: nil},
		{name: "user-server/-p", setup: func(s *sandbox) {
			twoTrusted(s)
			s.write("~/.gemini/settings.json", obj{"mcpServers": obj{"mine": s.server("mine")}})
		}, wrap: geminiAllow("db", "mine"), want: []string{"db", "mine"}},
		{name: "user-server-left-out/-p", setup: func(s *sandbox) {
			twoTrusted(s)
			s.write("~/.gemini/settings.json", obj{"mcpServers": obj{"mine": s.server("mine")}})
		}, wrap: geminiAllow("db"), want: []string{"db"}},
		{name: "replaces-excluded/-p", setup: func(s *sandbox) {
			twoTrusted(s)
			s.write("~/.gemini/settings.json", obj{"mcp": obj{"excluded": []string{"db"}}})
		}, wrap: geminiAllow("db"), want: []string{"db"}},
		{name: "prompt-after-flag", setup: twoTrusted, wrap: geminiAllow("db"),
			args: []string{"-m", "gemini-2.5-flash", "-p", "say ok"}, want: []string{"db"}},
		{name: "empty-name-server/-p", setup: func(s *sandbox) {
			s.gemini("", "db", "")
			s.trustGemini()
		}, wrap: geminiAllow("mcp-guard-none"), want: nil},
	})
}

func TestLaunchCodex(t *testing.T) {
	twoTrusted := func(s *sandbox) { s.codex("", "db", "other"); s.trustCodex("", "") }
	testLaunch(t, codex, []launchScenario{
		{name: "off-one/exec", setup: twoTrusted, wrap: codexOff("other"), want: []string{"db"}},
		{name: "off-both/exec", setup: twoTrusted, wrap: codexOff("db", "other"), want: nil},
		{name: "off-none/exec", setup: twoTrusted, wrap: codexOff(), want: []string{"db", "other"}},
		{name: "off-after-exec", setup: twoTrusted, wrap: func(_ *testing.T, argv []string) []string {
			return append([]string{argv[0], "-c", "mcp_servers.other.enabled=false"}, argv[1:]...)
		}, want: []string{"db"}},
		{name: "dotted-name/exec", setup: func(s *sandbox) { s.codex("", "db", "a.b"); s.trustCodex("", "") },
			wrap: codexOff(), want: []string{"a.b", "db"}},
		// A quoted key is split at its dot too: no -c can name "a.b", so
		// launch refuses such a project (client.CodexArgv).
		{name: "dotted-quoted/exec", setup: func(s *sandbox) { s.codex("", "db", "a.b"); s.trustCodex("", "") },
			wrap: func(_ *testing.T, argv []string) []string {
				return append([]string{"-c", `mcp_servers."a.b".enabled=false`}, argv...)
			}, fails: true, says: "in `mcp_servers.\"a`"},
	})
}
