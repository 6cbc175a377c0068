package policy

import (
	"fmt"
	"strings"

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
		raw, _ := s.Member(k)
		n, err := decodePositioned([]byte(raw))
		if err != nil {
			continue
		}
		pos := s.KeyPos(k)
		walkStrings(n, k, func(path, name, value string) bool {
			if sec, prefix, why, ok := textSecret(name, value); ok {
				c.secret(pos, path, sec, prefix, why)
				return false
			}
			return true
		})
	}
}

// walkStrings calls fn for every string value under n with its key path
// and the name of the key that holds it, until fn returns false.
func walkStrings(n *jnode, path string, fn func(path, name, value string) bool) bool {
	switch n.kind {
	case 's':
		name := path
		if i := strings.LastIndexByte(path, '.'); i >= 0 {
			name = path[i+1:]
		}
		return fn(path, name, n.str)
	case 'o':
		for _, m := range n.resolved() {
			if !walkStrings(m.val, path+"."+m.key, fn) {
				return false
			}
		}
	case 'a':
		for i, e := range n.elems {
			if !walkStrings(e, fmt.Sprintf("%s[%d]", path, i), fn) {
				return false
			}
		}
	}
	return true
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
