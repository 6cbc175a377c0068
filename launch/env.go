package launch

import (
	"strings"
)

// execVars are variables that make programs load code; a value mcp-guard
// cannot know binds the whole repository.
var execVars = map[string]bool{
	"NODE_OPTIONS": true, "NODE_PATH": true, "PYTHONPATH": true, "PYTHONHOME": true, "PYTHONSTARTUP": true,
	"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "DYLD_INSERT_LIBRARIES": true, "DYLD_LIBRARY_PATH": true,
	"PERL5LIB": true, "PERL5OPT": true, "PERLLIB": true, "RUBYLIB": true, "RUBYOPT": true, "BASH_ENV": true,
	"ENV": true, "PATH": true, "CLASSPATH": true, "JAVA_TOOL_OPTIONS": true, "GOFLAGS": true,
	// zsh sources $ZDOTDIR/.zshenv first, every zsh, a script's too
	// (and .zprofile, .zshrc, .zlogin for a login or interactive one).
	"ZDOTDIR": true,
}

// envVar binds what a variable makes programs load, relative to the
// working directory the variable is set in.
func (a *analyzer) envVar(name, value, source string, cx context) {
	value, _, _ = strings.Cut(value, "\x00")
	if cx.unknown {
		if execVars[name] {
			a.whole(source, name+" is set in a directory known only at run time")
		}
		return
	}
	if strings.HasPrefix(name, "BASH_FUNC_") {
		// bash defines an exported function from it, which runs in place
		// of the command of that name.
		a.whole(source, name+" is an exported bash function, which runs in place of a command")
		return
	}
	why := name + " names it"
	// Every word of the value that is a repository path counts.
	for _, w := range strings.FieldsFunc(value, isEnvSeparator) {
		a.fileWord(cx, word{text: w, lit: true, source: source}, why)
	}
	if k, ok := cutPrefixFold(name, "npm_config_"); ok {
		// npm, npx and pnpm read every setting from npm_config_* too.
		a.npmSetting(k, value, name, cx.cwd, source, "npm", cx, 0)
	}
	switch name {
	case "NODE_OPTIONS":
		a.nodeOptions(nodeOptionWords(value), source, cx)
	case "PYTHONPATH":
		for _, d := range strings.Split(value, ":") {
			if p, ok := a.resolve(cx, dirWord(d)); ok {
				a.add(Item{Kind: KindModules, Lang: "python", Path: p, Source: source, Why: "PYTHONPATH puts it on python's import path"})
			}
		}
	case "NODE_PATH":
		for _, d := range strings.Split(value, ":") {
			if p, ok := a.resolve(cx, dirWord(d)); ok {
				a.add(Item{Kind: KindCode, Lang: "javascript", Path: p, Source: source, Why: "NODE_PATH makes node load modules from it"})
			}
		}
	case "PYTHONHOME", "PERL5LIB", "PERLLIB", "RUBYLIB", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH",
		"DYLD_FRAMEWORK_PATH", "CLASSPATH", "GEM_PATH", "GEM_HOME", "GOPATH", "PYTHONUSERBASE", "ZDOTDIR":
		for _, d := range strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == ';' }) {
			if p, ok := a.resolve(cx, dirWord(d)); ok {
				a.add(Item{Kind: KindTree, Path: p, Source: source, Why: name + " makes programs load code from it"})
			}
		}
	case "BASH_ENV", "ENV":
		// bash (not interactive) sources BASH_ENV's file before a
		// script, an interactive sh ENV's. A shell the model follows
		// reads it where it starts (shell); this is for one it does not
		// see start, whose commands may call any function the file
		// declares.
		if p := a.startupFile(name, value, cx, source); p != "" {
			a.runs(Item{Kind: KindFile, Path: p, Source: source, Why: name + " makes the shell source it"})
			a.scriptFile(p, source, cx, nil, shellRun{callAll: true})
		}
	case "RUBYOPT", "PERL5OPT", "JAVA_TOOL_OPTIONS", "GOFLAGS":
		// Options naming files are bound as words above.
	}
}

// dirWord is a search-path element as a path word: an empty one is the
// working directory.
func dirWord(d string) string {
	if d == "" {
		return "."
	}
	return d
}

func isEnvSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', ':', ';', ',', '=':
		return true
	}
	return false
}

// nodeOptionWords splits NODE_OPTIONS as node does: at white space, with
// double quotes grouping and a backslash escaping inside them.
func nodeOptionWords(s string) []string {
	var w splitWords
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\\' && i+1 < len(s):
			i++
			w.cur.WriteByte(s[i])
		case c == '"':
			in, w.has = !in, true
		case !in && (c == ' ' || c == '\t' || c == '\n'):
			w.end()
		default:
			w.cur.WriteByte(c)
		}
	}
	return w.done()
}

// splitWords collects the words of a value split at white space, where
// quotes may make an empty word (has).
type splitWords struct {
	out []string
	cur strings.Builder
	has bool
}

// end ends the word being read, if any.
func (w *splitWords) end() {
	if w.has || w.cur.Len() > 0 {
		w.out = append(w.out, w.cur.String())
	}
	w.cur.Reset()
	w.has = false
}

// done ends the last word and returns them all.
func (w *splitWords) done() []string {
	w.end()
	return w.out
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return "", false
}
