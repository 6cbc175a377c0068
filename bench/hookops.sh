#!/bin/bash
# What the hooks cost git: median wall time of git operations with no
# hook, with an empty reference-transaction hook (git's own cost of
# starting one), with `mcp-guard hooks install` (the default hooks) and
# with `mcp-guard hooks install --reference-transaction`.
# Usage: bench/hookops.sh [REFS [RUNS [MODES]]]   (defaults: 10000 refs, 3
# runs, every mode: "none empty mcp-guard mcp-guard-rt"). The two modes
# with a reference-transaction hook take about 3 hook starts per ref: tens
# of minutes for 10,000 refs on a loaded machine.
set -e
refs=${1:-10000}
runs=${2:-3}
modes=${3:-none empty mcp-guard mcp-guard-rt}
out=$(cd "$(dirname "$0")" && pwd)/out/hookops
rm -rf "$out" && mkdir -p "$out/home"
go build -o "$out/mcp-guard" ./cmd/mcp-guard
export HOME=$out/home GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$out/home/.gitconfig NO_COLOR=1
git config --global user.email bench@example.com
git config --global user.name bench
git config --global init.defaultBranch main
cd "$out"
# 200 files, one .agentty/mcp.json, REFS branches.
git init -q w && cd w && mkdir .agentty
echo '{"mcpServers":{"a":{"command":"x"}}}' > .agentty/mcp.json
for i in $(seq 1 200); do echo $i > f$i; done
git add -A && git commit -qm init
for i in $(seq 1 "$refs"); do echo "create refs/heads/b$i HEAD"; done | git update-ref --stdin
git clone -q --bare . ../up.git && cd ..

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ms() { local s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; echo $((($(date +%s%N) - s) / 1000)); }
echo "git $(git --version | cut -d' ' -f3), $refs refs, fetch runs $runs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in $modes; do
	rm -rf c && git clone -q up.git c && cd c
	case $mode in
	empty) printf '#!/bin/sh\nexit 0\n' > .git/hooks/reference-transaction && chmod +x .git/hooks/reference-transaction ;;
	mcp-guard) "$out/mcp-guard" hooks install >/dev/null ;;
	mcp-guard-rt) "$out/mcp-guard" hooks install --reference-transaction >/dev/null ;;
	esac
	# a fetch of REFS new refs: one transaction per ref in git 2.39
	f=$(for i in $(seq 1 "$runs"); do ms git fetch -q origin "+refs/heads/*:refs/remotes/r$i/*"; done | median)
	# a commit touching nothing agentty runs
	c=$(for i in $(seq 1 31); do echo $i > f1; ms git commit -q -am "c$i"; done | median)
	# reset --hard HEAD~1 (only f1 changes)
	r=$(for i in $(seq 1 31); do ms git reset -q --hard HEAD~1; done | median)
	# cherry-pick of a commit touching f2, undone after each run
	git checkout -q -b pick && echo p > f2 && git commit -q -am p && git checkout -q main
	p=$(for i in $(seq 1 21); do ms git cherry-pick pick; git reset -q --hard HEAD~1 >/dev/null 2>&1; done | median)
	echo "$mode: fetch of $refs refs ${f}us, commit ${c}us, reset --hard ${r}us, cherry-pick ${p}us"
	cd ..
done
