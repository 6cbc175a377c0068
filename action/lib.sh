# Shared helpers of the action's scripts (sourced, not run).

# die prints an error as a workflow command and on stderr, then exits 2.
die() {
  printf '::error title=mcp-guard::%s\n' "$*"
  printf 'mcp-guard action: %s\n' "$*" >&2
  exit 2
}

# set_output NAME VALUE appends one output for the step.
set_output() {
  [ -n "${GITHUB_OUTPUT:-}" ] || die "GITHUB_OUTPUT is not set: run this inside GitHub Actions"
  printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
}

# sha256_of FILE prints the file's SHA-256 (GNU coreutils or macOS shasum).
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}
