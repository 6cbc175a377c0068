#!/usr/bin/env bash
# Runs mcp-guard scan for the GitHub Action and reports it: the SARIF file,
# annotations, the job summary (what merging lets each agent run without
# asking, and the findings), the step's outputs, and on a pull request the
# number the comment workflow (action/comment) needs.
#
# On a pull request the scan is `--diff BASE...HEAD`: the findings the
# branch introduces and the approval impact of merging it, with the base's
# .mcp-guard.yaml (scan --diff never applies the branch's own) and the
# base's version of the baseline file, so a pull request cannot silence its
# own check. Nothing in the repository is run.
#
# Environment: SCAN_PATH, SCAN_ARGS (words), FAIL_ON, SARIF, ANNOTATIONS,
# SUMMARY, COMMENT, BASELINE, DIFF (auto, true, false), and GitHub's
# GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
# RUNNER_TEMP.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

path=${SCAN_PATH:-.}
fail_on=${FAIL_ON:-high}
sarif=${SARIF:-mcp-guard.sarif}
tmp=$(mktemp -d "${RUNNER_TEMP:?RUNNER_TEMP is not set}/mcp-guard-scan.XXXXXX")
command -v mcp-guard >/dev/null 2>&1 || die "mcp-guard is not on PATH (the install step failed?)"
command -v jq >/dev/null 2>&1 || die "jq is not on PATH"

# SCAN_ARGS holds flags: split into words on purpose.
read -r -a args <<<"${SCAN_ARGS:-}"

pr_number="" base_sha=""
if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
  pr_number=$(jq -r '.pull_request.number // empty' "$GITHUB_EVENT_PATH")
  base_sha=$(jq -r '.pull_request.base.sha // empty' "$GITHUB_EVENT_PATH")
fi
[[ "$pr_number" =~ ^[0-9]*$ ]] || die "the event's pull request number is not a number"
[[ "$base_sha" =~ ^[0-9a-f]*$ ]] || die "the event's base commit is not a commit id"

diff=${DIFF:-auto}
if [ "$diff" = auto ]; then
  diff=false
  [ -n "$pr_number" ] && diff=true
fi
config_note="the work tree's .mcp-guard.yaml"
base_rev=""
if [ "$diff" = true ]; then
  [ -n "$pr_number" ] || die "diff: true needs a pull_request event"
  git -C "$path" rev-parse -q --verify HEAD^2 >/dev/null 2>&1 && base_rev=$(git -C "$path" rev-parse HEAD^1)
  # A pull request checked out as its merge commit: HEAD^1 is the base.
  if [ -z "$base_rev" ] && git -C "$path" cat-file -e "$base_sha^{commit}" 2>/dev/null; then
    base_rev=$base_sha
  fi
  [ -n "$base_rev" ] || die "the base of pull request #$pr_number is not in the clone: check out with fetch-depth: 2 (the merge commit) or 0"
  args=(--diff "$base_rev...HEAD" ${args[@]+"${args[@]}"})
  config_note="the base commit's .mcp-guard.yaml (${base_rev:0:12}): a pull request cannot change the configuration of its own check"
fi

if [ -n "${BASELINE:-}" ]; then
  if [ -n "$base_rev" ]; then
    if git -C "$path" show "$base_rev:$BASELINE" >"$tmp/baseline.json" 2>/dev/null; then
      args+=(--baseline "$tmp/baseline.json")
      config_note+="; the baseline $BASELINE from the base commit"
    else
      config_note+="; no baseline ($BASELINE is not in the base commit, and the branch's own is not used)"
    fi
  else
    args+=(--baseline "$BASELINE")
    config_note+="; the baseline $BASELINE"
  fi
fi

scan() { mcp-guard scan ${args[@]+"${args[@]}"} "$@" "$path"; }

set +e
scan --format json --fail-on none --output "$tmp/report.json"
json_code=$?
scan --format sarif --fail-on "$fail_on" --output "$sarif"
code=$?
set -e
[ "$json_code" -le 1 ] || code=2

findings=0 critical=0 high=0
if [ "$code" -ne 2 ]; then
  findings=$(jq '(.findings // []) | length' "$tmp/report.json")
  critical=$(jq '[(.findings // [])[] | select(.severity == "critical")] | length' "$tmp/report.json")
  high=$(jq '[(.findings // [])[] | select(.severity == "high")] | length' "$tmp/report.json")
  if [ "${ANNOTATIONS:-true}" = true ]; then
    scan --format github --fail-on none || true
  fi
  scan --format markdown --fail-on "$fail_on" --output "$tmp/summary.md" || [ $? -eq 1 ]
  printf '\n<sub>Configuration: %s.</sub>\n' "$config_note" >>"$tmp/summary.md"
  if [ "${SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$tmp/summary.md" >>"$GITHUB_STEP_SUMMARY"
  fi
fi

set_output exit-code "$code"
set_output findings "$findings"
set_output critical "$critical"
set_output high "$high"
set_output sarif-file "$sarif"
set_output report "$tmp/report.json"
set_output summary-file "$tmp/summary.md"

# The comment workflow reads the pull request's number from here and
# computes the comment itself: nothing else of this run is trusted there.
if [ "${COMMENT:-true}" = true ] && [ -n "$pr_number" ]; then
  mkdir -p "$RUNNER_TEMP/mcp-guard-pr"
  printf '%s\n' "$pr_number" >"$RUNNER_TEMP/mcp-guard-pr/pr-number"
  set_output comment-dir "$RUNNER_TEMP/mcp-guard-pr"
fi
exit "$code"
