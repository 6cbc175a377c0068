package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// TestCountsGroupDigits: every count human output says, in a hint or a
// summary, groups its digits the one way (numfmt.Grouped: "1,000
// servers"), as the limits trust names do; JSON keeps plain numbers.
func TestCountsGroupDigits(t *testing.T) {
	hooks := make([]gate.ClientServer, 1000)
	for i := range hooks {
		hooks[i].Server = &trust.Server{Kind: "hook"}
	}
	for _, tt := range []struct{ got, want string }{
		{Waiting(1000, ""), "1,000 servers wait"},
		{Waiting(1234567, "still"), "1,234,567 servers still wait"},
		{Waiting(999, ""), "999 servers wait"},
		{WaitingEntries(hooks), "1,000 hooks wait"},
		{Count(1000, "server runs", "servers run"), "1,000 servers run"},
		{coverWord(1000), "all 1,000"},
		{cutMark(123456), " …[123,456 bytes cut]… "},
		{sizeText("100644", 1048576), "1,048,576 bytes"},
		{trust.TooManyServers(1500).Error(), "the file declares 1,500 servers, and mcp-guard reviews at most 1,000"},
	} {
		if !strings.HasPrefix(tt.got, tt.want) {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}

	// The hint past MaxHintNames names --all with the count.
	names := make([]string, 1000)
	for i := range names {
		names[i] = "s" + strconv.Itoa(i)
	}
	entries := waitingEntries(t, serversNamed(names, "/bin/true"))
	var b bytes.Buffer
	mustWrite(t, WriteBlockingList(&b, []*gate.ClientView{{Title: "agentty"}}, [][]gate.ClientServer{entries}, nil, "mcp-guard review", Style{}))
	if want := "mcp-guard review --all to approve all 1,000 that wait"; !strings.Contains(b.String(), want) {
		t.Errorf("the hint lacks %q:\n%s", want, lastLine(b.String()))
	}

	// A scan's summary, in text and Markdown; its JSON stays plain.
	res := &scan.Result{Target: scan.TargetWorkTree, Files: 2500}
	for range 1100 {
		res.Findings = append(res.Findings, trust.Finding{Rule: "MG101", Severity: trust.SeverityHigh, Path: ".agentty/mcp.json", Line: 1, Message: "m"})
	}
	want := map[string]string{
		"text":     "1,100 findings (1,100 high) in 2,500 files",
		"markdown": "1,000 more findings are in the job log",
		"github":   "1,100 findings (1,100 high) in 2,500 files",
	}
	for format, w := range want {
		if got := render(t, format, res); !bytes.Contains(got, []byte(w)) {
			t.Errorf("%s lacks %q:\n%s", format, w, lastLine(string(got)))
		}
	}
	var doc struct {
		Summary struct{ Files, Findings int } `json:"summary"`
	}
	if err := json.Unmarshal(render(t, "json", res), &doc); err != nil || doc.Summary.Files != 2500 || doc.Summary.Findings != 1100 {
		t.Errorf("JSON summary %+v, %v: want plain numbers", doc.Summary, err)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
