package hooks

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-guard/mcp-guard/trust"
)

func envOf(kv ...string) Getenv {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

const (
	c1    = "1111111111111111111111111111111111111111"
	c2    = "2222222222222222222222222222222222222222"
	c3    = "3333333333333333333333333333333333333333"
	zeros = "0000000000000000000000000000000000000000"
)

func TestParseEvent(t *testing.T) {
	tests := []struct {
		name     string
		typ      string
		args     []string
		stdin    string
		env      Getenv
		old, new Rev
		fallback Rev
		reflog   bool
		skip     bool
		op       string
		err      bool
	}{
		{name: "branch checkout", typ: "post-checkout", args: []string{c1, c2, "1"}, old: c1, new: c2, op: "checkout"},
		{name: "file checkout", typ: "post-checkout", args: []string{c1, c1, "0"}, old: "HEAD", new: RevWorkTree, op: "file checkout"},
		{name: "checkout -b", typ: "post-checkout", args: []string{c1, c1, "1"}, old: c1, new: c1, skip: true, op: "checkout"},
		{name: "first checkout", typ: "post-checkout", args: []string{zeros, c2, "1"}, old: RevEmpty, new: c2, op: "checkout"},
		{name: "sha256 first checkout", typ: "post-checkout", args: []string{strings.Repeat("0", 64), c2, "1"}, old: RevEmpty, new: c2, op: "checkout"},
		{name: "checkout missing args", typ: "post-checkout", args: []string{c1}, err: true},
		{name: "merge", typ: "post-merge", args: []string{"0"}, old: "ORIG_HEAD", new: "HEAD", op: "merge"},
		{name: "squash merge", typ: "post-merge", args: []string{"1"}, old: "HEAD", new: RevIndex, op: "merge"},
		{name: "merge no args", typ: "post-merge", old: "ORIG_HEAD", new: "HEAD", op: "merge"},
		{name: "rebase", typ: "post-rewrite", args: []string{"rebase"}, stdin: c1 + " " + c2 + "\n" + c2 + " " + c3 + " extra\n", old: "ORIG_HEAD", new: "HEAD", fallback: c2, op: "rebase"},
		{name: "rebase nothing rewritten", typ: "post-rewrite", args: []string{"rebase"}, stdin: "", old: "ORIG_HEAD", new: "HEAD", skip: true, op: "rebase"},
		{name: "rebase garbage lines", typ: "post-rewrite", args: []string{"rebase"}, stdin: "x\n\n" + c1 + " " + c2, old: "ORIG_HEAD", new: "HEAD", fallback: c1, op: "rebase"},
		{name: "amend", typ: "post-rewrite", args: []string{"amend"}, stdin: c1 + " " + c2 + "\n", skip: true, op: "amend"},
		{name: "unknown type", typ: "pre-push", err: true},
		{name: "pre-commit checkout", env: envOf("PRE_COMMIT_FROM_REF", c1, "PRE_COMMIT_TO_REF", c2, "PRE_COMMIT_CHECKOUT_TYPE", "1"), old: c1, new: c2, op: "checkout"},
		{name: "pre-commit file checkout", env: envOf("PRE_COMMIT_FROM_REF", c1, "PRE_COMMIT_TO_REF", c1, "PRE_COMMIT_CHECKOUT_TYPE", "0"), old: "HEAD", new: RevWorkTree, op: "file checkout"},
		{name: "transaction prepared", typ: "reference-transaction", args: []string{"prepared"}, stdin: c1 + " " + c2 + " HEAD\n", skip: true, op: "operation"},
		{name: "transaction moves HEAD", typ: "reference-transaction", args: []string{"committed"}, stdin: c1 + " " + c2 + " HEAD\n" + c1 + " " + c2 + " refs/heads/main\n", old: c1, new: c2, op: "operation", reflog: true},
		{name: "transaction HEAD stays", typ: "reference-transaction", args: []string{"committed"}, stdin: c1 + " " + c1 + " HEAD\n", skip: true, op: "operation"},
		{name: "transaction detaches from nothing", typ: "reference-transaction", args: []string{"committed"}, stdin: zeros + " " + c1 + " HEAD\n", skip: true, op: "operation"},
		{name: "transaction fetch", typ: "reference-transaction", args: []string{"committed"}, stdin: zeros + " " + c1 + " refs/remotes/origin/main\n" + c1 + " " + c2 + " refs/tags/v1\n", skip: true, op: "operation"},
		{name: "stash pop", typ: "reference-transaction", args: []string{"committed"}, stdin: c1 + " " + zeros + " refs/stash\n", old: "HEAD", new: RevWorkTree, op: "stash pop"},
		{name: "new stash", typ: "reference-transaction", args: []string{"committed"}, stdin: zeros + " " + c1 + " refs/stash\n", skip: true, op: "operation"},
		{name: "transaction without stdin", typ: "reference-transaction", args: []string{"committed"}, skip: true, op: "operation"},
		{name: "pre-commit merge", env: envOf("PRE_COMMIT_IS_SQUASH_MERGE", "0"), old: "ORIG_HEAD", new: "HEAD", op: "merge"},
		{name: "pre-commit rewrite", env: envOf("PRE_COMMIT_REWRITE_COMMAND", "rebase"), stdin: "never read", old: "ORIG_HEAD", new: "HEAD", op: "rebase"},
		{name: "pre-commit amend", env: envOf("PRE_COMMIT_REWRITE_COMMAND", "amend"), skip: true, op: "amend"},
		{name: "no type, no pre-commit", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := tt.env
			if env == nil {
				env = envOf()
			}
			ev, err := ParseEvent(tt.typ, tt.args, strings.NewReader(tt.stdin), env)
			if (err != nil) != tt.err {
				t.Fatalf("err %v, want error %v", err, tt.err)
			}
			if tt.err {
				return
			}
			if ev.Old != tt.old || ev.New != tt.new || (ev.Skip != "") != tt.skip || ev.Op != tt.op || ev.fallbackOld != tt.fallback || ev.byReflog != tt.reflog {
				t.Errorf("got %+v", ev)
			}
		})
	}
}

// blockingReader never returns: a stdin nobody closes.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

// TestRunNeverHangs: a stdin that never ends costs the budget, not more.
func TestRunNeverHangs(t *testing.T) {
	start := time.Now()
	_, err := Run(context.Background(), Request{Type: "post-rewrite", Args: []string{"rebase"}, Stdin: blockingReader{}, Dir: t.TempDir(), Env: []string{}, Timeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("err %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 10*time.Second { // a hang guard, not a benchmark
		t.Errorf("took %v", d)
	}
}

func TestRunSkipsWithoutReadingTheRepository(t *testing.T) {
	// Not a repository at all: a fetch's transaction must not even look.
	out, err := Run(context.Background(), Request{Type: "reference-transaction", Args: []string{"committed"}, Stdin: strings.NewReader(zeros + " " + c1 + " refs/remotes/origin/main\n"), Dir: t.TempDir(), Env: []string{}})
	if err != nil || out.Event.Skip == "" || !out.Quiet() {
		t.Errorf("out %+v err %v", out, err)
	}
}

func TestClassify(t *testing.T) {
	ev := Event{Type: "reference-transaction", Old: c1, New: c2, Op: "operation", byReflog: true}
	for msg, want := range map[string]Event{
		"reset: moving to HEAD~1":        {Op: "reset", Old: c1, New: RevWorkTree},
		"cherry-pick: add a server":      {Op: "cherry-pick", Old: c1, New: c2},
		"revert: Revert \"x\"":           {Op: "revert", Old: c1, New: c2},
		"am: add a server":               {Op: "am", Old: c1, New: c2},
		"commit: edit the config":        {Skip: "x"},
		"commit (amend): x":              {Skip: "x"},
		"checkout: moving from a to b":   {Skip: "x"},
		"merge main: Fast-forward":       {Skip: "x"},
		"pull: Fast-forward":             {Skip: "x"},
		"rebase (pick): x":               {Skip: "x"},
		"pull --rebase (pick): reset: x": {Skip: "x"},
		"":                               {Skip: "x"},
	} {
		got := ev.classify(c1, c2, msg)
		if (got.Skip != "") != (want.Skip != "") || want.Skip == "" && (got.Op != want.Op || got.Old != want.Old || got.New != want.New) {
			t.Errorf("%q: %+v", msg, got)
		}
	}
}

// TestPostCommitTakesTheMoveFromTheReflog: post-commit and
// post-applypatch have no arguments; HEAD's newest reflog entry gives the
// move and names the operation.
func TestPostCommitTakesTheMoveFromTheReflog(t *testing.T) {
	for _, tc := range []struct {
		typ, old, new, msg string
		want               Event
	}{
		{"post-commit", c1, c2, "cherry-pick: add a server", Event{Op: "cherry-pick", Old: c1, New: c2}},
		{"post-commit", c1, c2, "revert: Revert \"x\"", Event{Op: "revert", Old: c1, New: c2}},
		{"post-applypatch", c1, c2, "am: add a server", Event{Op: "am", Old: c1, New: c2}},
		{"post-commit", c1, c2, "commit: edit the config", Event{Skip: "x"}},
		{"post-commit", zeros, c2, "commit (initial): one", Event{Skip: "x"}},
		{"post-commit", "", "", "", Event{Skip: "x"}}, // no reflog
	} {
		ev, err := ParseEvent(tc.typ, nil, nil, envOf("", ""))
		if err != nil || ev.Skip != "" {
			t.Fatalf("%s: %+v %v", tc.typ, ev, err)
		}
		got := ev.classify(tc.old, tc.new, tc.msg)
		if (got.Skip != "") != (tc.want.Skip != "") || tc.want.Skip == "" && (got.Op != tc.want.Op || got.Old != tc.want.Old || got.New != tc.want.New) {
			t.Errorf("%s %q: %+v", tc.typ, tc.msg, got)
		}
	}
}

func TestLastReflogEntry(t *testing.T) {
	dir := t.TempDir()
	if _, _, got := lastReflogEntry(dir); got != "" {
		t.Errorf("no reflog: %q", got)
	}
	mustDo(t, os.MkdirAll(filepath.Join(dir, "logs"), 0o755))
	line := func(msg string) string {
		return c1 + " " + c2 + " A U Thor <a@example.com> 1700000000 +0000\t" + msg + "\n"
	}
	long := strings.Repeat(line("commit: x"), 1000)
	for content, want := range map[string]string{
		line("commit: one") + line("reset: moving to HEAD~1"): "reset: moving to HEAD~1",
		long + line("am: patch"):                              "am: patch",
		line(strings.Repeat("x", 2*maxReflogTail)):            "",
		"": "",
	} {
		mustDo(t, os.WriteFile(filepath.Join(dir, "logs", "HEAD"), []byte(content), 0o644))
		old, new, got := lastReflogEntry(dir)
		if got != want {
			t.Errorf("got %.40q, want %q", got, want)
		}
		if want != "" && (old != c1 || new != c2) {
			t.Errorf("%q: old %q new %q", want, old, new)
		}
	}
}

func TestTimeout(t *testing.T) {
	for v, want := range map[string]time.Duration{"": DefaultTimeout, "250ms": 250 * time.Millisecond, "2": 2 * time.Second, "0.5": 500 * time.Millisecond, "junk": DefaultTimeout, "-1s": DefaultTimeout} {
		if got := Timeout(envOf(TimeoutEnv, v)); got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}

func TestManualCommand(t *testing.T) {
	for ev, want := range map[Event]string{
		{Old: "ORIG_HEAD", New: "HEAD"}: "mcp-guard diff ORIG_HEAD HEAD",
		{Old: RevEmpty, New: c2}:        "mcp-guard check",
		{Old: "HEAD", New: RevIndex}:    "mcp-guard diff HEAD",
	} {
		if got := ev.ManualCommand(); got != want {
			t.Errorf("%+v: %q", ev, got)
		}
	}
}

// FuzzParseEvent: any arguments and stdin give an event or an error, never
// a panic, and never read more than MaxRewriteInput.
func FuzzParseEvent(f *testing.F) {
	f.Add("post-rewrite", "rebase", c1+" "+c2+"\n")
	f.Add("post-checkout", zeros, "")
	f.Add("post-merge", "1", "")
	f.Add("reference-transaction", "committed", c1+" "+c2+" HEAD\n"+c1+" "+zeros+" refs/stash\n")
	f.Fuzz(func(t *testing.T, typ, arg, stdin string) {
		r := &countingReader{r: strings.NewReader(stdin)}
		ev, err := ParseEvent(typ, []string{arg, arg, arg}, r, envOf())
		if r.n > MaxRewriteInput {
			t.Fatalf("read %d bytes", r.n)
		}
		if err == nil && ev.Type != typ {
			t.Fatalf("type %q for %q", ev.Type, typ)
		}
	})
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestRunTinyBudget: a budget that ends before anything is done is always
// reported as a timeout, never as some other error, whichever of the two
// finishes first.
func TestRunTinyBudget(t *testing.T) {
	for range 200 {
		out, err := Run(context.Background(), Request{Type: "post-checkout", Args: []string{c1, c2, "1"}, Dir: t.TempDir(), Env: []string{}, Timeout: time.Nanosecond})
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("err %v, want ErrTimeout", err)
		}
		if out.Event.Op != "checkout" || out.Event.ManualCommand() != "mcp-guard diff "+c1+" "+c2 {
			t.Fatalf("event %+v", out.Event)
		}
	}
}

// TestFirstCheckout names a checkout from no commit by what git leaves
// when it runs post-checkout (observed on git 2.39; hook_worktree.txtar
// and hook_template.txtar run real git).
func TestFirstCheckout(t *testing.T) {
	first, err := ParseEvent("post-checkout", []string{zeros, c2, "1"}, nil, envOf())
	if err != nil || !first.Brings() {
		t.Fatalf("a checkout from zeros: %+v, %v", first, err)
	}
	for _, tc := range []struct {
		name   string
		linked bool
		msg    string
		want   string
	}{
		{"clone", false, "clone: from https://example.com/r.git", "clone"},
		{"clone of a submodule or a linked dir's own clone", true, "clone: from ../r", "clone"},
		{"worktree add --detach", true, "", "worktree"},
		{"worktree add -b", true, "reset: moving to HEAD", "worktree"},
		{"init, fetch, checkout", false, "checkout: moving from master to main", "checkout"},
		{"orphan branch, then a checkout, in a worktree", true, "checkout: moving from o2 to main", "checkout"},
		{"no reflog", false, "", "checkout"},
	} {
		if got := first.FirstCheckout(tc.linked, tc.msg).Op; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	moved, _ := ParseEvent("post-checkout", []string{c1, c2, "1"}, nil, envOf())
	if moved.Brings() || moved.FirstCheckout(true, "clone: from x").Op != "checkout" {
		t.Error("a checkout that moved HEAD is not a first checkout")
	}
}

// TestUnpopulated: a checkout that moved nothing is a first checkout only
// when HEAD has not moved since the repository or worktree was made (the
// marker of a first checkout the hook ran: TestSameCommitCheckoutReadsNoObject).
func TestUnpopulated(t *testing.T) {
	same := reflogEntry{c2, c2, "checkout: moving from main to main"}
	clone := reflogEntry{zeros, c2, "clone: from /up.git"}
	for _, tc := range []struct {
		name   string
		linked bool
		reflog []reflogEntry // newest first
		op     string        // "" when it stays skipped
	}{
		{"clone --no-checkout then checkout main", false, []reflogEntry{same, clone}, "clone"},
		{"worktree add --no-checkout then checkout", true, []reflogEntry{{zeros, c2, ""}}, "worktree"},
		{"worktree add --no-checkout then checkout BRANCH", true, []reflogEntry{same, {zeros, c2, ""}}, "worktree"},
		{"several checkouts that moved nothing", false, []reflogEntry{same, same, clone}, "clone"},
		{"HEAD moved since the clone", false, []reflogEntry{same, {c1, c2, "pull: Fast-forward"}, clone}, ""},
		{"made at another commit", false, []reflogEntry{same, {zeros, c1, "clone: from /up.git"}}, ""},
		{"no reflog", false, nil, ""},
		{"a first commit", false, []reflogEntry{same, {zeros, c2, "commit (initial): v1"}}, ""},
		{"a first commit in a worktree", true, []reflogEntry{same, {zeros, c2, "commit (initial): v1"}}, ""},
		{"a reset from an unborn branch", false, []reflogEntry{same, {zeros, c2, "reset: moving to origin/main"}}, ""},
		{"no message outside a linked worktree", false, []reflogEntry{same, {zeros, c2, ""}}, ""},
		{"only checkouts in the reflog's end", false, []reflogEntry{same, same}, ""},
	} {
		ev, err := ParseEvent("post-checkout", []string{c2, c2, "1"}, nil, envOf())
		if err != nil || ev.Skip != skipNoMove {
			t.Fatalf("%+v %v", ev, err)
		}
		got := ev.Unpopulated(tc.linked, tc.reflog)
		if tc.op == "" {
			if got.Skip == "" || got.Brings() {
				t.Errorf("%s: %+v, want skipped", tc.name, got)
			}
			continue
		}
		if got.Skip != "" || !got.Brings() || got.Op != tc.op || got.Old != RevEmpty || got.New != c2 {
			t.Errorf("%s: %+v, want a first %s", tc.name, got, tc.op)
		}
	}
	// A file checkout is never a first checkout.
	ev, _ := ParseEvent("post-checkout", []string{c2, c2, "0"}, nil, envOf())
	if got := ev.Unpopulated(false, []reflogEntry{clone}); got.Brings() || got.Op != "file checkout" {
		t.Errorf("file checkout: %+v", got)
	}
}

// TestFilling: a file checkout is the first checkout only when HEAD has
// not moved since the repository or worktree was made; it then compares
// no files with the files on disk.
func TestFilling(t *testing.T) {
	same := reflogEntry{c2, c2, "checkout: moving from main to main"}
	clone := reflogEntry{zeros, c2, "clone: from /up.git"}
	for _, tc := range []struct {
		name   string
		linked bool
		head   string
		reflog []reflogEntry // newest first
		op     string        // "" when it stays an everyday file checkout
	}{
		{"clone --no-checkout then checkout HEAD -- .", false, c2, []reflogEntry{clone}, "clone"},
		{"after a checkout that moved nothing", false, c2, []reflogEntry{same, clone}, "clone"},
		{"worktree add --no-checkout then restore", true, c2, []reflogEntry{{zeros, c2, ""}}, "worktree"},
		{"HEAD moved since the clone", false, c2, []reflogEntry{{c1, c2, "pull: Fast-forward"}, clone}, ""},
		{"HEAD is not the clone's commit", false, c1, []reflogEntry{clone}, ""},
		{"no reflog", false, c2, nil, ""},
		{"no HEAD", false, "", []reflogEntry{clone}, ""},
		{"a first commit", false, c2, []reflogEntry{{zeros, c2, "commit (initial): v1"}}, ""},
	} {
		ev, err := ParseEvent("post-checkout", []string{c2, c2, "0"}, nil, envOf())
		if err != nil || ev.Op != "file checkout" {
			t.Fatalf("%+v %v", ev, err)
		}
		got := ev.Filling(tc.linked, tc.head, tc.reflog)
		if tc.op == "" {
			if got.Brings() || got.Op != "file checkout" || got.Old != "HEAD" {
				t.Errorf("%s: %+v, want an everyday file checkout", tc.name, got)
			}
			continue
		}
		if got.Skip != "" || !got.Brings() || got.Op != tc.op || got.Old != RevEmpty || got.New != RevWorkTree {
			t.Errorf("%s: %+v, want a first %s of the files on disk", tc.name, got, tc.op)
		}
	}
	// A branch checkout is Unpopulated's.
	ev, _ := ParseEvent("post-checkout", []string{c2, c2, "1"}, nil, envOf())
	if got := ev.Filling(false, c2, []reflogEntry{clone}); got.Brings() {
		t.Errorf("branch checkout: %+v", got)
	}
}

// TestReflogTail: whole entries newest first; a line cut by the bounded
// read is dropped.
func TestReflogTail(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
	line := func(old, new, msg string) string { return old + " " + new + " A <a@b> 1 +0000\t" + msg + "\n" }
	long := strings.Repeat("x", maxReflogTail)
	os.WriteFile(filepath.Join(dir, "logs", "HEAD"), []byte(line(zeros, c1, long)+line(zeros, c2, "clone: from u")+line(c2, c2, "checkout: moving from main to main")), 0o644)
	got := reflogTail(dir)
	want := []reflogEntry{{c2, c2, "checkout: moving from main to main"}, {zeros, c2, "clone: from u"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %q", got)
	}
	if reflogTail(filepath.Join(dir, "missing")) != nil {
		t.Error("entries without a reflog")
	}
}

// TestSameCommitCheckoutReadsNoObject: an everyday checkout that moved
// nothing is told from a first one by files alone. The repository below
// holds no object at all: reading one would fail the run.
func TestSameCommitCheckoutReadsNoObject(t *testing.T) {
	dir := t.TempDir()
	git := filepath.Join(dir, ".git")
	for _, d := range []string{"objects/pack", "objects/info", "refs/heads", "refs/tags", "logs"} {
		os.MkdirAll(filepath.Join(git, d), 0o755)
	}
	os.WriteFile(filepath.Join(git, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(git, "config"), []byte("[core]\n\trepositoryformatversion = 0\n\tbare = false\n"), 0o644)
	os.WriteFile(filepath.Join(git, "refs/heads/main"), []byte(c2+"\n"), 0o644)
	os.WriteFile(filepath.Join(git, "logs/HEAD"), []byte(zeros+" "+c2+" A <a@b> 1 +0000\tclone: from /up.git\n"+c2+" "+c2+" A <a@b> 2 +0000\tcheckout: moving from main to main\n"), 0o644)
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	run := func() (*Outcome, error) {
		return Run(context.Background(), Request{Type: "post-checkout", Args: []string{c2, c2, "1"}, Dir: dir, Env: env, Ledger: &trust.Ledger{}})
	}
	// The hook never ran a first checkout here: this is one, and it goes
	// on to read the commit, which is missing.
	if out, err := run(); err == nil || !out.Event.Brings() || out.Event.Op != "clone" {
		t.Fatalf("unpopulated: %+v %v, want a clone that fails on the missing commit", out.Event, err)
	}
	os.WriteFile(filepath.Join(git, populatedFile), nil, 0o644)
	if out, err := run(); err != nil || out.Event.Skip != skipNoMove || !out.Quiet() {
		t.Errorf("everyday: %+v %v", out.Event, err)
	}
	// Nor is the reflog read once the marker is there: opening this one
	// would wait for a writer, and the run would time out.
	mustDo(t, os.Remove(filepath.Join(git, "logs/HEAD")))
	mustDo(t, syscall.Mkfifo(filepath.Join(git, "logs/HEAD"), 0o644))
	out, err := Run(context.Background(), Request{Type: "post-checkout", Args: []string{c2, c2, "1"}, Dir: dir, Env: env, Ledger: &trust.Ledger{}, Timeout: 5 * time.Second})
	if err != nil || out.Event.Skip != skipNoMove {
		t.Errorf("everyday, the reflog a FIFO: %+v %v", out.Event, err)
	}
	// Nor the repository's config or refs: the marker is found from
	// the work tree's .git (a directory, a linked worktree's "gitdir:"
	// file, or GIT_DIR) before the repository is opened.
	mustDo(t, os.Remove(filepath.Join(git, "config")))
	mustDo(t, syscall.Mkfifo(filepath.Join(git, "config"), 0o644))
	wt := filepath.Join(t.TempDir(), "wt")
	mustDo(t, os.MkdirAll(wt, 0o755))
	mustDo(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+git+"\n"), 0o644))
	for _, tc := range []struct {
		name, dir string
		env       []string
	}{{"a .git directory", dir, env}, {"a gitdir: file", wt, env}, {"GIT_DIR", t.TempDir(), append(env, "GIT_DIR="+git)}} {
		out, err := Run(context.Background(), Request{Type: "post-checkout", Args: []string{c2, c2, "1"}, Dir: tc.dir, Env: tc.env, Ledger: &trust.Ledger{}, Timeout: 2 * time.Second})
		if err != nil || out.Event.Skip != skipNoMove {
			t.Errorf("everyday, the config a FIFO, %s: %+v %v", tc.name, out.Event, err)
		}
	}
}
