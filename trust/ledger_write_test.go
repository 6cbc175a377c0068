package trust

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteLedgerIsMarshalIndent holds the streamed ledger to what
// json.MarshalIndent wrote before it, byte for byte: no reviews, one, and
// several with earlier versions, files, an adopted one and strings that
// encoding/json escapes.
func TestWriteLedgerIsMarshalIndent(t *testing.T) {
	a := testReview("r1", ".agentty/mcp.json", "a", DecisionApproved, h("a"))
	b := testReview("r1", ".mcp.json", "b<&>\u2028", DecisionDeclined, h("b"))
	b.Client = "claude-code"
	b.Files = nil
	b.Commit = ""
	b.Earlier = []DecidedVersion{a.DecidedVersion, {Decision: DecisionApproved, Adopted: true, ReviewedVersion: ReviewedVersion{Deep: h("c")}}}
	c := testReview("dir:/x \"y\"", "sub/.agentty/mcp.json", "c\x01", DecisionApproved, h("c"))
	for _, reviews := range [][]*Review{{}, {&a}, {&a, &b, &c}} {
		want, err := json.MarshalIndent(ledgerFile{Version: LedgerVersion, Reviews: reviews}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var got bytes.Buffer
		if err := writeLedger(&got, reviews); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%d reviews: writeLedger wrote\n%s\nwant\n%s", len(reviews), got.Bytes(), want)
		}
	}
}
