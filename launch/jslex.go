package launch

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A jsRef is one module specifier a file names literally, or (when Open is
// set) one reason the file can load code the lexer cannot name.
type jsRef struct {
	Line int
	Spec string // literal specifier; "" when Open is set
	Open string // why this use is not statically resolvable
	// Builtin is set when Open is set only because the file loads a
	// builtin that can run code (child_process, vm, worker_threads).
	Builtin bool
	// Run is a program the file starts through child_process with
	// literal arguments (Spec and Open are empty).
	Run *jsRun
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tPunct
	tString   // '…', "…" or a template without substitutions; val is decoded
	tTemplate // a template with ${…} substitutions
	tNumber
	tRegexp
	tPrivate // #name
)

type token struct {
	kind tokKind
	val  string
	line int
	// reAfter is set on ')' and '}' when a '/' after them starts a regexp.
	reAfter bool
	// prop is set on an identifier right after '.' or '?.': a property
	// name, never a keyword (x.return / 2 divides).
	prop bool
}

// jsLexer splits JavaScript (and TypeScript, whose extra syntax lexes the
// same way for this purpose) into the tokens that matter for finding
// imports. It never fails: malformed input ends a literal at end of input.
type jsLexer struct {
	src  []byte
	pos  int
	line int
	prev token // last significant token, for the regexp/division choice
	// parens and braces record, for each open bracket, whether a '/' right
	// after its closing bracket starts a regexp; braces also mark template
	// substitutions.
	parens []bool
	braces []byte // 'b' block, 'e' expression, 't' template substitution
	// ambiguous lists lines where '/' was taken for a regexp on a guess and
	// the regexp body hid an identifier that would matter.
	ambiguous []int
}

// keywords after which an expression (so a regexp) starts.
var regexpAfterKeyword = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "case": true,
	"do": true, "else": true, "yield": true, "await": true, "extends": true,
}

// keywords whose parenthesised header is followed by a statement, so a '/'
// after the closing ')' starts a regexp.
var controlKeyword = map[string]bool{"if": true, "while": true, "for": true, "with": true}

func (l *jsLexer) regexpAllowed() (allowed, sure bool) {
	p := l.prev
	switch p.kind {
	case tEOF:
		return true, true
	case tIdent:
		return regexpAfterKeyword[p.val] && !p.prop, true
	case tString, tTemplate, tNumber, tRegexp, tPrivate:
		return false, true
	}
	switch p.val {
	case ")":
		return p.reAfter, true
	case "]":
		return false, true
	case "}":
		// After a block a statement (maybe a regexp) starts; after an
		// object literal or function expression, division. The brace
		// stack's guess is not certain.
		return p.reAfter, false
	case "++", "--":
		return false, false
	}
	return true, true
}

func isIdentStart(c rune) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c rune) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// next returns the next significant token.
func (l *jsLexer) next() token {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '/' && l.peek(1) == '/':
			l.skipLine()
		case c == '#' && l.peek(1) == '!' && l.pos == 0:
			l.skipLine()
		case c == '/' && l.peek(1) == '*':
			l.pos += 2
			for l.pos < len(l.src) && !(l.src[l.pos] == '*' && l.peek(1) == '/') {
				if l.src[l.pos] == '\n' {
					l.line++
				}
				l.pos++
			}
			l.pos += 2
		case c == '<' && l.peek(1) == '!' && l.peek(2) == '-' && l.peek(3) == '-',
			c == '-' && l.peek(1) == '-' && l.peek(2) == '>' && l.lineStart():
			// HTML-like comments (Annex B) in scripts.
			l.skipLine()
		default:
			if c >= 0x80 {
				r, n := utf8.DecodeRune(l.src[l.pos:])
				if r == 0x2028 || r == 0x2029 {
					l.line++
					l.pos += n
					continue
				}
				if r == 0xA0 || r == 0xFEFF || r == utf8.RuneError {
					l.pos += n
					continue
				}
			}
			t := l.scan()
			l.prev = t
			return t
		}
	}
	return token{kind: tEOF, line: l.line}
}

func (l *jsLexer) lineStart() bool {
	for i := l.pos - 1; i >= 0; i-- {
		switch l.src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

func (l *jsLexer) peek(n int) byte {
	if l.pos+n < len(l.src) {
		return l.src[l.pos+n]
	}
	return 0
}

func (l *jsLexer) skipLine() {
	for l.pos < len(l.src) && l.src[l.pos] != '\n' {
		l.pos++
	}
}

func (l *jsLexer) scan() token {
	line := l.line
	c := l.src[l.pos]
	switch {
	case c == '\'' || c == '"':
		return token{kind: tString, val: l.quoted(c), line: line}
	case c == '`':
		l.pos++
		return l.template(line, false)
	case c >= '0' && c <= '9' || c == '.' && l.peek(1) >= '0' && l.peek(1) <= '9':
		for l.pos < len(l.src) {
			r, n := utf8.DecodeRune(l.src[l.pos:])
			if !isIdentPart(r) && r != '.' {
				// exponents: 1e+5
				if (r == '+' || r == '-') && l.pos > 0 && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E') {
					l.pos++
					continue
				}
				break
			}
			l.pos += n
		}
		return token{kind: tNumber, line: line}
	case c == '#' && l.pos+1 < len(l.src):
		l.pos++
		l.ident()
		return token{kind: tPrivate, line: line}
	}
	if r, _ := utf8.DecodeRune(l.src[l.pos:]); isIdentStart(r) || c == '\\' {
		prop := l.prev.kind == tPunct && (l.prev.val == "." || l.prev.val == "?.")
		return token{kind: tIdent, val: l.ident(), line: line, prop: prop}
	}
	if c == '/' {
		allowed, sure := l.regexpAllowed()
		start := l.pos
		if !sure {
			// Where the lexer guesses, the other reading must not change
			// what it finds: a regexp that would hide a loader, or quotes
			// and comment starts that would shift every token after it.
			if l.regexp() && (allowed && hidesName(l.src[start:l.pos]) || codeCrosses(l.src, start, l.pos)) {
				l.ambiguous = append(l.ambiguous, line)
			}
			l.pos = start
		}
		if allowed {
			if l.regexp() {
				return token{kind: tRegexp, line: line}
			}
			l.pos = start // no closing '/' on the line: division after all
		}
		l.pos++
		if l.peek(0) == '=' {
			l.pos++
		}
		return token{kind: tPunct, val: "/", line: line}
	}
	return l.punct(line)
}

// codeCrosses reports whether the text of a regexp literal at
// src[start:end] (flags included), read as code instead, would not end
// where the regexp ends: a string, template or comment running past its
// closing '/', or brackets left open. The two readings then disagree on
// what follows, not only on the span.
func codeCrosses(src []byte, start, end int) bool {
	closing := end - 1
	for closing > start && src[closing] != '/' {
		closing--
	}
	if closing == end-1 {
		// No flags: read as code the closing '/' divides, so a '/' next
		// starts a regexp; after a regexp literal it divides.
		for i := end; i < len(src); i++ {
			if c := src[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				if c == '/' {
					return true
				}
				break
			}
		}
	}
	sub := &jsLexer{src: src, pos: start + 1, line: 1}
	for sub.pos <= closing {
		// The closing '/' itself may start a regexp or a comment when read
		// as code: it is lexed too.
		if t := sub.next(); t.kind == tEOF || sub.pos > closing+1 {
			return true
		}
	}
	return len(sub.parens) > 0 || len(sub.braces) > 0
}

// hidesName reports whether text the lexer skipped as a regexp on a guess
// holds something that would matter were it code.
func hidesName(b []byte) bool {
	s := string(b)
	for _, w := range []string{"require", "import", "eval", "Function", "dlopen"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func (l *jsLexer) ident() string {
	var b strings.Builder
	for l.pos < len(l.src) {
		if l.src[l.pos] == '\\' {
			// \uXXXX or \u{…} escapes name the same identifier.
			l.pos++
			if l.peek(0) == 'u' {
				l.pos++
				b.WriteRune(l.unicodeEscape())
				continue
			}
			continue
		}
		r, n := utf8.DecodeRune(l.src[l.pos:])
		if !isIdentPart(r) {
			break
		}
		b.WriteRune(r)
		l.pos += n
	}
	return b.String()
}

// unicodeEscape reads XXXX or {X…} after "\u".
func (l *jsLexer) unicodeEscape() rune {
	if l.peek(0) == '{' {
		l.pos++
		start := l.pos
		for l.pos < len(l.src) && l.src[l.pos] != '}' && l.src[l.pos] != '\n' {
			l.pos++
		}
		r := hexRune(l.src[start:l.pos])
		l.pos++
		return r
	}
	return l.hexDigits(4)
}

// hexDigits reads up to n hex digits as a code point.
func (l *jsLexer) hexDigits(n int) rune {
	start := l.pos
	for l.pos < len(l.src) && l.pos-start < n {
		l.pos++
	}
	return hexRune(l.src[start:l.pos])
}

// hexRune decodes hex digits; RuneError when they are not a code point.
func hexRune(b []byte) rune {
	v, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil || v > utf8.MaxRune {
		return utf8.RuneError
	}
	return rune(v)
}

// quoted reads a '…' or "…" string and returns its value.
func (l *jsLexer) quoted(q byte) string {
	l.pos++
	var b strings.Builder
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == q:
			l.pos++
			return b.String()
		case c == '\n':
			return b.String() // unterminated; the newline ends it
		case c == '\\':
			l.pos++
			l.escape(&b)
		default:
			l.char(&b)
		}
	}
	return b.String()
}

// char copies one character of a string or template: node reads the
// file as UTF-8, so an invalid byte is U+FFFD in the value.
func (l *jsLexer) char(b *strings.Builder) {
	c := l.src[l.pos]
	if c < 0x80 {
		b.WriteByte(c)
		l.pos++
		return
	}
	r, n := utf8.DecodeRune(l.src[l.pos:])
	b.WriteRune(r)
	l.pos += n
}

// escape decodes one escape sequence after a backslash.
func (l *jsLexer) escape(b *strings.Builder) {
	if l.pos >= len(l.src) {
		return
	}
	c := l.src[l.pos]
	l.pos++
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '0':
		b.WriteByte(0)
	case 'x':
		b.WriteRune(l.hexDigits(2))
	case 'u':
		b.WriteRune(l.unicodeEscape())
	case '\r':
		if l.peek(0) == '\n' {
			l.pos++
		}
		l.line++
	case '\n':
		l.line++ // line continuation
	default:
		b.WriteByte(c)
	}
}

// template reads a template literal after its opening backquote (or after
// the '}' closing a substitution: cont), up to its end or its next
// substitution. Only a whole template without substitutions is a tString.
func (l *jsLexer) template(line int, cont bool) token {
	end := tString
	if cont {
		end = tTemplate
	}
	var b strings.Builder
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '`':
			l.pos++
			return token{kind: end, val: b.String(), line: line}
		case c == '$' && l.peek(1) == '{':
			l.pos += 2
			l.braces = append(l.braces, 't')
			return token{kind: tTemplate, line: line}
		case c == '\\':
			l.pos++
			l.escape(&b)
		default:
			if c == '\n' {
				l.line++
			}
			l.char(&b)
		}
	}
	return token{kind: end, val: b.String(), line: line}
}

// regexp reads a regexp literal; false when no closing '/' is on the line.
func (l *jsLexer) regexp() bool {
	i := l.pos + 1
	class := false
	for i < len(l.src) {
		c := l.src[i]
		switch {
		case c == '\n' || c == '\r':
			return false
		case c == '\\':
			i++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			i++
			for i < len(l.src) {
				r, n := utf8.DecodeRune(l.src[i:])
				if !isIdentPart(r) {
					break
				}
				i += n
			}
			l.pos = i
			return true
		}
		i++
	}
	return false
}

var puncts3 = []string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??="}
var puncts2 = []string{"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "%=", "&=", "|=", "^=", "<<", ">>", "**"}

func (l *jsLexer) punct(line int) token {
	rest := l.src[l.pos:]
	for _, p := range puncts3 {
		if strings.HasPrefix(string(rest[:min(len(rest), 4)]), p) {
			l.pos += len(p)
			return token{kind: tPunct, val: p, line: line}
		}
	}
	for _, p := range puncts2 {
		if len(rest) >= 2 && string(rest[:2]) == p {
			l.pos += 2
			return token{kind: tPunct, val: p, line: line}
		}
	}
	c := l.src[l.pos]
	l.pos++
	t := token{kind: tPunct, val: string(c), line: line}
	if c >= 0x80 {
		// a stray byte of an unusual character: skip the whole rune
		_, n := utf8.DecodeRune(rest)
		l.pos += n - 1
	}
	switch c {
	case '(':
		p := l.prev
		l.parens = append(l.parens, p.kind == tIdent && controlKeyword[p.val])
	case ')':
		if n := len(l.parens); n > 0 {
			if l.parens[n-1] {
				t.reAfter = true
			}
			l.parens = l.parens[:n-1]
		}
	case '{':
		l.braces = append(l.braces, l.braceKind())
	case '}':
		if n := len(l.braces); n > 0 {
			k := l.braces[n-1]
			l.braces = l.braces[:n-1]
			if k == 't' {
				// the substitution ends; the template goes on
				return l.template(line, true)
			}
			t.reAfter = k == 'b'
		}
	}
	return t
}

// braceKind guesses whether a '{' opens a block or an expression.
func (l *jsLexer) braceKind() byte {
	p := l.prev
	switch p.kind {
	case tEOF:
		return 'b'
	case tIdent:
		if regexpAfterKeyword[p.val] && p.val != "do" && p.val != "else" {
			return 'e'
		}
		return 'b' // else, do, try, finally, class names, ...
	case tPunct:
		switch p.val {
		case ")", ";", "{", "}", "=>":
			return 'b'
		}
		return 'e'
	}
	return 'e'
}

// jsBuiltinOpen names the builtins that can run code the graph does not
// hold.
var jsBuiltinOpen = map[string]bool{
	"child_process": true, "cluster": true, "inspector": true, "inspector/promises": true,
	"module": true, "repl": true, "vm": true, "wasi": true, "worker_threads": true,
	"test": true, // node:test's run() spawns the files it is given
}

// scanJS lists what a JavaScript or TypeScript file loads.
func scanJS(src []byte) []jsRef {
	l := &jsLexer{src: src, line: 1}
	var refs []jsRef
	open := func(t token, format string, a ...any) {
		refs = append(refs, jsRef{Line: t.line, Open: fmt.Sprintf(format, a...)})
	}
	// A sliding window of tokens: the parser looks back one and ahead a few.
	var buf []token
	fill := func(n int) {
		for len(buf) < n {
			buf = append(buf, l.next())
		}
	}
	var prev token
	for {
		fill(1)
		t := buf[0]
		if t.kind == tEOF {
			break
		}
		afterDot := prev.kind == tPunct && (prev.val == "." || prev.val == "?.")
		if t.kind == tIdent && !afterDot {
			fill(6)
			n1, n2, n3 := buf[1], buf[2], buf[3]
			isKey := n1.kind == tPunct && n1.val == ":" && prev.kind == tPunct && (prev.val == "{" || prev.val == ",")
			call := n1.kind == tPunct && n1.val == "("
			switch {
			case isKey:
			case t.val == "require" || t.val == "module" && n1.val == "." && n2.val == "require":
				k := 1
				name := "require()"
				if t.val == "module" {
					k = 3
					name = "module.require()"
					call = buf[3].kind == tPunct && buf[3].val == "("
				}
				switch {
				case call:
					refs = append(refs, callArg(t, name, buf[k+1], buf[k+2], false))
				case t.val == "require" && n1.val == "." && n2.kind == tIdent:
					switch n2.val {
					case "resolve":
						if n3.kind == tPunct && n3.val == "(" {
							refs = append(refs, callArg(t, "require.resolve()", buf[4], buf[5], true))
						}
					case "main":
						// require.main.require resolves from the main
						// module, not this file.
						if n3.val == "." && buf[4].val == "require" {
							open(t, "require.main.require loads from the main module's directory")
						}
					case "cache":
					default:
						open(t, "require.%s is used", n2.val)
					}
				case prev.kind == tIdent && prev.val == "typeof":
				default:
					open(t, "%s is used as a value", strings.TrimSuffix(name, "()"))
				}
			case t.val == "import" && call:
				refs = append(refs, callArg(t, "import()", buf[2], buf[3], false))
			case t.val == "import" && n1.kind == tPunct && n1.val == ".":
				// import.meta.resolve('x')
				if n2.val == "meta" && n3.val == "." && buf[4].val == "resolve" {
					fill(8)
					if buf[5].val == "(" {
						refs = append(refs, callArg(t, "import.meta.resolve()", buf[6], buf[7], true))
					}
				}
			case t.val == "import" || t.val == "export":
				if s, ok := fromClause(t, &buf, fill); ok {
					refs = append(refs, jsRef{Line: t.line, Spec: s})
				}
			case t.val == "eval":
				open(t, "eval is used")
			case t.val == "Function" && (call || prev.kind == tIdent && prev.val == "new"):
				open(t, "new Function builds code from a string")
			case t.val == "createRequire":
				open(t, "createRequire builds a require the graph cannot follow")
			case t.val == "process" && n1.val == "." && n2.val == "dlopen":
				open(t, "process.dlopen loads a native library")
			case t.val == "module":
				if why := moduleUse(prev, n1, n2); why != "" {
					open(t, "%s", why)
				}
			}
		}
		if t.kind == tIdent && afterDot {
			switch t.val {
			case "_load", "_compile", "_resolveFilename", "_extensions":
				open(t, "the module loader's internal %s is used", t.val)
			case "mainModule":
				open(t, "process.mainModule gives the main module's require")
			}
		}
		prev = t
		buf = buf[1:]
	}
	for _, ln := range l.ambiguous {
		refs = append(refs, jsRef{Line: ln, Open: "a '/' here may start a regular expression or divide, and the two readings see different code"})
	}
	childDone := false
	for i, r := range refs {
		if r.Open != "" || r.Run != nil {
			continue
		}
		name := strings.TrimPrefix(r.Spec, "node:")
		if name == "child_process" && isBuiltin(r.Spec) {
			// Literal programs are followed; anything else opens.
			if runs, ok := childProcessRuns(src); ok {
				if !childDone {
					for _, run := range runs {
						refs = append(refs, jsRef{Line: run.Line, Run: &run})
					}
					childDone = true
				}
				continue
			}
		}
		if jsBuiltinOpen[name] && (isBuiltin(r.Spec)) {
			refs[i].Open = fmt.Sprintf("it loads the %q builtin, which can run code outside the graph", r.Spec)
			refs[i].Builtin = true
		}
	}
	return refs
}

// moduleProps are the members of CommonJS's module object that load
// nothing.
var moduleProps = map[string]bool{"exports": true, "id": true, "filename": true, "loaded": true, "path": true,
	"paths": true, "hot": true, "isPreloading": true}

// moduleUse says why a use of the identifier module (not after a dot, not
// module.require(...), handled as require) can load code: module.parent,
// module.constructor, module[...] and module passed or assigned as a value
// reach a require the lexer cannot follow (m = module; m.require(x)).
// typeof module, comparisons (require.main === module) and TypeScript's
// module declarations load nothing.
func moduleUse(prev, n1, n2 token) string {
	switch {
	case prev.kind == tIdent && (prev.val == "typeof" || prev.val == "declare"):
		return ""
	case prev.kind == tPunct && (prev.val == "===" || prev.val == "!==" || prev.val == "==" || prev.val == "!="):
		return ""
	case n1.kind == tPunct && (n1.val == "===" || n1.val == "!==" || n1.val == "==" || n1.val == "!="):
		return ""
	case (n1.kind == tString || n1.kind == tIdent) && statementStart(prev):
		return "" // module "x" { } / module Foo { } (TypeScript)
	case n1.kind == tPunct && (n1.val == "." || n1.val == "?."):
		if n2.val == "require" || moduleProps[n2.val] {
			return ""
		}
		return "module." + n2.val + " can reach another module's require"
	case n1.kind == tPunct && n1.val == ":":
		return "" // a label or a type annotation
	}
	return "module is used as a value"
}

// statementStart reports whether a token after prev starts a statement
// (a declaration may start there).
func statementStart(prev token) bool {
	switch prev.kind {
	case tEOF:
		return true
	case tIdent:
		return prev.val == "export" || prev.val == "declare"
	case tPunct:
		return prev.val == ";" || prev.val == "{" || prev.val == "}"
	}
	return false
}

// callArg reads the argument of require(…) and the like: a literal string
// followed by ')' (or ',' when extra is false, as import() takes options).
func callArg(t token, name string, arg, after token, resolve bool) jsRef {
	if arg.kind == tString && after.kind == tPunct {
		if after.val == ")" || after.val == "," && !resolve {
			return jsRef{Line: t.line, Spec: arg.val}
		}
	}
	if resolve && arg.kind == tString && after.val == "," {
		return jsRef{Line: t.line, Open: name + " with options (paths)"}
	}
	return jsRef{Line: t.line, Open: name + " with a computed argument"}
}

// fromClause parses the rest of an import or export declaration starting at
// buf[0] and returns its module specifier.
func fromClause(t token, buf *[]token, fill func(int)) (string, bool) {
	// bounded look-ahead; a declaration names few bindings before 'from'
	const maxLook = 4096
	i := 1
	get := func(i int) token {
		fill(i + 1)
		return (*buf)[i]
	}
	n := get(1)
	if t.val == "import" && n.kind == tString {
		return n.val, true // import 'x'
	}
	for i = 1; i < maxLook; i++ {
		n = get(i)
		switch {
		case n.kind == tEOF:
			return "", false
		case n.kind == tPunct && n.val == "{":
			// skip to the matching '}'
			depth := 0
			for ; i < maxLook; i++ {
				n = get(i)
				if n.kind == tEOF {
					return "", false
				}
				if n.kind == tPunct && n.val == "{" {
					depth++
				}
				if n.kind == tPunct && n.val == "}" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
		case n.kind == tIdent && n.val == "from":
			if s := get(i + 1); s.kind == tString {
				return s.val, true
			}
			return "", false
		case n.kind == tIdent, n.kind == tPunct && (n.val == "*" || n.val == ","):
			// bindings: default name, * as ns, type, a, {…}
		default:
			return "", false
		}
		if t.val == "export" && i == 1 && n.kind == tIdent {
			return "", false // export const/function/class/default …
		}
	}
	return "", false
}

// nodeBuiltins are the modules node 20 serves without the node: prefix
// (require('module').builtinModules); they win over node_modules.
var nodeBuiltins = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`_http_agent _http_client _http_common
		_http_incoming _http_outgoing _http_server _stream_duplex
		_stream_passthrough _stream_readable _stream_transform _stream_wrap
		_stream_writable _tls_common _tls_wrap assert assert/strict
		async_hooks buffer child_process cluster console constants crypto
		dgram diagnostics_channel dns dns/promises domain events fs
		fs/promises http http2 https inspector inspector/promises module net
		os path path/posix path/win32 perf_hooks process punycode
		querystring readline readline/promises repl stream stream/consumers
		stream/promises stream/web string_decoder sys timers
		timers/promises tls trace_events tty url util util/types v8 vm wasi
		worker_threads zlib`) {
		nodeBuiltins[m] = true
	}
}

// isBuiltin reports whether node serves spec itself: any node: specifier
// (node throws for an unknown one) or a bare builtin name.
func isBuiltin(spec string) bool {
	return strings.HasPrefix(spec, "node:") || nodeBuiltins[spec]
}
