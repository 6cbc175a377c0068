package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/gate"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/hooks"
	"github.com/mcp-guard/mcp-guard/report"
)

func hooksCommand(e *env) *cli.Command {
	template := &cli.StringFlag{Name: "template", Usage: "act on the git template directory `DIR` (its hooks/) instead of this repository"}
	return &cli.Command{
		Name:      "hooks",
		Usage:     "install, remove or show mcp-guard's git hooks (post-checkout, post-merge, post-rewrite, post-commit, post-applypatch; reference-transaction on request)",
		UsageText: "mcp-guard [-C DIR] hooks install [--force] [--adopt] [--reference-transaction] [--template DIR] | uninstall [--template DIR] | status [--template DIR]",
		Commands: []*cli.Command{
			{
				Name:  "install",
				Usage: "install the hooks; hooks already there are kept and still run first",
				Description: "After every checkout, merge, rebase, cherry-pick, revert and am the hooks say which MCP servers,\n" +
					"hooks and other commands of each agent the operation added or changed, and which of them that\n" +
					"agent now runs without asking (its approval kept, a trusted folder). MCP_GUARD=0 skips them.\n" +
					"A reset and a stash pop run no hook of their own: --reference-transaction installs git's\n" +
					"reference-transaction hook for them, which git starts up to three times for every ref a fetch\n" +
					"updates (seconds for thousands of refs); without it `mcp-guard check` and `mcp-guard launch`\n" +
					"still gate what they changed.\n" +
					"With --template DIR they go into a git template directory, so that every repository\n" +
					"git creates or clones afterwards has them and warns at clone time.",
				Flags: []cli.Flag{
					template,
					&cli.BoolFlag{Name: "force", Usage: "install even where a hook manager (husky, lefthook, pre-commit) owns the hooks"},
					&cli.BoolFlag{Name: "adopt", Usage: "record the servers agentty already approved here as reviewed (listed as it does so)"},
					&cli.BoolFlag{Name: "reference-transaction", Usage: "also warn after reset and stash pop, at git's cost of starting a hook for every ref update (fetches of many refs)"},
				},
				Action: func(ctx context.Context, c *cli.Command) error { return hooksInstall(ctx, c, e) },
			},
			{
				Name:   "uninstall",
				Usage:  "remove the hooks and put back exactly what was there before",
				Flags:  []cli.Flag{template},
				Action: func(ctx context.Context, c *cli.Command) error { return hooksUninstall(ctx, c, e) },
			},
			{
				Name:   "status",
				Usage:  "show whether the hooks are installed, and what they chain",
				Flags:  []cli.Flag{template},
				Action: func(ctx context.Context, c *cli.Command) error { return hooksStatus(ctx, c, e) },
			},
		},
	}
}

// hooksDirer is the gitscan method that honours core.hooksPath, when the
// gitscan in the build has it.
type hooksDirer interface {
	HooksDir() (dir, hooksPath string, err error)
}

// hooksDir is the directory to act on: --template DIR's hooks/, else the
// repository's hooks directory (core.hooksPath honoured; shared by every
// worktree).
func hooksDir(c *cli.Command, e *env) (hooks.Dir, error) {
	if c.NArg() > 0 {
		return hooks.Dir{}, usageError("hooks %s takes no arguments", c.Name)
	}
	if t := c.String("template"); t != "" {
		abs, err := filepath.Abs(t)
		if err != nil {
			return hooks.Dir{}, failf("", "--template %s: %v", t, err)
		}
		return hooks.Dir{Path: filepath.Join(abs, "hooks"), Template: true}, nil
	}
	dir, err := launchDir(c)
	if err != nil {
		return hooks.Dir{}, err
	}
	repo, err := gitscan.Open(dir, gitscan.WithEnv(e.environ))
	if err != nil {
		if errors.Is(err, gitscan.ErrNotRepository) {
			return hooks.Dir{}, failf("run it inside a git repository, pass -C DIR, or use --template DIR for every future clone", "%v", err)
		}
		return hooks.Dir{}, failf("", "%v", err)
	}
	defer repo.Close()
	d := hooks.Dir{Path: filepath.Join(repo.CommonDir(), "hooks"), WorkTree: repo.TopLevel()}
	if hd, ok := any(repo).(hooksDirer); ok {
		p, hp, err := hd.HooksDir()
		if err != nil {
			return hooks.Dir{}, failf("", "%v", err)
		}
		d.Path, d.HooksPath = p, hp
	}
	return d, nil
}

// binaryPath is the absolute path of the running mcp-guard, recorded in
// the hooks.
func binaryPath() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", failf("", "cannot tell where mcp-guard is installed: %v", err)
	}
	return p, nil
}

func hooksInstall(ctx context.Context, c *cli.Command, e *env) error {
	d, err := hooksDir(c, e)
	if err != nil {
		return err
	}
	if c.Bool("adopt") && d.Template {
		return usageError("hooks install: --adopt records this repository's servers; it does not go with --template")
	}
	bin, err := binaryPath()
	if err != nil {
		return err
	}
	opts := hooks.Options{Binary: bin, Force: c.Bool("force"), RefTransaction: c.Bool("reference-transaction")}
	rs, err := hooks.Install(d, opts)
	if err == nil && d.HooksPath == "" && !d.Template {
		// Each submodule's own hooks directory, so that its checkouts
		// warn about what the servers here run from it.
		for _, sd := range hooks.SubmoduleDirs(filepath.Dir(d.Path), d.WorkTree) {
			srs, serr := hooks.Install(sd, opts)
			rs = append(rs, srs...)
			if serr != nil {
				err = serr
				break
			}
		}
	}
	printHookResults(e, d, rs)
	if err != nil {
		return failf("check that the hooks directory is writable", "%v", err)
	}
	st := e.style(e.info)
	sharedHooksPath(e, d)
	managed := map[hooks.Manager][]string{}
	var order []hooks.Manager
	refused := false
	for _, r := range rs {
		switch r.Action {
		case hooks.ActionManaged:
			if hooks.RunsMCPGuard(r.Manager, d, r.Type) != "" {
				continue // the manager runs it already: nothing to add
			}
			if managed[r.Manager] == nil {
				order = append(order, r.Manager)
			}
			managed[r.Manager] = append(managed[r.Manager], r.Type)
		case hooks.ActionRefused:
			refused = true
		}
	}
	for _, m := range order {
		fmt.Fprintf(e.info, "\n%s %s manages %s, so mcp-guard left it alone; run mcp-guard from %s instead:\n", st.Warning("note:"), m, report.Sanitize(d.Path), m)
		for _, line := range hooks.Integration(m, d, managed[m]) {
			fmt.Fprintf(e.info, "  %s\n", line)
		}
		fmt.Fprintf(e.info, "(or `mcp-guard hooks install --force` chains into its directory anyway; %s may undo it when it reinstalls)\n", m)
	}
	if d.Template {
		fmt.Fprintf(e.info, "\nto give every repository git creates or clones from now on these hooks, run:\n  git config --global init.templateDir %s\n", shellQuote(report.Sanitize(filepath.Dir(d.Path))))
		fmt.Fprintln(e.info, "(repositories that already exist need `mcp-guard hooks install` in each)")
	}
	if c.Bool("adopt") {
		if err := adopt(ctx, c, e); err != nil {
			return err
		}
	}
	if refused {
		return refusef("move one of the two files away, then install again", "some hooks were left alone (see above)")
	}
	// Under a hook manager the lines to add are printed: that is the job
	// done, so 0.
	return nil
}

func hooksUninstall(ctx context.Context, c *cli.Command, e *env) error {
	d, err := hooksDir(c, e)
	if err != nil {
		return err
	}
	rs, err := hooks.Uninstall(d)
	if err == nil && d.HooksPath == "" && !d.Template {
		for _, sd := range hooks.SubmoduleDirs(filepath.Dir(d.Path), d.WorkTree) {
			srs, serr := hooks.Uninstall(sd)
			rs = append(rs, srs...)
			if serr != nil {
				err = serr
				break
			}
		}
	}
	printHookResults(e, d, rs)
	if err != nil {
		return failf("", "%v", err)
	}
	return nil
}

func printHookResults(e *env, d hooks.Dir, rs []hooks.Result) {
	st := e.style(e.info)
	width := columnWidth(rs, func(r hooks.Result) string { return r.Type })
	for _, r := range rs {
		action := fmt.Sprintf("%-9s", r.Action)
		switch r.Action {
		case hooks.ActionInstalled, hooks.ActionChained, hooks.ActionUpdated, hooks.ActionRestored, hooks.ActionRemoved:
			action = st.OK(action)
		case hooks.ActionManaged, hooks.ActionRefused, hooks.ActionForeign:
			action = st.Warning(action)
		}
		line := fmt.Sprintf("%s %-*s %s", action, width, r.Type, report.Sanitize(r.Path))
		switch {
		case r.Action == hooks.ActionChained:
			line += fmt.Sprintf("  (the hook that was there runs first, from %s)", report.Sanitize(filepath.Base(r.Chained)))
		case r.Action == hooks.ActionRestored:
			line += "  (the earlier hook is back)"
		case r.Action == hooks.ActionManaged:
			if at := hooks.RunsMCPGuard(r.Manager, d, r.Type); at != "" {
				line += fmt.Sprintf("  (%s's; it runs mcp-guard already: %s)", r.Manager, report.Sanitize(at))
			} else if _, err := os.Lstat(r.Path); err != nil {
				line += fmt.Sprintf("  (no hook there yet; %s manages the directory)", r.Manager)
			} else {
				line += fmt.Sprintf("  (%s's)", r.Manager)
			}
		case r.Note != "":
			line += "  (" + report.Sanitize(r.Note) + ")"
		case r.Chained != "" && (r.Action == hooks.ActionUnchanged || r.Action == hooks.ActionUpdated || r.Action == hooks.ActionInstalled):
			line += fmt.Sprintf("  (runs %s first)", report.Sanitize(filepath.Base(r.Chained)))
		}
		fmt.Fprintln(e.info, line)
	}
}

// columnWidth is the width of a column of hook types, typ of each row:
// the longest one listed (post-applypatch, or reference-transaction when
// it is listed).
func columnWidth[T any](rows []T, typ func(T) string) int {
	w := 0
	for _, r := range rows {
		w = max(w, len(typ(r)))
	}
	return w
}

func hooksStatus(ctx context.Context, c *cli.Command, e *env) error {
	d, err := hooksDir(c, e)
	if err != nil {
		return err
	}
	hs, err := hooks.Inspect(d)
	if err != nil {
		return failf("", "%v", err)
	}
	st := e.style(e.info)
	fmt.Fprintf(e.info, "hooks directory: %s", report.Sanitize(d.Path))
	if d.HooksPath != "" {
		fmt.Fprintf(e.info, " (core.hooksPath = %s)", report.Sanitize(d.HooksPath))
	}
	fmt.Fprintln(e.info)
	width := columnWidth(hs, func(h hooks.Hook) string { return h.Type })
	for _, h := range hs {
		var state string
		switch {
		case h.Kind == hooks.KindOurs && h.Current:
			state = st.OK("installed")
		case h.Kind == hooks.KindOurs:
			state = st.Warning("outdated") + " (run `mcp-guard hooks install` to update it)"
		case h.Owner() != hooks.ManagerNone && hooks.RunsMCPGuard(h.Owner(), d, h.Type) != "":
			state = st.OK("installed") + fmt.Sprintf(" through %s (%s runs mcp-guard)", h.Manager, report.Sanitize(hooks.RunsMCPGuard(h.Manager, d, h.Type)))
		case h.Kind != hooks.KindOurs && h.Owner() != hooks.ManagerNone:
			state = st.Warning("not installed") + fmt.Sprintf(" (%s manages it; `mcp-guard hooks install` prints the line to add to %s's configuration)", h.Manager, h.Manager)
		case h.Kind == hooks.KindForeign:
			state = st.Warning("not installed") + " (another hook is there; `mcp-guard hooks install` keeps it and runs it first)"
		case h.Type == hooks.RefTransaction:
			state = "not installed (optional: `mcp-guard hooks install --reference-transaction` also warns after reset and stash pop)"
		default:
			state = st.Warning("not installed")
		}
		fmt.Fprintf(e.info, "  %-*s %s\n", width, h.Type, state)
		if h.Kind == hooks.KindOurs {
			fmt.Fprintf(e.info, "  %-*s calls %s\n", width, "", report.Sanitize(h.Binary))
			if _, err := os.Stat(h.Binary); err != nil {
				fmt.Fprintf(e.info, "  %-*s %s that binary is gone; the hook falls back to mcp-guard on PATH\n", width, "", st.Warning("note:"))
			}
		}
		if h.Chained != "" {
			runs := "runs first"
			if !h.ChainedRuns {
				runs = "not executable, so it does not run (git would not run it either)"
			}
			fmt.Fprintf(e.info, "  %-*s chains %s (%s)\n", width, "", report.Sanitize(h.Chained), runs)
		}
	}
	sharedHooksPath(e, d)
	if d.Template {
		templateDirState(e, d)
	}
	// status reports; it exits 0 whatever it found.
	return nil
}

// gitConfig is `git config ARGS` run with the user's environment in dir
// ("" the current directory): its output trimmed, "" when the key is not
// set or git cannot say.
func gitConfig(e *env, dir string, args ...string) string {
	cmd := exec.Command("git", append([]string{"config"}, args...)...)
	cmd.Dir, cmd.Env = dir, e.environ
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// sharedHooksPath says when core.hooksPath comes from a configuration
// shared by every repository (the global or system one): the hooks then
// run in each repository that does not set its own.
func sharedHooksPath(e *env, d hooks.Dir) {
	if d.HooksPath == "" || d.WorkTree == "" {
		return
	}
	origin, _, ok := strings.Cut(gitConfig(e, d.WorkTree, "--show-origin", "--get", "core.hooksPath"), "\t")
	if !ok || gitConfig(e, d.WorkTree, "--local", "--get", "core.hooksPath") != "" || gitConfig(e, d.WorkTree, "--worktree", "--get", "core.hooksPath") != "" {
		return
	}
	st := e.style(e.info)
	fmt.Fprintf(e.info, "%s core.hooksPath comes from %s, not from this repository: the hooks in %s run in every repository without a core.hooksPath of its own\n",
		st.Warning("note:"), report.Sanitize(strings.TrimPrefix(origin, "file:")), report.Sanitize(d.Path))
}

// templateDirState says whether git copies the template directory d is in
// into new repositories: init.templateDir must name it.
func templateDirState(e *env, d hooks.Dir) {
	st := e.style(e.info)
	dir := filepath.Dir(d.Path)
	set := gitConfig(e, "", "--global", "--get", "init.templateDir")
	shown := set
	if rest, ok := strings.CutPrefix(set, "~/"); ok {
		if home := e.getenv("HOME"); home != "" {
			set = filepath.Join(home, rest)
		}
	}
	same := set != ""
	if same {
		a, errA := filepath.EvalSymlinks(dir)
		b, errB := filepath.EvalSymlinks(set)
		same = errA == nil && errB == nil && a == b
	}
	switch {
	case same:
		fmt.Fprintf(e.info, "init.templateDir = %s: every repository git creates or clones from now on gets these hooks\n", report.Sanitize(shown))
	case shown == "":
		fmt.Fprintf(e.info, "%s init.templateDir is not set, so no new repository gets these hooks; run:\n  git config --global init.templateDir %s\n", st.Warning("note:"), shellQuote(report.Sanitize(dir)))
	default:
		fmt.Fprintf(e.info, "%s init.templateDir is %s, not this directory, so no new repository gets these hooks; run:\n  git config --global init.templateDir %s\n", st.Warning("note:"), report.Sanitize(shown), shellQuote(report.Sanitize(dir)))
	}
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '/' || r == '.' || r == '-' || r == '_' || r == '~') {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// adopt records the approvals agentty already holds here as reviewed
// (gate.Adopt) and lists them.
func adopt(ctx context.Context, c *cli.Command, e *env) error {
	dir, err := launchDir(c)
	if err != nil {
		return err
	}
	res, err := gate.Adopt(ctx, dir, gate.Env{Getenv: e.getenv, Environ: e.environ})
	if err != nil {
		return gateErr(err)
	}
	st := e.style(e.info)
	fmt.Fprintln(e.info)
	if len(res.Adopted) == 0 {
		fmt.Fprintln(e.info, "nothing to adopt: no server here runs on an approval agentty holds that mcp-guard has not recorded")
	}
	for _, a := range res.Adopted {
		fmt.Fprintf(e.info, "%s %s  %s  %s\n", st.OK("adopted"), report.ShowName(a.Server.Name), report.CommandLine(a.Server.Server), st.Dim("("+report.Sanitize(a.Config)+", agentty approved it; this version now counts as reviewed)"))
		report.WriteServerFindings(e.info, a.Findings, st)
	}
	for _, a := range res.Held {
		fmt.Fprintf(e.info, "%s %s  %s  %s\n", st.Warning("not adopted"), report.ShowName(a.Server.Name), report.CommandLine(a.Server.Server), st.Dim("("+report.Sanitize(a.Config)+": agentty approved it, but a finding below is high or critical; it waits for `mcp-guard review`)"))
		report.WriteServerFindings(e.info, a.Findings, st)
	}
	if res.Blanket > 0 {
		fmt.Fprintf(e.info, "%s on a blanket grant (AGENTTY_MCP_ALLOW_PROJECT or a whole-file approval), not adopted: review with `mcp-guard review`\n", report.Count(res.Blanket, "server runs", "servers run"))
	}
	return nil
}
