package trust

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/mcp-guard/mcp-guard/internal/atomicfile"
	"github.com/mcp-guard/mcp-guard/internal/filekind"
)

// This file is mcp-guard's own review ledger: the decisions a user made in
// `mcp-guard review` (approve, decline) and `hooks install --adopt`, bound
// to deep fingerprints, kept in the user's directory where no repository
// can write: $MCP_GUARD_HOME, else $HOME/.agentty/mcp-guard/. It holds
//
//   - reviews.json: per (repository, client, config path, server name) the
//     latest decision and the earlier decisions about other versions (at
//     most MaxVersions in all, the oldest dropped), each with the reviewed
//     entry (canonical JSON and referenced files) so the next review can
//     show what changed since; rewritten atomically under a lock, never
//     when it cannot be parsed;
//   - audit.jsonl: one JSON line per decision, appended, never rewritten.

// Ledger file names inside the ledger directory.
const (
	LedgerFileName = "reviews.json"
	AuditFileName  = "audit.jsonl"
)

// LedgerHomeEnv relocates mcp-guard's own directory.
const LedgerHomeEnv = "MCP_GUARD_HOME"

// LedgerVersion is the version of reviews.json this program writes. A
// ledger of a later version is read (what this version understands of it)
// but never rewritten. Version 1 kept one decision per server (and the
// last approved version when that decision was a decline, as
// "last_approved"); version 2 keeps the earlier decisions too ("earlier"),
// so every version the user approved is remembered. A version 1 ledger is
// read as version 2 (its last_approved an earlier approval) and written
// as version 2 on the next decision. Version 2 keeps version 1's fields
// for the latest decision, so a version 1 mcp-guard still reads the
// latest decision of each server (and, the ledger being newer, never
// rewrites it).
const LedgerVersion = 2

// MaxVersions bounds the versions of one server the ledger remembers, the
// latest decision included; recording one more drops the oldest.
const MaxVersions = 32

// ErrLedgerInvalid is matched (errors.Is) by every *LedgerError.
var ErrLedgerInvalid = errors.New("invalid review ledger")

// LedgerError says why the ledger on disk is unusable. Nothing counts as
// reviewed while it is so (every server blocks), and mcp-guard never
// rewrites it: the file is left byte for byte as it is.
type LedgerError struct {
	Path    string
	Problem string
	Err     error
}

func (e *LedgerError) Error() string {
	return fmt.Sprintf("%s: %s: nothing counts as reviewed while it is so, and mcp-guard will not rewrite it; repair it or move it aside (reviews then start afresh)", e.Path, e.Problem)
}

func (e *LedgerError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrLedgerInvalid) true.
func (e *LedgerError) Is(target error) bool { return target == ErrLedgerInvalid }

// LedgerDir is mcp-guard's own directory: $MCP_GUARD_HOME when set (made
// absolute), else the platform's state directory (stateDir: on Linux
// $XDG_STATE_HOME/mcp-guard, else ~/.local/state/mcp-guard; home is
// USERPROFILE when HOME is empty), into which the directory of earlier
// versions, ~/.agentty/mcp-guard, is moved on first use. It never depends
// on the repository being looked at.
func LedgerDir(getenv Getenv) (string, error) {
	if d := getenv(LedgerHomeEnv); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w", LedgerHomeEnv, d, err)
		}
		return abs, nil
	}
	home := HomeDir(getenv)
	if home == "" {
		return "", errNoLedgerHome{}
	}
	return settleStateDir(home, stateDir(getenv, home), legacyStateDir(home)), nil
}

// errNoLedgerHome is ErrNoHome said of the ledger.
type errNoLedgerHome struct{}

func (errNoLedgerHome) Error() string {
	return "neither " + LedgerHomeEnv + ", HOME nor USERPROFILE is set: there is no review ledger, so nothing counts as reviewed"
}
func (errNoLedgerHome) Is(target error) bool { return target == ErrNoHome }

// Decision is what the user decided about one version of a server.
type Decision string

const (
	// DecisionApproved: the user looked at it and lets it run.
	DecisionApproved Decision = "approved"
	// DecisionDeclined: the user looked at it and keeps it off; it stops
	// asking for a review until it changes.
	DecisionDeclined Decision = "declined"
)

// ReviewState is mcp-guard's view of a server's current version.
type ReviewState string

const (
	StateReviewed   ReviewState = "reviewed"   // its current deep fingerprint was approved
	StateDeclined   ReviewState = "declined"   // its current deep fingerprint was declined
	StateUnreviewed ReviewState = "unreviewed" // never reviewed, or changed since
)

// ReviewKey names a server across clones of one repository: the
// repository's identity (see RepoIdentity), the client that reads the
// config ("" for agentty, so ledgers written before clients existed keep
// their keys), the config's path relative to the repository root
// (slash-separated) and the server's name.
type ReviewKey struct {
	Repo   string `json:"repo"`
	Client string `json:"client,omitempty"`
	Config string `json:"config"`
	Server string `json:"server"`
}

// String is a stable, unambiguous rendering for messages and sorting.
func (k ReviewKey) String() string {
	if k.Client == "" {
		return fmt.Sprintf("%q %q %q", k.Repo, k.Config, k.Server)
	}
	return fmt.Sprintf("%q %q %q %q", k.Repo, k.Client, k.Config, k.Server)
}

// RepoIdentity is the ledger's name for a repository: its root commit ids,
// sorted and joined with commas, so every clone and worktree of it shares
// its reviews. A directory outside git, or a repository without commits,
// is named by its absolute path ("dir:/abs/path").
func RepoIdentity(roots []string, dir string) string {
	if len(roots) == 0 {
		return "dir:" + filepath.Clean(dir)
	}
	r := append([]string(nil), roots...)
	sort.Strings(r)
	return strings.Join(r, ",")
}

// ReviewedFile is one item of a server's code scope as it was reviewed (a
// FileID: the item's label, its git mode in octal or the kind of a
// directory item such as "code:python", and its id).
type ReviewedFile struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	ID   string `json:"id"`
}

// ReviewedFiles converts resolved references for the ledger.
func ReviewedFiles(ids []FileID) []ReviewedFile {
	var out []ReviewedFile
	for _, f := range ids {
		out = append(out, ReviewedFile{Path: f.Path, Mode: f.Mode, ID: f.ID})
	}
	return out
}

// FileIDs are the reviewed files, to diff against.
func (v *ReviewedVersion) FileIDs() []FileID {
	var out []FileID
	for _, f := range v.Files {
		out = append(out, FileID{Path: f.Path, Object: Object{Mode: f.Mode, ID: f.ID}})
	}
	return out
}

// ReviewedVersion is one version of a server as the user saw it.
type ReviewedVersion struct {
	// Deep is mcp-guard's deep fingerprint (64 lower-case hex digits).
	Deep string `json:"deep_fingerprint"`
	// Fingerprint is agentty's fingerprint of the same version ("" when it
	// has none).
	Fingerprint string `json:"fingerprint"`
	// Entry is the server's canonical JSON (Server.Canonical).
	Entry string         `json:"entry"`
	Files []ReviewedFile `json:"files,omitempty"`
	// Commit is HEAD when the decision was made ("" outside git).
	Commit string    `json:"commit,omitempty"`
	Time   time.Time `json:"time"`
}

// DecidedVersion is one version of a server and what the user decided
// about it.
type DecidedVersion struct {
	Decision Decision `json:"decision"`
	ReviewedVersion
	// Adopted marks an approval recorded by `hooks install --adopt`: the
	// user accepted what agentty had already approved, without a diff.
	Adopted bool `json:"adopted,omitempty"`
}

// Review is what the user decided about one server: the latest decision
// (its fields promoted: r.Decision, r.Deep, r.Time) and the decisions
// about its other versions, so that a worktree, clone or branch whose
// server is any version the user approved passes.
type Review struct {
	ReviewKey
	DecidedVersion
	// Earlier are the decisions about other versions, newest first, each
	// deep fingerprint once and never the latest's; with the latest at
	// most MaxVersions.
	Earlier []DecidedVersion `json:"earlier,omitempty"`
}

// Versions are the decided versions, newest first: the latest decision,
// then Earlier.
func (r *Review) Versions() []DecidedVersion {
	if r == nil {
		return nil
	}
	return append([]DecidedVersion{r.DecidedVersion}, r.Earlier...)
}

// Find is the decision about the version whose deep fingerprint is deep,
// nil when the user never decided about it (or deep is empty).
func (r *Review) Find(deep string) *DecidedVersion {
	if r == nil || deep == "" {
		return nil
	}
	if r.Deep == deep {
		return &r.DecidedVersion
	}
	for i := range r.Earlier {
		if r.Earlier[i].Deep == deep {
			return &r.Earlier[i]
		}
	}
	return nil
}

// Approves reports whether the user approved the version whose deep
// fingerprint is deep (and did not decline it since).
func (r *Review) Approves(deep string) bool {
	d := r.Find(deep)
	return d != nil && d.Decision == DecisionApproved
}

// Baseline is the version a new review is compared with: the most recent
// approved one when there is one, else the latest decision's.
func (r *Review) Baseline() *ReviewedVersion {
	if r == nil {
		return nil
	}
	if r.Decision != DecisionApproved {
		for i := range r.Earlier {
			if r.Earlier[i].Decision == DecisionApproved {
				return &r.Earlier[i].ReviewedVersion
			}
		}
	}
	return &r.ReviewedVersion
}

// ledgerFile is reviews.json as written.
type ledgerFile struct {
	Version int       `json:"version"`
	Reviews []*Review `json:"reviews"`
}

// storedLedger is reviews.json as read: any version up to this one's, and
// what a later one shares with it.
type storedLedger struct {
	Version int            `json:"version"`
	Reviews []storedReview `json:"reviews"`
}

// storedReview is one review as read: version 1's last_approved (the last
// approved version when the latest decision declined a later one) becomes
// an earlier approval.
type storedReview struct {
	*Review
	LastApproved *ReviewedVersion `json:"last_approved,omitempty"`
}

// Ledger is the review ledger as read from disk.
type Ledger struct {
	// Dir is the ledger directory; Path is reviews.json inside it.
	Dir, Path string
	// Err is why nothing counts as reviewed: the ledger is not a regular
	// file, cannot be read or cannot be parsed (a *LedgerError), or there
	// is no home directory. nil when it is usable; a missing file is
	// usable and empty.
	Err error
	// Newer is set when the file was written by a later version of
	// mcp-guard: it is read, never rewritten.
	Newer bool
	// Version is the file's format version (0 when there is no file).
	Version int

	reviews map[ReviewKey]*Review
	// renames indexes reviews by what Renamed asks (built on its first
	// call: the loaded ledger is never changed in place).
	renameOnce sync.Once
	renames    map[renameKey][]*Review
}

// renameKey is one configuration's approved version: the reviews of
// other names that approve the deep fingerprint.
type renameKey struct {
	Repo, Client, Config, Deep string
}

// LoadLedger reads the ledger in dir. It never fails: an unusable ledger
// reviews nothing and Err says why.
func LoadLedger(dir string) *Ledger {
	l := &Ledger{Dir: dir, Path: filepath.Join(dir, LedgerFileName)}
	data, err := ReadFile(l.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return l
	}
	if err != nil {
		l.Err = &LedgerError{Path: l.Path, Problem: "cannot be read: " + unwrapPath(err, l.Path), Err: err}
		return l
	}
	f, err := parseLedger(l.Path, data)
	if err != nil {
		l.Err = err
		return l
	}
	l.Newer = f.Version > LedgerVersion
	l.Version = f.Version
	l.reviews = indexReviews(f.Reviews)
	return l
}

// LoadUserLedger reads the ledger of the user getenv describes.
func LoadUserLedger(getenv Getenv) *Ledger {
	dir, err := LedgerDir(getenv)
	if err != nil {
		return &Ledger{Err: err}
	}
	return LoadLedger(dir)
}

// Lookup returns the latest decision about a server, if any. An unusable
// ledger has none.
func (l *Ledger) Lookup(k ReviewKey) (*Review, bool) {
	if l == nil || l.Err != nil {
		return nil, false
	}
	r, ok := l.reviews[k]
	return r, ok
}

// State is the review state of a server whose current deep fingerprint is
// deep (the decision about that version, whichever the user decided
// last), and the decisions about the server (nil when there are none).
func (l *Ledger) State(k ReviewKey, deep string) (ReviewState, *Review) {
	r, ok := l.Lookup(k)
	if !ok {
		return StateUnreviewed, nil
	}
	switch d := r.Find(deep); {
	case d == nil:
		return StateUnreviewed, r
	case d.Decision == DecisionDeclined:
		return StateDeclined, r
	}
	return StateReviewed, r
}

// Renamed finds the approval of a server of the same repository and
// configuration, under another name, whose deep fingerprint is deep: a
// server renamed (or copied) without any change to what it runs is the
// version the user reviewed. nil when there is none (or deep is empty).
func (l *Ledger) Renamed(k ReviewKey, deep string) *Review {
	if deep == "" {
		return nil
	}
	if l == nil || l.Err != nil {
		return nil
	}
	// One index, not a sort of every review per server: a pull that
	// changed 1,000 reviewed servers asked this 1,000 times.
	l.renameOnce.Do(func() {
		l.renames = map[renameKey][]*Review{}
		for _, r := range sortedReviews(l.reviews) {
			for _, v := range r.Versions() {
				if r.Approves(v.Deep) {
					rk := renameKey{r.Repo, r.Client, r.Config, v.Deep}
					l.renames[rk] = append(l.renames[rk], r)
				}
			}
		}
	})
	for _, r := range l.renames[renameKey{k.Repo, k.Client, k.Config, deep}] {
		if r.Server != k.Server {
			return r
		}
	}
	return nil
}

// Reviews returns every decision, sorted by key.
func (l *Ledger) Reviews() []*Review {
	if l == nil || l.Err != nil {
		return nil
	}
	return sortedReviews(l.reviews)
}

func indexReviews(rs []*Review) map[ReviewKey]*Review {
	m := make(map[ReviewKey]*Review, len(rs))
	for _, r := range rs {
		m[r.ReviewKey] = r
	}
	return m
}

func sortedReviews(m map[ReviewKey]*Review) []*Review {
	out := make([]*Review, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].ReviewKey, out[j].ReviewKey
		if a.Repo != b.Repo {
			return a.Repo < b.Repo
		}
		if a.Client != b.Client {
			return a.Client < b.Client
		}
		if a.Config != b.Config {
			return a.Config < b.Config
		}
		return a.Server < b.Server
	})
	return out
}

// parseLedger decodes reviews.json strictly: one JSON object with a known
// version, every review complete, every key once and every version of a
// server once. A version 1 review's last_approved becomes its earlier
// approval.
func parseLedger(path string, data []byte) (*ledgerFile, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var f storedLedger
	if err := dec.Decode(&f); err != nil {
		problem := "is not valid JSON (" + err.Error() + ")"
		if len(bytes.TrimSpace(data)) == 0 {
			problem = "is empty"
		}
		return nil, &LedgerError{Path: path, Problem: problem, Err: err}
	}
	if dec.More() || dec.InputOffset() != int64(len(bytes.TrimRight(data, " \t\r\n"))) {
		return nil, &LedgerError{Path: path, Problem: "has content after the JSON value"}
	}
	if f.Version < 1 {
		return nil, &LedgerError{Path: path, Problem: fmt.Sprintf("has no valid version (%d)", f.Version)}
	}
	out := &ledgerFile{Version: f.Version, Reviews: make([]*Review, 0, len(f.Reviews))}
	seen := make(map[ReviewKey]bool, len(f.Reviews))
	for i, sr := range f.Reviews {
		r, problem := sr.migrate(f.Version)
		if problem == "" {
			problem = checkReview(r)
		}
		if problem != "" {
			return nil, &LedgerError{Path: path, Problem: fmt.Sprintf("review %d %s", i+1, problem)}
		}
		if seen[r.ReviewKey] {
			return nil, &LedgerError{Path: path, Problem: fmt.Sprintf("review %d repeats the key %s", i+1, r.ReviewKey)}
		}
		seen[r.ReviewKey] = true
		out.Reviews = append(out.Reviews, r)
	}
	return out, nil
}

// migrate is the review as this version models it: version 1's
// last_approved (a decline's last approved version) is the earlier
// approval, unless it is the declined version itself; a later version
// has no last_approved to read.
func (sr storedReview) migrate(version int) (*Review, string) {
	r := sr.Review
	if r == nil || sr.LastApproved == nil {
		return r, ""
	}
	switch {
	case version != 1:
		return nil, "has a last_approved, which only version 1 writes"
	case len(r.Earlier) > 0:
		return nil, "has both last_approved and earlier"
	case !isLowerHexSHA256(sr.LastApproved.Deep):
		return nil, "has a last_approved without a valid deep_fingerprint"
	case sr.LastApproved.Deep != r.Deep:
		r.Earlier = []DecidedVersion{{Decision: DecisionApproved, ReviewedVersion: *sr.LastApproved}}
	}
	return r, ""
}

// Validate reports what keeps a review from being recorded, nil when
// LedgerEdit.Record would take it.
func (r *Review) Validate() error {
	if problem := checkReview(r); problem != "" {
		return fmt.Errorf("review of %s %s", r.ReviewKey, problem)
	}
	return nil
}

func checkReview(r *Review) string {
	switch {
	case r == nil:
		return "is null"
	case r.Repo == "" || r.Config == "" || r.Server == "":
		return "lacks its repo, config or server"
	case !validClient(r.Client):
		return fmt.Sprintf("has a malformed client %q", r.Client)
	case r.Decision != DecisionApproved && r.Decision != DecisionDeclined:
		return fmt.Sprintf("has an unknown decision %q", r.Decision)
	case !isLowerHexSHA256(r.Deep):
		return "has no valid deep_fingerprint"
	}
	seen := map[string]bool{r.Deep: true}
	for i, d := range r.Earlier {
		switch {
		case d.Decision != DecisionApproved && d.Decision != DecisionDeclined:
			return fmt.Sprintf("has an earlier decision (%d) that is unknown: %q", i+1, d.Decision)
		case !isLowerHexSHA256(d.Deep):
			return fmt.Sprintf("has an earlier decision (%d) without a valid deep_fingerprint", i+1)
		case seen[d.Deep]:
			return fmt.Sprintf("has two decisions about the version %s", d.Deep)
		}
		seen[d.Deep] = true
	}
	return ""
}

// validClient accepts "" (agentty) and a client id: lowercase letters,
// digits and hyphens, at most 32 bytes.
func validClient(c string) bool {
	if len(c) > 32 {
		return false
	}
	for i := 0; i < len(c); i++ {
		if b := c[i]; !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-') {
			return false
		}
	}
	return true
}

// AuditRecord is one line of audit.jsonl.
type AuditRecord struct {
	Time time.Time `json:"time"`
	// Repository is the repository identity (RepoIdentity); Path is the
	// work tree it was decided in, for people.
	Repository string `json:"repository"`
	Path       string `json:"path,omitempty"`
	// Client is the review key's client ("" for agentty).
	Client string `json:"client,omitempty"`
	Config string `json:"config"`
	Server string `json:"server"`
	// Decision is "approve", "decline", "adopt" or "revoke" (the
	// decisions about the server were forgotten).
	Decision    string `json:"decision"`
	Fingerprint string `json:"fingerprint"`
	Deep        string `json:"deep_fingerprint"`
	Commit      string `json:"commit,omitempty"`
}

// LedgerEdit is the ledger's content during UpdateLedger.
type LedgerEdit struct {
	reviews map[ReviewKey]*Review
	audit   []AuditRecord
	// Path is the work tree decisions are made in; it is written to the
	// audit log only.
	Path string
}

// Lookup returns the latest decision about a server.
func (e *LedgerEdit) Lookup(k ReviewKey) (*Review, bool) {
	r, ok := e.reviews[k]
	return r, ok
}

// Record makes r the latest decision about its server and queues the
// matching audit line. The decisions about the server's other versions
// are kept (r.Earlier is ignored): an earlier decision about r's version
// is replaced by r, and beyond MaxVersions the oldest is dropped. r.Time
// defaults to now.
func (e *LedgerEdit) Record(r Review) error {
	if r.Time.IsZero() {
		r.Time = time.Now().UTC()
	}
	r.Earlier = nil
	if problem := checkReview(&r); problem != "" {
		return fmt.Errorf("review of %s %s", r.ReviewKey, problem)
	}
	if prev, ok := e.reviews[r.ReviewKey]; ok {
		for _, d := range prev.Versions() {
			if d.Deep != r.Deep && len(r.Earlier) < MaxVersions-1 {
				r.Earlier = append(r.Earlier, d)
			}
		}
	}
	e.reviews[r.ReviewKey] = &r
	verb := "approve"
	switch {
	case r.Decision == DecisionDeclined:
		verb = "decline"
	case r.Adopted:
		verb = "adopt"
	}
	e.audit = append(e.audit, AuditRecord{
		Time: r.Time, Repository: r.Repo, Path: e.Path, Client: r.Client, Config: r.Config, Server: r.Server,
		Decision: verb, Fingerprint: r.Fingerprint, Deep: r.Deep, Commit: r.Commit,
	})
	return nil
}

// Forget removes the decisions about every version of the server of k,
// so that it waits for review again whatever version it is, and queues an
// audit line per version saying so ("revoke"); false when there was none.
func (e *LedgerEdit) Forget(k ReviewKey) bool {
	r, ok := e.reviews[k]
	if !ok {
		return false
	}
	delete(e.reviews, k)
	now := time.Now().UTC()
	for _, d := range r.Versions() {
		e.audit = append(e.audit, AuditRecord{
			Time: now, Repository: k.Repo, Path: e.Path, Client: k.Client, Config: k.Config, Server: k.Server,
			Decision: "revoke", Fingerprint: d.Fingerprint, Deep: d.Deep,
		})
	}
	return true
}

// UpdateLedger changes the ledger in dir under an exclusive lock
// (reviews.json.lock, flock, kept after use), the same way UpdateApprovals changes
// agentty's store: a missing directory (and its parent, agentty's
// ~/.agentty) is created 0700, but never the home directory above them: a
// missing home is an error, not something to make; an unusable ledger
// is refused with a *LedgerError and left untouched, as is one written by
// a later version; when fn records nothing, nothing is written; otherwise
// the new content goes to a synced temporary file renamed over the ledger,
// and then every recorded decision is appended to audit.jsonl, still under
// the lock. An error from fn is returned as is and nothing is written.
func UpdateLedger(ctx context.Context, dir string, fn func(*LedgerEdit) error) error {
	if dir == "" {
		return ErrNoHome
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: cannot create mcp-guard's directory: %w; check that %s exists and is writable", d, unwrapPathErr(err), filepath.Dir(d))
		}
	}
	path := filepath.Join(dir, LedgerFileName)
	unlock, err := lockExclusive(ctx, path+".lock", "the review ledger")
	if err != nil {
		return err
	}
	defer unlock()

	if err := ledgerIsRegular(path); err != nil {
		return err
	}
	l := LoadLedger(dir)
	if l.Err != nil {
		return l.Err
	}
	if l.Newer {
		return &LedgerError{Path: path, Problem: "was written by a newer mcp-guard (version above " + fmt.Sprint(LedgerVersion) + ")"}
	}
	// Temporary files of a writer killed mid-write; with the lock held,
	// every one is stale.
	atomicfile.RemoveStale(path)
	edit := &LedgerEdit{reviews: l.reviews}
	if edit.reviews == nil {
		edit.reviews = map[ReviewKey]*Review{}
	}
	if err := fn(edit); err != nil {
		return err
	}
	if len(edit.audit) == 0 {
		return nil
	}
	reviews := sortedReviews(edit.reviews)
	if err := replaceFile(path, 0o600, func(w io.Writer) error { return writeLedger(w, reviews) }); err != nil {
		return err
	}
	return AppendAudit(dir, edit.audit...)
}

// writeLedger writes reviews.json's content to w, byte for byte what
// json.MarshalIndent of the ledgerFile (indented by two spaces) and a
// newline are, one review at a time: a review --all of 100,000 servers
// held the whole encoding three times over (encoding, indenting, the
// indented copy) at its peak.
//
// A ledger longer than LoadLedger reads (MaxFileSize) is not written: it
// would review nothing afterwards, every earlier review included, and
// mcp-guard would refuse to rewrite it.
func writeLedger(w io.Writer, reviews []*Review) error {
	tooLarge := fmt.Errorf("%w: the review ledger would pass %d bytes, the most mcp-guard reads, with %d reviews", ErrTooLarge, MaxFileSize, len(reviews))
	bw := bufio.NewWriterSize(w, 64<<10)
	n, _ := fmt.Fprintf(bw, "{\n  \"version\": %d,\n  \"reviews\": [", LedgerVersion)
	for i, r := range reviews {
		data, err := json.MarshalIndent(r, "    ", "  ")
		if err != nil {
			return fmt.Errorf("encoding the review ledger: %w", err)
		}
		if i > 0 {
			bw.WriteByte(',')
			n++
		}
		bw.WriteString("\n    ")
		bw.Write(data)
		if n += 5 + len(data); n > MaxFileSize {
			return tooLarge
		}
	}
	end := "]\n}\n"
	if len(reviews) > 0 {
		end = "\n  " + end
	}
	if n+len(end) > MaxFileSize {
		return tooLarge
	}
	bw.WriteString(end)
	return bw.Flush()
}

// ledgerIsRegular refuses a ledger path that is a symlink or anything but a
// regular file: mcp-guard replaces the file, and will not follow a link
// out of its own directory to do so.
func ledgerIsRegular(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &LedgerError{Path: path, Problem: "cannot be examined: " + unwrapPath(err, path), Err: err}
	}
	if !fi.Mode().IsRegular() {
		return &LedgerError{Path: path, Problem: "is " + describeMode(fi.Mode()) + ", not a regular file", Err: ErrNotRegular}
	}
	return nil
}

// replaceFile atomically replaces path with what write writes (see
// internal/atomicfile): a reader sees the old content or the new, never a
// mix.
func replaceFile(path string, mode fs.FileMode, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	pending, err := atomicfile.Create(path, mode)
	if err != nil {
		return fmt.Errorf("%s: cannot write %s: %w; check that the directory is writable", dir, filepath.Base(path), unwrapPathErr(err))
	}
	defer pending.Cleanup()
	err = write(pending)
	if errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("%s: %w; it is unchanged", path, err)
	}
	if err == nil {
		err = pending.Close()
	}
	if err != nil {
		return fmt.Errorf("%s: cannot write: %w; %s is unchanged", pending.Name(), unwrapPathErr(err), path)
	}
	if err := pending.Replace(); err != nil {
		var se *atomicfile.SyncDirError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: replaced, but the directory could not be synced: %w", dir, unwrapPathErr(se.Err))
		}
		return fmt.Errorf("%s: cannot replace: %w; it is unchanged", path, unwrapPathErr(err))
	}
	return nil
}

type lockWaitKey struct{}

// WithLockWait is ctx with f, which lockExclusive calls once, before it
// waits, when another process holds the lock it needs: what names the
// protected file ("the review ledger"), lockPath the lock. A person
// waiting up to LockTimeout is told why (cmd says it on stderr).
func WithLockWait(ctx context.Context, f func(what, lockPath string)) context.Context {
	return context.WithValue(ctx, lockWaitKey{}, f)
}

// lockExclusive takes an exclusive flock on lockPath, waiting until ctx is
// done, or LockTimeout when ctx has no deadline. what names the protected
// file in messages.
func lockExclusive(ctx context.Context, lockPath, what string) (unlock func(), err error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, LockTimeout)
		defer cancel()
	}
	lock := flock.New(lockPath, flock.SetPermissions(0o600))
	locked, err := lock.TryLock()
	if err == nil && !locked {
		if f, ok := ctx.Value(lockWaitKey{}).(func(what, lockPath string)); ok {
			f(what, lockPath)
		}
		locked, err = lock.TryLockContext(ctx, 5*time.Millisecond)
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("%s: cannot lock %s: %w; check that %s is writable", lockPath, what, unwrapPathErr(err), filepath.Dir(lockPath))
	}
	if !locked {
		return nil, fmt.Errorf("%s: %w on %s (%v): another mcp-guard process holds it; retry when it has finished", lockPath, ErrLockTimeout, what, ctx.Err())
	}
	return func() { lock.Unlock() }, nil
}

// AppendAudit appends records to dir/audit.jsonl, one JSON object per line.
// The file is opened O_APPEND and each line goes out in a single write, so
// concurrent writers never interleave within a line; it is synced before
// AppendAudit returns. The log is never rewritten or truncated.
func AppendAudit(dir string, recs ...AuditRecord) error {
	if len(recs) == 0 {
		return nil
	}
	path := filepath.Join(dir, AuditFileName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("%s: cannot open the audit log: %w", path, unwrapPathErr(err))
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = filekind.Of(fi.Mode())
	}
	for _, r := range recs {
		if err != nil {
			break
		}
		var line []byte
		if line, err = json.Marshal(r); err == nil {
			_, err = f.Write(append(line, '\n'))
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: cannot append to the audit log: %w", path, unwrapPathErr(err))
	}
	return nil
}
