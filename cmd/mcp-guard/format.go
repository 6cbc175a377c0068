package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcp-guard/mcp-guard/internal/nearname"
	"github.com/mcp-guard/mcp-guard/report"
)

// One spelling of JSON output is accepted by every command that prints
// JSON: --json, and --format json (with the command's other formats).

// textJSON are the formats of a command whose output is text or its JSON
// document.
var textJSON = []string{"text", "json"}

// formatFlags are --format, over formats (the first the default), and
// --json; jsonUsage says what --json prints.
func formatFlags(formats []string, jsonUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: jsonUsage},
		&cli.StringFlag{Name: "format", Value: formats[0], Usage: "output `FORMAT`: " + strings.Join(formats, ", ")},
	}
}

// outputFormat is the format formatFlags asked for: --json is --format
// json; any other format given beside it, or one not of formats, is a
// usage error that names the formats.
func outputFormat(c *cli.Command, formats []string) (string, error) {
	f := c.String("format")
	if c.Bool("json") {
		if c.IsSet("format") && f != "json" {
			return "", failf("give one of them", "--json and --format %s ask for two formats", f)
		}
		return "json", nil
	}
	if !slices.Contains(formats, f) {
		return "", failf(formatHint(f, formats), "--format %q: no such format", f)
	}
	return f, nil
}

// formatHint names the formats, the nearest to the one given first.
func formatHint(given string, formats []string) string {
	all := "the formats are " + report.JoinList(formats, "and")
	if near := nearname.Of(strings.ToLower(given), formats); near != "" {
		return "did you mean --format " + near + "? (" + all + ")"
	}
	return all
}
