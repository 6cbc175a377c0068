package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/client/words"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/internal/nearname"
	"github.com/mcp-guard/mcp-guard/internal/numfmt"
	"github.com/mcp-guard/mcp-guard/policy"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/scan"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// failOnLevels are the --fail-on values, from the strictest.
var failOnLevels = []string{"critical", "high", "medium", "low", "info", "none"}

func scanCommand(e *env) *cli.Command {
	formats := report.ScanFormatNames()
	return &cli.Command{
		Name:      "scan",
		Usage:     "check every agent's configuration in a repository against the rule catalog (for CI and pre-commit)",
		UsageText: "mcp-guard [-C DIR] scan [--staged | --rev REV | --history [--since REV] | --diff BASE...HEAD] [options] [PATH]",
		Description: "Scans the work tree at PATH (default: the current directory): every agent's MCP configuration\n" +
			"(" + configFiles() + "),\n" +
			"the settings and tasks beside them, CI workflows that run an agent, and agentty's hooks, ACP\n" +
			"agents and personas, at any depth. Outside a git repository PATH is walked as a directory.\n" +
			"A file PATH is scanned alone, read in the role its path gives it (an agent's config, settings or CI workflow).\n" +
			"scan never runs what it scans and reads none of your own state unless --user-config is given:\n" +
			"--diff judges what merging does to approvals " + report.ImpactBasis + ".\n" +
			"The repository's " + policy.IgnoreFileName + " (rule ids, paths, servers, each with a reason) suppresses findings\n" +
			"for scan only: the git hook, review and launch never read it.\n\n" +
			"Exit status: 0 when no finding meets --fail-on, 1 when one does, 2 when mcp-guard could not scan.",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "staged", Usage: "scan the index: what the next commit will hold"},
			&cli.StringFlag{Name: "rev", Usage: "scan the commit `REV`"},
			&cli.BoolFlag{Name: "history", Usage: "scan every commit that changed a surface, oldest first; each finding is reported once, at the commit that introduced it"},
			&cli.StringFlag{Name: "since", Usage: "with --history: only commits not reachable from `REV`"},
			&cli.StringFlag{Name: "diff", Usage: "pull-request mode: the findings `BASE...HEAD` introduces (against the merge base; BASE..HEAD against BASE) and the approval impact of merging it"},
		}, append(formatFlags(formats, "print the JSON report: the same as --format json"),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "fail-on", Value: "high", Usage: "exit 1 when a finding has this `SEVERITY` or worse: " + strings.Join(failOnLevels, ", ")},
			&cli.StringFlag{Name: "baseline", Usage: "count only findings that are not in the report in `FILE` (written earlier by scan --format json)"},
			&cli.BoolFlag{Name: "no-ignore-file", Usage: "do not apply the repository's " + policy.IgnoreFileName},
			&cli.BoolFlag{Name: "user-config", Usage: "also check project server names against your own ~/.agentty/mcp.json (MG107)"},
		)...),
		Action: func(ctx context.Context, c *cli.Command) error { return runScan(ctx, c, e) },
	}
}

func runScan(ctx context.Context, c *cli.Command, e *env) error {
	if c.NArg() > 1 {
		return usageError("scan takes at most one PATH")
	}
	req, err := scanRequest(c, e)
	if err != nil {
		return err
	}
	format, err := outputFormat(c, report.ScanFormatNames())
	if err != nil {
		return err
	}
	failOn := c.String("fail-on")
	threshold, err := failThreshold(failOn)
	if err != nil {
		return err
	}
	out := io.Writer(e.stdout)
	if format == "text" {
		out = e.info
	}
	var file *os.File
	if p := c.String("output"); p != "" {
		if file, err = os.CreateTemp(filepath.Dir(p), ".mcp-guard-scan-*"); err != nil {
			return failf("check that the directory exists and is writable", "--output %s: %v", p, err)
		}
		defer os.Remove(file.Name())
		defer file.Close()
		out = file
	}
	st := e.style(out)
	if file != nil {
		st = report.NewStyle(false)
	}
	rep, err := report.NewScanReporter(format, report.ScanOptions{Version: moduleVersion(), Style: st, FailOn: failOn, Agents: words.Agents()})
	if err != nil {
		return failf("", "--format %q: %v", format, err)
	}

	p := &progressLine{w: e.stderr}
	if !e.quiet() && isTerminal(e.stderr) {
		req.Progress = p.show
	}
	res, err := scan.Scan(ctx, req)
	p.erase() // before the report, which may go to the same terminal
	if err != nil {
		return scanError(err)
	}
	if err := rep.WriteScan(out, res); err != nil {
		return failf("", "writing the report: %v", err)
	}
	if file != nil {
		if err := file.Close(); err != nil {
			return failf("", "--output %s: %v", c.String("output"), err)
		}
		if err := os.Rename(file.Name(), c.String("output")); err != nil {
			return failf("", "--output %s: %v", c.String("output"), err)
		}
		if !e.quiet() {
			fmt.Fprintf(e.stderr, "mcp-guard: %s; report written to %s\n", report.Sanitize(summaryOf(res)), c.String("output"))
		}
	}
	for _, f := range res.Findings {
		if threshold > 0 && f.Severity.Rank() >= threshold {
			return attention()
		}
	}
	return nil
}

// progressLine shows on a terminal how far a history scan got, on one
// line that is erased once the scan ends, however it ends.
type progressLine struct {
	w     io.Writer
	shown bool
}

func (p *progressLine) show(done, total int) {
	fmt.Fprintf(p.w, "\rmcp-guard: scanning history: %s/%s commits", numfmt.Grouped(done), numfmt.Grouped(total))
	p.shown = true
}

func (p *progressLine) erase() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// isTerminal reports whether w is a terminal (never a pipe, a file or a
// CI log).
func isTerminal(w io.Writer) bool { return report.IsTerminal(w) }

// summaryOf is the one-line summary of a result.
func summaryOf(res *scan.Result) string {
	if len(res.Findings) == 0 {
		return "no findings"
	}
	return report.Count(len(res.Findings), "finding", "findings")
}

// failThreshold maps --fail-on to a severity rank; 0 never fails.
func failThreshold(s string) (int, error) {
	if s == "none" {
		return 0, nil
	}
	sev, err := trust.ParseSeverity(s)
	if err != nil {
		hint := "the severities are " + report.JoinList(failOnLevels, "and")
		if near := nearname.Of(strings.ToLower(s), failOnLevels); near != "" {
			hint = "did you mean --fail-on " + near + "?"
		}
		return 0, failf(hint, "--fail-on %q: no such severity", s)
	}
	return sev.Rank(), nil
}

// rangeHint says how to write a --diff range that was not one: a single
// revision is most likely the base of a pull request.
func rangeHint(r string) string {
	if strings.Contains(r, "..") || r == "" {
		return "write it as BASE...HEAD, such as --diff origin/main...HEAD"
	}
	return fmt.Sprintf("did you mean --diff %s...HEAD? (what HEAD adds since it left %s; %s..HEAD compares with %s itself)", r, r, r, r)
}

// scanRequest binds the flags.
func scanRequest(c *cli.Command, e *env) (scan.Request, error) {
	req := scan.Request{Target: scan.TargetWorkTree, NoIgnoreFile: c.Bool("no-ignore-file"), Git: []gitscan.Option{gitscan.WithEnv(e.environ)}}
	dir, err := launchDir(c)
	if err != nil {
		return req, err
	}
	req.Dir = dir
	if p := c.Args().First(); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		req.Dir = p
	}
	var modes []string
	if c.Bool("staged") {
		modes, req.Target = append(modes, "--staged"), scan.TargetStaged
	}
	if c.IsSet("rev") {
		modes, req.Target, req.Rev = append(modes, "--rev"), scan.TargetRev, c.String("rev")
	}
	if c.Bool("history") {
		modes, req.Target = append(modes, "--history"), scan.TargetHistory
	}
	if c.IsSet("diff") {
		modes, req.Target, req.Range = append(modes, "--diff"), scan.TargetDiff, c.String("diff")
		if _, _, _, err := scan.ParseRange(req.Range); err != nil {
			return req, failf(rangeHint(req.Range), "%v", err)
		}
	}
	if len(modes) > 1 {
		return req, usageError("scan: %s cannot be combined", strings.Join(modes, " and "))
	}
	if c.IsSet("since") {
		if req.Target != scan.TargetHistory {
			return req, usageError("scan: --since needs --history")
		}
		req.Since = c.String("since")
	}
	if c.IsSet("rev") && req.Rev == "" {
		return req, usageError("scan: --rev needs a revision")
	}
	if p := c.String("baseline"); p != "" {
		data, err := trust.ReadFile(p)
		if err != nil {
			return req, failf("pass a report written by `mcp-guard scan --format json`", "--baseline %s: %v", p, err)
		}
		if req.Baseline, err = policy.ParseBaseline(data); err != nil {
			return req, failf("pass a report written by `mcp-guard scan --format json`", "--baseline %s: %v", p, err)
		}
	}
	if c.Bool("user-config") {
		names, err := userServerNames(e)
		if err != nil {
			return req, err
		}
		req.Options.UserServers = names
	}
	return req, nil
}

// userServerNames reads the names of the servers in the user's own
// configuration; none when there is none.
func userServerNames(e *env) (map[string]bool, error) {
	home := trust.HomeDir(e.getenv)
	if home == "" {
		return nil, failf("set HOME", "--user-config: no home directory (HOME and USERPROFILE are empty)")
	}
	p := filepath.Join(home, ".agentty", "mcp.json")
	data, err := trust.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, failf("", "--user-config: %v", err)
	}
	cfg := trust.Parse(p, data, trust.ScopeUser)
	names := map[string]bool{}
	for _, s := range cfg.Servers {
		names[s.Name] = true
	}
	return names, nil
}

// addPolicyFindings adds the rule catalog's findings about the servers of
// the configuration agentty would read to an inspection, for status. A
// project configuration is also checked against the names of the user's
// own servers (MG107); an unreadable user configuration only skips that.
func addPolicyFindings(e *env, in *trust.Inspection) {
	if in.Config == nil {
		return
	}
	var opts policy.Options
	if in.Config.Scope == trust.ScopeProject {
		opts.UserServers, _ = userServerNames(e)
	}
	in.Findings = append(in.Findings, policy.InspectionFindings(in, opts)...)
}

// scanError maps a scan failure to exit 2 with a hint.
func scanError(err error) error {
	switch {
	case errors.Is(err, scan.ErrNeedsRepository):
		return failf("run it inside a git repository, or drop the flag to scan the directory", "%v", err)
	case errors.Is(err, scan.ErrShallow):
		return failf("fetch the commits the range needs: in GitHub Actions, actions/checkout with `fetch-depth: 2` for HEAD^1..HEAD (`fetch-depth: 0` for BASE...HEAD, which needs the merge base); elsewhere `git fetch --deepen=1` (or --unshallow)", "%v", err)
	case errors.Is(err, scan.ErrNotSurface):
		return failf("scan a directory, or one of the files the agents read: "+configFiles()+" (and the settings beside them)", "%v", err)
	case errors.Is(err, gitscan.ErrUnknownRevision):
		return failf("check the revision with `git rev-parse`", "%v", err)
	case errors.Is(err, policy.ErrIgnoreFile):
		return failf("fix "+policy.IgnoreFileName+", or pass --no-ignore-file", "%v", err)
	case errors.Is(err, os.ErrNotExist):
		return failf("check the path", "%v", err)
	}
	return failf("", "scan: %v", err)
}

// configFiles are the agents' MCP configuration files, from the surface
// registry: ".mcp.json, .cursor/mcp.json, …".
func configFiles() string {
	var out []string
	for _, c := range client.All() {
		for _, k := range surface.OfClient(string(c.ID())) {
			if k.Role() == surface.Config {
				out = append(out, k.Spec().File())
			}
		}
	}
	return strings.Join(out, ", ")
}
