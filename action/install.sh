#!/usr/bin/env bash
# Installs mcp-guard for the GitHub Action: the released binary for the
# runner's platform, its archive checked against the release's
# checksums.txt (and that file's Sigstore bundle when cosign is on PATH),
# or, only when asked (MCP_GUARD_INSTALL=source), a build of the action's
# own source.
#
# Environment: MCP_GUARD_VERSION (a tag such as v1.2.3; empty: the action's
# own ref when that is a release tag), MCP_GUARD_INSTALL (release or
# source), MCP_GUARD_RELEASES (where releases are downloaded from; tests
# point it at a directory), ACTION_REF, ACTION_PATH,
# RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

install_kind=${MCP_GUARD_INSTALL:-release}
releases=${MCP_GUARD_RELEASES:-https://github.com/mcp-guard/mcp-guard/releases/download}
bin_dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/mcp-guard-bin"
mkdir -p "$bin_dir"

case "$install_kind" in
source)
  command -v go >/dev/null 2>&1 || die "install: source needs Go (actions/setup-go before this action)"
  (cd "${ACTION_PATH:?}" && go build -mod=readonly -trimpath \
    -ldflags "-X main.version=${ACTION_REF:-devel}-source" \
    -o "$bin_dir/mcp-guard" ./cmd/mcp-guard)
  echo "$bin_dir" >>"${GITHUB_PATH:?}"
  set_output version "$("$bin_dir/mcp-guard" --version)"
  exit 0
  ;;
release) ;;
*) die "install: want release or source, not '$install_kind'" ;;
esac

version=${MCP_GUARD_VERSION:-}
if [ -z "$version" ]; then
  # The action's own release, when it is used by its tag.
  if [[ "${ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    version=$ACTION_REF
  else
    die "the action is used at '${ACTION_REF:-?}', which is no release tag: pass 'version: v1.2.3' (the release to install), pin the action to a release tag, or pass 'install: source' to build this ref"
  fi
fi
[[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "version '$version' is no release tag (want v1.2.3)"

case "${RUNNER_OS:-Linux}" in
Linux) os=linux ext=tar.gz ;;
macOS) os=darwin ext=tar.gz ;;
Windows) os=windows ext=zip ;;
*) die "no mcp-guard release for runner OS '${RUNNER_OS}': pass 'install: source'" ;;
esac
case "${RUNNER_ARCH:-X64}" in
X64) arch=amd64 ;;
ARM64) arch=arm64 ;;
*) die "no mcp-guard release for runner architecture '${RUNNER_ARCH}': pass 'install: source'" ;;
esac
archive="mcp-guard_${version#v}_${os}_${arch}.${ext}"

work=$(mktemp -d "${RUNNER_TEMP}/mcp-guard-download.XXXXXX")
trap 'rm -rf "$work"' EXIT
fetch() { # fetch NAME: the release asset NAME into $work
  curl -fsSL --retry 3 --proto '=https,file' -o "$work/$1" "$releases/$version/$1" ||
    die "could not download $1 of mcp-guard $version from $releases/$version/"
}
fetch checksums.txt
fetch "$archive"

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$work/checksums.txt")
[ -n "$want" ] || die "checksums.txt of $version does not list $archive: refusing it"
got=$(sha256_of "$work/$archive")
[ "$got" = "$want" ] || die "$archive does not match checksums.txt of $version (sha256 $got, want $want): refusing it"

if command -v cosign >/dev/null 2>&1; then
  fetch checksums.txt.sigstore.json
  cosign verify-blob --bundle "$work/checksums.txt.sigstore.json" \
    --certificate-identity "https://github.com/mcp-guard/mcp-guard/.github/workflows/release.yml@refs/tags/$version" \
    --certificate-oidc-issuer https://token.actions.githubusercontent.com \
    "$work/checksums.txt" >/dev/null 2>&1 ||
    die "the signature of checksums.txt of $version does not verify: refusing it"
  signature=verified
else
  echo "mcp-guard action: cosign is not on PATH, so the signature of checksums.txt was not checked (the checksum was); add sigstore/cosign-installer before this action to check it"
  signature=not-checked
fi

case "$ext" in
tar.gz) tar -xzf "$work/$archive" -C "$work" mcp-guard && mv "$work/mcp-guard" "$bin_dir/mcp-guard" ;;
zip) unzip -q -o "$work/$archive" mcp-guard.exe -d "$work" && mv "$work/mcp-guard.exe" "$bin_dir/mcp-guard.exe" ;;
esac
echo "$bin_dir" >>"${GITHUB_PATH:?}"
set_output version "$version"
set_output signature "$signature"
echo "mcp-guard action: installed mcp-guard $version ($archive, sha256 $got, signature $signature)"
