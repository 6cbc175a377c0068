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

// serverConfigKinds are the kinds that define servers, with the client
// that reads each and the key its servers are under.
var serverConfigKinds = map[surface.Kind]struct{ client, key string }{
	client.KindMCPConfig:      {"agentty", "mcpServers"},
	client.KindClaudeMCP:      {"Claude Code", "mcpServers"},
	client.KindGeminiSettings: {"Gemini CLI", "mcpServers"},
	client.KindCursorMCP:      {"Cursor", "mcpServers"},
	client.KindVSCodeMCP:      {"VS Code", "servers"},
	client.KindCodexConfig:    {"Codex", ""},
}

// IsServerConfig reports the kinds CrossClient reads.
func IsServerConfig(k surface.Kind) bool {
	_, ok := serverConfigKinds[k]
	return ok
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
		if _, ok := serverConfigKinds[f.Kind]; !ok || f.Err != nil || f.Data == nil {
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
						quote(n), quote(b.runs), serverConfigKinds[c.f.Kind].client, quote(a.servers[n].runs), serverConfigKinds[a.f.Kind].client, a.f.Path)))
			}
		}
	}
	return out
}

// configBase is the directory a config belongs to: the one holding
// .mcp.json, or holding the client's directory.
func configBase(p string, k surface.Kind) string {
	d := path.Dir(p)
	if k != client.KindClaudeMCP {
		d = path.Dir(d)
	}
	return d
}

// serverRuns reads what each server of a config runs.
func serverRuns(f File) map[string]runsAt {
	out := map[string]runsAt{}
	if f.Kind == client.KindCodexConfig {
		cfg := client.Lookup(client.Codex).Parse(f.Path, f.Data)
		if cfg.Err != nil {
			return nil
		}
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
	root, err := decodePositioned(stripJSONC(f.Data, true))
	if err != nil {
		return nil
	}
	servers, ok := root.get(serverConfigKinds[f.Kind].key)
	if !ok && f.Kind == client.KindMCPConfig {
		servers, ok = root.get("servers") // agentty takes either
	}
	if !ok || servers.val.kind != 'o' {
		return nil
	}
	for _, s := range servers.val.resolved() {
		var words []string
		if c, ok := s.val.get("command"); ok && c.val.kind == 's' {
			words = append(words, c.val.str)
			if a, ok := s.val.get("args"); ok && a.val.kind == 'a' {
				for _, e := range a.val.elems {
					words = append(words, e.str)
				}
			}
		} else {
			for _, k := range []string{"url", "httpUrl", "serverUrl"} {
				if u, ok := s.val.get(k); ok && u.val.kind == 's' {
					words = append(words, u.val.str)
					break
				}
			}
		}
		if len(words) > 0 {
			out[s.key] = runsAt{normalizeRuns(words), s.keyPos}
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
