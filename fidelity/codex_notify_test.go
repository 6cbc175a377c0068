package fidelity

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// codexNotify is a `notify = [...]` line whose argv runs the marker as
// notify (mcp-guard's name for the entry), its marker directory set in
// the line (Codex may hand a notify command a minimal environment), stdin
// closed and the JSON argument Codex appends passed on. Codex starts it
// and does not wait, and `codex exec` may exit first, so it runs in a
// session of its own (setsid), out of reach of the end of the run.
func (s *sandbox) codexNotify() string {
	line := "MARKER_DIR=" + shQuote(s.liveMarkers()) + " exec " + shQuote(s.marker) + " " + markerFlag + ` notify "$@" </dev/null`
	return "notify = [\"setsid\", \"/bin/sh\", \"-c\", " + strconv.Quote(line) + ", \"sh\"]\n"
}

// userNotify puts codexNotify at the top of the user's config.toml,
// before its tables.
func (s *sandbox) userNotify() {
	s.t.Helper()
	path := filepath.Join(s.home, ".codex", "config.toml")
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		s.t.Fatal(err)
	}
	s.write(path, s.codexNotify()+string(data))
}

// notifiedTurns checks that every start of notify had the JSON of an
// ended turn as its argument.
func notifiedTurns(t *testing.T, s *sandbox, o outcome) {
	for _, r := range o.spawned["notify"] {
		if len(r.Argv) != 2 || !strings.Contains(r.Argv[1], `"type":"agent-turn-complete"`) {
			t.Errorf("notify ran without the JSON of an ended turn: %q", r.Argv)
		}
	}
}

// codexIgnoresNotify checks Codex's own words for a project layer's
// notify: in its output, or (the interactive client) in the log of the
// app-server it runs the session in.
func codexIgnoresNotify(t *testing.T, s *sandbox, o outcome) {
	const msg = "Ignored unsupported project-local config keys in "
	log, _ := os.ReadFile(filepath.Join(s.home, ".codex", "app-server-daemon", "daemon.stderr.log"))
	for _, text := range []string{o.output, string(log)} {
		if i := strings.Index(text, msg); i >= 0 && strings.HasPrefix(text[i+len(msg):], filepath.Join(s.repo, ".codex", "config.toml")+": notify.") {
			return
		}
	}
	t.Errorf("Codex did not say it ignored the project's notify:\n%s\n%s", o.output, log)
}

// codexNotifySettle is how long a headless run waits for notify, which
// Codex does not wait for.
const codexNotifySettle = 5 * time.Second

// codexNotifyScenarios observe whether Codex runs a project layer's
// `notify` (the argv it runs when a turn ends), in `codex exec` and in
// the interactive client, against the user's own notify as the control.
func codexNotifyScenarios() []agentScenario {
	const user = "the user's own notify (~/.codex/config.toml) is the user's: mcp-guard gates a repository's"
	project := func(s *sandbox) {
		s.write(".codex/config.toml", s.codexNotify())
		s.trustCodex("", "")
	}
	return []agentScenario{
		{
			name:      "notify-user/-p",
			contract:  "the control: `notify` in the user's ~/.codex/config.toml: does `codex exec` run it when its turn ends?",
			mode:      headless,
			settle:    codexNotifySettle,
			setup:     func(s *sandbox) { s.trustCodex("", ""); s.userNotify() },
			want:      []string{"notify"},
			check:     notifiedTurns,
			open:      true,
			answer:    "Yes: once, when the turn ends, with the turn's JSON as its last argument (it starts it and does not wait).",
			noPredict: user,
		},
		{
			name:     "notify/-p",
			contract: "a trusted project's .codex/config.toml `notify`: does `codex exec` run it when its turn ends?",
			mode:     headless,
			settle:   codexNotifySettle,
			setup:    project,
			check:    codexIgnoresNotify,
			open:     true,
			answer: "No: Codex drops the key from a project layer and says so (\"Ignored unsupported project-local " +
				"config keys in …/.codex/config.toml: notify. If you want these settings to apply, manually set them in your user-level config.toml.\").",
		},
		{
			name: "notify-not-strings/-p",
			contract: "a trusted project's layer whose `notify` is not an array of strings (`[\"sh\", 3]`) beside a server: " +
				"does Codex reject the layer, as it does a server's non-string arg?",
			mode:   headless,
			settle: codexNotifySettle,
			setup: func(s *sandbox) {
				s.write(".codex/config.toml", "notify = [\"sh\", 3]\n"+s.codexServer("db"))
				s.trustCodex("", "")
			},
			want:   []string{"db"},
			check:  codexIgnoresNotify,
			open:   true,
			answer: "No: the key is dropped before it is read, whatever its value; the layer's servers start.",
		},
		{
			name:     "notify-user/tui",
			contract: "the control: the user's own `notify`: does the interactive client run it when a turn ends?",
			mode:     tui,
			setup:    func(s *sandbox) { s.trustCodex("", ""); s.userNotify() },
			want:     []string{"notify"},
			again:    []string{"notify"},
			check: func(t *testing.T, s *sandbox, o outcome) {
				notifiedTurns(t, s, o)
				if n := len(o.spawned["notify"]); n != 2 {
					t.Errorf("notify started %d times; want 2 (the prompt's turn and the title's)", n)
				}
			},
			open: true,
			answer: "Yes: when the prompt's turn ends, and again for the turn in which the client has the model title " +
				"the session (its JSON says so).",
			noPredict: user,
		},
		{
			name:     "notify/tui",
			contract: "a trusted project's .codex/config.toml `notify`: does the interactive client run it when a turn ends?",
			mode:     tui,
			setup:    project,
			check:    codexIgnoresNotify,
			open:     true,
			answer:   "No: the interactive client drops the key from a project layer too (its app-server logs the same warning).",
		},
	}
}
