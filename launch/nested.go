package launch

import (
	"regexp"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
)

// Word is one word of a command line as NestedCommands sees it: its text,
// whether that text is all of it (false for a shell expansion mcp-guard
// cannot know), and a tag the caller uses to place it.
type Word struct {
	Text string
	Lit  bool
	At   int
}

// Nested is a command a program runs for the command line it was given:
// an argv (Words) or a shell script run with sh -c (Script). How names the
// mechanism for messages ("find -exec", "ssh ProxyCommand"); At is the tag
// of the word it came from.
type Nested struct {
	How    string
	Words  []Word
	Script string
	At     int
}

// NestedCommands finds the commands name (a program name, see ProgName)
// runs from its arguments: find -exec, xargs, awk's system() and pipes,
// ssh ProxyCommand and its kin, git -c with a key git runs, watch. One
// mechanism for the launch model and the scan rules; nil for other
// programs.
func NestedCommands(name string, args []Word) []Nested {
	if f := commandRunners[name]; f != nil {
		return f(name, args)
	}
	return nil
}

// commandRunners maps programs that run a command given in their arguments
// to the function finding those commands.
var commandRunners = map[string]func(name string, args []Word) []Nested{
	"find": findExec, "gfind": findExec,
	"xargs": xargsCmd, "gxargs": xargsCmd,
	"awk": awkCmds, "gawk": awkCmds, "mawk": awkCmds, "nawk": awkCmds,
	"ssh": sshCmds, "scp": sshCmds, "sftp": sshCmds,
	"git":   gitCmds,
	"watch": watchCmd,
}

// skipWords is SkipOptions for Words.
func skipWords(ws []Word, withValue ...string) []Word {
	return SkipOptions(ws, func(w Word) string { return w.Text }, withValue...)
}

func joinTexts(ws []Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// findExec: find … -exec CMD {} ; (also -execdir, -ok, -okdir, and +).
func findExec(_ string, args []Word) []Nested {
	var out []Nested
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		if t != "-exec" && t != "-execdir" && t != "-ok" && t != "-okdir" {
			continue
		}
		j := i + 1
		for j < len(args) && args[j].Text != ";" && args[j].Text != "+" {
			j++
		}
		if j > i+1 {
			out = append(out, Nested{How: "find " + t, Words: args[i+1 : j], At: args[i+1].At})
		}
		i = j
	}
	return out
}

// xargsValue are xargs options that take a value as the next word.
var xargsValue = []string{"-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--arg-file", "--delimiter",
	"--max-args", "--max-procs", "--max-chars", "--max-lines", "--eof", "--replace", "--process-slot-var"}

func xargsCmd(_ string, args []Word) []Nested {
	rest := skipWords(args, xargsValue...)
	if len(rest) == 0 {
		return nil
	}
	return []Nested{{How: "xargs", Words: rest, At: rest[0].At}}
}

var (
	awkSystem = lazyre.Regexp{Expr: `system\s*\(\s*"((?:[^"\\]|\\.)*)"`}
	awkPipeTo = lazyre.Regexp{Expr: `\|&?\s*"((?:[^"\\]|\\.)*)"`}
	awkPipeIn = lazyre.Regexp{Expr: `"((?:[^"\\]|\\.)*)"\s*\|&?\s*getline`}
)

// awkCmds: the string literals awk's system(), print | "cmd" and
// "cmd" | getline run with sh -c. The program is the first operand that
// is not an option (or -f's file, which is the launch model's).
func awkCmds(_ string, args []Word) []Nested {
	ops := skipWords(args, "-F", "-v", "-f", "--field-separator", "--assign", "--file", "-E", "-i", "--include")
	for _, w := range args {
		if w.Text == "-f" || w.Text == "--file" {
			return nil
		}
	}
	if len(ops) == 0 || !ops[0].Lit {
		return nil
	}
	prog := ops[0]
	var out []Nested
	for _, re := range []*regexp.Regexp{awkSystem.Get(), awkPipeTo.Get(), awkPipeIn.Get()} {
		for _, m := range re.FindAllStringSubmatch(prog.Text, 16) {
			out = append(out, Nested{How: "awk", Script: awkUnescape(m[1]), At: prog.At})
		}
	}
	return out
}

func awkUnescape(s string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n", `\t`, "\t").Replace(s)
}

// sshCommandOptions are the ssh_config options whose value ssh runs with
// the user's shell.
var sshCommandOptions = map[string]bool{"proxycommand": true, "localcommand": true, "knownhostscommand": true}

// sshCmds: ssh -o ProxyCommand=CMD (also -oProxyCommand=CMD, -o
// "ProxyCommand CMD", LocalCommand, KnownHostsCommand).
func sshCmds(name string, args []Word) []Nested {
	var out []Nested
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		var opt string
		switch {
		case t == "-o" && i+1 < len(args):
			i++
			opt = args[i].Text
		case strings.HasPrefix(t, "-o") && len(t) > 2:
			opt = t[2:]
		default:
			continue
		}
		key, val, ok := strings.Cut(opt, "=")
		if !ok {
			key, val, _ = strings.Cut(strings.TrimSpace(opt), " ")
		}
		if sshCommandOptions[strings.ToLower(strings.TrimSpace(key))] && strings.TrimSpace(val) != "" && !strings.EqualFold(strings.TrimSpace(val), "none") {
			out = append(out, Nested{How: name + " " + strings.TrimSpace(key), Script: strings.TrimSpace(val), At: args[i].At})
		}
	}
	return out
}

// gitCommandKeys are configuration keys whose value git runs with the
// shell; a key matching a prefix ending in "." matches any subsection.
var gitCommandKeys = []string{"core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "core.askpass",
	"sequence.editor", "diff.external", "gpg.program", "gpg.ssh.program", "uploadpack.packobjectshook",
	"credential.helper", "pager.", "alias.", "filter.", "diff.", "merge.", "difftool.", "mergetool."}

// gitCmds: git -c key=value with a key whose value git runs. Aliases and
// credential helpers are commands only when they start with "!".
func gitCmds(_ string, args []Word) []Nested {
	var out []Nested
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		if t == "-c" && i+1 < len(args) {
			i++
			key, val, _ := strings.Cut(args[i].Text, "=")
			key = strings.ToLower(key)
			if script, ok := gitCommandValue(key, val); ok {
				out = append(out, Nested{How: "git -c " + key, Script: script, At: args[i].At})
			}
			continue
		}
		if t == "-C" || t == "--git-dir" || t == "--work-tree" || t == "--namespace" {
			i++
			continue
		}
		if !strings.HasPrefix(t, "-") {
			break // the subcommand
		}
	}
	return out
}

func gitCommandValue(key, val string) (string, bool) {
	if strings.TrimSpace(val) == "" {
		return "", false
	}
	for _, k := range gitCommandKeys {
		if key != k && !(strings.HasSuffix(k, ".") && strings.HasPrefix(key, k)) {
			continue
		}
		if k == "alias." || k == "credential.helper" {
			s, bang := strings.CutPrefix(val, "!")
			return s, bang
		}
		if k == "core.fsmonitor" && (val == "true" || val == "false") {
			return "", false
		}
		return val, true
	}
	return "", false
}

// watchCmd: watch runs its operands joined with sh -c (without -x).
func watchCmd(_ string, args []Word) []Nested {
	rest := skipWords(args, "-n", "--interval", "-d", "-q", "--equexit")
	if len(rest) == 0 {
		return nil
	}
	return []Nested{{How: "watch", Script: joinTexts(rest), At: rest[0].At}}
}
