package launch

import "strings"

// ParseEnvFile reads a dotenv file as node's --env-file, VS Code's and
// Cursor's envFile and bun's .env loading read it: KEY=VALUE lines, an
// optional "export " prefix, '#' comments, values in single, double or
// back quotes (double-quoted ones may span lines and hold \n escapes).
// Lines that are not assignments are skipped, as those readers skip them.
// Where the readers differ (an inline comment, an escape) the values of
// both readings are returned, so the launch model binds a superset.
func ParseEnvFile(data []byte) []Var {
	var out []Var
	s := strings.ReplaceAll(string(stripBOM(data)), "\r\n", "\n")
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		name, val, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		val = strings.TrimLeft(val, " \t")
		if val != "" && (val[0] == '"' || val[0] == '\'' || val[0] == '`') {
			q := val[0]
			body := val[1:]
			end := strings.IndexByte(body, q)
			for end < 0 && q == '"' && len(s) > 0 {
				// A double-quoted value goes on to the next line.
				next, more, _ := strings.Cut(s, "\n")
				body += "\n" + next
				s = more
				end = strings.IndexByte(body, q)
			}
			if end >= 0 {
				v := body[:end]
				out = append(out, Var{Name: name, Value: v})
				if q == '"' && strings.Contains(v, `\`) {
					out = append(out, Var{Name: name, Value: strings.ReplaceAll(v, `\n`, "\n")})
				}
				continue
			}
			// Unterminated: the whole rest, quote included, as written.
			out = append(out, Var{Name: name, Value: val})
			continue
		}
		out = append(out, Var{Name: name, Value: strings.TrimSpace(val)})
		if i := strings.Index(val, " #"); i >= 0 {
			out = append(out, Var{Name: name, Value: strings.TrimSpace(val[:i])})
		}
	}
	return out
}

// envFile binds an env file a runner or client reads and feeds its
// variables to the model as the entry's own env: what NODE_OPTIONS,
// PYTHONPATH or PATH in it names is bound. Variables the entry sets win
// for the working context (they are applied after), but both values are
// followed.
func (a *analyzer) envFile(p, source, why string, runs bool, cx *context) {
	a.add(Item{Kind: KindFile, Path: p, Source: source, Why: why, Runs: runs})
	data, ok, tooLarge := a.readFile(p)
	if tooLarge {
		a.whole(source, p+" is too large to read")
		return
	}
	if !ok {
		return
	}
	if a.read["env:"+p] {
		return
	}
	a.read["env:"+p] = true
	for _, v := range ParseEnvFile(data) {
		if _, set := cx.env[v.Name]; !set {
			cx.env[v.Name] = v.Value
		}
		a.envVar(v.Name, v.Value, source, *cx)
	}
}
