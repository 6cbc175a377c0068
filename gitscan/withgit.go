package gitscan

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mcp-guard/mcp-guard/internal/gitobj"
)

// keptGitVars are the GIT_* variables passed through to git: where the
// repository is and the user's own configuration. Everything else that
// could change what git prints or does (GIT_LITERAL_PATHSPECS, GIT_PAGER,
// GIT_EXTERNAL_DIFF, GIT_SSH, GIT_TRACE*, GIT_ASKPASS...) is dropped.
var keptGitVars = map[string]bool{
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_COMMON_DIR": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_QUARANTINE_PATH": true,
	"GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true,
	"GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG_COUNT": true, "GIT_CONFIG_GLOBAL": true,
	"GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_NOSYSTEM": true, "GIT_EXEC_PATH": true,
}

// gitEnv builds git's environment from base: user configuration is
// respected (GIT_CONFIG_NOSYSTEM is not forced), output is made stable
// (LC_ALL=C, no pager) and side effects are switched off:
// GIT_OPTIONAL_LOCKS=0 (no opportunistic index refresh), GIT_TERMINAL_PROMPT=0
// (never ask), GIT_NO_LAZY_FETCH=1 (git 2.44+: a partial clone never fetches
// a missing object; older git is stopped by protocol.allow=never, see
// gitConfigArgs), GIT_NO_REPLACE_OBJECTS=1 and an empty graft file (read the
// objects as they are, like go-git does). set overrides variables by name.
func gitEnv(base []string, set map[string]string) []string {
	var env []string
	for _, kv := range base {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			env = append(env, kv)
			continue
		}
		if strings.HasPrefix(k, "GIT_") && !keptGitVars[k] {
			continue
		}
		if k == "PAGER" || k == "LANG" || k == "LANGUAGE" || strings.HasPrefix(k, "LC_") {
			continue
		}
		if _, over := set[k]; over {
			continue
		}
		env = append(env, kv)
	}
	fixed := map[string]string{
		"LC_ALL":                 "C",
		"GIT_PAGER":              "cat",
		"PAGER":                  "cat",
		"GIT_OPTIONAL_LOCKS":     "0",
		"GIT_TERMINAL_PROMPT":    "0",
		"GIT_NO_LAZY_FETCH":      "1",
		"GIT_NO_REPLACE_OBJECTS": "1",
		"GIT_GRAFT_FILE":         os.DevNull,
		"GIT_ADVICE":             "0",
	}
	for k, v := range set {
		fixed[k] = v
	}
	keys := make([]string, 0, len(fixed))
	for k := range fixed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v := fixed[k]; v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// gitConfigArgs are `-c` options for every git run: no transport may be
// used (a lazy fetch in a partial clone fails instead of reaching the
// network, whatever the user allows elsewhere), and no fsmonitor daemon or
// hook is started.
var gitConfigArgs = []string{
	"-c", "protocol.allow=never",
	"-c", "protocol.file.allow=never", "-c", "protocol.git.allow=never",
	"-c", "protocol.ssh.allow=never", "-c", "protocol.http.allow=never",
	"-c", "protocol.https.allow=never", "-c", "protocol.ext.allow=never",
	"-c", "core.fsmonitor=false",
	"-c", "advice.graftFileDeprecated=false",
}

func getenv(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// gitBackend is EngineWithGit.
type gitBackend struct {
	git    string
	dir    string // work tree root, where git runs
	env    []string
	format objectFormat

	mu sync.Mutex
	// nat reads objects and refs in-process when the repository's format
	// allows; whatever it cannot answer goes to git.
	nat   *native
	batch *catFile // --batch-command (git 2.36+), else --batch
	check *catFile // --batch-check, only when --batch-command is missing
	// cmdMode: 0 untried, 1 --batch-command works, -1 it does not (old git)
	cmdMode int
	// indexFile is the index git reads (GIT_INDEX_FILE honoured).
	indexFile string
}

func openGit(r *Repo, dir string) error {
	gitPath := r.opts.gitPath
	if gitPath == "" {
		p, err := lookPath("git")
		if err != nil {
			return fmt.Errorf("git engine: %w", err)
		}
		gitPath = p
	}
	if loc, rf, ok := discoverForGit(dir, r.opts.env); ok {
		r.top, r.gitDir, r.commonDir, r.indexFile, r.format = loc.top, loc.gitDir, loc.commonDir, loc.indexFile, rf.format
		sh, err := readShallow(r.commonDir, r.format)
		if err != nil {
			return err
		}
		r.shallow = len(sh) > 0
		return newGitBackend(r, gitPath, dir, rf)
	}
	// Discover with the caller's environment, as git itself would from dir.
	env0 := gitEnv(r.opts.env, nil)
	out, stderr, err := runGit(context.Background(), gitPath, dir, env0, nil,
		"rev-parse", "--path-format=absolute", "--is-bare-repository", "--is-inside-work-tree",
		"--git-dir", "--git-common-dir", "--is-shallow-repository", "--show-object-format", "--show-toplevel")
	if err != nil {
		msg := firstLine(stderr)
		switch {
		case strings.Contains(msg, "not a git repository"):
			// git's message names the error itself: keep what follows.
			_, rest, _ := strings.Cut(msg, "not a git repository")
			return fmt.Errorf("%s: %w%s", dir, ErrNotRepository, rest)
		case strings.Contains(msg, "invalid gitfile format"), strings.Contains(msg, "too large to be a .git file"):
			return fmt.Errorf("%s: %w (%s)", dir, ErrNotRepository, msg)
		case strings.Contains(msg, "must be run in a work tree"):
			return fmt.Errorf("%s: bare repository or git directory, not a work tree: %w", dir, ErrNotRepository)
		case strings.Contains(msg, "dubious ownership"):
			return fmt.Errorf("%s: %s: add it to safe.directory if you trust it", dir, msg)
		}
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("%s: git rev-parse: %s", dir, msg)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 7 {
		return fmt.Errorf("%s: git rev-parse: unexpected output %q", dir, out)
	}
	if lines[0] == "true" || lines[1] != "true" {
		return fmt.Errorf("%s: bare repository or git directory, not a work tree: %w", dir, ErrNotRepository)
	}
	r.gitDir, r.commonDir, r.top = lines[2], lines[3], lines[6]
	r.shallow = lines[4] == "true"
	switch lines[5] {
	case "sha1":
		r.format = formatSHA1
	case "sha256":
		r.format = formatSHA256
	default:
		return fmt.Errorf("%s: object format %q: %w", dir, lines[5], ErrUnsupported)
	}
	r.indexFile = filepath.Join(r.gitDir, "index")
	if v, ok := getenv(r.opts.env, "GIT_INDEX_FILE"); ok && v != "" {
		r.indexFile = absUnder(r.top, v)
	}
	rf, err := readRepoFormat(r.commonDir)
	if err != nil {
		rf.unsupportedBy = err.Error()
	}
	return newGitBackend(r, gitPath, dir, rf)
}

// newGitBackend builds the git engine for a located repository (into
// r.be): git's environment pinned to it, and the native reader unless the
// repository's format is one it declares unsupported (git's cat-file
// then, started on first use). Any other failure to open the reader, or a
// reader that disagrees with git about the object format, is an error.
func newGitBackend(r *Repo, gitPath, dir string, rf repoFormat) error {
	set := map[string]string{"GIT_DIR": r.gitDir, "GIT_WORK_TREE": r.top, "GIT_INDEX_FILE": r.indexFile}
	// A relative object directory is relative to where git started: pin it.
	if v, ok := getenv(r.opts.env, "GIT_OBJECT_DIRECTORY"); ok && v != "" {
		set["GIT_OBJECT_DIRECTORY"] = absUnder(dir, v)
	}
	env := gitEnv(r.opts.env, set)
	g := &gitBackend{git: gitPath, dir: r.top, env: env, format: r.format, indexFile: r.indexFile}
	r.be = g
	if r.opts.catFileOnly {
		return nil
	}
	if rf.unsupportedBy == "" && rf.format != r.format {
		return fmt.Errorf("%s: git reads object format %s, the in-process reader %s", r.commonDir, r.format.name, rf.format.name)
	}
	loc := &location{top: r.top, gitDir: r.gitDir, commonDir: r.commonDir, indexFile: r.indexFile}
	nat, err := openNative(loc, rf, env)
	if err != nil && !fallsBackToGit(err) {
		return err
	}
	g.nat = nat
	return nil
}

func absUnder(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// firstLine picks the line of git's stderr that says what went wrong: the
// first "fatal:" or "error:" line, else the first line that is not a hint.
func firstLine(b []byte) string {
	var first string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "hint:") || strings.HasPrefix(l, "warning:") {
			continue
		}
		if strings.HasPrefix(l, "fatal: ") || strings.HasPrefix(l, "error: ") {
			return strings.TrimPrefix(strings.TrimPrefix(l, "fatal: "), "error: ")
		}
		if first == "" {
			first = l
		}
	}
	return first
}

// missingObjectMessage reports whether git's error says an object could
// not be read (a damaged or partial clone).
func missingObjectMessage(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"unable to read", "could not read", "bad object", "missing blob", "missing tree", "missing commit", "not a valid object"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// runGit runs one git command to completion.
func runGit(ctx context.Context, git, dir string, env []string, stdin io.Reader, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, git, append(append([]string(nil), gitConfigArgs...), args...)...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = stdin
	var o bytes.Buffer
	e := &capBuffer{max: 64 << 10}
	cmd.Stdout = &o
	cmd.Stderr = e
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

func (g *gitBackend) run(ctx context.Context, args ...string) ([]byte, error) {
	out, stderr, err := runGit(ctx, g.git, g.dir, g.env, nil, args...)
	if err != nil {
		if msg := firstLine(stderr); msg != "" {
			if missingObjectMessage(msg) {
				return nil, fmt.Errorf("git %s: %s: %w", args[0], msg, ErrMissingObject)
			}
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// capBuffer keeps the first max bytes written to it.
type capBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (c *capBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room > 0 {
		if len(p) > room {
			c.buf.Write(p[:room])
		} else {
			c.buf.Write(p)
		}
	}
	return len(p), nil
}

func (c *capBuffer) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.buf.Bytes()...)
}

// catFile is one long-lived `git cat-file --batch-command`, `--batch` or
// `--batch-check`.
type catFile struct {
	command bool // --batch-command: requests are "info <obj>" / "contents <obj>"
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	stderr  *capBuffer
	err     error // sticky: the process is unusable
}

func (g *gitBackend) startCatFile(mode string) (*catFile, error) {
	cmd := exec.Command(g.git, append(append([]string(nil), gitConfigArgs...), "cat-file", mode)...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &catFile{command: mode == "--batch-command", cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), stderr: &capBuffer{max: 16 << 10}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return c, nil
}

type catHeader struct {
	id, typ   string
	size      int64
	missing   bool
	ambiguous bool
}

// ask sends one request (verb "info" or "contents"; a --batch or
// --batch-check process knows its verb) and parses the header line.
func (c *catFile) ask(verb, name string) (catHeader, error) {
	if c.err != nil {
		return catHeader{}, c.err
	}
	if strings.ContainsAny(name, "\n\x00") {
		return catHeader{}, fmt.Errorf("object name %q: contains a newline or NUL", name)
	}
	req := name + "\n"
	if c.command {
		req = verb + " " + req
	}
	if _, err := io.WriteString(c.in, req); err != nil {
		return catHeader{}, c.fail(err)
	}
	line, err := c.out.ReadString('\n')
	if err != nil {
		return catHeader{}, c.fail(err)
	}
	line = strings.TrimSuffix(line, "\n")
	switch {
	case line == name+" missing":
		return catHeader{missing: true}, nil
	case line == name+" ambiguous":
		return catHeader{ambiguous: true}, nil
	}
	f := strings.Split(line, " ")
	if len(f) != 3 {
		return catHeader{}, c.fail(fmt.Errorf("unexpected reply %q", line))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return catHeader{}, c.fail(fmt.Errorf("unexpected reply %q", line))
	}
	return catHeader{id: f[0], typ: f[1], size: size}, nil
}

// body reads the content that follows a --batch header.
func (c *catFile) body(size int64) ([]byte, error) {
	buf := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return nil, c.fail(err)
	}
	if buf[size] != '\n' {
		return nil, c.fail(errors.New("object not followed by a newline"))
	}
	return buf[:size], nil
}

func (c *catFile) fail(err error) error {
	msg := firstLine(c.stderr.Bytes())
	if msg != "" {
		c.err = fmt.Errorf("git cat-file: %v (%s)", err, msg)
	} else {
		c.err = fmt.Errorf("git cat-file: %w", err)
	}
	return c.err
}

func (c *catFile) close() error {
	c.in.Close()
	return c.cmd.Wait()
}

// cat returns the long-lived cat-file process in *slot, starting it with
// mode on first use.
func (g *gitBackend) cat(slot **catFile, mode string) (*catFile, error) {
	if *slot == nil {
		c, err := g.startCatFile(mode)
		if err != nil {
			return nil, err
		}
		*slot = c
	}
	return *slot, nil
}

// request sends "info" or "contents" for name to the right process: one
// --batch-command process when git has it (2.36+), else --batch-check for
// info and --batch for contents. It does not check for missing objects.
func (g *gitBackend) request(verb, name string) (*catFile, catHeader, error) {
	if g.cmdMode >= 0 {
		c, err := g.cat(&g.batch, "--batch-command")
		if err != nil {
			return nil, catHeader{}, err
		}
		h, err := c.ask(verb, name)
		if err == nil || g.cmdMode == 1 {
			g.cmdMode = 1
			return c, h, err
		}
		// The first request failed: an older git without --batch-command.
		c.close()
		g.batch, g.cmdMode = nil, -1
	}
	slot, mode := &g.batch, "--batch"
	if verb == "info" {
		slot, mode = &g.check, "--batch-check"
	}
	c, err := g.cat(slot, mode)
	if err != nil {
		return nil, catHeader{}, err
	}
	h, err := c.ask(verb, name)
	return c, h, err
}

// askObject requests object id, which must exist.
func (g *gitBackend) askObject(verb, id string) (*catFile, catHeader, error) {
	c, h, err := g.request(verb, id)
	if err == nil && (h.missing || h.ambiguous) {
		err = fmt.Errorf("object %s: %w", id, ErrMissingObject)
	}
	return c, h, err
}

func (g *gitBackend) readObject(id, typ string, limit int64) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.nat != nil {
		data, err := g.nat.readObject(id, typ, limit)
		if !fallsBackToGit(err) {
			return data, err
		}
	}
	if limit >= 0 {
		// Size first, so an oversized blob is never streamed.
		_, h, err := g.askObject("info", id)
		if err != nil {
			return nil, err
		}
		if h.typ != typ {
			return nil, fmt.Errorf("object %s: is a %s, not a %s", id, h.typ, typ)
		}
		if h.size > limit {
			return nil, &gitobj.TooLargeError{ID: id, Size: h.size}
		}
	}
	c, h, err := g.askObject("contents", id)
	if err != nil {
		return nil, err
	}
	data, err := c.body(h.size)
	if err != nil {
		return nil, err
	}
	if h.typ != typ {
		return nil, fmt.Errorf("object %s: is a %s, not a %s", id, h.typ, typ)
	}
	return data, nil
}

func (g *gitBackend) readObjectRaw(raw, typ string, limit int64) ([]byte, error) {
	if g.nat != nil {
		g.mu.Lock()
		data, err := g.nat.readObjectRaw(raw, typ, limit)
		g.mu.Unlock()
		if !fallsBackToGit(err) {
			return data, err
		}
	}
	return g.readObject(hex.EncodeToString([]byte(raw)), typ, limit)
}

func (g *gitBackend) resolve(rev string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.nat != nil {
		if id, err := g.nat.resolve(rev); !fallsBackToGit(err) {
			return id, err
		}
	}
	c, h, err := g.request("contents", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	if h.ambiguous {
		return "", fmt.Errorf("revision %q: ambiguous: %w", rev, ErrUnknownRevision)
	}
	if h.missing {
		return "", fmt.Errorf("revision %q: %w", rev, ErrUnknownRevision)
	}
	if _, err := c.body(h.size); err != nil {
		return "", err
	}
	if h.typ != "commit" || !g.format.validID(h.id) {
		return "", fmt.Errorf("revision %q: %w", rev, ErrUnknownRevision)
	}
	return h.id, nil
}

func (g *gitBackend) headUnborn() (bool, error) {
	if g.nat != nil {
		g.mu.Lock()
		unborn, err := g.nat.headUnborn()
		g.mu.Unlock()
		if !fallsBackToGit(err) {
			return unborn, err
		}
	}
	out, _, err := runGit(context.Background(), g.git, g.dir, g.env, nil, "symbolic-ref", "-q", "HEAD")
	if err != nil {
		return false, nil // detached or broken HEAD: not unborn
	}
	ref := strings.TrimSpace(string(out))
	if _, _, err := runGit(context.Background(), g.git, g.dir, g.env, nil, "rev-parse", "-q", "--verify", ref); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return true, nil
		}
		return false, err
	}
	return false, nil
}

// indexEntries decodes the index in process when objects are read in
// process (versions 2 to 4, the extensions git writes by default); what the
// decoder declares unsupported (a split or sparse index, another version)
// goes to git ls-files. A damaged index is the decoder's error.
func (g *gitBackend) indexEntries() (indexFile, error) {
	if g.nat != nil && g.indexFile != "" {
		if ix, err := readIndexFile(g.indexFile, g.format); !fallsBackToGit(err) {
			return ix, err
		}
	}
	out, err := g.run(context.Background(), "ls-files", "-z", "-s", "-t")
	if err != nil {
		return indexFile{}, err
	}
	var entries []Entry
	var meta []indexMeta
	for _, rec := range splitZ(out) {
		// "<tag> <mode> <id> <stage>\t<path>"
		f, path, mode, err := g.parseRecord("ls-files", rec, 4, 1, 2)
		if err != nil {
			return indexFile{}, err
		}
		stage, err := strconv.Atoi(f[3])
		if err != nil {
			return indexFile{}, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		if stage < 0 || stage > 3 {
			return indexFile{}, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		entries = append(entries, Entry{Path: path, Mode: mode, ID: f[2]})
		meta = append(meta, indexMeta{stage: uint8(stage), skipWorktree: f[0] == "S"})
	}
	// git ls-files says nothing of the cache tree: every directory's id
	// is computed.
	return indexFile{entries: entries, meta: meta}, nil
}

func (g *gitBackend) worktreePaths() ([]string, error) {
	out, err := g.run(context.Background(), "ls-files", "-z", "-c", "-o", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	paths := splitZ(out)
	sort.Strings(paths)
	return dedupSorted(paths), nil
}

// untrackedIn is `git ls-files -o --exclude-standard` for the given
// paths (files, or directories: everything below them).
func (g *gitBackend) untrackedIn(paths []string) ([]string, error) {
	args := append(make([]string, 0, len(paths)+5), "ls-files", "-z", "-o", "--exclude-standard", "--")
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	out, err := g.run(context.Background(), args...)
	if err != nil {
		return nil, err
	}
	return splitZ(out), nil
}

func (g *gitBackend) ignoredSurfacePaths() ([]string, error) {
	args := append([]string{"ls-files", "-z", "-o", "-i", "--exclude-standard", "--"}, ignoredSurfacePathspecs()...)
	out, err := g.run(context.Background(), args...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range splitZ(out) {
		if !strings.HasSuffix(p, "/") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return dedupSorted(paths), nil
}

func (g *gitBackend) listTree(tree string) ([]Entry, error) {
	out, err := g.run(context.Background(), "ls-tree", "-r", "-z", "--full-tree", tree)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	for _, rec := range splitZ(out) {
		// "<mode> <type> <id>\t<path>"
		f, path, mode, err := g.parseRecord("ls-tree", rec, 3, 0, 2)
		if err != nil {
			return nil, err
		}
		entries = append(entries, Entry{Path: path, Mode: mode, ID: f[2]})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return entries, nil
}

func (g *gitBackend) revList(ctx context.Context, to, since string, pathspecs []string) ([]string, error) {
	args := []string{"rev-list", "--full-history", to}
	if since != "" {
		args = append(args, "^"+since)
	}
	args = append(args, "--")
	args = append(args, pathspecs...)
	out, err := g.run(ctx, args...)
	if err != nil {
		return nil, err
	}
	ids, err := g.parseIDs("rev-list", out)
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// hooksDir is git's own hooks directory and core.hooksPath.
func (g *gitBackend) hooksDir() (dir, hooksPath string, err error) {
	out, err := g.run(context.Background(), "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return "", "", err
	}
	if v, err := g.run(context.Background(), "config", "--get", "core.hooksPath"); err == nil {
		hooksPath = strings.TrimRight(string(v), "\n")
	}
	return filepath.Clean(strings.TrimRight(string(out), "\n")), hooksPath, nil
}

func (g *gitBackend) objects() objectStore {
	if g.nat == nil {
		return nil // a nil *native must not become a non-nil interface
	}
	return g.nat.objects
}

func (g *gitBackend) close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var errs []error
	for _, c := range []*catFile{g.batch, g.check} {
		if c != nil {
			if err := c.close(); err != nil && c.err == nil {
				errs = append(errs, err)
			}
		}
	}
	g.batch, g.check = nil, nil
	if g.nat != nil {
		errs = append(errs, g.nat.close())
		g.nat = nil
	}
	return errors.Join(errs...)
}

// parseRecord splits an ls-files/ls-tree record "<fields>\t<path>" and
// checks its mode (field modeAt) and object id (field idAt).
func (g *gitBackend) parseRecord(cmd, rec string, n, modeAt, idAt int) ([]string, string, Mode, error) {
	meta, path, ok := strings.Cut(rec, "\t")
	f := strings.Split(meta, " ")
	if !ok || len(f) != n || validPath(path) != nil || path == "" {
		return nil, "", 0, fmt.Errorf("git %s: unexpected record %q", cmd, rec)
	}
	m, err := strconv.ParseUint(f[modeAt], 8, 32)
	mode, okm := modeFromGit(uint32(m))
	if err != nil || !okm || !g.format.validID(f[idAt]) {
		return nil, "", 0, fmt.Errorf("git %s: unexpected record %q", cmd, rec)
	}
	return f, path, mode, nil
}

// parseIDs parses one object id per line.
func (g *gitBackend) parseIDs(cmd string, out []byte) ([]string, error) {
	var ids []string
	for _, l := range strings.Fields(string(out)) {
		if !g.format.validID(l) {
			return nil, fmt.Errorf("git %s: unexpected line %q", cmd, l)
		}
		ids = append(ids, l)
	}
	return ids, nil
}

func splitZ(b []byte) []string {
	s := string(b)
	s = strings.TrimSuffix(s, "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

func dedupSorted(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
