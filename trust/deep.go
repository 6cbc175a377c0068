package trust

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Ref is one repository path that a server runs (or loads code from) when
// agentty spawns it from its launch directory. References lists candidates;
// a candidate counts only where the repository actually holds something at
// that path (see Ref.Dir).
type Ref struct {
	// Path is repository-relative, slash-separated and clean; never the
	// launch directory itself, never the repository root, never outside
	// the repository.
	Path string
	// Dir is true when the command runs the path as code even when it is a
	// directory (`go run ./cmd/x`, `python -m pkg`, cargo's `src`).
	// Otherwise only a file, an executable, a symlink or a submodule at
	// Path counts, and a directory there is ignored.
	Dir bool
	// Why names the part of the entry that points at the path: "command",
	// "args[1]", "env.NODE_OPTIONS", "env.PATH", "go run", "python -m", ...
	Why string
}

// Object is what a repository holds at a path: a git mode in octal
// ("100644", "100755", "120000", "160000", "040000") and an object id (a
// blob, gitlink or tree id; for files read from disk the id git would give
// them). The zero Object means nothing that counts is there.
type Object struct {
	Mode string
	ID   string
}

// FileID is one resolved reference: its path and what is there.
type FileID struct {
	Path string
	Object
}

// Files resolves reference paths to what one side of a repository (or one
// directory on disk) holds there. A path that is absent, or holds nothing
// that counts, is missing or maps to the zero Object. Callers resolving the
// references of several servers into one Files count a directory at a
// path when any of them has Dir set there: binding more than a server runs
// is safe, binding less is not.
type Files map[string]Object

// For returns the references of s (launched from launchDir) that f
// resolves, sorted by path.
func (f Files) For(s *Server, launchDir string) []FileID {
	var out []FileID
	for _, r := range References(s, launchDir) {
		if o := f[r.Path]; o.ID != "" {
			out = append(out, FileID{Path: r.Path, Object: o})
		}
	}
	return out
}

// DeepFingerprint is mcp-guard's own identity of a server: lowercase hex
// SHA-256 over the entry's canonical form (every key, JSON types kept, env
// included; see Server.Canonical) and the mode and content id of every
// repository file it runs. Anything mcp-guard can see that changes what
// runs changes it; the server's name is not part of it (a review binds the
// name separately). Every part is length-prefixed, so the encoding is
// injective.
func DeepFingerprint(s *Server, files []FileID) string {
	fs := append([]FileID(nil), files...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
	h := sha256.New()
	writeField(h, "mcp-guard deep fingerprint v1")
	writeField(h, s.Canonical())
	for _, f := range fs {
		writeField(h, f.Path)
		writeField(h, f.Mode)
		writeField(h, f.ID)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func writeField(h hash.Hash, s string) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	h.Write([]byte(s))
}

// LaunchDir is the launch directory of a repository-relative config path:
// "sub" for "sub/.agentty/mcp.json", "" for ".agentty/mcp.json".
func LaunchDir(configPath string) string {
	d := path.Dir(path.Dir(configPath))
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// References lists the repository paths that s runs when agentty launches
// it from launchDir (repository-relative, slash-separated, "" for the
// repository root). The result is sorted by path, one Ref per path (Dir
// when any rule makes the path a directory reference).
//
// The rules, all applied to what the process really receives (strings cut
// at their first NUL, as execvp does):
//
//   - the command, when it contains a slash (`./bin/srv`, `tools/srv`):
//     execvp then runs that path relative to the launch directory;
//   - a bare command, for every element of env.PATH that is empty, "." or
//     relative: execvp looks there first (an empty element is the launch
//     directory itself);
//   - every argument (a non-string one as the text the process receives),
//     and the value of every `--flag=value` or
//     `key=value` argument: this covers interpreter targets (`node x.js`,
//     `python3 x.py`, `bash run.sh`, `deno run x.ts`, `go run main.go`,
//     `java -jar x.jar`) and config files (`--config ./c.toml`) alike;
//   - the words of an inline shell script (`sh -c './run.sh --x'`);
//   - the words of every env value (`NODE_OPTIONS=--require ./hook.js`,
//     `LD_PRELOAD=./x.so`), split at white space and at `:`, `;`, `,` and
//     `=`; the elements of library search paths (PYTHONPATH, NODE_PATH,
//     LD_LIBRARY_PATH, PERL5LIB, RUBYLIB, CLASSPATH, ...) count as
//     directories;
//   - directories only where the command runs them as code: the package of
//     `go run ./cmd/x` (plus go.mod and go.sum of the launch directory and
//     every directory above it), the top-level package of `python -m pkg`
//     (pkg/ and pkg.py), cargo's src/ (plus Cargo.toml, Cargo.lock and
//     build.rs) for `cargo run`;
//   - the manifests a runner reads from the launch directory: package.json
//     and the npm/yarn rc files for npm, npx, yarn, pnpm and bun (plus
//     node_modules/.bin/<name> for npx-style runners), pyproject.toml,
//     uv.toml and uv.lock for uv and uvx, Makefile for make, deno.json for
//     deno, the compose file for docker compose.
//
// Every candidate is resolved against the launch directory and cleaned
// lexically; absolute paths, URLs, `~` paths, the launch directory itself,
// the repository root and anything that climbs out of the repository are
// refused. A candidate only counts where the repository holds a file (or,
// for Ref.Dir, a directory) at that path, which callers check.
//
// Known limits: what an interpreter loads transitively (modules a script
// imports, a directory named by `go run .`), files outside the repository,
// the user's own PATH, and registry content of unpinned packages are not
// covered; the scan rules report those cases.
func References(s *Server, launchDir string) []Ref {
	if s == nil {
		return nil
	}
	c := refCollector{launch: launchDir, seen: map[string]int{}}
	cmd := s.SpawnCommand()
	if strings.Contains(cmd, "/") {
		c.file(cmd, "command")
	} else if cmd != "" {
		for _, ev := range s.Env {
			if ev.Name != "PATH" {
				continue
			}
			for _, dir := range strings.Split(cutNUL(ev.Value), ":") {
				if dir == "" || !path.IsAbs(dir) {
					c.file(path.Join(dir, cmd), "env.PATH")
				}
			}
		}
	}
	args := s.SpawnArgs()
	for i, v := range args {
		why := "args[" + strconv.Itoa(i) + "]"
		c.file(v, why)
		if _, val, ok := strings.Cut(v, "="); ok {
			c.file(val, why)
		}
	}
	for _, ev := range s.Env {
		why := "env." + ev.Name
		v := cutNUL(ev.Value)
		libPath := libraryPathVars[ev.Name]
		for _, w := range strings.FieldsFunc(v, isEnvSeparator) {
			c.file(w, why)
			if libPath {
				c.dir(w, why)
			}
		}
	}
	c.tool(cmd, args)
	sort.Slice(c.refs, func(i, j int) bool { return c.refs[i].Path < c.refs[j].Path })
	return c.refs
}

// libraryPathVars are search paths whose directories hold code that the
// process loads.
var libraryPathVars = map[string]bool{
	"PYTHONPATH": true, "NODE_PATH": true, "LD_LIBRARY_PATH": true, "DYLD_LIBRARY_PATH": true,
	"DYLD_FRAMEWORK_PATH": true, "DYLD_INSERT_LIBRARIES": true, "PERL5LIB": true, "PERLLIB": true,
	"RUBYLIB": true, "CLASSPATH": true, "GEM_PATH": true, "GEM_HOME": true, "GOPATH": true,
	"PYTHONHOME": true, "PYTHONUSERBASE": true,
}

func isEnvSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', ':', ';', ',', '=':
		return true
	}
	return false
}

// refCollector gathers references, refusing what is not a repository path.
type refCollector struct {
	launch string
	refs   []Ref
	seen   map[string]int
}

// resolve turns a candidate into a repository path, or "" when it is not
// one (see References).
func (c *refCollector) resolve(v string) string {
	if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.Contains(v, "://") ||
		strings.HasPrefix(v, "-") || len(v) > 4096 {
		return ""
	}
	p := path.Join(c.launch, v)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || p == c.launch {
		return ""
	}
	return p
}

func (c *refCollector) add(v string, dir bool, why string) {
	c.addPath(c.resolve(v), dir, why)
}

// addPath adds a path that is already repository-relative and clean.
func (c *refCollector) addPath(p string, dir bool, why string) {
	if p == "" || p == "." {
		return
	}
	if i, dup := c.seen[p]; dup {
		// A directory reference also counts a file at the path: keep one.
		c.refs[i].Dir = c.refs[i].Dir || dir
		return
	}
	c.seen[p] = len(c.refs)
	c.refs = append(c.refs, Ref{Path: p, Dir: dir, Why: why})
}

func (c *refCollector) file(v, why string) { c.add(v, false, why) }
func (c *refCollector) dir(v, why string)  { c.add(v, true, why) }

// tool adds what particular runners load beyond their arguments.
func (c *refCollector) tool(cmd string, args []string) {
	name, args := toolName(cmd, args)
	sub := firstOperand(args)
	switch {
	case name == "go":
		if sub != "run" {
			return
		}
		rest := args[indexOf(args, "run")+1:]
		if pkg := firstOperand(rest); pkg != "" && !strings.HasSuffix(pkg, ".go") && !strings.Contains(pkg, "@") {
			c.dir(pkg, "go run")
		}
		// The module root is the nearest directory with a go.mod.
		for d := c.launch; ; d = path.Dir(d) {
			if d == "." {
				d = ""
			}
			c.addPath(path.Join(d, "go.mod"), false, "go run")
			c.addPath(path.Join(d, "go.sum"), false, "go run")
			if d == "" {
				break
			}
		}
	case isPython(name):
		for i, a := range args {
			mod := ""
			switch {
			case a == "-m" && i+1 < len(args):
				mod = args[i+1]
			case strings.HasPrefix(a, "-m") && len(a) > 2:
				mod = a[2:]
			case a == "-c" || a == "--":
				return
			}
			if mod != "" {
				top, _, _ := strings.Cut(mod, ".")
				if top != "" {
					c.dir(top, "python -m")
					c.file(top+".py", "python -m")
				}
				return
			}
			if !strings.HasPrefix(a, "-") {
				// The script; python runs a directory's __main__.py too.
				// The arguments after it are the script's own.
				c.dir(a, "python")
				return
			}
		}
	case name == "cargo":
		if sub != "run" {
			return
		}
		for _, f := range []string{"Cargo.toml", "Cargo.lock", "build.rs"} {
			c.file(f, "cargo run")
		}
		c.dir("src", "cargo run")
	case name == "make" || name == "gmake":
		for _, f := range []string{"GNUmakefile", "makefile", "Makefile"} {
			c.file(f, name)
		}
	case name == "npm" || name == "npx" || name == "yarn" || name == "pnpm" || name == "pnpx" ||
		name == "bun" || name == "bunx":
		for _, f := range []string{"package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml"} {
			c.file(f, name)
		}
		if pkg := packageOperand(name, args); pkg != "" {
			c.file("node_modules/.bin/"+pkg, name)
		}
	case name == "uv" || name == "uvx":
		for _, f := range []string{"pyproject.toml", "uv.toml", "uv.lock"} {
			c.file(f, name)
		}
	case name == "node" || name == "nodejs" || name == "tsx" || name == "ts-node":
		// node runs a directory's index.js or package.json "main".
		if script := firstOperand(args); script != "" {
			c.dir(script, name)
		}
	case name == "deno":
		c.file("deno.json", "deno")
		c.file("deno.jsonc", "deno")
	case name == "docker-compose" || (name == "docker" && sub == "compose"):
		for _, f := range []string{"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"} {
			c.file(f, "docker compose")
		}
	case isShell(name):
		for i, a := range args {
			if isShellCommandFlag(a) && i+1 < len(args) {
				c.shellWords(args[i+1], "args["+strconv.Itoa(i+1)+"] (shell)")
				return
			}
		}
	}
}

// shellWords adds the words of an inline shell script (and the values of
// its key=value words) as file candidates.
func (c *refCollector) shellWords(script, why string) {
	for _, w := range strings.FieldsFunc(script, isShellSeparator) {
		c.file(w, why)
		if _, val, ok := strings.Cut(w, "="); ok {
			c.file(val, why)
		}
	}
}

// HookReferences lists the repository files that the `run` commands of a
// project .agentty/hooks.json name (the words of each command, as for an
// inline shell script), resolved against launchDir as References does.
// agentty approves the hooks file by its hash, which does not cover the
// scripts it runs (spec §6.12). A file that does not parse has none.
func HookReferences(data []byte, launchDir string) []Ref {
	root, _, err := decodeJSON(data)
	if err != nil || root.Kind != jsonObject {
		return nil
	}
	c := refCollector{launch: launchDir, seen: map[string]int{}}
	for _, key := range []string{"pre_tool", "post_tool"} {
		m, ok := root.get(key)
		if !ok || m.Value.Kind != jsonArray {
			continue
		}
		for i, e := range m.Value.Elems {
			if run, ok := e.get("run"); ok && run.Value.Kind == jsonString {
				c.shellWords(cutNUL(run.Value.Str), key+"["+strconv.Itoa(i)+"].run")
			}
		}
	}
	sort.Slice(c.refs, func(i, j int) bool { return c.refs[i].Path < c.refs[j].Path })
	return c.refs
}

// toolName is the runner a command line starts: the command's base name
// without a version suffix, looking through `env VAR=x cmd` and
// `uv run` / `poetry run` / `pipenv run` / `pdm run` / `npm exec` /
// `npx` wrappers only as far as the base name goes.
func toolName(cmd string, args []string) (string, []string) {
	name := path.Base(cmd)
	if name == "env" {
		for i, a := range args {
			if strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
				continue
			}
			return toolName(a, args[i+1:])
		}
		return name, nil
	}
	return name, args
}

func isPython(name string) bool {
	if name == "py" || name == "pypy" || name == "pypy3" {
		return true
	}
	rest, ok := strings.CutPrefix(name, "python")
	return ok && strings.Trim(rest, "0123456789.") == ""
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox":
		return true
	}
	return false
}

// isShellCommandFlag matches -c and combined short flags with c (-lc, -ec).
func isShellCommandFlag(a string) bool {
	return len(a) >= 2 && a[0] == '-' && a[1] != '-' && strings.Contains(a[1:], "c")
}

func isShellSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', ';', '|', '&', '(', ')', '<', '>', '`', '"', '\'', '$', '{', '}':
		return true
	}
	return false
}

// firstOperand is the first argument that is not an option.
func firstOperand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == s {
			return i
		}
	}
	return -1
}

// packageOperand is the package an npx-style runner executes, without its
// version: `npx -y pkg@1` -> "pkg", `pnpm dlx pkg` -> "pkg". Scoped names
// keep their scope's last part as the bin name is unknown; "" when none.
func packageOperand(name string, args []string) string {
	switch name {
	case "npm", "pnpm", "yarn", "bun":
		i := indexOf(args, "exec")
		if i < 0 {
			i = indexOf(args, "dlx")
		}
		if i < 0 {
			i = indexOf(args, "x")
		}
		if i < 0 {
			return ""
		}
		args = args[i+1:]
	}
	pkg := firstOperand(args)
	if strings.HasPrefix(pkg, "@") {
		_, pkg, _ = strings.Cut(pkg, "/")
	}
	pkg, _, _ = strings.Cut(pkg, "@")
	if pkg == "" || strings.ContainsAny(pkg, "/:\\") {
		return ""
	}
	return pkg
}
