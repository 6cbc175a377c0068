package launch

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shell follows sh, bash, zsh and their kin: with -c the first operand is
// a script; otherwise it is a script file (or stdin, which is not the
// repository's).
func (a *analyzer) shell(name string, args []word, cx context) {
	cflag := false
	i := 0
loop:
	for ; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--" || t == "-":
			i++
			break loop
		case strings.HasPrefix(t, "--"):
			if t == "--rcfile" || t == "--init-file" {
				if i+1 < len(args) {
					a.fileWord(cx, args[i+1], name+" reads this startup file")
				}
				i++
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			if t[0] == '-' && strings.ContainsRune(t[1:], 'c') {
				cflag = true
			}
			if strings.ContainsAny(t[1:], "oO") {
				i++
			}
		default:
			break loop
		}
	}
	source := "command"
	if i < len(args) {
		source = args[i].source
	} else if len(args) > 0 {
		source = args[0].source
	}
	var run shellRun
	if readsBashEnv(name, args[:min(i, len(args))]) {
		run.startup = a.startupFile("BASH_ENV", cx.env["BASH_ENV"], cx, source)
	}
	if i >= len(args) {
		if run.startup != "" {
			// It reads its commands from stdin (not the repository's),
			// after BASH_ENV's file.
			a.shellRun("", "", source, cx, nil, run)
		}
		return
	}
	if cflag {
		if !args[i].lit {
			a.whole(args[i].source, name+" -c runs a script computed at run time")
			return
		}
		a.b.s.Inline = append(a.b.s.Inline, Inline{Program: name, Flag: "-c", Code: args[i].text, Source: args[i].source})
		// The words after the script are $0, then $1 … (sh -c 'exec "$@"' sh node server.js).
		params := knownParams(nil)
		if i+2 <= len(args) {
			params = knownParams(args[i+2:])
		}
		a.shellRun(args[i].text, "", args[i].source, cx, params, run)
		return
	}
	p, ok := a.resolve(cx, args[i].text)
	if !ok || !args[i].lit {
		return
	}
	if a.unknownCwd(cx, args[i].source) {
		return
	}
	a.runs(Item{Kind: KindFile, Path: p, Source: args[i].source, Why: name + " runs this script"})
	a.scriptFile(p, args[i].source, cx, knownParams(args[i+1:]), run)
}

// scriptFile parses a repository shell script started in cx with the
// positional parameters params (nil: unknown) and follows what it runs,
// as run says the shell runs it.
func (a *analyzer) scriptFile(p, source string, cx context, params *positional, run shellRun) {
	if a.fs == nil || !a.once("sh", p, runKey(cx, params.known())+run.key(), source) {
		return
	}
	data, ok, tooLarge := a.readFile(p)
	if tooLarge {
		a.whole(source, "the script "+p+" is too large to read")
		return
	}
	if ok {
		a.shellRun(string(data), p, source, cx, params, run)
	}
}

// parseScript parses a shell script's text, or says why it cannot be
// followed: sh and bash run a script a line at a time, so the commands
// before a syntax error, or around NUL bytes and other binary garbage,
// still run (seen with dash and bash 5.2). What such a file runs is not
// known, and nothing of it may be taken as running nothing. name is the
// script's repository path ("" for an inline script), for the reason.
func parseScript(src, name string) (*syntax.File, string) {
	what := "a shell script"
	if name != "" {
		what = "the script " + name
	}
	if isBinary(src) {
		return nil, what + " holds binary data, which sh and bash run around"
	}
	f, err := parseShell(src)
	if err != nil {
		return nil, what + " does not parse, and sh and bash run its lines up to the error"
	}
	return f, ""
}

// shellScript parses a POSIX-family script and follows every command in
// it; file is the script's repository path ("" for an inline script),
// params its positional parameters (nil: unknown). A script that does not
// parse binds the repository: sh and bash run its lines up to the error.
func (a *analyzer) shellScript(src, file, source string, cx context, params *positional) {
	a.shellRun(src, file, source, cx, params, shellRun{})
}

// shellRun is shellScript for a shell that runs the script as run says:
// after sourcing BASH_ENV's file in the same shell, or with every
// function it declares callable by commands the model does not see.
func (a *analyzer) shellRun(src, file, source string, cx context, params *positional, run shellRun) {
	if cx.depth > maxDepth {
		a.whole(source, "scripts nest too deeply to follow")
		return
	}
	f, why := parseScript(src, file)
	if why != "" {
		a.whole(source, why)
		return
	}
	if params == nil {
		params = &positional{}
	}
	w := &shellWalk{a: a, source: source, self: file, file: file, cx: cx.with(), origin: cx.cwd, fileOrigin: cx.cwd,
		params: params, funcs: map[string]*shellFunc{}}
	w.cx.depth++
	if run.startup != "" {
		w.a.runs(Item{Kind: KindFile, Path: run.startup, Source: source, Why: "bash sources it (BASH_ENV) before the script"})
		w.sourced(run.startup)
	}
	w.stmts(f.Stmts)
	w.trapsDone()
	if run.callAll {
		w.callAll()
	}
	w.paramRunsDone()
}

func parseShell(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// positional is a script's positional parameters ($1, $2, …) while the
// model knows them: the words of a script or function started with them,
// as shift leaves them. They are unknown for an inline script of a
// runner, once set, shifted where it may or may not happen (in a branch,
// a loop, a list) or by a sourced file given arguments. used records
// that "$@" was taken from them.
type positional struct {
	words []word
	ok    bool
	used  bool
}

// knownParams are the positional parameters ws.
func knownParams(ws []word) *positional {
	return &positional{words: append([]word(nil), ws...), ok: true}
}

// known is the parameters when known, else one word standing for what
// is not (for runKey).
func (p *positional) known() []word {
	if p == nil || !p.ok {
		return []word{{text: "$@"}}
	}
	return p.words
}

// shellWalk follows one parsed script; cx is the state commands change
// (cd, export) as the script goes on. A file sourced into it is walked by
// the same shellWalk: what it changes holds after it, as in the shell.
type shellWalk struct {
	a      *analyzer
	source string
	// self is the script started ($0), file the one being read
	// (BASH_SOURCE: a file sourced into it); each is relative to the
	// working directory where it was started or sourced (origin,
	// fileOrigin). Both "" for an inline script.
	self, file         string
	origin, fileOrigin string
	cx                 context
	params             *positional
	// cond counts the branches, loops, lists, subshells and
	// substitutions around the statement being walked: a function
	// declared there may or may not be. paramCond is cond where params
	// were set (the script's start, a function's call): a change of them
	// at a deeper level may or may not happen.
	cond, paramCond int
	// funcs are the functions declared so far (bash's table, copied
	// into a subshell); funcGen counts its changes. paramRuns are the
	// commands "$@" starts as a shell command (a function of that name
	// would run in their place); traps the commands trap set.
	funcs     map[string]*shellFunc
	funcGen   int
	paramRuns []word
	traps     []string
}

func (w *shellWalk) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		w.stmt(st)
	}
}

func (w *shellWalk) stmt(st *syntax.Stmt) {
	if st == nil || !w.a.spend(w.source) {
		return
	}
	if st.Background || st.Coprocess || st.Disown {
		// A subshell of its own: what it changes ends with it.
		w.subshell(func() { w.cmd(st) })
		return
	}
	w.cmd(st)
}

// cmd walks a statement's command, then the substitutions in its words.
func (w *shellWalk) cmd(st *syntax.Stmt) {
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		w.cond++
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			// Each command of a pipeline but the last runs in a
			// subshell (zsh and bash's lastpipe run the last one in
			// the shell itself).
			w.subshell(func() { w.stmt(c.X) })
			w.stmt(c.Y)
		} else {
			// X && Y, X || Y: Y may or may not run after X.
			w.stmt(c.X)
			w.branches(true, []shellAlt{{w.cx.with(), []*syntax.Stmt{c.Y}}})
		}
		w.cond--
	case *syntax.CallExpr:
		w.call(c)
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		w.subshell(func() { w.stmts(c.Stmts) })
	case *syntax.IfClause:
		w.cond++
		// Each condition runs after those before it, and each branch
		// from where its condition left the shell, never after another
		// branch; with no else, the shell may go on from the last
		// condition.
		var alts []shellAlt
		hasElse := false
		for ic := c; ic != nil; ic = ic.Else {
			if ic != c && len(ic.Cond) == 0 {
				alts = append(alts, shellAlt{w.cx.with(), ic.Then})
				hasElse = true
				break
			}
			w.stmts(ic.Cond)
			alts = append(alts, shellAlt{w.cx.with(), ic.Then})
		}
		w.branches(!hasElse, alts)
		w.cond--
	case *syntax.WhileClause:
		w.loop(func() {
			w.stmts(c.Cond)
			w.stmts(c.Do)
		})
	case *syntax.ForClause:
		w.loop(func() { w.stmts(c.Do) })
	case *syntax.CaseClause:
		w.cond++
		var alts []shellAlt
		var all []*syntax.Stmt
		fallsThrough := false
		for _, item := range c.Items {
			alts = append(alts, shellAlt{w.cx.with(), item.Stmts})
			all = append(all, item.Stmts...)
			fallsThrough = fallsThrough || item.Op != syntax.Break
		}
		if fallsThrough {
			// ;& and ;;& go on into the next item: the items one
			// after another is a path too.
			alts = append(alts, shellAlt{w.cx.with(), all})
		}
		w.branches(true, alts)
		w.cond--
	case *syntax.FuncDecl:
		w.declare(c)
	case *syntax.TimeClause:
		w.stmt(c.Stmt)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt)
	case *syntax.DeclClause:
		w.decl(c)
	case nil:
	default:
		// [[ ]], (( )), let: no program starts, but substitutions may.
	}
	// Substitutions in this statement's own words; nested statements were
	// followed above and are not walked twice.
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			return n == st
		case *syntax.CmdSubst:
			w.nested(n.Stmts)
			return false
		case *syntax.ProcSubst:
			w.nested(n.Stmts)
			return false
		}
		return true
	})
}

// nested follows the statements of a substitution in a subshell.
func (w *shellWalk) nested(list []*syntax.Stmt) {
	w.subshell(func() { w.stmts(list) })
}

func (w *shellWalk) assign(as *syntax.Assign, export bool) {
	if as == nil || as.Name == nil {
		return
	}
	val, lit := "", true
	if as.Value != nil {
		val, lit = w.literal(as.Value)
	}
	if !lit {
		val = ""
		if execVars[as.Name.Value] {
			w.a.whole(w.source, "the script sets "+as.Name.Value+" to a value computed at run time")
		}
	}
	if as.Name.Value == "BASH_ALIASES" {
		w.a.whole(w.source, "the script defines an alias (BASH_ALIASES), which bash expands in the commands after it")
		return
	}
	if as.Name.Value == "argv" {
		w.params.ok = false // zsh's positional parameters
	}
	w.cx.env[as.Name.Value] = val
	w.a.envVar(as.Name.Value, val, w.source, w.cx)
}

func (w *shellWalk) call(c *syntax.CallExpr) {
	for _, as := range c.Assigns {
		w.assign(as, false)
	}
	if len(c.Args) == 0 {
		return
	}
	ws := make([]word, 0, len(c.Args))
	for i, arg := range c.Args {
		if ps, ok := w.allParams(arg); ok {
			// "$@": the script's arguments, each a word of the command.
			if i == 0 && len(ps) > 0 {
				w.paramRuns = append(w.paramRuns, ps[0])
			}
			ws = append(ws, ps...)
			continue
		}
		text, lit := w.literal(arg)
		ws = append(ws, word{text: text, lit: lit, source: w.source})
	}
	if len(ws) == 0 {
		return // "$@" of no arguments: no command
	}
	if !ws[0].lit {
		w.a.whole(w.source, "the script runs a program named at run time")
		return
	}
	if fn := w.funcs[ws[0].text]; fn != nil && !strings.Contains(ws[0].text, "/") {
		w.callFunc(ws[0].text, fn, ws[1:], true)
		if !fn.none && !specialBuiltins[ws[0].text] {
			return
		}
		// The name may be no function here, or a special builtin that
		// sh finds before a function: that runs too.
	}
	// `builtin NAME` and `command NAME` run NAME's builtin (eval, source,
	// alias, cd as themselves), never a function of that name;
	// `command -v`/`-V` only says what NAME is.
	for len(ws) > 1 && (ws[0].text == "builtin" || ws[0].text == "command") {
		rest := ws[1:]
		if ws[0].text == "command" {
			for len(rest) > 0 && rest[0].lit && strings.HasPrefix(rest[0].text, "-") && rest[0].text != "-" {
				if rest[0].text == "--" {
					rest = rest[1:]
					break
				}
				if strings.ContainsAny(rest[0].text, "vV") {
					return
				}
				rest = rest[1:]
			}
		}
		if len(rest) == 0 {
			return
		}
		if !rest[0].lit {
			w.a.whole(w.source, "the script runs a program named at run time")
			return
		}
		ws = rest
	}
	switch name := ws[0].text; name {
	case "cd", "pushd":
		ops := skipOptions(ws[1:])
		if len(ops) == 0 {
			w.cx.unknown = true // cd with no operand: $HOME
			return
		}
		if len(ops) > 1 {
			// bash refuses it, zsh and ksh substitute in $PWD.
			w.a.chdir(&w.cx, "", false, w.source)
			return
		}
		w.a.chdir(&w.cx, ops[0].text, ops[0].lit, w.source)
		return
	case "popd":
		w.cx.unknown = true
		return
	case "export", "declare", "typeset", "local", "readonly":
		return // handled as DeclClause
	case "source", ".":
		if len(ws) < 2 {
			return
		}
		if !ws[1].lit || w.cx.unknown {
			w.a.whole(w.source, "the script sources a file named at run time")
			return
		}
		if len(ws) > 2 {
			w.params.ok = false // its arguments are "$@" while it runs
		}
		if p, ok := w.a.resolve(w.cx, ws[1].text); ok && p != "" {
			w.a.runs(Item{Kind: KindFile, Path: p, Source: w.source, Why: "the script sources it"})
			w.sourced(p)
		}
		return
	case "eval":
		w.a.whole(w.source, "the script runs eval")
		return
	case "alias":
		// dash expands aliases in a script, bash once expand_aliases is
		// set (or as sh): a later `node server.js` may run what the
		// alias says instead.
		for _, o := range ws[1:] {
			if !o.lit || strings.Contains(o.text, "=") {
				w.a.whole(w.source, "the script defines an alias, which the shell expands in the commands after it")
				return
			}
		}
		return
	case "shift":
		w.shift(ws[1:])
		return
	case "set":
		w.set(ws[1:])
		return
	case "trap":
		w.trap(ws[1:])
		return
	case "enable":
		if mayHaveOption(ws[1:], 'f') {
			w.a.whole(w.source, "the script loads a builtin from a shared object (enable -f)")
		}
		return
	case "hash":
		if mayHaveOption(ws[1:], 'p') {
			w.a.whole(w.source, "the script binds a command name to a file of its choosing (hash -p)")
		}
		return
	case "unset":
		w.unset(ws[1:])
		return
	case "echo", "printf", "true", "false", "test", "[", "exit", "return",
		"wait", "sleep", "read", "umask", "ulimit", "shopt", ":":
		return
	}
	if w.cx.unknown && strings.ContainsAny(ws[0].text, "/") && !strings.HasPrefix(ws[0].text, "/") {
		w.a.whole(w.source, "the script runs "+ws[0].text+" from a directory set at run time")
		return
	}
	w.a.argv(ws, w.cx)
}

// mayHaveOption reports whether a builtin's words may hold the option
// letter opt (-p, -fp): a word computed at run time may.
func mayHaveOption(ws []word, opt byte) bool {
	for _, o := range ws {
		if !o.lit || strings.HasPrefix(o.text, "-") && strings.IndexByte(o.text, opt) >= 0 {
			return true
		}
	}
	return false
}

// allParams is the script's positional parameters when wd is "$@" (or
// ${@}) alone and they are known: each its own word, as the shell
// passes them. Unquoted, the shell splits and globs each, so they count
// only when that changes nothing.
func (w *shellWalk) allParams(wd *syntax.Word) ([]word, bool) {
	if !w.params.ok || len(wd.Parts) != 1 {
		return nil, false
	}
	part, quoted := wd.Parts[0], false
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 && !dq.Dollar {
		part, quoted = dq.Parts[0], true
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Param.Value != "@" || pe.Excl || pe.Length || pe.Width || pe.Index != nil ||
		pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
		return nil, false
	}
	if !quoted {
		if _, set := w.cx.env["IFS"]; set {
			return nil, false
		}
		for _, p := range w.params.words {
			if !p.lit || p.text == "" || strings.ContainsAny(p.text, " \t\n*?[") {
				return nil, false
			}
		}
	}
	w.params.used = true
	return w.params.words, true
}

// shift drops the first n positional parameters (shift [n]). Where it
// may or may not run, or drops what the model cannot count, they are no
// longer known.
func (w *shellWalk) shift(ops []word) {
	if !w.params.ok {
		return
	}
	n := 1
	if len(ops) > 0 {
		v, err := strconv.Atoi(ops[0].text)
		if !ops[0].lit || err != nil || v < 0 {
			w.params.ok = false
			return
		}
		n = v
	}
	if w.cond > w.paramCond || n > len(w.params.words) || len(ops) > 1 {
		w.params.ok = false
		return
	}
	w.params.words = w.params.words[n:]
}

// set with operands (set -- a b, set a b, set - a) replaces the
// positional parameters; options alone (set -eu, set -o pipefail, set -a)
// keep them.
func (w *shellWalk) set(ops []word) {
	for i := 0; i < len(ops); i++ {
		t := ops[i].text
		switch {
		case !ops[i].lit, t == "--", t == "-":
			w.params.ok = false
			return
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			if strings.ContainsRune(t[1:], 'o') {
				i++ // the option's name
			}
		default:
			w.params.ok = false
			return
		}
	}
}

// trap ACTION SIGNAL…: the shell runs ACTION, a script, when the signal
// comes (EXIT: when the script ends).
func (w *shellWalk) trap(ops []word) {
	for len(ops) > 0 && ops[0].lit && (ops[0].text == "-l" || ops[0].text == "-p" || ops[0].text == "-lp" || ops[0].text == "-pl") {
		ops = ops[1:]
	}
	if len(ops) > 0 && ops[0].lit && ops[0].text == "--" {
		ops = ops[1:]
	}
	if len(ops) < 2 {
		return // a reset (trap SIGNAL) or a listing
	}
	if !ops[0].lit {
		w.a.whole(w.source, "the script sets a trap to run a command computed at run time")
		return
	}
	if ops[0].text == "-" || ops[0].text == "" {
		return
	}
	// It runs in this shell, with the functions declared when the signal
	// comes: followed now, and again once the script has ended (an EXIT
	// trap may call a function declared after it).
	w.traps = append(w.traps, ops[0].text)
	w.trapRun(ops[0].text)
}

// sourced walks the file p into this script (. p, source p): its
// commands change this shell's working directory, variables and
// positional parameters.
func (w *shellWalk) sourced(p string) {
	// Each time: what it does depends on the shell's state then.
	if w.a.fs == nil || !w.a.walk("source", p, w.source) {
		return
	}
	if w.cx.depth > maxDepth {
		w.a.whole(w.source, "scripts nest too deeply to follow")
		return
	}
	data, ok, tooLarge := w.a.readFile(p)
	if tooLarge {
		w.a.whole(w.source, "the script "+p+" is too large to read")
		return
	}
	if !ok {
		return
	}
	f, why := parseScript(string(data), p)
	if why != "" {
		w.a.whole(w.source, why)
		return
	}
	file, fileOrigin := w.file, w.fileOrigin
	w.file, w.fileOrigin = p, w.cx.cwd
	w.cx.depth++
	w.stmts(f.Stmts)
	w.cx.depth--
	w.file, w.fileOrigin = file, fileOrigin
}

// paramRunsDone: a command "$@" starts by its name runs the script's
// function of that name when there is one, with a working directory and
// arguments the model did not follow it with.
func (w *shellWalk) paramRunsDone() {
	for _, r := range w.paramRuns {
		if w.funcs[r.text] != nil {
			w.a.whole(r.source, "the script's arguments start "+Clip(r.text, 40)+", a function the script declares")
			return
		}
	}
}

// literal is the text of a shell word when it is fully known: quotes
// removed, no expansions. Otherwise lit is false and text holds the
// literal parts only. In a script file, the script's own directory
// ($(dirname "$0"), ${0%/*}, and the same of BASH_SOURCE) is known too.
func (w *shellWalk) literal(wd *syntax.Word) (string, bool) {
	var sb strings.Builder
	lit := true
	var parts func([]syntax.WordPart)
	parts = func(ps []syntax.WordPart) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				sb.WriteString(p.Value)
			case *syntax.SglQuoted:
				sb.WriteString(p.Value)
			case *syntax.DblQuoted:
				parts(p.Parts)
			default:
				if d, ok := w.scriptDir(p); ok {
					sb.WriteString(d)
					continue
				}
				lit = false
			}
		}
	}
	parts(wd.Parts)
	text := sb.String()
	if lit {
		// Unquoted backslash escapes and a leading ~ are the shell's.
		if strings.HasPrefix(text, "~") {
			lit = false
		}
	}
	return text, lit
}

// scriptDir recognises the ways a script names its own directory and
// returns that directory as seen from the working directory the script
// was started in.
func (w *shellWalk) scriptDir(p syntax.WordPart) (string, bool) {
	// $0 is the script started, BASH_SOURCE the file being read (one
	// sourced into it), each as it was named where it started.
	dirs := func(name string) (string, bool) {
		f, origin := w.self, w.origin
		if name == "BASH_SOURCE" {
			f, origin = w.file, w.fileOrigin
		}
		if f == "" || strings.HasSuffix(f, "package.json") {
			return "", false
		}
		return relFrom(origin, dirOf(f)), true
	}
	// self names the script's file: "$0", "${BASH_SOURCE[0]}" (or
	// "$BASH_SOURCE"), when its directory is known.
	self := func(wp syntax.WordPart) (string, bool) {
		pe, ok := wp.(*syntax.ParamExp)
		if !ok || pe.Param == nil || pe.Length || pe.Excl || pe.Repl != nil || pe.Slice != nil || pe.Exp != nil {
			return "", false
		}
		switch pe.Param.Value {
		case "0":
			if pe.Index != nil {
				return "", false
			}
		case "BASH_SOURCE":
			// ${BASH_SOURCE[1]} is the file that sourced this one.
			if ix, ok := pe.Index.(*syntax.Word); pe.Index != nil && (!ok || ix.Lit() != "0") {
				return "", false
			}
		default:
			return "", false
		}
		return dirs(pe.Param.Value)
	}
	word := func(wd *syntax.Word) (string, bool) {
		if len(wd.Parts) != 1 {
			return "", false
		}
		part := wd.Parts[0]
		if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			part = dq.Parts[0]
		}
		return self(part)
	}
	switch p := p.(type) {
	case *syntax.ParamExp: // ${0%/*}
		if p.Param != nil && p.Param.Value == "0" && p.Exp != nil && p.Exp.Op == syntax.RemSmallSuffix &&
			p.Exp.Word != nil && p.Exp.Word.Lit() == "/*" {
			return dirs("0")
		}
	case *syntax.CmdSubst: // $(dirname "$0")
		if len(p.Stmts) != 1 {
			return "", false
		}
		call, ok := p.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) < 2 || call.Args[0].Lit() != "dirname" {
			return "", false
		}
		args := call.Args[1:]
		if args[0].Lit() == "--" {
			args = args[1:]
		}
		if len(args) == 1 {
			return word(args[0])
		}
	}
	return "", false
}
