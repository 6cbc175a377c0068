package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Memory on a very large configuration (issue 22, item 4): agentty's
// config with 100,000 servers (about 5.8 MB), read by check, review --all
// and the hook after the pull that brings it; each command's peak
// resident memory is set against the file's size. Past trust.MaxServers
// (1,000; -scale 0.01) and trust.MaxRepoValues the file is one mcp-guard
// refuses as unreadable, so at full scale this measures the cost of that
// refusal; -scale 0.01 measures the most servers it reads.

// serversShape is the generated repository: servers in .agentty/mcp.json
// at bench/servers, added to bench/servers-base (a README only).
type serversShape struct {
	name    string
	servers int
}

func serversShapeOf(f float64) serversShape {
	return serversShape{"servers-100k", scaled(100000, f)}
}

func (s serversShape) dir(out string) string { return filepath.Join(out, s.name) }

func serversConfig(n int) string {
	var b strings.Builder
	b.WriteString("{\"mcpServers\":{\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `"srv%06d":{"command":"npx","args":["-y","pkg-%06d"]}`, i, i)
	}
	b.WriteString("\n}}\n")
	return b.String()
}

func ensureServers(out string, s serversShape, log io.Writer) error {
	dir := s.dir(out)
	st := fmt.Sprintf("perf servers generator v1 %+v\n", s)
	if b, err := os.ReadFile(filepath.Join(dir, ".git", "perf-stamp")); err == nil && string(b) == st {
		return nil
	}
	os.RemoveAll(dir)
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	cfg := serversConfig(s.servers)
	err := fastImport(tmp, log, func(w *bufio.Writer) {
		fmt.Fprintf(w, "commit refs/heads/main\nmark :1\ncommitter Bench <bench@example.com> 1600000000 +0000\ndata 5\nbase\nM 100644 inline README\ndata 7\nbench.\n\n")
		fmt.Fprintf(w, "reset refs/tags/bench/servers-base\nfrom :1\n\n")
		fmt.Fprintf(w, "commit refs/heads/main\nmark :2\ncommitter Bench <bench@example.com> 1600000007 +0000\ndata 8\nservers\nfrom :1\nM 100644 inline .agentty/mcp.json\ndata %d\n%s\n", len(cfg), cfg)
		fmt.Fprintf(w, "reset refs/tags/bench/servers\nfrom :2\n\ndone\n")
	})
	if err != nil {
		return err
	}
	if err := gitIn(tmp, "checkout", "-q", "-f", "main"); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".git", "perf-stamp"), []byte(st), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

// timed runs a command once under /usr/bin/time: wall, CPU and peak RSS.
func (b *bench) timed(dir string, args []string) (stats, error) {
	f := filepath.Join(b.o.out, "timed.txt")
	cmd := exec.Command("/usr/bin/time", append([]string{"-o", f, "-f", "%e %U %S %M"}, args...)...)
	cmd.Dir, cmd.Env = dir, b.env
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	cmd.Stdin = strings.NewReader("")
	cmd.Run() // exit 1 (servers wait for review) is expected
	data, err := os.ReadFile(f)
	if err != nil {
		return stats{}, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	fields := strings.Fields(lines[len(lines)-1])
	if len(fields) != 4 {
		return stats{}, fmt.Errorf("%s: /usr/bin/time said %q", strings.Join(args, " "), data)
	}
	var v [4]float64
	for i, s := range fields {
		if v[i], err = strconv.ParseFloat(s, 64); err != nil {
			return stats{}, fmt.Errorf("%s: /usr/bin/time said %q", strings.Join(args, " "), data)
		}
	}
	sec := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
	return stats{Wall: sec(v[0]), CPU: sec(v[1] + v[2]), RSSKiB: int64(v[3])}, nil
}

// servers measures check, review --all and the hook on the large config,
// each once per -rss-runs (review from an empty HOME every time), and
// reports the largest peak beside the file's size.
func (b *bench) servers(s serversShape) error {
	if err := ensureServers(b.o.out, s, os.Stderr); err != nil {
		return err
	}
	dir := s.dir(b.o.out)
	fi, err := os.Stat(filepath.Join(dir, ".agentty", "mcp.json"))
	if err != nil {
		return err
	}
	size := fi.Size()
	home := filepath.Join(b.o.out, "home")
	w := b.report
	fmt.Fprintf(w, "## Memory on a large configuration\n\n")
	fmt.Fprintf(w, "`.agentty/mcp.json` with %d servers (%.1f MB), HOME empty before every run; the hook runs after the pull that brings the file (`hook post-merge 0`, ORIG_HEAD = bench/servers-base). Largest of %d runs.\n\n", s.servers, float64(size)/1e6, b.o.rssRuns)
	fmt.Fprintf(w, "| command | wall | CPU | peak RSS | peak RSS / file size |\n|---|---:|---:|---:|---:|\n")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"check", []string{b.bin, "check"}},
		{"review --all", []string{b.bin, "review", "--all"}},
		{"hook post-merge", []string{b.bin, "hook", "post-merge", "0"}},
	} {
		var worst stats
		for i := 0; i < max(b.o.rssRuns, 1); i++ {
			os.RemoveAll(home)
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			os.RemoveAll(filepath.Join(dir, ".git", "mcp-guard"))
			if err := b.setHeads(dir, "bench/servers-base", "bench/servers"); err != nil {
				return err
			}
			st, err := b.timed(dir, c.args)
			if err != nil {
				return err
			}
			if st.RSSKiB > worst.RSSKiB {
				worst = st
			}
		}
		fmt.Fprintf(w, "| %s | %s ms | %s ms | %s MiB | %.0f× |\n", c.name, ms(worst.Wall), ms(worst.CPU), mib(worst.RSSKiB), float64(worst.RSSKiB*1024)/float64(size))
		b.add("servers", s.name, "", "mcp-guard "+c.name, worst, "")
	}
	fmt.Fprintln(w)
	return nil
}
