package policy

import "strings"

// execEnv lists environment variables that change what code a program
// runs, with what each does. Names are compared ignoring case: Windows
// environment names are case-insensitive, and a repository would not spell
// one oddly by accident.
var execEnv = map[string]string{
	"NODE_OPTIONS":          "node reads command-line options from it (--require, --import, --loader load code before the program)",
	"NODE_PATH":             "node resolves modules from these directories",
	"LD_PRELOAD":            "the dynamic loader injects these libraries into every process",
	"LD_LIBRARY_PATH":       "the dynamic loader loads shared libraries from these directories first",
	"LD_AUDIT":              "the dynamic loader loads these auditing libraries into every process",
	"PYTHONPATH":            "python imports modules from these directories first",
	"PYTHONSTARTUP":         "python runs this file at interactive start",
	"PYTHONHOME":            "python loads its standard library from this directory",
	"PYTHONUSERBASE":        "python imports user site-packages from this directory",
	"PYTHONEXECUTABLE":      "python reports this file as its executable",
	"BASH_ENV":              "bash runs this file before every non-interactive script",
	"ENV":                   "sh runs this file at start",
	"ZDOTDIR":               "zsh reads its startup files from this directory",
	"PERL5OPT":              "perl reads command-line options from it (-M loads modules)",
	"PERL5LIB":              "perl loads modules from these directories first",
	"PERLLIB":               "perl loads modules from these directories first",
	"PERL5DB":               "perl runs this code as its debugger",
	"RUBYOPT":               "ruby reads command-line options from it (-r loads code)",
	"RUBYLIB":               "ruby loads libraries from these directories first",
	"JAVA_TOOL_OPTIONS":     "every JVM reads options from it (-javaagent loads code)",
	"_JAVA_OPTIONS":         "every JVM reads options from it (-javaagent loads code)",
	"JDK_JAVA_OPTIONS":      "the java launcher reads options from it (-javaagent loads code)",
	"CLASSPATH":             "the JVM loads classes from these locations",
	"PIP_INDEX_URL":         "pip installs packages from this index",
	"PIP_EXTRA_INDEX_URL":   "pip also installs packages from this index",
	"PIP_FIND_LINKS":        "pip installs packages found at these locations",
	"UV_INDEX_URL":          "uv installs packages from this index",
	"UV_EXTRA_INDEX_URL":    "uv also installs packages from this index",
	"UV_INDEX":              "uv installs packages from these indexes",
	"UV_DEFAULT_INDEX":      "uv installs packages from this index",
	"UV_FIND_LINKS":         "uv installs packages found at these locations",
	"GIT_SSH_COMMAND":       "git runs this command for ssh transport",
	"GIT_SSH":               "git runs this program for ssh transport",
	"GIT_EXEC_PATH":         "git runs its subcommands from this directory",
	"GIT_ASKPASS":           "git runs this program to ask for credentials",
	"SSH_ASKPASS":           "ssh runs this program to ask for credentials",
	"HOME":                  "programs read their configuration (.npmrc, .gitconfig, .bashrc, ...) from this directory",
	"USERPROFILE":           "programs read their configuration from this directory",
	"XDG_CONFIG_HOME":       "programs read their configuration from this directory",
	"APPDATA":               "programs read their configuration from this directory",
	"GOFLAGS":               "the go command reads flags from it (-toolexec runs a program)",
	"GOPROXY":               "the go command downloads modules from this proxy",
	"RUSTC_WRAPPER":         "cargo runs the compiler through this program",
	"PHPRC":                 "php reads its configuration (auto_prepend_file runs code) from here",
	"PHP_INI_SCAN_DIR":      "php reads extra configuration (auto_prepend_file runs code) from here",
	"LUA_INIT":              "lua runs this code or file at start",
	"LUA_PATH":              "lua loads modules from these locations",
	"LUA_CPATH":             "lua loads native modules from these locations",
	"ELECTRON_RUN_AS_NODE":  "an Electron app runs as plain node",
	"COMSPEC":               "programs run commands through this shell",
	"SHELL":                 "programs run commands through this shell",
	"PSMODULEPATH":          "PowerShell loads modules from these directories",
	"DENO_DIR":              "deno loads cached modules from this directory",
	"BUN_INSTALL":           "bun installs and loads packages from this directory",
	"NPM_CONFIG_USERCONFIG": "npm reads its configuration (registry, scripts) from this file",
}

// execEnvPrefixes are families of such variables.
var execEnvPrefixes = []struct{ prefix, why string }{
	{"DYLD_", "the macOS dynamic loader injects or resolves libraries from it"},
	{"NPM_CONFIG_", "npm and npx read their configuration from it (registry, scripts, node-options)"},
	{"YARN_", "yarn reads its configuration from it"},
	{"PNPM_", "pnpm reads its configuration from it"},
	{"BUNDLE_", "bundler reads its configuration from it"},
	{"GIT_CONFIG_", "git reads configuration from it (core.sshCommand, core.fsmonitor run programs)"},
}

// execEnvVar says why setting name changes what code runs, "" when it does
// not.
func execEnvVar(name string) string {
	up := strings.ToUpper(name)
	if why, ok := execEnv[up]; ok {
		return why
	}
	for _, p := range execEnvPrefixes {
		if strings.HasPrefix(up, p.prefix) && len(up) > len(p.prefix) {
			return p.why
		}
	}
	return ""
}
