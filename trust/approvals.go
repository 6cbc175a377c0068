package trust

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/internal/atomicfile"
)

// This file is agentty's approvals store, $HOME/.agentty/mcp_approvals.json:
// read exactly as agentty reads it, and written so that agentty reads it the
// same way, without agentty's failure modes (non-atomic writes, lost
// concurrent updates, silently dropping entries it does not understand).

// ApprovalsFileName is the store's file name inside agentty's directory.
const ApprovalsFileName = "mcp_approvals.json"

// LockTimeout bounds how long UpdateApprovals waits for another mcp-guard
// process to release the store when the context has no deadline.
const LockTimeout = 10 * time.Second

// ErrNoHome reports that neither HOME nor USERPROFILE is set: agentty then
// approves nothing and cannot save an approval.
var ErrNoHome = errors.New("neither HOME nor USERPROFILE is set: there is no approvals store (set HOME)")

// ErrApprovalsInvalid is matched (errors.Is) by every *ApprovalsError.
var ErrApprovalsInvalid = errors.New("invalid approvals store")

// ErrLockTimeout reports that a store's lock (the approvals store's or the
// review ledger's; the error names its file) was not acquired in time.
var ErrLockTimeout = errors.New("timed out waiting for the lock")

// ErrBadHash reports a hash that agentty could never match: approvals are
// 64 lower-case hex digits.
var ErrBadHash = errors.New("not a lower-case hex SHA-256")

// ApprovalsError says why a store on disk is unusable: it is not a regular
// file, cannot be read, or is not a strict JSON array. agentty approves
// nothing while the store is like this, and mcp-guard refuses to rewrite it
// (the file is left byte for byte as it is).
type ApprovalsError struct {
	Path    string
	Problem string // what is wrong, e.g. "is a JSON object, not an array"
	Err     error  // the underlying error, if any
}

func (e *ApprovalsError) Error() string {
	return fmt.Sprintf("%s: %s: agentty approves nothing while it is so, and mcp-guard will not rewrite it; repair it (it must be a JSON array of strings) or move it aside", e.Path, e.Problem)
}

func (e *ApprovalsError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrApprovalsInvalid) true.
func (e *ApprovalsError) Is(target error) bool { return target == ErrApprovalsInvalid }

// ApprovalsPath is where agentty keeps its approvals:
// $HOME/.agentty/mcp_approvals.json, with $USERPROFILE when HOME is empty.
func ApprovalsPath(getenv Getenv) (string, error) {
	home := HomeDir(getenv)
	if home == "" {
		return "", ErrNoHome
	}
	return filepath.Join(home, ".agentty", ApprovalsFileName), nil
}

// Approvals is the approvals store as agentty sees it when it starts.
type Approvals struct {
	// Path is the store's path; empty when there is no home directory.
	Path string
	// Exists reports whether the file exists.
	Exists bool
	// Err is why nothing is approved: the store is not a regular file,
	// cannot be read or is not a strict JSON array (an *ApprovalsError), or
	// there is no home directory (ErrNoHome). nil when the store is usable;
	// a missing file is usable and empty.
	Err error

	hashes []string
	set    map[string]struct{}
}

// LoadApprovals reads the store at path exactly as agentty does. It never
// fails: a store that is not a strict JSON array approves nothing, and
// Err says why (agentty fails closed the same way).
func LoadApprovals(path string) *Approvals {
	a := &Approvals{Path: path}
	data, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return a
	}
	a.Exists = true
	if err != nil {
		a.Err = &ApprovalsError{Path: path, Problem: "cannot be read: " + unwrapPath(err, path), Err: err}
		return a
	}
	entries, err := parseApprovals(path, data)
	if err != nil {
		a.Err = err
		return a
	}
	a.set = make(map[string]struct{}, len(entries))
	for _, e := range entries {
		if e.value == nil {
			a.hashes = append(a.hashes, e.str)
			a.set[e.str] = struct{}{}
		}
	}
	return a
}

// LoadUserApprovals reads the store of the user getenv describes. Without a
// home directory nothing is approved and Err is ErrNoHome.
func LoadUserApprovals(getenv Getenv) *Approvals {
	path, err := ApprovalsPath(getenv)
	if err != nil {
		return &Approvals{Err: err}
	}
	return LoadApprovals(path)
}

// Approved reports whether agentty would find hash in the store: an exact
// byte comparison with one of its string entries (upper-case hex never
// matches). Nothing is approved when the store is invalid.
func (a *Approvals) Approved(hash string) bool {
	if a == nil || a.Err != nil {
		return false
	}
	_, ok := a.set[hash]
	return ok
}

// Hashes returns the string entries in file order, duplicates included;
// nil when the store is invalid.
func (a *Approvals) Hashes() []string {
	if a == nil || a.Err != nil {
		return nil
	}
	return append([]string(nil), a.hashes...)
}

// approvalEntry is one element of the store's array: a string (value nil)
// or any other JSON value, kept so that it can be written back.
type approvalEntry struct {
	str   string
	value *jsonValue
}

// parseApprovals decodes the store strictly, as agentty's load does: one
// JSON value, nothing after it, and that value an array.
func parseApprovals(path string, data []byte) ([]approvalEntry, error) {
	v, end, err := decodeJSON(data)
	if err != nil {
		problem := "is not valid JSON (" + err.Error() + ")"
		if len(bytes.TrimSpace(data)) == 0 {
			problem = "is empty, not a JSON array"
		}
		return nil, &ApprovalsError{Path: path, Problem: problem, Err: err}
	}
	if end != len(data) {
		line := 1 + bytes.Count(data[:end], []byte("\n"))
		col := 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:end], '\n')+1:end])
		return nil, &ApprovalsError{Path: path, Problem: fmt.Sprintf("has content after the JSON value at line %d, column %d", line, col)}
	}
	if v.Kind != jsonArray {
		return nil, &ApprovalsError{Path: path, Problem: "is a JSON " + v.Kind.String() + ", not an array"}
	}
	entries := make([]approvalEntry, len(v.Elems))
	for i, e := range v.Elems {
		if e.Kind == jsonString {
			entries[i] = approvalEntry{str: e.Str}
		} else {
			entries[i] = approvalEntry{value: e}
		}
	}
	return entries, nil
}

// ApprovalsEdit is the store's content during UpdateApprovals. Entries that
// are not strings are kept where they are and written back.
type ApprovalsEdit struct {
	entries []approvalEntry
	// strs holds the string entries, built at the first lookup: approving
	// 100,000 servers at once looks each one up before adding it, and a
	// scan of the list per lookup made that quadratic.
	strs map[string]struct{}
}

// Has reports whether hash is one of the string entries.
func (e *ApprovalsEdit) Has(hash string) bool {
	if e.strs == nil {
		e.strs = make(map[string]struct{}, len(e.entries))
		for _, x := range e.entries {
			if x.value == nil {
				e.strs[x.str] = struct{}{}
			}
		}
	}
	_, ok := e.strs[hash]
	return ok
}

// Add appends hash unless it is already present, as agentty does (no
// sorting). hash must be 64 lower-case hex digits, the only form agentty
// ever matches.
func (e *ApprovalsEdit) Add(hash string) (added bool, err error) {
	if !isLowerHexSHA256(hash) {
		return false, fmt.Errorf("approval %q: %w", hash, ErrBadHash)
	}
	if e.Has(hash) {
		return false, nil
	}
	e.entries = append(e.entries, approvalEntry{str: hash})
	e.strs[hash] = struct{}{} // Has built it
	return true, nil
}

// Remove deletes every string entry equal to hash and reports whether there
// was one.
func (e *ApprovalsEdit) Remove(hash string) (removed bool) {
	kept := e.entries[:0]
	for _, x := range e.entries {
		if x.value == nil && x.str == hash {
			removed = true
			continue
		}
		kept = append(kept, x)
	}
	e.entries = kept
	if e.strs != nil {
		delete(e.strs, hash) // every string entry equal to hash is gone
	}
	return removed
}

// RemoveAll deletes every string entry equal to one of hashes in one
// pass (Remove per hash is a pass each: quadratic for a revoke of every
// server) and reports which of them there was one of.
func (e *ApprovalsEdit) RemoveAll(hashes []string) (removed map[string]bool) {
	removed = make(map[string]bool, len(hashes))
	for _, h := range hashes {
		removed[h] = false
	}
	kept := e.entries[:0]
	for _, x := range e.entries {
		if _, ok := removed[x.str]; ok && x.value == nil {
			removed[x.str] = true
			continue
		}
		kept = append(kept, x)
	}
	e.entries = kept
	if e.strs != nil {
		for _, h := range hashes {
			delete(e.strs, h)
		}
	}
	return removed
}

// Hashes returns the string entries in order.
func (e *ApprovalsEdit) Hashes() []string {
	var out []string
	for _, x := range e.entries {
		if x.value == nil {
			out = append(out, x.str)
		}
	}
	return out
}

func isLowerHexSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// UpdateApprovals changes the store at path under an exclusive lock:
//
//   - the lock is a sibling file (path + ".lock") locked with flock, held
//     across read, fn and write, so concurrent mcp-guard processes lose
//     nothing; waiting for it ends with ErrLockTimeout when ctx is done, or
//     after LockTimeout when ctx has no deadline. The lock file stays, empty
//     (removing it while another process waits on it would let two
//     processes lock different files); docs/architecture.md lists it;
//   - a missing directory is created 0700 and a missing file 0600; an
//     existing file keeps its permissions, and a symlinked store is updated
//     at its target, so the link stays;
//   - a store that is not a regular file, cannot be read or is not a strict
//     JSON array is refused with an *ApprovalsError and left untouched, and
//     fn does not run; a read-only store (no write permission bit) is
//     refused too: agentty could not save into it either;
//   - when fn changes nothing, nothing is written; otherwise the new content
//     goes to a temporary file in the same directory, which is synced and
//     renamed over the store, and the directory is synced;
//   - if the store changed on disk while fn ran (agentty does not take the
//     lock), the update starts again from the new content, so fn may run
//     more than once: it must only edit.
//
// An error from fn is returned as is and nothing is written.
func UpdateApprovals(ctx context.Context, path string, fn func(*ApprovalsEdit) error) error {
	if path == "" {
		return ErrNoHome
	}
	dir := filepath.Dir(path)
	if err := ensureDir(dir); err != nil {
		return err
	}
	unlock, err := lockExclusive(ctx, path+".lock", "the approvals store")
	if err != nil {
		return err
	}
	defer unlock()

	const attempts = 5
	for range attempts {
		done, err := updateLocked(path, fn)
		if err != nil || done {
			return err
		}
	}
	return fmt.Errorf("%s: the file kept changing while mcp-guard updated it (is agentty saving approvals right now?); retry", path)
}

// ensureDir creates agentty's directory 0700 when it is missing. Its parent
// (the home directory) must exist.
func ensureDir(dir string) error {
	fi, err := os.Stat(dir)
	if err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s: not a directory; the approvals store cannot live there: move it aside", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", dir, unwrapPathErr(err))
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s: cannot create the directory: %w; check that %s exists and is writable", dir, unwrapPathErr(err), filepath.Dir(dir))
	}
	return nil
}

// updateLocked runs one read-modify-write with the lock held. done is false
// when the store changed on disk before the rename and the caller should
// start again.
func updateLocked(path string, fn func(*ApprovalsEdit) error) (done bool, err error) {
	target, mode, old, exists, err := readStoreForUpdate(path)
	if err != nil {
		return true, err
	}
	dir := filepath.Dir(target)
	// Temporary files of a writer killed mid-write: only the lock holder
	// creates them, so with the lock held every one is stale.
	atomicfile.RemoveStale(target)
	var entries []approvalEntry
	if exists {
		if entries, err = parseApprovals(path, old); err != nil {
			return true, err
		}
		for _, e := range entries {
			if e.value == nil {
				continue
			}
			if d := nestingDepth(e.value); d > maxRewriteDepth {
				return true, fmt.Errorf("%s: an entry nests %d levels deep, more than mcp-guard rewrites (%d); nothing was changed, and agentty still reads the store: remove that entry to change approvals with mcp-guard", path, d, maxRewriteDepth)
			}
		}
	}
	before := encodeApprovals(entries)
	edit := &ApprovalsEdit{entries: entries}
	if err := fn(edit); err != nil {
		return true, err
	}
	data := encodeApprovals(edit.entries)
	if bytes.Equal(data, before) {
		return true, nil // no change: leave the file (and its layout) alone
	}

	pending, err := atomicfile.Create(target, mode)
	if err != nil {
		return true, fmt.Errorf("%s: cannot write the approvals store: %w; check that the directory is writable", dir, unwrapPathErr(err))
	}
	defer pending.Cleanup()
	_, err = pending.Write(data)
	if err == nil {
		err = pending.Close()
	}
	if err != nil {
		return true, fmt.Errorf("%s: cannot write the approvals store: %w; %s is unchanged", pending.Name(), unwrapPathErr(err), path)
	}
	// agentty writes without the lock: if it saved meanwhile, start again
	// from what it wrote rather than overwrite it.
	now, nowErr := ReadFile(target)
	if exists != (nowErr == nil) || (exists && !bytes.Equal(now, old)) {
		return false, nil
	}
	if err := pending.Replace(); err != nil {
		var se *atomicfile.SyncDirError
		if errors.As(err, &se) {
			return true, fmt.Errorf("%s: the approvals store was replaced but the directory could not be synced: %w", dir, unwrapPathErr(se.Err))
		}
		return true, fmt.Errorf("%s: cannot replace the approvals store: %w; it is unchanged", target, unwrapPathErr(err))
	}
	return true, nil
}

// readStoreForUpdate finds the file to replace (path, or a symlink's
// target), its permissions and content. exists is false when there is no
// store yet. Anything but a regular file is refused.
func readStoreForUpdate(path string) (target string, mode fs.FileMode, data []byte, exists bool, err error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, 0o600, nil, false, nil
	}
	if err != nil {
		return "", 0, nil, false, &ApprovalsError{Path: path, Problem: "cannot be examined: " + unwrapPath(err, path), Err: err}
	}
	target = path
	if fi.Mode()&fs.ModeSymlink != 0 {
		resolved, rerr := filepath.EvalSymlinks(path)
		if rerr != nil {
			return "", 0, nil, false, &ApprovalsError{Path: path, Problem: "is a symlink that does not resolve to a file (" + unwrapPath(rerr, path) + ")", Err: rerr}
		}
		if fi, err = os.Stat(resolved); err != nil {
			return "", 0, nil, false, &ApprovalsError{Path: path, Problem: "is a symlink to " + resolved + ", which cannot be examined", Err: err}
		}
		target = resolved
	}
	if !fi.Mode().IsRegular() {
		what := describeMode(fi.Mode())
		if target != path {
			what = "a symlink to " + target + ", " + what
		}
		return "", 0, nil, false, &ApprovalsError{Path: path, Problem: "is " + what + ", not a regular file", Err: ErrNotRegular}
	}
	if fi.Mode().Perm()&0o222 == 0 {
		return "", 0, nil, false, fmt.Errorf("%s: the file is read-only (%s), so agentty cannot save approvals either and mcp-guard leaves it alone; make it writable (chmod u+w %s) to change approvals", target, fi.Mode().Perm(), target)
	}
	data, err = ReadFile(target)
	if err != nil {
		return "", 0, nil, false, &ApprovalsError{Path: path, Problem: "cannot be read: " + unwrapPath(err, target), Err: err}
	}
	return target, fi.Mode().Perm(), data, true, nil
}

// unwrapPathErr drops the path from an *fs.PathError: messages here name
// the file themselves.
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// unwrapPath is unwrapPathErr's text, also trimming a leading "path: ".
func unwrapPath(err error, path string) string {
	return strings.TrimPrefix(unwrapPathErr(err).Error(), path+": ")
}

// maxRewriteDepth is the deepest non-string entry mcp-guard writes back:
// dump(2) indents every level on its own lines, so a deep entry costs
// space quadratic in its depth.
const maxRewriteDepth = 1000

// encodeApprovals lays the entries out exactly as agentty's save does
// (nlohmann::json dump(2)): "[]" when empty, else one entry per line
// indented by two spaces, no trailing newline.
func encodeApprovals(entries []approvalEntry) []byte {
	var b bytes.Buffer
	b.Grow(len(entries)*70 + 4)
	writeDumpContainer(&b, '[', ']', len(entries), 0, func(i int) {
		if entries[i].value == nil {
			writeDumpString(&b, entries[i].str)
		} else {
			writeDumpValue(&b, entries[i].value, 2)
		}
	})
	return b.Bytes()
}

// writeDumpValue writes v as nlohmann's dump(2) would at indentation indent,
// except that numbers keep their source text and object members keep their
// order and duplicates: agentty itself drops non-string entries, so they
// only need to stay valid and unchanged.
func writeDumpValue(b *bytes.Buffer, v *jsonValue, indent int) {
	switch v.Kind {
	case jsonString:
		writeDumpString(b, v.Str)
	case jsonArray:
		writeDumpContainer(b, '[', ']', len(v.Elems), indent, func(i int) {
			writeDumpValue(b, v.Elems[i], indent+2)
		})
	case jsonObject:
		writeDumpContainer(b, '{', '}', len(v.Members), indent, func(i int) {
			writeDumpString(b, v.Members[i].Key)
			b.WriteString(": ")
			writeDumpValue(b, v.Members[i].Value, indent+2)
		})
	case jsonNull:
		b.WriteString("null")
	case jsonBool:
		b.WriteString(strconv.FormatBool(v.Bool))
	default: // numbers
		b.WriteString(v.Str)
	}
}

// writeDumpContainer writes n items between open and close the way dump(2)
// does: empty as "[]" or "{}", else one item per line, indented two spaces
// deeper than the container, which closes at indent.
func writeDumpContainer(b *bytes.Buffer, open, close byte, n, indent int, item func(i int)) {
	b.WriteByte(open)
	if n == 0 {
		b.WriteByte(close)
		return
	}
	b.WriteByte('\n')
	for i := range n {
		b.WriteString(strings.Repeat(" ", indent+2))
		item(i)
		if i < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat(" ", indent))
	b.WriteByte(close)
}

// QuoteJSON is s as a JSON string the way nlohmann's dump (ensure_ascii
// off) and serde_json write it (writeDumpString), for a client whose own
// hash covers JSON text (Codex's hook trust).
func QuoteJSON(s string) string {
	var b bytes.Buffer
	writeDumpString(&b, s)
	return b.String()
}

// writeDumpString quotes s as nlohmann's dump does with ensure_ascii off:
// '"' and '\' escaped, \b \t \n \f \r by name, other bytes below 0x20 as
// \u00xx in lower-case hex, everything else (DEL and UTF-8 included) as is.
// s is valid UTF-8: it comes from the strict decoder or passed
// isLowerHexSHA256.
func writeDumpString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}
