package launch

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"net/url"
	"strings"
)

// maxJarSize is the largest jar whose manifest the model reads (a jar
// is read whole: its directory is at its end). Past it, what its
// Class-Path names is unknown.
const maxJarSize = 16 << 20

// maxJarDepth bounds how far Class-Path chains (a jar naming a jar naming
// …) are followed; past it the repository is bound.
const maxJarDepth = 8

// java follows the java launcher as its documentation says it reads its
// command line: JDK_JAVA_OPTIONS before the arguments, @argument files
// (read as arguments), the class path a main class loads from (-cp,
// --class-path, CLASSPATH, else the working directory), a source file
// (JEP 330, 458: the source tree beside it is compiled on demand), -jar's
// jar and the jars and directories its manifest's Class-Path names, and
// agents (-javaagent, -agentpath).
func (a *analyzer) java(args []word, cx context) {
	if v, ok := cx.env["JDK_JAVA_OPTIONS"]; ok {
		var pre []word
		for _, f := range javaArgWords(v) {
			pre = append(pre, word{text: f, lit: true, source: "env.JDK_JAVA_OPTIONS"})
		}
		args = append(pre, args...)
	}
	_, classPath := cx.env["CLASSPATH"]
	source := false
	expanded := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text
		if strings.HasPrefix(t, "@") && !strings.HasPrefix(t, "@@") && w.lit && expanded < 64 {
			// An argument file: its words stand in its place (they are not
			// expanded again).
			expanded++
			more, ok := a.javaArgFile(w, cx)
			if !ok {
				return
			}
			args = append(append(append([]word{}, args[:i]...), more...), args[i+1:]...)
			i--
			continue
		}
		value := func() (word, bool) {
			if _, v, ok := strings.Cut(t, "="); ok && strings.HasPrefix(t, "--") {
				return word{text: v, lit: w.lit, source: w.source}, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		opt, _, _ := strings.Cut(t, "=")
		switch {
		case opt == "-cp" || opt == "-classpath" || opt == "--class-path":
			if v, ok := value(); ok {
				classPath = true
				a.javaPath(v, cx, "java loads classes from it")
			}
		case opt == "-p" || opt == "--module-path" || opt == "--upgrade-module-path":
			if v, ok := value(); ok {
				a.javaPath(v, cx, "java loads modules from it")
			}
		case opt == "--patch-module":
			if v, ok := value(); ok {
				_, paths, _ := strings.Cut(v.text, "=")
				a.javaPath(word{text: paths, lit: v.lit, source: v.source}, cx, "java patches a module with it")
			}
		case opt == "--source":
			value()
			source = true
		case opt == "--add-modules" || opt == "--limit-modules" || opt == "--add-exports" || opt == "--add-opens" ||
			opt == "--add-reads" || opt == "--enable-native-access" || opt == "--illegal-native-access" ||
			opt == "-d" || opt == "--describe-module":
			if !strings.Contains(t, "=") {
				value()
			}
		case opt == "-m" || opt == "--module":
			// The main module comes from the module path (bound above).
			if !classPath {
				a.javaDefault(cx, w.source)
			}
			return
		case t == "-jar":
			v, ok := value()
			if !ok {
				return
			}
			if !v.lit {
				a.whole(v.source, "java -jar runs a jar named at run time")
				return
			}
			if p, ok := a.resolve(cx, v.text); ok && p != "" {
				a.javaJar(p, v.source, map[string]bool{}, 0)
			}
			return
		case strings.HasPrefix(t, "-javaagent:"):
			v, _, _ := strings.Cut(strings.TrimPrefix(t, "-javaagent:"), "=")
			if p, ok := a.resolve(cx, v); ok && p != "" && w.lit {
				a.javaJar(p, w.source, map[string]bool{}, 0)
			}
		case strings.HasPrefix(t, "-agentpath:"):
			v, _, _ := strings.Cut(strings.TrimPrefix(t, "-agentpath:"), "=")
			if p, ok := a.resolve(cx, v); ok && p != "" && w.lit {
				a.runs(Item{Kind: KindFile, Path: p, Source: w.source, Why: "java loads this native agent first"})
			}
		case strings.HasPrefix(t, "-"):
		default:
			if !w.lit {
				a.whole(w.source, "java runs a class or source file named at run time")
				return
			}
			if source || strings.HasSuffix(t, ".java") {
				a.javaSource(w, cx)
			}
			if !classPath {
				a.javaDefault(cx, w.source)
			}
			return
		}
	}
}

// javaDefault binds the default class path: the working directory, from
// which a main class and every class it uses load.
func (a *analyzer) javaDefault(cx context, source string) {
	if a.unknownCwd(cx, source) {
		return
	}
	a.runs(Item{Kind: KindCode, Lang: "java", Path: cx.cwd, Source: source,
		Why: "java loads classes from the working directory, its class path when none is given"})
}

// javaPath binds each element of a class or module path: a directory or
// jar, or with a trailing * every jar of a directory.
func (a *analyzer) javaPath(v word, cx context, why string) {
	if !v.lit {
		a.whole(v.source, "java loads classes from a path known only at run time")
		return
	}
	for _, e := range strings.FieldsFunc(v.text, func(r rune) bool { return r == ':' || r == ';' }) {
		if e == "*" || strings.HasSuffix(e, "/*") {
			e = strings.TrimSuffix(strings.TrimSuffix(e, "*"), "/")
			if e == "" {
				e = "."
			}
		}
		if p, ok := a.resolve(cx, e); ok {
			a.add(Item{Kind: KindTree, Path: p, Source: v.source, Why: why})
		}
	}
}

// javaArgFile reads an @argument file's words; one that cannot be read
// leaves the command line unknown (the repository is bound, ok false).
func (a *analyzer) javaArgFile(w word, cx context) ([]word, bool) {
	p, ok := a.resolve(cx, strings.TrimPrefix(w.text, "@"))
	if !ok {
		return nil, true // outside the repository: the user's
	}
	if p == "" {
		a.whole(w.source, "java reads its arguments from "+w.text+", which is not a file")
		return nil, false
	}
	a.runs(Item{Kind: KindFile, Path: p, Source: w.source, Why: "java reads its arguments from it"})
	data, ok, _ := a.readFile(p)
	if !ok {
		a.whole(w.source, "java reads its arguments from "+p+", which mcp-guard cannot read")
		return nil, false
	}
	var out []word
	for _, f := range javaArgWords(string(data)) {
		out = append(out, word{text: f, lit: true, source: w.source})
	}
	return out, true
}

// javaArgWords splits an argument file (or JDK_JAVA_OPTIONS) as the java
// launcher does: white space separates, '…' and "…" group (a backslash
// escapes inside them), # starts a comment that runs to the end of the
// line.
func javaArgWords(s string) []string {
	var w splitWords
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				w.cur.WriteByte('\n')
			case 't':
				w.cur.WriteByte('\t')
			case 'r':
				w.cur.WriteByte('\r')
			case 'f':
				w.cur.WriteByte('\f')
			case '\n', '\r':
				for i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\n' || s[i+1] == '\r') {
					i++
				}
			default:
				w.cur.WriteByte(s[i])
			}
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, w.has = c, true
		case c == '#' && !w.has && w.cur.Len() == 0:
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			w.end()
		default:
			w.cur.WriteByte(c)
		}
	}
	return w.done()
}

// javaSource binds a source file java compiles and runs, and the source
// tree it compiles further classes from on demand (JEP 458): the file's
// directory, less one level per component of its package.
func (a *analyzer) javaSource(w word, cx context) {
	p, ok := a.scriptPath(w, "java", cx)
	if !ok || p == "" {
		return
	}
	a.runs(Item{Kind: KindFile, Path: p, Source: w.source, Why: "java compiles and runs it"})
	root := dirOf(p)
	data, read, _ := a.readFile(p)
	if !read {
		if a.stat(p).Kind == Missing {
			return // nothing runs; the file's absence is bound
		}
		a.whole(w.source, "java compiles "+p+", which mcp-guard cannot read, with the sources of a tree its package places")
		return
	}
	if pkg := javaPackage(data); pkg != "" {
		// java refuses a directory that does not end in the package's
		// components; the levels are removed either way (more, never less).
		for range strings.Split(pkg, ".") {
			if root == "" {
				break
			}
			root = dirOf(root)
		}
	}
	a.runs(Item{Kind: KindCode, Lang: "java", Path: root, Source: w.source,
		Why: "java compiles the other classes a source program uses from its source tree"})
}

// javaPackage is the package a Java source file declares ("" for none),
// read past comments and annotations.
func javaPackage(src []byte) string {
	s := string(src)
	for {
		s = strings.TrimLeft(s, " \t\r\n\f\ufeff")
		switch {
		case strings.HasPrefix(s, "//"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
				continue
			}
			return ""
		case strings.HasPrefix(s, "/*"):
			if i := strings.Index(s[2:], "*/"); i >= 0 {
				s = s[i+4:]
				continue
			}
			return ""
		case strings.HasPrefix(s, "@"):
			// An annotation (package-info style): skip its name and
			// arguments.
			i := 1
			for i < len(s) && (isJavaIdent(s[i]) || s[i] == '.') {
				i++
			}
			s = s[i:]
			if t := strings.TrimLeft(s, " \t\r\n"); strings.HasPrefix(t, "(") {
				if j := strings.IndexByte(t, ')'); j >= 0 {
					s = t[j+1:]
				}
			}
			continue
		case strings.HasPrefix(s, "package") && len(s) > 7 && !isJavaIdent(s[7]):
			rest := s[7:]
			end := strings.IndexByte(rest, ';')
			if end < 0 {
				return ""
			}
			return strings.Join(strings.Fields(rest[:end]), "")
		}
		return ""
	}
}

func isJavaIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// javaJar binds a jar java loads and, through its manifest's Class-Path,
// the jars and directories it names (relative to the jar's directory),
// followed in turn. A jar that cannot be read leaves them unknown: the
// repository is bound.
func (a *analyzer) javaJar(p, source string, seen map[string]bool, depth int) {
	if seen[p] {
		return
	}
	seen[p] = true
	a.runs(Item{Kind: KindFile, Path: p, Source: source, Why: "java loads classes from this jar"})
	if depth > maxJarDepth {
		a.whole(source, "jars name jars on their Class-Path too deeply to follow")
		return
	}
	if a.fs == nil {
		return
	}
	switch a.stat(p).Kind {
	case Missing:
		return // java fails (or skips a Class-Path entry); its absence is bound
	case Dir:
		a.add(Item{Kind: KindTree, Path: p, Source: source, Why: "java loads classes from it"})
		return
	}
	data, err := a.fs.ReadFile(p, maxJarSize)
	if err != nil {
		if !errors.Is(err, ErrNotExist) && !errors.Is(err, ErrTooLarge) {
			a.fail(err)
			return
		}
		a.whole(source, p+": mcp-guard cannot read this jar, whose manifest's Class-Path may name any file")
		return
	}
	cp, err := jarClassPath(data)
	if err != nil {
		a.whole(source, p+": mcp-guard cannot read this jar's manifest ("+err.Error()+"), whose Class-Path may name any file")
		return
	}
	dir := dirOf(p)
	for _, e := range cp {
		u, err := url.Parse(e)
		if err != nil || (u.Scheme != "" && u.Scheme != "file") || u.Host != "" {
			continue // not a local path: not the repository's
		}
		rel := u.Path
		if u.Scheme == "file" || strings.HasPrefix(rel, "/") {
			continue // an absolute path: outside the repository (or the user's)
		}
		q, ok := repoPath(dir, rel)
		if !ok {
			continue
		}
		if strings.HasSuffix(rel, "/") {
			a.add(Item{Kind: KindTree, Path: q, Source: source, Why: "java loads classes from it (" + p + "'s Class-Path)"})
			continue
		}
		a.javaJar(q, source, seen, depth+1)
	}
}

// jarClassPath is the Class-Path of a jar's manifest: its space-separated
// relative URLs (nil when the jar has no manifest or no Class-Path).
func jarClassPath(data []byte) ([]string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	for _, f := range zr.File {
		if !strings.EqualFold(f.Name, "META-INF/MANIFEST.MF") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		m, err := io.ReadAll(io.LimitReader(rc, maxReadSize+1))
		rc.Close()
		if err != nil {
			return nil, err
		}
		if len(m) > maxReadSize {
			return nil, errors.New("a manifest over 1 MiB")
		}
		return manifestClassPath(string(m)), nil
	}
	return nil, nil
}

// manifestClassPath reads the main section's Class-Path header: a line
// beginning with one space continues the one before it.
func manifestClassPath(m string) []string {
	m = strings.ReplaceAll(strings.ReplaceAll(m, "\r\n", "\n"), "\r", "\n")
	var headers []string
	for _, line := range strings.Split(m, "\n") {
		switch {
		case line == "":
			if len(headers) > 0 {
				goto done // the end of the main section
			}
		case strings.HasPrefix(line, " ") && len(headers) > 0:
			headers[len(headers)-1] += line[1:]
		default:
			headers = append(headers, line)
		}
	}
done:
	var out []string
	for _, h := range headers {
		name, v, ok := strings.Cut(h, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Class-Path") {
			out = append(out, strings.Fields(v)...)
		}
	}
	return out
}
