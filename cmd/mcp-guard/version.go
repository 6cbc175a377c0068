package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v3"
)

// version, when set at link time (-ldflags "-X main.version=…"), wins over
// the module version the build recorded.
var version string

// buildInfo is the running binary's build information.
func buildInfo() *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return bi
}

// moduleVersion is mcp-guard's version: the link-time one, else the
// module's, else "devel".
func moduleVersion() string { return versionOf(version, buildInfo()) }

func versionOf(linked string, bi *debug.BuildInfo) string {
	switch {
	case linked != "":
		return linked
	case bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)":
		return bi.Main.Version
	}
	return "devel"
}

// versionLine is what `mcp-guard version` and --version print.
func versionLine() string { return formatVersion(version, buildInfo()) }

// formatVersion is "mcp-guard VERSION (commit REV[+dirty], TIME; GO)", the
// parts the build did not record left out.
func formatVersion(linked string, bi *debug.BuildInfo) string {
	line := "mcp-guard " + versionOf(linked, bi)
	if bi == nil {
		return line
	}
	var parts []string
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if settings["vcs.modified"] == "true" {
			rev += "+dirty"
		}
		parts = append(parts, "commit "+rev)
	}
	if t := settings["vcs.time"]; t != "" {
		parts = append(parts, t)
	}
	tail := strings.Join(parts, ", ")
	if bi.GoVersion != "" {
		if tail != "" {
			tail += "; "
		}
		tail += bi.GoVersion
	}
	if tail != "" {
		line += " (" + tail + ")"
	}
	return line
}

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print mcp-guard's version, commit and Go version (the same as --version)",
		UsageText: "mcp-guard version",
		Action: func(_ context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("version takes no arguments")
			}
			fmt.Fprintln(e.stdout, versionLine())
			return nil
		},
	}
}
