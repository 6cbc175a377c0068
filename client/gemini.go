package client

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/mcp-guard/mcp-guard/internal/lazyre"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Gemini CLI 0.61.0 as observed (clients-observed.md). Questions the
// contract leaves open are marked OPEN and decided in the direction that
// never under-reports what runs.
type geminiClient struct{}

func (geminiClient) ID() ID             { return Gemini }
func (geminiClient) Title() string      { return "Gemini CLI" }
func (geminiClient) Command() string    { return "gemini" }
func (geminiClient) Handover() Handover { return HandAllowNames }
func (geminiClient) Headless() string   { return "" }

// Unhanded: `gemini mcp list` connects to every server the settings let
// run, to show its status, and reads only the settings' lists, not the
// flag launch adds (0.61.0's source: listMcpServers); an
// --allowed-mcp-server-names of the user's own adds names to the list
// launch hands over (an array option: the values accumulate).
func (c geminiClient) Unhanded(args []string) string { return allowUnhanded(c, args) }

// GeminiAllowFlag reports whether args, before `--`, name Gemini CLI's
// --allowed-mcp-server-names in any form yargs reads: kebab or camel
// case, with "=" or a separate value, negated.
func GeminiAllowFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, _, _ := strings.Cut(a[2:], "=")
		name = strings.TrimPrefix(name, "no-")
		if name == "allowed-mcp-server-names" || name == "allowedMcpServerNames" {
			return true
		}
	}
	return false
}
func (geminiClient) Binds() string { return "Gemini CLI binds nothing to a server" }

// Parse reads the workspace settings' servers and, as entries, what else
// they make Gemini CLI run: every hook command (`hooks`, of every event)
// and the tool commands (`tools.discoveryCommand`, run at start to list
// tools; `tools.callCommand`, run for each call of a discovered tool).
// Gemini CLI splits a tool command into words and spawns it without a
// shell; mcp-guard reads it as a shell command line, which binds at least
// as much. `mcp.serverCommand` is a server, named `mcp`
// (geminiServerCommand).
func (geminiClient) Parse(path string, data []byte) *trust.Config {
	c, root := trust.ParseDialectValue(path, data, trust.ScopeProject, trust.GeminiCLI)
	if c.Err != nil || root.Kind() != "object" {
		return c
	}
	out := settingsEntries(c, trust.GeminiCLI, root)
	out = append(out, commandServer(c, trust.GeminiCLI, root)...)
	c.Servers = append(c.Servers, out...)
	uniqueEntries(c)
	return c
}

// commandServer is the server a settings file's `mcp.serverCommand` starts
// (geminiServerCommand), read in dialect d (Gemini CLI's or its fork Qwen
// Code's), and drops from c the server of that name it replaces.
func commandServer(c *trust.Config, d *trust.Dialect, root trust.Value) []*trust.Server {
	mcp, ok := root.Get("mcp")
	if !ok {
		return nil
	}
	v, ok := mcp.Get("serverCommand")
	if !ok || !truthy(v) {
		return nil
	}
	kept := c.Servers[:0]
	for _, s := range c.Servers {
		if s.Name != GeminiCommandServer {
			kept = append(kept, s)
		}
	}
	c.Servers = kept
	if s := geminiServerCommand(c, d, v); s != nil {
		return []*trust.Server{s}
	}
	return nil
}

// settingsEntries are the entries of a Gemini CLI settings file (or of a
// fork's: Qwen Code's) besides its servers, read in dialect d: every hook
// command (`hooks`, of every event) and the tool commands
// (geminiToolCommands). An entry that does not read leaves c unreadable.
func settingsEntries(c *trust.Config, d *trust.Dialect, root trust.Value) []*trust.Server {
	var out []*trust.Server
	add := func(kind, name string, h hookCommand) {
		s, err := hookEntry(c.Path, d, kind, name, h, false, nil)
		if err != nil {
			c.Err = trust.Unreadable(fmt.Errorf("%s %q: %w", kind, name, err))
			return
		}
		out = append(out, s)
	}
	if hooks, ok := root.Get("hooks"); ok {
		for _, h := range hookCommands(hooks, "hooks", 0) {
			add(EntryHook, h.name, h)
		}
	}
	tools, _ := root.Get("tools")
	for _, k := range geminiToolCommands {
		if v, ok := tools.Get(k); ok && nonBlank(v) {
			line, _ := v.Str()
			add(k, "tools."+k, hookCommand{line: line, pos: v.Pos()})
		}
	}
	return out
}

// GeminiCommandServer is the name of the MCP server Gemini CLI starts from
// `mcp.serverCommand`, in place of any server of that name in mcpServers
// (0.61.0's populateMcpServerCommand). The name lists (mcp.allowed,
// mcp.excluded, --allowed-mcp-server-names) apply to it as to any server.
const GeminiCommandServer = "mcp"

// geminiServerCommand is the server `mcp.serverCommand` starts. Gemini CLI
// splits the string with shell-quote's parse, expanding the environment's
// variables, and spawns the words without a shell (it refuses operators,
// globs and comments). A line of plain and quoted words is that server
// exactly; any other (a variable, a backslash, an operator, ...) is read
// as the shell command line `/bin/sh -c LINE`, which binds at least as
// much. A value that is not a string cannot be modelled: the file is
// unreadable, and the gate stays closed.
func geminiServerCommand(c *trust.Config, d *trust.Dialect, v trust.Value) *trust.Server {
	line, isStr := v.Str()
	if isStr && strings.TrimSpace(line) == "" {
		return nil // no word, no command: Gemini CLI fails to connect it
	}
	if !isStr {
		// OPEN: shell-quote's parse of a non-string was not observed.
		c.Err = trust.Unreadable(fmt.Errorf("mcp.serverCommand: a %s Gemini CLI may start as the server %q; mcp-guard cannot tell what it runs", v.Kind(), GeminiCommandServer))
		return nil
	}
	argv, ok := geminiWords(line)
	if !ok {
		argv = []string{"/bin/sh", "-c", line}
	}
	s, err := trust.ArgvEntry(c.Path, d, "", GeminiCommandServer, "", argv[0], append([]string{}, argv[1:]...), v.Pos(), nil)
	if err != nil {
		c.Err = trust.Unreadable(fmt.Errorf("mcp.serverCommand: %w", err))
		return nil
	}
	return s
}

// geminiWords splits line as shell-quote's parse does when line is made
// only of plain words and '…' or "…" quotes; ok is false for anything
// else: a variable ($ is expanded even inside single quotes, by the
// settings loader first), a backslash, an operator (| & ; ( ) < >), a
// glob (* ?), a comment (#) or an unterminated quote.
func geminiWords(line string) (argv []string, ok bool) {
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case r == '$' || r == '\\' || r == '\uFEFF' || (r > 0x7f && unicode.IsSpace(r)):
			// JavaScript's \s and Go's differ beyond ASCII.
			return nil, false
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			if inWord {
				argv = append(argv, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.ContainsRune("|&;()<>#*?", r):
			return nil, false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		argv = append(argv, cur.String())
	}
	return argv, len(argv) > 0
}

// geminiToolCommands are the settings under `tools` whose command Gemini
// CLI runs: each an entry kind.
var geminiToolCommands = []string{"discoveryCommand", "callCommand"}

// EntryNouns are Gemini CLI's words for its entry kinds: hooks, and the
// tool commands (geminiToolCommands).
func (geminiClient) EntryNouns() map[string]string {
	out := map[string]string{EntryHook: "hooks"}
	for _, k := range geminiToolCommands {
		out[k] = "tool commands"
	}
	return out
}

// GeminiSettingsFile is the workspace settings file below the launch
// directory.
var GeminiSettingsFile = filepath.Join(".gemini", "settings.json")

// Gemini CLI's surface: the workspace settings, which hold its servers.
var (
	KindGeminiSettings = surface.Register(surface.Spec{Name: "gemini-settings", Client: string(Gemini), Role: surface.Config, Patterns: []string{"**/.gemini/settings.json"}})
	_                  = registerDirs(Gemini, "**/.gemini")
	// KindGeminiEnv: the project .env Gemini CLI loads into its own
	// environment (0.61.0's loadEnvironment: the nearest of
	// .gemini/.env, in a trusted folder only, and .env, from the launch
	// directory up; in an untrusted folder only the API-key and project
	// variables), after it decided the folder's trust and before it looks
	// its home up: GEMINI_CLI_HOME there moves its settings, trusted
	// folders and extensions. A gitignored one is the user's own.
	KindGeminiEnv = surface.Register(surface.Spec{Name: "gemini-env", Client: string(Gemini), Role: surface.Sibling, SharedOnly: true,
		Patterns: []string{"**/.env"}})
)

// GeminiEnvUntrusted are the variables Gemini CLI takes from a project
// .env in a folder it does not trust (0.61.0's AUTH_ENV_VAR_WHITELIST,
// their values stripped to [A-Za-z0-9-_./]).
var GeminiEnvUntrusted = []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"}

// Configs is the launch directory's .gemini/settings.json only: Gemini CLI
// never walks up. In the home directory that file is the user's own.
func (geminiClient) Configs(launchDir, _ string, env Env) ([]string, error) {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	if home := trust.HomeDir(env.getenv); home != "" && realDir(home, fsys) == dir {
		return nil, nil
	}
	p := filepath.Join(dir, GeminiSettingsFile)
	if present(fsys, p) {
		return []string{p}, nil
	}
	return nil, nil
}

// present reports whether a config file is at p: a file, or an entry that
// cannot be stat'ed (a loop, no permission), which is read and reported
// rather than left out.
func present(fsys FS, p string) bool {
	fi, err := fsys.Stat(p)
	if err == nil {
		return !fi.IsDir()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	_, lerr := fsys.Lstat(p)
	return lerr == nil
}

// Spawn expands $VAR, ${VAR} and ${VAR:-default} in command, args, env
// values and cwd (Gemini CLI expands every string of its settings when it
// loads them); non-string args are spawned as JavaScript's String().
func (geminiClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	sp := rawSpawn(s)
	if s.Kind != "" {
		return sp // a command line: the shell expands it, if anything
	}
	x := &expander{lookup: lookup}
	sp.Command = x.gemini(s.Command)
	for i, a := range s.Args {
		if a.IsString {
			sp.Args[i] = x.gemini(a.Str)
		}
	}
	for i, e := range sp.RawEnv {
		sp.Env[i].Value = x.gemini(e.Value)
	}
	if v, ok := s.Value("cwd"); ok {
		if c, ok := v.Str(); ok {
			sp.Cwd = x.gemini(c)
		}
	}
	sp.Vars, sp.Missing = x.vars, x.missing
	return sp
}

var (
	geminiDefault = lazyre.Regexp{Expr: `\$\{(\w+):-([^}]+)\}`}
	geminiBraced  = lazyre.Regexp{Expr: `\$\{(\w+)\}`}
	geminiBare    = lazyre.Regexp{Expr: `\$(\w+)`}
)

// gemini expands s as Gemini CLI's resolveEnvVarsInString does, in three
// passes over the previous pass's result: ${NAME:-default} (a defined
// variable, even empty, else the default), then ${NAME}, then $NAME; an
// undefined one without a default stays literal. NAME is \w+, so ${A-B}
// and ${X:-} are never expanded.
// OPEN: the three passes re-expand a value that itself holds $NAME.
func (x *expander) gemini(s string) string {
	s = geminiDefault.Get().ReplaceAllStringFunc(s, func(m string) string {
		sub := geminiDefault.Get().FindStringSubmatch(m)
		x.use(sub[1])
		if v, ok := x.lookup(sub[1]); ok {
			return v
		}
		return sub[2]
	})
	for _, re := range []*regexp.Regexp{geminiBraced.Get(), geminiBare.Get()} {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			name := re.FindStringSubmatch(m)[1]
			x.use(name)
			if v, ok := x.lookup(name); ok {
				return v
			}
			x.missed(name)
			return m
		})
	}
	return s
}

// ExpandGemini is Gemini CLI's expansion of one string: the result, the
// variables used and those undefined without a default.
func ExpandGemini(s string, lookup Vars) (out string, vars, missing []string) {
	x := &expander{lookup: lookup}
	out = x.gemini(s)
	return out, x.vars, x.missing
}

// GeminiServerTrusted reports whether an entry sets `trust` (JavaScript
// truthy): Gemini CLI then skips every tool-call confirmation for it.
func GeminiServerTrusted(s *trust.Server) bool {
	v, ok := s.Value("trust")
	return ok && truthy(v)
}

// GeminiState is Gemini CLI's folder trust and name suppression for one
// launch directory.
type GeminiState struct {
	// Trusted: Gemini CLI runs the workspace's servers.
	Trusted bool
	// TrustedBy says what decided Trusted, in Gemini CLI's terms; Source
	// the file or variable.
	TrustedBy string
	Source    string
	// Unknown is set when a user state file could not be read: then every
	// server counts as running without asking.
	Unknown *Source

	// disabled holds the enablement file's keys with enabled: false,
	// as written (Gemini CLI looks the lower-cased name up).
	disabled map[string]bool
	// allowed are the mcp.allowed lists set (user, workspace); excluded
	// the union of mcp.excluded. Both match names exactly (observed on
	// 0.61.0: `includes(name)`, case-sensitive; only the enablement file
	// lower-cases).
	allowed  []geminiList
	excluded map[string]string // name → the file that excludes it
	// User are the names of the user's own servers (~/.gemini/settings.json
	// mcpServers), sorted.
	User []string
	// Used: Gemini CLI's home directory (~/.gemini) is there, or launch is
	// starting it now (Env.uses), so its session may be trusted at its
	// prompt.
	Used bool
}

// geminiExtensionServers are the names of the MCP servers of the
// extensions the user installed: ~/.gemini/extensions/*/gemini-extension.json,
// or a linked extension's (.gemini-extension-install.json "type": "link")
// in its source directory, where 0.61.0 reads it. They are the user's own
// (a workspace's extensions do not load, docs/gemini-cli.md), and Gemini
// CLI starts them under --allowed-mcp-server-names only when named
// (isBlockedBySettings), so a launch must name them. A file that does not
// parse loads no extension in Gemini CLI either.
func geminiExtensionServers(fsys FS, home string) []string {
	dir := filepath.Join(home, "extensions")
	ents, _ := readDir(dir, fsys)
	var out []string
	for _, e := range ents {
		ext := filepath.Join(dir, e.Name())
		meta := Source{Path: filepath.Join(ext, ".gemini-extension-install.json")}
		if v, ok := readJSONFile(fsys, &meta, trust.GeminiCLI); ok {
			t, _ := v.Get("type")
			src, _ := v.Get("source")
			kind, _ := t.Str()
			if from, ok := src.Str(); ok && kind == "link" {
				ext = from
			}
		}
		conf := Source{Path: filepath.Join(ext, "gemini-extension.json")}
		if v, ok := readJSONFile(fsys, &conf, trust.GeminiCLI); ok {
			if m, ok := v.Get("mcpServers"); ok && m.Kind() == "object" {
				out = append(out, m.Keys()...)
			}
		}
	}
	return out
}

type geminiList struct {
	names map[string]bool
	src   string
}

// geminiHome locates the user files.
func geminiHome(env Env) (dir, shown string) {
	return filepath.Join(trust.HomeDir(env.getenv), ".gemini"), "~/.gemini"
}

// State reads ~/.gemini/trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH),
// ~/.gemini/settings.json, ~/.gemini/mcp-server-enablement.json and the
// workspace's mcp.allowed/mcp.excluded.
func (geminiClient) State(launchDir, _ string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	home, shown := geminiHome(env)
	gs := &GeminiState{disabled: map[string]bool{}, excluded: map[string]string{}}
	st := &State{Client: Gemini, LaunchDir: dir, Gemini: gs}
	gs.Used = env.uses(Gemini, home)

	foldersPath, foldersShown := filepath.Join(home, "trustedFolders.json"), shown+"/trustedFolders.json"
	if p := env.getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH"); p != "" {
		foldersPath, foldersShown = p, "$GEMINI_CLI_TRUSTED_FOLDERS_PATH"
	}
	folders := Source{Path: foldersPath, Display: foldersShown}
	user := Source{Path: filepath.Join(home, "settings.json"), Display: shown + "/settings.json"}
	enable := Source{Path: filepath.Join(home, "mcp-server-enablement.json"), Display: shown + "/mcp-server-enablement.json"}
	work := Source{Path: filepath.Join(dir, GeminiSettingsFile), Display: GeminiSettingsFile, RepoSide: true}

	rules := readGeminiFolders(fsys, &folders, dir)
	userV, userOK := readJSONFile(fsys, &user, trust.GeminiCLI)
	folderTrust := true
	if userOK {
		folderTrust = geminiFolderTrust(userV)
		gs.readLists(userV, user.Display)
		if m, ok := userV.Get("mcpServers"); ok && m.Kind() == "object" {
			gs.User = m.Keys()
		}
	}
	gs.User = append(gs.User, geminiExtensionServers(fsys, home)...)
	slices.Sort(gs.User)
	gs.User = slices.Compact(gs.User)
	if v, ok := readJSONFile(fsys, &enable, trust.GeminiCLI); ok {
		gs.readEnablement(v, &enable)
	}
	// The workspace file is the config itself: when it does not parse,
	// Gemini CLI loads no server from it either, so its lists do not matter.
	workSrc := work
	if v, ok := readJSONFile(fsys, &workSrc, trust.GeminiCLI); ok {
		gs.readLists(v, work.Display)
	}
	work.Present = workSrc.Present

	st.Sources = []Source{folders, user, enable, work}
	for i := range st.Sources[:3] {
		if src := st.Sources[i]; src.Err != nil && gs.Unknown == nil {
			gs.Unknown = &src
		}
	}
	switch t := env.getenv("GEMINI_CLI_TRUST_WORKSPACE"); {
	case strings.EqualFold(t, "true") || t == "1":
		// OPEN: only "true" was observed; "TRUE" and "1" count too.
		gs.Trusted, gs.Source = true, "GEMINI_CLI_TRUST_WORKSPACE"
		gs.TrustedBy = "GEMINI_CLI_TRUST_WORKSPACE=" + t + " trusts every folder"
	case !folderTrust:
		gs.Trusted, gs.Source = true, user.Display
		gs.TrustedBy = user.Display + " turns folder trust off (security.folderTrust.enabled): every folder is trusted"
	default:
		gs.Trusted, gs.TrustedBy = rules.decide(dir)
		gs.Source = folders.Display
		if gs.TrustedBy == "" {
			gs.TrustedBy = "no entry of " + folders.Display + " covers " + dir
		}
	}
	if gs.Unknown == nil && gs.Trusted {
		if src := geminiEnvRelocates(env, dir); src != nil {
			st.Sources = append(st.Sources, *src)
			gs.Unknown = src
		}
	}
	return st
}

// GeminiEnvRelocating are the variables that move where Gemini CLI reads
// its home, settings or trusted folders from.
var GeminiEnvRelocating = []string{"GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "GEMINI_CLI_TRUSTED_FOLDERS_PATH"}

// geminiEnvRelocates finds the .env Gemini CLI loads in a trusted folder
// (0.61.0's findEnvFile: from the launch directory up, the first
// .gemini/.env or .env; the home directory's are the user's own) and, when
// it sets a variable of GeminiEnvRelocating that the environment does not,
// returns it as a state source with an error: Gemini CLI then reads its
// settings (servers of its own included) and trust from where the file
// says, which mcp-guard does not follow, so the gate stays closed.
func geminiEnvRelocates(env Env, dir string) *Source {
	fsys := env.fs()
	home := realDir(trust.HomeDir(env.getenv), fsys)
	for d := dir; ; {
		for _, name := range []string{filepath.Join(".gemini", ".env"), ".env"} {
			p := filepath.Join(d, name)
			if !present(fsys, p) {
				continue
			}
			if d == home {
				return nil
			}
			data, err := fsys.ReadFile(p)
			if err != nil {
				return &Source{Path: p, Display: p, RepoSide: true, Err: fmt.Errorf("cannot be read (%v): Gemini CLI loads it into its environment", err)}
			}
			for _, v := range launch.ParseEnvFile(data) {
				if slices.Contains(GeminiEnvRelocating, v.Name) && strings.TrimSpace(v.Value) != "" && env.getenv(v.Name) == "" {
					return &Source{Path: p, Display: p, RepoSide: true,
						Err: fmt.Errorf("sets %s: Gemini CLI reads its settings, servers and trusted folders from where it says, which mcp-guard does not follow", v.Name)}
				}
			}
			return nil
		}
		up := filepath.Dir(d)
		if up == d {
			return nil
		}
		d = up
	}
}

// geminiFolderTrust is security.folderTrust.enabled of the user's
// settings: on unless set to a falsy value (null is the default, on).
func geminiFolderTrust(v trust.Value) bool {
	sec, ok := v.Get("security")
	if !ok {
		return true
	}
	ft, ok := sec.Get("folderTrust")
	if !ok {
		return true
	}
	en, ok := ft.Get("enabled")
	if !ok || en.Kind() == "null" {
		return true
	}
	return truthy(en)
}

// readLists takes mcp.allowed and mcp.excluded, as written. A list of the
// wrong shape is ignored: for allowed that lets everything through, for
// excluded it excludes nothing, both the side that never under-reports.
func (gs *GeminiState) readLists(v trust.Value, src string) {
	mcp, ok := v.Get("mcp")
	if !ok {
		return
	}
	if names, ok := geminiNames(mcp, "allowed", true); ok && len(names) > 0 {
		gs.allowed = append(gs.allowed, geminiList{names: names, src: src})
	}
	if names, ok := geminiNames(mcp, "excluded", false); ok {
		for n := range names {
			if _, had := gs.excluded[n]; !had {
				gs.excluded[n] = src
			}
		}
	}
}

// geminiNames reads a list of names, as written; strict: any element
// that is not a string voids the list.
func geminiNames(v trust.Value, key string, strict bool) (map[string]bool, bool) {
	l, ok := v.Get(key)
	if !ok || l.Kind() != "array" {
		return nil, false
	}
	out := map[string]bool{}
	for _, e := range l.Elems() {
		s, ok := e.Str()
		if !ok {
			if strict {
				return nil, false
			}
			continue
		}
		out[s] = true
	}
	return out, true
}

// readEnablement takes the names whose entry has enabled: false.
func (gs *GeminiState) readEnablement(v trust.Value, src *Source) {
	for _, name := range v.Keys() {
		e, _ := v.Get(name)
		if en, ok := e.Get("enabled"); ok {
			if b, isBool := en.Bool(); isBool && !b {
				gs.disabled[name] = true
			}
		}
	}
}

// geminiRule is one trustedFolders.json entry: the path it covers (the
// parent for TRUST_PARENT), real, and whether it trusts.
type geminiRule struct {
	path, written string
	level         string
}

type geminiRules []geminiRule

const (
	geminiTrustFolder = "TRUST_FOLDER"
	geminiTrustParent = "TRUST_PARENT"
	geminiDoNotTrust  = "DO_NOT_TRUST"
)

// readGeminiFolders reads trustedFolders.json; a value that is not one of
// the three levels makes the file unknown.
func readGeminiFolders(fsys FS, src *Source, launchDir string) geminiRules {
	v, ok := readJSONFile(fsys, src, trust.GeminiCLI)
	if !ok {
		return nil
	}
	var rules geminiRules
	for _, p := range v.Keys() {
		e, _ := v.Get(p)
		level, _ := e.Str()
		switch level {
		case geminiTrustFolder, geminiDoNotTrust, geminiTrustParent:
		default:
			src.Err = fmt.Errorf("%q: a %s, not TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST", p, e.Kind())
			return nil
		}
		// A relative entry is resolved against the launch directory, as
		// Node's path functions resolve it against the process's cwd.
		eff := p
		if !filepath.IsAbs(eff) {
			eff = filepath.Join(launchDir, eff)
		}
		if level == geminiTrustParent {
			eff = filepath.Dir(eff)
		}
		rules = append(rules, geminiRule{path: realDir(eff, fsys), written: p, level: level})
	}
	return rules
}

// decide is the longest entry that covers dir (itself or an ancestor):
// DO_NOT_TRUST blocks, TRUST_FOLDER and TRUST_PARENT trust. Symlinks are
// resolved on both sides.
// OPEN: two entries of equal length; trust wins.
func (rules geminiRules) decide(dir string) (trusted bool, why string) {
	best := -1
	for _, r := range rules {
		if !within(dir, r.path) || len(r.path) < best {
			continue
		}
		if len(r.path) == best && r.level == geminiDoNotTrust {
			continue
		}
		best = len(r.path)
		trusted = r.level != geminiDoNotTrust
		why = fmt.Sprintf("%q is %s", r.written, r.level)
	}
	return trusted, why
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// answer is one name's state.
func (gs *GeminiState) answer(name string) (runs bool, why, src string, repo bool) {
	if gs.Unknown != nil {
		return true, fmt.Sprintf("Gemini CLI's state is unknown: %s cannot be read (%v); counted as running without asking",
			gs.Unknown.Display, gs.Unknown.Err), gs.Unknown.Display, false
	}
	if !gs.Trusted {
		return false, "the folder is not trusted (" + gs.TrustedBy + "): Gemini CLI runs no workspace server, and `gemini -p` stops with an error", gs.Source, false
	}
	if why, src, repo, off := gs.suppressed(name); off {
		return false, why, src, repo
	}
	return true, "Gemini CLI trusts this folder (" + gs.TrustedBy + "): every change runs without asking", gs.Source, false
}

// entryAnswer is answer for a server, and for another entry (a hook, a
// tool command) the folder's trust alone: the server lists do not name
// it.
// Observed on 0.61.0: in a trusted folder `gemini -p` runs the
// discoveryCommand and the hooks without asking (it prints a warning);
// untrusted it reads no workspace settings and `-p` stops.
func (gs *GeminiState) entryAnswer(s *trust.Server, name string) (runs bool, why, src string, repo bool) {
	if s == nil || s.Kind == "" || gs.Unknown != nil {
		return gs.answer(name)
	}
	if !gs.Trusted {
		return false, "the folder is not trusted (" + gs.TrustedBy + "): Gemini CLI reads none of the workspace's settings", gs.Source, false
	}
	return true, "Gemini CLI runs this " + s.Kind + " in a trusted folder without asking (" + gs.TrustedBy + ")", gs.Source, false
}

// sessionAnswer is entryAnswer for an interactive session. In a folder
// not trusted yet, the session of a user who runs Gemini CLI here (its
// home directory is there) opens "Do you trust the files in this
// folder?", which lists the workspace's MCP servers but no hook or tool
// command, and on "Trust folder" restarts and runs them (observed on
// 0.61.0 in tmux, through mcp-guard launch: the SessionStart hook ran,
// the server launch left out did not). --allowed-mcp-server-names keeps
// the servers out; nothing keeps an entry out, so the session counts as
// running it unasked. `gemini -p` untrusted stops (entryAnswer).
func (gs *GeminiState) sessionAnswer(s *trust.Server, name string, used bool) (runs bool, why string) {
	runs, why, _, _ = gs.entryAnswer(s, name)
	if runs || !used || s == nil || s.Kind == "" || gs.Unknown != nil {
		return runs, why
	}
	return true, "the folder is not trusted yet (" + gs.TrustedBy + "): Gemini CLI's trust question lists the workspace's MCP servers, never this " +
		s.Kind + ", and trusting the folder runs it; `gemini -p` stops"
}

// suppressed says whether the settings' lists or the enablement file keep
// Gemini CLI from running the server name, and which file does.
func (gs *GeminiState) suppressed(name string) (why, src string, repo, off bool) {
	low := strings.ToLower(name)
	if gs.disabled[low] {
		return fmt.Sprintf("~/.gemini/mcp-server-enablement.json disables %q: Gemini CLI does not run it", low), "~/.gemini/mcp-server-enablement.json", false, true
	}
	if f, ok := gs.excluded[name]; ok {
		return fmt.Sprintf("%s excludes `%s` (mcp.excluded): Gemini CLI does not run it", f, name), f, f == GeminiSettingsFile, true
	}
	for _, l := range gs.allowed {
		if !l.names[name] {
			return fmt.Sprintf("%s does not allow `%s` (mcp.allowed): Gemini CLI does not run it", l.src, name), l.src, l.src == GeminiSettingsFile, true
		}
	}
	return "", "", false, false
}

// UserRuns are the user's own servers its settings let run (the lists
// and the enablement file), sorted: a launch keeps them running, since
// --allowed-mcp-server-names replaces those lists.
func (gs *GeminiState) UserRuns() []string {
	var out []string
	for _, n := range gs.User {
		if _, _, _, off := gs.suppressed(n); !off {
			out = append(out, n)
		}
	}
	return out
}

func (geminiClient) Gate(st *State, entries []Entry) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		runs, why, src, repo := st.Gemini.entryAnswer(e.Server, e.Name)
		session, started := runs, false
		if !runs {
			session, why = st.Gemini.sessionAnswer(e.Server, e.Name, st.Gemini.Used)
			started, _ = st.Gemini.sessionAnswer(e.Server, e.Name, true)
		}
		why += remoteNote(e.Server)
		if e.Server != nil && runs && GeminiServerTrusted(e.Server) {
			why += "; `trust: true` skips its tool-call confirmations"
		}
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: session, Headless: runs, Started: started && !session, Why: why, Source: src, RepoSide: repo})
	}
	return out
}

// Impact: Gemini CLI binds nothing to a server: in a trusted folder any
// change, a new server included, runs without asking.
func (geminiClient) Impact(st *State, old, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: Gemini CLI no longer starts it"}
	}
	runs, why, src, repo := st.Gemini.entryAnswer(new, new.Name)
	session := runs
	if runs && st.Gemini.Unknown == nil {
		why = "Gemini CLI trusts this folder: every change runs without asking"
	} else if !runs {
		session, why = st.Gemini.sessionAnswer(new, new.Name, st.Gemini.Used)
	}
	return Impact{Interactive: session, Headless: runs, Why: why, Source: src, RepoSide: repo}
}

// GeminiSettings is a Gemini CLI settings file as the client reads it
// (State reads the workspace's and the user's so, Parse its servers): the
// positioned tree in Gemini CLI's dialect that the settings rules read
// too; an error where Gemini CLI cannot read it either.
func GeminiSettings(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, trust.GeminiCLI)
}
