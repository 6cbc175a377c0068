package launch

import (
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds what a shell carries from one command to the next
// beyond its directory and variables: its functions (a function's body
// runs where it is called, in the caller's shell), its subshells (what
// they change ends with them), its loops (a turn starts where the one
// before left the shell), its traps, and the file bash sources before a
// script (BASH_ENV).

// shellRun says how a shell runs a script: startup is the repository
// file bash sources into it first (BASH_ENV), callAll that the functions
// it declares may be called by commands the model does not see (the file
// BASH_ENV names, for a bash the model does not see start).
type shellRun struct {
	startup string
	callAll bool
}

// key is what the run adds to a script's runKey.
func (r shellRun) key() string {
	if r.startup == "" && !r.callAll {
		return ""
	}
	k := "\x00bash:" + r.startup
	if r.callAll {
		k += "\x00all"
	}
	return k
}

// readsBashEnv reports whether the shell name, started with the options
// opts, reads BASH_ENV: bash and rbash when not interactive (-i reads
// ~/.bashrc instead). bash in POSIX mode or invoked as sh reads none,
// which counts for nothing here: reading it is the sound side.
func readsBashEnv(name string, opts []word) bool {
	if name != "bash" && name != "rbash" {
		return false
	}
	for _, o := range opts {
		if t := o.text; len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsRune(t[1:], 'i') {
			return false
		}
	}
	return true
}

// startupFile is the repository file a shell started in cx sources
// first for the variable name (BASH_ENV, ENV) of the value v: "" for
// none, or one outside the repository. The shell expands the value
// (parameters, command substitution, which runs a command) before
// reading it, so a value with an expansion binds the repository.
func (a *analyzer) startupFile(name, v string, cx context, source string) string {
	if v == "" {
		return ""
	}
	if strings.ContainsAny(v, "$`") {
		a.whole(source, name+" holds an expansion the shell makes at run time, and the shell sources the file it names")
		return ""
	}
	if cx.unknown && !strings.HasPrefix(v, "/") {
		a.whole(source, "the shell sources "+name+"'s file from a directory known only at run time")
		return ""
	}
	p, ok := a.resolve(cx, v)
	if !ok || p == "" {
		return ""
	}
	return p
}

// shellFunc is what a name of the function table may run: each body it
// may hold (more than one when a declaration in a branch or a loop may
// or may not have replaced another), and whether it may be no function
// at all (declared or unset only where that may not happen), when the
// builtin or program of that name runs instead.
type shellFunc struct {
	defs []*funcDef
	none bool
}

// funcDef is one declaration of a function: its body, the file it is
// in (BASH_SOURCE while it runs) and the directory that file was read
// from, and the ways (runKey) its body was followed in.
type funcDef struct {
	decl             *syntax.FuncDecl
	file, fileOrigin string
	ways             map[string]bool
}

// specialBuiltins are POSIX's special builtins, which sh (dash, bash in
// POSIX mode) finds before a function of the same name.
var specialBuiltins = map[string]bool{
	"break": true, ":": true, ".": true, "continue": true, "eval": true, "exec": true, "exit": true,
	"export": true, "readonly": true, "return": true, "set": true, "shift": true, "times": true,
	"trap": true, "unset": true,
}

// shellCalled are functions the shell calls on its own: bash's for a
// command not found, zsh's too and its hooks; zsh's TRAPEXIT and the
// other TRAPNAL functions are tested apart.
var shellCalled = map[string]bool{
	"command_not_found_handle": true, "command_not_found_handler": true,
	"precmd": true, "preexec": true, "chpwd": true, "periodic": true, "zshexit": true, "zshaddhistory": true,
}

// declare enters a function into the table. Declared where it may not
// happen, it joins what the name held before.
func (w *shellWalk) declare(c *syntax.FuncDecl) {
	if c.Name == nil || c.Body == nil {
		return
	}
	name := c.Name.Value
	if shellCalled[name] || isZshTrap(name) {
		w.a.whole(w.source, "the script declares "+Clip(name, 40)+", a function the shell calls on its own")
	}
	old := w.funcs[name]
	if w.cond > 0 && old != nil {
		for _, d := range old.defs {
			if d.decl == c && d.file == w.file {
				return // declared again by a loop's next turn
			}
		}
	}
	fn := &shellFunc{defs: []*funcDef{{decl: c, file: w.file, fileOrigin: w.fileOrigin, ways: map[string]bool{}}}}
	if w.cond > 0 {
		if old != nil {
			fn.defs = append(append([]*funcDef(nil), old.defs...), fn.defs...)
			fn.none = old.none
		} else {
			fn.none = true
		}
	}
	w.funcs[name] = fn
	w.funcGen++
}

// isZshTrap matches zsh's trap functions: TRAP and a signal's name.
func isZshTrap(name string) bool {
	rest, ok := strings.CutPrefix(name, "TRAP")
	return ok && rest != "" && strings.Trim(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == ""
}

// unset -f NAME removes a function; unset NAME (no -v) removes the
// variable, or the function when there is no variable of that name.
func (w *shellWalk) unset(ops []word) {
	vars, onlyFuncs := true, false
	for len(ops) > 0 && strings.HasPrefix(ops[0].text, "-") {
		if ops[0].text == "--" {
			ops = ops[1:]
			break
		}
		vars = vars && !strings.Contains(ops[0].text, "v")
		onlyFuncs = onlyFuncs || strings.Contains(ops[0].text, "f")
		ops = ops[1:]
	}
	if !vars {
		return
	}
	for _, o := range ops {
		fn := w.funcs[o.text]
		if fn == nil {
			continue
		}
		if onlyFuncs && w.cond == 0 {
			delete(w.funcs, o.text)
		} else {
			// Where it may not happen, or may unset a variable instead,
			// the function may still be there.
			w.funcs[o.text] = &shellFunc{defs: fn.defs, none: true}
		}
		w.funcGen++
	}
}

// decl walks export, declare, local, readonly, typeset: its assignments,
// and a function of that name, which bash runs in its place. A function
// handed to child processes (export -f, declare -fx) runs in place of a
// command in any bash they start, which the model does not follow.
func (w *shellWalk) decl(c *syntax.DeclClause) {
	variant := c.Variant.Value
	if fn := w.funcs[variant]; fn != nil {
		w.callFunc(variant, fn, nil, false)
	}
	var f, x bool
	for _, as := range c.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			t, lit := w.literal(as.Value)
			if !lit || strings.HasPrefix(t, "-") && strings.Contains(t, "n") {
				// -n makes a name a reference to another variable
				// (NODE_OPTIONS, PATH), set through it.
				w.a.whole(w.source, "the script declares a name reference (declare -n), which sets another variable")
				return
			}
			if strings.HasPrefix(t, "-") {
				f = f || strings.Contains(t, "f")
				x = x || strings.Contains(t, "x")
			}
		}
	}
	if f && (x || variant == "export") {
		w.a.whole(w.source, "the script exports a function, which runs in place of a command in the shells it starts")
		return
	}
	if f {
		return // declare -f NAME prints the function
	}
	for _, as := range c.Args {
		w.assign(as, true)
	}
}

// callFunc runs each body the function name may hold, with args as its
// "$@" (known false: arguments the model does not know).
func (w *shellWalk) callFunc(name string, fn *shellFunc, args []word, known bool) {
	for _, d := range fn.defs {
		w.runFunc(name, d, args, known)
	}
}

// runFunc follows one body of a function called with args: in this
// shell and its state now (what the body changes holds after it), "$@"
// its arguments, BASH_SOURCE its own file. Each way it is followed in
// (the working directory, PATH, BASH_ENV, and the arguments when the body
// took "$@" from them) counts: past maxWalks the repository is bound.
// A call in a way already followed is followed again, for what it
// changes, without counting: the walk's budget of steps bounds those.
func (w *shellWalk) runFunc(name string, d *funcDef, args []word, known bool) {
	if w.cx.depth > maxDepth {
		w.a.whole(w.source, "functions call each other too deeply to follow")
		return
	}
	params := knownParams(args)
	if !known {
		params = &positional{}
	}
	bare, full := runKey(w.cx, nil)+w.cx.env["BASH_ENV"], runKey(w.cx, params.known())+w.cx.env["BASH_ENV"]
	if !d.ways[bare] && !d.ways[full] && len(d.ways) >= maxWalks {
		w.a.whole(w.source, "the function "+Clip(name, 40)+" is called too many times, in too many ways, to follow")
		return
	}
	saved, paramCond, file, fileOrigin := w.params, w.paramCond, w.file, w.fileOrigin
	w.params, w.paramCond = params, w.cond
	w.file, w.fileOrigin = d.file, d.fileOrigin
	w.cx.depth++
	w.stmt(d.decl.Body)
	w.cx.depth--
	w.params, w.paramCond, w.file, w.fileOrigin = saved, paramCond, file, fileOrigin
	if params.used {
		d.ways[full] = true
	} else {
		d.ways[bare] = true
	}
}

// subshell walks in a subshell: the directory, variables and functions
// it changes end with it, and what it does may or may not happen.
func (w *shellWalk) subshell(walk func()) {
	cx, funcs, gen := w.cx, w.funcs, w.funcGen
	w.cx = w.cx.with()
	w.funcs = maps.Clone(funcs)
	w.cond++
	walk()
	w.cond--
	w.cx, w.funcs, w.funcGen = cx, funcs, gen
}

// shellState is what a loop's turn may leave changed for the next one.
type shellState struct {
	cwd      string
	unknown  bool
	env      map[string]string
	funcGen  int
	params   *positional
	paramsOK bool
	nparams  int
}

func (w *shellWalk) state() shellState {
	return shellState{cwd: w.cx.cwd, unknown: w.cx.unknown, env: maps.Clone(w.cx.env), funcGen: w.funcGen,
		params: w.params, paramsOK: w.params.ok, nparams: len(w.params.words)}
}

func (s shellState) same(t shellState) bool {
	return s.cwd == t.cwd && s.unknown == t.unknown && s.funcGen == t.funcGen && s.params == t.params &&
		s.paramsOK == t.paramsOK && s.nparams == t.nparams && maps.Equal(s.env, t.env)
}

// maxTurns is how many turns of a loop are followed while each leaves
// the shell other than it found it.
const maxTurns = 4

// loop follows a loop's turns: each starts where the one before left
// the shell (its directory, variables, functions, positional
// parameters), so a turn is followed again until one leaves the shell as
// it found it. A directory still moving after two turns is unknown from
// then on; a loop still changing after maxTurns binds the repository.
func (w *shellWalk) loop(turn func()) {
	w.cond++
	defer func() { w.cond-- }()
	for n := 1; ; n++ {
		before := w.state()
		turn()
		after := w.state()
		if after.same(before) {
			return
		}
		if n >= 2 && (after.cwd != before.cwd || after.unknown != before.unknown) && !w.cx.unknown {
			w.cx.unknown = true // it moves on each turn
		}
		if n == maxTurns {
			w.a.whole(w.source, "a loop changes the shell on every turn")
			return
		}
	}
}

// trapRun follows a trap's command in this shell (a copy of its state:
// when it runs is not known).
func (w *shellWalk) trapRun(cmd string) {
	if w.cx.depth > maxDepth {
		w.a.whole(w.source, "scripts nest too deeply to follow")
		return
	}
	f, err := parseShell(cmd)
	if err != nil {
		w.a.whole(w.source, "a trap's command does not parse as a shell script")
		return
	}
	w.subshell(func() {
		w.cx.depth++
		w.stmts(f.Stmts)
	})
}

// trapsDone follows the traps set again at the script's end, with the
// functions declared by then (an EXIT trap runs there).
func (w *shellWalk) trapsDone() {
	traps := w.traps
	w.traps = nil
	for _, t := range traps {
		w.trapRun(t)
	}
}

// callAll follows every function declared, as a command the model does
// not see may call it, with arguments it does not know.
func (w *shellWalk) callAll() {
	for _, name := range slices.Sorted(maps.Keys(w.funcs)) {
		w.subshell(func() { w.callFunc(name, w.funcs[name], nil, false) })
	}
}

// shellAlt is one way a branching command may go: its statements, from
// the shell as start says.
type shellAlt struct {
	start context
	stmts []*syntax.Stmt
}

// branches follows each of alts from its own start, never one after
// another (`if a; then cd sub; else node server.js; fi` runs server.js
// where the script was, not in sub), then goes on from every way the
// shell may have come out: each branch that does not end the shell (exit,
// exec of a program), and, when skip, the shell as it was (no branch
// taken).
// (return is not one: the function or sourced file ends, and its caller
// goes on from there.) Where those ways disagree on the directory it is
// unknown from then on;
// where they disagree on a variable that decides what runs (PATH,
// NODE_OPTIONS, …) the repository is bound.
func (w *shellWalk) branches(skip bool, alts []shellAlt) {
	var ends []context
	if skip {
		ends = append(ends, w.cx.with())
	}
	for _, alt := range alts {
		w.cx = alt.start.with()
		w.stmts(alt.stmts)
		if !w.endsShell(alt.stmts) {
			ends = append(ends, w.cx)
		}
	}
	if len(ends) == 0 {
		// Every way ends the shell: nothing after runs, but what follows
		// is still walked (an exit the model misreads runs it).
		return
	}
	joined := ends[0].with()
	for _, e := range ends[1:] {
		if e.cwd != joined.cwd || e.unknown != joined.unknown {
			joined.unknown = true
		}
		for _, k := range unionKeys(joined.env, e.env) {
			v1, ok1 := joined.env[k]
			v2, ok2 := e.env[k]
			if v1 == v2 && ok1 == ok2 {
				continue
			}
			if execVars[k] {
				w.a.whole(w.source, "the script sets "+k+" in one branch and not the same in another")
			}
			if !ok1 {
				joined.env[k] = v2 // either value: the model reads only execVars
			}
		}
	}
	w.cx = joined
}

// unionKeys are the keys of a and b.
func unionKeys(a, b map[string]string) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// endsShell reports whether a list's last statement ends the shell
// whatever happens: exit, or exec of a program, unless a function of
// that name was declared (bash runs it in place of the builtin).
func (w *shellWalk) endsShell(list []*syntax.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	st := list[len(list)-1]
	if st.Background || st.Coprocess || st.Negated {
		return false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	name := call.Args[0].Lit()
	if _, declared := w.funcs[name]; declared {
		return false
	}
	switch name {
	case "exit":
		return true
	case "exec":
		return len(call.Args) > 1 // exec with no program only redirects
	}
	return false
}
