package trust

import (
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/internal/numfmt"
)

// Rule is one entry of the policy catalog. Ids and slugs never change
// meaning once released; titles, help and severities may be refined.
type Rule struct {
	ID       string
	Slug     string
	Severity Severity
	// Title is a one-line summary.
	Title string
	// Help says why it matters and how to fix it: paragraphs separated by
	// blank lines, the last one starting with "Fix:".
	Help string
}

// RulesDocURL is where the catalog is documented, one heading per rule.
const RulesDocURL = "https://github.com/mcp-guard/mcp-guard/blob/main/docs/rules.md"

// HelpURI links to the rule's section of the catalog's documentation.
func (r Rule) HelpURI() string {
	return RulesDocURL + "#" + strings.ToLower(r.ID) + "-" + r.Slug
}

// Rules is the catalog, in id order.
var Rules = []Rule{
	{ID: "MG101", Slug: "env-exec-hijack", Severity: SeverityHigh,
		Title: "env sets a variable that changes what code runs",
		Help: "Variables such as NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, BASH_ENV or npm_config_* make the approved " +
			"program load other code (a --require'd file, an injected library, a module directory, a package " +
			"index). No agent asks again when env changes: agentty's fingerprint covers the command, the url and " +
			"the string args, never env; Claude Code binds its approval to the server's name, Gemini CLI and Codex " +
			"to the trusted folder. So a repository can change what runs after you approved the server.\n\n" +
			"Fix: remove the variable from the entry. If the server really needs it, set it in the environment you " +
			"start the agent from, where the repository cannot change it."},
	{ID: "MG102", Slug: "env-path-override", Severity: SeverityHigh,
		Title: "env.PATH is set, so a bare command may resolve to a repository file",
		Help: "agentty spawns the command with execvp, which searches the child's PATH after env is applied. " +
			"A PATH set in the entry (especially one starting with a relative or empty element) lets a bare " +
			"command such as `node` resolve to a file the repository provides, and PATH is not part of the fingerprint.\n\n" +
			"Fix: remove env.PATH and name the program by an absolute path, or rely on the PATH of the shell " +
			"agentty was started from."},
	{ID: "MG103", Slug: "unhashed-arg", Severity: SeverityHigh,
		Title: "an args element is not a string: it is spawned but never hashed",
		Help: "agentty hashes only the string elements of args, but passes every element to the process " +
			"(numbers, booleans, null, arrays and objects as their JSON text). A non-string argument can therefore " +
			"be added or changed after approval without agentty noticing.\n\n" +
			"Fix: write every argument as a JSON string (\"8080\", not 8080)."},
	{ID: "MG104", Slug: "nul-in-string", Severity: SeverityHigh,
		Title: "a NUL byte in command, args or env: the hash is ambiguous and argv is truncated",
		Help: "agentty's fingerprint separates fields with NUL bytes, and argv strings end at the first NUL. " +
			"A \\u0000 inside a value makes two different entries hash alike (\"/safe\\u0000--read-only\" hashes " +
			"like two arguments but runs as one, without --read-only) and hides from review what actually runs.\n\n" +
			"Fix: remove the NUL; no legitimate configuration needs one."},
	{ID: "MG105", Slug: "repo-code-unbound", Severity: SeverityMedium,
		Title: "the server runs a repository file whose content the agent's approval does not cover",
		Help: "An agent's approval binds at most the path string, not the file behind it (agentty's fingerprint; " +
			"Claude Code's approval binds only the name, Gemini CLI's and Codex's the folder). A relative command (./bin/server), " +
			"an interpreter given a repository script (node server.js, python3 srv.py, bash run.sh), python -m " +
			"(the launch directory is first on sys.path), or a project runner (npm start, uv run, cargo run, go " +
			"run ., make) runs whatever the repository holds at launch time: a pull can change the code behind an " +
			"approved server without any prompt.\n\n" +
			"Fix: review the files the server runs whenever they change (mcp-guard's own review binds their " +
			"content), or run a released, pinned package instead of repository code."},
	{ID: "MG106", Slug: "trust-annotations", Severity: SeverityMedium,
		Title: "trustAnnotations: true lets read-only tools skip permission prompts",
		Help: "With trustAnnotations agentty believes the server's own claim that a tool is read-only and runs it " +
			"without asking. The key is not part of the fingerprint, so a repository can add it to an approved server.\n\n" +
			"Fix: remove trustAnnotations from project configurations; enable it per server in your own configuration if you trust it."},
	{ID: "MG107", Slug: "name-shadows-user", Severity: SeverityHigh,
		Title: "a project server reuses the name of one of the user's servers",
		Help: "agentty looks OAuth tokens up by server name. A project entry named like a server you logged in to " +
			"(github, linear, ...) can receive the token you granted to yours, and HTTP entries are never gated.\n\n" +
			"Fix: rename the project server, or remove it and use the one from your own configuration."},
	{ID: "MG108", Slug: "blanket-trust", Severity: SeverityHigh,
		Title: "a blanket grant trusts every project server unreviewed",
		Help: "AGENTTY_MCP_ALLOW_PROJECT with a true value (any value starting with 1, t, T, y or Y) or a legacy " +
			"whole-file approval makes agentty run every gated server without asking, including ones a pull adds. " +
			"A repository can set the variable through .envrc or mise.toml.\n\n" +
			"Fix: unset AGENTTY_MCP_ALLOW_PROJECT (check direnv and mise files), and replace a whole-file approval " +
			"with per-server approvals: `mcp-guard revoke --whole-file`, then `mcp-guard approve NAME`."},
	{ID: "MG201", Slug: "fetch-and-exec", Severity: SeverityCritical,
		Title: "a download is piped or handed to an interpreter",
		Help: "curl … | sh, wget -O- … | bash, bash <(curl …), iwr … | iex and their kin run whatever the server " +
			"at the other end sends at the moment of launch. Nothing of it is in the repository or in the " +
			"fingerprint: the approval covers a URL, and the code behind it can change at any time.\n\n" +
			"Fix: install a released, pinned version of the server (with a checksum) and run that; never run a download directly."},
	{ID: "MG202", Slug: "shell-wrapper", Severity: SeverityMedium,
		Title: "the command is a shell running an inline script",
		Help: "sh -c, bash -lc, cmd /c and powershell -Command hide a whole program inside one argument: " +
			"pipes, redirections, substitutions and several commands that agentty's one-line listing shows " +
			"poorly. Login shells (-l) also run the user's profile files. mcp-guard parses the script and reports " +
			"what it finds inside, but the wrapper itself makes review harder.\n\n" +
			"Fix: run the server's program directly, with its arguments as separate args elements."},
	{ID: "MG203", Slug: "inline-code", Severity: SeverityMedium,
		Title: "an interpreter runs inline code",
		Help: "node -e, python -c, perl -e, ruby -e and deno eval run code written into the configuration. " +
			"It can do anything, and reviewers rarely read a one-line program in a JSON string.\n\n" +
			"Fix: move the code into a versioned, reviewed package or file and run that."},
	{ID: "MG204", Slug: "unpinned-package", Severity: SeverityMedium,
		Title: "a package runner without an exact version",
		Help: "npx, uvx, pipx run, bunx, pnpm dlx, dnx and docker run fetch code at launch time. Without an exact " +
			"version (pkg, pkg@latest, a range such as pkg@^1, a dist-tag, an image tag) every launch can run " +
			"different code than the one approved, chosen by whoever controls the registry entry.\n\n" +
			"Fix: pin an exact version (npx -y pkg@1.2.3, uvx pkg==1.2.3, pipx run --spec pkg==1.2.3 app) or an " +
			"image digest (image@sha256:…)."},
	{ID: "MG205", Slug: "remote-source-exec", Severity: SeverityHigh,
		Title: "a runner installs from a URL or git ref",
		Help: "uvx --from git+https://…, npx github:user/repo, npx user/repo (npm's GitHub shorthand) and deno run " +
			"https://… build and run code straight from a repository or URL, bypassing registry versions; a " +
			"branch can change under an approved server at any time.\n\n" +
			"Fix: install a released version from the registry and pin it exactly."},
	{ID: "MG211", Slug: "lookalike-package", Severity: SeverityHigh,
		Title: "a package name one or two letters away from a well-known MCP server's",
		Help: "npx, uvx, pipx run and their kin fetch a package by name from a public registry, where anyone can " +
			"publish any free name. A name a letter away from a well-known MCP server (server-filesytem for " +
			"server-filesystem, mcp-server-fecth for mcp-server-fetch) runs whatever its publisher uploaded, " +
			"while a reviewer reads the name they know; pinning a version does not help, the version is the " +
			"impostor's. mcp-guard compares with a list of well-known MCP server packages it ships " +
			"(policy/wellknown-mcp-packages.txt, which says where each comes from); the real name stays silent.\n\n" +
			"Fix: spell the package as its publisher documents it, and check the registry page before running it."},
	{ID: "MG206", Slug: "indirect-exec", Severity: SeverityHigh,
		Title: "a program runs a shell, interpreter or download given in its arguments",
		Help: "find -exec, xargs, awk's system(), ssh -o ProxyCommand=…, git -c core.pager=… (and other git " +
			"keys git runs, such as core.sshCommand or a \"!\" alias) and watch run a command written into their " +
			"arguments. When that command is a shell, an interpreter or a downloader, the entry runs arbitrary " +
			"code behind a program a reviewer reads as harmless. mcp-guard analyses the nested command like the " +
			"command line itself and reports what it finds inside as well.\n\n" +
			"Fix: run the server's program directly; if a helper really must run, name it as the command, with " +
			"its arguments as separate args elements."},
	{ID: "MG207", Slug: "reverse-shell", Severity: SeverityCritical,
		Title: "a shell or process is connected to a network socket",
		Help: "nc -e /bin/sh, ncat --sh-exec, socat exec:… tcp:…, bash -i >& /dev/tcp/host/port, a shell piped " +
			"to or from nc or telnet, and inline code that joins a socket to a shell or subprocess hand control of " +
			"the machine to whoever is at the other end. No MCP server needs this.\n\n" +
			"Fix: remove the server and treat the repository as hostile: check what else it changed."},
	{ID: "MG208", Slug: "decoded-exec", Severity: SeverityHigh,
		Title: "the command runs code it decodes or hides by word splitting",
		Help: "echo … | base64 -d | sh, sh -c \"$(echo … | base64 -d)\", python -c \"exec(base64.b64decode(…))\" and " +
			"commands spelled with ${IFS} (curl${IFS}-s${IFS}…) hide what runs from anyone reading the entry: the " +
			"only reason to write a command that way is to get it past review.\n\n" +
			"Fix: remove the entry; if the server is legitimate, write its command in plain words."},
	{ID: "MG209", Slug: "destructive-rm", Severity: SeverityHigh,
		Title: "rm deletes the root, a system directory or the home directory",
		Help: "rm -rf /, rm -rf ~, rm -rf $HOME, rm -r /etc and any rm --no-preserve-root destroy the user's data " +
			"or system when the server starts. No server launch needs to delete such a directory.\n\n" +
			"Fix: remove the command; if the server cleans up after itself, delete only a directory it created " +
			"(a path below the project or a temporary directory)."},
	{ID: "MG210", Slug: "plaintext-index", Severity: SeverityHigh,
		Title: "packages are installed from a plain-http index",
		Help: "pip install --index-url http://…, --extra-index-url, --find-links, uv --index and npm --registry " +
			"http://… fetch code over an unencrypted connection to another machine: anyone on the network path " +
			"can replace the packages the server runs. Loopback addresses are not reported.\n\n" +
			"Fix: use an https:// index (or a loopback mirror), and pin the packages with hashes."},
	{ID: "MG220", Slug: "container-privileged", Severity: SeverityCritical,
		Title: "a container runs with --privileged",
		Help: "docker, podman or nerdctl run --privileged gives the container every capability, all host devices " +
			"and no seccomp or AppArmor confinement: root inside it can mount the host's disks and load kernel " +
			"modules, so whatever the image runs (and whoever can re-push it) owns the host.\n\n" +
			"Fix: remove --privileged; if the server needs one capability, add only that one, and say why in review."},
	{ID: "MG221", Slug: "container-engine-socket", Severity: SeverityCritical,
		Title: "a container gets the container engine's socket",
		Help: "Mounting /var/run/docker.sock (podman.sock, containerd.sock, or --use-api-socket) into a container " +
			"hands it the engine's API, which can start a new privileged container with the host's / mounted: " +
			"root on the host, one request away.\n\n" +
			"Fix: do not mount the socket. A server that must manage containers should run outside a container, " +
			"or talk to a socket proxy that allows only the calls it needs."},
	{ID: "MG222", Slug: "container-host-root-mount", Severity: SeverityCritical,
		Title: "a container bind-mounts the host's root or system directories",
		Help: "-v /:/host, --mount type=bind,src=/etc,… and their kin give the container the host's files: every " +
			"secret on the machine to read and, read-write, system files to change (cron, sudoers, shell profiles), " +
			"which is code execution on the host.\n\n" +
			"Fix: mount only the directory the server works on (a repository subdirectory such as ./data), read-only when it can."},
	{ID: "MG223", Slug: "container-home-mount", Severity: SeverityHigh,
		Title: "a container bind-mounts your home directory or a credential directory",
		Help: "Mounting $HOME, ~, /Users/NAME or a credential directory (~/.ssh, ~/.aws, ~/.gnupg, ~/.kube, " +
			"~/.docker, ~/.config) gives the container your keys and tokens, and read-write your shell start-up " +
			"files. High rather than critical: it is your account, not the whole host.\n\n" +
			"Fix: mount only the directory the server needs; pass a credential it needs as one variable, not a directory."},
	{ID: "MG224", Slug: "container-host-namespace", Severity: SeverityHigh,
		Title: "a container shares the host's process, IPC or user namespace",
		Help: "--pid host lets the container see every host process with its command line (and often secrets in " +
			"them) and, with a capability such as SYS_PTRACE, trace and inject into them; --ipc host shares memory " +
			"segments; --userns host makes container root host root. High: each removes a wall that stops a " +
			"compromised server reaching the host.\n\n" +
			"Fix: remove the option; MCP servers do not need the host's namespaces."},
	{ID: "MG225", Slug: "container-host-network", Severity: SeverityMedium,
		Title: "a container uses the host's network",
		Help: "--network host puts the container on the host's network stack: it reaches services bound to the " +
			"host's loopback (databases, dev servers, debuggers, an engine API on tcp) and the cloud metadata " +
			"endpoint. Medium, not high: it widens what a compromised server can reach but gives it no code " +
			"execution on the host by itself, and some servers use it to reach a local service.\n\n" +
			"Fix: use the default bridge network and publish or connect only the ports the server needs " +
			"(host.docker.internal reaches a host service)."},
	{ID: "MG226", Slug: "container-added-capability", Severity: SeverityHigh,
		Title: "a container gets a dangerous capability or loses its confinement",
		Help: "--cap-add SYS_ADMIN (ALL, SYS_PTRACE, SYS_MODULE, DAC_READ_SEARCH, NET_ADMIN, ...), --security-opt " +
			"seccomp=unconfined or apparmor=unconfined, and --device of a host disk are the known ways out of a " +
			"container. High, not critical: each needs a second step to escape, unlike --privileged.\n\n" +
			"Fix: remove the option; add a narrow capability (NET_BIND_SERVICE) only when the server documents the need."},
	{ID: "MG227", Slug: "image-tag-not-digest", Severity: SeverityLow,
		Title: "a container image is pinned by a version tag, not a digest",
		Help: "image:0.4.0 names a version, but a tag is a mutable pointer: the publisher, or whoever takes over " +
			"the repository or registry account, can push other content under it, and every launch pulls what the " +
			"tag points to then. A digest (image@sha256:…) names fixed content. Low, below MG204: a version tag is " +
			"rarely moved, while :latest or no tag moves with every release.\n\n" +
			"Fix: pin the digest, keeping the tag for readers: image:0.4.0@sha256:…"},
	{ID: "MG301", Slug: "invalid-config", Severity: SeverityLow,
		Title: "the file does not parse the way the agent reads it",
		Help: "Each agent parses its configuration by its own rules: agentty and Claude Code strictly (no comments, " +
			"no trailing commas, valid UTF-8), Gemini CLI with comments but no trailing comma, VS Code and Cursor " +
			"as JSONC, Codex as TOML. When the agent cannot, none of " +
			"the file's servers run (for agentty, the user's own servers do not connect either in that session), and " +
			"mcp-guard cannot tell what a fixed file would run. Files written for another tool (JSONC in a strict " +
			"JSON file) often fail this way.\n\n" +
			"Fix: write the file in the agent's own format; `mcp-guard scan` shows the line and column of the first error."},
	{ID: "MG302", Slug: "duplicate-key", Severity: SeverityMedium,
		Title: "a duplicate key: the last one silently wins",
		Help: "agentty keeps the last of duplicate keys, at every level, replacing the earlier value. A reviewer " +
			"reading the first occurrence sees a different server than the one that runs.\n\n" +
			"Fix: remove the duplicate."},
	{ID: "MG303", Slug: "trailing-content", Severity: SeverityHigh,
		Title: "bytes after the first JSON value",
		Help: "agentty's connect loop runs the first JSON value and ignores what follows, while `agentty plugin " +
			"list` rejects the file and shows no servers: the file runs servers its own listing hides.\n\n" +
			"Fix: remove everything after the first JSON value."},
	{ID: "MG304", Slug: "both-server-keys", Severity: SeverityMedium,
		Title: "mcpServers and servers are both present",
		Help: "agentty reads mcpServers when it is an object and ignores servers; other tools may read the other " +
			"one. What a reviewer or another tool sees is not what agentty runs.\n\n" +
			"Fix: keep one server table."},
	{ID: "MG305", Slug: "symlinked-config", Severity: SeverityMedium,
		Title: "the config or its .agentty directory is a symlink",
		Help: "agentty follows symlinks and reads the target. A symlinked configuration or .agentty directory " +
			"can point outside the repository, where review does not look, or at a file that changes independently.\n\n" +
			"Fix: commit the configuration as a regular file."},
	{ID: "MG306", Slug: "nested-config", Severity: SeverityMedium,
		Title: "a .agentty/mcp.json below the repository root",
		Help: "agentty reads .agentty/mcp.json from its launch directory and never walks up, so every nested " +
			"configuration is live for someone who starts agentty in that directory, and the root configuration " +
			"does not apply there. Nested files are easily missed in review.\n\n" +
			"Fix: keep one configuration at the root, or review nested ones as carefully."},
	{ID: "MG307", Slug: "wrong-type", Severity: SeverityLow,
		Title: "a server entry its agent cannot use, so nothing of it runs",
		Help: "A server entry that is not an object, or a command, url or type that is not a string (null " +
			"included), makes agentty fail on the whole file; Claude Code, Cursor, VS Code and Gemini CLI skip " +
			"the entry (a url without the \"type\" Claude Code requires, a type they do not know, neither a " +
			"command nor a url) and load its siblings. Either way nothing from the entry runs or connects: a " +
			"broken configuration, not a risk, so low. Keys an agent documents (Gemini CLI's httpUrl) are read " +
			"as that agent reads them.\n\n" +
			"Fix: give the value the type the agent expects; for a remote server add \"type\": \"http\"."},
	{ID: "MG308", Slug: "deceptive-text", Severity: SeverityHigh,
		Title: "control, escape, bidi or zero-width characters in a name, command, arg, env value or persona",
		Help: "Terminal escapes, bidi overrides and invisible characters make text display differently from what " +
			"it is: a server name that looks like another, an argument that hides a flag, a prompt with " +
			"instructions a reviewer cannot see. mcp-guard always shows such characters escaped.\n\n" +
			"Fix: remove them; configurations and personas have no need for them."},
	{ID: "MG309", Slug: "disabled-not-bool", Severity: SeverityMedium,
		Title: "disabled is not a JSON boolean, so the agent treats the server as enabled",
		Help: "agentty disables a server only for the JSON value true. \"true\", 1 or \"yes\" leave it enabled, " +
			"while a reader (and other tools) may think it is off.\n\n" +
			"Fix: write \"disabled\": true."},
	{ID: "MG310", Slug: "unreadable-config", Severity: SeverityHigh,
		Title: "mcp-guard cannot read the file, so nothing in it is reviewed",
		Help: "mcp-guard reads configurations of at most 16 MiB; a repository's file of at most " + numfmt.Grouped(MaxRepoValues) +
			" values (JSON or TOML; " + strconv.Itoa(MaxRepoYAML>>10) + " KiB of a skill's YAML frontmatter) declaring at most " +
			numfmt.Grouped(MaxServers) + " servers, the user's own of at most " + numfmt.Grouped(MaxValues) + " values. It follows a symlinked " +
			"configuration only inside the repository, and reads only regular files. Some agents read more: " +
			"agentty has none of these limits, and Cursor, VS Code and other JSONC readers recover from syntax " +
			"errors and load the servers they can still parse. Such an agent may well run servers from a file " +
			"mcp-guard could not read, and mcp-guard cannot say which. Nothing in the file counts as reviewed, and " +
			"`mcp-guard check` and `mcp-guard launch` stay closed while it is there.\n\n" +
			"Fix: fix the syntax error at the line and column the message names; real configurations are a few " +
			"kilobytes, tens of servers and regular files, so for a huge file, thousands of servers, a FIFO or a " +
			"symlink out of the repository find out why before starting the agent here, and replace it with a " +
			"small, regular file."},
	{ID: "MG401", Slug: "literal-secret", Severity: SeverityHigh,
		Title: "a credential-looking literal",
		Help: "A token, key or password written into the configuration (env, headers, args, url) is readable by " +
			"everyone who can read the repository and stays in its history after removal. mcp-guard recognises " +
			"known token formats and key-like names with random-looking values; references such as ${VAR}, " +
			"${input:…} and placeholders are fine. Messages show only a redacted prefix. A provider's token " +
			"format (known prefix and length) is high wherever it goes; any other credential is high too, unless " +
			"every endpoint its server names is on this machine or a private network, or the value names itself " +
			"a development or demo default: then it is medium, and the message says why.\n\n" +
			"Fix: revoke and rotate the credential, then remove it. agentty passes its own environment to the " +
			"server, so a variable set where agentty starts reaches the server without being written in the file."},
	{ID: "MG402", Slug: "plaintext-http", Severity: SeverityMedium,
		Title: "a non-loopback http:// server URL",
		Help: "Plain http to another machine exposes requests, tool results and any credentials in headers to " +
			"the network, and lets anyone on the path change the tools the agent sees.\n\n" +
			"Fix: use https://, or keep plain http to localhost."},
	{ID: "MG403", Slug: "plaintext-http-arg", Severity: SeverityMedium,
		Title: "a server is given a non-loopback http:// URL in its arguments",
		Help: "An argument such as --server http://10.0.0.5:5000/ makes the server talk plain http to another " +
			"machine: what it sends and receives there (queries, tool results, any credentials it adds) can be " +
			"read and changed on the way. Medium, like MG402.\n\n" +
			"Fix: use https://, or keep plain http to localhost (or host.docker.internal from a container)."},
	{ID: "MG404", Slug: "project-remote-server", Severity: SeverityMedium,
		Title: "a project configuration names a remote server",
		Help: "What each agent does with a remote server in a project configuration: agentty never gates http and " +
			"sse entries and connects at start without asking; Claude Code and Cursor ask in an interactive session " +
			"and connect without asking in a headless run (claude -p, cursor-agent --approve-mcps); Gemini CLI, " +
			"Codex and VS Code ask about the folder or workspace, not about the server. Once connected, its tools " +
			"are offered to the agent. Whoever runs that server chooses the " +
			"tools, their descriptions (prompts the model reads) and their results, and receives whatever the " +
			"agent sends to them. Medium: nothing runs on your machine, but a repository picks who the agent talks to " +
			"(at a bare public IP address it is MG406, high).\n\n" +
			"Fix: add remote servers you trust to your own configuration instead, or review who operates this one."},
	{ID: "MG405", Slug: "cloud-metadata-endpoint", Severity: SeverityHigh,
		Title: "a cloud metadata endpoint in a url, arg or env value",
		Help: "169.254.169.254, metadata.google.internal, fd00:ec2::254 (and the ECS, Azure and Alibaba " +
			"equivalents) answer anyone on the machine with its cloud credentials. A server pointed at one, on a " +
			"CI runner or cloud workstation, hands those credentials to the server and to the agent.\n\n" +
			"Fix: remove the endpoint; no MCP server needs the instance's credentials through its configuration."},
	{ID: "MG406", Slug: "public-ip-server", Severity: SeverityHigh,
		Title: "a server is reached at a bare public IP address",
		Help: "A remote server (or a URL handed to a server) at a literal public IP address names no one: no " +
			"domain, no certificate a reader can check against a vendor, often a rented machine that changes hands. " +
			"Legitimate hosted MCP servers have names; a bare address is what a throwaway command-and-control " +
			"host looks like, and whoever runs it chooses the tools, their descriptions and their results, and " +
			"receives what the agent sends. High, above MG404.\n\n" +
			"Fix: use the vendor's named https endpoint, or a host on your own network."},
	{ID: "MG501", Slug: "project-hooks", Severity: SeverityLow,
		Title: "a project .agentty/hooks.json runs shell commands on tool calls",
		Help: "agentty runs the run commands of a project hooks.json on tool calls once its whole-file hash is " +
			"approved. The hash does not cover the scripts those commands call, so repository scripts can change " +
			"after approval. mcp-guard analyses every run command like a shell script.\n\n" +
			"Fix: keep hooks in your own ~/.agentty/hooks.json, or review the hooks and every script they call."},
	{ID: "MG502", Slug: "project-acp-agents", Severity: SeverityLow,
		Title: "a project .agentty/acp-agents.json has no content approval at all",
		Help: "agentty uses a project acp-agents.json when the user has none and AGENTTY_ACP_ALLOW_PROJECT is true; " +
			"there is no per-agent or content approval, so any edit of the file runs new commands. mcp-guard " +
			"checks each agent's command line like a server's.\n\n" +
			"Fix: define ACP agents in ~/.agentty/acp-agents.json and keep AGENTTY_ACP_ALLOW_PROJECT unset."},
	{ID: "MG503", Slug: "project-agent-persona", Severity: SeverityLow,
		Title: "an agent persona (prompt) added or changed",
		Help: "Agent personas (.agentty/agents/*.md, .agents/agents/*.md, .claude/agents/*.md) are prompts with a " +
			"tool list that agentty offers as project agents without any approval. They do not run code by " +
			"themselves, but they steer what the agent does with the tools it has: a prompt-injection surface.\n\n" +
			"Fix: review the persona's prompt and tool list like code."},
	{ID: "MG601", Slug: "broad-filesystem-root", Severity: SeverityHigh,
		Title: "a server is given /, a home directory, /etc or a credential directory",
		Help: "Filesystem servers (and any server taking a root or directory argument) read, and often write, " +
			"everything below the paths they are given. /, ~, $HOME, /Users/NAME, /etc, ~/.ssh, ~/.aws, ~/.gnupg " +
			"or ~/.config put your keys and tokens, and files whose change runs code, within reach of every tool " +
			"call, including ones a prompt injection asks for.\n\n" +
			"Fix: give the server the project directory (or a subdirectory of it) only."},
	{ID: "MG602", Slug: "env-forward-all", Severity: SeverityHigh,
		Title: "every environment variable is forwarded to the server",
		Help: "An env key \"*\", podman run --env-host, -e 'PREFIX*' or an --env-file from your home directory " +
			"hands the server (or its container) your whole environment: every token and key agentty was started " +
			"with, not just the one the server needs.\n\n" +
			"Fix: forward the variables the server needs by name (-e GITHUB_TOKEN, \"env\": {\"X\": \"${X}\"})."},
	{ID: "MG701", Slug: "claude-self-approval", Severity: SeverityHigh,
		Title: "the repository approves its own .mcp.json servers for Claude Code",
		Help: "Claude Code runs a project server from .mcp.json without asking once the folder is trusted and the " +
			"server is approved by name: enabledMcpjsonServers lists names, enableAllProjectMcpServers: true approves " +
			"every server the file has now or gets later. A .claude/settings.json or .claude/settings.local.json in the " +
			"repository counts as an approval, so the repository approved itself, and the approval is bound to a name: " +
			"a pull that changes what `db` runs runs it with no prompt. settings.local.json is Claude Code's per-user " +
			"file (it makes git ignore it when it writes it); a committed one is the attack.\n\n" +
			"Fix: remove enabledMcpjsonServers and enableAllProjectMcpServers from the repository's settings (and " +
			"settings.local.json from the repository, adding it to .gitignore); approve servers in Claude Code's own " +
			"dialog, where the approval is yours."},
	{ID: "MG702", Slug: "claude-project-hooks", Severity: SeverityLow,
		Title: "the repository's Claude Code settings define hooks: shell commands run on events",
		Help: "hooks in .claude/settings.json or .claude/settings.local.json are shell commands Claude Code runs on " +
			"its own events (session start, before and after tool calls, ...) with the user's privileges, with no " +
			"approval of their own once the folder is trusted: the same attack as a project MCP server, by another " +
			"door. mcp-guard lists the commands and analyses each like a shell script.\n\n" +
			"Fix: keep hooks in your own ~/.claude/settings.json; review the repository's hooks and every script they " +
			"call before trusting the folder."},
	{ID: "MG703", Slug: "claude-command-setting", Severity: SeverityLow,
		Title: "the repository's Claude Code settings name a command Claude Code runs",
		Help: "apiKeyHelper, awsAuthRefresh, awsCredentialExport, gcpAuthRefresh, otelHeadersHelper and proxyAuthHelper are run with /bin/sh, and " +
			"statusLine, fileSuggestion and subagentStatusLine of type command are run as shell commands, by Claude Code itself; in a " +
			"repository's settings they run repository-chosen code whenever Claude Code starts or redraws, and a " +
			"credential helper also sees and shapes the credentials.\n\n" +
			"Fix: set these in your own ~/.claude/settings.json, not in the repository."},
	{ID: "MG704", Slug: "claude-env-exec-hijack", Severity: SeverityHigh,
		Title: "the repository's Claude Code settings set a variable that changes what code runs",
		Help: "env in Claude Code settings is applied to every session and to what it spawns: MCP servers, hooks " +
			"and the Bash tool. NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, BASH_ENV and their kin make every program " +
			"started from there load code the repository chooses.\n\n" +
			"Fix: remove the variable from the repository's settings; set it in your own environment if you need it."},
	{ID: "MG705", Slug: "ci-claude-headless", Severity: SeverityHigh,
		Title: "CI runs Claude Code headless in the checkout without --strict-mcp-config",
		Help: "`claude -p` (and claude-code-action, which runs it) spawns the project servers of every .mcp.json from " +
			"its working directory up, unapproved, even in a folder nobody trusted; `claude mcp list` spawns the " +
			"approved ones for its health check. In CI the checkout is whatever the pushed commit or the pull request " +
			"holds, so the branch chooses what runs on the runner, next to its secrets. Only --strict-mcp-config (with " +
			"--mcp-config naming the servers you vetted) or a deny list stops it.\n\n" +
			"Fix: pass --strict-mcp-config, with --mcp-config naming the servers you vetted (claude_args: " +
			"\"--strict-mcp-config\" for claude-code-action)."},
	{ID: "MG706", Slug: "ci-claude-enable-all", Severity: SeverityHigh,
		Title: "CI approves every project MCP server for Claude Code",
		Help: "A workflow that sets enableAllProjectMcpServers (written into a settings file in a run step, or given " +
			"in claude-code-action's settings) approves every server of every .mcp.json in the checkout, including " +
			"ones a pull request adds: the repository approves itself on the runner.\n\n" +
			"Fix: remove the setting; name the servers you vetted with --mcp-config and --strict-mcp-config."},
	{ID: "MG707", Slug: "claude-settings-unparsed", Severity: SeverityHigh,
		Title: "Claude Code settings or a CI workflow mcp-guard cannot parse mention approvals, hooks or claude",
		Help: "mcp-guard reads .claude/settings*.json as strict JSON and CI workflows as YAML. When it cannot, and " +
			"the file mentions the keys or commands behind MG701-MG706, it cannot tell whether the client would run " +
			"something, so it says so rather than report the file clean.\n\n" +
			"Fix: make the file valid (JSON without comments or trailing commas; one YAML document), or remove it."},
	{ID: "MG708", Slug: "gemini-server-trust", Severity: SeverityHigh,
		Title: "a Gemini CLI server in the repository is marked trust: true",
		Help: "Gemini CLI has no per-server approval: in a trusted folder every server of <launch dir>/.gemini/settings.json " +
			"runs, whatever a pull changed. `trust: true` on a server also skips the confirmation of every one of its " +
			"tool calls, so the model can call a repository-chosen tool with any arguments and nobody is asked.\n\n" +
			"Fix: remove `trust` from the repository's settings; mark servers you vetted as trusted in your own " +
			"~/.gemini/settings.json."},
	{ID: "MG709", Slug: "gemini-workspace-allowlist", Severity: SeverityInfo,
		Title: "the repository's Gemini CLI settings carry an mcp.allowed list: it can only narrow",
		Help: "mcp.allowed in a workspace .gemini/settings.json is intersected with the user's own list (observed on " +
			"Gemini CLI 0.61.0), so it can keep servers from running but never approves one: it is not a review. The " +
			"servers it names still run unapproved once the folder is trusted, and the file that holds the list also " +
			"chooses what they run. mcp-guard reports it so a reader does not take it for an approval.\n\n" +
			"Fix: nothing is needed; to approve servers review them with mcp-guard, and to block some use mcp.excluded " +
			"in your own settings."},
	{ID: "MG710", Slug: "gemini-workspace-folder-trust", Severity: SeverityLow,
		Title: "the repository's Gemini CLI settings turn folder trust off, which Gemini CLI ignores",
		Help: "security.folderTrust.enabled (and the legacy top-level folderTrust) is read only from the user's " +
			"settings: in a workspace file it does nothing (observed on Gemini CLI 0.61.0), so the folder is still " +
			"asked about. It is reported because it says something it does not do: either a mistaken attempt to make " +
			"the folder trusted, or a setting someone believes protects them.\n\n" +
			"Fix: remove it from the repository; folder trust is the user's choice, in ~/.gemini/settings.json and " +
			"~/.gemini/trustedFolders.json."},
	{ID: "MG711", Slug: "vscode-mcp-autostart", Severity: SeverityHigh,
		Title: "the repository's VS Code settings make VS Code start MCP servers by itself",
		Help: "chat.mcp.autostart (newAndOutdated, onlyNew, or the older true) makes VS Code start new or changed MCP " +
			"servers when a chat request is sent, without the click that would otherwise start them; workspace settings " +
			"override a user who chose never. With the repository's own .vscode/mcp.json that means repository-chosen " +
			"commands start as soon as someone chats in a trusted workspace (modelled from VS Code's documentation, " +
			"not observed).\n\n" +
			"Fix: remove chat.mcp.autostart from .vscode/settings.json; set it in your user settings."},
	{ID: "MG712", Slug: "vscode-mcp-discovery", Severity: SeverityMedium,
		Title: "the repository's VS Code settings turn on discovery of other clients' MCP servers",
		Help: "chat.mcp.discovery.enabled makes VS Code read the MCP servers configured for other applications (Claude " +
			"Desktop, Cursor, ...) and offer them in chat; from a workspace it widens what VS Code runs beyond the " +
			"servers the user configured for it (modelled from VS Code's documentation).\n\n" +
			"Fix: remove chat.mcp.discovery.enabled from .vscode/settings.json; turn discovery on in your user " +
			"settings if you want it."},
	{ID: "MG713", Slug: "vscode-task-folder-open", Severity: SeverityLow,
		Title: "a VS Code task in the repository runs when the folder opens",
		Help: "A task in .vscode/tasks.json with runOptions.runOn: folderOpen runs its command as soon as the folder is " +
			"opened in a trusted workspace, with the user's privileges and no MCP involved: the repository runs code " +
			"by opening. mcp-guard lists the command and analyses it like a shell script (modelled from VS Code's " +
			"documentation).\n\n" +
			"Fix: remove runOptions.runOn from the task (run it by hand), or keep task.allowAutomaticTasks off in your " +
			"user settings and review the task before allowing it."},
	{ID: "MG714", Slug: "ci-gemini-trust-workspace", Severity: SeverityHigh,
		Title: "CI sets GEMINI_CLI_TRUST_WORKSPACE=true",
		Help: "GEMINI_CLI_TRUST_WORKSPACE=true makes Gemini CLI treat the folder as trusted without asking (observed on " +
			"0.61.0, in -p too). Gemini CLI has no per-server approval, so on the runner every server of the checkout's " +
			".gemini/settings.json runs, whatever the pushed branch or pull request made it run, next to the " +
			"workflow's secrets.\n\n" +
			"Fix: do not set the variable; run Gemini CLI in a directory holding only a settings file you vetted, or " +
			"name the vetted servers with --allowed-mcp-server-names from a config outside the checkout."},
	{ID: "MG715", Slug: "ci-agent-headless", Severity: SeverityHigh,
		Title: "CI runs Gemini CLI, Codex or Cursor's agent headless in the checkout",
		Help: "`gemini -p` (or a prompt with no terminal, or `gemini mcp list`), `codex exec`, and `cursor-agent -p " +
			"--approve-mcps` spawn the checkout's project servers where the folder or project counts as trusted " +
			"(GEMINI_CLI_TRUST_WORKSPACE, a trustedFolders entry, a Codex trust_level, --approve-mcps). None of these " +
			"clients approves a server by what it runs, so the branch under test chooses what runs on the runner.\n\n" +
			"Fix: run the agent outside the checkout or with a configuration you vetted, and do not trust the " +
			"checkout's folder on the runner."},
	{ID: "MG716", Slug: "codex-config-invalid", Severity: SeverityLow,
		Title: "Codex cannot load the repository's .codex/config.toml",
		Help: "Codex aborts the whole run on a TOML error in a project layer (a duplicate key or table) and fails on a " +
			"server it cannot deserialize (a non-string argument, an entry with neither command nor url), starting no " +
			"server at all (observed on Codex 0.169.0). A repository can so stop Codex for everyone who trusts it, and " +
			"mcp-guard cannot tell what the file would run once it is fixed.\n\n" +
			"Fix: make the file valid TOML with one definition per key, every argument a string and every server a " +
			"command or a url."},
	{ID: "MG717", Slug: "client-server-mismatch", Severity: SeverityMedium,
		Title: "one server name runs different commands in two clients' configs",
		Help: "The repository's configs for two clients (for example .mcp.json and .cursor/mcp.json in one directory) " +
			"define a server of the same name that runs something different. A reviewer who checked `db` in one " +
			"client easily takes the other for the same server, and approvals bound to a name carry over in people's " +
			"heads if not in the clients.\n\n" +
			"Fix: give the servers different names, or make every client's entry run the same command."},
	{ID: "MG718", Slug: "client-file-unreadable", Severity: SeverityHigh,
		Title: "a Gemini CLI, Codex, Cursor or VS Code file (or its directory) mcp-guard cannot read",
		Help: "The file could not be read (too large, a symlink leading out of the repository), does not parse although " +
			"it mentions what the rules above look for, or the client's directory itself is a symlink. The client may " +
			"still read it, so mcp-guard cannot tell what it would run and says so rather than report it clean.\n\n" +
			"Fix: make the file valid and a regular file inside the repository, and the directory a real directory."},
	{ID: "MG719", Slug: "claude-remote-plugin", Severity: SeverityCritical,
		Title: "Claude Code settings enable a plugin from a marketplace outside the repository",
		Help: "The repository's .claude/settings.json (or a committed settings.local.json) declares a plugin marketplace " +
			"in extraKnownMarketplaces whose source is GitHub, a git URL, a URL or a package, and enables a plugin of it in " +
			"enabledPlugins. Once the folder is trusted Claude Code offers to install it, and an installed plugin's hooks, " +
			"MCP servers and commands run without asking, from code that is not in the repository and can change at any " +
			"time without a commit. mcp-guard reviews the plugin as an entry bound to where it comes from, not to what it holds. " +
			"A plugin enabled from a marketplace the file does not declare is reported too: Claude Code loads it from a marketplace " +
			"of that name the user's own settings or plugin registry hold, with no install and no prompt (`claude -p` in a folder " +
			"not trusted too), or from one the other settings file declares.\n\n" +
			"Fix: vendor the marketplace into the repository (a directory source), or leave the plugin for each user to install."},
	{ID: "MG722", Slug: "opencode-plugin", Severity: SeverityHigh,
		Title: "the repository makes OpenCode run a plugin at start",
		Help: "OpenCode imports every file of a project's .opencode/plugin/ (or plugins/) directory and every entry of a " +
			"config's `plugin` list when it starts, with no prompt and no trust step (observed on OpenCode 1.18.33): " +
			"a plugin is JavaScript run with the user's rights the moment `opencode` starts in the checkout. mcp-guard " +
			"cannot review plugins yet, so `check` fails and `launch` refuses OpenCode while the repository has one.\n\n" +
			"Fix: remove the plugin from the repository, or start OpenCode with OPENCODE_DISABLE_PROJECT_CONFIG=1."},
	{ID: "MG723", Slug: "opencode-permission-allow", Severity: SeverityHigh,
		Title: "the repository's OpenCode config allows tools without asking",
		Help: "A project opencode.json's `permission` (for every tool, or for bash, edit, webfetch, …) set to \"allow\" " +
			"makes OpenCode run those tool calls without asking, for everyone who starts it in the checkout; an agent's " +
			"`permission` does the same for that agent.\n\n" +
			"Fix: leave permissions to the user's own config; set \"ask\" in the project if anything."},
	{ID: "MG724", Slug: "qwen-server-trust", Severity: SeverityHigh,
		Title: "a Qwen Code server the repository marks trusted",
		Help: "`trust: true` on a server of the repository's .qwen/settings.json makes Qwen Code run every tool call " +
			"of that server without confirmation once the user approved the server (Qwen Code asks once per entry; " +
			"observed on 0.24.4). The confirmations it skips are modelled from Qwen Code's documentation (docs/qwen-code.md).\n\n" +
			"Fix: remove `trust` from the repository's settings; trust a server in your own ~/.qwen/settings.json."},
	{ID: "MG725", Slug: "copilot-repo-hooks", Severity: SeverityLow,
		Title: "the repository gives Copilot CLI hooks to run",
		Help: "A file of .github/hooks/ (*.json), or `hooks` in the repository's .github/copilot/settings.json (or a " +
			"committed settings.local.json), makes GitHub Copilot CLI run shell commands at session start, before tool " +
			"calls and at other events, with your privileges and without asking, once the folder is trusted (observed on " +
			"Copilot CLI 1.0.102, docs/copilot-cli.md): the same attack as a project MCP server, by another door. " +
			"mcp-guard lists the commands and analyses each like a shell script; each waits for review " +
			"(`copilot-cli:hooks.sessionStart[0]`), and `launch` starts Copilot CLI only when every one is reviewed, as no " +
			"flag keeps a hook from running.\n\n" +
			"Fix: keep hooks in your own ~/.copilot; review the repository's hooks and every script they call."},
	{ID: "MG726", Slug: "copilot-repo-plugins", Severity: SeverityHigh,
		Title: "the repository's Copilot CLI settings load hook directories or plugins",
		Help: "`hookDirectories`, `enabledPlugins` or `extraKnownMarketplaces` in the repository's " +
			".github/copilot/settings.json makes GitHub Copilot CLI run the hooks of other directories, or install and " +
			"load plugins, for everyone who trusts the folder; a plugin's MCP servers and hooks then run without asking, " +
			"from code that is not in the repository. mcp-guard cannot review them, so `check` fails and `launch` " +
			"refuses Copilot CLI while the settings name one.\n\n" +
			"Fix: leave hook directories and plugins to each user's own ~/.copilot settings and `copilot plugin`."},
	{ID: "MG733", Slug: "kiro-auto-approve", Severity: SeverityHigh,
		Title: "a Kiro server whose tools that act the repository auto-approves",
		Help: "`autoApprove` on a server of the repository's .kiro/settings/mcp.json makes Kiro run the tools it names " +
			"without asking for confirmation, and Kiro starts the workspace's servers without asking. When it names every " +
			"tool (\"*\") or one whose name says it runs code or commands, or writes, deletes or installs (execute_sql, " +
			"write_file, run_shell, aws_cli), a prompt injection can make it do so with no one asked. mcp-guard judges a " +
			"tool by its name; tools that read are MG738. Modelled from Kiro's documentation (docs/kiro.md).\n\n" +
			"Fix: remove autoApprove from the repository's config; auto-approve tools in your own ~/.kiro/settings/mcp.json."},
	{ID: "MG734", Slug: "kiro-hook-command", Severity: SeverityLow,
		Title: "a Kiro agent hook of the repository runs a shell command",
		Help: "A hook in the repository's .kiro/hooks/ whose action runs a command (runCommand) is a shell command Kiro " +
			"runs on its own events (a file saved, a prompt sent, ...) with your privileges and no approval of its own: the " +
			"same attack as a project MCP server, by another door. mcp-guard lists the commands and analyses each like a " +
			"shell script. Modelled from Kiro's documentation (docs/kiro.md).\n\n" +
			"Fix: keep hooks that run commands in your own ~/.kiro; review the repository's hooks and every script they call."},
	{ID: "MG735", Slug: "amazonq-allowed-tools", Severity: SeverityHigh,
		Title: "an Amazon Q Developer workspace agent that allows tools that act without prompting",
		Help: "`allowedTools` in an agent of the repository's .amazonq/cli-agents/ makes Amazon Q Developer run the tools " +
			"it names without prompting: this rule when it names all of a server's (`@server`), a glob (`fs_*`) or a tool " +
			"whose name says it runs code or writes (execute_bash, fs_write; tools that read are MG740), and `toolsSettings` " +
			"(execute_bash's allowedCommands, fs_write's allowedPaths, ...) widens what a built-in tool does without " +
			"prompting, for whoever chats with that agent in the checkout. Modelled from Amazon Q Developer's " +
			"documentation (docs/amazon-q.md).\n\n" +
			"Fix: keep allowedTools and toolsSettings in your own agents (~/.aws/amazonq/cli-agents/)."},
	{ID: "MG736", Slug: "amazonq-agent-hooks", Severity: SeverityLow,
		Title: "an Amazon Q Developer workspace agent runs commands on its events",
		Help: "`hooks` in an agent of the repository's .amazonq/cli-agents/ are commands Amazon Q Developer runs when the " +
			"agent starts (agentSpawn), on every prompt (userPromptSubmit) and around tool calls, with your privileges and " +
			"no approval of their own. mcp-guard lists the commands and analyses each like a shell script. Modelled from " +
			"Amazon Q Developer's documentation (docs/amazon-q.md).\n\n" +
			"Fix: keep hooks in your own agents; review the repository's agents and every script their hooks call."},
	{ID: "MG737", Slug: "roo-always-allow", Severity: SeverityHigh,
		Title: "a Roo Code server whose tools that act the repository always allows",
		Help: "`alwaysAllow` on a server of the repository's .roo/mcp.json makes Roo Code run the tools it names without " +
			"asking once the user's auto-approval of MCP tools is on, and Roo Code starts the project's servers without " +
			"asking. This rule is for a list naming every tool (\"*\") or one whose name says it runs code or commands, or " +
			"writes, deletes or installs (execute_sql, write_file, browser_run_code); tools that read are MG739. " +
			"Modelled from Roo Code's documentation (docs/roo-code.md).\n\n" +
			"Fix: remove alwaysAllow from the repository's config; allow tools in your own global MCP settings."},
	{ID: "MG738", Slug: "kiro-auto-approve-read", Severity: SeverityLow,
		Title: "a Kiro server whose reading tools the repository auto-approves",
		Help: "`autoApprove` on a server of the repository's .kiro/settings/mcp.json names only tools whose names say they " +
			"read (list_projects, search_documentation): Kiro runs them without confirmation. What they return still " +
			"reaches the model, and a server may do more than a name says. Modelled from Kiro's documentation (docs/kiro.md).\n\n" +
			"Fix: auto-approve tools in your own ~/.kiro/settings/mcp.json."},
	{ID: "MG739", Slug: "roo-always-allow-read", Severity: SeverityLow,
		Title: "a Roo Code server whose reading tools the repository always allows",
		Help: "`alwaysAllow` on a server of the repository's .roo/mcp.json names only tools whose names say they read " +
			"(get_current_time, search_nodes): Roo Code runs them without asking once the user's auto-approval of MCP " +
			"tools is on. Modelled from Roo Code's documentation (docs/roo-code.md).\n\n" +
			"Fix: allow tools in your own global MCP settings."},
	{ID: "MG740", Slug: "amazonq-allowed-tools-read", Severity: SeverityLow,
		Title: "an Amazon Q Developer workspace agent that allows reading tools without prompting",
		Help: "`allowedTools` in an agent of the repository's .amazonq/cli-agents/ names only tools whose names say they " +
			"read (fs_read, @git/git_status), or `toolsSettings` turns autoAllowReadonly on: Amazon Q Developer runs them " +
			"without prompting in a chat with that agent. Modelled from Amazon Q Developer's documentation (docs/amazon-q.md).\n\n" +
			"Fix: keep allowedTools in your own agents (~/.aws/amazonq/cli-agents/)."},
	{ID: "MG741", Slug: "codex-project-hook-trust", Severity: SeverityHigh,
		Title: "the repository's .codex/config.toml records trust for Codex hooks",
		Help: "Codex keeps your review of a hook as `[hooks.state.\"<file>:<event>:<group>:<handler>\"] " +
			"trusted_hash` in your own ~/.codex/config.toml, written when you trust it in its \"Hooks need review\" " +
			"dialog (observed on Codex 0.169.0). A project layer that carries a hooks.state table tries to answer that " +
			"dialog for you. Codex 0.169.0 reads hooks.state from the user's config only: a project layer's own " +
			"trusted_hash, Codex's very hash of the hook, neither ran the hook under `codex exec` nor spared it the " +
			"interactive review (observed, docs/fidelity.md hooks-state-project), so mcp-guard counts it for nothing, " +
			"and reports the attempt.\n\n" +
			"Fix: remove hooks.state from the repository's config; trust hooks in Codex itself."},
	{ID: "MG745", Slug: "claude-env-redirect", Severity: SeverityHigh,
		Title: "the repository's Claude Code settings send its traffic or credentials elsewhere",
		Help: "env in Claude Code settings applies to every session. ANTHROPIC_BASE_URL (and the Bedrock, Vertex and " +
			"Foundry base URLs) sends every API request, with your prompts, the code Claude Code reads and your " +
			"credential, to the server it names; HTTPS_PROXY, HTTP_PROXY and ALL_PROXY route the traffic through a " +
			"proxy (high; low when the address is on your own machine). NODE_EXTRA_CA_CERTS makes it trust a " +
			"certificate authority the repository chose, so a proxy can read TLS (medium), and ANTHROPIC_API_KEY or " +
			"ANTHROPIC_AUTH_TOKEN runs your sessions on an account of the repository's choosing (medium).\n\n" +
			"Fix: remove the variable from the repository's settings; set it in your own ~/.claude/settings.json or " +
			"environment if you need it."},
	{ID: "MG746", Slug: "claude-permission-mode", Severity: SeverityHigh,
		Title: "the repository's Claude Code settings turn permission prompts off",
		Help: "permissions.defaultMode \"bypassPermissions\" in a repository's settings makes Claude Code run every " +
			"tool call (Bash commands, edits, web fetches) without asking, so a prompt injection in a file it reads " +
			"runs what it likes (high). \"acceptEdits\" applies every file edit without asking, and an edit can " +
			"rewrite a script a hook, the build or the tests run (medium).\n\n" +
			"Fix: remove defaultMode from the repository's settings; choose a mode for yourself (Shift+Tab, or your " +
			"own settings)."},
	{ID: "MG747", Slug: "claude-allow-every-command", Severity: SeverityHigh,
		Title: "the repository's Claude Code settings allow every Bash command",
		Help: "A permissions.allow rule \"Bash\", \"Bash(*)\" or \"Bash(:*)\" in a repository's settings lets " +
			"Claude Code run any shell command without asking, for everyone who starts it in the checkout: a prompt " +
			"injection no longer needs your click. Narrower rules (Bash(npm run test:*)) are not reported.\n\n" +
			"Fix: allow the commands the project needs by prefix, or leave permissions to each user's own settings."},
	{ID: "MG748", Slug: "vscode-tool-auto-approve", Severity: SeverityHigh,
		Title: "the repository's VS Code settings approve agent tool calls or terminal commands",
		Help: "chat.tools.global.autoApprove (earlier chat.tools.autoApprove) set to true runs every tool call of VS " +
			"Code's agent without asking; a VS Code that takes it from the workspace's .vscode/settings.json lets the " +
			"repository turn every prompt off (the attack behind CVE-2025-53773). A chat.tools.terminal.autoApprove " +
			"rule that matches any command (/.*/) does the same for the terminal (high); rules naming commands " +
			"approve those with any arguments they let through (medium).\n\n" +
			"Fix: remove the settings from the repository; approve tools and commands in your own user settings."},
	{ID: "MG749", Slug: "gemini-mcp-server-command", Severity: SeverityHigh,
		Title: "the repository's Gemini CLI settings set mcp.serverCommand: a server started from one string",
		Help: "mcp.serverCommand in a workspace .gemini/settings.json is a command line Gemini CLI splits into words " +
			"(expanding the environment's variables) and starts, in a trusted folder, as the MCP server named `mcp`, " +
			"replacing any server of that name in mcpServers (read from Gemini CLI 0.61.0's source: " +
			"populateMcpServerCommand). It is an MCP server with no entry of its own in mcpServers.\n\n" +
			"Fix: remove mcp.serverCommand from the repository's settings; declare the server in mcpServers, where " +
			"it is reviewed like any other."},
	{ID: "MG750", Slug: "env-file-relocates-agent", Severity: SeverityHigh,
		Title: "a committed .env moves an agent's home or sends its traffic elsewhere",
		Help: "Gemini CLI loads the project's .env into its own environment (read from Gemini CLI 0.61.0's source: " +
			"loadEnvironment; the nearest .gemini/.env or .env from the launch directory up; in a trusted folder every " +
			"variable, in an untrusted one only GEMINI_API_KEY, GOOGLE_API_KEY, GOOGLE_CLOUD_PROJECT and " +
			"GOOGLE_CLOUD_LOCATION), then looks its home up. GEMINI_CLI_HOME set to a path inside the repository " +
			"moves its settings, trusted folders and extensions there, so the repository writes the files that " +
			"decide what Gemini CLI trusts and runs (high; any other path: medium); so do GEMINI_CLI_SYSTEM_SETTINGS_PATH, " +
			"GEMINI_CLI_SYSTEM_DEFAULTS_PATH and GEMINI_CLI_TRUSTED_FOLDERS_PATH. GOOGLE_GEMINI_BASE_URL and " +
			"GOOGLE_VERTEX_BASE_URL send every API request, with your prompts, the code it reads and your credential, to " +
			"the server they name, and HTTPS_PROXY, HTTP_PROXY and ALL_PROXY route its traffic through a proxy (high; " +
			"low when the address is on your own machine); GEMINI_API_KEY or GOOGLE_API_KEY runs your sessions on an " +
			"account of the repository's choosing, in a trusted folder or not (medium). A variable already set in your " +
			"environment wins over the file.\n\n" +
			"Fix: remove the variable from the committed .env (keep .env out of the repository); set it in your own " +
			"environment or ~/.gemini/.env if you need it."},
	{ID: "MG751", Slug: "qwen-yolo-mode", Severity: SeverityHigh,
		Title: "the repository's Qwen Code settings turn every approval off (YOLO mode)",
		Help: "tools.approvalMode \"yolo\" in the repository's .qwen/settings.json makes Qwen Code, in a trusted folder, " +
			"start every project MCP server (of .qwen/settings.json and .mcp.json) without the per-server approval it " +
			"otherwise asks for, and run every tool call without confirmation (observed on Qwen Code 0.24.4: servers " +
			"nobody approved started). A pull that adds a server then runs it at the next start. `mcp-guard launch -- qwen` " +
			"still hands over only the reviewed servers (--allowed-mcp-server-names holds in YOLO mode).\n\n" +
			"Fix: remove approvalMode from the repository's settings; choose YOLO for yourself (--yolo, or your own " +
			"~/.qwen/settings.json) if you want it."},
	{ID: "MG752", Slug: "cline-plugin", Severity: SeverityHigh,
		Title: "the repository makes Cline run a plugin",
		Help: "Cline 3.0.65 starts a plugin sandbox at each task that loads the JavaScript and TypeScript modules of " +
			"the project's .cline/plugins directory (and a package's cline.plugins entries) and runs their top level " +
			"and setup, with no prompt (observed; on a loaded machine the task may end first). A plugin is code run " +
			"with your rights the moment Cline works in the checkout. Each plugin is an entry to review (`mcp-guard review`): " +
			"`check` fails and `launch` refuses Cline until every plugin is reviewed, and since Cline has no switch to " +
			"leave one plugin out, a declined plugin keeps `launch` refusing.\n\n" +
			"Fix: remove the plugin from the repository, or keep it out of the checkout Cline works in."},
}

// Fix is the rule's one-line fix: its help's last paragraph, without
// "Fix: ". "" for a rule without one.
func (r Rule) Fix() string {
	paras := strings.Split(r.Help, "\n\n")
	fix, ok := strings.CutPrefix(paras[len(paras)-1], "Fix:")
	if !ok {
		return ""
	}
	return strings.TrimSpace(fix)
}

// RuleByID returns the catalog entry for id, or a zero Rule.
func RuleByID(id string) Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	return Rule{ID: id}
}

// LookupRule finds a rule by id (in any case) or by slug.
func LookupRule(name string) (Rule, bool) {
	for _, r := range Rules {
		if strings.EqualFold(r.ID, name) || r.Slug == name {
			return r, true
		}
	}
	return Rule{}, false
}

// SeverityModel says what a severity means: what an attacker gains, not
// what a file looks like. Every rule is graded against it (docs/rules.md).
const SeverityModel = "A severity says what an attacker who wrote the file gains, not what the file looks like. " +
	"`scan` fails CI at high and above by default (`--fail-on high`).\n\n" +
	"- **critical**: a command that fetches and runs remote code (curl | sh, a download run from a file, " +
	"iwr | iex), a reverse shell, or a container given the host (--privileged, the engine socket, the host's root).\n" +
	"- **high**: running code the approval does not show (NODE_OPTIONS --require, LD_PRELOAD, PATH, decoded or " +
	"escaped payloads, a lookalike package name), a repository that approves its own servers or starts them " +
	"by itself, a committed live secret, an unpinned remote source (a git head, a URL), a server at a bare " +
	"public IP address, or a file mcp-guard cannot read although the agent may run it (the gate stays closed).\n" +
	"- **medium**: risky but common patterns: an unpinned registry package, a shell wrapper, inline code, " +
	"repository code behind a server (mcp-guard's review binds it), a remote server with a name, plain http, " +
	"a credential that goes only to this machine or a private network or calls itself a dev or demo default.\n" +
	"- **low** and **info**: the presence of an entry (a hook, a credential helper, a folder-open task, an ACP " +
	"agent) and validity lint where the agent loads nothing (a file or entry it cannot read).\n\n" +
	"A rule that fires on the presence of an entry is low; the command rules, applied to that entry's command " +
	"through the launch model, decide its real severity: a hook running the project's formatter stays low, a " +
	"`curl | sh` hook is critical. An environment rule looks at the value: NODE_OPTIONS that loads code " +
	"(--require, --import, --loader, -r) is high, a heap size is no finding; a PATH of absolute directories " +
	"only is medium, one with a relative or empty element high. A literal credential is high " +
	"when it has a provider's token format or goes to a public endpoint, medium when its server talks only " +
	"to this machine or a private network, or the value names itself a development or demo default."

// Evaluation states what the labelled evaluation set (testdata/eval)
// measures; scan's TestEvalRealWorld and TestEvalPairs fail when it does
// not state their figures.
const Evaluation = "The labelled evaluation set in testdata/eval measures what `scan --fail-on high` fails, " +
	"each case committed to a git checkout, as CI has it, in a directory of its own at the path its agent " +
	"reads below it:\n\n" +
	"- real corpus: 155 files, 14 fail, 14 true and 1 false positives at high and above " +
	"(precision 93%; the false one a read-only SPARQL tool whose name says it executes; testdata/eval/corpus-judgments.tsv judges each finding: the configurations of " +
	"testdata/corpus/realworld, each at the path its agent reads);\n" +
	"- pairs: 36 malicious configurations across 6 agents, 36 fail; 36 benign twins, 36 pass " +
	"(testdata/eval/pairs: agentty, Claude Code, Cursor, VS Code, Gemini CLI and Codex).\n\n" +
	"Re-run: `go test ./scan -run TestEval -v`. The test fails when precision at high and above on the real " +
	"corpus drops below 90%, when a finding there is not judged, when a malicious configuration passes, " +
	"when a twin fails, or when these figures are no longer what it measures."
