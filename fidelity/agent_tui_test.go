package fidelity

import (
	"fmt"
	"strings"
	"time"
)

// agentTUI is how an agent's interactive client is driven in tmux (mode
// tui): the screens that say its composer takes a prompt, and those of a
// dialog it waits on the user at, which the run never answers.
type agentTUI struct {
	ready, dialogs []string
}

// agentTUIPrompt is what a tui run types, as headless runs pass it.
const agentTUIPrompt = "say ok"

// agentTUIQuiet is how long a composer must show, no dialog over it,
// before a tui run types into it.
const agentTUIQuiet = 8 * time.Second

// agentTUISettle is how long a tui run waits past the model's answer for
// what the end of the turn starts (a notify command is fire-and-forget).
const agentTUISettle = 10 * time.Second

// runAgentTUI starts a's interactive client in a detached tmux pane in
// launch, waits for its composer, types agentTUIPrompt and Enter, and
// returns the screen once the fake model answered and agentTUISettle has
// passed. It answers no dialog: at one of a.tui.dialogs it returns the
// screen agentTUISettle later, the prompt never typed; at another the
// composer never shows and the run fails.
func (s *sandbox) runAgentTUI(a *agent, launch string, env []string, bin string, argv []string, api *fakeModel) ([]byte, error) {
	if a.tui == nil {
		s.t.Fatalf("%s has no interactive mode in this suite", a.title)
	}
	p, err := s.startPane(fmt.Sprintf("tui-%d.sh", s.runs), launch, append(env, "TERM=xterm-256color"), append([]string{bin}, argv...))
	if err != nil {
		return nil, err
	}
	defer p.stop()
	screen := p.screen
	end := time.Now().Add(agentTimeout)
	// The composer must stay up, no dialog over it, for agentTUIQuiet:
	// interactive Codex draws its composer, then its "Hooks need review"
	// dialog over it some seconds later (3 s at load 20 on 2 CPUs).
	composer := func() (dialog bool, err error) {
		var since time.Time
		for {
			sc := screen()
			switch {
			case containsAny(sc, a.tui.dialogs):
				return true, nil
			case !containsAny(sc, a.tui.ready):
				since = time.Time{}
			case since.IsZero():
				since = time.Now()
			case time.Since(since) >= agentTUIQuiet:
				return false, nil
			}
			if time.Now().After(end) {
				return false, fmt.Errorf("the interactive client never showed its composer (%q) in %s", a.tui.ready, agentTimeout)
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
	switch dialog, err := composer(); {
	case err != nil:
		return []byte(screen()), err
	case dialog:
		// What runs at a dialog runs without asking: wait as past an
		// answer, then return the screen, the model never asked.
		time.Sleep(agentTUISettle)
		return []byte(screen()), nil
	}
	// The prompt, then Enter; both again while the model is not asked: on
	// a loaded machine a client can draw its composer before it reads keys.
	var typed time.Time
	for {
		if n, _, _, _ := api.snapshot(); n > 0 {
			break
		}
		if time.Now().After(end) {
			return []byte(screen()), fmt.Errorf("the interactive client never asked the model in %s", agentTimeout)
		}
		if time.Since(typed) > 15*time.Second {
			if !strings.Contains(screen(), agentTUIPrompt) {
				p.keys("-l", agentTUIPrompt)
				time.Sleep(500 * time.Millisecond)
			}
			p.keys("Enter")
			typed = time.Now()
		}
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(agentTUISettle)
	return []byte(screen()), nil
}
