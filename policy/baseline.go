package policy

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/mcp-guard/mcp-guard/trust"
)

// FindingID is a finding's stable identity: its rule, file, server and JSON
// key, never its line, column or message, so that it survives edits
// elsewhere in the file and rewording. Baselines, history attribution,
// branch comparison and SARIF fingerprints all match on it.
func FindingID(f trust.Finding) string {
	return f.Rule + "\x00" + f.Path + "\x00" + f.Server + "\x00" + f.Key
}

// Baseline is a set of accepted findings: a previous JSON report.
type Baseline struct {
	counts map[string]int
}

// ErrBaseline reports a baseline file that is not a JSON report of
// `mcp-guard scan --format json`.
var ErrBaseline = errors.New("invalid baseline")

// ParseBaseline reads a report written by `mcp-guard scan --format json`
// (version 1). Only the identity fields of its findings are used.
func ParseBaseline(data []byte) (*Baseline, error) {
	var doc struct {
		Version  int `json:"version"`
		Findings []struct {
			Rule   string `json:"rule"`
			Path   string `json:"path"`
			Server string `json:"server"`
			Key    string `json:"key"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBaseline, err)
	}
	if doc.Version != 1 {
		return nil, fmt.Errorf("%w: version %d (want a version 1 report of `mcp-guard scan --format json`)", ErrBaseline, doc.Version)
	}
	if doc.Findings == nil {
		return nil, fmt.Errorf("%w: no findings list (want a report of `mcp-guard scan --format json`)", ErrBaseline)
	}
	b := &Baseline{counts: map[string]int{}}
	for _, f := range doc.Findings {
		if f.Rule == "" || f.Path == "" {
			return nil, fmt.Errorf("%w: a finding without rule or path", ErrBaseline)
		}
		b.counts[FindingID(trust.Finding{Rule: f.Rule, Path: f.Path, Server: f.Server, Key: f.Key})]++
	}
	return b, nil
}

// Len is the number of findings in the baseline.
func (b *Baseline) Len() int {
	n := 0
	for _, c := range b.counts {
		n += c
	}
	return n
}

// Suppressed is a finding left out of the result, and why.
type Suppressed struct {
	trust.Finding
	// Reason is the ignore file entry's reason, or "baseline".
	Reason string
	// Line is the ignore file entry's line; 0 for the baseline.
	Line int
}

// Suppress splits findings into those that count and those the ignore
// file or the baseline suppress.
func Suppress(all []trust.Finding, ignore *IgnoreFile, base *Baseline) (keep []trust.Finding, dropped []Suppressed) {
	left := map[string]int{}
	if base != nil {
		for k, v := range base.counts {
			left[k] = v
		}
	}
	keep = []trust.Finding{}
	for _, f := range all {
		if r := ignore.Match(f); r != nil {
			dropped = append(dropped, Suppressed{Finding: f, Reason: r.Reason, Line: r.Line})
			continue
		}
		if id := FindingID(f); left[id] > 0 {
			left[id]--
			dropped = append(dropped, Suppressed{Finding: f, Reason: "baseline"})
			continue
		}
		keep = append(keep, f)
	}
	return keep, dropped
}

// SortFindings orders findings by path, position, rule and key.
func SortFindings(fs []trust.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Path != b.Path:
			return a.Path < b.Path
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		}
		return a.Key < b.Key
	})
}

// SortBySeverity orders findings the most severe first, then as
// SortFindings: the order people read them in (status, review, the hook).
func SortBySeverity(fs []trust.Finding) {
	SortFindings(fs)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity.Rank() > fs[j].Severity.Rank() })
}
