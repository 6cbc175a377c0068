package trust

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// TestLedgerNeverWrittenPastWhatIsRead: a decision that would make the
// ledger longer than LoadLedger reads records nothing and leaves the
// ledger as it was (a review --all of 100,000 servers wrote 53 MB, which
// then reviewed nothing, the earlier reviews included, and which
// mcp-guard refused to rewrite).
func TestLedgerNeverWrittenPastWhatIsRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mcp-guard")
	first := testReview("r", "c", "first", DecisionApproved, h("first"))
	if err := UpdateLedger(context.Background(), dir, record(first)); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, LedgerFileName))
	if err != nil {
		t.Fatal(err)
	}
	var big []Review
	for i := 0; i < 17; i++ {
		r := testReview("r", "c", fmt.Sprint("big", i), DecisionApproved, h(fmt.Sprint(i)))
		r.Entry = `{"command":"` + strings.Repeat("x", 1<<20) + `"}`
		big = append(big, r)
	}
	err = UpdateLedger(context.Background(), dir, record(big...))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("UpdateLedger = %v, want ErrTooLarge", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, LedgerFileName))
	if !bytes.Equal(before, after) {
		t.Error("the ledger changed")
	}
	if l := LoadLedger(dir); l.Err != nil {
		t.Errorf("the ledger no longer reads: %v", l.Err)
	} else if st, _ := l.State(first.ReviewKey, first.Deep); st != StateReviewed {
		t.Errorf("the earlier review no longer counts: %s", st)
	}
}

// TestWriteLedgerLimitIsExact: a ledger of exactly MaxFileSize bytes is
// written; one byte more is not.
func TestWriteLedgerLimitIsExact(t *testing.T) {
	a := testReview("r", "c", "a", DecisionApproved, h("a"))
	b := testReview("r", "c", "b", DecisionApproved, h("b"))
	size := func(e int) int {
		b.Entry = strings.Repeat("x", e)
		out, err := json.MarshalIndent(ledgerFile{Version: LedgerVersion, Reviews: []*Review{&a, &b}}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return len(out) + 1
	}
	e := MaxFileSize - size(0)
	if got := size(e); got != MaxFileSize {
		t.Fatalf("the test's ledger is %d bytes", got)
	}
	var buf bytes.Buffer
	if err := writeLedger(&buf, []*Review{&a, &b}); err != nil || buf.Len() != MaxFileSize {
		t.Errorf("%d bytes: %v", buf.Len(), err)
	}
	size(e + 1)
	if err := writeLedger(io.Discard, []*Review{&a, &b}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("one byte over: %v", err)
	}
}
