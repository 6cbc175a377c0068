package hooks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/internal/textsafe"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

// FuzzHookRun: the hook entry with any hook type, arguments, stdin and
// pre-commit variables, against a real repository, never panics (a
// recovered panic shows as "internal error"), never overruns its budget,
// and whatever it reports, warning or give-up line, reaches the terminal
// escaped.
func FuzzHookRun(f *testing.F) {
	// One repository per process (each fuzzing worker runs this body);
	// building one per input would cost a git fast-import each time.
	dir, base, readme, config := benchRepo(f, 5)
	zeros := strings.Repeat("0", 40)
	f.Add("post-checkout", base, config, "1", "", uint8(0))
	f.Add("post-checkout", zeros, config, "1", "", uint8(0))
	f.Add("post-checkout", readme, config, "0", "", uint8(0))
	f.Add("post-merge", "0", "", "", "", uint8(0))
	f.Add("post-merge", "1", "", "", "", uint8(0))
	f.Add("post-rewrite", "rebase", "", "", readme+" "+config+"\n", uint8(0))
	f.Add("post-rewrite", "amend", "", "", base+" "+config+"\n", uint8(0))
	f.Add("", "", "", "", "", uint8(1))
	f.Add("post-checkout", "\x1b]0;t\x07", "HEAD\n-x", "1", "", uint8(2))
	f.Add("post-rewrite", "rebase", "", "", "\x1b[2J\x00 \xff\n"+zeros+" "+config, uint8(3))
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	f.Fuzz(func(t *testing.T, typ, a0, a1, a2, stdin string, mode uint8) {
		args := []string{a0, a1, a2}[:int(mode>>2)%4]
		e := append([]string(nil), env...)
		if mode&1 != 0 {
			e = append(e, "PRE_COMMIT_FROM_REF="+a0, "PRE_COMMIT_TO_REF="+a1, "PRE_COMMIT_CHECKOUT_TYPE="+a2)
		}
		if mode&2 != 0 {
			e = append(e, "PRE_COMMIT_REWRITE_COMMAND="+a0, "PRE_COMMIT_IS_SQUASH_MERGE="+a2)
		}
		const budget = 3 * time.Second
		start := time.Now()
		out, err := Run(context.Background(), Request{
			Type: typ, Args: args, Stdin: strings.NewReader(stdin), Dir: dir, Env: e,
			Ledger: &trust.Ledger{}, Timeout: budget,
		})
		// The budget plus a wide margin: a fuzzing worker runs at low
		// priority on a busy machine; a hang is unbounded.
		if d := time.Since(start); d > budget+15*time.Second {
			t.Fatalf("took %v", d)
		}
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("panic: %v", err)
		}
		if out == nil {
			t.Fatalf("no outcome (err %v)", err)
		}
		var b bytes.Buffer
		st := report.NewStyle(false)
		if err != nil {
			report.WriteHookProblem(&b, out.Event.Op, errors.Is(err, ErrTimeout), budget, err, out.Event.ManualCommand(), st)
			if strings.Count(b.String(), "\n") != 1 {
				t.Fatalf("give-up message is not one line: %q", b.String())
			}
		} else {
			report.WriteWarning(&b, report.Warning{Op: out.Event.Op, Changes: out.Changes, Findings: out.Findings}, st)
		}
		text := b.String()
		if !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8: %q", text)
		}
		for _, line := range strings.Split(text, "\n") {
			if !textsafe.Clean(line) {
				t.Fatalf("unsafe line %q", line)
			}
		}
	})
}
