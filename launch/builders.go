package launch

import (
	"strings"
)

// taskRunner follows just, task, rake and mage: a recipe file of the
// repository whose recipes run shell commands that are not followed.
func (a *analyzer) taskRunner(name string, args []word, cx context) {
	files := map[string][]string{
		"just": {"justfile", "Justfile", ".justfile"},
		"task": {"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"},
		"rake": {"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"},
		"mage": {"magefile.go"},
	}[name]
	for i, w := range args {
		switch w.text {
		case "-f", "--file", "--justfile", "--taskfile", "-t", "--rakefile", "-d", "--dir", "--directory", "--working-directory":
			if i+1 < len(args) {
				if strings.Contains(w.text, "d") && w.text != "-f" && !strings.Contains(w.text, "file") {
					a.chdir(&cx, args[i+1].text, args[i+1].lit, "command")
				} else {
					files = []string{args[i+1].text}
				}
			}
		}
	}
	if a.unknownCwd(cx, "command") {
		return
	}
	for _, f := range files {
		if p, ok := a.resolve(cx, f); ok && p != "" {
			a.runs(Item{Kind: KindFile, Path: p, Source: "command", Why: name + " runs a target the repository defines"})
		}
	}
	a.whole("command", name+" runs recipes that are not followed")
}

// projectEnv follows poetry, pipenv, hatch, pdm and rye `run CMD`: CMD runs
// in the project's environment, which installs the project itself.
func (a *analyzer) projectEnv(name string, args []word, cx context) {
	ops := skipOptions(args, "-C", "--directory", "--project", "-P", "-p")
	for i, w := range args {
		if (w.text == "-C" || w.text == "--directory" || w.text == "--project" || w.text == "-P") && i+1 < len(args) {
			a.chdir(&cx, args[i+1].text, args[i+1].lit, "command")
		}
	}
	if len(ops) == 0 || ops[0].text != "run" || a.unknownCwd(cx, "command") {
		return
	}
	for _, f := range []string{"pyproject.toml", "poetry.lock", "Pipfile", "Pipfile.lock", "pdm.lock", "requirements.lock", "hatch.toml"} {
		a.add(Item{Kind: KindFile, Path: joinDir(cx.cwd, f), Source: "command", Why: name + " run installs the project it describes"})
	}
	a.runs(Item{Kind: KindCode, Lang: "python", Path: cx.cwd, Source: ops[0].source,
		Why: name + " run runs in the repository's project environment, which installs the project's own code"})
	a.projectVenv(name+" run", ops[0].source, cx)
	if len(ops) > 1 {
		a.argv(ops[1:], cx)
	}
}

// bundle follows `bundle exec CMD`: the gems of the repository's Gemfile.
func (a *analyzer) bundle(args []word, cx context) {
	if len(args) == 0 || args[0].text != "exec" || a.unknownCwd(cx, "command") {
		return
	}
	for _, f := range []string{"Gemfile", "Gemfile.lock", "gems.rb", "gems.locked"} {
		a.runs(Item{Kind: KindFile, Path: joinDir(cx.cwd, f), Source: args[0].source, Why: "bundle exec runs with the gems the repository's Gemfile names"})
	}
	if len(args) > 1 {
		a.argv(args[1:], cx)
	}
}

// buildTool follows mvn, gradle, sbt and dotnet run: they build the
// repository's project and run its plugins and build scripts.
func (a *analyzer) buildTool(name string, args []word, cx context) {
	if name == "dotnet" {
		if len(args) == 0 {
			return
		}
		if t := strings.ToLower(args[0].text); strings.HasSuffix(t, ".dll") {
			if p, ok := a.resolve(cx, args[0].text); ok && p != "" && args[0].lit {
				a.runs(Item{Kind: KindFile, Path: p, Source: args[0].source, Why: "dotnet runs it"})
			}
			return
		}
		if args[0].text != "run" {
			return
		}
	}
	if a.unknownCwd(cx, "command") {
		return
	}
	a.runs(Item{Kind: KindTree, Path: cx.cwd, Source: "command", Why: name + " builds and runs the repository's project: any change under it re-gates this server"})
}

// powerShell follows -File SCRIPT (pwsh's default parameter); a -Command
// script is not followed, so the repository is bound in its place.
func (a *analyzer) powerShell(name string, args []word, cx context) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		opt := strings.ToLower(strings.TrimLeft(t, "-/"))
		opt, _, _ = strings.Cut(opt, ":")
		file := false
		switch {
		case !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "/"):
			if name != "pwsh" {
				a.whole(args[i].source, name+" runs a command that is not followed")
				return
			}
			file = true
		case opt == "f" || (len(opt) >= 2 && strings.HasPrefix("file", opt)):
			i++
			file = true
		case opt == "c" || (len(opt) >= 3 && strings.HasPrefix("command", opt)) ||
			opt == "ec" || (opt != "" && strings.HasPrefix("encodedcommand", opt)):
			a.whole(args[i].source, name+" runs a command that is not followed")
			return
		}
		if !file || i >= len(args) {
			continue
		}
		if p, ok := a.resolve(cx, args[i].text); ok && p != "" && args[i].lit && !cx.unknown {
			a.runs(Item{Kind: KindFile, Path: p, Source: args[i].source, Why: name + " runs this script"})
			a.add(Item{Kind: KindTree, Path: dirOf(p), Source: args[i].source,
				Why: name + " scripts may dot-source others from their directory: any change under it re-gates this server"})
		}
		return
	}
}
