package policy

import (
	"encoding/base64"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcp-guard/mcp-guard/trust"
)

// secrets reports literal credentials anywhere in a server's entry
// (MG401): env, args, url, headers and any other key.
func (c *serverCheck) secrets() {
	s := c.s
	for _, ev := range s.Env {
		if !ev.IsString {
			continue
		}
		if sec, prefix, why, ok := secretValue(ev.Name, ev.Value); ok {
			c.secret(ev.Pos, "env."+ev.Name, sec, prefix, why)
		}
	}
	c.argSecrets()
	if s.URL != "" {
		if sec, prefix, why, ok := textSecret("url", s.URL); ok {
			c.secret(s.KeyPos("url"), "url", sec, prefix, why)
		}
	}
	for _, k := range s.Keys {
		switch k {
		case "command", "args", "env", "url", "type", "disabled":
			continue
		}
		v, ok := s.Value(k)
		if !ok || !nestedWithin(v, maxSecretDepth) {
			continue
		}
		pos := s.KeyPos(k)
		walkStrings(fromClient(v), []string{k}, func(path func() string, name, value string) bool {
			if sec, prefix, why, ok := textSecret(name, value); ok {
				c.secret(pos, path(), sec, prefix, why)
				return false
			}
			return true
		})
	}
}

// maxSecretDepth bounds how deep a key's value is searched for secrets: a
// value nested 100,000 levels deep (a status of such a configuration,
// TestHostileStatusLimits) is not searched at all.
const maxSecretDepth = 512

// nestedWithin reports whether v nests no more than depth arrays and
// objects deep.
func nestedWithin(v trust.Value, depth int) bool {
	if depth < 0 {
		return false
	}
	for _, e := range v.Elems() {
		if !nestedWithin(e, depth-1) {
			return false
		}
	}
	for _, k := range v.Keys() {
		if m, _ := v.Get(k); !nestedWithin(m, depth-1) {
			return false
		}
	}
	return true
}

// walkStrings calls fn for every string value under n with its key path
// (segs joined: "headers.X[0]", built only when fn asks for it, so that
// long keys nested deep cost no more than the file's size) and the name
// of the key that holds it (the path after its last dot), until fn
// returns false. segs are the path's segments so far: the key, then
// ".key" or "[i]" for each level.
func walkStrings(n *jnode, segs []string, fn func(path func() string, name, value string) bool) bool {
	switch n.kind {
	case 's':
		return fn(func() string { return strings.Join(segs, "") }, pathName(segs), n.str)
	case 'o':
		for _, m := range n.resolved() {
			if !walkStrings(m.val, append(segs, "."+m.key), fn) {
				return false
			}
		}
	case 'a':
		for i, e := range n.elems {
			if !walkStrings(e, append(segs, "["+strconv.Itoa(i)+"]"), fn) {
				return false
			}
		}
	}
	return true
}

// pathName is the part of the path segs make after its last dot (all of
// it when there is none).
func pathName(segs []string) string {
	for i := len(segs) - 1; i >= 0; i-- {
		if j := strings.LastIndexByte(segs[i], '.'); j >= 0 {
			return segs[i][j+1:] + strings.Join(segs[i+1:], "")
		}
	}
	return strings.Join(segs, "")
}

// textSecret is secretValue, then a search for a known token anywhere in
// the text (a URL path, a header line).
func textSecret(name, value string) (secret, prefix, why string, ok bool) {
	if sec, prefix, why, ok := secretValue(name, value); ok {
		return sec, prefix, why, true
	}
	for _, f := range strings.FieldsFunc(value, func(r rune) bool {
		return strings.ContainsRune(" \t\n\"'=:,;()[]{}<>|&`/?#@", r)
	}) {
		if t, ok := knownToken(f); ok {
			return f, t.prefix, "a " + t.what, true
		}
	}
	return "", "", "", false
}

// argSecrets reports credentials in args: `--token VALUE`, `--token=VALUE`,
// `NAME=VALUE` (docker -e, env), `Header: value` (mcp-remote --header) and
// known tokens or URL credentials anywhere.
func (c *serverCheck) argSecrets() {
	args := c.s.Args
	for i, a := range args {
		if !a.IsString {
			continue
		}
		t := a.Str
		key := fmt.Sprintf("args[%d]", i)
		report := func(sec, prefix, why string) { c.secret(a.Pos, key, sec, prefix, why) }
		if i > 0 && args[i-1].IsString && keyFlag(args[i-1].Str) {
			if sec, prefix, why, ok := textSecret(strings.TrimLeft(args[i-1].Str, "-"), t); ok {
				report(sec, prefix, why)
				continue
			}
		}
		if name, v, ok := strings.Cut(t, "="); ok && name != "" && !strings.Contains(name, "://") {
			if sec, prefix, why, ok := secretValue(strings.TrimLeft(name, "-"), v); ok {
				report(sec, prefix, why)
				continue
			}
		}
		if name, v, ok := strings.Cut(t, ":"); ok && !strings.ContainsAny(name, " /") && keyLikeName(name) {
			if sec, prefix, why, ok := secretValue(name, strings.TrimSpace(v)); ok {
				report(sec, prefix, why)
				continue
			}
		}
		if sec, prefix, why, ok := textSecret("", t); ok {
			report(sec, prefix, why)
		}
	}
}

// keyFlag reports an option whose value is a credential: --token,
// --api-key, --password, ...
func keyFlag(s string) bool {
	return strings.HasPrefix(s, "-") && !strings.Contains(s, "=") && keyLikeName(strings.TrimLeft(s, "-"))
}

func (c *serverCheck) secret(pos trust.Pos, key, sec, prefix, why string) {
	c.add("MG401", pos, key, "%s", secretText(key, sec, prefix, why))
	if known := knownTokenOK(sec); !known {
		if reason := devCredential(sec, c.endpoints()); reason != "" {
			f := &c.out[len(c.out)-1]
			f.Severity = trust.SeverityMedium
			f.Message += "; medium: " + reason
		}
	}
}

// endpoints are the hosts a server talks to as its entry names them: its
// url, and the URLs and host:port values of its args and env.
func (c *serverCheck) endpoints() []string {
	var vals []string
	if c.s.URL != "" {
		vals = append(vals, c.s.URL)
	}
	for _, a := range c.s.Args {
		vals = append(vals, a.Spawn)
	}
	for _, ev := range c.s.Env {
		vals = append(vals, ev.Value)
	}
	var hosts []string
	for _, v := range vals {
		if h := endpointHost(v); h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// endpointHost is the host of a URL (any scheme: http, bolt, postgres,
// redis, …) in v, "" if v is none.
func endpointHost(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.Index(v, "://"); i > 0 && !strings.ContainsAny(v, " \t") {
		if u, err := url.Parse(v); err == nil && u.Hostname() != "" {
			return u.Hostname()
		}
	}
	return ""
}

// privateHost reports a host on this machine or a private network: a
// credential sent there is, almost always, a local development one.
func privateHost(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]"))
	if localHost(h) || strings.HasSuffix(h, ".local") || strings.HasSuffix(h, ".localdomain") {
		return true
	}
	if ip, err := netip.ParseAddr(h); err == nil && !metadataHost(h) {
		ip = ip.Unmap()
		return ip.IsPrivate() || ip.IsLinkLocalUnicast()
	}
	return false
}

// publicIP reports a host written as a literal IP address of the public
// internet: no name a reader could recognise, no private network.
func publicIP(host string) bool {
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err != nil || ip.Zone() != "" {
		return false
	}
	ip = ip.Unmap()
	cgnat := netip.MustParsePrefix("100.64.0.0/10")
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !cgnat.Contains(ip) && !metadataHost(host)
}

// devWords are words with which a credential names itself a development,
// test or demo default.
var devWords = []string{"dev", "development", "demo", "test", "testing", "example", "sample", "local", "localhost",
	"default", "changeme", "dummy", "fake", "sandbox", "playground", "insecure", "admin"}

// devCredential says why a literal credential that matches no provider's
// token format is graded medium, "" when it is not: every endpoint its
// server names is local, or the value calls itself a development or demo
// default.
func devCredential(sec string, hosts []string) string {
	if len(hosts) > 0 {
		all := true
		for _, h := range hosts {
			all = all && privateHost(h)
		}
		if all {
			return fmt.Sprintf("the server talks only to %s, on this machine or a private network, so this is most likely a local development credential (rotate it if it is used anywhere else)", quote(hosts[0]))
		}
	}
	shown := sec
	if b, err := base64.StdEncoding.DecodeString(sec); err == nil && utf8.Valid(b) {
		shown = string(b) // a Basic user:password
	}
	for _, w := range nameWords(strings.NewReplacer("@", " ", ":", " ", ".", " ").Replace(shown)) {
		for _, d := range devWords {
			if w == d {
				return fmt.Sprintf("the value names itself a %s default, not a live credential (rotate it if it is used anywhere real)", quote(d))
			}
		}
	}
	return ""
}

// secretText is MG401's message for the credential sec found at key, for
// a server's entry and a hook's command alike.
func secretText(key, sec, prefix, why string) string {
	return fmt.Sprintf("%s holds %s (%s): anyone who can read the repository can use it", key, why, redact(sec, prefix))
}

// showValue shows a configuration value in a message, with any credential
// in it redacted.
func showValue(name, value string) string {
	if sec, prefix, _, ok := textSecret(name, value); ok && sec != "" {
		return quote(strings.Replace(value, sec, redact(sec, prefix), 1))
	}
	return quote(value)
}
