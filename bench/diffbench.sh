#!/usr/bin/env bash
# diffbench: how long `mcp-guard diff A B` takes on a large repository,
# next to the cheapest git commands that look at the same configs:
#   git rev-parse A:.agentty/mcp.json B:.agentty/mcp.json
#   git diff --stat A B -- '**/.agentty/*'
# run in the same loop (interleaved, so load on the machine hits all three
# alike). Prints a Markdown table of medians and ratios for BENCHMARKS.md.
#
# Usage: bench/diffbench.sh [-n RUNS] [-r REPO] [-- GEN FLAGS...]
#   -n RUNS   timed runs per command and scenario (default 21)
#   -r REPO   reuse (or create) the generated repository at REPO
#             (default: a fresh one in a temporary directory)
#   GEN FLAGS go to bench/cmd/gen (default sizes: 50000 files, 20000 commits)
#
# Scenarios (tags written by bench/cmd/gen):
#   script  bench/base..bench/script  a commit edits server.js, which the root server runs
#   config  bench/script..bench/config  a commit adds env.NODE_OPTIONS to the root config
#   noise   bench/config..bench/noise   a commit touches nothing of agentty's
#   pull    bench/base..bench/pull      104 commits, including all of the above
# "warm" runs keep gitscan's surface cache in the git directory (the hook's
# steady state: the previous pull's tree is cached); "cold" runs delete it
# before every run.
set -euo pipefail

runs=21
repo=""
while [ $# -gt 0 ]; do
	case "$1" in
	-n) runs=$2; shift 2 ;;
	-r) repo=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "diffbench: unknown argument $1" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/mcp-guard" ./cmd/mcp-guard && go build -o "$tmp/gen" ./bench/cmd/gen)
if [ -z "$repo" ]; then
	repo=$tmp/repo
fi
if [ ! -d "$repo" ]; then
	"$tmp/gen" -dir "$repo" "$@"
fi

# An isolated user: no git or agentty configuration of the machine's own.
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null NO_COLOR=1
unset AGENTTY_MCP_ALLOW_PROJECT AGENTTY_MCP_CONFIG
mkdir -p "$HOME"
cd "$repo"
# Approve the root config's servers as of bench/base, as a user would have.
git show bench/base:.agentty/mcp.json >"$tmp/base.json"
mkdir -p "$tmp/launch/.agentty" && cp "$tmp/base.json" "$tmp/launch/.agentty/mcp.json"
"$tmp/mcp-guard" -C "$tmp/launch" approve --all >/dev/null
cache=$(git rev-parse --git-common-dir)/mcp-guard/trees.v2

# now_us prints the time in microseconds without forking.
now_us() { local t=${EPOCHREALTIME/./}; echo "${t}"; }

# median of the numbers on stdin.
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}'; }

# time_once CMD...: microseconds of one run (output discarded; exit 1 is
# mcp-guard's "needs attention", not a failure).
time_once() {
	local t0 t1 rc=0
	t0=$(now_us)
	"$@" >/dev/null 2>&1 || rc=$?
	t1=$(now_us)
	if [ "$rc" -gt 1 ]; then
		echo "diffbench: $* failed ($rc)" >&2
		exit 1
	fi
	echo $((t1 - t0))
}

ms() { awk -v us="$1" 'BEGIN {printf "%.1f", us/1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f×", a/b}'; }

printf '| scenario | cache | mcp-guard diff | git rev-parse | git diff --stat | ÷ rev-parse | ÷ diff --stat |\n'
printf '|---|---|---:|---:|---:|---:|---:|\n'
for scenario in "script bench/base bench/script" "config bench/script bench/config" "noise bench/config bench/noise" "pull bench/base bench/pull"; do
	set -- $scenario
	name=$1 a=$2 b=$3
	for cache_mode in warm cold; do
		: >"$tmp/mg" && : >"$tmp/rp" && : >"$tmp/ds"
		"$tmp/mcp-guard" diff "$a" "$b" >/dev/null 2>&1 || true # warm-up (and fill the cache)
		for _ in $(seq "$runs"); do
			if [ "$cache_mode" = cold ]; then rm -f "$cache"; fi
			time_once "$tmp/mcp-guard" diff "$a" "$b" >>"$tmp/mg"
			time_once git rev-parse "$a:.agentty/mcp.json" "$b:.agentty/mcp.json" >>"$tmp/rp"
			time_once git diff --stat "$a" "$b" -- '**/.agentty/*' >>"$tmp/ds"
		done
		mg=$(median <"$tmp/mg") rp=$(median <"$tmp/rp") ds=$(median <"$tmp/ds")
		printf '| %s | %s | %s ms | %s ms | %s ms | %s | %s |\n' "$name" "$cache_mode" "$(ms "$mg")" "$(ms "$rp")" "$(ms "$ds")" "$(ratio "$mg" "$rp")" "$(ratio "$mg" "$ds")"
	done
done
echo
echo "runs per cell: $runs; repository: $(git rev-list --count bench/pull) commits, $(git ls-tree -r --name-only bench/base | wc -l) files at bench/base"
