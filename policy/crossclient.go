package policy

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/surface"
	"github.com/mcp-guard/mcp-guard/trust"
)

// MG717: one directory's configs give a server name different commands
// in two clients. Each config is read with a minimal reader for what a
// server runs (command and args, or its url): JSON with comments and
// trailing commas tolerated for every JSON dialect (a lenient reader only
// finds more servers to compare), TOML through the client model's Codex reader.

// IsServerConfig reports the kinds CrossClient reads: every client's
// project config (surface.Config), as the client declares it.
func IsServerConfig(k surface.Kind) bool { return k.Role() == surface.Config }

// kindClient is the client model of a kind's client, nil for CI and a
// linked directory.
func kindClient(k surface.Kind) client.Client {
	if id := k.Client(); id != "" {
		return client.Lookup(client.ID(id))
	}
	return nil
}

// runsAt is what one server runs, and where it is defined.
type runsAt struct {
	runs string
	pos  trust.Pos
}

// CrossClient is MG717 over the server configs of one side (files of
// other kinds, and files that could not be read, are skipped): for each
// directory and server name, every config whose server runs something
// other than the first config's (in path order) is reported there.
func CrossClient(files []File) []trust.Finding {
	type cfg struct {
		f       File
		servers map[string]runsAt
	}
	byDir := map[string][]cfg{}
	for _, f := range files {
		if !IsServerConfig(f.Kind) || f.Err != nil || f.Data == nil {
			continue
		}
		if s := serverRuns(f); len(s) > 0 {
			d := configBase(f.Path, f.Kind)
			byDir[d] = append(byDir[d], cfg{f, s})
		}
	}
	var out []trust.Finding
	for _, cs := range byDir {
		sort.Slice(cs, func(i, j int) bool { return cs[i].f.Path < cs[j].f.Path })
		first := map[string]int{} // name → index of the first config defining it
		for i, c := range cs {
			var names []string
			for n := range c.servers {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				j, seen := first[n]
				if !seen {
					first[n] = i
					continue
				}
				a, b := cs[j], c.servers[n]
				if a.servers[n].runs == b.runs {
					continue
				}
				out = append(out, trust.NewFinding("MG717", c.f.Path, b.pos, n, "",
					fmt.Sprintf("server %s runs %s for %s here but %s for %s (%s): a review of it in one client says nothing about what the other runs",
						quote(n), quote(b.runs), kindClient(c.f.Kind).Title(), quote(a.servers[n].runs), kindClient(a.f.Kind).Title(), a.f.Path)))
			}
		}
	}
	return out
}

// configBase is the directory a config belongs to: the one its client
// is launched in (the config's declared file, `.mcp.json` or
// `.gemini/settings.json`, is below it).
func configBase(p string, k surface.Kind) string {
	d := p
	for range strings.Count(k.Spec().File(), "/") + 1 {
		d = path.Dir(d)
	}
	return d
}

// serverRuns reads what each server of a config runs, through its
// client's own reader (client.Client.Parse: the one reader of the file).
func serverRuns(f File) map[string]runsAt {
	c := kindClient(f.Kind)
	if c == nil {
		return nil
	}
	cfg := client.ParseFile(c, f.Path, f.Data)
	if cfg.Err != nil {
		return nil
	}
	out := map[string]runsAt{}
	for _, sv := range cfg.Servers {
		var words []string
		if sv.Command != "" {
			words = append(append(words, sv.Command), sv.SpawnArgs()...)
		} else if sv.URL != "" {
			words = append(words, sv.URL)
		}
		if len(words) > 0 {
			out[sv.Name] = runsAt{normalizeRuns(words), sv.NamePos}
		}
	}
	return out
}

// normalizeRuns joins a command line, writing the workspace folder the
// clients' ways (${workspaceFolder}/x, ./x, x) alike.
func normalizeRuns(words []string) string {
	for i, w := range words {
		for _, p := range []string{"${workspaceFolder}/", "${workspaceRoot}/", "./"} {
			w = strings.TrimPrefix(w, p)
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}
