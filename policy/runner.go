package policy

import (
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// runner checks package runners (npx, npm exec, pnpm dlx, yarn dlx, bunx,
// uvx, pipx run, dnx, deno x): what they fetch must be an exact version
// (MG204) from a registry, not a URL or git ref (MG205).
func (a *analyzer) runner(name string, args []word) {
	switch name {
	case "npx":
		a.npmRunner("npx", args)
	case "npm":
		if len(args) > 0 && (args[0].text == "exec" || args[0].text == "x") {
			a.npmRunner("npm "+args[0].text, args[1:])
		}
	case "pnpx":
		a.npmRunner("pnpx", args)
	case "pnpm", "yarn":
		if len(args) > 0 && args[0].text == "dlx" {
			a.npmRunner(name+" dlx", args[1:])
		}
	case "bunx":
		a.npmRunner("bunx", args)
	case "bun":
		if len(args) > 0 && args[0].text == "x" {
			a.npmRunner("bun x", args[1:])
		}
	case "uvx":
		a.uvRunner("uvx", args)
	case "uv":
		if len(args) > 1 && args[0].text == "tool" && args[1].text == "run" {
			a.uvRunner("uv tool run", args[2:])
		}
	case "pipx":
		if len(args) > 0 && args[0].text == "run" {
			a.pipxRunner(args[1:])
		}
	case "dnx":
		a.dnxRunner(args)
	case "deno":
		if len(args) > 0 && args[0].text == "x" {
			if rest := skipOptions(args[1:]); len(rest) > 0 {
				a.denoSpecifier(rest[0])
			}
		}
	}
}

// npmValueFlags are options of npx and its kin that take a value.
var npmValueFlags = []string{"-p", "--package", "-c", "--call", "--registry", "--cache", "--userconfig",
	"--prefix", "--node-options", "-w", "--workspace", "--scope", "--loglevel", "--include", "--omit", "--shell", "--cwd", "--dir", "-C"}

// npmSyntax: `npx [options] [--package SPEC]… SPEC|CMD [args]`; npx -c
// takes a shell command line.
var npmSyntax = runnerSyntax{
	specs:  map[string]bool{"-p": true, "--package": true},
	values: npmValueFlags,
	script: []string{"-c", "--call"},
}

// npmRunner checks an npx-like command line.
func (a *analyzer) npmRunner(runner string, args []word) {
	specs, named, i := a.runnerOptions(args, npmSyntax)
	if !named && i < len(args) {
		specs = append(specs, args[i])
	}
	for _, s := range specs {
		a.npmSpec(runner, s)
	}
	if !named && i < len(args) {
		a.packageBin(npmBinName(args[i].text), args[i+1:])
	}
}

// runnerSyntax describes a package runner's options before its first
// operand.
type runnerSyntax struct {
	// specs are the options whose value is a package spec; true when
	// that package is the one the program comes from (the first operand
	// is then a program name, not a package).
	specs map[string]bool
	// values are the options that take a value (skipped).
	values []string
	// script are the options whose value is a shell command line.
	script []string
}

// runnerOptions walks args up to the first operand (or past `--`): the
// package specs the options name, whether one of them names the program's
// package, and the index of the first operand. Values given as --opt=v and
// as a separate word are both understood.
func (a *analyzer) runnerOptions(args []word, syn runnerSyntax) (specs []word, named bool, i int) {
	for ; i < len(args); i++ {
		t := args[i].text
		if t == "--" {
			return specs, named, i + 1
		}
		if !strings.HasPrefix(t, "-") {
			return specs, named, i
		}
		opt, val, inline := strings.Cut(t, "=")
		if primary, ok := syn.specs[opt]; ok {
			switch {
			case inline:
				specs = append(specs, word{text: val, lit: args[i].lit, at: args[i].at})
			case i+1 < len(args):
				specs = append(specs, args[i+1])
				i++
			default:
				continue
			}
			named = named || primary
			continue
		}
		if slices.Contains(syn.script, opt) {
			switch {
			case inline:
				a.posixScript(val, "sh", args[i].at, 1)
			case i+1 < len(args):
				a.posixScript(args[i+1].text, "sh", args[i+1].at, 1)
				i++
			}
			continue
		}
		if !inline && slices.Contains(syn.values, t) {
			i++
		}
	}
	return specs, named, i
}

// npmBinName guesses the program a package spec runs: its name without
// scope and version.
func npmBinName(spec string) string {
	name, _, _ := npmPinned(spec)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// packageBin analyses the arguments of a program a runner fetched, for
// the programs whose arguments say what runs: TypeScript runners given a
// repository file, and remote-MCP bridges given a plain-http URL.
func (a *analyzer) packageBin(bin string, args []word) {
	switch bin {
	case "mcp-remote", "supergateway", "mcp-proxy":
		for _, w := range args {
			if host, plain := plaintextHost(w.text); plain && w.lit {
				a.add("MG402", w.at, "%s connects to %s over plain http (host %s): requests, responses and any credentials cross the network unencrypted", bin, quote(w.text), quote(host))
				return
			}
		}
	}
}

// npmSpec classifies one npm package spec.
func (a *analyzer) npmSpec(runner string, w word) {
	if !w.lit || w.text == "" {
		return
	}
	t := w.text
	lower := strings.ToLower(t)
	for _, p := range []string{"github:", "gitlab:", "bitbucket:", "gist:", "git+", "git:", "git@", "http://", "https://"} {
		if strings.HasPrefix(lower, p) {
			a.remoteSource(runner, w)
			return
		}
	}
	if strings.HasPrefix(lower, "file:") || t == "." || t == ".." || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || strings.HasPrefix(t, `.\`) {
		return // a repository package: the launch model's (MG105)
	}
	if absolutePath(t) {
		return
	}
	// "user/repo" without a scope is npm's GitHub shorthand.
	if !strings.HasPrefix(t, "@") && strings.Contains(t, "/") {
		a.add("MG205", w.at, "%s treats %s as a GitHub repository and runs its default branch", runner, quote(t))
		return
	}
	if alias, ok := strings.CutPrefix(t, "npm:"); ok {
		t = alias
	}
	name, ver, pinned := npmPinned(t)
	a.lookalike(runner, "npm", name, w.at)
	if !pinned {
		a.add("MG204", w.at, "%s runs %s%s", runner, name, versionNote(ver))
	}
}

// remoteSource is MG205 for a package installed from a URL or a git
// repository: high for a branch or tag, which moves; medium for a git
// source pinned to a full commit id, which names fixed content but no
// registry release.
func (a *analyzer) remoteSource(runner string, w word) {
	if c := pinnedCommit(w.text); c != "" {
		a.add("MG205", w.at, "%s installs and runs %s from a git repository, pinned to the commit %s: fixed content, but not a registry release", runner, quote(w.text), quote(c[:12]))
		a.hits[len(a.hits)-1].sev = trust.SeverityMedium
		return
	}
	a.add("MG205", w.at, "%s installs and runs %s from a URL or git repository, not from a registry version", runner, quote(w.text))
}

// pinnedCommit is the full commit id a git source names after @ or #
// (git+https://host/repo@SHA, github:user/repo#SHA), "" if it names none.
func pinnedCommit(spec string) string {
	if !strings.Contains(strings.ToLower(spec), "git") {
		return ""
	}
	rest, frag, _ := strings.Cut(spec, "#")
	ref := ""
	switch {
	case strings.HasPrefix(frag, "commit="):
		ref = frag[len("commit="):]
	case frag != "" && !strings.Contains(frag, "="):
		ref = frag // npm's github:user/repo#SHA
	default: // pip's @REF, before #egg=… or #subdirectory=…
		if i := strings.Index(rest, "://"); i >= 0 {
			rest = rest[i+3:]
		}
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			ref = rest[i+1:]
		}
	}
	if len(ref) != 40 && len(ref) != 64 {
		return ""
	}
	for k := 0; k < len(ref); k++ {
		if !hexDigit(ref[k]) {
			return ""
		}
	}
	return ref
}

// npmPinned splits "name@version" ("@scope/name@version") and reports
// whether the version is one exact semver version.
func npmPinned(spec string) (name, version string, pinned bool) {
	at := strings.LastIndexByte(spec, '@')
	if at <= 0 {
		return spec, "", false
	}
	name, version = spec[:at], spec[at+1:]
	return name, version, exactSemver(strings.TrimPrefix(strings.TrimPrefix(version, "="), "v"))
}

// versionNote explains an unpinned version for a message.
func versionNote(v string) string {
	switch {
	case v == "":
		return " without a version: every launch can fetch whatever the registry serves as latest"
	case v == "latest" || v == "*" || v == "x":
		return "@" + v + ": every launch can fetch a different release"
	case isDistTag(v):
		return "@" + v + ", a dist-tag: its maintainers can point it at any release"
	}
	return "@" + v + ", a range: every launch can fetch a different release"
}

// isDistTag reports a version that is a tag name rather than a range.
func isDistTag(v string) bool {
	if v == "" {
		return false
	}
	c := v[0]
	return isASCIILetter(c) && c != 'v' && c != 'x' && c != 'X' || c == 'v' && len(v) > 1 && !isDigit(v[1])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// exactSemver reports MAJOR.MINOR.PATCH with an optional -prerelease and
// +build, all as semver 2.0 allows.
func exactSemver(v string) bool {
	core, build, hasBuild := strings.Cut(v, "+")
	if hasBuild && !dotIdents(build, false) {
		return false
	}
	core, pre, hasPre := strings.Cut(core, "-")
	if hasPre && !dotIdents(pre, true) {
		return false
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if !numeric(p) || (len(p) > 1 && p[0] == '0') {
			return false
		}
	}
	return true
}

func numeric(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// dotIdents checks dot-separated identifiers of [0-9A-Za-z-].
func dotIdents(s string, pre bool) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return false
		}
		for i := 0; i < len(id); i++ {
			c := id[i]
			if !isDigit(c) && !isASCIILetter(c) && c != '-' {
				return false
			}
		}
		if pre && numeric(id) && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}

// uvValueFlags are options of uvx that take a value.
var uvValueFlags = []string{"--from", "--with", "--with-editable", "--with-requirements", "-w", "--python", "-p",
	"--index", "--index-url", "-i", "--extra-index-url", "--default-index", "--find-links", "-f", "--directory",
	"--project", "--config-file", "--cache-dir", "--env-file", "--prerelease", "--constraints", "-c", "--overrides",
	"--build-constraints", "-b", "--resolution", "--exclude-newer", "--link-mode", "--color", "--index-strategy",
	"--keyring-provider", "--python-platform", "--refresh-package", "--reinstall-package", "--upgrade-package", "-P",
	"--no-binary-package", "--no-build-package", "--config-setting", "-C", "--allow-insecure-host", "--torch-backend"}

// uvSyntax: `uvx [options] [--from SPEC] [--with SPEC]… CMD[@VERSION] [args]`.
var uvSyntax = runnerSyntax{
	specs:  map[string]bool{"--from": true, "--with": false, "-w": false},
	values: uvValueFlags,
}

// pipxSyntax: `pipx run [options] [--spec SPEC] APP [args]`.
var pipxSyntax = runnerSyntax{
	specs:  map[string]bool{"--spec": true},
	values: []string{"--python", "--pip-args", "--index-url", "-i", "--backend"},
}

// uvRunner checks a uvx command line.
func (a *analyzer) uvRunner(runner string, args []word) {
	a.pyRunner(runner, args, uvSyntax)
}

// pipxRunner checks a `pipx run` command line.
func (a *analyzer) pipxRunner(args []word) {
	a.pyRunner("pipx run", args, pipxSyntax)
}

func (a *analyzer) pyRunner(runner string, args []word, syn runnerSyntax) {
	specs, named, i := a.runnerOptions(args, syn)
	if !named && i < len(args) {
		specs = append(specs, args[i])
	}
	for _, s := range specs {
		a.pySpec(runner, s)
	}
}

// pySpec classifies one Python requirement as uvx and pipx take it.
func (a *analyzer) pySpec(runner string, w word) {
	if !w.lit || w.text == "" {
		return
	}
	t := strings.TrimSpace(w.text)
	lower := strings.ToLower(t)
	if strings.Contains(lower, "git+") || strings.Contains(lower, "://") {
		a.remoteSource(runner, w)
		return
	}
	if t == "." || t == ".." || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || strings.HasPrefix(t, `.\`) || strings.HasPrefix(lower, "file:") {
		return // a repository package: the launch model's (MG105)
	}
	if absolutePath(t) {
		return
	}
	a.lookalike(runner, "pypi", pyName(t), w.at)
	if name, ver, ok := strings.Cut(t, "@"); ok && !strings.Contains(name, " ") {
		if exactPEP440(ver) {
			return
		}
		a.add("MG204", w.at, "%s runs %s%s", runner, name, versionNote(ver))
		return
	}
	for _, op := range []string{"===", "=="} {
		if i := strings.Index(t, op); i > 0 {
			if exactPEP440(strings.TrimSpace(t[i+len(op):])) {
				return
			}
			a.add("MG204", w.at, "%s runs %s with the inexact version %s", runner, strings.TrimSpace(t[:i]), quote(t[i:]))
			return
		}
	}
	if strings.ContainsAny(t, "<>~=!") {
		a.add("MG204", w.at, "%s runs %s, a version range: every launch can fetch a different release", runner, quote(t))
		return
	}
	a.add("MG204", w.at, "%s runs %s without a version: every launch can fetch whatever the index serves as latest", runner, t)
}

// pyName is the distribution name of a requirement ("pkg[extra]==1.0",
// "pkg@1.0", "pkg>=1").
func pyName(req string) string {
	if i := strings.IndexAny(req, "@=<>~![; "); i >= 0 {
		req = req[:i]
	}
	return strings.TrimSpace(req)
}

// exactPEP440 reports a version with no wildcard or range (1.2.3, 2024.1,
// 1.0rc1, 1.0.post2).
func exactPEP440(v string) bool {
	if v == "" || !isDigit(v[0]) || strings.ContainsAny(v, "*,<>=!~ ") {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !isDigit(c) && !isASCIILetter(c) && c != '.' && c != '-' && c != '_' && c != '+' {
			return false
		}
	}
	return true
}

// dnxRunner checks `dnx PACKAGE[@VERSION] [--version V]` (.NET tools).
func (a *analyzer) dnxRunner(args []word) {
	var spec word
	version := ""
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--version" || t == "-v":
			if i+1 < len(args) {
				version = args[i+1].text
				i++
			}
		case t == "--source" || t == "--add-source" || t == "--configfile" || t == "--verbosity":
			i++
		case strings.HasPrefix(t, "-"):
		case spec.text == "":
			spec = args[i]
		}
	}
	if spec.text == "" || !spec.lit {
		return
	}
	name, ver, ok := strings.Cut(spec.text, "@")
	if !ok {
		ver = version
	}
	if !exactPEP440(ver) || strings.ContainsAny(ver, "[]()") {
		a.add("MG204", spec.at, "dnx runs %s%s", name, versionNote(ver))
	}
}

// goRunRemote checks `go run module/path@version`.
func (a *analyzer) goRunRemote(w word) {
	_, ver, _ := strings.Cut(w.text, "@")
	v := strings.TrimPrefix(ver, "v")
	if !exactSemver(v) {
		a.add("MG204", w.at, "go run fetches and runs %s, not an exact version", quote(w.text))
	}
}

// container checks `docker run` and its kin: the image must be pinned by
// digest (MG204); the command run in the container is analysed too.
func (a *analyzer) container(name string, args []word, depth int) {
	rest := skipOptions(args, "-H", "--host", "--context", "-c", "--config", "--log-level", "-l",
		"--tlscacert", "--tlscert", "--tlskey", "--connection", "--url", "--identity", "--root", "--runroot")
	if len(rest) == 0 {
		return
	}
	sub := rest[0].text
	rest = rest[1:]
	if sub == "container" && len(rest) > 0 {
		sub = rest[0].text
		rest = rest[1:]
	}
	switch sub {
	case "run", "create":
		image, cmd := dockerImage(rest)
		if image.text == "" || !image.lit {
			return
		}
		a.containerEscapes(name, rest[:len(rest)-len(cmd)-1])
		if !strings.Contains(image.text, "@sha256:") && !strings.Contains(image.text, "@sha512:") {
			if tag := versionTag(image.text); tag != "" {
				a.add("MG227", image.at, "%s run uses the image %s by its version tag %s: a tag is a mutable name its publisher (or whoever takes over the repository) can re-push with other content, only a digest names fixed content; pin it by digest (image@sha256:…)", name, quote(image.text), quote(tag))
			} else {
				how := "by a moving tag: the tag can be moved to other content"
				if i := strings.LastIndexByte(image.text, '/'); !strings.Contains(image.text[i+1:], ":") {
					how = "without a tag or digest: every launch can pull whatever :latest is"
				}
				a.add("MG204", image.at, "%s run uses the image %s %s; pin it by digest (image@sha256:…)", name, quote(image.text), how)
			}
		}
		if len(cmd) > 0 {
			a.argv(cmd, depth+1)
		}
	case "compose":
		a.compose(name+" compose", rest)
	}
}

// dockerBoolFlags are docker and podman run options without a value.
var dockerBoolFlags = map[string]bool{
	"--rm": true, "--init": true, "--interactive": true, "--tty": true, "--detach": true, "--privileged": true,
	"--read-only": true, "--publish-all": true, "--no-healthcheck": true, "--oom-kill-disable": true,
	"--quiet": true, "--disable-content-trust": true, "--help": true, "--use-api-socket": true,
	"--replace": true, "--rmi": true, "--read-only-tmpfs": true, "--no-hosts": true, "--passwd": true,
	"--sig-proxy": true, "--tls-verify": true, "--http-proxy": true, "--env-host": true,
}

// dockerImage finds the image operand of `docker run [options] IMAGE
// [CMD…]` and the command after it.
func dockerImage(args []word) (word, []word) {
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--":
			continue
		case strings.HasPrefix(t, "--"):
			if !strings.Contains(t, "=") && !dockerBoolFlags[t] {
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				if strings.IndexByte("acehlmpuvw", t[j]) >= 0 {
					if j == len(t)-1 {
						i++
					}
					break
				}
			}
		default:
			return args[i], args[i+1:]
		}
	}
	return word{}, nil
}

// compose reports docker compose commands that start services the
// repository's compose file defines.
func (a *analyzer) compose(name string, args []word) {
	rest := skipOptions(args, "-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--progress", "--parallel")
	if len(rest) == 0 {
		return
	}
	// What the compose file starts is the launch model's (MG105).
}
