package launch

import (
	"strconv"
	"strings"
	"testing"
)

// manyRuns is a script that runs prog n times, each with another script.
func manyRuns(prog string, n int) string {
	var lines []string
	for i := range n {
		lines = append(lines, prog+" node s"+strconv.Itoa(i)+".js")
	}
	return strings.Join(lines, "\n")
}

// A repository script that ends in exec "$@" runs the rest of its command
// line: it binds itself and what that command runs, not the repository,
// as long as nothing in it is beyond the model (a sourced file named at
// run time, eval, a computed command), which binds the repository still.
func TestScopeWrapperScripts(t *testing.T) {
	server := mapFS{"server.js": "require('./lib')", "lib.js": "1", "README.md": "x", "docs/a.md": "y"}
	with := server.with
	wrapper := "scripts/with-env.sh"
	narrow := []string{"F* " + wrapper, "F* server.js", "F* lib.js"}
	broad := []string{"T ./"}
	quiet := []string{"T ./", "F README.md", "F docs/a.md", "C ./ (javascript code)"}
	runScopeCases(t, []scopeCase{
		{name: "plain wrapper", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nexec \"$@\"\n"}),
			has: narrow, hasNot: quiet},
		{name: "plain wrapper without exec, bash through env", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/usr/bin/env bash\nset -euo pipefail\nexport PORT=3000\n\"$@\"\n"}),
			has: narrow, hasNot: quiet},
		{name: "plain wrapper run by sh", cmd: "sh", args: []string{wrapper, "node", "server.js"},
			fs:  with(map[string]string{wrapper: "exec \"$@\"\n"}),
			has: narrow, hasNot: quiet},
		{name: "unquoted $@ of plain words", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nexec $@\n"}),
			has: narrow, hasNot: quiet},
		{name: "unquoted $@ splits a word with a space", cmd: "./" + wrapper, args: []string{"node", "my server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nexec $@\n"}),
			has: broad, gap: true},
		{name: "sh -c with $0 and arguments", cmd: "sh", args: []string{"-c", `exec "$@"`, "sh", "node", "server.js"},
			fs:  with(nil),
			has: []string{"F* server.js", "F* lib.js"}, hasNot: quiet},
		{name: "wrapper that moves to its own directory", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs: with(map[string]string{wrapper: "#!/bin/sh\ncd \"$(dirname \"$0\")\"\nexec \"$@\"\n",
				"scripts/server.js": "require('./util')", "scripts/util.js": "1"}),
			has:    []string{"F* " + wrapper, "F* scripts/server.js", "F* scripts/util.js"},
			hasNot: append([]string{"F* server.js"}, quiet...)},
		{name: "wrapper that moves to the repository's top", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\ncd \"$(dirname \"$0\")/..\" || exit 1\nexec \"$@\"\n"}),
			has: narrow, hasNot: quiet},
		{name: "wrapper that sources .env", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/bash\nsource .env\nexec \"$@\"\n", ".env": "PORT=3000\nNODE_OPTIONS='--require ./hook.js'\n", "hook.js": "1"}),
			has: append([]string{"F* .env", "F* hook.js"}, narrow...), hasNot: quiet},
		{name: "exec \"$@\" after set -a; . ./.env", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nset -a\n. ./.env\nset +a\nexec \"$@\"\n", ".env": "API_URL=http://localhost:8080\n"}),
			has: append([]string{"F* .env"}, narrow...), hasNot: quiet},
		{name: "a sourced file's cd and PATH hold after it", cmd: "./" + wrapper, args: []string{"srv", "main.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\n. ./scripts/env.sh\nexec \"$@\"\n", "scripts/env.sh": "cd app\nPATH=./bin:/usr/bin\n", "app/bin/srv": "#!/bin/sh\nnode \"$1\"\n", "app/main.js": "1"}),
			has: []string{"F* scripts/env.sh", "F app/bin/srv"}, hasNot: []string{"T ./", "F bin/srv"}},
		{name: "a sourced file's cd holds after it", cmd: "sh", args: []string{"-c", ". ./env.sh && ./run"},
			fs:  mapFS{"env.sh": "cd app\n", "app/run": "\x7fELF", "run": "\x7fELF"},
			has: []string{"F* env.sh", "F* app/run"}, hasNot: []string{"F* run", "T ./"}},
		{name: "$0 in a sourced file is the script that sourced it", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs: with(map[string]string{wrapper: "#!/bin/sh\n. ./lib/env.sh\nexec \"$@\"\n", "lib/env.sh": "cd \"$(dirname \"$0\")\"\n",
				"scripts/server.js": "1", "lib/server.js": "2"}),
			has: []string{"F* scripts/server.js"}, hasNot: []string{"F* lib/server.js", "T ./"}},
		{name: "wrapper that sources a file named at run time", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\n. \"$ENV_FILE\"\nexec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "wrapper with eval", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\neval \"$(cat .env)\"\nexec \"$@\"\n", ".env": "X=1"}),
			has: broad, gap: true},
		{name: "wrapper that runs a computed command", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\n$RUNNER \"$@\"\n"}),
			has: broad, gap: true},
		{name: "shift drops the first argument", cmd: "./" + wrapper, args: []string{"prod", "node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nexport STAGE=\"$1\"\nshift\nexec \"$@\"\n"}),
			has: narrow, hasNot: quiet},
		{name: "a shift that may not happen", cmd: "./" + wrapper, args: []string{"--dev", "node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nif [ \"$1\" = --dev ]; then shift; fi\nexec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "a shift after &&", cmd: "./" + wrapper, args: []string{"--dev", "node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\n[ \"$1\" = --dev ] && shift\nexec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "set a b replaces the arguments", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nset -e\nset node other.js\nexec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "a file sourced with arguments has them as \"$@\"", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/bash\nsource ./scripts/lib.sh ./other.sh\n", "scripts/lib.sh": "exec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "set -- replaces the arguments", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nset -- node other.js\nexec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "$@ in a function is the function's", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nrun() { exec \"$@\"; }\nrun node other.js\n", "other.js": "1"}),
			has: []string{"F* " + wrapper, "F* other.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "a function of the name \"$@\" starts", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/bash\n\"$@\"\nnode() { ./evil.sh; }\n"}),
			has: broad, gap: true},
		{name: "an exported function in the entry's env", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			env: map[string]string{"BASH_FUNC_node%%": "() { ./evil.sh; }"},
			fs:  with(map[string]string{wrapper: "#!/bin/bash\n\"$@\"\n"}),
			has: broad, gap: true},
		{name: "a trap's command runs", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\ntrap './scripts/cleanup.sh' EXIT\n\"$@\"\n", "scripts/cleanup.sh": "#!/bin/sh\nrm -f x\n"}),
			has: append([]string{"F* scripts/cleanup.sh"}, narrow...), hasNot: quiet},
		{name: "hash -p names a program's file", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/bash\nhash -p ./evil node\nexec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "the same wrapper for two commands binds both", cmd: "sh", args: []string{"-c", "./" + wrapper + " node server.js; ./" + wrapper + " node other.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nexec \"$@\"\n", "other.js": "1"}),
			has: append([]string{"F* other.js"}, narrow...), hasNot: quiet},
		{name: "one script run from two directories", cmd: "sh", args: []string{"-c", "./run.sh; cd sub && ../run.sh"},
			fs:  mapFS{"run.sh": "#!/bin/sh\nnode x.js\n", "x.js": "1", "sub/x.js": "2"},
			has: []string{"F* run.sh", "F* x.js", "F* sub/x.js"}, hasNot: []string{"T ./"}},
		{name: "a wrapper run in too many ways binds the repository", cmd: "sh", args: []string{"-c", manyRuns("./"+wrapper, 17)},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\nexec \"$@\"\n"}),
			has: broad, gap: true},
		{name: "a wrapper that runs itself again", cmd: "./" + wrapper, args: []string{"node", "server.js"},
			fs:  with(map[string]string{wrapper: "#!/bin/sh\n\"$0\" x \"$@\"\n. \"$0\"\n"}),
			has: broad, gap: true},
	})
}

// sh and bash run a script a line at a time: the commands before a syntax
// error, and the lines around NUL bytes, still run (dash and bash 5.2,
// checked by hand). A script the model cannot parse, or one holding
// binary data, binds the repository, never only itself.
func TestScopeScriptsShellRunsAnyway(t *testing.T) {
	lib := mapFS{"lib.js": "1", "README.md": "x"}
	with := lib.with
	broad := []string{"T ./"}
	runScopeCases(t, []scopeCase{
		{name: "a syntax error after the command", cmd: "./run.sh",
			fs:  with(map[string]string{"run.sh": "#!/bin/sh\nnode lib.js\nif then (\n"}),
			has: append([]string{"F* run.sh"}, broad...), gap: true},
		{name: "no #! line and a syntax error", cmd: "./run.sh",
			fs:  with(map[string]string{"run.sh": "node lib.js\n)\n"}),
			has: append([]string{"F* run.sh"}, broad...), gap: true},
		{name: "a NUL byte after the command", cmd: "sh", args: []string{"run.sh"},
			fs:  with(map[string]string{"run.sh": "node lib.js\n\x00\x01\n"}),
			has: append([]string{"F* run.sh"}, broad...), gap: true},
		{name: "no #! line and a NUL byte, run as a program", cmd: "./run.sh",
			fs:  with(map[string]string{"run.sh": "node lib.js\n\x00\n"}),
			has: append([]string{"F* run.sh"}, broad...), gap: true},
		{name: "a sourced file with a syntax error", cmd: "sh", args: []string{"run.sh"},
			fs:  with(map[string]string{"run.sh": ". ./env.sh\n", "env.sh": "node lib.js\nfi\n"}),
			has: append([]string{"F* run.sh"}, broad...), gap: true},
		{name: "inline script that does not parse", cmd: "sh", args: []string{"-c", "node lib.js; if then"},
			fs:  with(nil),
			has: broad, gap: true},
		{name: "a script that parses is followed, not the repository", cmd: "./run.sh",
			fs:     with(map[string]string{"run.sh": "#!/bin/sh\nnode lib.js\n"}),
			has:    []string{"F* run.sh", "F* lib.js"},
			hasNot: broad},
	})
}

// manyCalls is a script that declares f and calls it n times, each time
// with another argument.
func manyCalls(body, arg string, n int) string {
	lines := []string{"f() { " + body + "; }"}
	for i := range n {
		lines = append(lines, "f "+strings.ReplaceAll(arg, "N", strconv.Itoa(i)))
	}
	return strings.Join(lines, "\n")
}

// A function's body runs where it is called, in the caller's shell: its
// working directory, PATH, variables and functions then, with the call's
// words as "$@"; what the body changes holds after the call. A name the
// function may not hold (declared in a branch, or in a subshell that has
// ended) still runs the program or builtin of that name.
func TestScopeShellFunctions(t *testing.T) {
	srv := mapFS{"server.js": "1", "sub/server.js": "2", "evil.js": "3", "bin/srv": "#!/bin/sh\n", "README.md": "x"}
	with := srv.with
	broad := []string{"T ./"}
	sh := func(script string) []string { return []string{"-c", script} }
	runScopeCases(t, []scopeCase{
		{name: "a cd between declaration and call", cmd: "sh", args: sh("f() { node server.js; }; cd sub; f"),
			fs: with(nil), has: []string{"F* sub/server.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "a PATH set between declaration and call", cmd: "sh", args: sh("f() { srv; }; PATH=./bin:/usr/bin; f"),
			fs: with(nil), has: []string{"F bin/srv"}, hasNot: broad},
		{name: "an export between declaration and call", cmd: "bash", args: sh("f() { bash run.sh; }; export BASH_ENV=./env.sh; f"),
			fs:  with(map[string]string{"env.sh": "cd sub\n", "run.sh": "node server.js\n"}),
			has: []string{"F* env.sh", "F* run.sh", "F* sub/server.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "a function declared and not called runs nothing", cmd: "sh", args: sh("f() { cd sub; node evil.js; }; node server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: append([]string{"F* sub/server.js", "F* evil.js"}, broad...)},
		{name: "a cd in the body moves the caller", cmd: "sh", args: sh("f() { cd sub; }; f; node server.js"),
			fs: with(nil), has: []string{"F* sub/server.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "a function called from two directories", cmd: "sh", args: sh("f() { node server.js; }; f; cd sub; f"),
			fs: with(nil), has: []string{"F* server.js", "F* sub/server.js"}, hasNot: broad},
		{name: "a function calls one declared after it", cmd: "sh", args: sh("main() { helper; }; helper() { node server.js; }; cd sub; main"),
			fs: with(nil), has: []string{"F* sub/server.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "the call's words are the function's \"$@\"", cmd: "sh", args: sh(`run() { cd sub; exec "$@"; }; run node server.js`),
			fs: with(nil), has: []string{"F* sub/server.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "a function named like a builtin runs in its place", cmd: "sh", args: sh("cd() { :; }; cd sub; node server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: append([]string{"F* sub/server.js"}, broad...)},
		{name: "a function named like a program runs in its place", cmd: "sh", args: sh("node() { command node evil.js; }; node server.js"),
			fs: with(nil), has: []string{"F* evil.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "a special builtin sh finds before a function", cmd: "sh", args: sh("eval() { :; }; eval \"$X\""),
			fs: with(nil), has: broad, gap: true},
		{name: "a function named like export runs in its place", cmd: "bash", args: sh("function export { node evil.js; }; export X=1"),
			fs: with(nil), has: []string{"F* evil.js"}, hasNot: broad},
		{name: "a cd on a pipeline's left stays in its subshell", cmd: "sh", args: sh("cd sub | cat; node server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: append([]string{"F* sub/server.js"}, broad...)},
		{name: "echo as a function", cmd: "sh", args: sh("echo() { node evil.js; }; echo hi"),
			fs: with(nil), has: []string{"F* evil.js"}, hasNot: broad},
		{name: "a function declared in a branch may not be there", cmd: "sh", args: sh("if [ -n \"$X\" ]; then node() { :; }; fi; node server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: broad},
		{name: "a function redeclared in a branch may be either", cmd: "sh", args: sh("f() { node server.js; }; if [ -n \"$X\" ]; then f() { node evil.js; }; fi; f"),
			fs: with(nil), has: []string{"F* server.js", "F* evil.js"}, hasNot: broad},
		{name: "a function declared in a subshell ends with it", cmd: "sh", args: sh("(node() { :; }); node server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: broad},
		{name: "a function redeclared in a subshell is the old one after it", cmd: "sh", args: sh("f() { node server.js; }; (f() { node evil.js; }); f"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: append([]string{"F* evil.js"}, broad...)},
		{name: "a cd in a background command stays in its subshell", cmd: "sh", args: sh("cd sub & node server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: append([]string{"F* sub/server.js"}, broad...)},
		{name: "unset -f drops the function", cmd: "bash", args: sh("node() { :; }; unset -f node; node server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: broad},
		{name: "a function unset -f dropped runs no more", cmd: "bash", args: sh("f() { node evil.js; }; unset -f f; f"),
			fs: with(nil), hasNot: append([]string{"F* evil.js"}, broad...)},
		{name: "a loop's next turn calls a function its first declared", cmd: "sh", args: sh("for i in 1 2; do f; f() { node evil.js; }; done"),
			fs: with(nil), has: []string{"F* evil.js"}, hasNot: broad},
		{name: "a loop that keeps moving binds the repository", cmd: "sh", args: sh("for i in 1 2; do node server.js; cd sub; done"),
			fs: with(nil), has: append([]string{"F* server.js", "F* sub/server.js"}, broad...), gap: true},
		{name: "a loop's shift changes its next turn's \"$@\"", cmd: "./run.sh", args: []string{"node", "server.js", "evil.js"},
			fs:  with(map[string]string{"run.sh": "#!/bin/sh\nwhile [ $# -gt 1 ]; do \"$@\"; shift; done\n"}),
			has: broad, gap: true},
		{name: "a trap runs a function declared after it", cmd: "sh", args: sh("trap cleanup EXIT; cleanup() { node evil.js; }; node server.js"),
			fs: with(nil), has: []string{"F* evil.js", "F* server.js"}, hasNot: broad},
		{name: "a recursive function binds the repository", cmd: "sh", args: sh("f() { f; }; f"),
			fs: with(nil), has: broad, gap: true},
		{name: "a function called in too many ways binds the repository", cmd: "sh", args: sh(manyCalls(`node "$@"`, "sNjs", 17)),
			fs: with(nil), has: broad, gap: true},
		{name: "a helper called many times with its own words stays narrow", cmd: "sh", args: sh(manyCalls(`echo "[run] $*"`, "step N", 40) + "\nnode server.js"),
			fs: with(nil), has: []string{"F* server.js"}, hasNot: broad},
		{name: "export -f hands a function to child shells", cmd: "bash", args: sh("f() { node evil.js; }; export -f f; bash -c f"),
			fs: with(nil), has: broad, gap: true},
		{name: "command_not_found_handle runs for any missing command", cmd: "bash", args: sh("command_not_found_handle() { node evil.js; }; mcp-server"),
			fs: with(nil), has: broad, gap: true},
		{name: "BASH_SOURCE in a function is the file that declares it", cmd: "sh", args: sh(". lib/f.sh; cd sub; f"),
			fs:  with(map[string]string{"lib/f.sh": "f() { cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && node server.js; }\n", "lib/server.js": "4"}),
			has: []string{"F* lib/f.sh", "F* sub/lib/server.js"}, hasNot: append([]string{"F* lib/server.js"}, broad...)},
	})
}

// bash started on a script (not interactive) first sources the file
// BASH_ENV names, from its own working directory, in the shell that then
// runs the script: the file's cd, PATH, exports and functions hold there.
// sh does not; a value bash would expand binds the repository.
func TestScopeBashEnv(t *testing.T) {
	srv := mapFS{"server.js": "1", "sub/server.js": "2", "evil.sh": "#!/bin/sh\n", "bin/srv": "#!/bin/sh\n", "README.md": "x"}
	with := srv.with
	broad := []string{"T ./"}
	env := map[string]string{"BASH_ENV": "./env.sh"}
	runScopeCases(t, []scopeCase{
		{name: "its cd holds in the script", cmd: "bash", args: []string{"run.sh"}, env: env,
			fs:  with(map[string]string{"env.sh": "cd sub\n", "run.sh": "node server.js\n"}),
			has: []string{"F* env.sh", "F* run.sh", "F* sub/server.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "its function runs in the script", cmd: "bash", args: []string{"run.sh"}, env: env,
			fs:  with(map[string]string{"env.sh": "node() { ./evil.sh; }\n", "run.sh": "node server.js\n"}),
			has: []string{"F* env.sh", "F* evil.sh"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "its PATH holds in the script", cmd: "bash", args: []string{"-c", "srv"}, env: env,
			fs:  with(map[string]string{"env.sh": "PATH=./bin:/usr/bin\n"}),
			has: []string{"F* env.sh", "F bin/srv"}, hasNot: broad},
		{name: "a #! bash script reads it", cmd: "./run.sh", env: env,
			fs:  with(map[string]string{"env.sh": "cd sub\n", "run.sh": "#!/usr/bin/env bash\nnode server.js\n"}),
			has: []string{"F* env.sh", "F* sub/server.js"}, hasNot: append([]string{"F* server.js"}, broad...)},
		{name: "it is read from where bash starts", cmd: "sh", args: []string{"-c", "cd sub && bash run.sh"}, env: env,
			fs:  with(map[string]string{"sub/env.sh": "node() { ../evil.sh; }\n", "sub/run.sh": "node server.js\n"}),
			has: []string{"F* sub/env.sh", "F* evil.sh"}, hasNot: append([]string{"F* sub/server.js"}, broad...)},
		{name: "set by the script that starts bash", cmd: "sh", args: []string{"-c", "export BASH_ENV=./env.sh; bash run.sh"},
			fs:  with(map[string]string{"env.sh": "cd sub\n", "run.sh": "node server.js\n"}),
			has: []string{"F* env.sh", "F* sub/server.js"}, hasNot: broad},
		{name: "sh does not read it", cmd: "sh", args: []string{"run.sh"}, env: env,
			fs:  with(map[string]string{"env.sh": "cd sub\n", "run.sh": "node server.js\n"}),
			has: []string{"F* server.js"}, hasNot: append([]string{"F* sub/server.js"}, broad...)},
		{name: "a value bash expands", cmd: "bash", args: []string{"run.sh"}, env: map[string]string{"BASH_ENV": "$(./evil.sh)"},
			fs:  with(map[string]string{"run.sh": "node server.js\n"}),
			has: broad, gap: true},
		{name: "its functions count for a bash the model does not see", cmd: "python3", args: []string{"-c", "import os"}, env: env,
			fs:  with(map[string]string{"env.sh": "node() { ./evil.sh; }\n"}),
			has: []string{"F* env.sh", "F* evil.sh"}, hasNot: broad},
	})
}

// dash expands aliases in a script (bash once expand_aliases is set, or
// run as sh): `alias node='node ./evil.js'` makes a later `node server.js`
// run evil.js too. A script that defines one binds the repository.
func TestScopeScriptAliases(t *testing.T) {
	fs := func(script string) mapFS {
		return mapFS{"server.js": "1", "evil.js": "2", "README.md": "x", "w.sh": script}
	}
	runScopeCases(t, []scopeCase{
		{name: "sh alias", cmd: "./w.sh",
			fs:  fs("#!/bin/sh\nalias node='node ./evil.js'\nnode server.js\n"),
			has: []string{"F* w.sh", "T ./"}, gap: true},
		{name: "bash alias", cmd: "./w.sh",
			fs:  fs("#!/bin/bash\nshopt -s expand_aliases\nalias node='node ./evil.js'\nnode server.js\n"),
			has: []string{"T ./"}, gap: true},
		{name: "BASH_ALIASES", cmd: "bash", args: []string{"w.sh"},
			fs:  fs("shopt -s expand_aliases\nBASH_ALIASES[node]='node ./evil.js'\nnode server.js\n"),
			has: []string{"T ./"}, gap: true},
		{name: "an alias computed at run time", cmd: "sh", args: []string{"w.sh"},
			fs:  fs("alias \"$X\"\nnode server.js\n"),
			has: []string{"T ./"}, gap: true},
		{name: "alias listing only", cmd: "sh", args: []string{"w.sh"},
			fs:     fs("alias\nalias ll\nnode server.js\n"),
			has:    []string{"F* server.js"},
			hasNot: []string{"T ./"}},
	})
}

// `builtin NAME` and `command NAME` run NAME as the shell's own (eval,
// alias, source), and a few builtins reach code without naming a program:
// enable -f loads a shared object, declare -n sets a variable through
// another name. Each is followed as itself or binds the repository.
func TestScopeScriptBuiltins(t *testing.T) {
	fs := func(script string) mapFS {
		return mapFS{"server.js": "1", "evil.js": "2", "evil.sh": "node evil.js\n", "README.md": "x", "w.sh": script}
	}
	broad := []string{"T ./"}
	runScopeCases(t, []scopeCase{
		{name: "builtin eval", cmd: "sh", args: []string{"w.sh"}, fs: fs("builtin eval \"$X\"\n"), has: broad, gap: true},
		{name: "command eval", cmd: "sh", args: []string{"w.sh"}, fs: fs("command eval \"$X\"\n"), has: broad, gap: true},
		{name: "command -p eval", cmd: "sh", args: []string{"w.sh"}, fs: fs("command -p -- eval \"$X\"\n"), has: broad, gap: true},
		{name: "builtin alias", cmd: "sh", args: []string{"w.sh"}, fs: fs("builtin alias node='node evil.js'\nnode server.js\n"), has: broad, gap: true},
		{name: "command source", cmd: "sh", args: []string{"w.sh"}, fs: fs("command . ./evil.sh\n"),
			has: []string{"F* evil.sh", "F* evil.js"}, hasNot: broad},
		{name: "command -v only looks", cmd: "sh", args: []string{"w.sh"}, fs: fs("command -v eval\nnode server.js\n"),
			has: []string{"F* server.js"}, hasNot: broad},
		{name: "enable -f", cmd: "bash", args: []string{"w.sh"}, fs: fs("enable -f ./evil.so x\n"), has: broad, gap: true},
		{name: "declare -n", cmd: "bash", args: []string{"w.sh"},
			fs: fs("declare -n r=NODE_OPTIONS\nr='-r ./evil.js'\nexport NODE_OPTIONS\nnode server.js\n"), has: broad, gap: true},
		{name: "local -rn in a function", cmd: "bash", args: []string{"w.sh"},
			fs: fs("f() { local -rn r=PATH; }\nf\nnode server.js\n"), has: broad, gap: true},
		{name: "declare -x is an export", cmd: "bash", args: []string{"w.sh"},
			fs: fs("declare -x PORT=3000\nnode server.js\n"), has: []string{"F* server.js"}, hasNot: broad},
	})
}

// Branches are ways the script may go, each from where the shell was
// before them, not one after another: `if a; then cd sub; else node
// server.js; fi` runs ./server.js. After them the shell is any of the
// ways that did not end it: a directory they disagree on is unknown, a
// variable that decides what runs set differently binds the repository.
func TestScopeShellBranches(t *testing.T) {
	fs := mapFS{"server.js": "1", "sub/server.js": "2", "sub/x.js": "3", "x.js": "4", "README.md": "x", "bin/node": "#!/bin/sh\n"}
	broad := []string{"T ./"}
	runScopeCases(t, []scopeCase{
		{name: "else runs where the script was", cmd: "sh", args: []string{"-c", "if [ -f a ]; then cd sub; else node server.js; fi"},
			fs: fs, has: []string{"F* server.js"}, hasNot: append([]string{"F* sub/server.js"}, broad...)},
		{name: "elif runs where the script was", cmd: "sh", args: []string{"-c", "if [ -f a ]; then cd sub; elif [ -f b ]; then node server.js; fi"},
			fs: fs, has: []string{"F* server.js"}, hasNot: broad},
		{name: "case items do not follow each other", cmd: "sh", args: []string{"-c", "case $1 in a) cd sub;; b) node server.js;; esac"},
			fs: fs, has: []string{"F* server.js"}, hasNot: append([]string{"F* sub/server.js"}, broad...)},
		{name: "after an if that may cd, the directory is unknown", cmd: "sh", args: []string{"-c", "if [ -f a ]; then cd sub; fi\nnode x.js"},
			fs: fs, has: broad, gap: true},
		{name: "cd || exit goes on in the directory", cmd: "sh", args: []string{"-c", "cd sub || exit 1\nnode x.js"},
			fs: fs, has: []string{"F* sub/x.js"}, hasNot: broad},
		{name: "a branch that exits does not go on", cmd: "sh", args: []string{"-c", "if [ -d sub ]; then cd sub; else echo no; exit 1; fi\nnode x.js"},
			fs: fs, has: []string{"F* sub/x.js"}, hasNot: broad},
		{name: "a branch that execs does not go on", cmd: "sh", args: []string{"-c", "if [ -f a ]; then exec node server.js; fi\ncd sub\nnode x.js"},
			fs: fs, has: []string{"F* server.js", "F* sub/x.js"}, hasNot: broad},
		{name: "return in a function goes on in its caller", cmd: "bash", args: []string{"-c", "f() { if [ -f a ]; then cd sub; return; fi; }\nf\nnode x.js"},
			fs: fs, has: broad, gap: true},
		{name: "both branches cd to the same place", cmd: "sh", args: []string{"-c", "if [ -f a ]; then cd sub; else cd sub; fi\nnode x.js"},
			fs: fs, has: []string{"F* sub/x.js"}, hasNot: broad},
		{name: "PATH set in one branch only", cmd: "sh", args: []string{"-c", "if [ -f a ]; then PATH=bin:/usr/bin; fi\nnode x.js"},
			fs: fs, has: broad, gap: true},
		{name: "an && list that may cd", cmd: "sh", args: []string{"-c", "[ -d sub ] && cd sub\nnode x.js"},
			fs: fs, has: broad, gap: true},
		{name: "an exit that a function replaces does not end the shell", cmd: "bash", args: []string{"-c", "exit() { :; }\nif [ -f a ]; then cd sub; exit 1; fi\nnode x.js"},
			fs: fs, has: broad, gap: true},
		{name: "a variable that decides nothing may differ", cmd: "sh", args: []string{"-c", "if [ -z \"$PORT\" ]; then PORT=3000; fi\nnode x.js"},
			fs: fs, has: []string{"F* x.js"}, hasNot: broad},
	})
}
