package launch

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
)

// JSGraph is what a JavaScript entry point can load from the repository.
type JSGraph struct {
	// Files are the repository paths of every module file reachable, entry
	// included, and of every package.json or tsconfig.json read to decide a
	// resolution; sorted. Symlinks appear as the paths they lead to.
	Files []string
	// Dirs are package directories (e.g. node_modules/foo) bound as a
	// whole instead of walked; sorted.
	Dirs []string
	// Probes are paths whose absence decided a resolution (lib.js probed
	// before lib/index.js; node_modules/x at each ancestor); if one
	// appears, resolution changes. Sorted.
	Probes []string
	// Open says why the graph is not closed, one sentence each; empty
	// when closed.
	Open []string
	// Runs are the programs modules of the graph start through
	// child_process with literal arguments: what they run belongs to the
	// scope too (the caller follows them).
	Runs []JSRun
}

// JSRunner is the program that runs the entry point.
type JSRunner int

const (
	// RunNode is node: CommonJS and ESM resolution as node documents it.
	RunNode JSRunner = iota
	// RunTS is tsx or ts-node: node's resolution plus the TypeScript
	// extensions. Their probing order differs between runners and
	// versions, so every present candidate counts as loaded.
	RunTS
	// RunTool is RunTS for a package manager's own code (a yarn release,
	// the Plug'n'Play runtime): what it starts through child_process or
	// vm is what its configuration and the package scripts name, which
	// the model follows and binds, so those builtins do not open the
	// graph (the file itself is bound: a change to it re-gates).
	RunTool
)

// Bounds on one graph.
const (
	jsMaxFiles    = 5000
	jsMaxBytes    = 64 << 20
	jsMaxFileSize = 16 << 20
	jsMaxStats    = 200000
	jsMaxOpen     = 100
)

var (
	nodeExts = []string{".js", ".json", ".node"}
	// TS runners also probe these; listed after node's own.
	tsExts = []string{".ts", ".tsx", ".mts", ".cts", ".jsx", ".mjs", ".cjs"}
)

// ResolveJS returns what `node entry` can load. entry is a repository path;
// like node, it may name a file without its extension or a directory.
// The error reports an FS failure other than ErrNotExist and ErrTooLarge.
func ResolveJS(fsys FS, entry string) (JSGraph, error) {
	return ResolveJSFor(fsys, entry, RunNode)
}

// ResolveJSFor is ResolveJS for the given runner.
func ResolveJSFor(fsys FS, entry string, runner JSRunner) (JSGraph, error) {
	return resolveJS(fsys, entry, runner, nil)
}

// resolveJS is ResolveJSFor with the directories whose tsconfig.json the
// runner may take besides the entry's (tsx's: the working directory).
func resolveJS(fsys FS, entry string, runner JSRunner, tsDirs []string) (JSGraph, error) {
	r := &jsResolver{
		tsDirs: tsDirs,
		fs:     fsys,
		ts:     runner == RunTS || runner == RunTool,
		tool:   runner == RunTool,
		files:  map[string]bool{},
		walked: map[string]bool{},
		dirs:   map[string]bool{},
		bound:  map[string]bool{},
		probes: map[string]bool{},
		opened: map[string]bool{},
		pkgs:   map[string]*pkgJSON{},
	}
	r.run(entry)
	return r.graph(), r.err
}

type jsResolver struct {
	fs     FS
	ts     bool
	tool   bool // RunTool: code-running builtins do not open the graph
	files  map[string]bool
	walked map[string]bool
	dirs   map[string]bool
	bound  map[string]bool // dirs, and the paths that led to them
	probes map[string]bool
	open   []string
	opened map[string]bool
	nOpen  int
	queue  []string
	pkgQ   []string // bound package directories whose dependencies are next
	read   int64
	stats  int
	stop   bool // a bound was reached or the FS failed
	err    error
	pkgs   map[string]*pkgJSON // by directory; nil when absent
	runs   []JSRun
	tsMaps []tsMap // tsconfig mappings (TypeScript runners)
	tsDirs []string
	tsSeen map[string]bool
}

// pkgJSON holds the package.json fields resolution reads.
type pkgJSON struct {
	Name    string
	Main    string
	Exports any
	Imports any
	hasExp  bool
	Deps    []string // dependencies, optionalDependencies, peerDependencies
}

func (r *jsResolver) addOpen(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if r.opened[s] {
		return
	}
	r.opened[s] = true
	r.nOpen++
	if len(r.open) < jsMaxOpen {
		r.open = append(r.open, s)
	}
}

func (r *jsResolver) graph() JSGraph {
	var g JSGraph
	under := func(p string) bool {
		for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
			if r.bound[d] {
				return true
			}
		}
		return false
	}
	for p := range r.files {
		if !under(p) {
			g.Files = append(g.Files, p)
		}
	}
	for p := range r.probes {
		if !under(p) && !r.files[p] {
			g.Probes = append(g.Probes, p)
		}
	}
	for d := range r.dirs {
		if !under(d) {
			g.Dirs = append(g.Dirs, d)
		}
	}
	sort.Strings(g.Files)
	sort.Strings(g.Dirs)
	sort.Strings(g.Probes)
	g.Open = r.open
	g.Runs = r.runs
	if n := r.nOpen - len(r.open); n > 0 {
		g.Open = append(g.Open, fmt.Sprintf("and %d more reasons", n))
	}
	return g
}

func (r *jsResolver) run(entry string) {
	entry = path.Clean(entry)
	if entry == "." {
		entry = ""
	}
	if entry == ".." || strings.HasPrefix(entry, "../") || strings.HasPrefix(entry, "/") {
		r.addOpen("%s: the entry point is outside the repository", entry)
		return
	}
	if r.ts {
		for _, d := range append([]string{parentDir(entry)}, r.tsDirs...) {
			r.tsconfig(d)
		}
	}
	found := r.loadAsFile(entry, false)
	if found == absent {
		found = r.loadAsDir(entry)
	}
	if found == absent && !r.stop {
		r.addOpen("%s: the entry point is not a file node can load", entry)
	}
	for (len(r.queue) > 0 || len(r.pkgQ) > 0) && !r.stop {
		if len(r.queue) > 0 {
			p := r.queue[0]
			r.queue = r.queue[1:]
			r.walk(p)
			continue
		}
		d := r.pkgQ[0]
		r.pkgQ = r.pkgQ[1:]
		r.packageDeps(d)
	}
}

// tsMap is what one tsconfig.json (with its extends chain) makes a
// TypeScript runner map bare specifiers to.
type tsMap struct {
	paths    map[string][]string
	pathsDir string // the directory of the config that set paths
	baseURL  string
	hasBase  bool
}

// tsconfig reads every tsconfig.json from dir up to the root (the runners
// differ on which one they take: each one's mapping counts) and its
// extends chain; its files are bound, its compilerOptions paths and
// baseUrl followed where bare specifiers resolve.
func (r *jsResolver) tsconfig(dir string) {
	if r.tsSeen == nil {
		r.tsSeen = map[string]bool{}
	}
	for d := dir; !r.tsSeen[d]; d = parentDir(d) {
		r.tsSeen[d] = true
		p := path.Join(d, "tsconfig.json")
		switch r.stat(p).Kind {
		case Missing:
			r.probes[p] = true
		case File, Exec:
			if m, ok := r.readTSConfig(p, 0); ok && (m.paths != nil || m.hasBase) {
				r.tsMaps = append(r.tsMaps, m)
			}
		}
		if d == "" || r.stop {
			return
		}
	}
}

// readTSConfig reads one configuration and what it extends, parents first
// (a child's setting wins); ok false when it opened the graph.
func (r *jsResolver) readTSConfig(p string, depth int) (m tsMap, ok bool) {
	if depth > 16 {
		r.addOpen("%s: extends nests too deeply", p)
		return m, false
	}
	r.files[p] = true
	b, read := r.readFile(p)
	if !read {
		return m, false
	}
	var cfg struct {
		Extends         any `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if json.Unmarshal(stripJSONC(stripBOM(b)), &cfg) != nil {
		r.addOpen("%s: cannot be read as JSON with comments; it may map specifiers", p)
		return m, false
	}
	var ext []string
	switch t := cfg.Extends.(type) {
	case string:
		ext = []string{t}
	case []any:
		for _, e := range t {
			s, isStr := e.(string)
			if !isStr {
				r.addOpen("%s: an extends entry that is not a string", p)
				return m, false
			}
			ext = append(ext, s)
		}
	}
	dir := parentDir(p)
	for _, e := range ext {
		var q string
		if strings.HasPrefix(e, ".") {
			var inside bool
			if q, inside = joinInside(dir, e); !inside {
				r.addOpen("%s: extends a configuration outside the repository", p)
				return m, false
			}
			if !strings.HasSuffix(q, ".json") && r.stat(q).Kind == Missing {
				r.probes[q] = true
				q += ".json"
			}
		} else if q = r.tsconfigPackage(p, dir, e); q == "" {
			if r.stop || len(r.open) > 0 {
				return m, false
			}
			continue
		}
		if k := r.stat(q).Kind; k != File && k != Exec {
			r.probes[q] = true
			continue
		}
		parent, ok := r.readTSConfig(q, depth+1)
		if !ok {
			return m, false
		}
		if parent.paths != nil {
			m.paths, m.pathsDir = parent.paths, parent.pathsDir
		}
		if parent.hasBase {
			m.baseURL, m.hasBase = parent.baseURL, true
		}
	}
	if b := cfg.CompilerOptions.BaseURL; b != nil {
		base, inside := joinInside(dir, *b)
		if !inside {
			r.addOpen("%s: baseUrl leads outside the repository", p)
			return m, false
		}
		m.baseURL, m.hasBase = base, true
	}
	if cfg.CompilerOptions.Paths != nil {
		m.paths, m.pathsDir = cfg.CompilerOptions.Paths, dir
	}
	return m, true
}

// tsconfigPackage finds the configuration a tsconfig extends from a
// package (@tsconfig/node20/tsconfig.json, or a package whose
// tsconfig.json is meant) in node_modules here or above; "" when none is
// there (each place looked at is a probe) or it cannot be read (open).
func (r *jsResolver) tsconfigPackage(p, dir, spec string) string {
	name, _ := splitBare(spec)
	if name == "" || strings.Contains(spec, "..") {
		r.addOpen("%s: extends %q, which is not a package name", p, spec)
		return ""
	}
	for d := dir; ; d = parentDir(d) {
		base := path.Join(d, "node_modules", spec)
		for _, c := range []string{base, base + ".json", path.Join(base, "tsconfig.json")} {
			switch info := r.stat(c); info.Kind {
			case File, Exec:
				return info.Path
			case Missing:
				r.probes[c] = true
			case Outside, Other:
				r.addOpen("%s: extends %q, which leads outside the repository", p, spec)
				return ""
			}
		}
		if d == "" || r.stop {
			return ""
		}
	}
}

// tsMapped resolves a bare specifier through the tsconfig mappings, as
// tsx and ts-node do before node's own resolution: every pattern that
// matches (the runners pick one; all count) and baseUrl. It reports
// whether a mapped file was found.
func (r *jsResolver) tsMapped(where, spec string) bool {
	hit := false
	try := func(x string) {
		res := r.loadAsFile(x, false)
		if res == absent {
			res = r.loadAsDir(x)
		}
		hit = hit || res == found
	}
	for _, m := range r.tsMaps {
		base := m.pathsDir
		if m.hasBase {
			base = m.baseURL
		}
		for pat, targets := range m.paths {
			star := strings.IndexByte(pat, '*')
			repl := ""
			switch {
			case star < 0 && pat == spec:
			case star >= 0 && strings.Count(pat, "*") == 1 && len(spec) >= len(pat)-1 &&
				strings.HasPrefix(spec, pat[:star]) && strings.HasSuffix(spec, pat[star+1:]):
				repl = spec[star : len(spec)-(len(pat)-star-1)]
			default:
				continue
			}
			for _, t := range targets {
				x, inside := joinInside(base, strings.ReplaceAll(t, "*", repl))
				if !inside {
					r.addOpen("%s: %q maps outside the repository (tsconfig paths)", where, spec)
					continue
				}
				try(x)
			}
		}
		if m.hasBase {
			if x, inside := joinInside(m.baseURL, spec); inside {
				try(x)
			}
		}
	}
	return hit
}

func parentDir(d string) string {
	p := path.Dir(d)
	if p == "." || p == "/" {
		return ""
	}
	return p
}

func (r *jsResolver) stat(p string) Info {
	if r.stop {
		return Info{Kind: Other}
	}
	r.stats++
	if r.stats > jsMaxStats {
		r.exhausted("too many paths looked up")
		return Info{Kind: Other}
	}
	info, err := r.fs.Stat(p)
	if err != nil {
		if errors.Is(err, ErrNotExist) {
			return Info{Kind: Missing}
		}
		r.err = fmt.Errorf("stat %s: %w", p, err)
		r.stop = true
		return Info{Kind: Other}
	}
	if info.Path == "" && info.Kind != Outside {
		info.Path = p
	}
	return info
}

func (r *jsResolver) exhausted(why string) {
	if !r.stop {
		r.stop = true
		r.addOpen("the graph was cut short: %s", why)
	}
}

// readFile reads p within the graph's byte budget.
func (r *jsResolver) readFile(p string) ([]byte, bool) {
	if r.stop {
		return nil, false
	}
	limit := int64(jsMaxFileSize)
	if left := int64(jsMaxBytes) - r.read; left < limit {
		limit = left
	}
	b, err := r.fs.ReadFile(p, limit)
	switch {
	case err == nil:
		r.read += int64(len(b))
		return b, true
	case errors.Is(err, ErrTooLarge):
		if limit < jsMaxFileSize {
			r.exhausted("more than 64 MiB read")
		} else {
			r.addOpen("%s: too large to read (over 16 MiB)", p)
		}
	case errors.Is(err, ErrNotExist):
		r.addOpen("%s: cannot be read", p)
	default:
		r.err = fmt.Errorf("read %s: %w", p, err)
		r.stop = true
	}
	return nil, false
}

type result int

const (
	absent  result = iota // nothing there; keep looking
	found                 // resolved
	stopped               // cannot be known from the repository
)

// candidate looks at one path node would try as a module file.
func (r *jsResolver) candidate(p string) result {
	info := r.stat(p)
	switch info.Kind {
	case File, Exec:
		r.addFile(info.Path)
		return found
	case Missing:
		r.probes[p] = true
	case Outside:
		r.addOpen("%s: a symlink leads outside the repository", p)
		return stopped
	case Other:
		if !r.stop {
			r.addOpen("%s: not a readable file (a submodule?)", p)
		}
		return stopped
	}
	return absent
}

// addFile records a module file and queues it to be read.
func (r *jsResolver) addFile(p string) {
	if r.files[p] {
		return
	}
	if len(r.files) >= jsMaxFiles {
		r.exhausted("more than 5000 files")
		return
	}
	r.files[p] = true
	switch path.Ext(p) {
	case ".json":
		// data: loaded, but it loads nothing
	case ".node":
		r.addOpen("%s: a native addon can load anything", p)
	default:
		r.queue = append(r.queue, p)
	}
}

// loadAsFile is node's LOAD_AS_FILE: X, then X with each extension.
// With the TS runner every present candidate counts.
func (r *jsResolver) loadAsFile(x string, exactOnly bool) result {
	res := r.candidate(x)
	if res == stopped || res == found && !r.ts || exactOnly {
		return res
	}
	if r.ts {
		// tsx and ts-node map an import of x.js to x.ts and the like.
		for _, m := range tsMapped {
			if strings.HasSuffix(x, m[0]) {
				for _, e := range m[1:] {
					switch r.candidate(strings.TrimSuffix(x, m[0]) + e) {
					case found:
						res = found
					case stopped:
						return stopped
					}
				}
			}
		}
	}
	switch r.tryExts(x) {
	case found:
		return found
	case stopped:
		return stopped
	}
	return res
}

var tsMapped = [][]string{{".js", ".ts", ".tsx"}, {".jsx", ".tsx"}, {".mjs", ".mts"}, {".cjs", ".cts"}}

// tryExts tries x with each extension the runner probes.
func (r *jsResolver) tryExts(x string) result {
	res := absent
	for _, exts := range [][]string{nodeExts, tsExts} {
		for _, e := range exts {
			switch r.candidate(x + e) {
			case found:
				if !r.ts {
					return found
				}
				res = found
			case stopped:
				return stopped
			}
		}
		if !r.ts {
			break
		}
	}
	return res
}

// loadIndex is node's LOAD_INDEX.
func (r *jsResolver) loadIndex(x string) result {
	return r.tryExts(path.Join(x, "index"))
}

// loadAsDir is node's LOAD_AS_DIRECTORY: package.json "main", then index.
func (r *jsResolver) loadAsDir(x string) result {
	pj := r.pkgJSON(x)
	if pj != nil && pj.Main != "" {
		m, ok := joinInside(x, pj.Main)
		if !ok {
			r.addOpen("%s/package.json: \"main\" leads outside the repository", x)
			return stopped
		}
		if res := r.loadAsFile(m, false); res != absent {
			return res
		}
		if res := r.loadIndex(m); res != absent {
			return res
		}
	}
	return r.loadIndex(x)
}

// pkgJSON reads dir/package.json, recording it as read or probed.
func (r *jsResolver) pkgJSON(dir string) *pkgJSON {
	if pj, ok := r.pkgs[dir]; ok {
		return pj
	}
	p := path.Join(dir, "package.json")
	var pj *pkgJSON
	info := r.stat(p)
	switch info.Kind {
	case Missing:
		r.probes[p] = true
	case File, Exec:
		r.files[info.Path] = true
		if b, ok := r.readFile(info.Path); ok {
			var raw map[string]json.RawMessage
			pj = &pkgJSON{}
			if json.Unmarshal(stripBOM(b), &raw) == nil {
				json.Unmarshal(raw["name"], &pj.Name)
				json.Unmarshal(raw["main"], &pj.Main)
				if e, ok := raw["exports"]; ok && string(e) != "null" {
					pj.hasExp = json.Unmarshal(e, &pj.Exports) == nil
				}
				json.Unmarshal(raw["imports"], &pj.Imports)
				for _, f := range []string{"dependencies", "optionalDependencies", "peerDependencies"} {
					var deps map[string]any
					json.Unmarshal(raw[f], &deps)
					for d := range deps {
						pj.Deps = append(pj.Deps, d)
					}
				}
				sort.Strings(pj.Deps)
			}
		}
	case Outside:
		r.addOpen("%s: a symlink leads outside the repository", p)
	}
	r.pkgs[dir] = pj
	return pj
}

// joinInside joins a relative path to dir; false when it leaves the
// repository.
func joinInside(dir, rel string) (string, bool) {
	if strings.HasPrefix(rel, "/") {
		return "", false
	}
	p := path.Join(dir, rel)
	if p == "." {
		p = ""
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// walk reads one module file and resolves what it loads.
func (r *jsResolver) walk(p string) {
	if r.walked[p] {
		return
	}
	r.walked[p] = true
	src, ok := r.readFile(p)
	if !ok {
		return
	}
	dir := parentDir(p)
	for _, ref := range scanJS(src) {
		if r.stop {
			return
		}
		if ref.Run != nil {
			r.runs = append(r.runs, JSRun{Where: fmt.Sprintf("%s:%d", p, ref.Line), Shell: ref.Run.Shell, Argv: ref.Run.Argv, Fork: ref.Run.Fork})
			continue
		}
		if ref.Open != "" {
			if ref.Builtin && r.tool {
				continue
			}
			r.addOpen("%s:%d: %s", p, ref.Line, ref.Open)
			continue
		}
		r.resolve(fmt.Sprintf("%s:%d", p, ref.Line), dir, ref.Spec)
	}
}

// resolve finds what one specifier loads from a file in dir; where names
// the file and line for Open.
func (r *jsResolver) resolve(where, dir, spec string) {
	switch {
	case spec == "":
		return // node throws
	case isBuiltin(spec):
		return
	case hasScheme(spec):
		r.addOpen("%s: %q is a URL; what it loads is not in the repository's view", where, spec)
		return
	case strings.HasPrefix(spec, "/"):
		r.addOpen("%s: %q is an absolute path", where, spec)
		return
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		if strings.ContainsAny(spec, "?#%") {
			r.addOpen("%s: %q: an ESM importer reads it as a URL (query, fragment or escapes)", where, spec)
		}
		x, ok := joinInside(dir, spec)
		if !ok {
			r.addOpen("%s: %q resolves outside the repository", where, spec)
			return
		}
		// A trailing slash (or . and ..) names a directory only.
		dirOnly := spec == "." || spec == ".." || strings.HasSuffix(spec, "/") ||
			strings.HasSuffix(spec, "/.") || strings.HasSuffix(spec, "/..")
		res := absent
		if !dirOnly {
			res = r.loadAsFile(x, false)
		}
		if res == absent {
			r.loadAsDir(x)
		}
	case strings.HasPrefix(spec, "#"):
		r.imports(where, dir, spec)
	default:
		r.bare(where, dir, spec)
	}
}

// hasScheme reports whether spec starts with a URL scheme (file:, data:,
// https:); node: is a builtin and handled before.
func hasScheme(spec string) bool {
	i := strings.IndexByte(spec, ':')
	if i < 1 {
		return false
	}
	for j, c := range spec[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// nearestPkg finds the package.json that scopes dir, as node does for
// "imports" and self-reference; "" and nil when there is none.
func (r *jsResolver) nearestPkg(dir string) (string, *pkgJSON) {
	for d := dir; ; d = parentDir(d) {
		if pj := r.pkgJSON(d); pj != nil {
			return d, pj
		}
		if d == "" || r.stop {
			return "", nil
		}
	}
}

// imports resolves a '#x' specifier through the package's "imports".
func (r *jsResolver) imports(where, dir, spec string) {
	pdir, pj := r.nearestPkg(dir)
	if pj == nil || pj.Imports == nil {
		return // node throws; the probes say what would change that
	}
	m, ok := pj.Imports.(map[string]any)
	if !ok {
		r.addOpen("%s: %q: \"imports\" in %s/package.json is not an object", where, spec, pdir)
		return
	}
	targets, ok := matchSubpath(m, spec)
	if !ok {
		return // not mapped: node throws
	}
	r.targets(where, pdir, spec, targets, true)
}

// targets resolves the strings a package.json map gave for spec: "./x"
// inside the package as an exact file, bare ones (imports only) as
// packages.
func (r *jsResolver) targets(where, pdir, spec string, targets []string, bareOK bool) {
	for _, t := range targets {
		switch {
		case strings.HasPrefix(t, "./"):
			x, ok := joinInside(pdir, t)
			if !ok || pdir != "" && !strings.HasPrefix(x, pdir+"/") {
				r.addOpen("%s: %q maps outside its package", where, spec)
				continue
			}
			r.loadAsFile(x, true)
		case bareOK && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "../") && !strings.HasPrefix(t, "#") && !hasScheme(t) || isBuiltin(t):
			r.resolve(where, pdir, t)
		default:
			r.addOpen("%s: %q maps to %q, which the graph cannot follow", where, spec, t)
		}
	}
}

// matchSubpath finds spec's entry in an "exports" or "imports" map, with
// node's "*" patterns (the longest matching prefix wins), and returns
// every string target under it: conditions are all taken, since which
// apply depends on how the file is loaded.
func matchSubpath(m map[string]any, spec string) ([]string, bool) {
	if v, ok := m[spec]; ok && !strings.Contains(spec, "*") {
		return leaves(v, ""), true
	}
	best, bestKey, repl := -1, "", ""
	for k := range m {
		i := strings.IndexByte(k, '*')
		if i < 0 || strings.Count(k, "*") != 1 {
			continue
		}
		pre, suf := k[:i], k[i+1:]
		if len(spec) >= len(pre)+len(suf) && strings.HasPrefix(spec, pre) && strings.HasSuffix(spec, suf) && len(spec) > len(pre) {
			if len(pre) > best || len(pre) == best && k > bestKey {
				best, bestKey, repl = len(pre), k, spec[len(pre):len(spec)-len(suf)]
			}
		}
	}
	if best < 0 {
		return nil, false
	}
	return leaves(m[bestKey], repl), true
}

// leaves lists the strings in a target (string, array, or conditions),
// with "*" replaced by repl.
func leaves(v any, repl string) []string {
	var out []string
	eachString(v, "", func(_, s string) { out = append(out, strings.ReplaceAll(s, "*", repl)) })
	return out
}

// eachString calls fn with every string in a decoded JSON or TOML value,
// in a stable order, with the key of the object member it sits under
// (arrays keep their member's key), to a bounded depth.
func eachString(v any, key string, fn func(key, s string)) {
	var rec func(v any, key string, depth int)
	rec = func(v any, key string, depth int) {
		if depth > 32 {
			return
		}
		switch t := v.(type) {
		case string:
			fn(key, t)
		case []any:
			for _, e := range t {
				rec(e, key, depth+1)
			}
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				rec(t[k], k, depth+1)
			}
		}
	}
	rec(v, key, 0)
}

// exportsMap normalises "exports" to a subpath map.
func exportsMap(e any) map[string]any {
	if m, ok := e.(map[string]any); ok {
		for k := range m {
			if strings.HasPrefix(k, ".") {
				return m
			}
		}
	}
	return map[string]any{".": e}
}

// splitBare splits 'pkg/sub' or '@scope/pkg/sub' into the package name
// and the subpath ("" for the package itself).
func splitBare(spec string) (name, sub string) {
	i := strings.IndexByte(spec, '/')
	if strings.HasPrefix(spec, "@") && i >= 0 {
		j := strings.IndexByte(spec[i+1:], '/')
		if j < 0 {
			return spec, ""
		}
		i += 1 + j
	}
	if i < 0 {
		return spec, ""
	}
	return spec[:i], spec[i+1:]
}

// bare resolves a package specifier: self-reference, then node_modules in
// dir and each ancestor.
func (r *jsResolver) bare(where, dir, spec string) {
	name, sub := splitBare(spec)
	if name == "" || name == "." || name == ".." || strings.Contains(name, "\\") {
		r.addOpen("%s: %q is not a valid package name", where, spec)
		return
	}
	mapped := r.ts && r.tsMapped(where, spec)
	if pdir, pj := r.nearestPkg(dir); pj != nil && pj.Name == name && pj.hasExp {
		r.exports(where, pdir, pj, spec, sub)
		return
	}
	for d := dir; !r.stop; d = parentDir(d) {
		if path.Base(d) != "node_modules" {
			if r.inNodeModules(where, path.Join(d, "node_modules", name), spec, sub) {
				return
			}
		}
		if d == "" {
			break
		}
	}
	if !r.stop && !mapped {
		r.addOpen("%s: %q is not in the repository; node would look in NODE_PATH and global folders", where, spec)
	}
}

// exports resolves spec through a package's "exports".
func (r *jsResolver) exports(where, pdir string, pj *pkgJSON, spec, sub string) {
	key := "."
	if sub != "" {
		key = "./" + sub
	}
	targets, ok := matchSubpath(exportsMap(pj.Exports), key)
	if !ok {
		return // not exported: node throws
	}
	r.targets(where, pdir, spec, targets, false)
}

// inNodeModules tries one node_modules/<name> candidate; true when the
// search ends there.
func (r *jsResolver) inNodeModules(where, pkg, spec, sub string) bool {
	info := r.stat(pkg)
	switch info.Kind {
	case Outside:
		r.addOpen("%s: %s is a symlink leading outside the repository", where, pkg)
		return true
	case Other:
		if !r.stop {
			r.addOpen("%s: %s is not readable (a submodule?)", where, pkg)
		}
		return true
	case Missing:
		r.probes[pkg] = true
	}
	if info.Kind == Dir {
		// A package with "exports" is resolved inside it and nowhere else.
		if pj := r.pkgJSON(pkg); pj != nil && pj.hasExp {
			r.bind(pkg, info.Path)
			return true
		}
	}
	var res result
	siblingFound := false
	if sub == "" {
		res = r.loadAsFile(pkg, false)
		siblingFound = res != absent
		if res == absent && info.Kind == Dir {
			res = r.loadAsDir(pkg)
		}
	} else if info.Kind == Dir {
		x, ok := joinInside(pkg, sub)
		if !ok || !strings.HasPrefix(x, pkg+"/") {
			r.addOpen("%s: %q leaves its package", where, spec)
			return true
		}
		res = r.loadAsFile(x, false)
		if res == absent {
			res = r.loadAsDir(x)
		}
	}
	if info.Kind == Dir && !(sub == "" && siblingFound) {
		// Its content decided the result.
		r.bind(pkg, info.Path)
	}
	return res != absent
}

// bind records a package directory bound as a whole.
func (r *jsResolver) bind(p, real string) {
	if !r.dirs[real] {
		r.pkgQ = append(r.pkgQ, real)
	}
	r.dirs[real] = true
	r.bound[real] = true
	r.bound[p] = true
}

// packageDeps binds the packages a bound package declares, resolved from
// its own directory as its code would resolve them (after hoisting they
// sit beside it, not inside it).
func (r *jsResolver) packageDeps(dir string) {
	pj := r.pkgJSON(dir)
	if pj == nil {
		return
	}
	for _, d := range pj.Deps {
		if r.stop {
			return
		}
		r.bare(dir+"/package.json", dir, d)
	}
}
