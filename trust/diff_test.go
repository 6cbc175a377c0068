package trust

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// projectConfig parses s as the project config at path (nil for "-").
func projectConfig(path, s string) *Config {
	if s == "-" {
		return nil
	}
	return Parse(path, []byte(s), ScopeProject)
}

// grantsOf approves exactly the given hashes.
func grantsOf(hashes ...string) Grants {
	set := map[string]bool{}
	for _, h := range hashes {
		set[h] = true
	}
	return Grants{Approved: func(h string) bool { return set[h] }}
}

// summary renders changes as "name:change:impact" in result order.
func summary(cs []Change) string {
	var parts []string
	for _, c := range cs {
		s := c.Server + ":" + string(c.Change) + ":" + string(c.Impact)
		if c.OldName != "" {
			s += "<" + c.OldName
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func fields(c Change) string {
	var parts []string
	for _, f := range c.Fields {
		parts = append(parts, fmt.Sprintf("%s:%s>%s", f.Field, f.Old, f.New))
	}
	return strings.Join(parts, " ")
}

const (
	cfgDate     = `{"mcpServers":{"date":{"command":"/bin/date"}}}`
	fpDate      = "f9789ee6caebd37907047c1f2615662be8e7fd04472fe07ef63518df91463df5" // spec vector V1
	cfgNode     = `{"mcpServers":{"srv":{"command":"node","args":["server.js"]}}}`
	cfgNodeEnv  = `{"mcpServers":{"srv":{"command":"node","args":["server.js"],"env":{"NODE_OPTIONS":"--require ./x.js"}}}}`
	cfgNodeNum  = `{"mcpServers":{"srv":{"command":"node","args":["server.js",8080]}}}`
	cfgNodeNUL  = `{"mcpServers":{"srv":{"command":"node","args":["server.js\u0000--inspect"]}}}`
	cfgNodeNUL2 = `{"mcpServers":{"srv":{"command":"node","args":["server.js","--inspect"]}}}`
	cfgNodeTA   = `{"mcpServers":{"srv":{"command":"node","args":["server.js"],"trustAnnotations":true}}}`
	cfgNodeEvil = `{"mcpServers":{"srv":{"command":"node","args":["evil.js"]}}}`
	cfgNodeOff  = `{"mcpServers":{"srv":{"command":"node","args":["server.js"],"disabled":true}}}`
	cfgNodeOffS = `{"mcpServers":{"srv":{"command":"node","args":["server.js"],"disabled":"true"}}}`
	cfgRenamed  = `{"mcpServers":{"svc":{"command":"node","args":["server.js"]}}}`
	cfgHTTP     = `{"mcpServers":{"web":{"url":"https://a.example/mcp"}}}`
	cfgHTTP2    = `{"mcpServers":{"web":{"url":"https://b.example/mcp"}}}`
	cfgInvalid  = `{"mcpServers":{"srv":{"command":1}}}`
)

func fpOf(t *testing.T, cfg, name string) string {
	t.Helper()
	return projectConfig(".agentty/mcp.json", cfg).Server(name).Fingerprint
}

func TestDiffImpacts(t *testing.T) {
	fpNode := fpOf(t, cfgNode, "srv")
	fpEvil := fpOf(t, cfgNodeEvil, "srv")
	if fpOf(t, cfgNodeNUL, "srv") != fpOf(t, cfgNodeNUL2, "srv") {
		t.Fatal("test premise: the NUL vector should collide")
	}
	fileV1 := Files{"srv": {{Path: "server.js", Object: Object{Mode: "100644", ID: "1111"}}}}
	fileV2 := Files{"srv": {{Path: "server.js", Object: Object{Mode: "100644", ID: "2222"}}}}
	tests := []struct {
		name           string
		old, new       string
		oldF, newF     Files
		grants         Grants
		want           string
		wantFields     string // of the first change, when set
		wantFileChange bool
	}{
		{name: "identical, approved", old: cfgNode, new: cfgNode, grants: grantsOf(fpNode), want: "srv:unchanged:unchanged"},
		{name: "identical, pending", old: cfgNode, new: cfgNode, want: "srv:unchanged:unchanged"},
		{name: "command swapped, was approved", old: cfgNode, new: cfgNodeEvil, grants: grantsOf(fpNode),
			want: "srv:changed:invalidated", wantFields: `args[0]:"server.js">"evil.js"`},
		{name: "command swapped, never approved", old: cfgNode, new: cfgNodeEvil, want: "srv:changed:new-unapproved"},
		{name: "command swapped to an approved spec", old: cfgNode, new: cfgNodeEvil, grants: grantsOf(fpNode, fpEvil), want: "srv:changed:new-preapproved"},
		{name: "swap to approved spec from pending", old: cfgNode, new: cfgNodeEvil, grants: grantsOf(fpEvil), want: "srv:changed:new-preapproved"},
		{name: "env added to approved", old: cfgNode, new: cfgNodeEnv, grants: grantsOf(fpNode),
			want: "srv:changed:trust-preserving", wantFields: `env.NODE_OPTIONS:>"--require ./x.js"`},
		{name: "env added to pending", old: cfgNode, new: cfgNodeEnv, want: "srv:changed:new-unapproved"},
		{name: "non-string arg added", old: cfgNode, new: cfgNodeNum, grants: grantsOf(fpNode),
			want: "srv:changed:trust-preserving", wantFields: `args[1]:>8080`},
		{name: "NUL trick", old: cfgNodeNUL2, new: cfgNodeNUL, grants: grantsOf(fpOf(t, cfgNodeNUL2, "srv")),
			want: "srv:changed:trust-preserving"},
		{name: "trustAnnotations", old: cfgNode, new: cfgNodeTA, grants: grantsOf(fpNode), want: "srv:changed:trust-preserving",
			wantFields: `trustAnnotations:>true`},
		{name: "file content changed", old: cfgNode, new: cfgNode, oldF: fileV1, newF: fileV2, grants: grantsOf(fpNode),
			want: "srv:changed:trust-preserving", wantFileChange: true},
		{name: "file content changed, pending", old: cfgNode, new: cfgNode, oldF: fileV1, newF: fileV2, want: "srv:changed:new-unapproved", wantFileChange: true},
		{name: "file appears", old: cfgNode, new: cfgNode, newF: fileV1, grants: grantsOf(fpNode), want: "srv:changed:trust-preserving", wantFileChange: true},
		{name: "blanket env, fingerprint changed", old: cfgNode, new: cfgNodeEvil, grants: Grants{AllowProject: "yes"}, want: "srv:changed:trust-preserving"},
		{name: "blanket env, added", old: "-", new: cfgNode, grants: Grants{AllowProject: "1"}, want: "srv:added:new-preapproved"},
		{name: "blanket env off for 'on'", old: "-", new: cfgNode, grants: Grants{AllowProject: "on"}, want: "srv:added:new-unapproved"},
		{name: "added", old: "-", new: cfgNode, want: "srv:added:new-unapproved"},
		{name: "added, approved elsewhere", old: cfgDate, new: cfgNode, grants: grantsOf(fpNode), want: "srv:added:new-preapproved date:removed:removed"},
		{name: "removed", old: cfgNode, new: "-", grants: grantsOf(fpNode), want: "srv:removed:removed"},
		{name: "renamed, approved", old: cfgNode, new: cfgRenamed, grants: grantsOf(fpNode), want: "svc:renamed:trust-preserving<srv"},
		{name: "renamed, pending", old: cfgNode, new: cfgRenamed, want: "svc:renamed:new-unapproved<srv"},
		{name: "disabled now", old: cfgNode, new: cfgNodeOff, grants: grantsOf(fpNode), want: "srv:changed:removed"},
		{name: "enabled again", old: cfgNodeOff, new: cfgNode, want: "srv:changed:new-unapproved"},
		{name: "enabled again, approved", old: cfgNodeOff, new: cfgNode, grants: grantsOf(fpNode), want: "srv:changed:new-preapproved"},
		{name: "disabled as a string still runs", old: cfgNode, new: cfgNodeOffS, grants: grantsOf(fpNode), want: "srv:changed:trust-preserving"},
		{name: "http url changed", old: cfgHTTP, new: cfgHTTP2, want: "web:changed:trust-preserving"},
		{name: "http added", old: "-", new: cfgHTTP, want: "web:added:new-preapproved"},
		{name: "config becomes invalid", old: cfgNode, new: cfgInvalid, grants: grantsOf(fpNode), want: "srv:removed:removed"},
		{name: "config becomes valid", old: cfgInvalid, new: cfgNode, want: "srv:added:new-unapproved"},
		{name: "both absent", old: "-", new: "-", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := projectConfig(".agentty/mcp.json", tt.old)
			new := projectConfig(".agentty/mcp.json", tt.new)
			got := Diff(old, new, tt.oldF, tt.newF, tt.grants)
			if s := summary(got); s != tt.want {
				t.Fatalf("Diff = %q, want %q", s, tt.want)
			}
			if len(got) == 0 {
				return
			}
			c := got[0]
			if tt.wantFields != "" && fields(c) != tt.wantFields {
				t.Errorf("fields = %q, want %q", fields(c), tt.wantFields)
			}
			if tt.wantFileChange != (len(c.Files) > 0) {
				t.Errorf("files = %+v, want a change: %v", c.Files, tt.wantFileChange)
			}
			if c.Impact != ImpactUnchanged && len(c.Reasons) == 0 {
				t.Errorf("impact %s without reasons", c.Impact)
			}
			if c.Change == ChangeChanged && c.OldDeep == c.NewDeep {
				t.Errorf("%s change with equal deep fingerprints %s", c.Change, c.OldDeep)
			}
			if c.Change == ChangeUnchanged && c.OldDeep != c.NewDeep {
				t.Errorf("unchanged with different deep fingerprints")
			}
		})
	}
}

// TestDiffReasonsAreTrue: a reason claims only what happened (issue 14:
// "the fingerprint stayed the same" said of an http url whose fingerprint
// changed; a removed `"type": "http"` beside a url reported as
// trust-preserving although agentty picks http from the url either way).
func TestDiffReasonsAreTrue(t *testing.T) {
	fpNode := fpOf(t, cfgNode, "srv")
	tests := []struct {
		name, old, new string
		grants         Grants
		want           string
		reason         string // a substring of some reason
		notReason      string // a substring no reason has
	}{
		{name: "http url changed", old: cfgHTTP, new: cfgHTTP2, want: "web:changed:trust-preserving",
			reason: "url changed: agentty connects to the new address without asking", notReason: "stayed the same"},
		{name: "blanket env, command changed", old: cfgNode, new: cfgNodeEvil, grants: Grants{AllowProject: "1"}, want: "srv:changed:trust-preserving",
			reason: "args[0] changed, and so did the fingerprint, yet AGENTTY_MCP_ALLOW_PROJECT", notReason: "stayed the same"},
		{name: "NUL trick", old: cfgNodeNUL2, new: cfgNodeNUL, grants: grantsOf(fpOf(t, cfgNodeNUL2, "srv")), want: "srv:changed:trust-preserving",
			reason: "stayed the same"},
		{name: "type http removed beside a url", old: `{"mcpServers":{"web":{"type":"http","url":"https://a.example/mcp"}}}`, new: cfgHTTP,
			want: "web:changed:unchanged", reason: "type removed, but agentty still uses http (the url decides)"},
		{name: "type http added beside a url", old: cfgHTTP, new: `{"mcpServers":{"web":{"type":"http","url":"https://a.example/mcp"}}}`,
			want: "web:changed:unchanged", reason: "type added"},
		{name: "type stdio removed, approved", old: `{"mcpServers":{"srv":{"type":"stdio","command":"node","args":["server.js"]}}}`, new: cfgNode,
			grants: grantsOf(fpNode), want: "srv:changed:unchanged", reason: "still uses stdio"},
		{name: "type sse to http beside a url", old: `{"mcpServers":{"web":{"type":"sse","url":"https://a.example/mcp"}}}`, new: cfgHTTP,
			want: "web:changed:trust-preserving", reason: "type changed: agentty's fingerprint does not cover it"},
		{name: "type and url changed", old: `{"mcpServers":{"web":{"type":"http","url":"https://a.example/mcp"}}}`, new: cfgHTTP2,
			want: "web:changed:trust-preserving", reason: "url changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(projectConfig(".agentty/mcp.json", tt.old), projectConfig(".agentty/mcp.json", tt.new), nil, nil, tt.grants)
			if s := summary(got); s != tt.want {
				t.Fatalf("Diff = %q, want %q", s, tt.want)
			}
			all := strings.Join(got[0].Reasons, "\n")
			if !strings.Contains(all, tt.reason) {
				t.Errorf("reasons %q lack %q", all, tt.reason)
			}
			if tt.notReason != "" && strings.Contains(all, tt.notReason) {
				t.Errorf("reasons %q claim %q", all, tt.notReason)
			}
		})
	}
}

func TestDiffWholeFileApproval(t *testing.T) {
	old := projectConfig(".agentty/mcp.json", `{"mcpServers":{"a":{"command":"/bin/a"},"b":{"command":"/bin/b"}}}`)
	// Only b changes, but any byte of the file revokes the whole-file
	// approval: a is unchanged and invalidated.
	new := projectConfig(".agentty/mcp.json", `{"mcpServers":{"a":{"command":"/bin/a"},"b":{"command":"/bin/b2"}}}`)
	got := summary(Diff(old, new, nil, nil, grantsOf(old.SHA256)))
	if want := "a:unchanged:invalidated b:changed:invalidated"; got != want {
		t.Errorf("whole-file: %q, want %q", got, want)
	}
	// White space alone revokes it too.
	ws := projectConfig(".agentty/mcp.json", strings.Replace(old.rootText(), ",", " ,", 1))
	got = summary(Diff(old, ws, nil, nil, grantsOf(old.SHA256)))
	if want := "a:unchanged:invalidated b:unchanged:invalidated"; got != want {
		t.Errorf("white space: %q, want %q", got, want)
	}
	// With the per-server approval of a kept, a survives.
	got = summary(Diff(old, new, nil, nil, grantsOf(old.SHA256, old.Server("a").Fingerprint)))
	if want := "b:changed:invalidated a:unchanged:unchanged"; got != want {
		t.Errorf("whole-file plus a: %q, want %q", got, want)
	}
	// Both files approved whole: the change keeps running unasked.
	got = summary(Diff(old, new, nil, nil, grantsOf(old.SHA256, new.SHA256)))
	if want := "b:changed:trust-preserving a:unchanged:unchanged"; got != want {
		t.Errorf("both approved whole: %q, want %q", got, want)
	}
}

func TestDiffOrderTrustPreservingFirst(t *testing.T) {
	old := projectConfig(".agentty/mcp.json", `{"mcpServers":{"a":{"command":"x"},"b":{"command":"y"},"z":{"command":"z"}}}`)
	new := projectConfig(".agentty/mcp.json", `{"mcpServers":{"a":{"command":"x2"},"b":{"command":"y","env":{"A":"1"}},"c":{"command":"c"}}}`)
	g := grantsOf(old.Server("a").Fingerprint, old.Server("b").Fingerprint, old.Server("z").Fingerprint)
	got := summary(Diff(old, new, nil, nil, g))
	want := "b:changed:trust-preserving a:changed:invalidated c:added:new-unapproved z:removed:removed"
	if got != want {
		t.Errorf("order: %q, want %q", got, want)
	}
}

func TestDiffFilesAreThePerServerOnes(t *testing.T) {
	path := "sub/.agentty/mcp.json"
	old := projectConfig(path, cfgNode)
	new := projectConfig(path, cfgNode)
	// Another server's files are not what srv runs.
	other := Files{"other": {{Path: "sub/server.js", Object: Object{Mode: "100644", ID: "2"}}}}
	if got := summary(Diff(old, new, Files{"other": {{Path: "sub/server.js", Object: Object{Mode: "100644", ID: "1"}}}}, other, Grants{})); got != "srv:unchanged:unchanged" {
		t.Errorf("another server's file changed: %q", got)
	}
	got := Diff(old, new, Files{"srv": {{Path: "sub/server.js", Object: Object{Mode: "100644", ID: "1"}}}},
		Files{"srv": {{Path: "sub/server.js", Object: Object{Mode: "100755", ID: "1"}}}}, Grants{})
	if summary(got) != "srv:changed:new-unapproved" || len(got[0].Files) != 1 || got[0].Files[0].Path != "sub/server.js" {
		t.Errorf("mode change of sub/server.js: %q %+v", summary(got), got)
	}
}

func TestDiffRenamePairsOnce(t *testing.T) {
	old := projectConfig(".agentty/mcp.json", `{"mcpServers":{"a":{"command":"x"},"b":{"command":"x"}}}`)
	new := projectConfig(".agentty/mcp.json", `{"mcpServers":{"c":{"command":"x"},"d":{"command":"x"},"e":{"command":"x"}}}`)
	got := summary(Diff(old, new, nil, nil, Grants{}))
	want := "c:renamed:new-unapproved<a d:renamed:new-unapproved<b e:added:new-unapproved"
	if got != want {
		t.Errorf("renames: %q, want %q", got, want)
	}
}

func TestDiffFieldDetail(t *testing.T) {
	old := projectConfig(".agentty/mcp.json", `{"mcpServers":{"s":{"command":"c","args":["a","b","c"],"env":{"K":"1","GONE":"x"},"headers":{"A":"1"},"tools":[1,2]}}}`)
	new := projectConfig(".agentty/mcp.json", `{"mcpServers":{"s":{"command":"c","args":["a","B"],"env":{"K":1,"NEW":"y"},"headers":"flat","tools":[1,[2]],"x":{"deep":{"er":1}}}}}`)
	got := Diff(old, new, nil, nil, Grants{})
	want := `args[1]:"b">"B" args[2]:"c"> env.GONE:"x"> env.K:"1">1 env.NEW:>"y" headers:{"A":"1"}>"flat" tools[1]:2>[2] x.deep:>{"er":1}`
	if f := fields(got[0]); f != want {
		t.Errorf("fields:\n got %s\nwant %s", f, want)
	}
}

// TestDiffEmptyContainers: an empty object or array that appears or goes
// is a change (FuzzDiff found `{}` against `{"": {}}` reported unchanged
// while the deep fingerprints, which reviews are bound to, differed).
func TestDiffEmptyContainers(t *testing.T) {
	old := projectConfig(".agentty/mcp.json", `{"mcpServers":{"s":{"command":"c"}}}`)
	new := projectConfig(".agentty/mcp.json", `{"mcpServers":{"s":{"command":"c","args":[],"env":{},"":{}}}}`)
	for _, pair := range [][2]*Config{{old, new}, {new, old}} {
		got := Diff(pair[0], pair[1], nil, nil, Grants{})
		if len(got) != 1 || got[0].Change != ChangeChanged {
			t.Fatalf("%+v", got)
		}
		if got[0].OldDeep == got[0].NewDeep {
			t.Error("equal deep fingerprints")
		}
		want := `:>{} args:>[] env:>{}`
		if pair[0] == new {
			want = `:{}> args:[]> env:{}>`
		}
		if f := fields(got[0]); f != want {
			t.Errorf("fields:\n got %s\nwant %s", f, want)
		}
	}
}

// rootText is the file's text again, for tests that edit it.
func (c *Config) rootText() string { return compactJSON(c.root) }

// FuzzDiff: Diff never panics; a config compared with itself is all
// unchanged; adding and removing are symmetric.
func FuzzDiff(f *testing.F) {
	seeds := []string{cfgDate, cfgNode, cfgNodeEnv, cfgNodeNum, cfgNodeNUL, cfgNodeTA, cfgNodeEvil, cfgNodeOff, cfgRenamed, cfgHTTP, cfgInvalid,
		`{"servers":{"a":{"command":"x","args":[1,{"a":[]}]},"a":{"url":"u"}}}`, `{}`, `[]`, `{"mcpServers":{"":{}}}`}
	for i, a := range seeds {
		f.Add([]byte(a), []byte(seeds[(i+1)%len(seeds)]), uint8(i))
	}
	// The files FuzzParse is seeded with (testdata, hostile fixtures, the
	// real-world corpus), each against the next.
	files := seedFiles()
	for i, a := range files {
		f.Add(a, files[(i+1)%len(files)], uint8(i))
	}
	f.Fuzz(func(t *testing.T, a, b []byte, grant uint8) {
		ca := Parse("x/.agentty/mcp.json", a, ScopeProject)
		cb := Parse("x/.agentty/mcp.json", b, ScopeProject)
		g := Grants{}
		switch grant % 4 {
		case 1:
			g.AllowProject = "1"
		case 2:
			g.Approved = func(string) bool { return true }
		case 3:
			g.Approved = func(h string) bool { return len(h) > 0 && h[0] < '8' }
		}
		files := Files{}
		for _, s := range ca.Servers {
			files[s.Name] = []FileID{{Path: "x/server.js", Object: Object{Mode: "100644", ID: "1"}}, {Path: "x/a/", Object: Object{Mode: "040000", ID: "2"}}}
		}
		for _, c := range Diff(ca, ca, files, files, g) {
			if c.Change != ChangeUnchanged || c.Impact != ImpactUnchanged {
				t.Fatalf("diff(a, a): %s %s %s", c.Server, c.Change, c.Impact)
			}
		}
		ab := Diff(ca, cb, nil, nil, g)
		ba := Diff(cb, ca, nil, nil, g)
		kinds := func(cs []Change, k ChangeKind) []string {
			var out []string
			for _, c := range cs {
				if c.Change == k {
					out = append(out, c.Server)
				}
			}
			sort.Strings(out)
			return out
		}
		if x, y := kinds(ab, ChangeAdded), kinds(ba, ChangeRemoved); fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("added a->b %v, removed b->a %v", x, y)
		}
		if x, y := kinds(ab, ChangeChanged), kinds(ba, ChangeChanged); fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("changed a->b %v, b->a %v", x, y)
		}
		if len(ab) != len(ba) {
			t.Fatalf("%d changes a->b, %d b->a", len(ab), len(ba))
		}
		for _, c := range ab {
			if c.Impact.Rank() > ImpactUnchanged.Rank() {
				t.Fatalf("unknown impact %q", c.Impact)
			}
			if c.Change == ChangeUnchanged && (c.OldDeep != c.NewDeep || c.OldFingerprint != c.NewFingerprint) {
				t.Fatalf("%s unchanged with different fingerprints", c.Server)
			}
			if c.Change == ChangeChanged && c.OldDeep == c.NewDeep {
				t.Fatalf("%s %s with equal deep fingerprints", c.Server, c.Change)
			}
		}
	})
}

// TestDiffRenamePairsLikeTheFirstLeft: renames pair an added server with
// the first removed one left whose entry is the same, in order, over
// mixed forms; and the pairing costs each entry's canonical form once,
// not once per added server (a pull renaming N servers computed N² of
// them: counted by allocations).
func TestDiffRenamePairsLikeTheFirstLeft(t *testing.T) {
	old := projectConfig(".agentty/mcp.json", `{"mcpServers":{"a":{"command":"x"},"b":{"command":"y"},"c":{"command":"x"},"d":{"command":"z"}}}`)
	new := projectConfig(".agentty/mcp.json", `{"mcpServers":{"p":{"command":"x"},"q":{"command":"x"},"r":{"command":"x"},"s":{"command":"y"}}}`)
	got := summary(Diff(old, new, nil, nil, Grants{}))
	want := "p:renamed:new-unapproved<a q:renamed:new-unapproved<c r:added:new-unapproved s:renamed:new-unapproved<b d:removed:removed"
	if got != want {
		t.Errorf("renames: %q, want %q", got, want)
	}
	const n = 400
	var ob, nb strings.Builder
	ob.WriteString(`{"mcpServers":{`)
	nb.WriteString(`{"mcpServers":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			ob.WriteString(",")
			nb.WriteString(",")
		}
		fmt.Fprintf(&ob, `"old%d":{"command":"c%d","args":["-y"]}`, i, n-1-i)
		fmt.Fprintf(&nb, `"new%d":{"command":"c%d","args":["-y"]}`, i, i)
	}
	old = projectConfig(".agentty/mcp.json", ob.String()+"}}")
	new = projectConfig(".agentty/mcp.json", nb.String()+"}}")
	if s := summary(Diff(old, new, nil, nil, Grants{})); strings.Count(s, ":renamed:") != n {
		t.Fatalf("%d renames of %d", strings.Count(s, ":renamed:"), n)
	}
	if a := testing.AllocsPerRun(1, func() { Diff(old, new, nil, nil, Grants{}) }); a > 100*n {
		t.Errorf("renaming %d servers took %.0f allocations: the pairing is not linear", n, a)
	}
}
