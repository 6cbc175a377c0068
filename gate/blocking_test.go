package gate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/trust"
)

// TestBlockingSharesOnlyAWholeList: when every server blocks, Blocking
// is the view's own list without a copy (a configuration of 100,000
// unreviewed servers), capped so that appending to it leaves the view
// alone; when some do not, it is a list of its own.
func TestBlockingSharesOnlyAWholeList(t *testing.T) {
	srv := &trust.Server{Command: "node"}
	cs := func(name string, blocks bool) ClientServer {
		return ClientServer{ServerVerdict: client.ServerVerdict{Name: name, Server: srv}, Blocks: blocks, Runs: true}
	}
	servers := make([]ClientServer, 0, 8)
	servers = append(servers, cs("a", true), cs("b", true), cs("c", true))
	cv := &ClientView{Client: client.Gemini, Servers: servers}
	if n := testing.AllocsPerRun(10, func() { cv.Blocking(false) }); n != 0 {
		t.Errorf("Blocking copied a list where every server blocks: %v allocations", n)
	}
	b := cv.Blocking(false)
	_ = append(b, cs("d", true))
	if got := cv.Servers[:cap(cv.Servers)][3].Name; got != "" {
		t.Errorf("appending to Blocking's list wrote into the view: %q", got)
	}
	cv.Servers[1].Blocks = false
	b = cv.Blocking(false)
	if names := []string{b[0].Name, b[1].Name}; len(b) != 2 || !slices.Equal(names, []string{"a", "c"}) {
		t.Errorf("Blocking = %+v", b)
	}
	b[0].Name = "x"
	if cv.Servers[0].Name != "a" {
		t.Error("a partial Blocking list shares the view's entries")
	}
}

// TestQualifyNamesOnlyWhatTwoConfigsShare: In is set on the entries whose
// name another config of the client also has, and only on them.
func TestQualifyNamesOnlyWhatTwoConfigsShare(t *testing.T) {
	at := func(name, config string) ClientServer {
		return ClientServer{ServerVerdict: client.ServerVerdict{Name: name}, Config: config}
	}
	cv := &ClientView{Servers: []ClientServer{at("a", "x"), at("b", "x"), at("a", "y"), at("c", "y"), at("c", "y")}}
	cv.qualify()
	var got []string
	for _, s := range cv.Servers {
		got = append(got, s.In)
	}
	if want := []string{"x", "", "y", "", ""}; !slices.Equal(got, want) {
		t.Errorf("In = %q, want %q", got, want)
	}
}

// TestWriteFixForATooLargeLedger: a ledger that would grow past what is
// read is resolved by deciding about fewer servers, not by making a
// directory writable.
func TestWriteFixForATooLargeLedger(t *testing.T) {
	v := &View{LedgerDir: "/h/.local/state/mcp-guard", Ledger: &trust.Ledger{}}
	if got := v.writeFix(fmt.Errorf("x: %w", trust.ErrTooLarge)); !strings.Contains(got, "fewer servers") || strings.Contains(got, "writable") {
		t.Errorf("too large: %q", got)
	}
	if got := v.writeFix(errors.New("permission denied")); !strings.Contains(got, "writable") {
		t.Errorf("unwritable: %q", got)
	}
}
