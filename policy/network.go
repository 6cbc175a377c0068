package policy

import (
	"fmt"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// network reports what a server's network reach says: a remote server in a
// project configuration (MG404), a plain-http URL to another machine in
// args (MG403), and cloud metadata endpoints anywhere in the entry
// (MG405).
func (c *serverCheck) network() {
	s := c.s
	if s.URL != "" && s.Transport != trust.TransportStdio {
		host := urlHost(s.URL)
		switch {
		case publicIP(host):
			c.add("MG406", s.KeyPos("url"), "url",
				"the remote %s server is at the bare public IP address %s: no name says who runs it, and %s", s.Transport, quote(host), c.remoteConnects())
		case host != "" && !loopback(host):
			c.add("MG404", s.KeyPos("url"), "url",
				"the project configuration names the remote %s server at %s: %s, and its tools and their descriptions reach the agent", s.Transport, quote(host), c.remoteConnects())
		}
		if metadataHost(urlHost(s.URL)) {
			c.add("MG405", s.KeyPos("url"), "url", "url %s is a cloud metadata endpoint: requests to it return the machine's cloud credentials", quote(s.URL))
		}
	}
	if s.Transport != trust.TransportStdio || s.Command == "" {
		return
	}
	reported := map[string]bool{}
	for _, f := range c.out {
		if f.Rule == "MG402" {
			reported[f.Key] = true
		}
	}
	for i, a := range s.Args {
		if !a.IsString {
			continue
		}
		key := fmt.Sprintf("args[%d]", i)
		for _, u := range urlsIn(a.Spawn) {
			host := urlHost(u)
			switch {
			case metadataHost(host):
				c.add("MG405", a.Pos, key, "%s points at the cloud metadata endpoint %s: requests to it return the machine's cloud credentials", key, quote(host))
			case publicIP(host) && !reported[c.kp+"."+key]:
				c.add("MG406", a.Pos, key, "%s passes the URL %s of a server at the bare public IP address %s: no name says who runs it", key, quote(u), quote(host))
				reported[c.kp+"."+key] = true
			case strings.EqualFold(u[:min(len(u), 7)], "http://") && !localHost(host) && !reported[c.kp+"."+key]:
				c.add("MG403", a.Pos, key, "%s passes the plain-http URL %s (host %s): what the server sends and receives there crosses the network unencrypted", key, quote(u), quote(host))
				reported[c.kp+"."+key] = true
			}
		}
		if metadataHost(a.Spawn) || strings.Contains(a.Spawn, "169.254.169.254") && len(urlsIn(a.Spawn)) == 0 {
			c.add("MG405", a.Pos, key, "%s names the cloud metadata endpoint %s: requests to it return the machine's cloud credentials", key, quote(a.Spawn))
		}
	}
	for _, ev := range s.Env {
		for _, u := range urlsIn(ev.Value) {
			if metadataHost(urlHost(u)) {
				c.add("MG405", ev.Pos, "env."+ev.Name, "env.%s points at the cloud metadata endpoint %s: requests to it return the machine's cloud credentials", ev.Name, quote(urlHost(u)))
			}
		}
	}
}

// remoteConnects says when the config's client connects to a remote
// server of the repository: a client with a headless run asks in an
// interactive session and connects unasked headless; the others (agentty,
// and the clients that trust a folder rather than a server) connect
// without a per-server question.
func (c *serverCheck) remoteConnects() string {
	d := c.cfg.Dialect
	if d == nil {
		return "agentty connects to it at start without asking"
	}
	for _, cl := range client.All() {
		if cl.Title() != d.Client {
			continue
		}
		if h := cl.Headless(); h != "" {
			return fmt.Sprintf("%s asks before connecting to it in an interactive session, and connects without asking in a headless run (%s)", d.Client, h)
		}
	}
	return d.Client + " connects to it without asking about this server once the folder is trusted"
}

// urlsIn finds the http(s) URLs in s (an argument may be --server=URL or
// hold several words).
func urlsIn(s string) []string {
	var out []string
	lower := strings.ToLower(s)
	for i := 0; i < len(s); {
		j := strings.Index(lower[i:], "http")
		if j < 0 {
			break
		}
		j += i
		rest := lower[j:]
		if strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://") {
			end := strings.IndexAny(s[j:], " \t\"'<>,;")
			if end < 0 {
				end = len(s) - j
			}
			out = append(out, s[j:j+end])
			i = j + end
			continue
		}
		i = j + 4
	}
	return out
}

// urlHost is the host of an http(s) URL, "" when it has none.
func urlHost(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return ""
	}
	host, _ := plaintextHost("http://" + raw[i+3:])
	return strings.ToLower(strings.Trim(host, "[]"))
}

// localHost is loopback, or the names container engines give the host
// machine (the traffic stays on it).
func localHost(h string) bool {
	return loopback(h) || h == "host.docker.internal" || h == "gateway.docker.internal" || h == "host.containers.internal"
}

// metadataHost reports the cloud instance metadata services, which hand out
// the machine's credentials to whoever asks.
func metadataHost(h string) bool {
	switch strings.ToLower(strings.Trim(h, "[]")) {
	case "169.254.169.254", "metadata.google.internal", "metadata.goog", "fd00:ec2::254", "169.254.170.2", "100.100.100.200", "metadata.azure.com", "169.254.169.253":
		return true
	}
	return false
}
