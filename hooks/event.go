package hooks

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Rev names one side of a comparison: a revision git resolves (a commit
// id, ORIG_HEAD, HEAD), the empty repository (Empty, git's all-zeros id),
// the staged index (Index) or the files on disk (WorkTree).
type Rev string

const (
	// RevEmpty is the state before a first checkout (a clone, git
	// worktree add, a checkout onto an unborn branch): no files at all.
	RevEmpty Rev = ""
	// RevIndex is the staged index (a squash merge stages its result).
	RevIndex Rev = ":index"
	// RevWorkTree is the files on disk, which agentty reads (a file
	// checkout or a stash pop changes them without moving HEAD).
	RevWorkTree Rev = ":worktree"
)

// Event is what git (or the pre-commit framework) told a hook: which hook
// it is and which two states of the repository to compare.
type Event struct {
	Type string
	// Old and New are the states before and after the operation.
	Old, New Rev
	// Skip says why there is nothing to compare ("" when there is).
	Skip string
	// Op names the operation for people: "clone", "worktree" (git
	// worktree add), "checkout", "file checkout", "merge", "rebase",
	// "amend", "stash pop", "reset", "cherry-pick", "revert", "am".
	Op string

	// fallbackOld replaces Old when it cannot be resolved (post-rewrite:
	// the old side of the last pair when ORIG_HEAD is missing).
	fallbackOld Rev
	// byReflog is set for a move of HEAD seen by reference-transaction,
	// post-commit or post-applypatch: HEAD's reflog, written with the
	// move, names the operation (see classify).
	byReflog bool
	// fromReflog is set when the reflog's newest entry also gives the
	// move itself (post-commit and post-applypatch have no arguments).
	fromReflog bool
	// first is set for a checkout from no commit (post-checkout with an
	// all-zeros PREV): everything it checked out is new.
	first bool
}

// Brings reports whether the event started from no files (a clone, a new
// worktree, a checkout onto an unborn branch): a warning then says what
// it brings, not what it changed.
func (ev Event) Brings() bool { return ev.first }

// FirstCheckout names a first checkout (Brings) from what git leaves
// behind when it runs post-checkout: HEAD's newest reflog entry, which
// git writes before the hook, and whether the git directory is a linked
// worktree's (.git/worktrees/NAME, with a commondir file). A clone's
// entry says "clone: from URL"; git worktree add's says nothing, or
// "reset: moving to HEAD" for a new branch; a checkout onto an unborn
// branch (after git init and a fetch, or from an orphan branch) says
// "checkout: moving from A to B", in a worktree too. Without a reflog
// (core.logAllRefUpdates off) a clone is named "checkout", which it also
// is: the words never claim more than git shows. Other events are
// returned as they are.
func (ev Event) FirstCheckout(linked bool, reflogMsg string) Event {
	if !ev.first {
		return ev
	}
	switch {
	case strings.HasPrefix(reflogMsg, "clone: "):
		ev.Op = "clone"
	case linked && !strings.HasPrefix(reflogMsg, "checkout: "):
		ev.Op = "worktree"
	default:
		ev.Op = "checkout"
	}
	return ev
}

// reflogEntry is one line of HEAD's reflog: the commit ids before and
// after, and the message.
type reflogEntry struct{ old, new, msg string }

// Unpopulated turns a checkout that did not move HEAD (`git checkout
// main` after `git clone --no-checkout`, `git checkout` after `git
// worktree add --no-checkout`) into the first checkout it is when the
// work tree had never been checked out: git then runs post-checkout with
// the same commit on both sides, as for an everyday `git checkout main`
// on main. What local git leaves tells them apart, never the
// repository's content: HEAD has not moved since the entry that made the
// repository or worktree (HEAD's reflog, newest first, holds only
// entries that moved nothing before the one from no commit to this
// commit, and that one is a clone's, "clone: from URL", or in a linked
// worktree git worktree add's, which has no message; a first commit's
// or a reset's from no commit brought files already there). It is asked
// only where no hook ran a first checkout (the marker the hook leaves in
// the git directory when it does: see run), so that the everyday
// checkout reads no reflog. A repository whose clone ran without these
// hooks gets the first checkout's warning once, on its first
// same-commit checkout. Without a reflog (reflogs off, or its end
// longer than what is read) nothing is claimed: the event stays
// skipped. Other events are returned as they are.
func (ev Event) Unpopulated(linked bool, newestFirst []reflogEntry) Event {
	if ev.Skip != skipNoMove {
		return ev
	}
	msg, ok := unmovedSinceMade(linked, newestFirst, string(ev.New))
	if !ok {
		return ev
	}
	ev.Skip, ev.Old, ev.first = "", RevEmpty, true
	return ev.FirstCheckout(linked, msg)
}

// Filling turns a file checkout (`git checkout HEAD -- .`, `git restore
// --source=HEAD .` after `git clone --no-checkout`) into the first
// checkout it is when the work tree had never been checked out: the
// files it wrote are all the agents can read, so it is compared from no
// files, as the clone's or worktree's checkout would have been. What
// tells it from an everyday file checkout is what Unpopulated reads:
// HEAD (head, its commit) has not moved since the entry that made the
// repository or worktree, and no hook ran a first checkout there (the
// marker, which the caller checks first). Other events are returned as
// they are.
func (ev Event) Filling(linked bool, head string, newestFirst []reflogEntry) Event {
	if ev.Skip != "" || ev.Type != "post-checkout" || ev.New != RevWorkTree || ev.first || head == "" {
		return ev
	}
	msg, ok := unmovedSinceMade(linked, newestFirst, head)
	if !ok {
		return ev
	}
	ev.Old, ev.first = RevEmpty, true
	return ev.FirstCheckout(linked, msg)
}

// unmovedSinceMade reports whether HEAD's reflog (newest first) holds
// only entries that moved nothing before the one that made the
// repository or worktree (a clone's, "clone: from URL", or in a linked
// worktree git worktree add's, which has no message) from no commit to
// head, and returns that entry's message.
func unmovedSinceMade(linked bool, newestFirst []reflogEntry, head string) (string, bool) {
	for _, e := range newestFirst {
		if e.old == e.new && !isZeroRev(e.old) {
			continue // another checkout that moved nothing
		}
		made := strings.HasPrefix(e.msg, "clone: ") || linked && e.msg == ""
		if !made || !isZeroRev(e.old) || e.new != head {
			return "", false
		}
		return e.msg, true
	}
	return "", false
}

// MaxRewriteInput bounds how much of post-rewrite's (and
// reference-transaction's) stdin is read.
const MaxRewriteInput = 4 << 20

// ErrUnknownHook reports a hook type (or pre-commit environment) that
// mcp-guard does not handle.
var ErrUnknownHook = errors.New("unknown hook")

// Getenv looks up an environment variable.
type Getenv func(string) string

// skipNoMove is the Skip of a checkout that did not move HEAD.
const skipNoMove = "HEAD did not move"

// ParseEvent works out the two states to compare from a hook's type, its
// arguments and, for post-rewrite only, its stdin (bounded; nil when stdin
// must not be read). typ may be empty when the pre-commit framework runs
// `mcp-guard hook`: its PRE_COMMIT_* variables then say which hook it is.
//
//   - post-checkout PREV NEW FLAG: only branch checkouts (FLAG 1) that
//     moved HEAD; PREV is all zeros on a first checkout: a clone's, git
//     worktree add's, or one onto an unborn branch (FirstCheckout tells
//     them apart; until then Op is "checkout");
//   - post-merge SQUASH: ORIG_HEAD to HEAD, or HEAD to the index for a
//     squash merge (its result is only staged);
//   - post-checkout PREV NEW 0 (a file checkout: `git checkout REV --
//     PATH`, `git restore`): HEAD against the work tree, since the files
//     changed and HEAD did not;
//   - post-rewrite amend|rebase, with "old new" lines on stdin: an amend
//     changes no files, so there is nothing to say; a rebase compares the
//     tip before it (ORIG_HEAD, which git rebase sets; else the old side of
//     the last pair) with HEAD. The first old commit is not used: the
//     user's own commits after it would be reported as if they had arrived;
//   - post-commit and post-applypatch (no arguments): the move of HEAD
//     that HEAD's newest reflog entry records, when its message names a
//     cherry-pick, a revert or an `am` (a commit of the user's own
//     changes no file);
//   - reference-transaction committed, with "old new ref" lines on stdin:
//     a move of HEAD (old to new; the reflog then names the operation) or
//     a popped stash (HEAD against the work tree). Other states and refs
//     (a fetch, a new branch) are skipped.
func ParseEvent(typ string, args []string, stdin io.Reader, getenv Getenv) (Event, error) {
	if typ == "" {
		switch {
		case getenv("PRE_COMMIT_CHECKOUT_TYPE") != "" || getenv("PRE_COMMIT_FROM_REF") != "":
			typ = "post-checkout"
		case getenv("PRE_COMMIT_REWRITE_COMMAND") != "":
			typ = "post-rewrite"
		case getenv("PRE_COMMIT_IS_SQUASH_MERGE") != "":
			typ = "post-merge"
		default:
			return Event{}, fmt.Errorf("%w: no hook type given and no PRE_COMMIT_* variables set; use `mcp-guard hook post-checkout|post-merge|post-rewrite|reference-transaction ARGS...`", ErrUnknownHook)
		}
	}
	ev := Event{Type: typ}
	switch typ {
	case "post-checkout":
		ev.Op = "checkout"
		if len(args) == 0 && getenv("PRE_COMMIT_FROM_REF") != "" {
			args = []string{getenv("PRE_COMMIT_FROM_REF"), getenv("PRE_COMMIT_TO_REF"), getenv("PRE_COMMIT_CHECKOUT_TYPE")}
		}
		if len(args) < 3 {
			return ev, fmt.Errorf("post-checkout: want 3 arguments (previous HEAD, new HEAD, branch flag), got %d", len(args))
		}
		prev, next, flag := args[0], args[1], args[2]
		if flag != "1" {
			ev.Op, ev.Old, ev.New = "file checkout", "HEAD", RevWorkTree
			return ev, nil
		}
		if prev == next {
			ev.Skip = skipNoMove
		}
		ev.Old, ev.New = Rev(prev), Rev(next)
		if getenv("GIT_CHERRY_PICK_HELP") != "" {
			ev.Op = "rebase" // the rebase's checkout of its new base
		}
		if isZeroRev(prev) {
			ev.Old, ev.Op, ev.first = RevEmpty, "checkout", true
		}
	case "post-merge":
		ev.Op = "merge"
		squash := getenv("PRE_COMMIT_IS_SQUASH_MERGE")
		if len(args) > 0 {
			squash = args[0]
		}
		ev.Old, ev.New = "ORIG_HEAD", "HEAD"
		if squash == "1" {
			ev.Old, ev.New = "HEAD", RevIndex
		}
	case "post-rewrite":
		ev.Op = "rebase"
		cmd := getenv("PRE_COMMIT_REWRITE_COMMAND")
		if len(args) > 0 {
			cmd = args[0]
		}
		if cmd == "amend" {
			ev.Op, ev.Skip = "amend", "an amend changes no files"
			return ev, nil
		}
		ev.Old, ev.New = "ORIG_HEAD", "HEAD"
		if stdin != nil && getenv("PRE_COMMIT_REWRITE_COMMAND") == "" {
			pairs, err := readPairs(stdin, "post-rewrite")
			if err != nil {
				return ev, err
			}
			if len(pairs) == 0 {
				ev.Skip = "nothing was rewritten"
				return ev, nil
			}
			// Kept as the fallback when ORIG_HEAD cannot be resolved.
			ev.fallbackOld = Rev(pairs[len(pairs)-1][0])
		}
	case "post-commit", "post-applypatch":
		ev.Op, ev.byReflog, ev.fromReflog = "commit", true, true
		if typ == "post-applypatch" {
			ev.Op = "am"
		}
	case "reference-transaction":
		return refTransaction(ev, args, stdin)
	default:
		return ev, fmt.Errorf("%w %q: mcp-guard handles %s", ErrUnknownHook, typ, strings.Join(Types, ", "))
	}
	return ev, nil
}

// refTransaction reads reference-transaction's updates: the last move of
// HEAD wins over a popped stash (a reset after a pop says more).
func refTransaction(ev Event, args []string, stdin io.Reader) (Event, error) {
	ev.Op = "operation"
	if len(args) == 0 || args[0] != "committed" || stdin == nil {
		ev.Skip = "only a committed transaction changes anything"
		return ev, nil
	}
	lines, err := readPairs(stdin, "reference-transaction")
	if err != nil {
		return ev, err
	}
	ev.Skip = "no update moved HEAD or popped a stash"
	for _, l := range lines {
		old, new := l[0], l[1]
		switch {
		case old == new || isZeroRev(old):
		case l[2] == "HEAD" && !isZeroRev(new):
			ev.Old, ev.New, ev.Skip, ev.byReflog = Rev(old), Rev(new), "", true
		case l[2] == "refs/stash" && !ev.byReflog:
			// A pop applies the stash, then drops it. (`git stash drop`
			// looks the same; it then reports what the work tree holds.)
			ev.Op, ev.Old, ev.New, ev.Skip = "stash pop", "HEAD", RevWorkTree, ""
		}
	}
	return ev, nil
}

// readPairs reads "old new [ref]" lines (post-rewrite's rewritten commits,
// reference-transaction's updates), at most MaxRewriteInput bytes; the
// third field is "" when missing.
func readPairs(r io.Reader, hook string) ([][3]string, error) {
	var out [][3]string
	sc := bufio.NewScanner(io.LimitReader(r, MaxRewriteInput))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		l := [3]string{f[0], f[1], ""}
		if len(f) > 2 {
			l[2] = f[2]
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: reading stdin: %w", hook, err)
	}
	return out, nil
}

// reflogOps are the operations reference-transaction reports, by the
// prefix of the reflog message git writes for them. Every other move of
// HEAD is left to the hook that fires for it (post-checkout, post-merge,
// post-rewrite) or changes no file (a commit, an amend).
var reflogOps = []struct{ prefix, op string }{
	{"reset: ", "reset"},
	{"cherry-pick: ", "cherry-pick"},
	{"revert: ", "revert"},
	{"am: ", "am"},
}

// classify names a reference-transaction, post-commit or post-applypatch
// event's operation from HEAD's newest reflog entry, or skips it. For the
// last two the entry also gives the move (old and new commit ids).
func (ev Event) classify(old, new, msg string) Event {
	if ev.fromReflog {
		if old == "" || new == "" || isZeroRev(old) {
			ev.Skip = "HEAD's reflog does not say what moved it (reflogs off, or a first commit)"
			return ev
		}
		ev.Old, ev.New = Rev(old), Rev(new)
	}
	for _, r := range reflogOps {
		if strings.HasPrefix(msg, r.prefix) {
			ev.Op = r.op
			if r.op == "reset" {
				// --soft and --mixed leave the files alone: compare
				// what agentty reads, not the commits.
				ev.New = RevWorkTree
			}
			return ev
		}
	}
	ev.Skip = "HEAD moved by an operation another hook reports, or that changes no file"
	return ev
}

// isZeroRev reports whether rev is git's "no commit": empty or all zeros.
func isZeroRev(rev string) bool {
	return strings.Trim(rev, "0") == ""
}

// ManualCommand is the command that shows by hand what the event changed,
// for when the hook could not.
func (ev Event) ManualCommand() string {
	switch {
	case ev.Old == RevEmpty:
		return "mcp-guard check"
	case ev.New == RevIndex || ev.New == RevWorkTree:
		return "mcp-guard diff " + string(ev.Old)
	}
	return "mcp-guard diff " + string(ev.Old) + " " + string(ev.New)
}
