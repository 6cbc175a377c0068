package launch

import (
	"bytes"
	"strings"
)

// script follows a repository file started as a program: its `#!` line
// names the interpreter (which then runs the file), a text file without one
// is run by /bin/sh (execvp's ENOEXEC fallback), and a binary runs itself.
// followed is true when what the file does with args was followed (its
// interpreter's command line, or a shell script's "$@"), false when only
// the file is known (a binary, a file not read): the caller then follows
// the arguments as a program's it does not know.
func (a *analyzer) script(p string, cmd word, args []word, cx context) (followed bool) {
	if a.fs == nil || !a.once("exec", p, runKey(cx, args), cmd.source) {
		return a.fs != nil // followed already, with these arguments
	}
	info := a.stat(p)
	switch info.Kind {
	case Missing, Other:
		return false
	case Outside:
		return false // bound by its link; what is outside is not the repository's
	case Dir:
		return false
	}
	data, ok, tooLarge := a.readFile(p)
	if tooLarge {
		a.whole(cmd.source, "the program "+p+" is too large to read")
		return true
	}
	if !ok {
		return false
	}
	fileWord := word{text: relFrom(cx.cwd, p), lit: true, source: cmd.source}
	next := cx.with()
	next.depth++
	if bytes.HasPrefix(data, []byte("#!")) {
		line, _, _ := bytes.Cut(data[2:], []byte("\n"))
		fields := strings.Fields(strings.TrimSpace(string(line)))
		if len(fields) == 0 {
			return false
		}
		// The kernel passes the rest of the line as one argument.
		ws := []word{{text: fields[0], lit: true, source: cmd.source}}
		if rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(line)), fields[0])); rest != "" {
			if progName(fields[0]) == "env" {
				for _, f := range strings.Fields(rest) {
					ws = append(ws, word{text: f, lit: true, source: cmd.source})
				}
			} else {
				ws = append(ws, word{text: rest, lit: true, source: cmd.source})
			}
		}
		ws = append(ws, fileWord)
		ws = append(ws, args...)
		a.argv(ws, next)
		return true
	}
	if bytes.HasPrefix(data, []byte("\x7fELF")) {
		return false // a binary runs itself
	}
	// Any other file is no format the kernel runs: execvp hands it to
	// /bin/sh, which runs its lines (shellScript binds the repository
	// where it cannot follow them).
	a.shellScript(string(data), p, cmd.source, next, knownParams(args))
	return true
}

// relFrom writes repository path p relative to dir, as a word a program
// started in dir would receive.
func relFrom(dir, p string) string {
	if dir == "" {
		return "./" + p
	}
	if strings.HasPrefix(p, dir+"/") {
		return "./" + strings.TrimPrefix(p, dir+"/")
	}
	up := strings.Repeat("../", strings.Count(dir, "/")+1)
	return up + p
}

// isBinary reports a file that is no text script: a NUL byte in its first
// 8000 bytes (git's own test) or an ELF header. sh and bash still run
// the lines of such a file, so it is never taken as running nothing.
func isBinary(src string) bool {
	head := src
	if len(head) > 8000 {
		head = head[:8000]
	}
	return strings.IndexByte(head, 0) >= 0 || strings.HasPrefix(src, "\x7fELF")
}
