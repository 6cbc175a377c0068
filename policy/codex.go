package policy

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/mcp-guard/mcp-guard/trust"
)

// A project .codex/config.toml Codex cannot load (MG716). Observed on
// Codex 0.169.0: a duplicate key or table is a parse error that aborts
// the whole run; a non-string argument, a server with neither command nor
// url, or a value of the wrong type fails deserialization, fatal for every
// server. The TOML is read with github.com/pelletier/go-toml/v2, which
// rejects duplicate keys and tables with their position, as Codex's
// parser does; its unstable parser gives the position of each server.

// maxTOMLNesting bounds how deep arrays and inline tables may nest in a
// file mcp-guard decodes (the decoder recurses).
const maxTOMLNesting = 64

// codexDoc is a decoded config.toml with the position of each server.
type codexDoc struct {
	root    map[string]any
	servers map[string]trust.Pos // mcp_servers.NAME, where it is first defined
}

// decodeCodexTOML decodes data as Codex would; on error the position is
// where the TOML reader stopped.
func decodeCodexTOML(data []byte) (*codexDoc, trust.Pos, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // Codex accepts a BOM
	if tomlNesting(data) > maxTOMLNesting {
		return nil, fileStart, fmt.Errorf("arrays or inline tables nest more than %d deep, more than mcp-guard reads", maxTOMLNesting)
	}
	d := &codexDoc{servers: map[string]trust.Pos{}}
	if err := toml.Unmarshal(data, &d.root); err != nil {
		pos := fileStart
		var de *toml.DecodeError
		if errors.As(err, &de) {
			r, c := de.Position()
			pos = trust.Pos{Line: r, Column: c}
		}
		return nil, pos, err
	}
	p := &unstable.Parser{}
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		var keys []string
		var at trust.Pos
		for it := e.Key(); it.Next(); {
			if len(keys) == 0 {
				s := p.Shape(it.Node().Raw)
				at = trust.Pos{Offset: s.Start.Offset, Line: s.Start.Line, Column: s.Start.Column}
			}
			keys = append(keys, string(it.Node().Data))
		}
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keys
			keys = nil
		}
		full := append(append([]string(nil), table...), keys...)
		if len(full) >= 2 && full[0] == "mcp_servers" {
			if _, ok := d.servers[full[1]]; !ok {
				d.servers[full[1]] = at
			}
		}
	}
	return d, fileStart, nil
}

// at is where server name is defined.
func (d *codexDoc) at(name string) trust.Pos {
	if p, ok := d.servers[name]; ok {
		return p
	}
	return fileStart
}

// checkCodexConfig is MG716 for a project config Codex fails on.
func checkCodexConfig(f File) []trust.Finding {
	doc, pos, err := decodeCodexTOML(f.Data)
	if err != nil {
		return []trust.Finding{trust.NewFinding("MG716", f.Path, pos, "", "",
			"Codex cannot parse this file, so every Codex run in this folder (and below it, to the git root) aborts, and mcp-guard cannot tell what it would run: "+shortValue(firstLine(err.Error())))}
	}
	var out []trust.Finding
	for _, pr := range codexProblems(doc.root) {
		out = append(out, trust.NewFinding("MG716", f.Path, doc.at(pr.server), pr.server, pr.key,
			fmt.Sprintf("mcp_servers.%s: %s: Codex fails on it and starts no server of any config", shortValue(pr.server), pr.msg)))
	}
	return out
}

// codexProblem is one value Codex cannot deserialize.
type codexProblem struct{ server, key, msg string }

// codexProblems lists what makes Codex fail on a file's [mcp_servers].
func codexProblems(root map[string]any) []codexProblem {
	v, ok := root["mcp_servers"]
	if !ok {
		return nil
	}
	tbl, ok := v.(map[string]any)
	if !ok {
		return []codexProblem{{"", "mcp_servers", "mcp_servers is " + tomlKind(v) + ", not a table"}}
	}
	var out []codexProblem
	for _, name := range sortedKeys(tbl) {
		e, ok := tbl[name].(map[string]any)
		if !ok {
			out = append(out, codexProblem{name, "", "the entry is " + tomlKind(tbl[name]) + ", not a table"})
			continue
		}
		for _, k := range []string{"command", "url", "cwd"} {
			if v, ok := e[k]; ok && tomlKind(v) != "a string" {
				out = append(out, codexProblem{name, k, k + " is " + tomlKind(v) + ", not a string"})
			}
		}
		if v, ok := e["enabled"]; ok && tomlKind(v) != "a boolean" {
			out = append(out, codexProblem{name, "enabled", "enabled is " + tomlKind(v) + ", not a boolean"})
		}
		for _, k := range []string{"args", "env_vars"} {
			v, ok := e[k]
			if !ok {
				continue
			}
			l, isList := v.([]any)
			if !isList {
				out = append(out, codexProblem{name, k, k + " is " + tomlKind(v) + ", not an array of strings"})
			}
			for i, el := range l {
				if tomlKind(el) != "a string" {
					out = append(out, codexProblem{name, k, fmt.Sprintf("%s[%d] is %s, not a string", k, i, tomlKind(el))})
				}
			}
		}
		if v, ok := e["env"]; ok {
			m, isTable := v.(map[string]any)
			if !isTable {
				out = append(out, codexProblem{name, "env", "env is " + tomlKind(v) + ", not a table of strings"})
			}
			for _, k := range sortedKeys(m) {
				if tomlKind(m[k]) != "a string" {
					out = append(out, codexProblem{name, "env", "env." + shortValue(k) + " is " + tomlKind(m[k]) + ", not a string"})
				}
			}
		}
		_, cmd := e["command"]
		_, url := e["url"]
		if !cmd && !url {
			out = append(out, codexProblem{name, "", "it has neither command nor url"})
		}
	}
	return out
}

func tomlKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// tomlNesting is an upper bound of how deep brackets and braces nest in
// data, outside strings and comments.
func tomlNesting(data []byte) int {
	depth, max := 0, 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"', '\'':
			triple := i+2 < len(data) && data[i+1] == c && data[i+2] == c
			if triple {
				end := bytes.Index(data[i+3:], []byte{c, c, c})
				if end < 0 {
					return max
				}
				i += 3 + end + 2
				continue
			}
			for i++; i < len(data) && data[i] != c && data[i] != '\n'; i++ {
				if c == '"' && data[i] == '\\' {
					i++
				}
			}
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case '[', '{':
			depth++
			if depth > max {
				max = depth
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return max
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
