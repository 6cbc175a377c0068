package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
	"github.com/mcp-guard/mcp-guard/launch"
)

// This file holds the command-execution rules (MG206-MG210) and the one
// mechanism that unwraps programs running a command given in their
// arguments (find -exec, xargs, awk system(), ssh ProxyCommand, git -c):
// launch.NestedCommands says where the nested command is (the launch model
// follows the same commands), and execRules feeds it back into the
// analyzer, so every rule applies to it.

// nestedCmd is a command a program runs on the configuration's behalf:
// either an argv (words) or a shell script (script, run with sh -c).
type nestedCmd struct {
	how    string // for messages: "find -exec", "ssh ProxyCommand"
	words  []word
	script string
	at     int
}

// execRules is the analyzer's hook for the command-execution rules on one
// command (after wrappers): nested commands, reverse shells, destructive
// deletes, plaintext package indexes and inline code that fetches or
// decodes code to run.
func (a *analyzer) execRules(name string, args []word, depth int) {
	lw := make([]launch.Word, len(args))
	for i, w := range args {
		lw[i] = launch.Word{Text: w.text, Lit: w.lit, At: w.at}
	}
	for _, n := range launch.NestedCommands(name, lw) {
		c := nestedCmd{how: n.How, script: n.Script, at: n.At}
		for _, w := range n.Words {
			c.words = append(c.words, word{text: w.Text, lit: w.Lit, at: w.At})
		}
		a.nested(c, depth)
	}
	a.reverseShellArgv(name, args)
	a.destructiveRm(name, args)
	a.plaintextIndex(name, args)
	a.inlineFetch(name, args)
}

// nested reports a command run through another program when it runs an
// interpreter or a downloader (MG206), and analyses it like the command
// line itself.
func (a *analyzer) nested(n nestedCmd, depth int) {
	if depth+1 > maxDepth || !a.spend() {
		return
	}
	var progs []string
	if n.words != nil {
		ws := stripWrappers(n.words)
		if len(ws) > 0 && ws[0].lit {
			progs = []string{progName(ws[0].text)}
		}
	} else if len(n.script) <= maxScript {
		progs = a.scriptPrograms(n.script)
	}
	for _, p := range progs {
		if isInterpreter(p) || isDownloader(p) {
			shown := n.script
			if n.words != nil {
				shown = joinWords(n.words)
			}
			a.add("MG206", n.at, "%s runs %s: %s", n.how, p, quote(shown))
			break
		}
	}
	if n.words != nil {
		a.argv(n.words, depth+1)
	} else {
		a.posixScript(n.script, "sh", n.at, depth+1)
	}
}

// scriptPrograms lists the programs a shell script's simple commands run.
func (a *analyzer) scriptPrograms(src string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(deIFS(src)), "")
	if err != nil {
		return nil
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if !a.spend() {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if ws := stripWrappers(callWords(c.Args, 0)); len(ws) > 0 && ws[0].lit {
				out = append(out, progName(ws[0].text))
			}
		}
		return true
	})
	return out
}

// netcats are programs that connect a socket to stdin and stdout.
var netcats = map[string]bool{"nc": true, "ncat": true, "netcat": true, "nc.traditional": true, "nc.openbsd": true,
	"telnet": true, "socat": true, "openssl": true, "cryptcat": true, "pwncat": true}

// reverseShellArgv reports nc -e PROG / ncat --sh-exec and socat joining
// a program to a network address (MG207).
func (a *analyzer) reverseShellArgv(name string, args []word) {
	switch name {
	case "nc", "ncat", "netcat", "nc.traditional", "cryptcat":
		for _, w := range args {
			t := w.text
			long := t == "--exec" || t == "--sh-exec" || t == "--lua-exec" ||
				strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--sh-exec=")
			short := len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:], "ec")
			if long || short {
				a.add("MG207", w.at, "%s %s connects a program to a network socket: %s", name, t, quote(joinWords(args)))
				return
			}
		}
	case "socat":
		runs, network := "", false
		for _, w := range args {
			t := strings.ToLower(w.text)
			switch {
			case strings.HasPrefix(t, "exec:") || strings.HasPrefix(t, "system:"):
				runs = w.text
			case strings.HasPrefix(t, "tcp") || strings.HasPrefix(t, "udp") || strings.HasPrefix(t, "openssl") ||
				strings.HasPrefix(t, "ssl") || strings.HasPrefix(t, "sctp"):
				network = true
			}
		}
		if runs != "" && network {
			a.add("MG207", args[0].at, "socat joins %s to a network address: %s", quote(runs), quote(joinWords(args)))
		}
	}
}

// rmTargets are paths whose recursive deletion destroys a system or a
// home directory.
var rmTargets = map[string]bool{"/": true, "/*": true, "~": true, "~/": true, "~/*": true, "$HOME": true, "${HOME}": true,
	"$HOME/": true, "$HOME/*": true, "${HOME}/": true, "${HOME}/*": true, "/home": true, "/root": true, "/etc": true,
	"/usr": true, "/var": true, "/boot": true, "/bin": true, "/lib": true, "/opt": true, "/Users": true, `C:\`: true}

// destructiveRm reports rm -r of /, a home directory or a system
// directory, and any rm --no-preserve-root (MG209).
func (a *analyzer) destructiveRm(name string, args []word) {
	if name != "rm" && name != "grm" {
		return
	}
	texts := make([]string, len(args))
	for i, w := range args {
		texts[i] = w.text
	}
	if t := rmTarget(texts); t != "" && len(args) > 0 {
		a.add("MG209", args[0].at, "rm deletes %s recursively: %s", quote(t), quote(joinWords(args)))
	}
}

// rmTarget is the destroyed target of rm's arguments, "" if none.
func rmTarget(args []string) string {
	recursive, noPreserve, opts := false, false, true
	var target string
	for _, t := range args {
		switch {
		case opts && t == "--":
			opts = false
		case opts && t == "--no-preserve-root":
			noPreserve = true
		case opts && t == "--recursive":
			recursive = true
		case opts && len(t) > 1 && t[0] == '-' && t[1] != '-':
			if strings.ContainsAny(t, "rR") {
				recursive = true
			}
		case opts && strings.HasPrefix(t, "--"):
		default:
			if rmTargets[strings.TrimRight(t, "/")] || rmTargets[t] {
				target = t
			}
		}
	}
	switch {
	case recursive && target != "":
		return target
	case noPreserve:
		return "--no-preserve-root"
	}
	return ""
}

// indexOptions are package-manager options naming where packages come from.
var indexOptions = []string{"--index-url", "-i", "--extra-index-url", "--find-links", "-f", "--registry", "--index",
	"--default-index", "--source"}

// packageManagers are the programs whose index options are checked.
var packageManagers = map[string]bool{"pip": true, "pip3": true, "uv": true, "uvx": true, "pipx": true, "poetry": true,
	"npm": true, "npx": true, "pnpm": true, "yarn": true, "bun": true, "bunx": true, "easy_install": true, "gem": true}

// plaintextIndex reports packages installed from an http:// index on
// another machine (MG210): anyone on the path can replace them.
func (a *analyzer) plaintextIndex(name string, args []word) {
	if !packageManagers[name] && !strings.HasPrefix(name, "pip") && !isPython(name) {
		return
	}
	for i, w := range args {
		t := w.text
		for _, o := range indexOptions {
			val := ""
			switch {
			case t == o && i+1 < len(args):
				val = args[i+1].text
			case strings.HasPrefix(t, "--") && strings.HasPrefix(t, o+"="):
				val = t[len(o)+1:]
			default:
				continue
			}
			if host, plain := plaintextHost(val); plain {
				a.add("MG210", w.at, "%s %s %s fetches packages over plain http from %s", name, o, quote(val), quote(host))
				return
			}
		}
	}
}

// inlineFlags are the options with which interpreters run code given as
// the next argument.
var inlineFlags = map[string][]string{
	"python": {"-c"}, "node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"bun": {"-e", "--eval"}, "perl": {"-e", "-E"}, "ruby": {"-e"}, "php": {"-r"},
}

var (
	codeFetch   = lazyre.Regexp{Expr: `urlopen|urllib|requests\.(get|post)|httpx|http\.client|urlretrieve|\bfetch\s*\(|https?\.get\s*\(|require\(\s*['"]https?['"]\s*\)|LWP::|HTTP::Tiny|Net::HTTP|open-uri|URI\.open|file_get_contents\(\s*['"]https?:|curl_exec`}
	codeDecode  = lazyre.Regexp{Expr: `b64decode|base64\.|decodebytes|atob\s*\(|['"]base64['"]|decode_base64|unpack\(\s*['"]m|base64_decode|zlib\.decompress|codecs\.decode`}
	codeSink    = lazyre.Regexp{Expr: `\bexec\s*\(|\beval\b|\bcompile\s*\(|Function\s*\(|runInThisContext|runInNewContext|\bsystem\s*\(|instance_eval|passthru|shell_exec|child_process|__import__\(['"]os['"]\)\.system|os\.system|subprocess|\bexec\b`}
	codeSocket  = lazyre.Regexp{Expr: `(?i)socket|\bnet\.(connect|createConnection)|require\(\s*['"](node:)?net['"]\s*\)|createConnection|TCPSocket|fsockopen|stream_socket_client|Net::HTTP::Persistent`}
	codeSpawner = lazyre.Regexp{Expr: `pty\.spawn|os\.dup2|subprocess|child_process|/bin/(ba|z|da)?sh\b|\bexec\s*\(|\bexec\s+["'a-z]|\bspawn\s*\(|cmd\.exe|\bsystem\b|fdopen|\bpopen|proc_open|shell_exec|passthru|open\s*\(\s*STDIN|\bsh\s+-i\b|\bbash\s+-i\b|IO\.popen|Kernel\.exec`}
	// codeNetDevice is bash's /dev/tcp or /dev/udp written into an
	// interpreter's code: it only means something to a shell the code
	// starts, connected to a socket.
	codeNetDevice = lazyre.Regexp{Expr: `/dev/(tcp|udp)/`}
)

// inlineFetch reports inline code that runs what it downloads (MG201),
// joins a shell to a socket (MG207) or runs what it decodes (MG208).
func (a *analyzer) inlineFetch(name string, args []word) {
	key := name
	if isPython(name) {
		key = "python"
	}
	flags := inlineFlags[key]
	if flags == nil {
		return
	}
	for i, w := range args {
		code, at := "", w.at
		for _, f := range flags {
			if w.text == f && i+1 < len(args) {
				code, at = args[i+1].text, args[i+1].at
			} else if len(f) == 2 && strings.HasPrefix(w.text, f) && len(w.text) > 2 && !strings.HasPrefix(w.text, "--") {
				code = w.text[2:]
			}
		}
		if code == "" {
			continue
		}
		switch {
		case codeFetch.Get().MatchString(code) && codeSink.Get().MatchString(code):
			a.add("MG201", at, "%s %s runs code it downloads: %s", name, w.text, quote(code))
		case codeSocket.Get().MatchString(code) && codeSpawner.Get().MatchString(code),
			codeNetDevice.Get().MatchString(code):
			a.add("MG207", at, "%s %s connects a shell or process to a network socket: %s", name, w.text, quote(code))
		case codeDecode.Get().MatchString(code) && codeSink.Get().MatchString(code):
			a.add("MG208", at, "%s %s runs code it decodes, hidden from review: %s", name, w.text, quote(code))
		}
		return
	}
}

// isDecoder reports a command that decodes its input (base64 -d, xxd -r).
func isDecoder(ws []word) bool {
	ws = stripWrappers(ws)
	if len(ws) == 0 || !ws[0].lit {
		return false
	}
	name := progName(ws[0].text)
	for _, w := range ws[1:] {
		t := w.text
		switch name {
		case "base64", "base32", "basenc", "openssl":
			if t == "-d" || t == "--decode" || t == "-D" || (len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "d")) {
				return true
			}
		case "xxd":
			if strings.HasPrefix(t, "-r") {
				return true
			}
		}
	}
	if name == "printf" || name == "echo" {
		for _, w := range ws[1:] {
			if escapedPayload(w.text) {
				return true
			}
		}
	}
	return name == "uudecode" || name == "gunzip" || name == "zcat" || name == "rev"
}

// escapeRE matches the byte escapes printf, echo -e and $'…' decode: \xHH,
// \NNN (octal) and \uHHHH.
var escapeRE = lazyre.Regexp{Expr: `\\(x[0-9a-fA-F]{1,2}|0?[0-7]{3}|u[0-9a-fA-F]{4})`}

// escapedPayload reports text that spells most of itself in byte escapes
// (at least four of them): what it decodes to is hidden from a reader.
func escapedPayload(s string) bool {
	return len(escapeRE.Get().FindAllStringIndex(s, 4)) >= 4
}

// scriptExecPipeline is the script walker's hook for pipelines: a decoder
// (MG208) or a network connection (MG207) feeding an interpreter.
func (s *scriptScan) scriptExecPipeline(whole *syntax.Stmt, stages []*syntax.Stmt) {
	decoded, net, shell := false, "", ""
	for _, st := range stages {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			continue
		}
		ws := callWords(c.Args, s.at)
		prog := s.program(st)
		if decoded && isInterpreter(prog) {
			s.a.add("MG208", s.at, "%s runs decoded text with %s, hidden from review", quote(s.snippet(whole)), prog)
			return
		}
		if isDecoder(ws) {
			decoded = true
		}
		if netcats[prog] {
			net = prog
		}
		if posixShells[prog] != "" || prog == "cmd" || prog == "powershell" || prog == "pwsh" {
			shell = prog
		}
	}
	if net != "" && shell != "" {
		s.a.add("MG207", s.at, "%s joins %s to a network connection (%s)", quote(s.snippet(whole)), shell, net)
	}
}

// scriptExecCall is the script walker's hook for one simple command: a
// shell redirected to /dev/tcp (MG207), $(… | base64 -d) handed to an
// interpreter (MG208) and rm of $HOME (MG209, whose word has no literal
// text).
func (s *scriptScan) scriptExecCall(st *syntax.Stmt, c *syntax.CallExpr, prog string) {
	snip := quote(s.snippet(st))
	first, _ := wordText(c.Args[0])
	for _, p := range c.Args[0].Parts {
		if q, ok := p.(*syntax.SglQuoted); ok && q.Dollar && escapeRE.Get().MatchString(q.Value) {
			s.a.add("MG208", s.at, "%s spells the program it runs in $'…' escapes (%s), hidden from review", snip, quote(first))
			break
		}
	}
redirs:
	for _, r := range st.Redirs {
		if r.Word == nil {
			continue
		}
		t, _ := wordText(r.Word)
		switch {
		case strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/"):
			if isInterpreter(prog) {
				s.a.add("MG207", s.at, "%s redirects %s to a network connection (%s)", snip, prog, quote(t))
				break redirs
			}
			if progName(first) == "exec" {
				s.netFD = true
			}
		case s.netFD && isInterpreter(prog) && (r.Op == syntax.DplIn || r.Op == syntax.DplOut || r.Op == syntax.RdrInOut):
			s.a.add("MG207", s.at, "%s connects %s to a descriptor opened on /dev/tcp", snip, prog)
			break redirs
		}
	}
	if isInterpreter(prog) || s.substDecodes(c.Args[0]) {
		for _, w := range c.Args {
			if s.substDecodes(w) {
				s.a.add("MG208", s.at, "%s runs decoded text, hidden from review", snip)
				break
			}
		}
	}
	if prog == "rm" {
		raw := make([]string, 0, len(c.Args)-1)
		for _, w := range c.Args[1:] {
			raw = append(raw, s.snippet(w))
		}
		if t := rmTarget(raw); strings.Contains(t, "HOME") {
			s.a.add("MG209", s.at, "%s deletes %s recursively", snip, quote(t))
		}
	}
}

// substDecodes reports a command substitution in w that runs a decoder.
func (s *scriptScan) substDecodes(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if found || !s.a.spend() {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && isDecoder(callWords(c.Args, 0)) {
			found = true
		}
		return true
	})
	return found
}

// ifsRE matches $IFS and ${IFS}, which split words where a reviewer sees
// none (curl${IFS}-s${IFS}https://…).
var ifsRE = lazyre.Regexp{Expr: `\$\{IFS\}|\$IFS\b`}

// deIFS replaces $IFS by a blank, the value it has unless the script sets it.
func deIFS(src string) string { return ifsRE.Get().ReplaceAllString(src, " ") }

// obfuscatedIFS is the script walker's hook before parsing: it reports a
// script that splits words with $IFS (MG208) and returns the script as it
// runs.
func (a *analyzer) obfuscatedIFS(src string, at int) string {
	if !ifsRE.Get().MatchString(src) {
		return src
	}
	a.add("MG208", at, "the script splits words with $IFS, hiding the command it runs: %s", quote(src))
	return deIFS(src)
}
