// Package registrytest holds the test that keeps client knowledge in the
// client's own files: the packages that should only iterate the registry
// (client.All, client.Lookup, the surface registry) must not spell a
// client's id, name, command or file names, nor name what a client file
// declares (client.ClaudeCode, client.KindCursorMCP, client.VSCodeMCPFile).
//
// A client's rules live in its rules file, which may name it: in policy,
// claude.go (Claude Code), codex.go (Codex), clients.go (Gemini CLI, VS
// Code, Cursor), surface.go (agentty's file-level rules and the
// dispatcher), ciagents.go and ciworkflow.go (CI, which names the agents a
// workflow runs). docs/architecture.md has the recipe for a new client.
//
// It also keeps one reader per file: policy decodes no client's file
// itself, and agentty's files are read through its client
// (TestPolicyReadsClientFilesThroughTheirClient,
// TestAgenttyFilesReadThroughItsClient).
package registrytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/surface"
)

// iterating are the packages that must only iterate the registry, with
// the files of each that are a client's rules file. The lead extends the
// list to gate, report and cmd/mcp-guard.
var iterating = map[string][]string{
	"gitscan":       nil,
	"project":       nil,
	"scan":          nil,
	"hooks":         nil,
	"policy":        {"claude.go", "codex.go", "clients.go", "opencode.go", "qwen.go", "copilot.go", "kiro.go", "amazonq.go", "roo.go", "cline.go", "surface.go", "ciagents.go", "ciworkflow.go"},
	"surface":       {"ci.go"},
	"gate":          nil,
	"report":        nil,
	"cmd/mcp-guard": nil,
	"client/words":  nil,
}

// debt are the places that still name a client, each with its reason.
// Each is a file and the names it may use; the test fails when an entry
// is no longer needed. (Where agentty differs, its content-hash store
// that mcp-guard writes, gate and project ask the registry for the
// client that keeps one, client.Keeper, and call its methods.)
var debt = map[string][]string{}

// forbidden are the names no iterating package may use: every name a
// client's own file declares, and, as words in strings, every client's id,
// title, command and declared files. agentty's words are not among the
// strings: its name is also that of the rules trust reproduces, which the
// rule catalog's messages cite ("agentty's fingerprint").
func forbidden(t *testing.T) (idents map[string]string, words []*regexp.Regexp) {
	idents = map[string]string{}
	var lits []string
	for _, c := range client.All() {
		id := c.ID()
		idents["client."+exportedConst(t, id)] = string(id)
		if id == client.Agentty {
			continue
		}
		lits = append(lits, string(id), c.Title())
		if c.Command() != "" {
			lits = append(lits, c.Command())
		}
		for _, k := range surface.OfClient(string(id)) {
			for _, p := range k.Spec().Patterns {
				lits = append(lits, strings.TrimPrefix(p, "**/"))
			}
			if d := k.Spec().Dir(); d != "" {
				lits = append(lits, d)
			}
		}
	}
	// Everything a client's own file declares.
	fset := token.NewFileSet()
	for _, c := range client.All() {
		f := filepath.Join("..", "..", "client", clientFile(c.ID())+".go")
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("the client file of %s: %v", c.ID(), err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				var names []*ast.Ident
				switch s := s.(type) {
				case *ast.ValueSpec:
					names = s.Names
				case *ast.TypeSpec:
					names = []*ast.Ident{s.Name}
				}
				for _, n := range names {
					if n.IsExported() {
						idents["client."+n.Name] = string(c.ID())
					}
				}
			}
		}
	}
	sort.Strings(lits)
	for _, l := range slicesCompact(lits) {
		// A word, not part of one: "codex" but not "codexes"; a path as
		// written.
		words = append(words, regexp.MustCompile(`(^|[^\w.-])`+regexp.QuoteMeta(l)+`($|[^\w-])`))
	}
	return idents, words
}

// clientFile is the file a client lives in.
func clientFile(id client.ID) string {
	switch s := string(id); s {
	case "claude-code":
		return "claude"
	case "gemini-cli":
		return "gemini"
	case "qwen-code":
		return "qwen"
	case "copilot-cli":
		return "copilot"
	case "continue-cli":
		return "continue"
	case "amazon-q":
		return "amazonq"
	case "roo-code":
		return "roo"
	default:
		return s
	}
}

// exportedConst is the name of the constant whose value is id.
func exportedConst(t *testing.T, id client.ID) string {
	for _, n := range []string{"Agentty", "ClaudeCode", "Cursor", "VSCode", "Gemini", "Codex", "OpenCode", "QwenCode", "CopilotCLI", "Cline", "Continue", "Kiro", "AmazonQ", "RooCode", "Zed"} {
		if constValue(t, n) == string(id) {
			return n
		}
	}
	t.Fatalf("no constant in client.go names %s: add it to exportedConst", id)
	return ""
}

var clientConsts map[string]string

func constValue(t *testing.T, name string) string {
	if clientConsts == nil {
		clientConsts = map[string]string{}
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", "client", "client.go"), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok && len(v.Values) == len(v.Names) {
				for i, nm := range v.Names {
					if b, ok := v.Values[i].(*ast.BasicLit); ok && b.Kind == token.STRING {
						clientConsts[nm.Name], _ = strconv.Unquote(b.Value)
					}
				}
			}
			return true
		})
	}
	return clientConsts[name]
}

func slicesCompact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// TestOnlyTheRegistryNamesClients fails when a package that should only
// iterate the registry spells a client.
func TestOnlyTheRegistryNamesClients(t *testing.T) {
	idents, words := forbidden(t)
	used := map[string]bool{}
	for pkg, rules := range iterating {
		for _, name := range sources(t, pkg) {
			if contains(rules, name) {
				continue
			}
			for _, bad := range spelled(t, filepath.Join("..", "..", pkg, name), idents, words) {
				if contains(debt[pkg+"/"+name], bad.what) {
					used[pkg+"/"+name+" "+bad.what] = true
					continue
				}
				t.Errorf("%s/%s:%d spells %s (client %s): ask the registry (client.All, client.Lookup, surface) or move it to the client's own file or its rules file", pkg, name, bad.line, bad.what, bad.client)
			}
		}
	}
	for f, names := range debt {
		for _, n := range names {
			if !used[f+" "+n] {
				t.Errorf("debt lists %s in %s, which no longer spells it: remove it", n, f)
			}
		}
	}
}

// TestTheCheckCatches: the check finds each way of spelling a client.
func TestTheCheckCatches(t *testing.T) {
	idents, words := forbidden(t)
	src := `package x
import "github.com/mcp-guard/mcp-guard/client"
var a = client.ClaudeCode
var b = client.KindCursorMCP
var c = "Gemini CLI's settings"
var d = "a/.codex/config.toml"
var e = client.VSCodeMCPFile
var f = "gemini-cli"
var ok = "an encoder's cursors" + "Codexes"
`
	p := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range spelled(t, p, idents, words) {
		got = append(got, b.what)
	}
	want := []string{"client.ClaudeCode", "client.KindCursorMCP", `"Gemini CLI's settings"`, `"a/.codex/config.toml"`, "client.VSCodeMCPFile", `"gemini-cli"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("caught %q, want %q", got, want)
	}
}

type spelling struct {
	line         int
	what, client string
}

func spelled(t *testing.T, path string, idents map[string]string, words []*regexp.Regexp) []spelling {
	fset, file := parse(t, path)
	var out []spelling
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				if id, ok := idents[x.Name+"."+n.Sel.Name]; ok {
					out = append(out, spelling{fset.Position(n.Pos()).Line, x.Name + "." + n.Sel.Name, id})
				}
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			if _, isImport := importPaths[n.Value]; isImport {
				return true
			}
			s, _ := strconv.Unquote(n.Value)
			for _, w := range words {
				if w.MatchString(s) {
					out = append(out, spelling{fset.Position(n.Pos()).Line, n.Value, w.String()})
					break
				}
			}
		case *ast.ImportSpec:
			importPaths[n.Path.Value] = struct{}{}
			return false
		}
		return true
	})
	return out
}

var importPaths = map[string]struct{}{}

// parse parses the Go file at path.
func parse(t *testing.T, path string) (*token.FileSet, *ast.File) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return fset, file
}

// sources are the names of pkg's Go files, its tests left out.
func sources(t *testing.T, pkg string) []string {
	entries, err := os.ReadDir(filepath.Join("..", "..", pkg))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			out = append(out, n)
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// renderers are the packages that render and parse for every agent alike:
// where agentty differs, the gate asks its client (client.StoreKeeper) and
// hands them the answer, so they never look at agentty's own data.
var renderers = []string{"report", "cmd/mcp-guard", "client/words"}

// TestRenderersDoNotBranchOnAgentty fails when report or the command line
// selects a field or function named for agentty (ClientServer.Agentty,
// State.Agentty, gate.AgenttyEntry, client.AgenttyWords): a branch that
// names it rather than one path for every agent.
func TestRenderersDoNotBranchOnAgentty(t *testing.T) {
	for _, pkg := range renderers {
		for _, name := range sources(t, pkg) {
			for _, bad := range agenttySelectors(t, filepath.Join("..", "..", pkg, name)) {
				t.Errorf("%s/%s:%d selects %s: make agentty's difference a method of its client (client.StoreKeeper) and hand its answer over", pkg, name, bad.line, bad.what)
			}
		}
	}
}

// TestTheAgenttyCheckCatches: the check finds a field and a function
// named for agentty, and leaves other names alone.
func TestTheAgenttyCheckCatches(t *testing.T) {
	src := `package x
func f(cs, st, o any) {
	_ = cs.Agentty
	_ = o.Entry.Agentty != nil
	_ = gate.AgenttyEntry
	_ = cs.Name
	_ = agentty
	_ = g.InspectionGated()
	_ = res.Forgotten
	_, _ = trust.Inspect(dir, nil)
	_, _ = gate.Inspect(dir, env)
}
`
	var got []string
	for _, b := range agenttySelectors(t, sourceFile(t, src)) {
		got = append(got, b.what)
	}
	if want := []string{"cs.Agentty", "o.Entry.Agentty", "gate.AgenttyEntry", "g.InspectionGated", "res.Forgotten", "trust.Inspect"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("caught %q, want %q", got, want)
	}
}

// agenttyTrack are the names of agentty's own track that the one path
// replaced (issue 20): a renderer that selects one again reads agentty's
// data beside the one list of agents. Where agentty differs, the gate
// hands its answer over in a ClientView (Inspection, Store, Ungated) and
// its client's methods (client.StoreKeeper) say the rest.
var agenttyTrack = map[string]bool{
	"InspectionGated":  true, // gate.View: status asks View.Shown
	"Forgotten":        true, // gate.Revocation: one Servers list
	"StillBlanket":     true, // gate.Revocation: Still, in the client's words
	"WholeFileChanged": true, // gate.Revocation: Whole
	"RevokeStore":      true, // client.StoreKeeper: Revoke
	"Keeper":           true, // client.Keeper: the gate asks it, renderers never
	"StorePath":        true, // trust.Inspection: ClientView.Store
	"AddReviewState":   true, // report: NewStatusDoc, one entry per agent
	"AddClients":       true,
	"AddAgents":        true,
	"trust.Inspect":    true, // cmd reads agentty's configuration through the gate (gate.Inspect)
	"trust.Inspected":  true,
}

func agenttySelectors(t *testing.T, path string) []spelling {
	fset, file := parse(t, path)
	var out []spelling
	ast.Inspect(file, func(n ast.Node) bool {
		s, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if text := exprText(s); strings.HasPrefix(s.Sel.Name, "Agentty") || agenttyTrack[s.Sel.Name] || agenttyTrack[text] {
			out = append(out, spelling{fset.Position(s.Pos()).Line, text, "agentty"})
		}
		return true
	})
	return out
}

// TestStatusIsOneListOfAgents fails when the status document grows a
// top-level field again (version 1 had agentty's config, servers and
// findings there): every agent's facts are in its entry.
func TestStatusIsOneListOfAgents(t *testing.T) {
	want := map[string]bool{"version": true, "agents": true, "notes": true}
	typ := reflect.TypeOf(report.StatusDoc{})
	for i := 0; i < typ.NumField(); i++ {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if !want[name] {
			t.Errorf("report.StatusDoc has the top-level field %s (%q): put it in the agent's entry (report.StatusDocAgent)", typ.Field(i).Name, name)
		}
	}
}

// exprText is a selector chain as written ("o.Entry.Agentty").
func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprText(e.X) + "." + e.Sel.Name
	}
	return "…"
}

// agenttyReaders are trust's readers of agentty's own files: its
// configuration (trust.Parse, Discover, Inspect, Inspected), its approvals
// store, and its other JSON files (DecodeFirst). agentty's client reads
// them (client/agentty.go: Parse, State, Grants, AgenttyFile) and every
// other package asks it, as it asks every other client.
var agenttyReaders = []string{"Parse", "Discover", "Inspect", "Inspected", "LoadUserApprovals", "LoadApprovals", "DecodeFirst", "DecodeDialect", "DecodeUserDialect"}

// readerDebt are the iterating files that still call one of
// agenttyReaders, each with the readers it may call and why.
var readerDebt = map[string][]string{
	// The gate's inspection of the one configuration agentty reads in a
	// launch directory, and adopt's read of agentty's store: the gate
	// evaluates agentty through trust's reproduction of its rules, and
	// moving that into its client is the gate's own change.
	"gate/gate.go":  {"trust.Discover", "trust.Inspected"},
	"gate/adopt.go": {"trust.LoadUserApprovals"},
	// What status shows when the gate could not be evaluated: agentty's
	// configuration as trust reproduces agentty's reading, with no review
	// state (gate.Inspect, Ungated).
	"gate/agentty.go": {"trust.Inspect"},
	// scan --user reads the user's own configuration, in user scope,
	// which agentty's client (a project configuration) does not parse.
	"cmd/mcp-guard/scan.go": {"trust.Parse"},
}

// TestAgenttyFilesReadThroughItsClient: the packages that iterate the
// registry read agentty's files through its client, not with trust's
// readers of them (one reader per file, for agentty too: the hook's
// grants, a plain directory's configuration, the rules on hooks.json and
// acp-agents.json).
func TestAgenttyFilesReadThroughItsClient(t *testing.T) {
	var found []use
	for pkg := range iterating {
		for _, name := range sources(t, pkg) {
			for _, s := range trustReaders(t, filepath.Join("..", "..", pkg, name)) {
				found = append(found, use{pkg + "/" + name, s.line, "trust." + s.what})
			}
		}
	}
	holdTo(t, found, readerDebt, "readerDebt", "read agentty's file through its client (client.Keeper(), client.Lookup, client.AgenttyFile)")
}

// use is one call a check found: where, and what it calls.
type use struct {
	file string
	line int
	what string
}

// holdTo fails on every use found that debt (named name) does not allow
// its file, saying fix, and on every entry of debt no longer used.
func holdTo(t *testing.T, found []use, debt map[string][]string, name, fix string) {
	t.Helper()
	used := map[string]bool{}
	for _, u := range found {
		if contains(debt[u.file], u.what) {
			used[u.file+" "+u.what] = true
			continue
		}
		t.Errorf("%s:%d calls %s: %s", u.file, u.line, u.what, fix)
	}
	for f, whats := range debt {
		for _, w := range whats {
			if !used[f+" "+w] {
				t.Errorf("%s lists %s in %s, which no longer calls it: remove it", name, w, f)
			}
		}
	}
}

// TestTheReaderCheckCatches: the check finds a call of one of trust's
// readers of agentty's files and leaves trust's other functions alone.
func TestTheReaderCheckCatches(t *testing.T) {
	src := `package x
func f(p string, b []byte) {
	_ = trust.Parse(p, b, trust.ScopeProject)
	_ = trust.LoadUserApprovals(nil).Approved
	_ = trust.NewFinding("MG1", p, trust.Pos{}, "", "", "")
	_ = client.Lookup("x").Parse(p, b)
}
`
	var got []string
	for _, b := range trustReaders(t, sourceFile(t, src)) {
		got = append(got, b.what)
	}
	if want := []string{"Parse", "LoadUserApprovals"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("caught %q, want %q", got, want)
	}
}

func trustReaders(t *testing.T, path string) []spelling {
	fset, file := parse(t, path)
	var out []spelling
	ast.Inspect(file, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok && x.Name == "trust" && contains(agenttyReaders, s.Sel.Name) {
				out = append(out, spelling{fset.Position(s.Pos()).Line, s.Sel.Name, "agentty"})
			}
		}
		return true
	})
	return out
}

// sourceFile writes src to a Go file of its own, for the tests that hold
// a check to what it must catch.
func sourceFile(t *testing.T, src string) string {
	p := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// ownDecoders are the policy files that decode bytes themselves, each
// with the decoders it calls and why: none of them is a file a client
// reads (docs/architecture.md, "One reader per file"). Shrink it; never
// grow it with a client's file.
var ownDecoders = map[string][]string{
	// mcp-guard's own baseline file.
	"policy/baseline.go": {"json.Unmarshal"},
	// mcp-guard's own .mcp-guard.yaml.
	"policy/ignorefile.go": {"yaml.NewDecoder"},
	// CI workflows: the CI runner reads them, no client model does.
	"policy/ciworkflow.go": {"yaml.NewDecoder"},
}

// TestPolicyReadsClientFilesThroughTheirClient keeps one reader per
// file: policy reads a file a client reads through that client's model
// (client.ClaudeSettings, client.AgenttyFile, a client's Parse, …); no
// policy file decodes JSON, YAML or TOML itself or calls trust's readers
// (trust.Parse, DecodeDialect, DecodeFirst), except ownDecoders.
func TestPolicyReadsClientFilesThroughTheirClient(t *testing.T) {
	var found []use
	for _, name := range sources(t, "policy") {
		found = append(found, ownDecodes(t, filepath.Join("..", "..", "policy", name), "policy/"+name)...)
	}
	if len(found) == 0 {
		t.Fatal("no decoding call found in policy: the check is broken")
	}
	holdTo(t, found, ownDecoders, "ownDecoders", "read the file through its client model's reader (or, for a file no client reads, say why in ownDecoders and docs/architecture.md)")
}

// TestTheDecodeCheckCatches: ownDecodes finds each way of decoding a file
// in policy and leaves encoding alone.
func TestTheDecodeCheckCatches(t *testing.T) {
	src := `package x
import (
	"encoding/json"
	yml "go.yaml.in/yaml/v3"
	"github.com/pelletier/go-toml/v2"
)
func f(b []byte, v any) {
	_ = json.Unmarshal(b, v)
	_ = json.NewDecoder(nil)
	_ = json.NewEncoder(nil)
	_ = yml.Unmarshal(b, v)
	_ = toml.Unmarshal(b, v)
	_ = trust.Parse("p", b, trust.ScopeProject)
	_ = trust.DecodeFirst(b)
	_ = client.AgenttyFile(b)
}
`
	var got []string
	for _, u := range ownDecodes(t, sourceFile(t, src), "x.go") {
		got = append(got, u.what)
	}
	if want := "json.Unmarshal|json.NewDecoder|yaml.Unmarshal|toml.Unmarshal|trust.Parse|trust.DecodeFirst"; strings.Join(got, "|") != want {
		t.Errorf("caught %s, want %s", got, want)
	}
}

// ownDecodes lists the decoding calls in the Go file at path (named
// name), as "json.Unmarshal", "yaml.NewDecoder", "toml.X", "trust.Parse"
// (whatever the import's local name).
func ownDecodes(t *testing.T, path, name string) []use {
	fset, f := parse(t, path)
	pkgs := map[string]string{} // local name -> json, yaml, toml
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		var kind, name string
		switch {
		case p == "encoding/json":
			kind, name = "json", "json"
		case strings.Contains(p, "yaml"):
			kind, name = "yaml", "yaml"
		case strings.Contains(p, "toml"):
			kind, name = "toml", "toml"
		default:
			continue
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		pkgs[name] = kind
	}
	decoders := map[string][]string{
		"json":  {"Unmarshal", "NewDecoder", "Valid"},
		"yaml":  {"Unmarshal", "NewDecoder"},
		"trust": {"Parse", "DecodeDialect", "DecodeFirst"},
	}
	var out []use
	ast.Inspect(f, func(n ast.Node) bool {
		s, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := s.X.(*ast.Ident)
		if !ok {
			return true
		}
		kind := pkgs[x.Name]
		if x.Name == "trust" {
			kind = "trust"
		}
		if kind == "toml" || slices.Contains(decoders[kind], s.Sel.Name) {
			out = append(out, use{name, fset.Position(s.Pos()).Line, kind + "." + s.Sel.Name})
		}
		return true
	})
	return out
}

// directParses are the files that call a client's Parse themselves, not
// through client.ParseFile (which applies trust.Bounded, the limit on the
// entries one repository file may declare), each with why.
var directParses = map[string][]string{
	// ParseFile itself.
	"client/client.go": {"Parse"},
	// CodexHookHash (fidelity tests, scan) parses a hooks file to hash one
	// hook as Codex does and returns only that string: Codex's Parse is
	// still held to the repository value budget (trust.ValueBudget), and
	// nothing built past trust.MaxServers entries outlives the call.
	"client/codex_hooks.go": {"Parse"},
	// policy's synthetic configuration: a file policy builds itself from
	// agentty's keys to run the server rules on, not a repository file.
	"policy/surface.go": {"Parse"},
}

// TestRepositoryFilesParseThroughParseFile: no package calls a client's
// Parse(path, data) itself, so that every repository file a client reads
// is held to trust.Bounded (client.ParseFile), except directParses. (The
// launch's read-back of mcp-guard's own vetted file is client.ReadVetted,
// which calls no client's Parse.)
func TestRepositoryFilesParseThroughParseFile(t *testing.T) {
	var found []use
	for _, pkg := range modulePackages(t) {
		for _, name := range sources(t, pkg) {
			found = append(found, clientParses(t, filepath.Join("..", "..", pkg, name), pkg+"/"+name)...)
		}
	}
	holdTo(t, found, directParses, "directParses", "parse a repository file with client.ParseFile (or, for a file that is not a repository's, say why in directParses)")
}

// TestTheParseCheckCatches: clientParses finds a client's Parse called
// directly and leaves other Parse methods (a package's, a shell parser's)
// and ParseFile alone.
func TestTheParseCheckCatches(t *testing.T) {
	src := `package x
import "net/url"
func f(c client.Client, p string, b []byte) {
	_ = c.Parse(p, b)
	_ = client.Lookup("x").Parse(p, b)
	_ = client.ParseFile(c, p, b)
	_, _ = url.Parse(p)
	_, _ = time.Parse(p, p)
	_, _ = syntax.NewParser().Parse(nil, "")
}
`
	if got := clientParses(t, sourceFile(t, src), "x.go"); len(got) != 2 || got[0].line != 4 || got[1].line != 5 {
		t.Errorf("caught %v, want the calls on lines 4 and 5", got)
	}
}

// clientParses lists the calls X.Parse(a, b) in the Go file at path whose
// X is not a package (url.Parse, time.Parse) nor a parser built in place
// (syntax.NewParser().Parse): a client's Parse.
func clientParses(t *testing.T, path, name string) []use {
	fset, f := parse(t, path)
	var out []use
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Parse" {
			return true
		}
		switch x := sel.X.(type) {
		case *ast.Ident:
			if imported(f, x.Name) {
				return true
			}
		case *ast.CallExpr:
			if s, ok := x.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "NewParser" {
				return true
			}
		}
		out = append(out, use{name, fset.Position(call.Pos()).Line, "Parse"})
		return true
	})
	return out
}

// imported reports whether name is a package f imports (by its local name
// or its path's last element) or one of the standard ones a file may use
// unimported in a test source.
func imported(f *ast.File, name string) bool {
	if name == "time" || name == "url" || name == "strconv" {
		return true
	}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if im.Name != nil && im.Name.Name == name || im.Name == nil && filepath.Base(p) == name {
			return true
		}
	}
	return false
}

// modulePackages are the module's directories holding Go sources, from
// the module root (testdata and hidden directories left out).
func modulePackages(t *testing.T) []string {
	root := filepath.Join("..", "..")
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); p != root && (n == "testdata" || strings.HasPrefix(n, ".")) {
			return filepath.SkipDir
		}
		if rel, _ := filepath.Rel(root, p); rel != "." && len(sources(t, rel)) > 0 {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("found %d packages: the walk is broken", len(out))
	}
	return out
}
