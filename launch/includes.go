package launch

import (
	"path"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
)

// Bounds on the sources read to find what a compiled program embeds.
const (
	incMaxFiles = 20000
	incMaxBytes = 64 << 20
)

// Compiled on first use: the hook starts without them.
var (
	// include!, include_str!, include_bytes! and third-party macros that
	// read files at compile time (include_dir!, sqlx::migrate!): any macro
	// whose first argument is a string literal naming a repository path.
	rustMacroLit = lazyre.Regexp{Expr: `([A-Za-z_][A-Za-z0-9_]*)\s*!\s*[\(\[\{]\s*(?:r#*)?"([^"\\\n]*)"`}
	// A macro of the include family with a computed argument.
	rustIncludeExpr = lazyre.Regexp{Expr: `\binclude(?:_str|_bytes)?\s*!\s*[\(\[\{]\s*([^"\s])`}
	// #[path = "x"] mod m; and attributes naming a folder (rust-embed).
	rustPathAttr = lazyre.Regexp{Expr: `#\s*\[\s*(path|folder)\s*=\s*"([^"\\\n]*)"`}
	goEmbed      = lazyre.Regexp{Expr: `(?m)^\s*//go:embed\s+(.+)$`}
)

// sourceWalk calls fn for every file below dir with one of the
// extensions (skipping build output, VCS and dependency directories); it
// binds the whole tree and returns false when the bounds are reached.
func (a *analyzer) sourceWalk(dir, source, lang string, exts []string, fn func(p string, src []byte)) bool {
	files, bytes := 0, 0
	var rec func(d string, depth int) bool
	rec = func(d string, depth int) bool {
		if depth > 64 {
			return false
		}
		entries, err := a.fs.ReadDir(d)
		if err != nil {
			return true
		}
		for _, e := range entries {
			p := joinDir(d, e.Name)
			switch e.Kind {
			case Dir:
				switch e.Name {
				case ".git", "target", "node_modules":
					continue
				}
				if !rec(p, depth+1) {
					return false
				}
			case File, Exec:
				match := false
				for _, x := range exts {
					match = match || strings.HasSuffix(e.Name, x)
				}
				if !match {
					continue
				}
				files++
				data, ok, tooLarge := a.readFile(p)
				if tooLarge || files > incMaxFiles || bytes > incMaxBytes {
					return false
				}
				bytes += len(data)
				if ok {
					fn(p, data)
				}
			}
		}
		return true
	}
	if a.fs == nil || rec(dir, 0) {
		return true
	}
	a.b.gap(source, "too many "+lang+" sources to look for the files they embed")
	a.add(Item{Kind: KindTree, Path: dir, Source: source,
		Why: "what the " + lang + " code embeds at compile time was not looked for: any change below it re-gates this server"})
	return false
}

// rustIncludes binds the non-Rust files the crates below root read at
// compile time: include!/include_str!/include_bytes!, #[path] modules,
// and any macro given a literal path that exists. A computed include
// (concat!, env!) binds its crate's whole directory, except one below
// OUT_DIR, which build.rs (bound as Rust code) writes.
func (a *analyzer) rustIncludes(root, source string) {
	a.sourceWalk(root, source, "Rust", []string{".rs"}, func(p string, src []byte) {
		dir := dirOf(p)
		crate := a.crateDir(dir, root)
		why := p + " reads it at compile time"
		for _, m := range rustMacroLit.Get().FindAllSubmatch(src, -1) {
			lit := string(m[2])
			if lit == "" || rustTextMacros[string(m[1])] {
				continue
			}
			isInclude := strings.Contains(string(m[1]), "include")
			for i, base := range []string{dir, crate} {
				if i == 1 && isInclude && string(m[1]) != "include_dir" {
					break // include! and kin are relative to the file
				}
				q, ok := repoPath(base, lit)
				if !ok || q == "" {
					continue
				}
				switch a.stat(q).Kind {
				case Missing:
					if isInclude {
						a.add(Item{Kind: KindFile, Path: q, Source: source, Why: why})
					}
				case Dir:
					a.runs(Item{Kind: KindTree, Path: q, Source: source, Why: why})
				default:
					a.runs(Item{Kind: KindFile, Path: q, Source: source, Why: why})
				}
			}
		}
		for _, m := range rustIncludeExpr.Get().FindAllSubmatchIndex(src, -1) {
			open := m[0] + strings.IndexAny(string(src[m[0]:m[1]]), "([{")
			if strings.Contains(balanced(src, open), "OUT_DIR") {
				continue
			}
			a.b.gap(source, p+": an include! with a computed path")
			a.add(Item{Kind: KindTree, Path: crate, Source: source,
				Why: p + " includes a file named by a computed path: any change in its crate re-gates this server"})
		}
		for _, m := range rustPathAttr.Get().FindAllSubmatch(src, -1) {
			if string(m[1]) == "folder" {
				// rust-embed: relative to the crate, embedded whole.
				if q, ok := repoPath(crate, string(m[2])); ok {
					a.runs(Item{Kind: KindTree, Path: q, Source: source, Why: p + " embeds it in the program (#[folder])"})
				}
				continue
			}
			stem := strings.TrimSuffix(path.Base(p), ".rs")
			for _, base := range []string{dir, joinDir(dir, stem)} {
				if q, ok := repoPath(base, string(m[2])); ok && q != "" {
					a.runs(Item{Kind: KindFile, Path: q, Source: source, Why: p + " compiles it as a module (#[path])"})
				}
			}
		}
	})
}

// rustTextMacros are the standard macros whose string argument is text,
// never a file.
var rustTextMacros = map[string]bool{
	"println": true, "print": true, "eprintln": true, "eprint": true, "format": true, "format_args": true,
	"write": true, "writeln": true, "panic": true, "assert": true, "assert_eq": true, "assert_ne": true,
	"debug_assert": true, "debug_assert_eq": true, "debug_assert_ne": true, "todo": true, "unimplemented": true,
	"unreachable": true, "concat": true, "stringify": true, "env": true, "option_env": true, "compile_error": true,
	"vec": true, "matches": true, "info": true, "warn": true, "error": true, "debug": true, "trace": true, "bail": true,
	"anyhow": true,
}

// balanced is the text from the bracket at src[i] to its matching close
// (or the end), bounded.
func balanced(src []byte, i int) string {
	depth := 0
	for j := i; j < len(src) && j < i+4096; j++ {
		switch src[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return string(src[i : j+1])
			}
		}
	}
	return string(src[i:min(len(src), i+4096)])
}

// crateDir is the nearest directory at or above dir (not above root) with
// a Cargo.toml.
func (a *analyzer) crateDir(dir, root string) string {
	for d := dir; ; d = dirOf(d) {
		if a.stat(joinDir(d, "Cargo.toml")).Kind != Missing || d == root || d == "" {
			return d
		}
	}
}

// goEmbeds binds what //go:embed directives below root put in the binary:
// a file or directory named exactly, or the directory a pattern lists.
func (a *analyzer) goEmbeds(root, source string) {
	a.sourceWalk(root, source, "Go", []string{".go"}, func(p string, src []byte) {
		if strings.HasSuffix(p, "_test.go") {
			return
		}
		dir := dirOf(p)
		for _, m := range goEmbed.Get().FindAllSubmatch(src, -1) {
			for _, pat := range embedPatterns(string(m[1])) {
				pat = strings.TrimPrefix(pat, "all:")
				base := pat
				if i := strings.IndexAny(pat, "*?[\\"); i >= 0 {
					base = path.Dir(pat[:i+1])
				}
				q, ok := repoPath(dir, base)
				if !ok {
					continue
				}
				kind := KindFile
				if base != pat || a.stat(q).Kind == Dir {
					kind = KindTree
				}
				a.runs(Item{Kind: kind, Path: q, Source: source, Why: p + " embeds it in the program (//go:embed)"})
			}
		}
	})
}

// embedPatterns splits a //go:embed line: space-separated patterns, Go
// string literals quoted.
func embedPatterns(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' || s[0] == '`' {
			end := strings.IndexByte(s[1:], s[0])
			if end < 0 {
				return append(out, s[1:])
			}
			out = append(out, s[1:end+1])
			s = s[end+2:]
			continue
		}
		f, rest, _ := strings.Cut(s, " ")
		out = append(out, f)
		s = rest
	}
	return out
}
