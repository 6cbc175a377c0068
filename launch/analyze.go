package launch

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"path"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// Options tune Analyze.
type Options struct {
	// Root is the absolute path of the repository's work tree on this
	// machine ("" when unknown): an absolute argument below it is a
	// repository path.
	Root string
}

// Limits that keep the analysis of hostile input bounded.
const (
	maxDepth    = 16      // nested programs and scripts: sh -c "npm start" → script → node …
	maxSteps    = 100000  // words and script nodes looked at per server
	maxReadSize = 1 << 20 // the largest script or manifest read
)

// word is one word of a command line as the program receives it.
type word struct {
	text string
	// lit is false when the word holds an expansion whose value cannot be
	// known (a shell variable, a command substitution).
	lit bool
	// source is the part of the entry the word came from.
	source string
}

// context is where and with what a program starts.
type context struct {
	// cwd is the working directory (repository-relative); unknown when a
	// `cd` to a computed place made it unknowable.
	cwd     string
	unknown bool
	env     map[string]string
	depth   int
}

func (c context) with() context {
	env := make(map[string]string, len(c.env))
	for k, v := range c.env {
		env[k] = v
	}
	c.env = env
	return c
}

// analyzer walks one server.
type analyzer struct {
	fs    FS
	opts  Options
	b     scopeBuilder
	steps int
	err   error
	// read remembers scripts already analysed (cycles, repeats); walks
	// counts how often each script was followed (once).
	read  map[string]bool
	walks map[string]int
	// cargoAliases are the [alias] definitions of every cargo
	// configuration read, by name.
	cargoAliases map[string][][]string
}

// maxWalks is how many times one script is followed in one analysis, each
// time with other arguments, from another directory or sourced again
// (what it runs can differ each time); past it the repository is bound.
const maxWalks = 16

// once reports whether the script p is to be followed as kind ("exec":
// started as a program, "sh": read by a shell) in the context key says
// (its arguments, working directory, PATH): false when it was followed so
// already, and false after binding the whole repository once p was
// followed maxWalks times.
func (a *analyzer) once(kind, p, key, source string) bool {
	k := kind + ":" + p + "\x00" + key
	if a.read[k] || !a.walk(kind, p, source) {
		return false
	}
	a.read[k] = true
	return true
}

// walk counts one more walk of the script p as kind: false past
// maxWalks, after binding the whole repository.
func (a *analyzer) walk(kind, p, source string) bool {
	if a.walks == nil {
		a.walks = map[string]int{}
	}
	k := kind + ":" + p
	if a.walks[k] >= maxWalks {
		a.whole(source, "the script "+p+" runs too many times, in too many ways, to follow")
		return false
	}
	a.walks[k]++
	return true
}

// runKey is what a script's analysis depends on besides its text: the
// working directory, PATH (programs found through it) and its arguments
// (the script's positional parameters), as a digest (arguments may be
// long).
func runKey(cx context, args []word) string {
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field(cx.cwd)
	field(strconv.FormatBool(cx.unknown))
	pathVar, has := cx.env["PATH"]
	field(strconv.FormatBool(has))
	field(pathVar)
	for _, w := range args {
		field(strconv.FormatBool(w.lit))
		field(w.text)
	}
	return string(h.Sum(nil))
}

// argSources are the Source names of the first arguments, constant: a
// configuration of 100,000 servers otherwise spelled "args[1]" anew for
// each item of each server.
var argSources = [...]string{"args[0]", "args[1]", "args[2]", "args[3]", "args[4]", "args[5]", "args[6]", "args[7]",
	"args[8]", "args[9]", "args[10]", "args[11]", "args[12]", "args[13]", "args[14]", "args[15]"}

func argSource(i int) string {
	if i < len(argSources) {
		return argSources[i]
	}
	return "args[" + strconv.Itoa(i) + "]"
}

// Analyze returns the code scope of a server launched from launchDir
// (repository-relative, "" for the root). fsys may be nil: the scope then
// holds what the command line alone names, without following scripts,
// manifests or imports. An error is an I/O error of fsys; hostile input
// never makes one.
func Analyze(sp Spawn, launchDir string, fsys FS, opts Options) (*Scope, error) {
	a := &analyzer{fs: fsys, opts: opts, read: map[string]bool{}}
	cx := context{cwd: launchDir, env: map[string]string{}}
	for _, v := range sp.Env {
		cx.env[v.Name] = v.Value
	}
	// The process receives each string up to its first NUL, as execvp
	// passes it.
	cut := func(s string) string { s, _, _ = strings.Cut(s, "\x00"); return s }
	ws := []word{{text: cut(sp.Command), lit: true, source: "command"}}
	for i, v := range sp.Args {
		ws = append(ws, word{text: cut(v), lit: true, source: argSource(i)})
	}
	for _, v := range sp.Env {
		a.envVar(v.Name, v.Value, "env."+v.Name, cx)
	}
	if sp.EnvFile != "" {
		if p, ok := repoPath("", sp.EnvFile); ok && p != "" {
			a.envFile(p, "envFile", "envFile: its variables reach the server's environment", false, &cx)
		}
	}
	a.argv(ws, cx)
	for _, t := range sp.Trees {
		if p, ok := a.resolve(cx, dirWord(t)); ok {
			a.runs(Item{Kind: KindTree, Path: p, Source: "trees", Why: "the client runs code from it: any change under it re-gates this entry"})
		} else {
			a.b.gap("trees", t+" lies outside the repository: what the client runs from it is not followed")
		}
	}
	if sp.Remote != "" {
		a.b.gap("remote", "the client runs code from "+sp.Remote+", outside the repository: mcp-guard binds only where it comes from, not what it holds")
	}
	if a.err != nil {
		return nil, a.err
	}
	return a.b.done(), nil
}

// spend accounts for one unit of work; false once the budget is used up,
// after binding the whole repository in place of what was not looked at.
func (a *analyzer) spend(source string) bool {
	a.steps++
	if a.steps == maxSteps+1 {
		a.whole(source, "the command line is too large to follow")
	}
	return a.steps <= maxSteps
}

// whole binds the entire repository: what runs cannot be narrowed down.
func (a *analyzer) whole(source, why string) {
	a.b.gap(source, why)
	a.b.add(Item{Kind: KindTree, Path: "", Source: source, Why: why + ": any change in the repository re-gates this server"})
}

func (a *analyzer) add(it Item) { a.b.add(it) }

// runs adds an item the server runs or loads as code. A Windows absolute
// path (C:/x) names a repository path on Linux, so it is bound, but it is
// not reported as repository code.
func (a *analyzer) runs(it Item) {
	it.Runs = !windowsAbsolute(it.Path)
	a.b.add(it)
}

func windowsAbsolute(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '/' || p[2] == '\\') && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// fail records an I/O error of the FS (the first one wins).
func (a *analyzer) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

// stat asks the FS, nil FS meaning "unknown" (Missing).
func (a *analyzer) stat(p string) Info {
	if a.fs == nil {
		return Info{Kind: Missing, Path: p}
	}
	info, err := a.fs.Stat(p)
	if err != nil {
		a.fail(err)
		return Info{Kind: Missing, Path: p}
	}
	return info
}

// readFile reads a repository file for analysis; ok false when there is
// none (or no FS). A file too large to read is reported by the caller.
func (a *analyzer) readFile(p string) (data []byte, ok bool, tooLarge bool) {
	if a.fs == nil {
		return nil, false, false
	}
	data, err := a.fs.ReadFile(p, maxReadSize)
	switch {
	case err == nil:
		return data, true, false
	case errors.Is(err, ErrTooLarge):
		return nil, false, true
	case errors.Is(err, ErrNotExist):
		return nil, false, false
	}
	a.fail(err)
	return nil, false, false
}

// The most bytes of a repository's TOML or YAML configuration the
// analysis decodes into a tree (pyproject.toml, .cargo/config.toml,
// rust-toolchain.toml, bunfig.toml, pnpm-workspace.yaml, .yarnrc.yml) is
// trust.MaxRepoYAML, the one bound on what a repository's YAML may make
// mcp-guard build: these decoders build every value (measured: 1 MiB of
// TOML arrays allocates 65 MiB, 1 MiB of YAML 134 MiB). The TOML is not
// counted against trust.ValueBudget as a client's TOML is: every TOML
// value takes at least two bytes ("1,", "[]"), so within the byte bound
// a file holds at most about 131,000 values, fewer than the budget's
// 200,000, and a counting pass would change nothing but admit larger
// files. Real files are a few KiB.

// errTreeTooLarge is decodeTree's error for a file past trust.MaxRepoYAML.
var errTreeTooLarge = errors.New("too large to read")

// decodeTree decodes a configuration file's bytes (a byte order mark
// dropped) with unmarshal (toml.Unmarshal, yaml.Unmarshal) into each of
// vs in turn, within trust.MaxRepoYAML: errTreeTooLarge past it, the decoder's
// error for a file that does not parse. Either way the caller binds what
// the file could name, never a guess from part of it.
func decodeTree(unmarshal func([]byte, any) error, data []byte, vs ...any) error {
	if len(data) > trust.MaxRepoYAML {
		return errTreeTooLarge
	}
	data = stripBOM(data)
	for _, v := range vs {
		if err := unmarshal(data, v); err != nil {
			return err
		}
	}
	return nil
}

// treeProblem is how a reader says why p's tree is not known (decodeTree's
// err), in format's name: "is too large to read" or "cannot be read as
// TOML".
func treeProblem(p, format string, err error) string {
	if errors.Is(err, errTreeTooLarge) {
		return p + " is too large to read as " + format
	}
	return p + " cannot be read as " + format
}

// resolve turns a path word into a repository path relative to the
// context's working directory.
func (a *analyzer) resolve(cx context, v string) (string, bool) {
	if a.opts.Root != "" && strings.HasPrefix(v, a.opts.Root+"/") {
		return repoPath("", strings.TrimPrefix(v, a.opts.Root+"/"))
	}
	if cx.unknown && !strings.HasPrefix(v, "/") {
		return "", false
	}
	return repoPath(cx.cwd, v)
}

// fileWord binds a word that may name a repository file (any argument:
// a script, a config file, a plugin). Words naming nothing there bind the
// path's absence, so a file appearing later re-gates.
func (a *analyzer) fileWord(cx context, w word, why string) {
	if !w.lit {
		return
	}
	for _, v := range []string{w.text, afterEquals(w.text)} {
		if v == "" {
			continue
		}
		if p, ok := a.resolve(cx, v); ok && p != "" && p != cx.cwd {
			a.add(Item{Kind: KindFile, Path: p, Source: w.source, Why: why})
		}
	}
}

func afterEquals(s string) string {
	if i := strings.IndexByte(s, '='); i > 0 && !strings.HasPrefix(s, "=") {
		return s[i+1:]
	}
	return ""
}

// scriptPath is the repository path of the script an interpreter runs; a
// script named at run time, or relative to a directory known only then,
// binds the whole repository instead (ok false).
func (a *analyzer) scriptPath(w word, name string, cx context) (string, bool) {
	if !w.lit {
		a.whole(w.source, name+" runs a script named at run time")
		return "", false
	}
	if a.unknownCwd(cx, w.source) {
		return "", false
	}
	return a.resolve(cx, w.text)
}

// unknownCwd binds the repository when a program runs relative paths from
// a directory that cannot be known.
func (a *analyzer) unknownCwd(cx context, source string) bool {
	if cx.unknown {
		a.whole(source, "it runs from a directory set at run time")
		return true
	}
	return false
}

// dirOf is the directory of a repository path ("" at the root).
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// ProgName is the program a command word names, for matching: the last
// path element, lower-cased (Windows names are case-insensitive), without
// a Windows executable extension.
func ProgName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ToLower(s)
	for _, ext := range []string{".exe", ".cmd", ".bat", ".com"} {
		if strings.HasSuffix(s, ext) && len(s) > len(ext) {
			return s[:len(s)-len(ext)]
		}
	}
	return s
}

func progName(s string) string { return ProgName(s) }

// IsPython matches python, python3, python3.12, pypy3, pythonw and py.
func IsPython(name string) bool {
	for _, p := range []string{"python", "pypy"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return strings.Trim(rest, "0123456789.") == "" || rest == "w"
		}
	}
	return name == "py"
}

func isPython(name string) bool { return IsPython(name) }

// Wrappers are the programs that only run the rest of their arguments,
// each with its options that take a value (skipped with the value). env,
// command and timeout have rules of their own (assignments, -v, the
// duration) and are handled by each caller.
var Wrappers = map[string][]string{
	"sudo": {"-u", "-g", "-C", "-h", "-p", "-r", "-t", "-U", "-D", "-R", "-T", "--user", "--group", "--host", "--prompt",
		"--role", "--type", "--other-user", "--close-from", "--chroot", "--command-timeout", "--chdir"},
	"doas":       {"-u", "-C"},
	"nohup":      nil,
	"builtin":    nil,
	"caffeinate": nil,
	"chronic":    nil,
	"setsid":     nil,
	"exec":       {"-a"},
	"time":       {"-f", "-o", "--format", "--output"},
	"nice":       {"-n", "--adjustment"},
	"ionice":     {"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"},
	"stdbuf":     {"-i", "-o", "-e", "--input", "--output", "--error"},
	"xvfb-run":   {"-n", "-s", "-f", "-e", "-p", "--server-num", "--server-args", "--auth-file", "--error-file", "--xauth-protocol"},
	"timeout":    {"-s", "-k", "--signal", "--kill-after"},
}

// posixShells are the shells whose -c script is parsed as POSIX shell.
var posixShells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true, "mksh": true, "zsh": true,
	"rbash": true, "yash": true, "busybox": false,
}
