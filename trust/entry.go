package trust

import (
	"encoding/json"
	"errors"
)

// CommandEntry is an entry a client runs besides its MCP servers (a hook,
// a helper, a status line): the shell command line line, run as
// `shell -c line`, modelled as the server {"command": shell, "args":
// ["-c", line]} read in dialect d, so that it goes through the one model
// of a server (the launch model, the deep fingerprint, the review
// ledger, the gate) like every server. kind names what it is in the
// client's words, of the server it belongs to ("" when none); every
// position is pos, where the file sets it. The entry's name is the
// ledger's key for it, unique among the entries of its file.
//
// extra are more members of the entry, part of what it is (a plugin's
// source): a change of one re-gates it.
func CommandEntry(path string, d *Dialect, kind, name, of, shell, line string, pos Pos, extra map[string]any) (*Server, error) {
	return ArgvEntry(path, d, kind, name, of, shell, []string{"-c", line}, pos, extra)
}

// ArgvEntry is CommandEntry for an entry the client starts as a command
// and its arguments, with no shell line (a hook file Cline runs through
// the interpreter its first line names).
func ArgvEntry(path string, d *Dialect, kind, name, of, command string, args []string, pos Pos, extra map[string]any) (*Server, error) {
	if d == nil {
		return nil, errors.New("a command entry needs a client's dialect")
	}
	m := map[string]any{"command": command, "args": args}
	for k, v := range extra {
		if k != "command" && k != "args" {
			m[k] = v
		}
	}
	entry, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	key, _ := json.Marshal(d.ServersKey)
	n, _ := json.Marshal(name)
	c := ParseDialect(path, []byte(`{`+string(key)+`:{`+string(n)+`:`+string(entry)+`}}`), ScopeProject, d)
	if c.Err != nil || len(c.Servers) != 1 {
		return nil, errors.Join(errors.New("the entry does not read back as a server"), c.Err)
	}
	s := c.Servers[0]
	s.Kind, s.Of, s.NamePos = kind, of, pos
	for i := range s.Args {
		s.Args[i].Pos = pos
	}
	place(s.entry, pos)
	return s, nil
}

// place sets every position in v to pos.
func place(v *jsonValue, pos Pos) {
	if v == nil {
		return
	}
	v.setPos(pos)
	for i := range v.Members {
		v.Members[i].setKeyPos(pos)
		place(v.Members[i].Value, pos)
	}
	for _, e := range v.Elems {
		place(e, pos)
	}
}
