package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// Qwen Code as observed on @qwen-code/qwen-code 0.24.4 (fidelity/qwen_test.go,
// docs/qwen-code.md) and documented in its npm package. A Gemini CLI
// fork: the workspace's `.qwen/settings.json` holds `mcpServers`, and the
// launch directory's `.mcp.json` (Claude Code's file, read in Qwen Code's
// reading of Claude's dialect) is a second project source, below the
// workspace settings on a name clash. Unlike Gemini CLI its folder trust
// is off by default; the folder's servers are ignored only when the user
// turned folder trust on in ~/.qwen/settings.json and the folder is not
// trusted. A project server starts only once the user approved it:
// ~/.qwen/mcpApprovals.json (or $QWEN_CODE_MCP_APPROVALS_PATH) binds the
// decision to the project root, the name and a SHA-256 of the entry; a
// pending one does not start under `qwen -p` and waits for a dialog in the
// terminal UI. In YOLO approval mode (`tools.approvalMode: "yolo"` in the
// user's or, in a trusted folder, the workspace's settings) no approval is
// asked. launch hands it the reviewed names with
// --allowed-mcp-server-names, as Gemini CLI. OPEN questions are decided in
// the direction that never under-reports what runs.
type qwenClient struct{}

func (qwenClient) ID() ID             { return QwenCode }
func (qwenClient) Title() string      { return "Qwen Code" }
func (qwenClient) Command() string    { return "qwen" }
func (qwenClient) Handover() Handover { return HandAllowNames }
func (qwenClient) Headless() string   { return "" }

// Unhanded: `qwen mcp list` connects to the servers to show their status
// and, like Gemini CLI's, reads only the settings' lists (OPEN: read as
// Gemini CLI's); an --allowed-mcp-server-names of the user's own adds
// names to the list launch hands over (an array option).
func (c qwenClient) Unhanded(args []string) string { return allowUnhanded(c, args) }
func (qwenClient) Binds() string {
	return "Qwen Code's approval binds the project, the name and a hash of the entry"
}

// passable: Qwen Code splits a value of --allowed-mcp-server-names at
// commas and trims the parts (GeminiPassable), and reads a part with * or
// ? as a pattern (matchesServerPattern in 0.24.4), which would allow other
// names: such a server is left out of the allow-list (it does not run).
func (qwenClient) passable(name string) bool {
	return GeminiPassable(name) && !strings.ContainsAny(name, "*?")
}

// QwenSettingsFile is the workspace settings file below the launch
// directory.
var QwenSettingsFile = filepath.Join(".qwen", "settings.json")

// Qwen Code's surfaces: the workspace settings, which hold its servers,
// and Claude Code's `.mcp.json` (declared there; Qwen Code reads it too).
var (
	KindQwenSettings = surface.Register(surface.Spec{Name: "qwen-settings", Client: string(QwenCode), Role: surface.Config, Patterns: []string{"**/.qwen/settings.json"}})
	_                = surface.AlsoRead(string(QwenCode), KindClaudeMCP)
	_                = registerDirs(QwenCode, "**/.qwen")
)

// Parse reads both of Qwen Code's project files in one dialect: it reads
// `.mcp.json` as it reads its settings (strip-json-comments, then
// JSON.parse; `mcpServers` an object, an entry that is not an object
// skipped) and normalises each Claude Code entry (qwenNormalize), which
// changes no command it spawns.
//
// An empty `.mcp.json` holds no servers: Qwen Code 0.24.4's
// loadProjectMcpServers (packages/cli/src/config/mcpJson.ts, read in its
// bundle) returns no servers when JSON.parse fails, as it does on no
// bytes. Any other file this reader cannot parse stays unknown (the reader
// is not JSON.parse byte for byte), and an empty settings file is one
// Gemini CLI, which Qwen Code forked, fails on.
func (qwenClient) Parse(path string, data []byte) *trust.Config {
	if filepath.Base(filepath.FromSlash(path)) == ".mcp.json" {
		return trust.ParseDialect(path, data, trust.ScopeProject, qwenMCPJSON)
	}
	c, root := trust.ParseDialectValue(path, data, trust.ScopeProject, trust.QwenCode)
	if c.Err != nil {
		return c
	}
	// A fork of Gemini CLI, it runs the settings' hooks and tool commands
	// as Gemini CLI does (its bundle, 0.24.4: executeCommandHook with the
	// hook's env, hooks on unless disableAllHooks, toolDiscoveryCommand;
	// not observed): entries, as Gemini CLI's. So is `mcp.serverCommand`,
	// the server named `mcp` (its bundle: populateMcpServerCommand;
	// observed under `qwen -p`, fidelity server-command).
	if root.Kind() == "object" {
		entries := settingsEntries(c, trust.QwenCode, root)
		entries = append(entries, commandServer(c, trust.QwenCode, root)...)
		c.Servers = append(c.Servers, entries...)
		uniqueEntries(c)
	}
	return c
}

// EntryNouns are Qwen Code's words for its entry kinds: those of Gemini
// CLI, whose settings' hooks and tool commands it reads (Parse).
func (qwenClient) EntryNouns() map[string]string { return geminiClient{}.EntryNouns() }

// qwenMCPJSON is Qwen Code's dialect for `.mcp.json` (see Parse).
var qwenMCPJSON = func() *trust.Dialect {
	d := *trust.QwenCode
	d.EmptyNoServers = true
	return &d
}()

// Configs is, nearest first, the launch directory's .qwen/settings.json,
// its `.mcp.json` (observed: the launch directory's only, below the
// workspace settings on a name clash), then the .qwen/settings.json files
// above it up to the git top: the documentation says "the project's
// root"; Gemini CLI reads only the launch directory's. OPEN: reading every
// one up to the git top is the side that never under-reports; they come
// last so that they never hide a server Qwen Code does start. In the home
// directory the files are the user's own.
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
		if p := filepath.Join(d, ClaudeMCPFile); d == dir && present(fsys, p) {
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
	// Approved holds, by server name, the entry hashes the user approved
	// for this project in Approvals ("" for a record whose hash is not a
	// string: it counts as matching any entry). ApprovalsUnknown: the file
	// cannot be read, so every server counts as approved.
	Approved         map[string][]string
	Approvals        string
	ApprovalsUnknown bool
	// Yolo: Qwen Code runs in YOLO approval mode (tools.approvalMode
	// "yolo"), which asks no server's approval; YoloBy names the file
	// that sets it.
	Yolo   bool
	YoloBy string
	// User are the names of the servers of ~/.qwen/settings.json, which
	// Qwen Code starts without an approval; UserOff those its
	// mcp.excluded names.
	User    []string
	userOff map[string]bool
}

// State reads ~/.qwen/settings.json (security.folderTrust.enabled, off by
// default) and, when folder trust is on, ~/.qwen/trustedFolders.json with
// Gemini CLI's rules. A file that cannot be read leaves it unknown, which
// counts as trusted.
func (qwenClient) State(launchDir, gitTop string, env Env) *State {
	fsys := env.fs()
	dir := realDir(launchDir, fsys)
	home, shown := filepath.Join(trust.HomeDir(env.getenv), ".qwen"), "~/.qwen"
	qs := &QwenState{Trusted: true, Source: shown + "/settings.json",
		TrustedBy: "folder trust is off (its default; " + shown + "/settings.json does not turn security.folderTrust.enabled on)"}
	st := &State{Client: QwenCode, LaunchDir: dir, Qwen: qs}
	user := Source{Path: filepath.Join(home, "settings.json"), Display: shown + "/settings.json"}
	folders := Source{Path: filepath.Join(home, "trustedFolders.json"), Display: shown + "/trustedFolders.json"}
	userSettings, userOK := readJSONFile(fsys, &user, trust.QwenCode)
	if v, ok := userSettings, userOK; ok && qwenFolderTrust(v) {
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
	approvals := Source{Path: filepath.Join(home, "mcpApprovals.json"), Display: shown + "/mcpApprovals.json"}
	if p := env.getenv("QWEN_CODE_MCP_APPROVALS_PATH"); p != "" {
		approvals = Source{Path: p, Display: "$QWEN_CODE_MCP_APPROVALS_PATH"}
	}
	qs.Approvals, qs.Approved = approvals.Display, map[string][]string{}
	if v, ok := readJSONFile(fsys, &approvals, trust.QwenCode); ok {
		// Qwen Code keys records by its project root; the launch directory
		// was observed, any directory up to the git top counts too (OPEN,
		// the side that never under-reports).
		for _, d := range opencodeWalk(dir, gitTop) {
			proj, _ := v.Get(d)
			for _, name := range proj.Keys() {
				rec, _ := proj.Get(name)
				if status, _ := rec.StringAt("status"); status != "approved" {
					continue
				}
				h, _ := rec.StringAt("hash")
				qs.Approved[name] = append(qs.Approved[name], h)
			}
			if gitTop == "" {
				break
			}
		}
	}
	qs.ApprovalsUnknown = approvals.Err != nil
	st.Sources = []Source{user, folders, approvals}
	qs.readUser(userSettings)
	// The approval mode: the workspace's settings win over the user's
	// (merged settings); a trusted folder only (Qwen Code forces the
	// default mode in one that is not). Every settings file the walk
	// reads counts, the side that never under-reports.
	mode, by := qwenApprovalMode(userSettings), user.Display
	for i, d := range opencodeWalk(dir, gitTop) {
		src := Source{Path: filepath.Join(d, QwenSettingsFile), RepoSide: true}
		v, ok := readJSONFile(fsys, &src, trust.QwenCode)
		if m := qwenApprovalMode(v); ok && m != "" && (i == 0 || m == "yolo") {
			mode, by = m, QwenSettingsFile
			if rel, err := filepath.Rel(dir, filepath.Join(d, QwenSettingsFile)); err == nil {
				by = rel // as the launch directory sees it
			}
		}
		if gitTop == "" {
			break
		}
	}
	qs.Yolo, qs.YoloBy = mode == "yolo", by
	return st
}

// qwenApprovalMode is tools.approvalMode as Qwen Code reads it (trimmed,
// lower case), "" when it is not a string.
func qwenApprovalMode(v trust.Value) string {
	tools, _ := v.Get("tools")
	m, _ := tools.Get("approvalMode")
	s, _ := m.Str()
	return strings.ToLower(strings.TrimSpace(s))
}

// QwenSettings is a Qwen Code settings file as the client reads it (State
// reads the workspace's and the user's so): the positioned tree in Qwen
// Code's dialect that the settings rules read too; an error where Qwen
// Code cannot read it either.
func QwenSettings(data []byte) (trust.Value, error) {
	return trust.DecodeDialect(data, trust.QwenCode)
}

// QwenYolo reports whether settings v put Qwen Code in YOLO approval mode,
// read as State reads it (qwenApprovalMode), with the value as written
// and where its key is, for a finding.
func QwenYolo(v trust.Value) (written string, at trust.Pos, yolo bool) {
	if qwenApprovalMode(v) != "yolo" {
		return "", trust.Pos{}, false
	}
	tools, _ := v.Get("tools")
	m, _ := tools.Get("approvalMode")
	written, _ = m.Str()
	at, _ = tools.KeyPos("approvalMode")
	return written, at, true
}

// readUser takes the user's own servers from ~/.qwen/settings.json and
// the names its mcp.excluded keeps from running (exact names; a pattern
// with * or ? excludes nothing here, the side that keeps a server in the
// launch's list rather than out of it).
func (qs *QwenState) readUser(v trust.Value) {
	qs.userOff = map[string]bool{}
	m, _ := v.Get("mcpServers")
	qs.User = m.Keys()
	sort.Strings(qs.User)
	mcp, _ := v.Get("mcp")
	ex, _ := mcp.Get("excluded")
	for _, e := range ex.Elems() {
		if n, ok := e.Str(); ok {
			qs.userOff[n] = true
		}
	}
}

// UserRuns are the user's own servers its settings let run, sorted: a
// launch keeps them running, since --allowed-mcp-server-names replaces
// the settings' lists.
func (qs *QwenState) UserRuns() []string {
	var out []string
	for _, n := range qs.User {
		if !qs.userOff[n] {
			out = append(out, n)
		}
	}
	return out
}

// approved reports whether Qwen Code starts s, read from the file at
// path, without asking as far as its approvals go: a record for its name
// whose hash is the entry's. Where mcp-guard cannot compute Qwen Code's
// hash for certain, a record under the name counts. An entry of
// `.mcp.json` is hashed normalised (observed); one of the settings, or of
// a file not known (path ""), by either reading (OPEN whether Qwen Code
// normalises a settings entry too: either hash counts).
func (qs *QwenState) approved(s *trust.Server, path string) bool {
	if qs.ApprovalsUnknown {
		return true
	}
	hashes := qs.Approved[s.Name]
	if len(hashes) == 0 {
		return false
	}
	var want []string
	for _, claude := range []bool{false, true} {
		if !claude && filepath.Base(path) == ClaudeMCPFile {
			continue // observed: Qwen Code hashes a .mcp.json entry normalised
		}
		h, ok := qwenHash(s, claude)
		if !ok {
			return true
		}
		want = append(want, h)
	}
	for _, a := range hashes {
		if a == "" || slices.Contains(want, a) {
			return true
		}
	}
	return false
}

// qwenHash is Qwen Code's hashMcpServerConfig of an entry: SHA-256 of
// JSON.stringify of the entry without scope, extensionName and
// description, object keys sorted at every level; an entry of `.mcp.json`
// (claude) hashed as Qwen Code normalises it (qwenNormalize). ok is false
// where Go's text could differ from JavaScript's: escapes, non-ASCII
// text, numbers, and integer-like keys (JavaScript orders those first).
func qwenHash(s *trust.Server, claude bool) (string, bool) {
	text := s.Canonical()
	if text == "" || strings.ContainsRune(text, '\\') {
		return "", false
	}
	for _, r := range text {
		if r < 0x20 || r > 0x7e {
			return "", false
		}
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var entry map[string]any
	if err := dec.Decode(&entry); err != nil || !qwenHashable(entry) {
		return "", false
	}
	if claude {
		qwenNormalize(entry)
	}
	for _, k := range []string{"scope", "extensionName", "description"} {
		delete(entry, k)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(entry); err != nil {
		return "", false
	}
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return hex.EncodeToString(sum[:]), true
}

// qwenNormalize is Qwen Code's normalizeClaudeMcpServer (0.24.4) of a
// `.mcp.json` entry, in place: beside a command, httpUrl or tcp any type
// but "sdk" is dropped; an entry with a string url becomes an httpUrl
// (type "http") or a url (any other type), its type dropped unless "sdk".
func qwenNormalize(e map[string]any) {
	t, hasType := e["type"]
	if jsTruthy(e["command"]) || jsTruthy(e["httpUrl"]) || jsTruthy(e["tcp"]) {
		if hasType && t != "sdk" {
			delete(e, "type")
		}
		return
	}
	u, ok := e["url"].(string)
	if !ok {
		return
	}
	delete(e, "url")
	if t != "sdk" {
		delete(e, "type")
	}
	if t == "http" {
		e["httpUrl"] = u
	} else {
		e["url"] = u
	}
}

// jsTruthy is JavaScript's truthiness of a decoded JSON value (numbers
// never reach it: qwenHashable refuses them first).
func jsTruthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	}
	return true
}

// qwenHashable: no number and no integer-like key anywhere in v.
func qwenHashable(v any) bool {
	switch v := v.(type) {
	case json.Number:
		return false
	case []any:
		for _, e := range v {
			if !qwenHashable(e) {
				return false
			}
		}
	case map[string]any:
		for k, e := range v {
			if k != "" && strings.Trim(k, "0123456789") == "" || !qwenHashable(e) {
				return false
			}
		}
	}
	return true
}

// qwenFolderTrust is security.folderTrust.enabled: on only when true.
func qwenFolderTrust(v trust.Value) bool {
	sec, _ := v.Get("security")
	ft, _ := sec.Get("folderTrust")
	en, _ := ft.Get("enabled")
	b, ok := en.Bool()
	return ok && b
}

// qwenRuns begins the answer for a server Qwen Code runs without asking.
const qwenRuns = "Qwen Code runs it without asking: "

func (qs *QwenState) answer(s *trust.Server, path string) (runs bool, why string) {
	switch {
	case !qs.Trusted:
		return false, "the folder is not trusted (" + qs.TrustedBy + "): Qwen Code ignores the workspace's settings and .mcp.json"
	case s != nil && s.Kind != "":
		// No approval of Qwen Code's covers a hook or a tool command
		// (OPEN: read from its bundle, not observed; disableAllHooks is
		// not modelled: a hook counts as running).
		return true, "Qwen Code runs this " + s.Kind + " without asking: no approval of its covers it (" + qs.TrustedBy + ")"
	case s != nil && s.Name == GeminiCommandServer && filepath.Base(path) != ".mcp.json":
		// `mcp.serverCommand`'s server (Parse): Qwen Code's approval gate
		// holds the names of mcpServers' entries, so alone it ran unasked,
		// and beside an approved entry `mcp` it ran in its place (observed
		// under `qwen -p` on 0.24.4, fidelity server-command*). Beside a
		// pending entry `mcp` it waited; it counts as running anyway (seen
		// headless only: more, never less), as does a settings server of
		// that name without serverCommand.
		return true, qwenRuns + "no approval of its covers the server mcp.serverCommand starts (" + qs.TrustedBy + ")"
	case qs.Yolo:
		return true, qwenRuns + qs.YoloBy + " sets tools.approvalMode \"yolo\", which asks no server's approval (" + qs.TrustedBy + ")"
	case s != nil && !qs.approved(s, path):
		return false, "Qwen Code asks before it starts it: " + qs.Approvals + " holds no approval of this entry for the project (" + qs.TrustedBy + ")"
	case qs.ApprovalsUnknown:
		return true, qs.Approvals + " cannot be read: counted as approved (" + qs.TrustedBy + ")"
	}
	return true, qwenRuns + qs.Approvals + " approves this entry for the project (" + qs.TrustedBy + ")"
}

// sessionAnswer is answer for an interactive session. With folder trust
// on (the user's own switch) and the folder not trusted yet, the session
// asks "Do you trust this folder?", naming no hook, and on "Trust folder"
// runs the workspace's hooks (observed on 0.24.4 in tmux, through
// mcp-guard launch: SessionStart and UserPromptSubmit ran). Its servers
// still wait for their own approval; nothing keeps a hook or tool command
// out, so the session counts as running it unasked.
func (qs *QwenState) sessionAnswer(s *trust.Server, path string) (runs bool, why string) {
	runs, why = qs.answer(s, path)
	if runs || qs.Trusted || s == nil || s.Kind == "" {
		return runs, why
	}
	return true, "the folder is not trusted yet (" + qs.TrustedBy + "): Qwen Code's trust question names no " + s.Kind +
		", and trusting the folder runs it without asking"
}

func (qwenClient) Gate(st *State, entries []Entry) []ServerVerdict {
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		runs, _ := st.Qwen.answer(e.Server, e.Path)
		session, why := st.Qwen.sessionAnswer(e.Server, e.Path)
		w := why + remoteNote(e.Server)
		if e.Server != nil && runs && GeminiServerTrusted(e.Server) {
			w += "; `trust: true` skips its tool-call confirmations"
		}
		out = append(out, ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server,
			Interactive: session, Headless: runs, Why: w, Source: st.Qwen.Source})
	}
	return out
}

// Impact: Qwen Code binds nothing to a server.
func (qwenClient) Impact(st *State, _, new *trust.Server) Impact {
	if new == nil {
		return Impact{Why: "removed: Qwen Code no longer starts it"}
	}
	runs, _ := st.Qwen.answer(new, "")
	session, why := st.Qwen.sessionAnswer(new, "")
	if runs && new.Kind == "" {
		why = fmt.Sprintf("Qwen Code runs `%s` without asking: %s", new.Name, strings.TrimPrefix(why, qwenRuns))
	}
	return Impact{Interactive: session, Headless: runs, Why: why, Source: st.Qwen.Source}
}
