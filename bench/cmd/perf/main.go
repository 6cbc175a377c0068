// Command perf generates the repositories of mcp-guard's performance
// benchmarks (issue 6) and measures mcp-guard against git's own commands
// on them, alternating the two in the same run. See BENCHMARKS.md.
//
//	go run ./bench/cmd/perf            # generate what is missing, then measure everything
//	go run ./bench/cmd/perf -gen-only  # only generate (cached under bench/out/)
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcp-guard/mcp-guard/hooks"
)

func main() {
	var o options
	flag.StringVar(&o.out, "out", "bench/out", "where generated repositories and binaries are cached")
	flag.BoolVar(&o.genOnly, "gen-only", false, "generate the repositories, measure nothing")
	flag.IntVar(&o.runs, "runs", 9, "timed runs per command (medians are reported)")
	flag.IntVar(&o.historyRuns, "history-runs", 5, "timed runs per command for the history scans (seconds each)")
	flag.IntVar(&o.warmups, "warmups", 1, "untimed runs of each command before the timed ones")
	flag.IntVar(&o.rssRuns, "rss-runs", 3, "runs under /usr/bin/time per command for its peak memory (the largest is reported)")
	flag.StringVar(&o.only, "only", "", "comma-separated parts to run: hook,diff,history,gate,tree,servers (default all), or startup alone (process start, also part of hook)")
	flag.Float64Var(&o.scale, "scale", 1, "multiply every repository size by this (0.1 for a quick trial)")
	flag.StringVar(&o.bin, "bin", "", "measure this mcp-guard binary instead of building the module's (before/after comparisons)")
	flag.StringVar(&o.hookEnv, "hook-env", hooks.HookEnv, "what the installed hook scripts set in the hook's environment (VAR=value ...; \"\" for nothing, as before they set it)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "perf: %v\n", err)
		os.Exit(1)
	}
}

type options struct {
	out         string
	genOnly     bool
	runs        int
	historyRuns int
	rssRuns     int
	warmups     int
	only        string
	scale       float64
	bin         string
	hookEnv     string
}

func run(o options) error {
	abs, err := filepath.Abs(o.out)
	if err != nil {
		return err
	}
	o.out = abs
	if o.genOnly {
		for _, r := range repos(o.scale) {
			if err := ensure(o.out, r); err != nil {
				return err
			}
		}
		for _, t := range treeShapes(o.scale) {
			if err := ensureTree(o.out, t, os.Stderr); err != nil {
				return err
			}
		}
		return ensureServers(o.out, serversShapeOf(o.scale), os.Stderr)
	}
	return measure(o)
}
