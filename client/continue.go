package client

import (
	"errors"
	"path/filepath"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Continue's CLI (@continuedev/cli 1.5.47, `cn`) as observed
// (docs/continue.md): marker servers and hooks in every place it might
// read, an isolated HOME with a config pointing at a fake model on
// 127.0.0.1, `cn -p`, the TUI in tmux and `cn serve`, under strace, and
// the TypeScript sources the package ships. Its MCP servers come only from
// the user's config (~/.continue/config.yaml, --config, the hub): no
// project file adds one. It reads the hooks of .continue/settings*.json
// and .claude/settings*.json but this version fires none of them. The one
// repository command it runs is `install` of .continue/environment.json,
// with a shell, without asking, when started as `cn serve`.
type continueClient struct{}

func (continueClient) ID() ID             { return Continue }
func (continueClient) Title() string      { return "Continue" }
func (continueClient) Command() string    { return "cn" }
func (continueClient) Handover() Handover { return HandNothing }
func (continueClient) Headless() string   { return "cn serve" }

// Unhanded: `cn serve` runs the install command whatever it is handed.
func (continueClient) Unhanded(args []string) string {
	if len(args) > 0 && args[0] == "serve" {
		return "`cn serve` runs the repository's .continue/environment.json install command whatever it is handed"
	}
	return ""
}
func (continueClient) Binds() string {
	return "Continue binds nothing to the install command: `cn serve` runs it without asking"
}

// EntryInstall is the install command of .continue/environment.json.
const EntryInstall = "install"

// PendingWords: plain `cn` neither asks about the install command nor
// runs it; `cn serve` runs it without asking.
func (continueClient) PendingWords() string {
	return "`cn` and `cn -p` do not run it, `cn serve` runs it without asking"
}

// EntryNouns are Continue's words for its entries: install commands.
func (continueClient) EntryNouns() map[string]string {
	return map[string]string{EntryInstall: "install commands"}
}

// ContinueEnvironmentFile is the file, below the directory cn starts in.
var ContinueEnvironmentFile = filepath.Join(".continue", "environment.json")

var (
	KindContinueEnvironment = surface.Register(surface.Spec{Name: "continue-environment", Client: string(Continue), Role: surface.Config,
		Patterns: []string{"**/.continue/environment.json"}})
	_ = registerDirs(Continue, "**/.continue")
)

// Configs: the start directory's .continue/environment.json only (cn
// reads it from process.cwd(), no walk).
func (continueClient) Configs(launchDir, _ string, env Env) ([]string, error) {
	fsys := env.fs()
	if p := filepath.Join(realDir(launchDir, fsys), ContinueEnvironmentFile); present(fsys, p) {
		return []string{p}, nil
	}
	return nil, nil
}

// Parse reads the file as cn does (JSON.parse of its UTF-8 text), in one
// pass of trust's reader within a repository file's value budget
// (trust.ValueBudget): a file past it, or past trust.MaxFileSize, is
// unreadable and the gate stays closed. A file that does not parse runs
// nothing in cn (it logs the error), which mcp-guard reports as invalid;
// one whose value is not an object holds no install (cn's
// `config.install` is undefined there). A truthy install that is not a
// string is passed to exec as it is, which mcp-guard does not model: what
// runs is unknown.
func (continueClient) Parse(path string, data []byte) *trust.Config {
	root, err := trust.DecodeDialect(data, trust.Continue)
	if errors.Is(err, trust.ErrUnreadable) {
		u := trust.UnreadableConfig(path, trust.ScopeProject, err)
		u.SHA256, u.Dialect = trust.FileHash(data), trust.Continue
		return u
	}
	if err != nil {
		return trust.InvalidConfig(path, trust.ScopeProject, err)
	}
	c := trust.ParseDialect(path, []byte(`{}`), trust.ScopeProject, trust.Continue)
	if root.Kind() != "object" {
		return c // cn reads no install from an array, a string or null
	}
	v, ok := root.Get(EntryInstall)
	if !ok || continueFalsy(v) {
		return c // absent or falsy: cn skips it
	}
	line, ok := v.Str()
	if !ok {
		return trust.UnreadableConfig(path, trust.ScopeProject, errors.New("install is not a string: what cn serve runs is not known"))
	}
	s, err := trust.CommandEntry(path, trust.Continue, EntryInstall, EntryInstall, "", "/bin/sh", line, v.Pos(), nil)
	if err != nil {
		return trust.UnreadableConfig(path, trust.ScopeProject, err)
	}
	c.Servers = []*trust.Server{s}
	return c
}

// continueFalsy reports a value JavaScript's `!` calls false: null, false,
// 0 and "" (cn runs `install` only when it is truthy).
func continueFalsy(v trust.Value) bool {
	switch v.Kind() {
	case "null":
		return true
	case "boolean":
		b, _ := v.Bool()
		return !b
	case "number":
		return v.Num() == 0
	case "string":
		s, _ := v.Str()
		return s == ""
	}
	return false
}

// State: Continue keeps no approval for the install command.
func (continueClient) State(launchDir, _ string, env Env) *State {
	return &State{Client: Continue, LaunchDir: realDir(launchDir, env.fs())}
}

const continueRuns = "`cn serve` runs this command without asking (`cn` and `cn -p` do not)"

func (continueClient) Gate(_ *State, entries []Entry) []ServerVerdict {
	return unasked(entries, false, continueRuns)
}

func (continueClient) Impact(_ *State, _, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: `cn serve` no longer runs it"}
	}
	return Impact{Headless: true, RepoSide: true,
		Why: "`cn serve` runs the install command of .continue/environment.json at its next start without asking"}
}

// Spawn: cn runs the line with a shell, no interpolation.
func (continueClient) Spawn(s *trust.Server, _ Vars) Spawn { return rawSpawn(s) }
