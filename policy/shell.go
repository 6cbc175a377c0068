package policy

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf16"

	"mvdan.cc/sh/v3/syntax"
)

// posixShell handles sh, bash, zsh and their kin: with -c the first operand
// is an inline script (MG202), parsed and analysed like the command line
// itself; without it the operand is a script file (MG105).
func (a *analyzer) posixShell(name string, cmd word, args []word, depth int) {
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
			switch {
			case name == "fish" && t == "--command":
				cflag = true
			case name == "fish" && strings.HasPrefix(t, "--command="):
				a.inlineScript(name, word{text: strings.TrimPrefix(t, "--command="), lit: args[i].lit, at: args[i].at}, depth)
				return
			case t == "--rcfile" || t == "--init-file" || t == "--init-command":
				i++
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			if t[0] == '-' && strings.ContainsRune(t[1:], 'c') {
				cflag = true
			}
			if strings.ContainsAny(t[1:], "oOC") {
				i++ // -o option, -O shopt, fish -C command
			}
		default:
			break loop
		}
	}
	if i >= len(args) {
		return
	}
	if !cflag {
		return // a script file: the launch model's (MG105)
	}
	a.inlineScript(name, args[i], depth)
	// sh -c 'exec "$@"' sh CMD ARGS: the script runs its positional
	// parameters, which follow $0.
	if args[i].lit && strings.Contains(args[i].text, "$@") && i+2 < len(args) {
		a.argv(args[i+2:], depth+1)
	}
}

// inlineScript reports a shell running a script given on its command line
// and analyses the script.
func (a *analyzer) inlineScript(shell string, script word, depth int) {
	if depth == 0 {
		a.add("MG202", script.at, "%s runs an inline script: %s", shell, quote(script.text))
	}
	if script.lit {
		a.posixScript(script.text, shell, script.at, depth+1)
	}
}

// posixScript parses a POSIX-family shell script and analyses every
// command in it. A script that does not parse runs nothing in the shell
// either (it fails with a syntax error), so nothing is reported from it.
func (a *analyzer) posixScript(src, shell string, at, depth int) {
	if depth > maxDepth || len(src) > maxScript || !a.spend() {
		return
	}
	lang := syntax.LangBash
	switch posixShells[shell] {
	case "zsh":
		lang = syntax.LangZsh
	case "mksh":
		lang = syntax.LangMirBSDKorn
	}
	f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(src), "")
	if err != nil && lang != syntax.LangBash {
		f, err = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	}
	if err != nil {
		return
	}
	if clean := a.obfuscatedIFS(src, at); clean != src {
		a.posixScript(clean, shell, at, depth)
		return
	}
	s := &scriptScan{a: a, src: src, at: at, depth: depth, files: map[string]bool{}}
	s.stmts(f.Stmts)
}

// scriptScan walks one parsed script.
type scriptScan struct {
	a     *analyzer
	src   string
	at    int
	depth int
	// files are the paths downloaded to so far (curl -o f, wget URL).
	files map[string]bool
	// subst is how deep in command and process substitutions the scan is.
	subst int
	// netFD is set once the script opens a /dev/tcp or /dev/udp descriptor
	// (exec 5<>/dev/tcp/host/port), for MG207.
	netFD bool
}

func (s *scriptScan) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		s.stmt(st)
	}
}

func (s *scriptScan) stmt(st *syntax.Stmt) {
	if st == nil || !s.a.spend() {
		return
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			stages := flattenPipe(st, nil)
			s.pipeline(st, stages)
			s.scriptExecPipeline(st, stages)
			for _, stage := range stages {
				s.stmt(stage)
			}
			return
		}
		s.stmt(c.X)
		s.stmt(c.Y)
	case *syntax.CallExpr:
		s.call(st, c)
	case *syntax.Block:
		s.stmts(c.Stmts)
	case *syntax.Subshell:
		s.stmts(c.Stmts)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			s.stmts(ic.Cond)
			s.stmts(ic.Then)
		}
	case *syntax.WhileClause:
		s.stmts(c.Cond)
		s.stmts(c.Do)
	case *syntax.ForClause:
		s.stmts(c.Do)
	case *syntax.CaseClause:
		for _, item := range c.Items {
			s.stmts(item.Stmts)
		}
	case *syntax.FuncDecl:
		s.stmt(c.Body)
	case *syntax.TimeClause:
		s.stmt(c.Stmt)
	case *syntax.CoprocClause:
		s.stmt(c.Stmt)
	case *syntax.DeclClause:
		for _, as := range c.Args {
			s.assign(as)
		}
	}
}

// flattenPipe lists the stages of a pipeline in order.
func flattenPipe(st *syntax.Stmt, out []*syntax.Stmt) []*syntax.Stmt {
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(st.Redirs) == 0 && !st.Negated {
		out = flattenPipe(b.X, out)
		return flattenPipe(b.Y, out)
	}
	return append(out, st)
}

// snippet is the source text of a node, for messages.
func (s *scriptScan) snippet(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(s.src) || start > end {
		return ""
	}
	return s.src[start:end]
}

// pipeline reports a download piped into an interpreter (MG201), and
// records the files a download is written to further down the pipe
// (`curl … | tee f`, `curl … | gunzip > f`), for a later command that
// runs one.
func (s *scriptScan) pipeline(whole *syntax.Stmt, stages []*syntax.Stmt) {
	downloaded := ""
	for _, st := range stages {
		prog := s.program(st)
		if downloaded != "" && isInterpreter(prog) {
			s.a.add("MG201", s.at, "%s pipes a download (%s) into %s", quote(s.snippet(whole)), downloaded, prog)
			return
		}
		if downloaded != "" {
			s.redirectTargets(st)
			if c, ok := st.Cmd.(*syntax.CallExpr); ok && prog == "tee" {
				for _, w := range skipOptions(stripWrappers(callWords(c.Args, 0))[1:]) {
					if w.lit && w.text != "" {
						s.files[cleanRel(w.text)] = true
					}
				}
			}
		}
		if downloaded == "" {
			downloaded = s.downloaderIn(st)
		}
	}
	if downloaded != "" {
		s.redirectTargets(whole)
	}
}

// redirectTargets records the files a statement's output is redirected
// to (> f, >> f, >| f, &> f) as downloaded.
func (s *scriptScan) redirectTargets(st *syntax.Stmt) {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
			if r.Word == nil || (r.N != nil && r.N.Value != "1") {
				continue
			}
			if t, lit := wordText(r.Word); lit && t != "" && t != "/dev/null" {
				s.files[cleanRel(t)] = true
			}
		}
	}
}

// program is the program a statement runs, after wrappers; "" when it is
// not a simple command with a literal name.
func (s *scriptScan) program(st *syntax.Stmt) string {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	ws := stripWrappers(callWords(c.Args, 0))
	if len(ws) == 0 || !ws[0].lit {
		return ""
	}
	return progName(ws[0].text)
}

// downloaderIn names the first downloader a subtree runs, "" if none.
func (s *scriptScan) downloaderIn(n syntax.Node) string {
	found := ""
	syntax.Walk(n, func(n syntax.Node) bool {
		if found != "" || !s.a.spend() {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			ws := stripWrappers(callWords(c.Args, 0))
			if len(ws) > 0 && ws[0].lit && isDownloader(progName(ws[0].text)) {
				found = progName(ws[0].text)
			}
		}
		return true
	})
	return found
}

// substDownload names the downloader run inside a command or process
// substitution of a word, "" if none.
func (s *scriptScan) substDownload(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	found := ""
	syntax.Walk(w, func(n syntax.Node) bool {
		if found != "" || !s.a.spend() {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst:
			for _, st := range n.Stmts {
				if d := s.downloaderIn(st); d != "" {
					found = d
				}
			}
			return false
		case *syntax.ProcSubst:
			for _, st := range n.Stmts {
				if d := s.downloaderIn(st); d != "" {
					found = d
				}
			}
			return false
		}
		return true
	})
	return found
}

func (s *scriptScan) call(st *syntax.Stmt, c *syntax.CallExpr) {
	for _, as := range c.Assigns {
		s.assign(as)
	}
	if len(c.Args) == 0 {
		return
	}
	ws := callWords(c.Args, s.at)
	un := stripWrappers(ws)
	prog := ""
	if len(un) > 0 && un[0].lit {
		prog = progName(un[0].text)
	}
	snip := quote(s.snippet(st))
	s.scriptExecCall(st, c, prog)
	// The downloaded text itself as the command: $(curl …).
	if d := s.substDownload(c.Args[0]); d != "" {
		s.a.add("MG201", s.at, "%s runs the output of %s as a command", snip, d)
	}
	if isInterpreter(prog) {
		for _, w := range c.Args[1:] {
			if d := s.substDownload(w); d != "" {
				s.a.add("MG201", s.at, "%s hands a download (%s) to %s", snip, d, prog)
				break
			}
		}
		for _, r := range st.Redirs {
			var d string
			switch r.Op {
			case syntax.WordHdoc, syntax.RdrIn:
				d = s.substDownload(r.Word)
			case syntax.Hdoc, syntax.DashHdoc:
				d = s.substDownload(r.Hdoc)
			}
			if d != "" {
				s.a.add("MG201", s.at, "%s feeds a download (%s) to %s", snip, d, prog)
				break
			}
		}
	}
	// A file downloaded earlier in the script, now run: as the command, or
	// as the script an interpreter runs (its first operand).
	ranDownload := false
	if len(un) > 0 && un[0].lit && s.files[cleanRel(un[0].text)] {
		ranDownload = true
	} else if isInterpreter(prog) {
		if ops := skipOptions(un[1:]); len(ops) > 0 && ops[0].lit && s.files[cleanRel(ops[0].text)] {
			un = ops
			ranDownload = true
		}
	}
	if ranDownload {
		s.a.add("MG201", s.at, "%s runs %s, downloaded earlier in the script", snip, quote(un[0].text))
	}
	if isDownloader(prog) {
		for _, f := range downloadTargets(prog, un[1:]) {
			s.files[cleanRel(f)] = true
		}
		s.redirectTargets(st)
	}
	if !ranDownload {
		s.a.argv(ws, s.depth)
	}
	// Commands inside substitutions run too.
	if s.subst >= maxDepth {
		return
	}
	s.subst++
	defer func() { s.subst-- }()
	for _, w := range c.Args {
		syntax.Walk(w, func(n syntax.Node) bool {
			if !s.a.spend() {
				return false
			}
			switch n := n.(type) {
			case *syntax.CmdSubst:
				s.stmts(n.Stmts)
				return false
			case *syntax.ProcSubst:
				s.stmts(n.Stmts)
				return false
			}
			return true
		})
	}
}

// assign reports `NAME=value cmd` and `export NAME=value` of variables that
// change what code runs.
func (s *scriptScan) assign(as *syntax.Assign) {
	if as == nil || as.Name == nil {
		return
	}
	v := ""
	if as.Value != nil {
		v, _ = wordText(as.Value)
	}
	if sev, why, drop := envGrade(as.Name.Value, v); !drop {
		s.a.add("MG101", s.at, "the script sets %s=%s: %s", as.Name.Value, quote(v), why)
		s.a.hits[len(s.a.hits)-1].sev = sev
	}
}

// cleanRel normalises a relative path for comparison: "./x" and "x" are
// the same file.
func cleanRel(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// downloadTargets lists the files a downloader writes (curl -o f, curl -O
// URL, wget URL, wget -O f); "-" (stdout) is not a file.
func downloadTargets(prog string, args []word) []string {
	wget := prog == "wget" || prog == "wget2"
	// The option letter that names the output file, and whether the file
	// is named after the URL unless one is given.
	outLetter, remoteName := byte('o'), wget || prog == "aria2c"
	if wget {
		outLetter = 'O'
	}
	var out, urls []string
	setOutput := func(f string) {
		if f != "" && f != "-" {
			out = append(out, f)
		}
		remoteName = false
	}
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--output" || t == "--output-document":
			if i+1 < len(args) {
				i++
				setOutput(args[i].text)
			}
		case strings.HasPrefix(t, "--output=") || strings.HasPrefix(t, "--output-document="):
			_, f, _ := strings.Cut(t, "=")
			setOutput(f)
		case t == "--remote-name" && prog == "curl":
			remoteName = true
		case len(t) > 1 && t[0] == '-' && t[1] != '-':
			// Combined short options: -fsSLo FILE, -oFILE, -qO-, -sSLO.
			if j := strings.IndexByte(t, outLetter); j > 0 {
				if f := t[j+1:]; f != "" {
					setOutput(f)
				} else if i+1 < len(args) {
					i++
					setOutput(args[i].text)
				}
			} else if prog == "curl" && strings.IndexByte(t, 'O') > 0 {
				remoteName = true
			}
		case strings.Contains(t, "://"):
			urls = append(urls, t)
		}
	}
	if remoteName {
		for _, u := range urls {
			u, _, _ = strings.Cut(u, "?")
			if i := strings.LastIndexByte(u, '/'); i >= 0 && i+1 < len(u) {
				out = append(out, u[i+1:])
			}
		}
	}
	return out
}

// callWords converts a command's words; at is what they report.
func callWords(args []*syntax.Word, at int) []word {
	ws := make([]word, len(args))
	for i, w := range args {
		t, lit := wordText(w)
		ws[i] = word{text: t, lit: lit, at: at}
	}
	return ws
}

// wordText is a word after quote removal; lit is false when it holds an
// expansion whose value is unknown (its text then has the literal parts).
func wordText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	lit := true
	for _, p := range w.Parts {
		lit = partText(&b, p, false) && lit
	}
	return b.String(), lit
}

func partText(b *strings.Builder, p syntax.WordPart, quoted bool) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, quoted))
		return true
	case *syntax.SglQuoted:
		if p.Dollar && strings.Contains(p.Value, `\`) {
			// $'…': bash decodes the escapes before the word is used.
			v, ok := ansiC(p.Value)
			b.WriteString(v)
			return ok
		}
		b.WriteString(p.Value)
		return true
	case *syntax.DblQuoted:
		lit := true
		for _, q := range p.Parts {
			lit = partText(b, q, true) && lit
		}
		return lit
	}
	return false
}

// ansiCEscapes are the one-letter escapes of $'…'.
var ansiCEscapes = map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'n': '\n', 'r': '\r', 't': '\t', 'v': 11,
	'\\': '\\', '\'': '\'', '"': '"', '?': '?'}

// ansiC decodes the escapes of a $'…' word as bash does; ok is false for
// one it does not know (the word is then not taken as literal).
func ansiC(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		c := s[i]
		if e, ok := ansiCEscapes[c]; ok {
			b.WriteByte(e)
			continue
		}
		switch c {
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j-i-1 < max && hexDigit(s[j]) {
				j++
			}
			if j == i+1 {
				return b.String(), false
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			return b.String(), false
		}
	}
	return b.String(), true
}

// unescape removes the backslashes a shell removes: any escaped character
// outside quotes, only \$ \` \" \\ and \newline inside double quotes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
			i++
		case !quoted || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
			i++
		default:
			b.WriteByte('\\')
		}
	}
	return b.String()
}

// cmdShell handles `cmd /c LINE` and `cmd /k LINE`: the rest of the
// arguments is a cmd.exe command line.
func (a *analyzer) cmdShell(cmd word, args []word, depth int) {
	for i := 0; i < len(args); i++ {
		t := strings.ToLower(args[i].text)
		if strings.HasPrefix(t, "/c") || strings.HasPrefix(t, "/k") || strings.HasPrefix(t, "/r") {
			rest := args[i+1:]
			line := joinWords(rest)
			if len(t) > 2 { // "/cnpx": cmd accepts the command glued to the switch
				line = strings.TrimSpace(args[i].text[2:] + " " + line)
			}
			at := args[i].at
			if len(rest) > 0 {
				at = rest[0].at
			}
			if depth == 0 && !plainCmdLine(line) {
				a.add("MG202", at, "cmd %s runs an inline command line: %s", args[i].text[:2], quote(line))
			}
			a.cmdLine(line, at, depth+1)
			return
		}
		if !strings.HasPrefix(t, "/") {
			return
		}
	}
}

// cmdLine analyses a cmd.exe command line: commands separated by &, &&,
// || and pipes, words split on blanks outside double quotes, ^ escaping.
func (a *analyzer) cmdLine(line string, at, depth int) {
	if depth > maxDepth || len(line) > maxScript || !a.spend() {
		return
	}
	var (
		stmts    [][][]word // statements → pipeline stages → words
		stages   [][]word
		words    []word
		cur      strings.Builder
		inWord   bool
		inQuote  bool
		redirect bool
	)
	endWord := func() {
		if inWord {
			if !redirect {
				words = append(words, word{text: cur.String(), lit: true, at: at})
			}
			redirect = false
		}
		cur.Reset()
		inWord = false
	}
	endStage := func() {
		endWord()
		if len(words) > 0 {
			stages = append(stages, words)
		}
		words = nil
	}
	endStmt := func() {
		endStage()
		if len(stages) > 0 {
			stmts = append(stmts, stages)
		}
		stages = nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"':
			inQuote = !inQuote
			inWord = true
		case inQuote:
			cur.WriteByte(c)
		case c == '^' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '(' || c == ')':
			endWord()
		case c == '|' && i+1 < len(line) && line[i+1] == '|', c == '&':
			if i+1 < len(line) && line[i+1] == c {
				i++
			}
			endStmt()
		case c == '|':
			endStage()
		case c == '<' || c == '>':
			endWord()
			redirect = true
			for i+1 < len(line) && (line[i+1] == '>' || line[i+1] == '&') {
				i++
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	endStmt()
	for _, st := range stmts {
		a.wordPipeline(st, line, at)
		for _, stage := range st {
			a.argv(stage, depth)
		}
	}
}

// wordPipeline reports a download piped into an interpreter in a pipeline
// given as word lists (cmd.exe).
func (a *analyzer) wordPipeline(stages [][]word, line string, at int) {
	downloaded := ""
	for _, ws := range stages {
		un := stripWrappers(ws)
		if len(un) == 0 {
			continue
		}
		prog := progName(un[0].text)
		if downloaded != "" && isInterpreter(prog) {
			a.add("MG201", at, "%s pipes a download (%s) into %s", quote(line), downloaded, prog)
			return
		}
		if downloaded == "" && isDownloader(prog) {
			downloaded = prog
		}
	}
}

// wsl handles `wsl [options] -e CMD…` (an argv) and `wsl [options] LINE…`
// (a line for the distribution's shell).
func (a *analyzer) wsl(args []word, depth int) {
	for i := 0; i < len(args); i++ {
		switch t := args[i].text; {
		case t == "-d" || t == "--distribution" || t == "-u" || t == "--user" || t == "--cd" || t == "--shell-type":
			i++
		case t == "-e" || t == "--exec":
			a.argv(args[i+1:], depth+1)
			return
		case t == "--":
			if i+1 < len(args) {
				a.posixScript(joinWords(args[i+1:]), "bash", args[i+1].at, depth+1)
			}
			return
		case strings.HasPrefix(t, "-"):
		default:
			a.posixScript(joinWords(args[i:]), "bash", args[i].at, depth+1)
			return
		}
	}
}

// powerShell handles powershell and pwsh: -Command (the rest is a script),
// -EncodedCommand (a base64 UTF-16LE script, decoded and analysed), -File.
// Parameter names may be abbreviated, as PowerShell allows.
func (a *analyzer) powerShell(name string, cmd word, args []word, depth int) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "/") {
			if name == "pwsh" { // pwsh's default parameter is -File (the launch model's)
				return
			}
			a.psCommand(name, args[i:], depth)
			return
		}
		opt := strings.ToLower(strings.TrimLeft(t, "-/"))
		opt, _, _ = strings.Cut(opt, ":")
		switch {
		case opt == "c" || (len(opt) >= 3 && strings.HasPrefix("command", opt)):
			a.psCommand(name, args[i+1:], depth)
			return
		case opt == "ec" || (opt != "" && strings.HasPrefix("encodedcommand", opt)):
			if i+1 < len(args) {
				a.psEncoded(name, args[i+1], depth)
			}
			return
		case opt == "f" || (len(opt) >= 2 && strings.HasPrefix("file", opt)):
			return // -File: the launch model's (MG105)
		case psValueParam(opt):
			i++
		}
	}
}

// psValueParam reports PowerShell parameters that take a value.
func psValueParam(opt string) bool {
	switch opt {
	case "ep", "ex", "w", "o", "of", "if", "wd", "v", "config":
		return true
	}
	for _, p := range []string{"executionpolicy", "windowstyle", "inputformat", "outputformat", "configurationname",
		"workingdirectory", "version", "settingsfile", "custompipename", "psconsolefile", "encodedarguments"} {
		if len(opt) >= 3 && strings.HasPrefix(p, opt) {
			return true
		}
	}
	return false
}

func (a *analyzer) psCommand(name string, ws []word, depth int) {
	if len(ws) == 0 {
		return
	}
	script := joinWords(ws)
	if depth == 0 {
		a.add("MG202", ws[0].at, "%s runs an inline script: %s", name, quote(script))
	}
	a.psScript(script, ws[0].at, depth+1)
}

func (a *analyzer) psEncoded(name string, w word, depth int) {
	decoded, ok := decodePSEncoded(w.text)
	if !ok {
		if depth == 0 {
			a.add("MG202", w.at, "%s runs an encoded command that does not decode: %s", name, quote(w.text))
		}
		return
	}
	if depth == 0 {
		a.add("MG202", w.at, "%s runs an encoded (base64) script, hidden from review: %s", name, quote(decoded))
	}
	a.psScript(decoded, w.at, depth+1)
}

// decodePSEncoded decodes -EncodedCommand's base64 of UTF-16LE text.
func decodePSEncoded(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}
