package policy

import (
	"path"
	"strings"
)

// copt is one option of `docker run`: its name ("--volume", "-v") and its
// value, however it was written (--volume=V, --volume V, -v=V, -vV, -v V).
type copt struct {
	name, val string
	w         word
}

// dockerValueShorts are the short options of docker and podman run that
// take a value.
const dockerValueShorts = "acehlmpuvw"

// containerOptions splits the option words of `docker run` (the words
// before the image) into options.
func containerOptions(ws []word) []copt {
	var out []copt
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		t := w.text
		next := func() string {
			if i+1 < len(ws) {
				i++
				return ws[i].text
			}
			return ""
		}
		switch {
		case strings.HasPrefix(t, "--"):
			if name, val, ok := strings.Cut(t, "="); ok {
				out = append(out, copt{name, val, w})
			} else if dockerBoolFlags[t] {
				out = append(out, copt{t, "", w})
			} else {
				out = append(out, copt{t, next(), w})
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(dockerValueShorts, t[j]) < 0 {
					continue
				}
				name, val := "-"+t[j:j+1], strings.TrimPrefix(t[j+1:], "=")
				if j == len(t)-1 {
					val = next()
				}
				out = append(out, copt{name, val, w})
				break
			}
		}
	}
	return out
}

// containerEscapes reports options of `docker run` (podman, nerdctl) that
// give the container the host: --privileged (MG220), the engine's socket
// (MG221), the host's root or system directories (MG222) or the user's home
// and credentials (MG223), the host's process or IPC namespaces (MG224),
// the host's network (MG225), and added capabilities or disabled
// confinement (MG226).
func (a *analyzer) containerEscapes(name string, opts []word) {
	for _, o := range containerOptions(opts) {
		if !o.w.lit {
			continue
		}
		at := o.w.at
		a.containerEnv(name, o)
		switch o.name {
		case "--privileged":
			if o.val == "" || strings.EqualFold(o.val, "true") {
				a.add("MG220", at, "%s run --privileged gives the container every capability and the host's devices: root in it is root on the host", name)
			}
		case "--use-api-socket":
			a.add("MG221", at, "%s run --use-api-socket mounts the engine's API socket: the container can start a privileged container of its own", name)
		case "-v", "--volume", "--mount":
			src, ro := mountSource(o.name, o.val)
			a.hostMount(name, src, ro, at)
		case "--net", "--network":
			if o.val == "host" {
				a.add("MG225", at, "%s run %s host shares the host's network: the container reaches every service listening on the host's loopback and the host's cloud metadata endpoint", name, o.name)
			}
		case "--pid", "--ipc", "--userns", "--uts", "--cgroupns":
			if o.val == "host" {
				a.add("MG224", at, "%s run %s host shares the host's %s namespace: the container sees (and, as root, can signal, trace or join) the host's %s", name, o.name, strings.TrimPrefix(o.name, "--"), nsWhat(o.name))
			}
		case "--cap-add":
			for _, c := range strings.Split(o.val, ",") {
				c = strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(c)), "CAP_")
				if dangerousCaps[c] {
					a.add("MG226", at, "%s run --cap-add %s: %s", name, c, capWhy(c))
				}
			}
		case "--security-opt":
			if v := strings.ToLower(o.val); strings.HasSuffix(v, "=unconfined") || strings.HasSuffix(v, ":unconfined") || v == "label=disable" || v == "label:disable" {
				a.add("MG226", at, "%s run --security-opt %s turns off a confinement layer (seccomp, AppArmor or SELinux) that stops container escapes", name, quote(o.val))
			}
		case "--device":
			if strings.HasPrefix(o.val, "/dev/sd") || strings.HasPrefix(o.val, "/dev/nvme") || strings.HasPrefix(o.val, "/dev/mem") || strings.HasPrefix(o.val, "/dev/kmem") {
				a.add("MG226", at, "%s run --device %s gives the container a host disk or memory device", name, quote(o.val))
			}
		}
	}
}

func nsWhat(opt string) string {
	switch opt {
	case "--pid":
		return "processes (their command lines and, for the same user, environments)"
	case "--ipc":
		return "shared memory and semaphores"
	case "--userns":
		return "users: container root is host root"
	}
	return "host names and control groups"
}

// dangerousCaps are the capabilities that let root in a container reach the
// host (mount, load modules, trace processes, read any file, ...).
var dangerousCaps = map[string]bool{
	"ALL": true, "SYS_ADMIN": true, "SYS_MODULE": true, "SYS_PTRACE": true, "SYS_RAWIO": true,
	"DAC_READ_SEARCH": true, "DAC_OVERRIDE": true, "SYS_BOOT": true, "BPF": true, "PERFMON": true,
	"NET_ADMIN": true, "SYSLOG": true, "MAC_ADMIN": true, "MAC_OVERRIDE": true, "SYS_TIME": true,
}

func capWhy(c string) string {
	switch c {
	case "ALL":
		return "every capability, as good as --privileged"
	case "SYS_ADMIN":
		return "mount, namespaces and most of root's powers: the classic container escape"
	case "SYS_PTRACE":
		return "the container can trace and inject code into processes it sees"
	case "SYS_MODULE":
		return "the container can load kernel modules into the host's kernel"
	case "DAC_READ_SEARCH", "DAC_OVERRIDE":
		return "the container can bypass file permission checks (open_by_handle_at reads host files)"
	}
	return "a capability that reaches beyond the container"
}

// mountSource returns the host side of a -v/--volume value (SRC:DST[:OPTS])
// or a --mount value (type=bind,src=…,dst=…,readonly), and whether it is
// mounted read-only. A named volume returns "".
func mountSource(opt, val string) (src string, ro bool) {
	if opt == "--mount" {
		bind := false
		for _, kv := range strings.Split(val, ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch strings.ToLower(k) {
			case "type":
				bind = v == "bind"
			case "src", "source":
				src = v
			case "readonly", "ro":
				ro = v == "" || v == "true" || v == "1"
			}
		}
		if !bind {
			return "", false
		}
		return src, ro
	}
	parts := strings.Split(val, ":")
	// A Windows drive letter: C:\Users\me:/data.
	if len(parts) > 2 && len(parts[0]) == 1 && isASCIILetter(parts[0][0]) {
		parts = append([]string{parts[0] + ":" + parts[1]}, parts[2:]...)
	}
	if len(parts) < 2 {
		return "", false // an anonymous volume: no host path
	}
	if len(parts) > 2 {
		for _, o := range strings.Split(parts[2], ",") {
			ro = ro || o == "ro" || o == "readonly"
		}
	}
	return parts[0], ro
}

// hostMount classifies the host side of a bind mount.
func (a *analyzer) hostMount(name, src string, ro bool, at int) {
	if src == "" {
		return
	}
	how := "read-write"
	if ro {
		how = "read-only"
	}
	clean := cleanHostPath(src)
	switch {
	case engineSocket(clean):
		a.add("MG221", at, "%s run mounts the container engine's socket %s: whoever talks to it can start a privileged container with the host's root mounted", name, quote(src))
	case clean == "/" || systemDir(clean):
		a.add("MG222", at, "%s run bind-mounts the host's %s %s into the container: it can read every secret there%s", name, quote(src), how, writeNote(ro, "and change system files"))
	case homeDir(clean) || credentialPath(clean):
		a.add("MG223", at, "%s run bind-mounts %s %s into the container: your home directory and its credentials (ssh keys, cloud and registry tokens)%s", name, quote(src), how, writeNote(ro, " and shell start-up files"))
	}
}

func writeNote(ro bool, what string) string {
	if ro {
		return ""
	}
	return ", " + strings.TrimPrefix(what, " ")
}

// cleanHostPath normalises a host path for classification: home spellings
// become "~", Windows separators "/", and the path is cleaned.
func cleanHostPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for _, h := range []string{"${HOME}", "$HOME", "%USERPROFILE%", "%HOMEPATH%", "${env:USERPROFILE}", "$env:USERPROFILE", "${userHome}"} {
		if rest, ok := strings.CutPrefix(p, h); ok && (rest == "" || rest[0] == '/') {
			p = "~" + rest
			break
		}
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		p = path.Clean(p)
	}
	if len(p) == 3 && p[1] == ':' && p[2] == '/' && isASCIILetter(p[0]) {
		return "/" // C:/ is a Windows host's root
	}
	return p
}

func engineSocket(p string) bool {
	base := path.Base(p)
	switch base {
	case "docker.sock", "podman.sock", "containerd.sock", "crio.sock", "docker_engine":
		return true
	}
	return p == "/var/run" || p == "/run" || p == "/var/run/docker" || p == "/run/podman" || p == "/run/containerd"
}

// systemDir reports the host's system directories (and / itself).
func systemDir(p string) bool {
	switch p {
	case "/etc", "/root", "/var", "/usr", "/boot", "/proc", "/sys", "/dev", "/bin", "/sbin", "/lib", "/var/lib", "/private/etc", "C:/Windows":
		return true
	}
	return strings.HasPrefix(p, "/etc/") || strings.HasPrefix(p, "/root/") || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/")
}

// homeDir reports a user's home directory or the directory of all homes.
func homeDir(p string) bool {
	switch p {
	case "~", "/home", "/Users", "C:/Users":
		return true
	}
	for _, pre := range []string{"/home/", "/Users/", "C:/Users/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && rest != "" && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// credentialDirs are the directories that hold a user's keys and tokens.
var credentialDirs = map[string]bool{
	".ssh": true, ".aws": true, ".gnupg": true, ".kube": true, ".docker": true, ".azure": true,
	".netrc": true, ".npmrc": true, ".pypirc": true, ".git-credentials": true, ".password-store": true,
}

// credentialPath reports a path through a credential directory, or that is
// ~/.config itself (every program's settings and tokens).
func credentialPath(p string) bool {
	parts := strings.Split(p, "/")
	for _, el := range parts {
		if credentialDirs[el] {
			return true
		}
	}
	if n := len(parts); n > 0 && parts[n-1] == ".config" {
		return true
	}
	return strings.Contains(p, "/.config/gcloud") || strings.Contains(p, "/.config/gh")
}

// pinnedTagNote classifies an image reference that has no digest: "" for
// a moving tag (none, latest, stable, main…), else the version tag.
func versionTag(image string) string {
	ref := image[strings.LastIndexByte(image, '/')+1:]
	_, tag, ok := strings.Cut(ref, ":")
	if !ok {
		return ""
	}
	t := strings.TrimPrefix(strings.TrimPrefix(tag, "v"), "V")
	if t == "" || !isDigit(t[0]) {
		return ""
	}
	return tag
}
