// Package numfmt writes numbers as people read them. It is the one
// helper for a count in human output (hints, summaries, the limits a
// message names): 1,000 servers, 200,000 values. Machine output (JSON,
// SARIF, a unified diff's hunk header, a fingerprint) writes plain
// numbers and never calls it.
package numfmt

import "strconv"

// Grouped is n in decimal with a comma between each group of three
// digits: 999, 1,000, 200,000, -1,234,567.
func Grouped(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	b := make([]byte, 0, len(sign)+len(s)+(len(s)-1)/3)
	b = append(b, sign...)
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b = append(b, s[:head]...)
	for i := head; i < len(s); i += 3 {
		b = append(b, ',')
		b = append(b, s[i:i+3]...)
	}
	return string(b)
}
