#!/bin/sh
# mcp-guard-hook v1: {{.Type}}
# Installed by `mcp-guard hooks install`; `mcp-guard hooks uninstall` puts back
# what was here before, byte for byte. mcp-guard rewrites this file: do not edit.
#
# A hook that was here before lives on as {{.Type}}.mcp-guard-chained beside
# this file; it runs first and its exit status is this hook's. Then mcp-guard
# says what the operation changed in what your AI coding agents run. That part never
# fails the git operation, never waits for input and gives up after a few
# seconds. MCP_GUARD=0 skips it. mcp-guard runs with {{.Env}}: it does
# nothing in parallel, and starts with fewer threads and pages so.

hook={{.Type}}
mcp_guard={{.Binary}}

case $0 in
*/*) hook_dir=${0%/*} ;;
*) hook_dir=. ;;
esac
chained=$hook_dir/$hook.mcp-guard-chained

status=0
if [ "$hook" = reference-transaction ] && [ ! -x "$chained" ] && [ "$1" != committed ]; then
	# It runs up to three times per ref update (prepared, committed,
	# aborted): leave at once, reading nothing.
	exit 0
fi
if [ "$hook" = post-rewrite ] || [ "$hook" = reference-transaction ]; then
	# git writes on stdin (the rewritten commits, the updated refs); both
	# hooks get it.
	if [ -x "$chained" ]; then
		input=$(cat; echo .)
		input=${input%.}
		printf '%s' "$input" | "$chained" "$@"
		status=$?
	elif [ "$hook" = post-rewrite ]; then
		input=$(cat; echo .)
		input=${input%.}
	fi
elif [ -x "$chained" ]; then
	"$chained" "$@"
	status=$?
fi

if [ "$hook" = post-commit ] || [ "$hook" = post-applypatch ]; then
	# mcp-guard's reference-transaction, when installed, reports the same
	# move: say it once. (Shell builtins only: no process starts.)
	if [ -r "$hook_dir/reference-transaction" ] && { read -r line && read -r line; } 2>/dev/null <"$hook_dir/reference-transaction"; then
		case $line in
		"# mcp-guard-hook "*) exit $status ;;
		esac
	fi
fi

if [ "$hook" = reference-transaction ]; then
	# Only a committed move of HEAD or refs/stash can change what an agent
	# runs; any other update (a fetch, a new branch) ends here, starting no
	# process.
	[ "$1" = committed ] && [ "${MCP_GUARD-}" != 0 ] || exit $status
	moved=
	keep() {
		while read -r old new ref; do
			case $ref in
			HEAD | refs/stash) [ "$old" = "$new" ] || moved="$moved$old $new $ref
" ;;
			esac
		done
	}
	if [ -x "$chained" ]; then
		keep <<EOF
$input
EOF
	else
		keep
	fi
	[ -n "$moved" ] || exit $status
	input=$moved
fi

if [ "${MCP_GUARD-}" != 0 ]; then
	if [ ! -x "$mcp_guard" ]; then
		recorded=$mcp_guard
		mcp_guard=$(command -v mcp-guard 2>/dev/null) || mcp_guard=
	fi
	if [ -z "$mcp_guard" ]; then
		echo "mcp-guard: not found ($recorded is gone and mcp-guard is not on PATH): not checking what this $hook changed in what your agents run" >&2
	elif [ "$hook" = post-rewrite ] || [ "$hook" = reference-transaction ]; then
		printf '%s' "$input" | {{.Env}} "$mcp_guard" hook "$hook" "$@"
	else
		{{.Env}} "$mcp_guard" hook "$hook" "$@" </dev/null
	fi
fi
exit $status
