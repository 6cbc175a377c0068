package report

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"

	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// codeQualityReporter writes GitLab's Code Quality report (the JSON array
// of issues GitLab shows in merge requests; it does not read SARIF): one
// issue per finding, and in a --diff scan one per change that needs
// attention, so the merge request shows what merging lets an agent run.
// The format is GitLab's "Code Quality report format": description,
// check_name, fingerprint (unique in the report), severity (info, minor,
// major, critical, blocker) and location.path with location.lines.begin.
type codeQualityReporter struct{ o ScanOptions }

type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string           `json:"path"`
	Lines codeQualityLines `json:"lines"`
}

type codeQualityLines struct {
	Begin int `json:"begin"`
}

func (q codeQualityReporter) WriteScan(w io.Writer, r *scan.Result) error {
	issues := []codeQualityIssue{}
	seen := map[string]bool{}
	add := func(is codeQualityIssue) {
		// GitLab keys issues by fingerprint: two with one fingerprint
		// would show as one.
		base := is.Fingerprint
		for n := 2; seen[is.Fingerprint]; n++ {
			is.Fingerprint = hashHex(base + "/" + strconv.Itoa(n))
		}
		seen[is.Fingerprint] = true
		issues = append(issues, is)
	}
	for _, f := range r.Findings {
		desc := f.Rule + " " + f.Slug + ": " + findingMessage(f)
		if f.Commit != "" {
			desc += " (" + commitLine(r, f.Commit) + ")"
		}
		add(codeQualityIssue{
			Description: desc,
			CheckName:   "mcp-guard/" + f.Rule,
			Fingerprint: FindingHash(f),
			Severity:    codeQualitySeverity(f.Severity),
			Location:    codeQualityLocation{Path: Sanitize(f.Path), Lines: codeQualityLines{Begin: max(f.Line, 1)}},
		})
	}
	for _, c := range r.Changes {
		if !c.Impact.NeedsAttention() {
			continue
		}
		severity := "info"
		if c.Impact == trust.ImpactTrustPreserving || c.Impact == trust.ImpactNewPreapproved {
			severity = "critical" // the agent runs it without asking
		}
		add(codeQualityIssue{
			Description: q.o.Agents.title(c.Client) + ": " + ImpactName(c) + ": " + changeName(c) + ": " + changeSummary(c),
			CheckName:   "mcp-guard/approval-impact/" + string(c.Impact),
			Fingerprint: hashHex("impact\x00" + c.Client + "\x00" + c.Path + "\x00" + c.Server + "\x00" + string(c.Impact) + "\x00" + c.NewDeep),
			Severity:    severity,
			Location:    codeQualityLocation{Path: Sanitize(c.Path), Lines: codeQualityLines{Begin: 1}},
		})
	}
	return WriteJSON(w, issues)
}

// codeQualitySeverity maps mcp-guard's severities onto GitLab's five.
func codeQualitySeverity(s trust.Severity) string {
	switch s {
	case trust.SeverityCritical:
		return "blocker"
	case trust.SeverityHigh:
		return "critical"
	case trust.SeverityMedium:
		return "major"
	case trust.SeverityLow:
		return "minor"
	}
	return "info"
}

func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}
