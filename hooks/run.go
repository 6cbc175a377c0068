package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/trust"
)

// DefaultTimeout is the hook's time budget: after it the hook gives up,
// says so and lets git carry on.
const DefaultTimeout = 5 * time.Second

// TimeoutEnv overrides the budget (a Go duration such as "500ms", or
// seconds); tests use it.
const TimeoutEnv = "MCP_GUARD_HOOK_TIMEOUT"

// SkipEnv set to 0 turns the hooks off.
const SkipEnv = "MCP_GUARD"

// ErrTimeout reports that the hook ran out of its time budget.
var ErrTimeout = errors.New("time budget exceeded")

// Timeout is the budget getenv asks for, DefaultTimeout when unset or
// unreadable.
func Timeout(getenv Getenv) time.Duration {
	v := strings.TrimSpace(getenv(TimeoutEnv))
	if v == "" {
		return DefaultTimeout
	}
	if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return DefaultTimeout
}

// Request is one run of the hook entry.
type Request struct {
	// Type is the hook type ("" when the pre-commit framework runs it), and
	// Args git's arguments.
	Type string
	Args []string
	// Stdin is read for post-rewrite's pairs only; nil when it must not be
	// read at all (a terminal).
	Stdin io.Reader
	// Dir is where git ran the hook and Env its environment (GIT_DIR,
	// GIT_WORK_TREE, GIT_INDEX_FILE, ...).
	Dir string
	Env []string
	// Grants is what agentty consults; Ledger the user's reviews. When
	// Ledger is nil, LoadLedger (if set) reads it, only once the operation
	// changed a server: the quiet path reads no ledger.
	Grants     trust.Grants
	Ledger     *trust.Ledger
	LoadLedger func() *trust.Ledger
	// Timeout is the hard budget; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Outcome is what the hook found.
type Outcome struct {
	Event Event
	// Changes need the user's attention, the most dangerous first
	// (trust-preserving, invalidated, new-preapproved, new-unapproved).
	Changes []trust.Change
	// Findings about surfaces the operation added or changed.
	Findings []trust.Finding
	// Reviewed counts changes left out because the user already reviewed
	// (or declined, and agentty will not run) the version now checked out.
	Reviewed int
	// Removed are the servers the operation removed or stopped, of every
	// client: worth one line, never a review.
	Removed []trust.Change
	// Dormant are servers the operation changed that their client runs
	// nothing of here without asking (Gemini CLI, Codex in a folder not
	// trusted; Qwen Code before its approval), of the clients the user
	// keeps state of (inUse): worth one line, never a review.
	Dormant []trust.Change
}

// Quiet reports whether there is nothing to tell the user.
func (o *Outcome) Quiet() bool {
	return len(o.Changes) == 0 && len(o.Findings) == 0 && len(o.Removed) == 0 && len(o.Dormant) == 0
}

// LaunchDirs lists the launch directories ("" for the repository root)
// whose configuration changed, of every client, in order of first
// appearance: each needs its own `mcp-guard -C DIR review`.
func (o *Outcome) LaunchDirs() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range o.Changes {
		d := c.LaunchDir()
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// Run is the hook entry: it works out what the operation changed and
// returns the changes that need attention. It finishes within the budget
// whatever happens underneath (ErrTimeout, with the event when it was
// parsed in time); its caller must exit 0 regardless of the error.
func Run(ctx context.Context, req Request) (*Outcome, error) {
	budget := req.Timeout
	if budget <= 0 {
		budget = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	type result struct {
		out *Outcome
		err error
	}
	done := make(chan result, 1)
	evc := make(chan Event, 1)
	go func() {
		// A hook must never crash the git operation's output with a
		// panic trace: turn one into an error like any other.
		defer func() {
			if p := recover(); p != nil {
				done <- result{&Outcome{Event: Event{Type: req.Type, Old: "ORIG_HEAD", New: "HEAD"}}, fmt.Errorf("internal error: %v", p)}
			}
		}()
		out, err := run(ctx, req, evc)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		if errors.Is(r.err, context.DeadlineExceeded) {
			r.err = fmt.Errorf("gave up after %v: %w", budget, ErrTimeout)
		}
		return r.out, r.err
	case <-ctx.Done():
		out := &Outcome{}
		select {
		case out.Event = <-evc:
		default:
			// Not parsed in time (stdin is slow): what the arguments
			// alone say, which reads nothing.
			out.Event, _ = ParseEvent(req.Type, req.Args, nil, envLookup(req.Env))
		}
		return out, fmt.Errorf("gave up after %v: %w", budget, ErrTimeout)
	}
}

func run(ctx context.Context, req Request, evc chan<- Event) (*Outcome, error) {
	getenv := envLookup(req.Env)
	stdin := req.Stdin
	ev, err := ParseEvent(req.Type, req.Args, stdin, getenv)
	evc <- ev
	out := &Outcome{Event: ev}
	if ev.Skip == skipNoMove && strings.Contains(filepath.ToSlash(getenv("GIT_DIR")), "/modules/") {
		// git submodule update (a clone with --recurse-submodules too)
		// checks a submodule out where its HEAD already is: what the
		// superproject runs from it changed all the same.
		ev.Skip = ""
	}
	if err != nil || ev.Skip != "" && ev.Skip != skipNoMove {
		return out, err
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	if ev.Skip == skipNoMove && populated(quickGitDir(req.Dir, getenv)) {
		// The everyday same-commit checkout, where the hook ran the
		// first checkout: told by a file in the git directory, found
		// without opening the repository (its refs and config).
		return out, nil
	}
	// A partial clone's missing object is not fetched here: the hook runs
	// inside a git operation and must not wait on the network.
	repo, err := gitscan.Open(req.Dir, gitscan.WithEnv(req.Env), gitscan.WithoutFetch())
	if err != nil {
		if ev.Skip != "" {
			return out, nil // skipped either way
		}
		return out, err
	}
	defer repo.Close()
	linked := filepath.Clean(repo.GitDir()) != filepath.Clean(repo.CommonDir())
	opts := project.Options{Grants: req.Grants, Env: client.Env{Getenv: getenv, LookupEnv: envVars(req.Env)}}
	// filling is the first checkout a file checkout may be (Filling).
	var filling Event
	if ev.Skip == skipNoMove {
		// A checkout that moved nothing: the first of a work tree made
		// with --no-checkout, or an everyday one. Files only: no object
		// is read to tell, and where the hook ran the first checkout
		// (the marker) not the reflog either.
		if populated(repo.GitDir()) {
			return out, nil
		}
		ev = ev.Unpopulated(linked, reflogTail(repo.GitDir()))
		out.Event = ev
		if ev.Skip != "" {
			return out, nil
		}
	} else if ev.Brings() {
		_, _, msg := lastReflogEntry(repo.GitDir())
		ev = ev.FirstCheckout(linked, msg)
		out.Event = ev
	} else if ev.New == RevWorkTree && ev.Type == "post-checkout" && !populated(repo.GitDir()) {
		// A file checkout where no hook ran a first checkout: the one
		// that fills a work tree made with --no-checkout? (Where the
		// hook ran one, the marker spares the everyday file checkout
		// even the reflog.)
		if head, err := repo.Resolve("HEAD"); err == nil {
			filling = ev.Filling(linked, head.Commit(), reflogTail(repo.GitDir()))
		}
	}
	if ev.Brings() {
		// Whatever it reports, this work tree has had its first
		// checkout: a later one that moves nothing is everyday.
		defer markPopulated(repo.GitDir())
	}
	if ev.byReflog {
		ev = ev.classify(lastReflogEntry(repo.GitDir()))
		out.Event = ev
		if ev.Skip != "" {
			return out, nil
		}
	}
	old, err := resolve(repo, ev.Old)
	if err != nil && ev.fallbackOld != "" {
		old, err = resolve(repo, ev.fallbackOld)
	}
	if err != nil {
		return out, err
	}
	new, err := resolve(repo, ev.New)
	if err != nil {
		return out, err
	}
	// A submodule's checkout is also a change of what its superproject's
	// servers run from it, even when its own commit did not move (a
	// clone with --recurse-submodules checks out the commit it cloned).
	super, sub := superproject(repo, req.Dir, req.Env)
	if old == new && super == "" {
		return out, nil
	}
	var changes []trust.Change
	if old != new {
		res, err := project.Compare(ctx, repo, old, new, opts)
		if err != nil {
			return out, err
		}
		out.Findings, changes = res.Findings, res.Changes
		if filling.Brings() && len(changes) == 0 && len(res.Findings) == 0 {
			// The files on disk are HEAD's, as far as any agent reads:
			// either the file checkout filled an empty work tree or
			// this is a work tree cloned before the hooks were
			// installed, which gets the clone's warning once, as at
			// Unpopulated's checkout. Until then (some paths only
			// written) every file checkout there is still filling it,
			// and says what it changed from HEAD.
			ev, out.Event = filling, filling
			defer markPopulated(repo.GitDir())
			if res, err = project.Compare(ctx, repo, gitscan.Empty, new, opts); err != nil {
				return out, err
			}
			out.Findings, changes = res.Findings, res.Changes
		}
	}
	if req.Ledger == nil && req.LoadLedger != nil && (len(changes) > 0 || super != "") {
		req.Ledger = req.LoadLedger()
	}
	identity := identityOf(req.Ledger, repo)
	var removed []trust.Change
	if super != "" {
		// A checkout in a submodule (git submodule update, a clone with
		// --recurse-submodules): what the superproject's servers run
		// from it changed on disk. Its own configurations are the
		// submodule's run above; the superproject's servers are said
		// with their configurations' absolute paths.
		sc, sidentity, err := submoduleChanges(ctx, super, sub, req.Env, opts)
		if err != nil {
			return out, fmt.Errorf("the superproject of this submodule: %w", err)
		}
		for _, c := range sc {
			if !c.Impact.NeedsAttention() {
				continue
			}
			if settled(req.Ledger, sidentity, c) {
				out.Reviewed++
				continue
			}
			// The superproject by its absolute path: git runs this hook
			// in the submodule, wherever the user typed the command.
			c.Path = path.Join(filepath.ToSlash(super), c.Path)
			out.Changes = append(out.Changes, c)
		}
	}
	settledAt := map[string]bool{}
	for _, c := range changes {
		if c.Impact == trust.ImpactRemoved {
			removed = append(removed, c)
		}
		if c.Client != "" && c.Impact == trust.ImpactUnchanged && c.Change != trust.ChangeUnchanged && c.New != nil {
			out.Dormant = append(out.Dormant, c)
			continue
		}
		if !c.Impact.NeedsAttention() {
			continue
		}
		if settled(req.Ledger, identity, c) {
			out.Reviewed++
			settledAt[c.Path+"\x00"+c.Server] = true
			continue
		}
		out.Changes = append(out.Changes, c)
	}
	// A server the user already decided about at this version is not
	// reported again, nor the findings on it.
	if len(settledAt) > 0 {
		var fs []trust.Finding
		for _, f := range out.Findings {
			if f.Server == "" || !settledAt[f.Path+"\x00"+f.Server] {
				fs = append(fs, f)
			}
		}
		out.Findings = fs
	}
	out.Dormant = inUse(out.Dormant, repo.TopLevel(), opts.Env)
	var kept []trust.Change
	kept, out.Findings = dedupe(repo.GitDir(), append(out.Changes, removed...), out.Findings, time.Now())
	out.Changes = nil
	for _, c := range kept {
		if c.Impact == trust.ImpactRemoved {
			out.Removed = append(out.Removed, c)
		} else {
			out.Changes = append(out.Changes, c)
		}
	}
	return out, nil
}

// inUse keeps the dormant changes of the agents whose state the user
// keeps on this machine (client.State.InUse). A dormant change is one its
// agent runs nothing of without asking (it asks first, or the folder is
// not trusted): a line about it is for the people who use that agent, and
// to everyone else it is noise on every pull that trains them to skip the
// warning. Nothing else is dropped: a change an agent runs without asking
// is never dormant, whatever the repository holds, and is named always.
func inUse(cs []trust.Change, top string, env client.Env) []trust.Change {
	used := map[string]bool{}
	var out []trust.Change
	for _, c := range cs {
		key := c.Client + "\x00" + c.LaunchDir()
		u, ok := used[key]
		if !ok {
			cl := client.Lookup(client.ID(c.Client))
			u = cl == nil || top == "" ||
				cl.State(filepath.Join(top, filepath.FromSlash(c.LaunchDir())), top, env).InUse(env)
			used[key] = u
		}
		if u {
			out = append(out, c)
		}
	}
	return out
}

// identityOf is the ledger's name of repo, computed once when asked and
// only when the ledger holds reviews.
func identityOf(l *trust.Ledger, repo *gitscan.Repo) func() string {
	if len(l.Reviews()) == 0 {
		return func() string { return "" }
	}
	var id string
	var once bool
	return func() string {
		if !once {
			once = true
			roots, _ := repo.Identity()
			id = trust.RepoIdentity(roots, repo.TopLevel())
		}
		return id
	}
}

// superproject is the work tree of the repository repo is a submodule of
// and the submodule's path in it ("" when repo is none's): its git
// directory lies in the superproject's, below modules/. dir is where git
// ran the hook (the submodule's work tree when git names only its git
// directory, as git submodule update does).
func superproject(repo *gitscan.Repo, dir string, environ []string) (top, sub string) {
	gitDir := filepath.ToSlash(repo.GitDir())
	i := strings.LastIndex(gitDir, "/modules/")
	if i < 0 {
		return "", ""
	}
	own := repo.TopLevel()
	if own == "" {
		own, _ = filepath.Abs(dir)
	}
	if own == "" {
		return "", ""
	}
	superGit := gitDir[:i]
	for d := filepath.Dir(own); ; d = filepath.Dir(d) {
		if g, err := gitscan.Open(d, gitscan.WithEnv(withoutRepoVars(environ))); err == nil {
			ok := filepath.ToSlash(g.GitDir()) == superGit
			t := g.TopLevel()
			g.Close()
			if !ok {
				return "", ""
			}
			rel, err := filepath.Rel(t, own)
			if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
				return "", ""
			}
			return t, filepath.ToSlash(rel)
		}
		if parent := filepath.Dir(d); parent == d {
			return "", ""
		}
	}
}

// withoutRepoVars is environ without the variables that name the
// submodule's repository (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, …): they
// do not name its superproject.
func withoutRepoVars(environ []string) []string {
	var env []string
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GIT_") || k == "GIT_CONFIG_NOSYSTEM" || k == "GIT_CONFIG_GLOBAL" {
			env = append(env, kv)
		}
	}
	return env
}

// submoduleChanges are the changes, between the superproject's HEAD (where
// a submodule is its commit) and its work tree, of the servers that run
// files of submodule sub, with the superproject's ledger identity.
func submoduleChanges(ctx context.Context, top, sub string, environ []string, opts project.Options) ([]trust.Change, func() string, error) {
	repo, err := gitscan.Open(top, gitscan.WithEnv(withoutRepoVars(environ)), gitscan.WithoutFetch())
	if err != nil {
		return nil, nil, err
	}
	defer repo.Close()
	head, err := repo.Resolve("HEAD")
	if err != nil {
		return nil, nil, err
	}
	opts.Touched = []string{sub}
	res, err := project.Compare(ctx, repo, head, gitscan.WorkTree, opts)
	if err != nil {
		return nil, nil, err
	}
	var out []trust.Change
	for _, c := range res.Changes {
		for _, f := range c.Files {
			if f.Submodule == sub || f.Path == sub || strings.HasPrefix(f.Path, sub+"/") {
				out = append(out, c)
				break
			}
		}
	}
	roots, _ := repo.Identity()
	id := trust.RepoIdentity(roots, repo.TopLevel())
	return out, func() string { return id }, nil
}

// lastWarningFile, in the worktree's git directory, remembers what the
// previous hook run reported, so that one operation that fires two hooks
// (a rebase: post-checkout onto the new base, then post-rewrite) warns
// once. A run with nothing to report forgets it.
const lastWarningFile = "mcp-guard-last-warning"

// dedupeWindow is how long a reported item stays remembered: long enough
// for a rebase to get from its checkout to its post-rewrite.
const dedupeWindow = 2 * time.Minute

type lastWarning struct {
	Time  time.Time `json:"time"`
	Items []string  `json:"items"`
}

func changeItem(c trust.Change) string {
	return strings.Join([]string{"c", c.Path, c.Server, c.NewDeep, string(c.Impact)}, "\x00")
}

func findingItem(f trust.Finding) string {
	return strings.Join([]string{"f", f.Rule, f.Path, f.Server, f.Key, f.Message}, "\x00")
}

// dedupe drops what the previous run reported less than dedupeWindow ago
// (same server, same new version, same impact; same finding), then
// remembers what is left to report, if anything. The file is best effort:
// when it cannot be read or written, everything is reported.
func dedupe(gitDir string, cs []trust.Change, fs []trust.Finding, now time.Time) ([]trust.Change, []trust.Finding) {
	path := filepath.Join(gitDir, lastWarningFile)
	if len(cs) == 0 && len(fs) == 0 {
		// Nothing to say: what was said before is no longer the last word
		// (checking a branch out and back warns again).
		os.Remove(path)
		return cs, fs
	}
	seen := map[string]bool{}
	if data, err := trust.ReadFile(path); err == nil && len(data) < 1<<20 {
		var last lastWarning
		if json.Unmarshal(data, &last) == nil && now.Sub(last.Time) >= 0 && now.Sub(last.Time) < dedupeWindow {
			for _, it := range last.Items {
				seen[it] = true
			}
		}
	}
	var keptC []trust.Change
	var keptF []trust.Finding
	var items []string
	for _, c := range cs {
		if it := changeItem(c); !seen[it] {
			keptC = append(keptC, c)
			items = append(items, it)
		}
	}
	for _, f := range fs {
		if it := findingItem(f); !seen[it] {
			keptF = append(keptF, f)
			items = append(items, it)
		}
	}
	if len(items) > 0 {
		if data, err := json.Marshal(lastWarning{Time: now, Items: items}); err == nil {
			writeFileAtomic(path, data)
		}
	}
	return keptC, keptF
}

// writeFileAtomic writes a small state file by rename, ignoring failure.
func writeFileAtomic(path string, data []byte) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// settled reports whether the user already decided about the version a
// change brings: approved it, or declined it and agentty will not run it.
func settled(l *trust.Ledger, identity func() string, c trust.Change) bool {
	if c.NewDeep == "" {
		return false
	}
	repo := identity()
	if repo == "" {
		return false
	}
	st, _ := l.State(trust.ReviewKey{Repo: repo, Client: c.Client, Config: c.Path, Server: c.Server}, c.NewDeep)
	switch st {
	case trust.StateReviewed:
		return true
	case trust.StateDeclined:
		return c.Impact == trust.ImpactNewUnapproved || c.Impact == trust.ImpactInvalidated
	}
	return false
}

func resolve(repo *gitscan.Repo, rev Rev) (gitscan.Side, error) {
	switch rev {
	case RevEmpty:
		return gitscan.Empty, nil
	case RevIndex:
		return gitscan.Index, nil
	case RevWorkTree:
		return gitscan.WorkTree, nil
	}
	return repo.Resolve(string(rev))
}

// populatedFile, in the worktree's git directory, records that the hook
// ran a first checkout there (see Event.Unpopulated).
const populatedFile = "mcp-guard-populated"

func populated(gitDir string) bool {
	if gitDir == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(gitDir, populatedFile))
	return err == nil
}

// quickGitDir is the git directory of the work tree at dir as git names
// it to a hook, found by files alone: GIT_DIR when git set it, else
// dir/.git, a directory, or the file a linked worktree or a submodule
// has there ("gitdir: PATH"). "" when none of these holds one: the
// caller then opens the repository as it would have.
func quickGitDir(dir string, getenv Getenv) string {
	if g := getenv("GIT_DIR"); g != "" {
		if !filepath.IsAbs(g) {
			g = filepath.Join(dir, g)
		}
		return g
	}
	dot := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dot)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		return dot
	case !fi.Mode().IsRegular() || fi.Size() > 4096:
		return ""
	}
	data, err := os.ReadFile(dot)
	if err != nil {
		return ""
	}
	g, ok := strings.CutPrefix(strings.TrimRight(string(data), "\r\n"), "gitdir: ")
	if !ok || g == "" {
		return ""
	}
	if !filepath.IsAbs(g) {
		g = filepath.Join(dir, g)
	}
	return g
}

// markPopulated leaves the marker; best effort (without it, a later
// same-commit checkout may warn once more as a first checkout).
func markPopulated(gitDir string) {
	if !populated(gitDir) {
		writeFileAtomic(filepath.Join(gitDir, populatedFile), nil)
	}
}

// maxReflogTail bounds how much of the reflog's end is read for its last
// entry.
const maxReflogTail = 8192

// lastReflogEntry is the newest entry of HEAD's reflog in gitDir: the
// commit ids before and after, and the message ("reset: moving to
// HEAD~1"); all "" when there is none (reflogs off, or an entry longer
// than maxReflogTail).
func lastReflogEntry(gitDir string) (old, new, msg string) {
	es := reflogTail(gitDir)
	if len(es) == 0 {
		return "", "", ""
	}
	return es[0].old, es[0].new, es[0].msg
}

// reflogTail is the entries of HEAD's reflog in gitDir that its last
// maxReflogTail bytes hold whole, newest first; nil when there is none.
func reflogTail(gitDir string) []reflogEntry {
	f, err := os.Open(filepath.Join(gitDir, "logs", "HEAD"))
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	off := max(fi.Size()-maxReflogTail, 0)
	buf := make([]byte, fi.Size()-off)
	n, _ := f.ReadAt(buf, off)
	lines := strings.Split(strings.TrimSuffix(string(buf[:n]), "\n"), "\n")
	if off > 0 {
		lines = lines[1:] // cut by the read
	}
	var out []reflogEntry
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] == "" {
			continue
		}
		head, msg, _ := strings.Cut(lines[i], "\t")
		// "OLD NEW Name <email> time zone"
		var e reflogEntry
		if f := strings.Fields(head); len(f) >= 2 {
			e.old, e.new = f[0], f[1]
		}
		e.msg = msg
		out = append(out, e)
	}
	return out
}

// envLookup looks variables up in an environment list (the last one wins,
// as in the process environment); nil means the process's own.
func envLookup(env []string) Getenv {
	if env == nil {
		return os.Getenv
	}
	vars := envVars(env)
	return func(k string) string {
		v, _ := vars(k)
		return v
	}
}

// envVars is envLookup telling unset from empty, for interpolation.
func envVars(env []string) client.Vars {
	if env == nil {
		return os.LookupEnv
	}
	return func(k string) (string, bool) {
		for i := len(env) - 1; i >= 0; i-- {
			if key, v, ok := strings.Cut(env[i], "="); ok && key == k {
				return v, true
			}
		}
		return "", false
	}
}

// Disabled reports whether the user turned the hooks off (MCP_GUARD=0).
func Disabled(getenv Getenv) bool { return getenv(SkipEnv) == "0" }
