package policy

import (
	"fmt"
	"strings"
)

// access reports a server given the whole filesystem, a home directory, a
// system directory or a credential directory as a root (MG601), and an env
// entry that forwards every variable (MG602). Container mounts are the
// container rules' (MG222, MG223).
func (c *serverCheck) access() {
	s := c.s
	for _, ev := range s.Env {
		if ev.Name == "*" || ev.Name == "**" {
			c.add("MG602", ev.Pos, "env."+ev.Name, "env %q asks for every variable of agentty's environment to be forwarded to the server: all your tokens and keys", ev.Name)
		}
	}
	switch progName(s.SpawnCommand()) {
	case "docker", "podman", "nerdctl", "docker-compose":
		return
	}
	for i, a := range s.Args {
		if !a.IsString {
			continue
		}
		v := a.Spawn
		if strings.HasPrefix(v, "-") {
			_, val, ok := strings.Cut(v, "=")
			if !ok {
				continue
			}
			v = val
		}
		if what := broadRoot(v); what != "" {
			key := fmt.Sprintf("args[%d]", i)
			c.add("MG601", a.Pos, key, "%s gives the server %s (%s): every file there, and whatever it can write, is within reach of the agent's tool calls", key, quote(v), what)
		}
	}
}

// broadRoot says what a path argument opens up, "" for a narrow one.
func broadRoot(v string) string {
	if v == "" || strings.Contains(v, "://") || strings.ContainsAny(v, " =") {
		return ""
	}
	p := cleanHostPath(v)
	switch {
	case p == "/":
		return "the whole filesystem"
	case homeDir(p):
		return "a whole home directory, with its keys and tokens"
	case credentialPath(p):
		return "a directory of credentials"
	case p == "/etc" || p == "/root" || p == "/private/etc":
		return "a system directory"
	}
	return ""
}

// containerEnv reports docker/podman run options that forward the whole
// environment, or an env file from your home directory, into the
// container (MG602).
func (a *analyzer) containerEnv(name string, o copt) {
	switch o.name {
	case "--env-host":
		a.add("MG602", o.w.at, "%s run --env-host copies every variable of agentty's environment into the container: all your tokens and keys", name)
	case "-e", "--env":
		if k, _, _ := strings.Cut(o.val, "="); strings.HasSuffix(k, "*") {
			a.add("MG602", o.w.at, "%s run %s %s forwards every variable matching %s into the container", name, o.name, quote(o.val), quote(k))
		}
	case "--env-file":
		if p := cleanHostPath(o.val); homeDir(p) || credentialPath(p) || strings.HasPrefix(p, "~/") && !strings.Contains(p[2:], "/") {
			a.add("MG602", o.w.at, "%s run --env-file %s loads a file of your home directory into the container's environment", name, quote(o.val))
		}
	}
}
