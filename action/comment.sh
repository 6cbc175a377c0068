#!/usr/bin/env bash
# Posts, or updates in place, mcp-guard's pull-request comment: per agent,
# what merging the pull request lets it run without asking, and the
# findings it introduces. Run by the comment workflow (on workflow_run,
# from the default branch, with pull-requests: write) after the scan
# workflow of a pull request finished.
#
# It trusts nothing the pull request's run produced but the pull request's
# number (a fork's run could write anything): it checks that the pull
# request's head is the commit that run scanned, fetches the head as data,
# and renders the comment itself with `mcp-guard scan --diff` (which reads
# files and runs none, and applies the base's .mcp-guard.yaml). One comment
# per pull request, found by its marker and author, edited on each push.
#
# Environment: PR_DIR (the scan run's artifact: pr-number), RUN_HEAD_SHA
# (github.event.workflow_run.head_sha), GITHUB_REPOSITORY, GH_TOKEN (for
# gh), REPO_DIR (a clone of the repository, default .), COMMENT_AUTHOR
# (default github-actions[bot]), GITHUB_OUTPUT, RUNNER_TEMP.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

marker='<!-- mcp-guard pull-request comment -->'
repo_dir=${REPO_DIR:-.}
author=${COMMENT_AUTHOR:-github-actions[bot]}
repo=${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}
tmp=$(mktemp -d "${RUNNER_TEMP:?RUNNER_TEMP is not set}/mcp-guard-comment.XXXXXX")

number=$(head -c 32 "${PR_DIR:?PR_DIR is not set}/pr-number" 2>/dev/null | tr -d '\n') ||
  die "the scan run left no pull-request number"
[[ "$number" =~ ^[1-9][0-9]{0,9}$ ]] || die "the scan run's pull-request number is not a number: refusing it"
[[ "${RUN_HEAD_SHA:-}" =~ ^[0-9a-f]{40}$ ]] || die "RUN_HEAD_SHA is not a commit id"

gh api "repos/$repo/pulls/$number" >"$tmp/pr.json"
head=$(jq -r '.head.sha' "$tmp/pr.json")
base=$(jq -r '.base.sha' "$tmp/pr.json")
if [ "$head" != "$RUN_HEAD_SHA" ]; then
  # A push since the run: the run of the newer head comments.
  echo "mcp-guard action: pull request #$number is at ${head:0:12} now, not at the scanned ${RUN_HEAD_SHA:0:12}: no comment from this run"
  exit 0
fi
[[ "$base" =~ ^[0-9a-f]{40}$ ]] || die "pull request #$number has no base commit"

# The head as data: fetched into a ref of mcp-guard's own, never checked out.
git -C "$repo_dir" fetch -q --no-tags origin "+refs/pull/$number/head:refs/mcp-guard/pr-head" "$base"
[ "$(git -C "$repo_dir" rev-parse refs/mcp-guard/pr-head)" = "$head" ] ||
  die "refs/pull/$number/head is not ${head:0:12}"

echo "$marker" >"$tmp/body.md"
mcp-guard -C "$repo_dir" scan --diff "$base...$head" --format markdown --fail-on none >>"$tmp/body.md" ||
  die "mcp-guard could not scan pull request #$number"

gh api --paginate "repos/$repo/issues/$number/comments" >"$tmp/comments.json"
id=$(jq -rs --arg m "$marker" --arg a "$author" \
  'add // [] | map(select(.user.login == $a and (.body | startswith($m)))) | .[0].id // empty' "$tmp/comments.json")
jq -n --rawfile body "$tmp/body.md" '{body: $body}' >"$tmp/request.json"
if [ -n "$id" ]; then
  gh api -X PATCH "repos/$repo/issues/comments/$id" --input "$tmp/request.json" >/dev/null
  echo "mcp-guard action: updated the comment on pull request #$number"
  action=updated
else
  gh api -X POST "repos/$repo/issues/$number/comments" --input "$tmp/request.json" >/dev/null
  echo "mcp-guard action: commented on pull request #$number"
  action=created
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  set_output comment "$action"
fi
