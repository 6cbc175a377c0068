package policy

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// Options tune the checks.
type Options struct {
	// UserServers are the names of the servers in the user's own
	// configuration ($HOME/.agentty/mcp.json), for MG107. nil skips the
	// rule: scan reads no user state unless asked.
	UserServers map[string]bool
}

// CheckServers runs the MG1xx, MG2xx and MG4xx checks on every server of a
// parsed configuration, in server order. It does not repeat the integrity
// findings trust.Parse recorded in cfg.Findings.
func CheckServers(cfg *trust.Config, opts Options) []trust.Finding {
	if cfg == nil {
		return nil
	}
	var out []trust.Finding
	for _, s := range cfg.Servers {
		c := serverCheck{cfg: cfg, s: s, kp: cfg.ServersKey + "." + s.Name}
		switch {
		case s.Of != "":
			c.kp = cfg.ServersKey + "." + s.Of + "." + s.Kind
		case s.Kind != "":
			c.kp = s.Name
		}
		c.run(opts)
		out = append(out, c.out...)
	}
	return out
}

// serverCheck collects the findings of one server.
type serverCheck struct {
	cfg *trust.Config
	s   *trust.Server
	kp  string // the server's key path, "mcpServers.NAME"
	out []trust.Finding
}

func (c *serverCheck) add(rule string, pos trust.Pos, key, format string, args ...any) {
	if d := c.cfg.Dialect; d != nil {
		format = inClientWords(format, d.Client)
	}
	what := "server"
	if c.s.Kind != "" {
		what = c.s.Kind // an entry that is not a server: "hook", …
	}
	msg := fmt.Sprintf("%s %q: ", what, c.s.Name) + fmt.Sprintf(format, args...)
	if c.s.Disabled {
		msg += " (the server is disabled now; enabling it runs this)"
	}
	k := c.kp
	if key != "" {
		k += "." + key
	}
	c.out = append(c.out, trust.NewFinding(rule, c.cfg.Path, pos, c.s.Name, k, msg))
}

// inClientWords says a rule's text, written for agentty, of another
// client: its approvals cover none of what agentty's fingerprint leaves
// out (Claude Code binds them to the name, Gemini CLI and Codex to the
// folder). Only the rule's own words change, never a repository string.
// What a server runs from the repository (MG105) is said as what the
// client does, not as an approval it may not have: OpenCode, Kiro or
// Copilot CLI approve no server, and none asks again when that content
// changes.
func inClientWords(format, client string) string {
	return strings.NewReplacer(
		"agentty's approval does not cover its content", client+" asks nothing when its content changes",
		"agentty's fingerprint", "what "+client+" approves",
		"the fingerprint", "what "+client+" approves",
		"agentty's approval", client+"'s approval",
		"agentty's environment", client+"'s environment",
		"agentty", client,
	).Replace(format)
}

func (c *serverCheck) run(opts Options) {
	s := c.s
	if s.Transport == trust.TransportStdio && s.Command != "" {
		c.env()
		c.args()
		c.commandLine()
	}
	if v, ok := s.Member("trustAnnotations"); ok && v == "true" {
		c.add("MG106", s.KeyPos("trustAnnotations"), "trustAnnotations",
			"trustAnnotations is true: agentty lets the tools this server calls read-only run without asking, on the server's own word, and the key is not part of the fingerprint")
	}
	if opts.UserServers[s.Name] {
		c.add("MG107", s.NamePos, "",
			"your own configuration has a server of the same name: agentty looks OAuth tokens up by name, so this project entry can receive the token you granted yours")
	}
	c.secrets()
	c.transport()
	c.network()
	c.access()
}

// envEntries are the entry kinds (by dialect) that are a file's own env
// rather than a process's: the client's rules file grades their
// variables where the file sets them, so the server rules do not again.
var envEntries = map[*trust.Dialect]map[string]bool{}

// declareEnvEntry declares kind, of the client reading dialect d, as an
// env entry (see envEntries); a rules file calls it from its init.
func declareEnvEntry(d *trust.Dialect, kind string) {
	if envEntries[d] == nil {
		envEntries[d] = map[string]bool{}
	}
	envEntries[d][kind] = true
}

// env reports variables that change what code runs (MG101) and PATH
// (MG102).
func (c *serverCheck) env() {
	if c.s.Kind != "" && envEntries[c.cfg.Dialect][c.s.Kind] {
		return
	}
	for _, ev := range c.s.Env {
		key := "env." + ev.Name
		if strings.EqualFold(ev.Name, "PATH") {
			c.add("MG102", ev.Pos, key, "env.%s is set to %s: %s", ev.Name, showValue(ev.Name, ev.Value), pathEffect(c.s.SpawnCommand(), ev.Value))
			if !pathReachesRepo(ev.Value) {
				// Every element is absolute: a program is looked up
				// outside any checkout.
				c.out[len(c.out)-1].Severity = trust.SeverityMedium
			}
			continue
		}
		if sev, why, drop := envGrade(ev.Name, ev.Value); !drop {
			c.add("MG101", ev.Pos, key, "env.%s is set to %s: %s; env is not part of agentty's fingerprint, so it can change after approval",
				ev.Name, showValue(ev.Name, ev.Value), why)
			c.out[len(c.out)-1].Severity = sev
		}
	}
}

// pathReachesRepo reports a PATH with an element that resolves against
// the launch directory: relative, empty, or holding a variable mcp-guard
// does not expand.
func pathReachesRepo(path string) bool {
	sep := ":"
	if strings.Contains(path, ";") {
		sep = ";"
	}
	for _, el := range strings.Split(path, sep) {
		if !absolutePath(el) || strings.Contains(el, "..") || strings.ContainsAny(el, "$%") {
			return true
		}
	}
	return false
}

// pathEffect explains what an env.PATH does to the command.
func pathEffect(command, path string) string {
	sep := ":"
	if strings.Contains(path, ";") {
		sep = ";"
	}
	first, _, _ := strings.Cut(path, sep)
	bare := !strings.ContainsAny(command, `/\`)
	switch {
	case first == "" || !absolutePath(first):
		return fmt.Sprintf("its first entry %s is relative to the launch directory, so %s can resolve to a file of the repository", quote(first), commandWhat(command, bare))
	case bare:
		return fmt.Sprintf("the bare command %s is looked up in this PATH, which is not part of agentty's fingerprint", quote(command))
	}
	return "every program the server starts is looked up in this PATH, which is not part of agentty's fingerprint"
}

func commandWhat(command string, bare bool) string {
	if bare {
		return "the bare command " + quote(command)
	}
	return "every program the server starts"
}

// args reports elements that are spawned but not hashed (MG103).
func (c *serverCheck) args() {
	for i, a := range c.s.Args {
		if a.IsString {
			continue
		}
		c.add("MG103", a.Pos, fmt.Sprintf("args[%d]", i),
			"args[%d] is the JSON value %s, not a string: agentty passes it to the process but leaves it out of the fingerprint, so it can change after approval",
			i, quote(a.Spawn))
	}
}

// commandLine analyses what the server runs (MG105, MG2xx). An entry
// that is a command line (a hook, a helper) is its script: the shell the
// client runs it with is the client's, not the entry's.
func (c *serverCheck) commandLine() {
	if c.s.Kind != "" && len(c.s.Args) == 2 {
		for _, h := range analyzeScript(c.s.Args[1].Str, 0) {
			c.add(h.rule, c.s.NamePos, "command", "command: %s"+h.tail, h.detail)
		}
		return
	}
	argv := append([]string{c.s.SpawnCommand()}, c.s.SpawnArgs()...)
	for _, h := range analyzeArgv(argv) {
		pos, key := c.wordPos(h.at)
		c.add(h.rule, pos, key, "%s: %s"+h.tail, key, h.detail)
		if h.sev != "" {
			c.out[len(c.out)-1].Severity = h.sev
		}
	}
}

// wordPos locates top-level argv word i: 0 is the command.
func (c *serverCheck) wordPos(i int) (trust.Pos, string) {
	if i <= 0 || i > len(c.s.Args) {
		return c.s.KeyPos("command"), "command"
	}
	return c.s.Args[i-1].Pos, fmt.Sprintf("args[%d]", i-1)
}

// transport reports plaintext HTTP to another machine (MG402).
func (c *serverCheck) transport() {
	if c.s.URL == "" || c.s.Transport == trust.TransportStdio {
		return
	}
	host, plain := plaintextHost(c.s.URL)
	if plain {
		c.add("MG402", c.s.KeyPos("url"), "url", "url %s is plain http to %s: requests, responses and any credentials in headers cross the network unencrypted",
			quote(c.s.URL), quote(host))
	}
}

// plaintextHost reports an http:// URL whose host is not loopback.
func plaintextHost(raw string) (string, bool) {
	if len(raw) < 7 || !strings.EqualFold(raw[:7], "http://") {
		return "", false
	}
	host := raw[7:]
	if u, err := url.Parse(raw); err == nil {
		host = u.Hostname()
	} else {
		host, _, _ = strings.Cut(host, "/")
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
	}
	return host, !loopback(host)
}

// loopback reports host names and addresses that stay on this machine.
func loopback(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]"))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	// net/netip, not net.ParseIP: importing net links cgo, which costs
	// every mcp-guard process (the git hook too) milliseconds at start.
	// Unmap and no zone: the answers net.ParseIP gave.
	if ip, err := netip.ParseAddr(h); err == nil && ip.Zone() == "" {
		ip = ip.Unmap()
		return ip.IsLoopback() || ip.IsUnspecified()
	}
	return false
}
