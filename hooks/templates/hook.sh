#!/bin/sh
# mcp-guard-hook v1: {{.Type}}
# Installed by `mcp-guard hooks install`; `mcp-guard hooks uninstall` puts back
# what was here before, byte for byte. mcp-guard rewrites this file: do not edit.
#
# A hook that was here before lives on as {{.Type}}.mcp-guard-chained beside
# this file; it runs first and its exit status is this hook's. Then mcp-guard
# says what the operation changed in agentty's MCP servers. That part never
# fails the git operation, never waits for input and gives up after a few
# seconds. MCP_GUARD=0 skips it.

hook={{.Type}}
mcp_guard={{.Binary}}

case $0 in
*/*) hook_dir=${0%/*} ;;
*) hook_dir=. ;;
esac
chained=$hook_dir/$hook.mcp-guard-chained

status=0
if [ "$hook" = post-rewrite ]; then
	# git writes the rewritten commits on stdin; both hooks get them.
	input=$(cat; echo .)
	input=${input%.}
	if [ -x "$chained" ]; then
		printf '%s' "$input" | "$chained" "$@"
		status=$?
	fi
elif [ -x "$chained" ]; then
	"$chained" "$@"
	status=$?
fi

if [ "${MCP_GUARD-}" != 0 ]; then
	if [ ! -x "$mcp_guard" ]; then
		recorded=$mcp_guard
		mcp_guard=$(command -v mcp-guard 2>/dev/null) || mcp_guard=
	fi
	if [ -z "$mcp_guard" ]; then
		echo "mcp-guard: not found ($recorded is gone and mcp-guard is not on PATH): not checking what this $hook changed in agentty's MCP servers" >&2
	elif [ "$hook" = post-rewrite ]; then
		printf '%s' "$input" | "$mcp_guard" hook "$hook" "$@"
	else
		"$mcp_guard" hook "$hook" "$@" </dev/null
	fi
fi
exit $status
