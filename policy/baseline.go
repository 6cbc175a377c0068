package policy

import (
	"encoding/json"
	"errors"
	"fmt"

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
