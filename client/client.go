// Package client is the one model of the agents that read a repository's
// MCP configuration: per client, where its project configs live and how it
// walks directories, its dialect, its interpolation, and its gate (what it
// runs without asking now, and whether a change keeps that true). It reads
// files through FS and the environment through Env, and never prints.
package client

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// ID names a client in output and ledger keys.
type ID string

// The clients mcp-guard models.
const (
	Agentty    ID = "agentty"
	ClaudeCode ID = "claude-code"
	Cursor     ID = "cursor"
	VSCode     ID = "vscode"
	Gemini     ID = "gemini-cli"
	Codex      ID = "codex"
	OpenCode   ID = "opencode"
	QwenCode   ID = "qwen-code"
	CopilotCLI ID = "copilot-cli"
	Cline      ID = "cline"
	Continue   ID = "continue-cli"
	Kiro       ID = "kiro"
	AmazonQ    ID = "amazon-q"
	RooCode    ID = "roo-code"
	Zed        ID = "zed"
)

// Client is one agent's reading of a launch directory.
type Client interface {
	ID() ID
	// Title is the client's name in sentences ("Claude Code").
	Title() string
	// Command is the program a shell starts the client with ("claude"):
	// what `mcp-guard launch --` recognises, `shell-init` wraps and hints
	// name; "" for an editor, which launch does not start.
	Command() string
	// Handover is how `mcp-guard launch` hands it exactly the reviewed
	// servers.
	Handover() Handover
	// Unhanded says why a run of the client with args starts the
	// project's servers whatever launch hands it ("" when it does not):
	// launch then starts it only when every server it would spawn is
	// reviewed.
	Unhanded(args []string) string
	// Headless is the run that starts servers without asking where the
	// interactive client would ask ("claude -p"); "" when there is none.
	Headless() string
	// Binds says, in the client's words, what its approval of a server
	// binds: a hook names it when a file a server runs changed and the
	// entry did not ("Cursor's approval binds the entry, not the code it
	// runs").
	Binds() string
	// Configs are the absolute paths of the project configs the client
	// reads when launched in launchDir (gitTop: the repository's real top
	// directory, "" outside git), in precedence order: an earlier file
	// wins a name clash.
	Configs(launchDir, gitTop string, env Env) ([]string, error)
	// Parse reads one of them in the client's dialect.
	Parse(path string, data []byte) *trust.Config
	// Spawn is what the client starts for a server, after its
	// interpolation, with the raw view and the variables it depends on.
	Spawn(s *trust.Server, lookup Vars) Spawn
	// State reads the user's approval state for launchDir: from the home
	// directory and from the files the client reads in the repository.
	State(launchDir, gitTop string, env Env) *State
	// Gate says, per entry, whether the client runs it without asking now.
	Gate(st *State, entries []Entry) []ServerVerdict
	// Impact says whether a change from old to new (nil: added, removed)
	// keeps the server running without asking, in the client's words.
	Impact(st *State, old, new *trust.Server) Impact
}

// entryNouns is implemented by a client whose entries besides MCP
// servers have words of their own: kind (trust.Server.Kind) to the
// plural noun people read ("helpers" for Claude Code's apiKeyHelper).
type entryNouns interface {
	EntryNouns() map[string]string
}

// EntryNoun is what c calls its entries of kind, plural, for a heading
// that says what a change brings: "MCP servers" for a server (kind ""),
// the client's own word where it has one, "hooks" for a hook, else
// "commands".
func EntryNoun(c Client, kind string) string {
	if kind == "" {
		return "MCP servers"
	}
	if n, ok := c.(entryNouns); ok {
		if w := n.EntryNouns()[kind]; w != "" {
			return w
		}
	}
	if kind == EntryHook {
		return "hooks"
	}
	return "commands"
}

// turnOffWords is a client that says in its own words how the user keeps
// one of its entries from running (see TurnOff).
type turnOffWords interface {
	// TurnOff is how to keep an entry of kind in config from running;
	// "" for the default words.
	TurnOff(kind, config string) string
}

// TurnOff is how the user keeps c's entry of kind ("" a server) in config
// ("" when no one file is meant) from running: c's own words where it has
// them (a Cline hook is its file: delete it; Kiro and Roo Code read
// "disabled": true in the entry), else "turn it off in c's own settings
// or remove it from config".
func TurnOff(c Client, kind, config string) string {
	if t, ok := c.(turnOffWords); ok {
		if w := t.TurnOff(kind, config); w != "" {
			return w
		}
	}
	out := "turn it off in " + c.Title() + "'s own settings or remove it"
	if config != "" {
		out += " from " + config
	}
	return out
}

// pendingWords is a client whose interactive command does not ask about
// what its headless run starts (see PendingWords).
type pendingWords interface {
	PendingWords() string
}

// PendingWords is what an entry c does not run without asking yet its
// headless run starts (status's "—" mark) means for c, in its words,
// when that is not "asks first, `Headless` runs it"; "" otherwise.
func PendingWords(c Client) string {
	if p, ok := c.(pendingWords); ok {
		return p.PendingWords()
	}
	return ""
}

// Handover is how `mcp-guard launch` hands a client exactly the reviewed
// servers.
type Handover int

const (
	// HandNothing: launch does not start it (an editor).
	HandNothing Handover = iota
	// HandSnapshotEnv: a snapshot file of the reviewed servers, named by
	// an environment variable the client reads instead of the project's
	// config (agentty's AGENTTY_MCP_CONFIG).
	HandSnapshotEnv
	// HandConfigFile: a vetted file of the reviewed servers and the
	// user's own, on the command line, with every other config ignored
	// (ClaudeArgv).
	HandConfigFile
	// HandAllowNames: the names that may run, on the command line
	// (AllowArgv): the client reads the entries itself.
	HandAllowNames
	// HandDisableNames: the project servers that must not run, turned off
	// on the command line (CodexArgv).
	HandDisableNames
)

// FS is how the package reads files: absolute paths only.
type FS interface {
	// ReadFile reads a regular file (trust.ReadFile's limits).
	ReadFile(path string) ([]byte, error)
	Stat(path string) (fs.FileInfo, error)
	Lstat(path string) (fs.FileInfo, error)
	EvalSymlinks(path string) (string, error)
}

// OS is the real file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) ReadFile(p string) ([]byte, error)     { return trust.ReadFile(p) }
func (osFS) Stat(p string) (fs.FileInfo, error)    { return os.Stat(p) }
func (osFS) Lstat(p string) (fs.FileInfo, error)   { return os.Lstat(p) }
func (osFS) EvalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }

// Env is the environment a client would be started in. The package never
// reads the process's own.
type Env struct {
	// Getenv looks a variable up; "" means unset unless LookupEnv is set.
	Getenv func(string) string
	// LookupEnv, when set, tells unset from empty (interpolation needs it).
	LookupEnv func(string) (string, bool)
	// FS reads files; nil is OS.
	FS FS
	// Shared, when set, lists what the repository at gitTop carries below
	// rel (repository-relative, slash-separated; "" the root): its tracked
	// entries, symlinks marked, not followed, and those of each submodule
	// checked out there, at their place in gitTop's work tree. The gate sets it from the
	// index, so that a client whose files may sit anywhere below the
	// launch directory (Claude Code's nested skills) finds them without
	// walking the work tree, and as the repository placed them. Without
	// it such a client walks the file system.
	Shared func(gitTop, rel string) ([]SharedFile, error)
	// Starting is the agent a launch is starting now (launch -- gemini:
	// gemini-cli), "" for every other command. Its State counts it as
	// used on this machine whatever its home directory holds: a user who
	// never ran it before is running it now, and its first session asks
	// the same trust question as any other.
	Starting ID
}

// SharedFile is one entry Env.Shared lists.
type SharedFile struct {
	Path string // repository-relative, slash-separated
	Link bool   // a symbolic link
}

// Vars is a variable lookup that tells unset from empty.
type Vars func(string) (string, bool)

func (e Env) fs() FS {
	if e.FS == nil {
		return OS
	}
	return e.FS
}

func (e Env) getenv(k string) string {
	if e.Getenv != nil {
		return e.Getenv(k)
	}
	if e.LookupEnv != nil {
		v, _ := e.LookupEnv(k)
		return v
	}
	return ""
}

// Vars is e's variable lookup: LookupEnv, or Getenv with "" as unset.
func (e Env) Vars() Vars {
	if e.LookupEnv != nil {
		return e.LookupEnv
	}
	return func(k string) (string, bool) {
		v := e.getenv(k)
		return v, v != ""
	}
}

// Entry is a server a client loads: the winning entry of its name.
type Entry struct {
	Name string
	// Path is the absolute path of the config file it came from.
	Path   string
	Server *trust.Server
}

// Source is one file of a client's state.
type Source struct {
	Path string
	// Display is how messages name it ("~/.claude/settings.json").
	Display string
	// RepoSide is true for a file in the repository: an approval there was
	// written by whoever wrote the repository.
	RepoSide bool
	Present  bool
	// Err is why the file could not be read or has the wrong shape: the
	// state it holds is unknown.
	Err error
}

// State is a client's approval state for one launch directory.
type State struct {
	Client    ID
	LaunchDir string
	Sources   []Source
	// Err is why the state could not be read at all.
	Err error
	// Own are the servers the user placed in their own configuration
	// (not the repository's), for the clients whose launch hands over a
	// file of servers: that file carries them as they are.
	Own []UserServer
	// The client's own view; one is set.
	Agentty  *AgenttyState
	Claude   *ClaudeState
	Cursor   *CursorState
	VSCode   *VSCodeState
	Gemini   *GeminiState
	Codex    *CodexState
	OpenCode *OpenCodeState
	Qwen     *QwenState
	Copilot  *CopilotState
	// Plain is the one answer of a client that binds nothing to a server
	// and keeps no approval mcp-guard reads (Kiro, Amazon Q Developer, Roo
	// Code, Zed).
	Plain *PlainState
}

// UserServer is a server the user placed in their own configuration.
type UserServer struct {
	Name string
	// Scope is the client's word for where it lives ("user", "local");
	// Source the file, as messages name it.
	Scope, Source string
	// Entry is the entry's JSON text, as the user wrote it (compact).
	Entry string
	// Off: the user's settings keep it from running.
	Off bool
}

// ServerVerdict is one server as its client would treat it now.
type ServerVerdict struct {
	Name, Path string
	Server     *trust.Server
	// Interactive: runs without asking in an interactive session (and in
	// `claude mcp list`). Headless: under `claude -p`; equal to
	// Interactive for clients without a headless difference.
	Interactive bool
	Headless    bool
	// Why is the client's reason in its words; Source the file or setting
	// that decided, RepoSide whether that is a file in the repository.
	Why      string
	Source   string
	RepoSide bool
	// Spawn is what the client would start.
	Spawn Spawn
	// Started: it does not run here now, but runs in the session
	// `mcp-guard launch` starts (an agent not used on this machine yet,
	// whose first session asks whether you trust the folder and then
	// runs it): launch treats it as running (Env.Starting).
	Started bool
}

// Impact is what a change means for "runs without asking".
type Impact struct {
	Interactive, Headless bool
	Why                   string
	Source                string
	RepoSide              bool
}

// Evaluation is every client found in a launch directory.
type Evaluation struct {
	LaunchDir string
	// GitTop is the real path of the repository's top, "" outside git.
	GitTop  string
	Clients []ClientEvaluation
}

// ClientEvaluation is one client's answer.
type ClientEvaluation struct {
	Client ID
	// Configs are the absolute paths read, in precedence order; Files
	// their parsed form (Err, Skipped, Findings), in the same order.
	Configs []string
	Files   []*trust.Config
	Servers []ServerVerdict
	State   *State
	// Unknown says why what this client runs is not fully known (a config
	// mcp-guard did not read, an unreadable state file): the gate stays
	// closed for it.
	Unknown []string
	Err     error
}

var clients = []Client{agenttyClient{}, claudeClient{}, cursorClient{}, vscodeClient{}, geminiClient{}, codexClient{}, opencodeClient{}, qwenClient{}, copilotClient{}, clineClient{}, continueClient{}, kiroClient{}, amazonqClient{}, rooClient{}, zedClient{}}

// Dialect is the JSON dialect a client's entries are read in (Codex: the
// JSON form of its TOML tables); nil for agentty, whose is trust.Parse's.
func Dialect(id ID) *trust.Dialect {
	switch id {
	case ClaudeCode:
		return trust.ClaudeCode
	case Cursor:
		return trust.Cursor
	case VSCode:
		return trust.VSCode
	case Gemini:
		return trust.GeminiCLI
	case Codex:
		return trust.Codex
	case OpenCode:
		return trust.OpenCode
	case QwenCode:
		return trust.QwenCode
	case CopilotCLI:
		return trust.CopilotCLI
	case Cline:
		return trust.Cline
	case Continue:
		return trust.Continue
	}
	if d, ok := Lookup(id).(interface{ dialect() *trust.Dialect }); ok {
		return d.dialect()
	}
	return nil
}

// All returns every client, in a fixed order.
func All() []Client { return append([]Client(nil), clients...) }

// Started are the clients `mcp-guard launch` starts (a Command), in
// All's order.
func Started() []Client {
	var out []Client
	for _, c := range clients {
		if c.Command() != "" {
			out = append(out, c)
		}
	}
	return out
}

// IDs, Titles and Commands are every client's id, every client's name
// and the commands launch starts, in All's order, for messages and help.
func IDs() []string {
	var out []string
	for _, c := range clients {
		out = append(out, string(c.ID()))
	}
	return out
}

func Titles() []string {
	var out []string
	for _, c := range clients {
		out = append(out, c.Title())
	}
	return out
}

func Commands() []string {
	var out []string
	for _, c := range Started() {
		out = append(out, c.Command())
	}
	return out
}

// Resolve is the client s names as a user types it: its id, or the
// command launch starts it with ("claude" for claude-code, "gemini" for
// gemini-cli); "" when s names none.
func Resolve(s string) ID {
	if Lookup(ID(s)) != nil {
		return ID(s)
	}
	for _, c := range Started() {
		if c.Command() == s {
			return c.ID()
		}
	}
	return ""
}

// Unlaunched is the client that a program opens which `mcp-guard launch`
// has no handover for (an editor, a chat whose command line is not
// observed), nil when there is none: launch refuses it and says why.
func Unlaunched(program string) Client {
	for _, c := range clients {
		if e, ok := c.(interface{ Editors() []string }); ok && slices.Contains(e.Editors(), filepath.Base(program)) {
			return c
		}
	}
	return nil
}

// UnlaunchedPrograms are the programs Unlaunched knows, in All's order,
// for help texts: "zed", "zeditor", "kiro", ….
func UnlaunchedPrograms() []string {
	var out []string
	for _, c := range clients {
		if e, ok := c.(interface{ Editors() []string }); ok {
			out = append(out, e.Editors()...)
		}
	}
	return out
}

// Lookup returns the client with id, nil when there is none.
func Lookup(id ID) Client {
	for _, c := range clients {
		if c.ID() == id {
			return c
		}
	}
	return nil
}

// Evaluate answers, for every client that has a configuration for
// launchDir, what it would run without asking now.
func Evaluate(launchDir string, env Env) (*Evaluation, error) {
	return EvaluateOnly(launchDir, env)
}

// EvaluateOnly is Evaluate for the clients ids (none: every client).
func EvaluateOnly(launchDir string, env Env, ids ...ID) (*Evaluation, error) {
	dir, err := filepath.Abs(launchDir)
	if err != nil {
		return nil, err
	}
	ev := &Evaluation{LaunchDir: dir, GitTop: GitTop(dir, env.fs())}
	for _, c := range clients {
		if len(ids) > 0 && !slices.Contains(ids, c.ID()) {
			continue
		}
		ce, found := evaluateClient(c, dir, ev.GitTop, env)
		if found {
			ev.Clients = append(ev.Clients, ce)
		}
	}
	return ev, nil
}

func evaluateClient(c Client, dir, gitTop string, env Env) (ClientEvaluation, bool) {
	ce := ClientEvaluation{Client: c.ID()}
	paths, err := c.Configs(dir, gitTop, env)
	if err != nil {
		ce.Err = err
		return ce, true
	}
	// A client whose repository files leave what it runs unknown, though
	// it finds no config there (a Cline plugin package without a package.json, Copilot CLI's
	// plugin settings), is evaluated with no entries, its State saying why.
	unknown := false
	if u, ok := c.(unknownWithout); ok {
		unknown = u.unknownWithout(dir, gitTop, env)
	}
	if len(paths) == 0 && !unknown {
		return ce, false
	}
	ce.State = c.State(dir, gitTop, env)
	ce.Err = ce.State.Err
	if f, ok := c.(interface {
		files(*State) ([]string, []*trust.Config)
	}); ok {
		paths, ce.Files = f.files(ce.State)
	} else {
		for _, p := range paths {
			ce.Files = append(ce.Files, readConfig(c, p, env.fs()))
		}
	}
	ce.Configs = paths
	keepEntryFiles(&ce)
	if len(ce.Configs) == 0 && !unknown {
		return ce, false
	}
	paths = ce.Configs
	// A server's name is taken once, the first config winning; every
	// other entry (a hook, a helper) runs from each file that holds it.
	seen := map[string]bool{}
	var entries []Entry
	for i, cfg := range ce.Files {
		for _, s := range cfg.Servers {
			key := s.Name
			if s.Kind != "" {
				key = s.Kind + "\x00" + paths[i] + "\x00" + s.Name
			}
			if !seen[key] {
				seen[key] = true
				entries = append(entries, Entry{Name: s.Name, Path: paths[i], Server: s})
			}
		}
	}
	// A server's own entry (its headersHelper) runs only with the server
	// that wins its name.
	winner := map[string]string{}
	for _, e := range entries {
		if e.Server.Kind == "" {
			winner[e.Name] = e.Path
		}
	}
	entries = slices.DeleteFunc(entries, func(e Entry) bool { return e.Server.Of != "" && winner[e.Server.Of] != e.Path })
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	for _, cfg := range ce.Files {
		if t := cfg.UnreadableText(); t != "" {
			ce.Unknown = append(ce.Unknown, cfg.Path+": "+t)
		}
	}
	for _, src := range ce.State.Sources {
		if src.Err != nil {
			ce.Unknown = append(ce.Unknown, src.Display+": "+src.Err.Error())
		}
	}
	ce.Servers = c.Gate(ce.State, entries)
	look := env.Vars()
	for i := range ce.Servers {
		if s := ce.Servers[i].Server; s != nil {
			ce.Servers[i].Spawn = SpawnFor(c, s, ce.Servers[i].Path, look)
		}
	}
	return ce, true
}

// unknownWithout is a client whose repository files can leave what it
// runs unknown with no config of its own there: true when they do.
type unknownWithout interface {
	unknownWithout(dir, gitTop string, env Env) bool
}

// keepEntryFiles leaves out of ce the files that are not the client's
// configs and that it runs nothing from (a settings file without hooks
// or helpers, read without error): they are its state, not its configs.
func keepEntryFiles(ce *ClientEvaluation) {
	var paths []string
	var files []*trust.Config
	for i, p := range ce.Configs {
		f := ce.Files[i]
		k, ok := entryKindOf(p)
		if ok && k.Role() != surface.Config && k.Spec().Entries && f.Err == nil && len(f.Servers) == 0 {
			continue
		}
		paths, files = append(paths, p), append(files, f)
	}
	ce.Configs, ce.Files = paths, files
}

// entryKindOf is the surface of an absolute path, matched by its last
// two to four elements (".claude/settings.json",
// ".claude/skills/x/SKILL.md"); of a path two kinds read, the one with
// entries.
func entryKindOf(p string) (surface.Kind, bool) {
	parts := strings.Split(filepath.ToSlash(p), "/")
	for n := 2; n <= 4 && n <= len(parts); n++ {
		ks := surface.OfAll(strings.Join(parts[len(parts)-n:], "/"))
		for _, k := range ks {
			if k.Spec().Entries {
				return k, true // the kind a client runs entries from
			}
		}
		if len(ks) > 0 {
			return ks[0], true
		}
	}
	return 0, false
}

// SpawnFor is c's Spawn of a server of the config at configPath (an
// absolute path): clients that resolve ${workspaceFolder} (Cursor, VS
// Code) resolve it from there.
func SpawnFor(c Client, s *trust.Server, configPath string, lookup Vars) Spawn {
	if ws, ok := c.(interface {
		spawnIn(s *trust.Server, configPath string, lookup Vars) Spawn
	}); ok {
		return ws.spawnIn(s, configPath, lookup)
	}
	return c.Spawn(s, lookup)
}

// remoteNote is what a verdict adds for a server that is connected to,
// not spawned; "" for a stdio server or none.
func remoteNote(s *trust.Server) string {
	if s != nil && s.Transport != trust.TransportStdio {
		return " (a remote server: connected, not spawned)"
	}
	return ""
}

// readJSONFile reads a state file in dialect d; absent is fine,
// anything else that fails is recorded in src.Err. A repository's file
// (src.RepoSide) is decoded within the repository's budget
// (trust.MaxRepoValues), the user's own within theirs.
func readJSONFile(fsys FS, src *Source, d *trust.Dialect) (trust.Value, bool) {
	data, err := fsys.ReadFile(src.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return trust.Value{}, false
	}
	src.Present = true
	if err != nil {
		src.Err = err
		return trust.Value{}, false
	}
	decode := trust.DecodeUserDialect
	if src.RepoSide {
		decode = trust.DecodeDialect
	}
	v, err := decode(data, d)
	if err == nil && v.Kind() != "object" {
		err = errors.New("the file is not an object")
	}
	if err != nil {
		src.Err = err
		return trust.Value{}, false
	}
	return v, true
}

// ParseFile reads the repository file at path as c does (c.Parse), within
// the entries one repository file may declare (trust.Bounded): every
// reader of a repository's file (project, the gate, scan's rules) parses
// through it, so that no kind of entry escapes the limit.
func ParseFile(c Client, path string, data []byte) *trust.Config {
	return trust.Bounded(c.Parse(path, data))
}

// readConfig reads and parses one config; a file mcp-guard does not read
// is Unreadable (what runs from it is unknown), any other failure invalid.
func readConfig(c Client, path string, fsys FS) *trust.Config {
	data, err := fsys.ReadFile(path)
	if errors.Is(err, trust.ErrTooLarge) {
		return trust.UnreadableConfig(path, trust.ScopeProject, err)
	}
	if err != nil {
		return trust.InvalidConfig(path, trust.ScopeProject, err)
	}
	return ParseFile(c, path, data)
}

// GitTop is the real path of the git work tree holding dir (a directory
// with a .git entry, searched upwards from dir's real path), "" outside
// git. Like git, it starts from the real path.
func GitTop(dir string, fsys FS) string {
	d := realDir(dir, fsys)
	for {
		if _, err := fsys.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// realDir is dir's real path, or dir cleaned when it cannot be resolved.
func realDir(dir string, fsys FS) string {
	if r, err := fsys.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}

// registerDirs declares id's directories that a symlink may stand for
// (surface.KindLinkedDir); a value so that a client file declares them
// next to its kinds.
func registerDirs(id ID, patterns ...string) struct{} {
	surface.RegisterDir(string(id), patterns...)
	return struct{}{}
}

// ShellRunner is a client that runs shell command lines from a surface of
// its own other than its configs (agentty's .agentty/hooks.json).
type ShellRunner interface {
	// ShellRuns says, for a surface kind of the client that holds such
	// lines, how to read them: from a file's repository path and content,
	// the directory they run in (repository-relative, "" for the root)
	// and the lines; nil for any other kind.
	ShellRuns(k surface.Kind) func(path string, data []byte) (dir string, runs []trust.HookRun)
}

// Includer is a client whose config brings other files' entries in: when
// it applies the config it also runs what each included file holds (VS
// Code's workspace file: the .vscode/mcp.json and tasks.json of each
// folder it lists inside the repository). project.Compare names the
// entries of a file a change newly includes, though the file itself did
// not change.
type Includer interface {
	// Includes are the files the config at configPath (absolute) brings
	// in, read through env's FS, each with the client's words for why
	// (none when it brings in nothing).
	Includes(configPath, gitTop string, env Env) []Included
}

// Joiner is a client that reads, besides a configuration, another file
// of the same side to know what one of its entries runs: Claude Code's
// settings file enabling a plugin from a marketplace the other settings
// file declares. project calls Join after Parse, at the side the
// configuration was read at; what Join reads is also what the
// configuration depends on (a change of it re-reads the configuration).
type Joiner interface {
	// Join completes c; read returns the content of a repository path
	// (slash-separated), false when it is absent or cannot be read as
	// the client reads it.
	Join(c *trust.Config, read func(path string) ([]byte, bool))
}

// UserJoiner is a client one of whose entries runs code the user's own
// state locates, which may lie in the repository: Claude Code's plugin
// of a marketplace the user registered (~/.claude/plugins/
// known_marketplaces.json, ~/.claude/settings.json) at a directory of
// the repository. project calls JoinUser after Parse and Join with the
// user's environment (the zero Env reads nothing); the entry is then
// bound to that directory, and a change under it re-gates the entry.
type UserJoiner interface {
	// JoinUser completes c from the user's state in env; tops are the
	// repository's top as opened (first) and its other spellings (its
	// real path), a directory under one bound under the first.
	JoinUser(c *trust.Config, env Env, tops []string)
}

// Included is a file a config brings in (Includer).
type Included struct {
	// Path is absolute.
	Path string
	// Why says, in the client's words, how the config brings it in.
	Why string
}

// ShellRuns asks the client whose surface k is how to read the shell
// command lines it runs from such a file (ShellRunner); nil when it runs
// none from it.
func ShellRuns(k surface.Kind) func(path string, data []byte) (dir string, runs []trust.HookRun) {
	if r, ok := Lookup(ID(k.Spec().Client)).(ShellRunner); ok {
		return r.ShellRuns(k)
	}
	return nil
}
