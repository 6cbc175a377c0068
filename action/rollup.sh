#!/usr/bin/env bash
# Rolls the JSON reports of many repositories' scans (`mcp-guard scan
# --format json`, one per repository) up into one Markdown summary: a row
# per repository with its findings by severity, the totals, and every
# critical finding. A repository is named by its report's file name
# (acme-api.json) or, for a report named mcp-guard.json, its directory
# (acme-api/mcp-guard.json: the layout actions/download-artifact gives).
#
#   bash action/rollup.sh reports/*.json > fleet.md
#   bash action/rollup.sh reports/*/mcp-guard.json >> "$GITHUB_STEP_SUMMARY"
#
# Exit status: 0 when every report was read, 2 when one is not a report.
# Needs jq. Repository text is printed in code spans, never as markup.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: rollup.sh REPORT.json..." >&2; exit 2; }
command -v jq >/dev/null 2>&1 || { echo "rollup.sh: jq is not on PATH" >&2; exit 2; }

# code sets repository text in a code span: control and format characters
# shown as "?", backticks as quotes, pipes escaped for table cells.
code='def code: "`" + (gsub("[\\p{Cc}\\p{Cf}]"; "?") | gsub("`"; "'"'"'") | gsub("\\|"; "\\|")) + "`";'
repo_name() {
  local name
  name=$(basename "$1" .json)
  [ "$name" = mcp-guard ] && name=$(basename "$(dirname "$1")")
  printf '%s' "$name"
}

rows=""
for f in "$@"; do
  row=$(jq -r --arg name "$(repo_name "$f")" "$code"'
    if (.version | type) != "number" or (.findings | type) != "array" then error("not a report of mcp-guard scan --format json") else . end
    | [.findings[].severity] as $s
    | [($name | code)] + ([ "critical", "high", "medium", "low", "info" ] | map(. as $x | [$s[] | select(. == $x)] | length | tostring))
      + [(.findings | length | tostring), ([(.changes // [])[] | select(.impact == "trust-preserving" or .impact == "new-preapproved")] | length | tostring)]
    | "| " + join(" | ") + " |"' "$f" 2>/dev/null) ||
    { echo "rollup.sh: $f is not a report of mcp-guard scan --format json" >&2; exit 2; }
  rows+="$row"$'\n'
done

echo "### mcp-guard across $# repositories"
echo
echo "| repository | critical | high | medium | low | info | findings | runs without asking after the change |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
printf '%s' "$rows"
jq -rs '
  [.[].findings[]] as $all
  | "| **total** | " + ([ "critical", "high", "medium", "low", "info" ] | map(. as $x | [$all[] | select(.severity == $x)] | length | tostring) | join(" | "))
    + " | " + ($all | length | tostring) + " | " + ([.[] | (.changes // [])[] | select(.impact == "trust-preserving" or .impact == "new-preapproved")] | length | tostring) + " |"' "$@"
echo
crit=$(for f in "$@"; do
  jq -r --arg name "$(repo_name "$f")" "$code"'
    .findings[] | select(.severity == "critical")
    | "- " + ($name | code) + " " + .rule + " " + ((.path + ":" + (.line // 1 | tostring)) | code) + ": " + (.message | code)' "$f"
done)
if [ -n "$crit" ]; then
  echo "#### Critical findings"
  echo
  printf '%s\n' "$crit"
fi
