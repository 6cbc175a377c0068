package numfmt

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestGrouped(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1,000"},
		{1001, "1,001"},
		{12345, "12,345"},
		{100000, "100,000"},
		{200000, "200,000"},
		{1234567, "1,234,567"},
		{-1, "-1"},
		{-999, "-999"},
		{-1000, "-1,000"},
		{-1234567, "-1,234,567"},
		{math.MaxInt64, "9,223,372,036,854,775,807"},
		{math.MinInt64, "-9,223,372,036,854,775,808"},
	}
	for _, tt := range tests {
		if got := Grouped(tt.n); got != tt.want {
			t.Errorf("Grouped(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestGroupedReadsBack: the commas taken out, every number reads back as
// itself, in groups of three after the first.
func TestGroupedReadsBack(t *testing.T) {
	for _, base := range []int{0, 1e6 - 3, 1e9 - 3, math.MaxInt64 - 3000, math.MinInt64} {
		for k := 0; k < 3000; k += 7 {
			n := base + k
			got := Grouped(n)
			if back, err := strconv.Atoi(strings.ReplaceAll(got, ",", "")); err != nil || back != n {
				t.Fatalf("Grouped(%d) = %q does not read back", n, got)
			}
			for i, g := range strings.Split(strings.TrimPrefix(got, "-"), ",") {
				if (i == 0 && (len(g) < 1 || len(g) > 3)) || (i > 0 && len(g) != 3) {
					t.Fatalf("Grouped(%d) = %q: group %q", n, got, g)
				}
			}
		}
	}
}
