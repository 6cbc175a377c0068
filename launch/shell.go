package launch

import (
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
	if i >= len(args) {
		return
	}
	if cflag {
		if !args[i].lit {
			a.whole(args[i].source, name+" -c runs a script computed at run time")
			return
		}
		a.b.s.Inline = append(a.b.s.Inline, Inline{Program: name, Flag: "-c", Code: args[i].text, Source: args[i].source})
		a.shellScript(args[i].text, "", args[i].source, cx)
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
	a.scriptFile(p, args[i].source, cx)
}

// scriptFile parses a repository shell script and follows what it runs.
func (a *analyzer) scriptFile(p, source string, cx context) {
	if a.fs == nil || a.read["sh:"+p] {
		return
	}
	a.read["sh:"+p] = true
	data, ok, tooLarge := a.readFile(p)
	if tooLarge {
		a.whole(source, "the script "+p+" is too large to read")
		return
	}
	if ok && !isBinary(data) {
		a.shellScript(string(data), p, source, cx)
	}
}

// shellScript parses a POSIX-family script and follows every command in
// it; file is the script's repository path ("" for an inline script). A
// script that does not parse runs nothing in the shell either.
func (a *analyzer) shellScript(src, file, source string, cx context) {
	if cx.depth > maxDepth {
		a.whole(source, "scripts nest too deeply to follow")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return
	}
	w := &shellWalk{a: a, source: source, file: file, cx: cx.with(), origin: cx.cwd}
	w.cx.depth++
	w.stmts(f.Stmts)
}

// shellWalk follows one parsed script; cx is the state commands change
// (cd, export) as the script goes on.
type shellWalk struct {
	a      *analyzer
	source string
	file   string
	cx     context
	// origin is the working directory the script started in ($0 is
	// relative to it).
	origin string
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
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		w.stmt(c.X)
		w.stmt(c.Y)
	case *syntax.CallExpr:
		w.call(c)
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		saved := w.cx
		w.cx = w.cx.with()
		w.stmts(c.Stmts)
		w.cx = saved
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond)
			w.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond)
		w.stmts(c.Do)
	case *syntax.ForClause:
		w.stmts(c.Do)
	case *syntax.CaseClause:
		for _, item := range c.Items {
			w.stmts(item.Stmts)
		}
	case *syntax.FuncDecl:
		w.stmt(c.Body)
	case *syntax.TimeClause:
		w.stmt(c.Stmt)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt)
	case *syntax.DeclClause:
		for _, as := range c.Args {
			w.assign(as, true)
		}
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
	saved := w.cx
	w.cx = w.cx.with()
	w.stmts(list)
	w.cx = saved
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
	ws := make([]word, len(c.Args))
	for i, arg := range c.Args {
		text, lit := w.literal(arg)
		ws[i] = word{text: text, lit: lit, source: w.source}
	}
	if !ws[0].lit {
		w.a.whole(w.source, "the script runs a program named at run time")
		return
	}
	switch name := ws[0].text; name {
	case "cd", "pushd":
		ops := skipOptions(ws[1:])
		if len(ops) == 0 {
			w.cx.unknown = true // cd with no operand: $HOME
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
		if p, ok := w.a.resolve(w.cx, ws[1].text); ok && p != "" {
			w.a.runs(Item{Kind: KindFile, Path: p, Source: w.source, Why: "the script sources it"})
			w.a.scriptFile(p, w.source, w.cx)
		}
		return
	case "eval":
		w.a.whole(w.source, "the script runs eval")
		return
	case "echo", "printf", "true", "false", "test", "[", "set", "shift", "exit", "return", "trap",
		"wait", "sleep", "read", "unset", "umask", "ulimit", "shopt", ":":
		return
	}
	if w.cx.unknown && strings.ContainsAny(ws[0].text, "/") && !strings.HasPrefix(ws[0].text, "/") {
		w.a.whole(w.source, "the script runs "+ws[0].text+" from a directory set at run time")
		return
	}
	w.a.argv(ws, w.cx)
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
	if w.file == "" || strings.HasSuffix(w.file, "package.json") {
		return "", false
	}
	self := func(wp syntax.WordPart) bool {
		pe, ok := wp.(*syntax.ParamExp)
		if !ok || pe.Param == nil || pe.Length || pe.Excl || pe.Repl != nil || pe.Slice != nil {
			return false
		}
		switch pe.Param.Value {
		case "0":
			return pe.Exp == nil && pe.Index == nil
		case "BASH_SOURCE":
			return pe.Exp == nil
		}
		return false
	}
	word := func(wd *syntax.Word) bool {
		for _, part := range wd.Parts {
			if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 && self(dq.Parts[0]) {
				continue
			}
			if !self(part) {
				return false
			}
		}
		return len(wd.Parts) == 1
	}
	dir := relFrom(w.origin, dirOf(w.file))
	switch p := p.(type) {
	case *syntax.ParamExp: // ${0%/*}
		if p.Param != nil && p.Param.Value == "0" && p.Exp != nil && p.Exp.Op == syntax.RemSmallSuffix &&
			p.Exp.Word != nil && p.Exp.Word.Lit() == "/*" {
			return dir, true
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
		if len(args) == 1 && word(args[0]) {
			return dir, true
		}
	}
	return "", false
}
