package main

import (
	"context"
	"fmt"

	docs "github.com/urfave/cli-docs/v3"
	"github.com/urfave/cli/v3"
)

func manCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print mcp-guard's man page (roff)",
		UsageText: "mcp-guard man > mcp-guard.1   (or: mcp-guard man | man -l -)",
		Action: func(_ context.Context, c *cli.Command) error {
			if c.NArg() > 0 {
				return usageError("man takes no arguments")
			}
			page, err := docs.ToManWithSection(c.Root(), 1)
			if err != nil {
				return failf("", "writing the man page: %v", err)
			}
			fmt.Fprint(e.stdout, page)
			return nil
		},
	}
}
