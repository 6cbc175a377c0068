package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/client/words"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/project"
	"github.com/mcp-guard/mcp-guard/report"
	"github.com/mcp-guard/mcp-guard/trust"
)

func diffCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "show what changed in what each agent runs between two states of the repository, and what it does to your approvals",
		UsageText: "mcp-guard [-C DIR] diff [--json] [OLD [NEW]]",
		Description: "With no revision, HEAD against the work tree; with one, OLD against the work tree;\n" +
			"with two, OLD against NEW (`ORIG_HEAD HEAD` after a pull). Every agent's configuration in the\n" +
			"repository is compared, with the files its servers run and the settings that govern them.\n\n" +
			"Exit status: 0 when no change needs attention, 1 when a change is invalidated,\n" +
			"trust-preserving, new-unapproved or new-preapproved or a surface was added or changed,\n" +
			"2 when mcp-guard could not compare.",
		Flags: formatFlags(textJSON, "print the versioned JSON document (version 1) instead of text"),
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.NArg() > 2 {
				return usageError("diff takes at most two revisions (OLD NEW)")
			}
			dir, err := launchDir(c)
			if err != nil {
				return err
			}
			repo, err := gitscan.Open(dir, gitscan.WithEnv(e.environ))
			if err != nil {
				if errors.Is(err, gitscan.ErrNotRepository) {
					return failf("run it inside a git repository, or pass -C DIR", "%v", err)
				}
				return failf("", "%v", err)
			}
			defer repo.Close()

			oldRev, newRev := "HEAD", ""
			if c.NArg() > 0 {
				oldRev = c.Args().Get(0)
			}
			if c.NArg() > 1 {
				newRev = c.Args().Get(1)
			}
			oldSide, err := resolveSide(repo, oldRev)
			if err != nil {
				return err
			}
			newSide := gitscan.WorkTree
			if newRev != "" {
				if newSide, err = resolveSide(repo, newRev); err != nil {
					return err
				}
			}

			cenv := client.Env{Getenv: e.getenv, LookupEnv: func(k string) (string, bool) { v, ok := e.vars[k]; return v, ok }}
			grants, err := project.StoreGrants(cenv)
			if err != nil && !errors.Is(err, trust.ErrNoHome) {
				fmt.Fprintf(e.stderr, "mcp-guard: warning: the approvals store approves nothing: %s\n", report.Sanitize(err.Error()))
			}
			opts := project.Options{Grants: grants, Env: cenv}
			format, err := outputFormat(c, textJSON)
			if err != nil {
				return err
			}
			opts.Configs = format == "json"
			res, err := project.Compare(ctx, repo, oldSide, newSide, opts)
			if err != nil {
				return failf("", "%v", err)
			}
			d := report.Diff{
				Old:      report.DiffSide{Rev: oldRev, Commit: sideCommit(oldSide)},
				New:      report.DiffSide{Rev: newRev, Commit: sideCommit(newSide)},
				Changes:  res.Changes,
				Findings: res.Findings,
				Contents: diffContents(ctx, repo, oldSide, newSide, res.Changes),
				Configs:  res.Configs,
				Agents:   words.Agents(), FindingClients: words.FindingClients(res.Findings),
			}
			if format == "json" {
				err = report.WriteJSON(e.stdout, report.NewDiffDoc(d))
			} else {
				// Rendered for the terminal (its colours and width), then
				// through the pager when it is longer than the screen.
				var text strings.Builder
				if err = report.WriteDiff(&text, d, e.style(e.info)); err == nil {
					err = e.page(e.info, text.String())
				}
			}
			if err != nil {
				return failf("", "writing the diff: %v", err)
			}
			if d.NeedsAttention() {
				return attention()
			}
			return nil
		},
	}
}

// diffContents is the content change of the files of every server present
// on both sides, with the commits from OLD to NEW (HEAD when NEW is the
// work tree or the index) that made it.
func diffContents(ctx context.Context, repo *gitscan.Repo, old, new gitscan.Side, changes []trust.Change) []*report.ChangeContent {
	ctx, cancel := context.WithTimeout(ctx, contentTimeout)
	defer cancel()
	to := new
	if to.Commit() == "" && new != gitscan.Empty {
		if head, err := repo.Resolve("HEAD"); err == nil {
			to = head
		}
	}
	out := make([]*report.ChangeContent, len(changes))
	for i, c := range changes {
		if c.Old != nil && c.New != nil {
			out[i] = changeContent(ctx, repo, old, new, false, "", c.Files, old, to, project.ContentLimits{})
		}
	}
	return out
}

// resolveSide resolves a revision the user named.
func resolveSide(repo *gitscan.Repo, rev string) (gitscan.Side, error) {
	s, err := repo.Resolve(rev)
	if errors.Is(err, gitscan.ErrUnknownRevision) {
		return s, failf("name a commit, branch or tag of this repository (git rev-parse --verify REV)", "%v", err)
	}
	if err != nil {
		return s, failf("", "%v", err)
	}
	return s, nil
}

// sideCommit is the JSON's commit field: the full id, or "worktree",
// "index", "empty".
func sideCommit(s gitscan.Side) string {
	if id := s.Commit(); id != "" {
		return id
	}
	return s.String()
}
