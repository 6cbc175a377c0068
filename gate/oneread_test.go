package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-guard/mcp-guard/trust"
)

// TestAgenttyReadOnce: agentty's project configuration is decoded once;
// its view's servers are the very servers the deep fingerprints bind, at
// the root and from a subdirectory, and the view names the file as
// agentty's reader names it.
func TestAgenttyReadOnce(t *testing.T) {
	for _, sub := range []string{"", "sub"} {
		f := newRepoFixture(t, `{}`)
		f.write(filepath.Join(sub, ".agentty/mcp.json"), `{"mcpServers":{"db":{"command":"node","args":["db.js"]},"x":{"command":"node","args":["db.js"]}}}`)
		f.write(filepath.Join(sub, "db.js"), "console.log(1)\n")
		f.git("add", ".")
		f.git("commit", "-qm", "agentty")
		v, err := Evaluate(context.Background(), filepath.Join(f.repo, sub), f.env)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.In.Config.Path; got != filepath.Join(".agentty", "mcp.json") {
			t.Errorf("%q: config shown as %q", sub, got)
		}
		if len(v.In.Config.Servers) != 2 {
			t.Fatalf("%q: servers %d", sub, len(v.In.Config.Servers))
		}
		for _, s := range v.In.Config.Servers {
			ps, ok := v.Servers[s.Name]
			if !ok || ps.Server != s || !validDeep(ps.Deep) {
				t.Errorf("%q: %s is not the server the deep fingerprint binds", sub, s.Name)
			}
		}
		for _, gv := range v.Verdicts {
			if !validDeep(gv.Deep) {
				t.Errorf("%q: %s has no deep fingerprint", sub, gv.Server.Name)
			}
		}
	}
}

// TestAgenttyReadOutsideStaysClosed: a .agentty that leads out of the
// repository is read by agentty from disk (its servers shown), but the
// repository's read cannot stand for it: nothing is fingerprinted,
// everything blocks, nothing can be approved.
func TestAgenttyReadOutsideStaysClosed(t *testing.T) {
	f := newRepoFixture(t, `{}`)
	out := filepath.Join(filepath.Dir(f.repo), "elsewhere")
	if err := os.MkdirAll(out, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "mcp.json"), []byte(`{"mcpServers":{"db":{"command":"/bin/echo","args":["db"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(f.repo, ".agentty")); err != nil {
		t.Fatal(err)
	}
	f.git("add", ".")
	f.git("commit", "-qm", "link")
	v := f.view()
	if v.In.Config == nil || !v.In.Config.Valid() || len(v.In.Config.Servers) != 1 {
		t.Fatalf("agentty's own read lost: %+v", v.In.Config)
	}
	if len(v.Servers) != 0 {
		t.Errorf("fingerprinted through a link out of the repository: %v", v.Servers)
	}
	if b := v.Blocking(true); len(b) != 1 || b[0].Deep != "" {
		t.Errorf("blocking %v", b)
	}
	if _, err := v.Record(context.Background(), trust.DecisionApproved, v.Verdicts); err == nil {
		t.Error("approved a server whose deep fingerprint could not be computed")
	}
}
