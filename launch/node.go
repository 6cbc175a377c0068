package launch

import (
	"encoding/json"
	"strings"
)

// nodeValueFlags are node options that take a value as the next word.
var nodeValueFlags = map[string]bool{
	"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true,
	"-C": true, "--conditions": true, "--title": true, "--input-type": true, "--inspect-port": true,
	"--env-file": true, "--env-file-if-exists": true, "--stack-size": true, "--max-old-space-size": true,
	"--experimental-default-type": true, "--disable-warning": true, "--redirect-warnings": true,
	"--diagnostic-dir": true, "--report-dir": true, "--watch-path": true, "--experimental-config-file": true,
}

// node follows `node [options] SCRIPT|-e CODE [args]`.
func (a *analyzer) node(name string, args []word, cx context) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		flag, val, hasVal := strings.Cut(t, "=")
		if !strings.HasPrefix(t, "--") {
			flag, val, hasVal = t, "", false
		}
		value := func() (word, bool) {
			if hasVal {
				return word{text: val, lit: args[i].lit, source: args[i].source}, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		switch {
		case flag == "-e" || flag == "--eval" || flag == "-p" || flag == "--print" || flag == "-pe" || flag == "-ep":
			code, ok := value()
			if ok {
				a.b.s.Inline = append(a.b.s.Inline, Inline{Program: name, Flag: flag, Code: code.text, Source: code.source})
			}
			// Inline code can require anything; its requires are not followed.
			if a.fs != nil {
				a.b.gap(args[i].source, name+" "+flag+" runs inline code whose requires are not followed")
				a.add(Item{Kind: KindCode, Lang: "javascript", Path: "", Source: args[i].source,
					Why: "inline code may load any JavaScript in the repository: any change to JavaScript re-gates this server"})
			}
			return
		case flag == "-r" || flag == "--require" || flag == "--import" || flag == "--loader" || flag == "--experimental-loader":
			v, ok := value()
			if ok {
				a.nodePreload(v, flag, cx)
			}
		case flag == "--env-file" || flag == "--env-file-if-exists":
			if v, ok := value(); ok {
				a.fileWord(cx, v, "node reads variables (NODE_OPTIONS too) from it")
				if p, in := a.resolve(cx, v.text); in && p != "" && v.lit {
					a.envFile(p, v.source, "node reads variables (NODE_OPTIONS too) from it", false, &cx)
				}
			}
		case nodeValueFlags[flag]:
			value()
		case t == "--":
			if i+1 < len(args) {
				a.nodeMain(args[i+1], name, cx)
			}
			return
		case strings.HasPrefix(t, "-") && t != "-":
		case t == "-":
			return // stdin
		default:
			a.nodeMain(args[i], name, cx)
			return
		}
	}
}

// tsRunner follows tsx, ts-node and their kin: node's grammar, TypeScript
// files.
func (a *analyzer) tsRunner(name string, args []word, cx context) {
	in := args
	if len(in) > 0 && (in[0].text == "watch") {
		in = in[1:]
	}
	// The runner's own options with a value are not node's: taken out.
	var rest []word
	for i := 0; i < len(in); i++ {
		t := in[i].text
		if (t == "--tsconfig" || t == "-P" || t == "--project") && i+1 < len(in) {
			// Its paths re-map specifiers the graph resolves with the
			// tsconfig.json it finds itself.
			a.fileWord(cx, in[i+1], name+" reads its compiler options from it")
			a.unsure(in[i+1].source, name+" takes its compiler options from "+Clip(in[i+1].text, 120), cx)
			i++
			continue
		}
		if !strings.HasPrefix(t, "-") {
			// The script: what follows is its own arguments.
			rest = append(rest, in[i:]...)
			break
		}
		rest = append(rest, in[i])
	}
	a.node(name, rest, cx)
}

// nodePreload binds a module node loads before the program.
func (a *analyzer) nodePreload(w word, flag string, cx context) {
	if !w.lit {
		a.whole(w.source, "node "+flag+" loads a module named at run time")
		return
	}
	if !strings.HasPrefix(w.text, ".") && !strings.HasPrefix(w.text, "/") {
		// A bare name: a package from node_modules.
		a.nodePackage(w.text, w.source, cx, "node "+flag+" loads this package first")
		return
	}
	if p, ok := a.resolve(cx, w.text); ok && p != "" {
		a.jsEntry(cx, p, w.source, "node "+flag+" loads it before the program")
	}
}

// nodeOptions applies NODE_OPTIONS' words: the preloads.
func (a *analyzer) nodeOptions(words []string, source string, cx context) {
	for i := 0; i < len(words); i++ {
		flag, val, has := strings.Cut(words[i], "=")
		switch flag {
		case "-r", "--require", "--import", "--loader", "--experimental-loader":
			if !has && i+1 < len(words) {
				i++
				val = words[i]
			}
			a.nodePreload(word{text: val, lit: true, source: source}, flag, cx)
		}
	}
}

// nodeMain binds the program node runs: a path (node resolves a bare name
// as a path too), with what it can load.
func (a *analyzer) nodeMain(w word, name string, cx context) {
	if p, ok := a.scriptPath(w, name, cx); ok {
		a.jsEntry(cx, p, w.source, name+" runs it")
	}
}

// jsEntry binds a JavaScript entry point (a file, or a directory node
// resolves through package.json "main" and index.js) and what it loads.
func (a *analyzer) jsEntry(cx context, p, source, why string) {
	if p != "" {
		a.runs(Item{Kind: KindFile, Path: p, Source: source, Why: why})
	}
	a.jsScope(cx, p, source, why)
}

// jsScope binds the JavaScript a module at p can reach: its import graph
// when that can be followed, else every JavaScript file of the
// repository.
func (a *analyzer) jsScope(cx context, p, source, why string) {
	a.jsScopeFor(cx, p, source, why, RunTS)
}

// jsScopeFor is jsScope for the given runner.
func (a *analyzer) jsScopeFor(cx context, p, source, why string, runner JSRunner) {
	if a.fs == nil || a.followJSFor(cx, p, source, why, runner) {
		return // without an FS the model says what the command line names
	}
	a.b.gap(source, "what "+displayPath(p)+" loads cannot be followed")
	a.add(Item{Kind: KindCode, Lang: "javascript", Path: "", Source: source,
		Why: "it may load any JavaScript in the repository: any change to JavaScript re-gates this server"})
}

// nodePackage binds a package node (or a package runner) finds by name in
// node_modules: the package directory in the working directory and in
// each directory above it, up to the repository root.
func (a *analyzer) nodePackage(spec, source string, cx context, why string) {
	name := packageName(spec)
	if name == "" || cx.unknown {
		return
	}
	for d := cx.cwd; ; d = dirOf(d) {
		p := joinDir(d, "node_modules/"+name)
		a.add(Item{Kind: KindTree, Path: p, Source: source, Why: why})
		if d == "" {
			break
		}
	}
}

// packageName is the package of a specifier: "pkg" for pkg@1 or pkg/sub,
// "@s/p" for @s/p@2; "" when it is not a registry name.
func packageName(spec string) string {
	if spec == "" || strings.ContainsAny(spec, `:\`) || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") {
		return ""
	}
	name := spec
	if strings.HasPrefix(name, "@") {
		scope, rest, ok := strings.Cut(name[1:], "/")
		if !ok || scope == "" {
			return ""
		}
		rest, _, _ = strings.Cut(rest, "/")
		rest, _, _ = strings.Cut(rest, "@")
		if rest == "" {
			return ""
		}
		return "@" + scope + "/" + rest
	}
	name, _, _ = strings.Cut(name, "/")
	name, _, _ = strings.Cut(name, "@")
	if name == "" || name == ".." {
		return ""
	}
	return name
}

// packageJSON is the part of a package.json that decides what runs.
type packageJSON struct {
	Main    string          `json:"main"`
	Bin     json.RawMessage `json:"bin"`
	Name    string          `json:"name"`
	Scripts map[string]any  `json:"scripts"`
	// PackageManager is corepack's field: the package manager (and
	// version, or URL) that runs for this project.
	PackageManager string `json:"packageManager"`
}

// readPackageJSON reads dir/package.json; ok false when absent or not
// valid (the caller binds the file either way), tooLarge when it is past
// maxReadSize (1 MiB of JSON decodes to at most about 36 MiB: measured).
func (a *analyzer) readPackageJSON(dir string) (pj packageJSON, ok, tooLarge bool) {
	data, found, tooLarge := a.readFile(joinDir(dir, "package.json"))
	if !found {
		return pj, false, tooLarge
	}
	if json.Unmarshal(stripBOM(data), &pj) != nil {
		return packageJSON{}, false, false
	}
	return pj, true, false
}

// bins are the program names and repository-relative targets of a
// package's "bin".
func (pj packageJSON) bins() map[string]string {
	out := map[string]string{}
	var s string
	if json.Unmarshal(pj.Bin, &s) == nil && s != "" {
		n := pj.Name
		if i := strings.LastIndexByte(n, '/'); i >= 0 {
			n = n[i+1:]
		}
		out[n] = s
		return out
	}
	var m map[string]string
	if json.Unmarshal(pj.Bin, &m) == nil {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func displayPath(p string) string {
	if p == "" {
		return "./"
	}
	return p
}
