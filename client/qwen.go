package client

import (
	"fmt"
	"path/filepath"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Qwen Code as documented in its npm package (@qwen-code/qwen-code 0.24.4,
// bundled/qc-helper/docs: configuration/settings.md, trusted-folders.md,
// features/mcp.md), not yet observed (docs/qwen-code.md). A Gemini CLI
// fork: the workspace's `.qwen/settings.json` holds `mcpServers`. Unlike
// Gemini CLI its folder trust is off by default, so a workspace's servers
// run without asking unless the user turned folder trust on in
// ~/.qwen/settings.json and the folder is not trusted. mcp-guard does not
// hand it a server list yet: launch starts it only when every server it
// would run is reviewed (Unhanded). OPEN questions are decided in the
// direction that never under-reports what runs.
type qwenClient struct{}

func (qwenClient) ID() ID             { return QwenCode }
func (qwenClient) Title() string      { return "Qwen Code" }
func (qwenClient) Command() string    { return "qwen" }
func (qwenClient) Handover() Handover { return HandNothing }
func (qwenClient) Headless() string   { return "" }
func (qwenClient) Unhanded([]string) string {
	return "mcp-guard hands Qwen Code no server list yet (its command line is not observed)"
}
func (qwenClient) Binds() string { return "Qwen Code binds nothing to a server" }

// QwenSettingsFile is the workspace settings file below the launch
// directory.
var QwenSettingsFile = filepath.Join(".qwen", "settings.json")

// Qwen Code's surface: the workspace settings, which hold its servers.
var (
	KindQwenSettings = surface.Register(surface.Spec{Name: "qwen-settings", Client: string(QwenCode), Role: surface.Config, Patterns: []string{"**/.qwen/settings.json"}})
	_                = registerDirs(QwenCode, "**/.qwen")
)

func (qwenClient) Parse(path string, data []byte) *trust.Config {
	return trust.ParseDialect(path, data, trust.ScopeProject, trust.QwenCode)
}

// Configs is the launch directory's .qwen/settings.json and those above it
// up to the git top: the documentation says "the project's root"; Gemini
// CLI reads only the launch directory's. OPEN: reading every one up to the
// git top is the side that never under-reports. In the home directory the
// file is the user's own.
func (qwenClient) Configs(launchDir, gitTop string, env Env) ([]string, error) {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	home := ""
	if h := trust.HomeDir(env.getenv); h != "" {
		home = realDir(h, fsys)
	}
	var out []string
	for _, d := range opencodeWalk(dir, gitTop) {
		if d == home {
			break
		}
		if p := filepath.Join(d, QwenSettingsFile); present(fsys, p) {
			out = append(out, p)
		}
		if gitTop == "" {
			break // outside git: the launch directory only
		}
	}
	return out, nil
}

// Spawn expands variables as Gemini CLI does ($VAR, ${VAR},
// ${VAR:-default}); OPEN: not observed on Qwen Code.
func (qwenClient) Spawn(s *trust.Server, lookup Vars) Spawn {
	return geminiClient{}.Spawn(s, lookup)
}

// QwenState is Qwen Code's folder trust for one launch directory.
type QwenState struct {
	// Trusted: Qwen Code reads the workspace's settings and runs its
	// servers; TrustedBy says why, Source the file.
	Trusted   bool
	TrustedBy string
	Source    string
}

// State reads ~/.qwen/settings.json (security.folderTrust.enabled, off by
// default) and, when folder trust is on, ~/.qwen/trustedFolders.json with
// Gemini CLI's rules. A file that cannot be read leaves it unknown, which
// counts as trusted.
func (qwenClient) State(launchDir, _ string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	home, shown := filepath.Join(trust.HomeDir(env.getenv), ".qwen"), "~/.qwen"
	qs := &QwenState{Trusted: true, Source: shown + "/settings.json",
		TrustedBy: "folder trust is off (its default; " + shown + "/settings.json does not turn security.folderTrust.enabled on)"}
	st := &State{Client: QwenCode, LaunchDir: dir, Qwen: qs}
	user := Source{Path: filepath.Join(home, "settings.json"), Display: shown + "/settings.json"}
	folders := Source{Path: filepath.Join(home, "trustedFolders.json"), Display: shown + "/trustedFolders.json"}
	if v, ok := readJSONFile(fsys, &user, trust.QwenCode); ok && qwenFolderTrust(v) {
		rules := readGeminiFolders(fsys, &folders, dir)
		qs.Trusted, qs.TrustedBy = rules.decide(dir)
		qs.Source = folders.Display
		if qs.TrustedBy == "" {
			qs.TrustedBy = "no entry of " + folders.Display + " covers " + dir
		}
		if folders.Err != nil {
			qs.Trusted, qs.TrustedBy = true, folders.Display+" cannot be read: counted as trusted"
		}
	}
	if user.Err != nil {
		qs.Trusted, qs.TrustedBy = true, user.Display+" cannot be read: counted as trusted"
	}
	st.Sources = []Source{user, folders}
	return st
}

// qwenFolderTrust is security.folderTrust.enabled: on only when true.
func qwenFolderTrust(v trust.Value) bool {
	sec, _ := v.Get("security")
	ft, _ := sec.Get("folderTrust")
	en, _ := ft.Get("enabled")
	b, ok := en.Bool()
	return ok && b
}

func (qs *QwenState) answer() (runs bool, why string) {
	if !qs.Trusted {
		return false, "the folder is not trusted (" + qs.TrustedBy + "): Qwen Code ignores the workspace's settings"
	}
	return true, "Qwen Code runs the workspace's servers without asking: " + qs.TrustedBy
}

func (qwenClient) Gate(st *State, entries []Entry) []ServerVerdict {
	runs, why := st.Qwen.answer()
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		w := why + remoteNote(e.Server)
		if e.Server != nil && runs && GeminiServerTrusted(e.Server) {
			w += "; `trust: true` skips its tool-call confirmations"
		}
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: runs, Headless: runs, Why: w, Source: st.Qwen.Source})
	}
	return out
}

// Impact: Qwen Code binds nothing to a server.
func (qwenClient) Impact(st *State, _, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: Qwen Code no longer starts it"}
	}
	runs, why := st.Qwen.answer()
	if runs {
		why = fmt.Sprintf("Qwen Code runs `%s` without asking (%s): every change runs", new.Name, st.Qwen.TrustedBy)
	}
	return Impact{Interactive: runs, Headless: runs, Why: why, Source: st.Qwen.Source}
}
