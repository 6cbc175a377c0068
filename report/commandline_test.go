package report

import (
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// TestCommandLineShown: an entry that runs nothing itself is rendered as
// its client says it is, not as the stand-in command it is modelled with;
// an assignment is quoted after its =, anything else as a word, and the
// repository's bytes are sanitised either way.
func TestCommandLineShown(t *testing.T) {
	stand := []trust.Arg{{Str: "-c", Spawn: "-c", IsString: true}, {Str: ": stand-in", Spawn: ": stand-in", IsString: true}}
	for _, c := range []struct {
		shown []string
		want  string
	}{
		{[]string{"env", "NODE_OPTIONS=--require ./x.js", "FOO=bar"}, `env NODE_OPTIONS='--require ./x.js' FOO=bar`},
		{[]string{"env", "E=", "Q=it's"}, `env E='' Q='it'\''s'`},
		{[]string{"env", "1X=a b", "A-B=c d"}, `env '1X=a b' 'A-B=c d'`},
		{[]string{"env", "T=\x1b[31mred\x1b[0m"}, `env T=` + quoteWord("\x1b[31mred\x1b[0m")},
		{[]string{"env", `"A=1"`}, `env '"A=1"'`},
	} {
		s := &trust.Server{Command: "/bin/sh", Args: stand, Shown: c.shown}
		if got := CommandLine(s); got != c.want {
			t.Errorf("%q: %q, want %q", c.shown, got, c.want)
		}
	}
	if got := CommandLine(&trust.Server{Command: "/bin/sh", Args: stand}); got != `/bin/sh -c ': stand-in'` {
		t.Errorf("without Shown: %q", got)
	}
}

// TestCommandLineExec: a Claude Code exec-form hook is shown as Claude
// Code spawns it, its command and args, each one shell word, never as the
// /bin/sh -c line it is modelled with.
func TestCommandLineExec(t *testing.T) {
	cfg := client.Lookup(client.ClaudeCode).Parse("/r/.claude/settings.json", []byte(`{"hooks":{"SessionStart":[{"hooks":[
		{"type":"command","command":"node","args":["tools/x.js","a b","$HOME;id","it's",""]}]}]}}`))
	if cfg.Err != nil || len(cfg.Servers) != 1 {
		t.Fatalf("parse: %v, %d entries", cfg.Err, len(cfg.Servers))
	}
	s := cfg.Servers[0]
	if s.Command != "/bin/sh" {
		t.Fatalf("modelled with %q, want /bin/sh -c (the model binds the quoted line)", s.Command)
	}
	if got, want := CommandLine(s), `node tools/x.js 'a b' '$HOME;id' 'it'\''s' ''`; got != want {
		t.Errorf("CommandLine = %q, want %q", got, want)
	}
	// The escape of a control byte stays one word.
	cfg = client.Lookup(client.ClaudeCode).Parse("/r/.claude/settings.json", []byte(`{"hooks":{"SessionStart":[{"hooks":[
		{"type":"command","command":"node","args":["\u001b[2Kx"]}]}]}}`))
	if got := CommandLine(cfg.Servers[0]); strings.ContainsRune(got, 0x1b) || !strings.HasPrefix(got, "node '") {
		t.Errorf("CommandLine = %q: the escape byte reached the terminal or was not quoted", got)
	}
}
