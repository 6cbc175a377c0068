package trust

import "fmt"

// Severity ranks findings. The order is critical > high > medium > low > info.
type Severity string

const (
	SeverityCritical Severity = "critical"
	SeverityHigh     Severity = "high"
	SeverityMedium   Severity = "medium"
	SeverityLow      Severity = "low"
	SeverityInfo     Severity = "info"
)

// Rank orders severities: higher is worse; 0 for an unknown value.
func (s Severity) Rank() int {
	switch s {
	case SeverityCritical:
		return 5
	case SeverityHigh:
		return 4
	case SeverityMedium:
		return 3
	case SeverityLow:
		return 2
	case SeverityInfo:
		return 1
	}
	return 0
}

// ParseSeverity accepts a severity name.
func ParseSeverity(s string) (Severity, error) {
	v := Severity(s)
	if v.Rank() == 0 {
		return "", fmt.Errorf("unknown severity %q (want critical, high, medium, low or info)", s)
	}
	return v, nil
}

// Finding is one problem found in a repository's agentty surfaces.
type Finding struct {
	Rule     string   `json:"rule"`
	Slug     string   `json:"slug"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Server   string   `json:"server"`
	Message  string   `json:"message"`
	// Key is the JSON key the finding points at (e.g. "env.NODE_OPTIONS");
	// it keeps findings stable across runs for fingerprints.
	Key string `json:"key,omitempty"`
	// Commit is set by history scans: the commit that introduced it.
	Commit string `json:"commit,omitempty"`
}

// NewFinding makes a finding of a catalogued rule; the slug and severity
// come from the catalog.
func NewFinding(rule, path string, pos Pos, server, key, message string) Finding {
	r := RuleByID(rule)
	return Finding{
		Rule: rule, Slug: r.Slug, Severity: r.Severity,
		Path: path, Line: pos.Line, Column: pos.Column,
		Server: server, Key: key, Message: message,
	}
}
