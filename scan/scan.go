// Package scan drives a scan: it finds the surfaces of a plain
// directory, a work tree, the index, one revision, a history or a branch,
// asks package policy for their findings (through package project for git
// sides), and applies the repository's own suppressions. It decides no rule
// itself: every finding comes from policy or trust.
package scan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Target is what a scan reads.
type Target string

const (
	// TargetWorkTree is the files on disk: a repository's work tree (what
	// git would list: tracked and untracked, not ignored), or a plain
	// directory outside any repository.
	TargetWorkTree Target = "worktree"
	// TargetStaged is the index: what the next commit will hold.
	TargetStaged Target = "staged"
	// TargetRev is one commit.
	TargetRev Target = "rev"
	// TargetHistory is every commit that changed a surface.
	TargetHistory Target = "history"
	// TargetDiff is what a branch changes against its base.
	TargetDiff Target = "diff"
)

// Request describes a scan.
type Request struct {
	// Dir is the directory to scan (PATH); inside a repository only the
	// surfaces below it are reported, with repository-relative paths.
	Dir    string
	Target Target
	// Rev is the revision for TargetRev.
	Rev string
	// Since bounds TargetHistory: only commits not reachable from it
	// (findings already present at Since are not reported).
	Since string
	// Range is "BASE...HEAD" (against the merge base, as a pull request
	// shows it) or "BASE..HEAD" (against BASE itself) for TargetDiff.
	Range string
	// Options tune the checks (MG107 needs the user's server names).
	Options policy.Options
	// NoIgnoreFile skips the repository's .mcp-guard.yaml.
	NoIgnoreFile bool
	// Baseline suppresses findings that were already reported.
	Baseline *policy.Baseline
	// Git are options for gitscan.Open (the environment git runs with).
	Git []gitscan.Option
	// Progress, when set, is told after each commit a TargetHistory scan
	// read how many of how many it has read (done == total at the end).
	Progress func(done, total int)
}

// Commit describes a commit a history finding was introduced in.
type Commit struct {
	ID, Author, Email string
	Time              time.Time
}

// Result is what a scan found.
type Result struct {
	Target Target
	// Root is the absolute directory finding paths are relative to: the
	// repository's top level, or the scanned directory outside one.
	Root string
	// InRepository reports whether Root is a git work tree.
	InRepository bool
	// Side names what was read: "worktree", "index" or a commit id (the
	// tip for history and diff).
	Side string
	// Base is the commit a diff compares with (the merge base for
	// BASE...HEAD).
	Base string
	// Files is the number of surfaces read (history: at the tip).
	Files int
	// CommitsScanned is the number of commits a history scan read.
	CommitsScanned int
	// Commits describes the commits history findings point at.
	Commits map[string]Commit
	// Findings that count, sorted (history: in commit order).
	Findings []trust.Finding
	// Suppressed by the ignore file or the baseline.
	Suppressed []policy.Suppressed
	// IgnoreFile is the path of the ignore file applied, "" if none.
	IgnoreFile string
	// Changes is the approval impact of a diff (project.Compare), for a
	// user who approved every server at the base.
	Changes []trust.Change
	// Shallow reports a history or diff on a shallow clone: older commits
	// are missing, so a finding may be older than where it is reported.
	Shallow bool
	// Notes are things the reader must know (skipped submodules, a
	// shallow boundary, an ignore file changed by the branch).
	Notes []string
}

// ErrNeedsRepository reports a target that needs git outside a repository.
var ErrNeedsRepository = errors.New("not in a git repository")

// Scan runs a scan. Errors are for failures to look (an unreadable
// repository, an unknown revision, an invalid ignore file); a scan that
// could not read something it should have fails rather than report clean.
func Scan(ctx context.Context, req Request) (*Result, error) {
	dir, err := filepath.Abs(req.Dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return scanFile(ctx, dir, req)
	}
	repo, err := gitscan.Open(dir, req.Git...)
	if errors.Is(err, gitscan.ErrNotRepository) {
		if req.Target != TargetWorkTree {
			return nil, fmt.Errorf("%s: %w (--staged, --rev, --history and --diff read git)", req.Dir, ErrNeedsRepository)
		}
		return scanDir(ctx, dir, req)
	}
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	s := &repoScan{ctx: ctx, repo: repo, req: req}
	s.res = &Result{Target: req.Target, Root: repo.TopLevel(), InRepository: true}
	if s.prefix, err = subdir(repo.TopLevel(), dir); err != nil {
		return nil, err
	}
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.res, nil
}

// ErrShallow reports a revision a shallow clone does not hold.
var ErrShallow = errors.New("this clone is shallow: the commits before its boundary are not here")

// ErrNotSurface reports a file given to scan that no agent reads.
var ErrNotSurface = errors.New("not a file any agent reads")

// scanFile scans one file, as gitleaks and osv-scanner take one: a
// file's role is its path (.mcp.json, .gemini/settings.json), so the
// directory it is a surface of is scanned (in a repository the file's own
// directory, its paths read from the top; outside one the nearest
// directory above it from which its path is a surface) and only the
// file's findings are kept. A file no agent reads is refused, never
// reported clean.
func scanFile(ctx context.Context, file string, req Request) (*Result, error) {
	root, inRepo := "", false
	repo, err := gitscan.Open(filepath.Dir(file), req.Git...)
	switch {
	case err == nil:
		root, inRepo = repo.TopLevel(), true
		repo.Close()
	case !errors.Is(err, gitscan.ErrNotRepository):
		return nil, err
	default:
		for d, i := filepath.Dir(file), 0; i < 4; d, i = filepath.Dir(d), i+1 {
			if rel, err := filepath.Rel(d, file); err == nil {
				if _, ok := surface.Of(filepath.ToSlash(rel)); ok {
					root = d
					break
				}
			}
		}
	}
	rel := ""
	if root != "" {
		if rel, err = subdir(root, file); err != nil {
			return nil, err
		}
		rel = strings.TrimSuffix(rel, "/")
	}
	if _, ok := surface.Of(rel); rel == "" || !ok {
		return nil, fmt.Errorf("%s: %w", req.Dir, ErrNotSurface)
	}
	sub := req
	sub.Dir = root
	if inRepo {
		sub.Dir = filepath.Dir(file)
	}
	res, err := Scan(ctx, sub)
	if err != nil {
		return nil, err
	}
	res.Files = 1
	res.Findings = slices.DeleteFunc(res.Findings, func(f trust.Finding) bool { return f.Path != rel })
	res.Suppressed = slices.DeleteFunc(res.Suppressed, func(s policy.Suppressed) bool { return s.Path != rel })
	return res, nil
}

// subdir is dir relative to top, slash-separated; "" for top itself.
func subdir(top, dir string) (string, error) {
	rt, err := filepath.EvalSymlinks(top)
	if err != nil {
		return "", err
	}
	rd, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(rt, rd)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", nil // e.g. GIT_WORK_TREE elsewhere: scan the whole work tree
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel) + "/", nil
}

// scanDir scans a plain directory.
func scanDir(ctx context.Context, dir string, req Request) (*Result, error) {
	res := &Result{Target: TargetWorkTree, Root: dir, Side: "worktree"}
	files, err := walkDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	var all []trust.Finding
	for _, f := range files {
		all = append(all, policy.CheckFile(f, req.Options)...)
		if f.Kind != surface.KindLinkedDir {
			res.Files++
		}
	}
	all = append(all, policy.CrossClient(files)...)
	var ignore *policy.IgnoreFile
	if !req.NoIgnoreFile {
		data, err := trust.ReadFile(filepath.Join(dir, policy.IgnoreFileName))
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", policy.IgnoreFileName, err)
		default:
			if ignore, err = policy.ParseIgnoreFile(policy.IgnoreFileName, data); err != nil {
				return nil, err
			}
			res.IgnoreFile = policy.IgnoreFileName
		}
	}
	policy.SortFindings(all)
	res.Findings, res.Suppressed = policy.Suppress(all, ignore, req.Baseline)
	return res, nil
}

// repoScan is one scan of a repository.
type repoScan struct {
	ctx    context.Context
	repo   *gitscan.Repo
	req    Request
	prefix string
	res    *Result
}

func (s *repoScan) run() error {
	var (
		findings []trust.Finding
		ignoreAt = gitscan.WorkTree
		err      error
	)
	switch s.req.Target {
	case TargetWorkTree, TargetStaged, TargetRev:
		side := gitscan.WorkTree
		switch s.req.Target {
		case TargetStaged:
			side = gitscan.Index
		case TargetRev:
			if side, err = s.resolve(s.req.Rev); err != nil {
				return err
			}
		}
		ignoreAt = side
		s.res.Side = side.String()
		findings, s.res.Files, err = s.snapshot(side, true)
	case TargetHistory:
		var tip gitscan.Side
		findings, tip, err = s.history()
		ignoreAt = tip
	case TargetDiff:
		var base gitscan.Side
		findings, base, err = s.diff()
		ignoreAt = base
	default:
		err = fmt.Errorf("scan target %q: unknown", s.req.Target)
	}
	if err != nil {
		return err
	}
	ignore, err := s.ignoreFile(ignoreAt)
	if err != nil {
		return err
	}
	if s.req.Target != TargetHistory {
		policy.SortFindings(findings)
	}
	s.res.Findings, s.res.Suppressed = policy.Suppress(findings, ignore, s.req.Baseline)
	return nil
}

func (s *repoScan) resolve(rev string) (gitscan.Side, error) {
	side, err := s.repo.Resolve(rev)
	if err != nil {
		if !strings.Contains(err.Error(), strconv.Quote(rev)) {
			err = fmt.Errorf("revision %q: %w", rev, err)
		}
		if errors.Is(err, gitscan.ErrUnknownRevision) && s.repo.IsShallow() {
			// A depth-1 checkout (actions/checkout's default) has no
			// parent: say so, not only that the revision is unknown.
			err = fmt.Errorf("%w (%w)", err, ErrShallow)
		}
		return side, err
	}
	if side == gitscan.Empty && rev != "" {
		return side, fmt.Errorf("revision %q: no commit yet (unborn branch): %w", rev, gitscan.ErrUnknownRevision)
	}
	return side, nil
}

// snapshot returns every finding of the surfaces at side below the scan's
// prefix, and how many surfaces were read.
func (s *repoScan) snapshot(side gitscan.Side, notes bool) ([]trust.Finding, int, error) {
	snap, err := project.Load(s.ctx, s.repo, side, project.Options{})
	if err != nil {
		return nil, 0, err
	}
	var out []trust.Finding
	for _, f := range snap.Findings {
		if s.below(f.Path) {
			out = append(out, f)
		}
	}
	files := 0
	for _, c := range snap.Configs {
		if !s.below(c.Path) {
			continue
		}
		files++
		out = append(out, policy.CheckServers(c.Config, s.req.Options)...)
	}
	// The other clients' configs (Claude Code's .mcp.json, ...): their
	// parse findings and the same server rules, located in their files.
	for _, c := range snap.Clients {
		if !s.below(c.Path) {
			continue
		}
		k, _ := surface.Of(c.Path)
		// A file this client reads as a kind of its own over another
		// client's (surface.Spec.Same) was counted as that one's.
		over := slices.ContainsFunc(surface.OfAll(c.Path)[1:], func(o surface.Kind) bool { return o.Client() == string(c.Client) })
		if !policy.ClientContent(k) && !over {
			files++ // the others are counted by clientFiles
		}
		// clientFiles says these once: a file the client's own rules
		// report it fails on (Codex's MG716), a client file mcp-guard
		// cannot read (MG718).
		if !policy.OwnParse(k) && !(policy.ClientContent(k) && c.Config.Unreadable()) {
			out = append(out, c.Findings()...)
		}
		// The server rules, on what each client that reads the file
		// reads (another reader's reading of Claude Code's .mcp.json).
		out = append(out, policy.CheckReadings(c.Config, c.Readings, s.req.Options)...)
	}
	for _, o := range snap.Others {
		if !s.below(o.Path) || o.Kind == surface.KindLinkedDir {
			continue
		}
		files++
		f := policy.File{Path: o.Path, Kind: o.Kind}
		if o.Mode != gitscan.ModeRegular && o.Mode != gitscan.ModeExecutable {
			continue // a symlink: its target text is not the surface
		}
		data, _, err := s.repo.ReadBlob(side, o.Path, trust.MaxFileSize)
		switch {
		case errors.Is(err, gitscan.ErrTooLarge), errors.Is(err, gitscan.ErrNotRegular), errors.Is(err, gitscan.ErrNotFound):
			continue
		case err != nil:
			return nil, 0, fmt.Errorf("read %s at %s: %w", o.Path, side, err)
		}
		f.Data = data
		out = append(out, policy.CheckContent(f, s.req.Options)...)
	}
	clients, n, err := s.clientFiles(side)
	if err != nil {
		return nil, 0, err
	}
	out = append(out, clients...)
	files += n
	if notes {
		for _, sk := range snap.Skipped {
			if s.below(sk) {
				s.note("%s was not scanned: it is a submodule or a nested repository (scan it on its own)", sk)
			}
		}
	}
	return out, files, nil
}

// clientFiles returns the findings of the other clients' files and CI
// workflows at side below the scan's prefix, and how many were read, then
// compares the servers every client's config there defines (MG717). A
// symlink is followed inside the repository, as the client would; one
// that leaves it, or a file too large to read, is reported by policy.
func (s *repoScan) clientFiles(side gitscan.Side) ([]trust.Finding, int, error) {
	surfaces, _, err := s.repo.Surfaces(side)
	if err != nil {
		return nil, 0, fmt.Errorf("list surfaces at %s: %w", side, err)
	}
	var out []trust.Finding
	var configs []policy.File
	files := 0
	for _, o := range surfaces {
		content, config := policy.ClientContent(o.Kind), policy.IsServerConfig(o.Kind)
		if !s.below(o.Path) || (!content && !config) {
			continue
		}
		f := policy.File{Path: o.Path, Kind: o.Kind}
		f.Data, f.Symlink, f.Err = s.readFollowing(side, o.Path)
		if f.Err != nil && !errors.Is(f.Err, gitscan.ErrTooLarge) && !errors.Is(f.Err, policy.ErrOutside) &&
			!errors.Is(f.Err, gitscan.ErrNotFound) && !errors.Is(f.Err, gitscan.ErrNotRegular) {
			return nil, 0, fmt.Errorf("read %s at %s: %w", o.Path, side, f.Err)
		}
		if config {
			configs = append(configs, f)
		}
		if content {
			files++
			out = append(out, policy.CheckContent(f, s.req.Options)...)
		}
	}
	return append(out, policy.CrossClient(configs)...), files, nil
}

// readFollowing reads p at side through symlinks that stay inside the
// repository (at most 8 of them).
func (s *repoScan) readFollowing(side gitscan.Side, p string) (data []byte, symlink bool, err error) {
	for range 8 {
		data, e, err := s.repo.ReadBlob(side, p, trust.MaxFileSize)
		if err != nil {
			return nil, symlink, err
		}
		if e.Mode != gitscan.ModeSymlink {
			return data, symlink, nil
		}
		symlink = true
		target := string(data)
		if path.IsAbs(target) || strings.HasPrefix(target, "\\") {
			return nil, true, policy.ErrOutside
		}
		p = path.Clean(path.Join(path.Dir(p), target))
		if p == ".." || strings.HasPrefix(p, "../") || p == "." {
			return nil, true, policy.ErrOutside
		}
	}
	return nil, true, fmt.Errorf("too many levels of symbolic links: %w", gitscan.ErrNotRegular)
}

// below reports whether a repository path is inside the scanned directory.
func (s *repoScan) below(p string) bool {
	return s.prefix == "" || strings.HasPrefix(p, s.prefix)
}

func (s *repoScan) note(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	for _, have := range s.res.Notes {
		if have == n {
			return
		}
	}
	s.res.Notes = append(s.res.Notes, n)
}

// history reports each finding once, at the first commit (oldest first)
// whose surfaces hold it, with the commit's author and date.
func (s *repoScan) history() ([]trust.Finding, gitscan.Side, error) {
	tip, err := s.repo.Resolve("HEAD")
	if err != nil {
		return nil, tip, fmt.Errorf("HEAD: %w", err)
	}
	s.res.Side = tip.String()
	since := gitscan.Empty
	reported := map[string]int{}
	if s.req.Since != "" {
		if since, err = s.resolve(s.req.Since); err != nil {
			return nil, tip, err
		}
		before, _, err := s.snapshot(since, false)
		if err != nil {
			return nil, tip, err
		}
		for _, f := range before {
			reported[policy.FindingID(f)]++
		}
	}
	if s.repo.IsShallow() {
		s.res.Shallow = true
		s.note("this is a shallow clone: history before its oldest commits is missing, so findings there are reported at the boundary commit; fetch the full history (git fetch --unshallow, or actions/checkout with fetch-depth: 0) to see where they were introduced")
	}
	commits, err := s.repo.History(s.ctx, since, tip, nil)
	if err != nil {
		return nil, tip, fmt.Errorf("history: %w", err)
	}
	s.res.Commits = map[string]Commit{}
	var out []trust.Finding
	for _, hc := range commits {
		if err := s.ctx.Err(); err != nil {
			return nil, tip, err
		}
		side, err := s.repo.Resolve(hc.ID)
		if err != nil {
			return nil, tip, err
		}
		if hc.Boundary {
			s.res.Shallow = true
			s.note("commit %s is a shallow boundary: its findings may have been introduced earlier", short(hc.ID))
		}
		fs, _, err := s.snapshot(side, false)
		if err != nil {
			return nil, tip, err
		}
		s.res.CommitsScanned++
		if s.req.Progress != nil {
			s.req.Progress(s.res.CommitsScanned, len(commits))
		}
		counts := map[string]int{}
		var introduced []trust.Finding
		for _, f := range fs {
			id := policy.FindingID(f)
			counts[id]++
			if counts[id] > reported[id] {
				reported[id] = counts[id]
				f.Commit = hc.ID
				introduced = append(introduced, f)
				s.res.Commits[hc.ID] = Commit{ID: hc.ID, Author: hc.Author, Email: hc.AuthorEmail, Time: hc.Time}
			}
		}
		policy.SortFindings(introduced)
		out = append(out, introduced...)
	}
	// The files at the tip, for the summary.
	if _, s.res.Files, err = s.snapshot(tip, true); err != nil {
		return nil, tip, err
	}
	return out, tip, nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// diff reports the findings at HEAD that are not at the base, and the
// approval impact of the change for a user who approved every server at
// the base.
func (s *repoScan) diff() ([]trust.Finding, gitscan.Side, error) {
	baseRev, headRev, three, err := ParseRange(s.req.Range)
	if err != nil {
		return nil, gitscan.Empty, err
	}
	head, err := s.resolve(headRev)
	if err != nil {
		return nil, head, err
	}
	base, err := s.resolve(baseRev)
	if err != nil {
		return nil, base, err
	}
	if three {
		if base, err = s.repo.MergeBase(base, head); err != nil {
			return nil, base, fmt.Errorf("merge base of %s and %s: %w", baseRev, headRev, err)
		}
	}
	if three && s.repo.IsShallow() {
		// Both tips resolved, so a two-dot comparison reads only what is
		// there; a merge base may lie beyond the boundary.
		s.res.Shallow = true
		s.note("this is a shallow clone: the merge base may be beyond its history; fetch more (actions/checkout with fetch-depth: 0)")
	}
	s.res.Side, s.res.Base = head.String(), base.String()
	before, _, err := s.snapshot(base, false)
	if err != nil {
		return nil, base, err
	}
	after, files, err := s.snapshot(head, true)
	if err != nil {
		return nil, base, err
	}
	s.res.Files = files
	had := map[string]int{}
	for _, f := range before {
		had[policy.FindingID(f)]++
	}
	var out []trust.Finding
	for _, f := range after {
		id := policy.FindingID(f)
		if had[id] > 0 {
			had[id]--
			continue
		}
		out = append(out, f)
	}
	// Impact for a user who approved every server of the base.
	baseSnap, err := project.Load(s.ctx, s.repo, base, project.Options{})
	if err != nil {
		return nil, base, err
	}
	approved := map[string]bool{}
	for _, c := range baseSnap.Configs {
		for _, sv := range c.Servers {
			if sv.Fingerprint != "" && sv.Gated {
				approved[sv.Fingerprint] = true
			}
		}
	}
	cmp, err := project.Compare(s.ctx, s.repo, base, head, project.Options{Grants: trust.Grants{Approved: func(h string) bool { return approved[h] }}})
	if err != nil {
		return nil, base, err
	}
	for _, c := range cmp.Changes {
		if s.below(c.Path) {
			s.res.Changes = append(s.res.Changes, c)
		}
	}
	e1, ok1, err1 := s.repo.Lookup(head, policy.IgnoreFileName)
	e0, ok0, err0 := s.repo.Lookup(base, policy.IgnoreFileName)
	if err0 == nil && err1 == nil && (ok0 != ok1 || e0.ID != e1.ID) {
		s.note("the branch changes %s: the base's version applies here, so a branch cannot suppress its own findings", policy.IgnoreFileName)
	}
	return out, base, nil
}

// ParseRange splits "BASE...HEAD" (three is true) or "BASE..HEAD". An
// empty HEAD means HEAD.
func ParseRange(r string) (base, head string, three bool, err error) {
	if b, h, ok := strings.Cut(r, "..."); ok {
		base, head, three = b, h, true
	} else if b, h, ok := strings.Cut(r, ".."); ok {
		base, head = b, h
	} else {
		return "", "", false, fmt.Errorf("--diff %q: want BASE...HEAD (against the merge base) or BASE..HEAD", r)
	}
	if base == "" {
		return "", "", false, fmt.Errorf("--diff %q: the base revision is missing", r)
	}
	if head == "" {
		head = "HEAD"
	}
	return base, head, three, nil
}

// ignoreFile reads .mcp-guard.yaml at the repository root at side.
func (s *repoScan) ignoreFile(side gitscan.Side) (*policy.IgnoreFile, error) {
	if s.req.NoIgnoreFile {
		return nil, nil
	}
	data, _, err := s.repo.ReadBlob(side, policy.IgnoreFileName, policy.MaxIgnoreFileSize)
	switch {
	case errors.Is(err, gitscan.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read %s at %s: %w", policy.IgnoreFileName, side, err)
	}
	g, err := policy.ParseIgnoreFile(policy.IgnoreFileName, data)
	if err != nil {
		return nil, err
	}
	s.res.IgnoreFile = policy.IgnoreFileName
	return g, nil
}
