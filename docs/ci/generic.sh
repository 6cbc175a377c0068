#!/bin/sh
# Any other CI system (Jenkins, Buildkite, CircleCI, Azure Pipelines, …):
# install a pinned, verified release and scan. Set BASE to the target
# branch's commit on a pull request to scan only what it changes.
set -eu
v=1.0.0 os=linux arch=amd64
base=https://github.com/mcp-guard/mcp-guard/releases/download/v$v
archive=mcp-guard_${v}_${os}_${arch}.tar.gz
curl -fsSLO "$base/checksums.txt"
curl -fsSLO "$base/$archive"
grep "  $archive\$" checksums.txt | sha256sum -c -   # refuses a mismatch
tar -xzf "$archive" mcp-guard
set --
if [ -n "${BASE:-}" ]; then set -- --diff "$BASE...HEAD"; fi
./mcp-guard scan "$@" --format sarif --fail-on none --output mcp-guard.sarif   # for a SARIF viewer
./mcp-guard scan "$@" --format json --fail-on none --output mcp-guard.json     # for action/rollup.sh
./mcp-guard scan "$@" --fail-on high                                           # the log, and the exit status
