# The release image (built by GoReleaser, .goreleaser.yaml dockers_v2, from
# the binary it built: this file is not a source build). It scans a
# mounted repository:
#
#   docker run --rm -v "$PWD:/repo" ghcr.io/mcp-guard/mcp-guard:v1.0.0 scan /repo
#
# Static mcp-guard, git (the object reader falls back to it for what it
# does not read itself), CA certificates, nothing else; runs as an
# unprivileged user. Every directory is safe for git here: a mounted
# repository belongs to another uid, and the image runs nothing but
# mcp-guard, which runs git without hooks or fsmonitor (gitscan/withgit.go).
FROM alpine:3.22
RUN apk add --no-cache git ca-certificates \
 && adduser -D -H -u 10001 mcp-guard \
 && git config --system --add safe.directory '*'
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/mcp-guard /usr/local/bin/mcp-guard
USER 10001:10001
WORKDIR /repo
ENTRYPOINT ["/usr/local/bin/mcp-guard"]
CMD ["scan", "/repo"]
