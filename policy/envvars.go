package policy

import (
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

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

// optionVars are the variables whose value is a program's command-line
// options: whether setting one changes what code runs depends on the
// options, not on the name. loads are the options (or their prefixes)
// that load code or open a way to run it; quiet the ones known to change
// only limits and diagnostics. An option in neither list is graded medium:
// mcp-guard does not know what it does.
var optionVars = map[string]struct{ loads, quiet []string }{
	"NODE_OPTIONS": {
		loads: []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "--inspect", "--debug",
			"--env-file", "--openssl-config", "--snapshot-blob", "--experimental-policy", "--experimental-default-config-file"},
		quiet: []string{"--max-old-space-size", "--max-semi-space-size", "--stack-size", "--stack-trace-limit",
			"--enable-source-maps", "--no-warnings", "--no-deprecation", "--trace-warnings", "--trace-deprecation",
			"--trace-uncaught", "--unhandled-rejections", "--dns-result-order", "--tls-min-v1", "--tls-max-v1",
			"--use-openssl-ca", "--use-bundled-ca", "--openssl-legacy-provider", "--max-http-header-size",
			"--disable-warning", "--no-experimental-fetch", "--experimental-vm-modules", "--experimental-specifier-resolution",
			"--pending-deprecation", "--throw-deprecation", "--heapsnapshot-near-heap-limit", "--report-on-fatalerror",
			"--no-network-family-autoselection", "--network-family-autoselection-attempt-timeout", "--expose-gc",
			"--title", "--v8-pool-size", "--zero-fill-buffers", "--force-fips", "--enable-fips", "--secure-heap",
			"--experimental-global-webcrypto", "--no-addons", "--disallow-code-generation-from-strings", "--frozen-intrinsics"},
	},
	"JAVA_TOOL_OPTIONS": javaOptions, "_JAVA_OPTIONS": javaOptions, "JDK_JAVA_OPTIONS": javaOptions,
	"RUBYOPT":  {loads: []string{"-r", "-I", "--require"}, quiet: []string{"-W", "-E", "--encoding", "--disable", "--enable", "--jit", "--yjit"}},
	"PERL5OPT": {loads: []string{"-M", "-m", "-I", "-d"}, quiet: []string{"-C", "-W", "-w", "-X", "-T", "-t"}},
	"GOFLAGS": {loads: []string{"-toolexec", "-overlay", "-modfile", "-exec", "-pgo"},
		quiet: []string{"-mod", "-tags", "-trimpath", "-buildvcs", "-count", "-v", "-x", "-p", "-race", "-ldflags", "-gcflags", "-buildmode"}},
}

var javaOptions = struct{ loads, quiet []string }{
	loads: []string{"-javaagent", "-agentpath", "-agentlib", "-Xbootclasspath", "-cp", "-classpath", "--class-path",
		"-Djava.system.class.loader", "-Djava.security.manager", "-Djava.ext.dirs", "-Djdk.attach", "-XX:OnError", "-XX:OnOutOfMemoryError",
		"--module-path", "-p", "--patch-module", "--add-modules", "-Xdebug", "-Xrunjdwp", "@"},
	quiet: []string{"-Xmx", "-Xms", "-Xss", "-Xmn", "-XX:MaxRAMPercentage", "-XX:InitialRAMPercentage", "-XX:+UseG1GC",
		"-XX:+UseZGC", "-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:MaxMetaspaceSize", "-XX:+HeapDumpOnOutOfMemoryError",
		"-Dfile.encoding", "-Duser.language", "-Duser.country", "-Duser.timezone", "-Djava.awt.headless", "-Dsun.stdout.encoding",
		"-Dsun.stderr.encoding", "-Dstdout.encoding", "-Dstderr.encoding", "-Djava.net.preferIPv4Stack", "-Dhttps.protocols"},
}

// envGrade says how much setting name to value changes what code runs:
// drop when it does not (a heap size in NODE_OPTIONS), otherwise the
// severity and why. A variable that names code, a library or a search
// path is high, as its name says; one of optionVars is high for an option
// that loads code, medium for options mcp-guard does not know, and
// dropped when every option is known to change only limits or
// diagnostics.
func envGrade(name, value string) (sev trust.Severity, why string, drop bool) {
	why = execEnvVar(name)
	if why == "" || outsideRepoSearchPath(name, value) {
		return "", "", true
	}
	ov, ok := optionVars[strings.ToUpper(name)]
	if !ok {
		return trust.SeverityHigh, why, false
	}
	unknown := ""
	for _, opt := range strings.Fields(value) {
		opt = strings.Trim(opt, `"'`)
		if optionIn(opt, ov.loads) {
			return trust.SeverityHigh, why, false
		}
		if !optionIn(opt, ov.quiet) && unknown == "" && strings.HasPrefix(opt, "-") {
			unknown = opt
		}
	}
	if unknown != "" {
		return trust.SeverityMedium, why + "; mcp-guard does not know whether " + quote(unknown) + " loads code", false
	}
	// Words that are not options are the values of the ones before them
	// (--max-old-space-size 4096), or a value the program rejects.
	return "", "", true
}

// optionIn reports whether opt is one of opts, given as NAME, NAME=VALUE,
// or, for a short option or a -X/-D/-XX: prefix, with its value attached.
func optionIn(opt string, opts []string) bool {
	for _, o := range opts {
		if opt == o || strings.HasPrefix(opt, o+"=") || strings.HasPrefix(opt, o+":") {
			return true
		}
		attached := len(o) == 2 || strings.HasPrefix(o, "-X") || strings.HasPrefix(o, "-D") || o == "@"
		if attached && strings.HasPrefix(opt, o) && !strings.HasPrefix(opt, "--") {
			return true
		}
	}
	return false
}
