package client

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
)

// PlainState is the state of a client that binds nothing to a server and
// keeps no per-server approval mcp-guard can read (Kiro, Amazon Q
// Developer, Roo Code, Zed): one answer, in the client's words, for every
// entry it reads from the workspace. Each client's file says what decides
// it.
type PlainState struct {
	// Runs: the client starts the workspace's entries without asking, or
	// mcp-guard cannot tell that it does not (the side that never
	// under-reports).
	Runs bool
	// Why is the client's reason for a server; HookWhy for an entry of
	// another kind (a hook).
	Why, HookWhy string
	// Source is the file or setting that decided, RepoSide whether it is
	// a file of the repository.
	Source   string
	RepoSide bool
}

// plainOff says why the client does not start s ("" when it does): its
// entry turns it off (key set to off, e.g. disabled: true, enabled: false).
func plainOff(s *trust.Server, title, key string, off bool) string {
	if s == nil {
		return ""
	}
	v, ok := s.Value(key)
	if !ok {
		return ""
	}
	if b, isBool := v.Bool(); isBool && b == off {
		return fmt.Sprintf("turned off (%s: %v): %s does not start it", key, off, title)
	}
	return ""
}

// disabledOff is how to keep a server (kind "") from running in a client
// that reads "disabled": true in its entry (Kiro, Roo Code); "" for any
// other kind (the default words).
func disabledOff(kind, config string) string {
	if kind != "" {
		return ""
	}
	where := "its entry"
	if config != "" {
		where += " in " + config
	}
	return `set "disabled": true in ` + where + ", or remove it"
}

// plainGate is Gate for a client whose state is a PlainState. off says
// why an entry does not run ("" when it does); note adds the client's
// words about a server that runs (its file, an auto-approval).
func plainGate(st *State, entries []Entry, off func(*trust.Server) string, note func(Entry) string) []ServerVerdict {
	ps := st.Plain
	out := make([]ServerVerdict, 0, len(entries))
	for _, e := range entries {
		v := ServerVerdict{Name: e.Name, Path: e.Path, Server: e.Server, Interactive: ps.Runs, Headless: ps.Runs,
			Why: ps.Why, Source: ps.Source, RepoSide: ps.RepoSide}
		if e.Server != nil && e.Server.Kind != "" {
			v.Why, v.Source, v.RepoSide = ps.HookWhy, e.Path, true
		} else if why := off(e.Server); why != "" {
			v.Interactive, v.Headless, v.Why, v.Source, v.RepoSide = false, false, why, e.Path, true
		} else {
			v.Why += note(e) + remoteNote(e.Server)
		}
		out = append(out, v)
	}
	return out
}

// plainImpact is Impact for a client whose state is a PlainState: it
// binds nothing to a server, so every change runs when the client runs
// the entry at all.
func plainImpact(title string, st *State, new *trust.Server, off func(*trust.Server) string) Impact {
	if new == nil {
		return Impact{Why: "removed: " + title + " no longer starts it"}
	}
	if why := off(new); why != "" && new.Kind == "" {
		return Impact{Why: why, RepoSide: true}
	}
	ps := st.Plain
	if !ps.Runs {
		return Impact{Why: ps.Why, Source: ps.Source, RepoSide: ps.RepoSide}
	}
	what := "`" + new.Name + "`"
	if new.Kind != "" {
		what = "this " + new.Kind
	}
	return Impact{Interactive: true, Headless: true, Source: ps.Source, RepoSide: ps.RepoSide,
		Why: fmt.Sprintf("%s runs %s without asking (it binds nothing to an entry): every change runs", title, what)}
}

// listNamed are the regular files of dir whose names end in one of
// suffixes (ASCII case-insensitively, as the surface registry matches),
// sorted: a client that reads every such file of a directory
// (.kiro/hooks/*.kiro.hook). The directory is listed on the file system
// the FS stands for when it can list (the FS interface reads files, not
// directories).
func listNamed(fsys FS, dir string, suffixes ...string) []string {
	var ents []fs.DirEntry
	var err error
	if l, ok := fsys.(interface {
		ReadDir(string) ([]fs.DirEntry, error)
	}); ok {
		ents, err = l.ReadDir(dir)
	} else {
		ents, err = os.ReadDir(dir)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// A directory that cannot be listed: read it as a file, which
		// fails and is reported, rather than leave it out.
		if _, lerr := fsys.Lstat(dir); lerr == nil {
			return []string{dir}
		}
	}
	var out []string
	for _, e := range ents {
		name := strings.ToLower(e.Name())
		for _, s := range suffixes {
			if strings.HasSuffix(name, s) && len(name) > len(s) {
				p := filepath.Join(dir, e.Name())
				if fi, err := fsys.Stat(p); err != nil || !fi.IsDir() {
					out = append(out, p)
				}
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// plainHookEntries appends to c an EntryHook that runs each of hooks
// with /bin/sh -c, in dialect d, named after the file that holds it
// ("lint.then.command" for .kiro/hooks/lint.kiro.hook): a directory of
// such files holds the same key path in each, and a name must tell them
// apart in `review --approve`. One it cannot model leaves what runs from
// c unknown.
func plainHookEntries(c *trust.Config, d *trust.Dialect, hooks []hookCommand) {
	stem := filepath.Base(c.Path)
	for _, suffix := range []string{".kiro.hook", ".json"} {
		if len(stem) > len(suffix) && strings.EqualFold(stem[len(stem)-len(suffix):], suffix) {
			stem = stem[:len(stem)-len(suffix)]
			break
		}
	}
	for _, h := range hooks {
		s, err := hookEntry(c.Path, d, EntryHook, stem+"."+h.name, h, false, nil)
		if err != nil {
			c.Err = trust.Unreadable(fmt.Errorf("hook %q: %w", h.name, err))
			break
		}
		c.Servers = append(c.Servers, s)
	}
	uniqueEntries(c)
}
