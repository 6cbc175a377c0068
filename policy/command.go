package policy

import (
	"fmt"
	"strings"

	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/trust"
)

// word is one word of a command line as the program it names receives it.
type word struct {
	text string
	// lit is false when the word holds an expansion whose value mcp-guard
	// cannot know (a shell variable, a command substitution); text then
	// holds only its literal parts.
	lit bool
	// at is the index of the top-level word (0 = command, i = args[i-1])
	// the word was found in; nested words report at their container.
	at int
}

// hit is one problem found in a command line, before it becomes a Finding.
type hit struct {
	rule   string
	at     int
	detail string
	// tail is the rule's own closing words (no repository text), said
	// in the words of the config's client.
	tail string
	// sev grades this hit below or above its rule's severity ("" keeps
	// the rule's).
	sev trust.Severity
}

// finding makes a hit a Finding of the file at p.
func (h hit) finding(p string, pos trust.Pos, server, key, message string) trust.Finding {
	f := trust.NewFinding(h.rule, p, pos, server, key, message)
	if h.sev != "" {
		f.Severity = h.sev
	}
	return f
}

// Limits that keep the analysis of hostile input bounded.
const (
	maxDepth  = 4      // nested scripts (sh -c "bash -c '…'")
	maxSteps  = 200000 // commands and script nodes looked at per command line
	maxScript = 64 << 10
)

// analyzer walks a command line and the scripts nested in it.
type analyzer struct {
	hits  []hit
	steps int
}

// analyzeArgv inspects a server's command line: the command and its spawn
// arguments exactly as the child's argv receives them.
func analyzeArgv(argv []string) []hit {
	ws := make([]word, len(argv))
	for i, s := range argv {
		ws[i] = word{text: s, lit: true, at: i}
	}
	a := &analyzer{}
	a.argv(ws, 0)
	if len(argv) > 0 {
		a.hits = append(a.hits, launchHits(launch.Spawn{Command: argv[0], Args: argv[1:]}, argvSource)...)
	}
	hs := a.dedup()
	sortHits(hs)
	return hs
}

// analyzeScript inspects a shell command string (a hooks.json `run`): at is
// the index its hits report.
func analyzeScript(src string, at int) []hit {
	a := &analyzer{}
	a.posixScript(src, "sh", at, 1)
	a.hits = append(a.hits, launchHits(launch.Spawn{Command: "sh", Args: []string{"-c", src}}, func(s string) (int, bool) {
		return at, s == "args[1]"
	})...)
	return a.dedup()
}

func (a *analyzer) add(rule string, at int, format string, args ...any) {
	a.hits = append(a.hits, hit{rule: rule, at: at, detail: fmt.Sprintf(format, args...)})
}

// spend accounts for one unit of work; false once the budget is used up.
func (a *analyzer) spend() bool {
	if a.steps > maxSteps {
		return false // spent: callers that keep asking do no more work
	}
	a.steps++
	return a.steps <= maxSteps
}

// dedup drops repeated hits (the same rule, word and detail), keeping order.
func (a *analyzer) dedup() []hit {
	seen := map[hit]bool{}
	out := a.hits[:0]
	for _, h := range a.hits {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// argv analyses one command: ws[0] is the program.
func (a *analyzer) argv(ws []word, depth int) {
	if depth > maxDepth || !a.spend() {
		return
	}
	ws = a.unwrap(ws)
	if len(ws) == 0 || !ws[0].lit {
		return
	}
	cmd, args := ws[0], ws[1:]
	name := progName(cmd.text)
	switch {
	case posixShells[name] != "":
		a.posixShell(name, cmd, args, depth)
	case name == "cmd":
		a.cmdShell(cmd, args, depth)
	case name == "powershell" || name == "pwsh":
		a.powerShell(name, cmd, args, depth)
	case name == "wsl":
		a.wsl(args, depth)
	case name == "docker" || name == "podman" || name == "nerdctl":
		a.container(name, args, depth)
	case name == "docker-compose":
		a.compose(name, args)
	}
	a.remoteCode(name, args)
	a.runner(name, args)
	a.execRules(name, args, depth)
}

// unwrap removes programs that only run the rest of their arguments
// (`env`, `sudo`, `nohup`, `exec`, `timeout 5`, `busybox`, ...), checking
// the variables `env NAME=value` sets on the way.
func (a *analyzer) unwrap(ws []word) []word {
	for range 8 {
		if len(ws) == 0 || !ws[0].lit {
			return ws
		}
		switch name := progName(ws[0].text); name {
		case "env":
			ws = a.unwrapEnv(ws[1:])
		case "command":
			for _, w := range ws[1:] {
				if w.text == "-v" || w.text == "-V" {
					return nil // a lookup, nothing runs
				}
			}
			ws = skipOptions(ws[1:])
		case "timeout":
			ws = skipOptions(ws[1:], launch.Wrappers[name]...)
			if len(ws) > 0 {
				ws = ws[1:] // the duration
			}
		case "busybox":
			ws = skipOptions(ws[1:])
		default:
			opts, ok := launch.Wrappers[name]
			if !ok {
				return ws
			}
			ws = skipOptions(ws[1:], opts...)
		}
	}
	return ws
}

// stripWrappers is unwrap without reporting anything.
func stripWrappers(ws []word) []word {
	var scratch analyzer
	return scratch.unwrap(ws)
}

// unwrapEnv skips env's options and assignments, reporting assignments of
// variables that change what code runs.
func (a *analyzer) unwrapEnv(ws []word) []word {
	for len(ws) > 0 {
		w := ws[0]
		switch {
		case w.text == "--":
			return ws[1:]
		case w.text == "-u" || w.text == "--unset" || w.text == "-C" || w.text == "--chdir":
			if len(ws) < 2 {
				return nil
			}
			ws = ws[2:]
		case w.text == "-S" || w.text == "--split-string" || strings.HasPrefix(w.text, "--split-string="):
			// env -S "cmd args": the string is split into words.
			s := strings.TrimPrefix(w.text, "--split-string=")
			rest := ws[1:]
			if s == w.text {
				if len(rest) == 0 {
					return nil
				}
				s, rest = rest[0].text, rest[1:]
			}
			var split []word
			for _, f := range strings.Fields(s) {
				split = append(split, word{text: f, lit: w.lit, at: w.at})
			}
			return append(split, rest...)
		case strings.HasPrefix(w.text, "-") && w.text != "-":
			ws = ws[1:]
		case strings.Contains(w.text, "=") && !strings.HasPrefix(w.text, "="):
			name, value, _ := strings.Cut(w.text, "=")
			if sev, why, drop := envGrade(name, value); !drop {
				a.add("MG101", w.at, "env sets %s=%s before running the command: %s", name, quote(shortValue(value)), why)
				a.hits[len(a.hits)-1].sev = sev
			}
			ws = ws[1:]
		default:
			return ws
		}
	}
	return ws
}

// skipOptions is launch.SkipOptions for policy's words.
func skipOptions(ws []word, withValue ...string) []word {
	return launch.SkipOptions(ws, func(w word) string { return w.text }, withValue...)
}

// progName and isPython are the launch model's (one grammar of a command
// line).
func progName(s string) string { return launch.ProgName(s) }

// posixShells maps shell names to the mvdan.cc/sh dialect that parses them.
var posixShells = map[string]string{
	"sh": "bash", "bash": "bash", "dash": "bash", "ash": "bash", "ksh": "mksh", "mksh": "mksh",
	"zsh": "zsh", "fish": "bash", "csh": "bash", "tcsh": "bash", "rbash": "bash", "yash": "bash",
}

// isInterpreter reports whether a program runs code it reads from stdin, a
// file argument or a string: the sinks of fetch-and-exec.
func isInterpreter(name string) bool {
	if posixShells[name] != "" {
		return true
	}
	switch name {
	case "cmd", "powershell", "pwsh", "iex", "invoke-expression", "node", "nodejs", "deno", "bun",
		"perl", "ruby", "php", "lua", "luajit", "osascript", "tclsh", "rscript", "source", ".", "eval",
		"python", "python2", "python3", "pypy", "pypy3", "py", "irb", "jshell", "groovy":
		return true
	}
	return isPython(name)
}

func isPython(name string) bool { return launch.IsPython(name) }

// isDownloader reports whether a program fetches from the network and can
// write what it fetched to stdout or a file.
func isDownloader(name string) bool {
	switch name {
	case "curl", "wget", "wget2", "fetch", "http", "https", "xh", "xhs", "lwp-request", "lwp-download",
		"aria2c", "iwr", "irm", "invoke-webrequest", "invoke-restmethod", "curlie":
		return true
	}
	return false
}

// relativePath reports whether a command or argument word is a path that
// resolves against the launch directory: it has a directory separator and
// is neither absolute nor a URL. agentty does not expand variables, so
// "${workspaceFolder}/x" is such a path too.
func relativePath(s string) bool {
	if s == "" || absolutePath(s) || strings.Contains(s, "://") || strings.HasPrefix(s, "-") {
		return false
	}
	return strings.ContainsAny(s, `/\`)
}

// absolutePath reports whether s names a path that does not depend on the
// launch directory: POSIX absolute, home-relative, a Windows drive or UNC
// path.
func absolutePath(s string) bool {
	switch {
	case s == "":
		return false
	case s[0] == '/' || s[0] == '~' || strings.HasPrefix(s, `\\`):
		return true
	case len(s) >= 3 && s[1] == ':' && (s[2] == '/' || s[2] == '\\') && isASCIILetter(s[0]):
		return true
	}
	return false
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// localOperand reports whether an interpreter's operand names a file in or
// below the launch directory: anything that is not absolute, not a URL and
// not an option ("server.js", "src/main.py", "./run.sh").
func localOperand(s string) bool {
	return s != "" && s != "-" && !absolutePath(s) && !strings.Contains(s, "://") && !strings.HasPrefix(s, "-")
}

// unexpandedNote explains a top-level path that starts with a variable:
// agentty passes it as is.
func unexpandedNote(s string, depth int) string {
	if depth == 0 && (strings.HasPrefix(s, "$") || strings.HasPrefix(s, "%")) {
		return " (agentty does not expand variables: it is resolved against the launch directory)"
	}
	return ""
}

// quote shows a word from the configuration in a message: shortened, with
// credentials redacted, in backquotes. report sanitizes it before it
// reaches a terminal.
func quote(s string) string {
	return "`" + shortValue(s) + "`"
}

// shortValue shortens s for a message and redacts anything in it that looks
// like a credential.
func shortValue(s string) string {
	s = redactTokens(s)
	const max = 80
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// joinWords shows a command line in a message.
func joinWords(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}
