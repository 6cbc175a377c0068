package report

import (
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/trust"
)

// SARIF 2.1.0, as GitHub code scanning accepts it: one rules entry per
// rule that fired, with help and a security-severity; results with
// repository-relative locations at the offending key and a partial
// fingerprint of their own that survives line moves.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// sarifFingerprintKey names mcp-guard's partial fingerprint.
	sarifFingerprintKey = "mcpGuardFindingHash/v1"
	// sarifSrcRoot is the base every location is relative to: the
	// repository root (or the scanned directory outside one).
	sarifSrcRoot = "%SRCROOT%"
	toolURI      = "https://github.com/mcp-guard/mcp-guard"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	ColumnKind  string            `json:"columnKind"`
	Results     []sarifResult     `json:"results"`
	Properties  map[string]any    `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifMultiformat  `json:"help"`
	HelpURI              string            `json:"helpUri"`
	DefaultConfiguration sarifRuleConfig   `json:"defaultConfiguration"`
	Properties           sarifRuleProperty `json:"properties"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifRuleProperty struct {
	Tags             []string `json:"tags"`
	SecuritySeverity string   `json:"security-severity"`
	Precision        string   `json:"precision"`
	ProblemSeverity  string   `json:"problem.severity"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          map[string]string  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

// sarifReporter writes SARIF 2.1.0.
type sarifReporter struct{ o ScanOptions }

func (s sarifReporter) WriteScan(w io.Writer, r *scan.Result) error {
	return WriteJSON(w, NewSARIF(r, s.o.Version))
}

// NewSARIF builds the SARIF log of a scan (as a value that encodes to it).
func NewSARIF(r *scan.Result, version string) any {
	rules := firedRules(r.Findings, suppressedFindings(r.Suppressed))
	index := map[string]int{}
	driver := sarifDriver{Name: "mcp-guard", Version: version, SemanticVersion: semver(version), InformationURI: toolURI, Rules: []sarifRule{}}
	for i, rule := range rules {
		index[rule.ID] = i
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	run := sarifRun{
		Tool:        sarifTool{Driver: driver},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		ColumnKind:  "unicodeCodePoints",
		Results:     []sarifResult{},
	}
	for _, n := range r.Notes {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "warning", Message: sarifText{Text: n}})
	}
	occurrence := map[string]int{}
	add := func(f trust.Finding, sup *policy.Suppressed) {
		hash := FindingHash(f)
		occurrence[hash]++
		res := sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity),
			Message: sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: uriPath(f.Path), URIBaseID: sarifSrcRoot},
				Region:           sarifRegion{StartLine: max(f.Line, 1), StartColumn: max(f.Column, 1)},
			}}},
			PartialFingerprints: map[string]string{sarifFingerprintKey: fmt.Sprintf("%s:%d", hash, occurrence[hash])},
			Properties:          map[string]string{"severity": string(f.Severity)},
		}
		if f.Server != "" {
			res.Properties["server"] = f.Server
		}
		if f.Key != "" {
			res.Properties["key"] = f.Key
		}
		if f.Commit != "" {
			res.Properties["commit"] = f.Commit
		}
		if sup != nil {
			just := sup.Reason
			if just == "baseline" {
				just = "in the baseline report"
			}
			res.Suppressions = []sarifSuppression{{Kind: "external", Justification: just}}
		}
		run.Results = append(run.Results, res)
	}
	for _, f := range r.Findings {
		add(f, nil)
	}
	for i := range r.Suppressed {
		add(r.Suppressed[i].Finding, &r.Suppressed[i])
	}
	return sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

func sarifRuleOf(r trust.Rule) sarifRule {
	return sarifRule{
		ID: r.ID, Name: r.Slug,
		ShortDescription:     sarifText{Text: r.Title},
		FullDescription:      sarifText{Text: r.Title},
		Help:                 sarifMultiformat{Text: r.Help, Markdown: HelpMarkdown(r)},
		HelpURI:              r.HelpURI(),
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(r.Severity)},
		Properties: sarifRuleProperty{
			Tags:             []string{"security", "mcp", "agentty", r.Slug},
			SecuritySeverity: SecuritySeverity(r.Severity),
			Precision:        "high",
			ProblemSeverity:  problemSeverity(r.Severity),
		},
	}
}

// SecuritySeverity is the CVSS-like score GitHub ranks alerts by (over 9.0
// critical, 7.0 high, 4.0 medium, else low).
func SecuritySeverity(s trust.Severity) string {
	switch s {
	case trust.SeverityCritical:
		return "9.5"
	case trust.SeverityHigh:
		return "8.0"
	case trust.SeverityMedium:
		return "5.5"
	case trust.SeverityLow:
		return "3.0"
	}
	return "1.0"
}

func sarifLevel(s trust.Severity) string {
	switch s {
	case trust.SeverityCritical, trust.SeverityHigh:
		return "error"
	case trust.SeverityMedium:
		return "warning"
	}
	return "note"
}

func problemSeverity(s trust.Severity) string {
	switch s {
	case trust.SeverityCritical, trust.SeverityHigh:
		return "error"
	case trust.SeverityMedium:
		return "warning"
	}
	return "recommendation"
}

// HelpMarkdown renders a rule's help for Markdown viewers: its title as a
// heading, the why, and the fix in bold.
func HelpMarkdown(r trust.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s %s: %s\n\n", r.ID, r.Slug, r.Title)
	for i, para := range strings.Split(r.Help, "\n\n") {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if rest, ok := strings.CutPrefix(para, "Fix:"); ok {
			para = "**Fix:**" + rest
		}
		b.WriteString(para)
	}
	fmt.Fprintf(&b, "\n\nSeverity: %s. More: %s\n", r.Severity, r.HelpURI())
	return b.String()
}

// uriPath encodes a slash-separated path as a relative URI reference.
func uriPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		// A colon in the first segment would read as a scheme.
		parts[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(parts, "/")
}

// semver returns version without a leading v when it is a semantic
// version, "" otherwise (a development build).
func semver(v string) string {
	v = strings.TrimPrefix(v, "v")
	core, _, _ := strings.Cut(v, "+")
	core, _, _ = strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return ""
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return ""
		}
	}
	return v
}
