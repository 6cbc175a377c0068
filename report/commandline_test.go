package report

import (
	"testing"

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
