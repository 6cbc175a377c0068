package policy

import (
	"strings"
)

// psTok is one PowerShell token: a bare word, a string (quotes removed), an
// operator, or a group ("(" or "{") holding the tokens between its
// brackets. The tokenizer knows only what fetch-and-exec detection needs:
// quoting, comments, statement and pipeline separators and brackets.
type psTok struct {
	kind  byte // 'w' word, 's' string, 'o' operator, 'g' group
	text  string
	group []psTok
}

const maxPSGroupDepth = 64

// psScript analyses a PowerShell script: downloads piped into or handed to
// Invoke-Expression or another interpreter (MG201), and every native
// command in it as a command line.
func (a *analyzer) psScript(src string, at, depth int) {
	if depth > maxDepth || len(src) > maxScript || !a.spend() {
		return
	}
	a.psLevel(psGroup(psTokens(src)), at, depth)
}

// psTokens splits a script into flat tokens.
func psTokens(src string) []psTok {
	var out []psTok
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			out = append(out, psTok{kind: 'o', text: ";"})
			i++
		case c == '<' && strings.HasPrefix(src[i:], "<#"):
			end := strings.Index(src[i+2:], "#>")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '#':
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return out
			}
			i += end
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for j < len(src) {
				if src[j] == '\'' {
					if j+1 < len(src) && src[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(src[j])
				j++
			}
			out = append(out, psTok{kind: 's', text: b.String()})
			i = j + 1
		case c == '"':
			var b strings.Builder
			j := i + 1
			for j < len(src) {
				if src[j] == '`' && j+1 < len(src) {
					b.WriteByte(src[j+1])
					j += 2
					continue
				}
				if src[j] == '"' {
					if j+1 < len(src) && src[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(src[j])
				j++
			}
			out = append(out, psTok{kind: 's', text: b.String()})
			i = j + 1
		case c == '|' || c == '&':
			if i+1 < len(src) && src[i+1] == c {
				out = append(out, psTok{kind: 'o', text: src[i : i+2]})
				i += 2
			} else {
				out = append(out, psTok{kind: 'o', text: src[i : i+1]})
				i++
			}
		case strings.IndexByte(";(){},", c) >= 0:
			out = append(out, psTok{kind: 'o', text: src[i : i+1]})
			i++
		default:
			j := i
			for j < len(src) && strings.IndexByte(" \t\r\n|&;(){},'\"", src[j]) < 0 {
				if src[j] == '`' && j+1 < len(src) {
					j++
				}
				j++
			}
			if j > len(src) {
				j = len(src)
			}
			out = append(out, psTok{kind: 'w', text: src[i:j]})
			i = j
		}
	}
	return out
}

// psGroup nests the tokens between brackets; unbalanced brackets are
// closed at the end, stray closing brackets dropped.
func psGroup(flat []psTok) []psTok {
	type frame struct {
		open string
		toks []psTok
	}
	stack := []frame{{}}
	for _, t := range flat {
		top := &stack[len(stack)-1]
		switch {
		case t.kind == 'o' && (t.text == "(" || t.text == "{") && len(stack) < maxPSGroupDepth:
			stack = append(stack, frame{open: t.text})
		case t.kind == 'o' && (t.text == ")" || t.text == "}"):
			if len(stack) > 1 {
				g := psTok{kind: 'g', text: top.open, group: top.toks}
				stack = stack[:len(stack)-1]
				stack[len(stack)-1].toks = append(stack[len(stack)-1].toks, g)
			}
		default:
			top.toks = append(top.toks, t)
		}
	}
	for len(stack) > 1 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack[len(stack)-1].toks = append(stack[len(stack)-1].toks, psTok{kind: 'g', text: top.open, group: top.toks})
	}
	return stack[0].toks
}

// psLevel analyses one bracket level: its statements, their pipelines, and
// every nested group.
func (a *analyzer) psLevel(toks []psTok, at, depth int) {
	var stmt []psTok
	flush := func() {
		a.psStatement(stmt, at, depth)
		stmt = nil
	}
	for _, t := range toks {
		if t.kind == 'o' && (t.text == ";" || t.text == "&&" || t.text == "||") {
			flush()
			continue
		}
		stmt = append(stmt, t)
	}
	flush()
}

func (a *analyzer) psStatement(toks []psTok, at, depth int) {
	if len(toks) == 0 || !a.spend() {
		return
	}
	var stages [][]psTok
	var cur []psTok
	for _, t := range toks {
		if t.kind == 'o' && t.text == "|" {
			stages = append(stages, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	stages = append(stages, cur)
	text := quote(psText(toks))
	downloaded := ""
	reported := false
	for _, st := range stages {
		sink := psSink(st)
		if !reported && sink != "" {
			if downloaded != "" {
				a.add("MG201", at, "%s pipes a download (%s) into %s", text, downloaded, sink)
				reported = true
			} else if d := psDownload(st[1:]); d != "" && (sink == "iex" || sink == "invoke-expression" || sink == "[scriptblock]::create" || sink == "&") {
				a.add("MG201", at, "%s runs a download (%s) with %s", text, d, sink)
				reported = true
			}
		}
		if downloaded == "" {
			downloaded = psDownload(st)
		}
		if ws := psWords(st, at); len(ws) > 0 {
			a.argv(ws, depth)
		}
		if reported {
			continue // one finding per statement is enough
		}
		for _, t := range st {
			if t.kind == 'g' {
				a.psLevel(t.group, at, depth)
			}
		}
	}
}

// psSink names what a pipeline stage runs its input or argument with, ""
// when it is not an interpreter.
func psSink(st []psTok) string {
	if len(st) == 0 {
		return ""
	}
	for _, t := range st {
		if t.kind == 'w' && strings.Contains(strings.ToLower(t.text), "scriptblock]::create") {
			return "[scriptblock]::create"
		}
	}
	first := st[0]
	if first.kind == 'o' && first.text == "&" || first.kind == 'w' && first.text == "." {
		if len(st) > 1 && st[1].kind == 'g' {
			return "&"
		}
		if len(st) > 1 {
			first = st[1]
		}
	}
	if first.kind != 'w' && first.kind != 's' {
		return ""
	}
	name := progName(first.text)
	if isInterpreter(name) {
		return name
	}
	return ""
}

// psDownload names the first download command or .NET download call in
// the tokens (groups included), "" if none.
func psDownload(toks []psTok) string {
	for _, t := range toks {
		switch t.kind {
		case 'w':
			w := strings.ToLower(strings.TrimLeft(t.text, ".&"))
			if isDownloader(progName(w)) || w == "start-bitstransfer" {
				return progName(w)
			}
			for _, m := range []string{"downloadstring", "downloaddata", "downloadfile", "webclient", "getstringasync", "httpclient"} {
				if strings.Contains(w, m) {
					return m
				}
			}
		case 'g':
			if d := psDownload(t.group); d != "" {
				return d
			}
		}
	}
	return ""
}

// psWords is a stage as a native command line: its leading words and
// strings (after a call operator), up to the first operator or group.
func psWords(st []psTok, at int) []word {
	if len(st) > 0 && st[0].kind == 'o' && st[0].text == "&" {
		st = st[1:]
	}
	var ws []word
	for _, t := range st {
		if t.kind != 'w' && t.kind != 's' {
			break
		}
		lit := t.kind == 's' || !strings.ContainsAny(t.text, "$`")
		ws = append(ws, word{text: t.text, lit: lit, at: at})
	}
	return ws
}

// psText shows tokens again, for messages.
func psText(toks []psTok) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch t.kind {
		case 's':
			b.WriteString("'" + t.text + "'")
		case 'g':
			closer := ")"
			if t.text == "{" {
				closer = "}"
			}
			b.WriteString(t.text + psText(t.group) + closer)
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}
