package project

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/trust"
)

// maxScopeFiles bounds the files one directory item lists; past it the
// load fails (the gate then refuses) rather than binding less than runs.
const maxScopeFiles = 1000000

// source is one side of a repository (or a directory on disk) as the
// launch model reads it, plus what binding an item needs.
type source interface {
	launch.FS
	// object is what is at p after following symlinks: a file (content and
	// mode), a submodule, a directory only when dirOK; zero when nothing
	// that counts is there. A symlink leading outside counts as itself.
	object(p string, dirOK bool) (trust.Object, error)
	// below lists the entries under dir that are not directories
	// (symlinks unfollowed), paths repository-relative.
	below(dir string) ([]gitscan.Entry, error)
	// visited are the paths whose entries the answers so far depended on.
	visited() []string
	// item is itemObject(src, it), or what an earlier configuration of the
	// same evaluation found for the same item (see Cache).
	item(it launch.Item) (trust.Object, error)
}

// scopeFiles resolves every item of a scope to what the side holds, for
// the deep fingerprint. Items with nothing there are left out: absence
// is bound by being absent (what appears later changes the list).
//
// held is sc as a server keeps it once bound: the items files holds, with
// sc's inline code and gaps (sc itself when every item is there). What is
// shown of a scope lists only what is there (report.NewServerScope);
// keeping every probe (npx looks for four paths per package) for each
// server of a 100,000-server configuration held most of its scopes'
// memory.
func scopeFiles(src source, sc *launch.Scope) (files []trust.FileID, held *launch.Scope, err error) {
	var items []launch.Item // the items there, once one is not
	pruned := false
	for k, it := range sc.Items {
		o, err := src.item(it)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", it.Label(), err)
		}
		if o.ID == "" {
			if !pruned {
				pruned, items = true, slices.Clone(sc.Items[:k]) // not sc's array
			}
			continue
		}
		files = append(files, trust.FileID{Path: it.Label(), Object: o, Why: it.Why})
		if pruned {
			items = append(items, it)
		}
	}
	if !pruned {
		return files, sc, nil
	}
	return files, &launch.Scope{Items: items, Inline: sc.Inline, Gaps: sc.Gaps}, nil
}

// Modes of the objects that stand for items other than one path's entry.
const (
	modeTreeLinks = "tree+links" // a tree whose symlinks lead elsewhere in the repository
	modeCode      = "code:"      // + language
	modeModules   = "modules:"   // + language
	modeText      = "text"
)

func itemObject(src source, it launch.Item) (trust.Object, error) {
	switch it.Kind {
	case launch.KindFile:
		return src.object(it.Path, false)
	case launch.KindText:
		return trust.Object{Mode: modeText, ID: digest(it.Path, it.Key, it.Text)}, nil
	case launch.KindTree:
		return treeObject(src, it.Path)
	case launch.KindCode:
		return codeObject(src, it.Path, it.Lang)
	case launch.KindModules:
		return modulesObject(src, it.Path, it.Lang)
	}
	return trust.Object{}, fmt.Errorf("unknown item kind %v", it.Kind)
}

// treeObject binds everything below p: its tree id, and what each symlink
// in it leads to elsewhere in the repository.
func treeObject(src source, p string) (trust.Object, error) {
	o, err := src.object(p, true)
	if err != nil || o.Mode != gitscan.ModeTree.String() {
		return o, err // a file (npx ./bin/x) binds its content
	}
	if p == "" {
		return o, nil // links inside the repository lead into the same tree
	}
	info, err := src.Stat(p)
	if err != nil {
		return trust.Object{}, err
	}
	entries, err := src.below(info.Path)
	if err != nil {
		return trust.Object{}, err
	}
	h := newDigest("tree", o.ID)
	links := false
	for _, e := range entries {
		if e.Mode != gitscan.ModeSymlink {
			continue
		}
		links = true
		lo, err := src.object(e.Path, true)
		if err != nil {
			return trust.Object{}, err
		}
		writeFields(h, e.Path, lo.Mode, lo.ID)
	}
	if !links {
		return o, nil
	}
	return trust.Object{Mode: modeTreeLinks, ID: hex.EncodeToString(h.Sum(nil))}, nil
}

// codeObject binds the files below dir that lang loads as code, following
// symlinks (a linked directory's code counts too).
func codeObject(src source, dir, lang string) (trust.Object, error) {
	info, err := src.Stat(dir)
	if err != nil {
		return trust.Object{}, err
	}
	if info.Kind != launch.Dir {
		return src.object(dir, false) // a file there binds its content
	}
	h := newDigest("code", lang)
	if err := writeCode(src, h, info.Path, lang, "", 0); err != nil {
		return trust.Object{}, err
	}
	return trust.Object{Mode: modeCode + lang, ID: hex.EncodeToString(h.Sum(nil))}, nil
}

// writeCode hashes the code files below dir, named by their path below
// the item (prefix), following symlinked directories up to a depth.
func writeCode(src source, h hash.Hash, dir, lang, prefix string, depth int) error {
	if depth > maxHops {
		return errors.New("symlinked directories nest too deeply")
	}
	entries, err := src.below(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		rel := strings.TrimPrefix(strings.TrimPrefix(e.Path, dir), "/")
		name := path.Join(prefix, rel)
		if e.Mode == gitscan.ModeSymlink {
			info, err := src.Stat(e.Path)
			if err != nil {
				return err
			}
			if info.Kind == launch.Dir {
				if err := writeCode(src, h, info.Path, lang, name, depth+1); err != nil {
					return err
				}
				continue
			}
		}
		if !launch.CodeFile(lang, name) {
			continue
		}
		// An entry listed below a real directory that is no symlink is
		// what resolving its path finds (and dir, recorded by below,
		// covers it as a dependency): only a symlink is resolved.
		o := trust.Object{Mode: e.Mode.String(), ID: e.ID}
		if e.Mode == gitscan.ModeSymlink {
			if o, err = src.object(e.Path, false); err != nil {
				return err
			}
		}
		writeFields(h, name, o.Mode, o.ID)
	}
	return nil
}

// modulesObject binds what lang imports from dir on its search path: each
// importable name directly in it, with its code.
func modulesObject(src source, dir, lang string) (trust.Object, error) {
	info, err := src.Stat(dir)
	if err != nil {
		return trust.Object{}, err
	}
	if info.Kind != launch.Dir {
		return src.object(dir, false) // a file there binds its content
	}
	entries, err := src.ReadDir(info.Path)
	if err != nil {
		return trust.Object{}, err
	}
	h := newDigest("modules", lang)
	for _, e := range entries {
		if !launch.Importable(lang, e.Name, e.Kind == launch.Dir) {
			continue
		}
		p := joinPath(info.Path, e.Name)
		if e.Kind == launch.Dir {
			target, err := src.Stat(p)
			if err != nil {
				return trust.Object{}, err
			}
			// A directory that holds no code runs nothing when imported
			// (an empty namespace package), and a regular module of that
			// name anywhere on the path wins over it: docs/ does not count.
			code := &dirCode{h: h, name: e.Name}
			if err := writeCode(src, code, target.Path, lang, e.Name, 0); err != nil {
				return trust.Object{}, err
			}
			continue
		}
		o, err := src.object(p, false)
		if err != nil {
			return trust.Object{}, err
		}
		writeFields(h, e.Name, o.Mode, o.ID)
	}
	return trust.Object{Mode: modeModules + lang, ID: hex.EncodeToString(h.Sum(nil))}, nil
}

// dirCode is the hash.Hash writeCode writes a package directory's code
// to: the directory's fields (name, "dir") go to h before the first
// byte of code, and nothing when the directory holds none. The digest is
// the one of writing the fields, then the code; the code is not kept (a
// package holding the whole work tree was all of it in memory).
type dirCode struct {
	h       hash.Hash
	name    string
	started bool
}

func (d *dirCode) Write(p []byte) (int, error) {
	if len(p) > 0 && !d.started {
		d.started = true
		writeFields(d.h, d.name, "dir")
	}
	return d.h.Write(p)
}
func (d *dirCode) Sum(b []byte) []byte { return d.h.Sum(b) }
func (d *dirCode) Reset()              { d.h.Reset(); d.started = false }
func (d *dirCode) Size() int           { return d.h.Size() }
func (d *dirCode) BlockSize() int      { return d.h.BlockSize() }

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func newDigest(fields ...string) hash.Hash {
	h := sha256.New()
	writeFields(h, fields...)
	return h
}

func digest(fields ...string) string {
	return hex.EncodeToString(newDigest(fields...).Sum(nil))
}

// writeFields writes length-prefixed fields, so the encoding is injective.
// They are written in one call from a reused buffer: a whole-tree binding
// writes three fields for each of 200,000 files.
func writeFields(h hash.Hash, fields ...string) {
	bp := fieldBufs.Get().(*[]byte)
	b := (*bp)[:0]
	for _, s := range fields {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	h.Write(b)
	if cap(b) <= 64<<10 {
		*bp = b
		fieldBufs.Put(bp)
	}
}

var fieldBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// sideSource reads one side of a git repository for the launch model.
type sideSource struct {
	rd *reader
	// seen are the paths the answers so far depended on, each once (a
	// configuration of 100,000 npx servers otherwise listed .npmrc and
	// package.json 100,000 times); has holds them as a set.
	seen []string
	has  map[string]struct{}
	// rec, while an item is bound, collects every path its binding
	// depended on, repeats included, for the item's memo.
	rec *[]string
}

func (s *sideSource) visited() []string { return s.seen }

func (s *sideSource) depends(ps []string) {
	if s.rec != nil {
		*s.rec = append(*s.rec, ps...)
	}
	if !s.rd.keepDeps {
		return
	}
	if s.has == nil {
		s.has = map[string]struct{}{}
	}
	for _, p := range ps {
		if _, ok := s.has[p]; !ok {
			s.has[p] = struct{}{}
			s.seen = append(s.seen, p)
		}
	}
}

func (s *sideSource) item(it launch.Item) (trust.Object, error) {
	if s.rd.items == nil || it.Kind == launch.KindFile || it.Kind == launch.KindText {
		// One file or a value is found again at the cost of keeping it:
		// only directory items, which list and bind many files, are kept.
		return itemObject(s, it)
	}
	k := itemKey{launch: s.rd.launch, path: it.Path, lang: it.Lang, key: it.Key, text: it.Text, kind: it.Kind}
	if m, ok := s.rd.items[k]; ok {
		s.depends(m.visited)
		return m.obj, nil
	}
	var mine []string
	outer := s.rec
	s.rec = &mine
	o, err := itemObject(s, it)
	s.rec = outer
	if outer != nil {
		*outer = append(*outer, mine...)
	}
	// Kept only when binding it took more than one lookup (a directory
	// listed): one path's answer is in the resolution cache already, and
	// npx probes node_modules/<package> for every server.
	if err == nil && len(mine) > 1 {
		s.rd.items[k] = itemMemo{obj: o, visited: slices.Clip(mine)}
	}
	return o, err
}

func (s *sideSource) resolve(p string) (resolution, error) {
	res, err := s.rd.resolveCached(p)
	if err != nil {
		return res, fmt.Errorf("at %s: %w", s.rd.side, err)
	}
	s.depends(res.visited)
	return res, nil
}

func (s *sideSource) Stat(p string) (launch.Info, error) {
	res, err := s.resolve(p)
	if err != nil {
		return launch.Info{}, err
	}
	return infoOf(res), nil
}

func infoOf(res resolution) launch.Info {
	if res.outside {
		return launch.Info{Kind: launch.Outside}
	}
	e := res.entry
	info := launch.Info{Path: e.Path}
	switch e.Mode {
	case 0:
		info.Kind = launch.Missing
	case gitscan.ModeTree:
		info.Kind = launch.Dir
	case gitscan.ModeExecutable:
		info.Kind = launch.Exec
	case gitscan.ModeRegular:
		info.Kind = launch.File
	default:
		info.Kind = launch.Other
	}
	return info
}

func (s *sideSource) ReadFile(p string, limit int64) ([]byte, error) {
	res, err := s.resolve(p)
	if err != nil {
		return nil, err
	}
	if res.outside || !res.entry.Mode.IsFile() {
		return nil, launch.ErrNotExist
	}
	data, _, err := s.rd.repo.ReadBlob(s.rd.side, res.entry.Path, limit)
	switch {
	case errors.Is(err, gitscan.ErrTooLarge):
		return nil, launch.ErrTooLarge
	case errors.Is(err, gitscan.ErrNotFound), errors.Is(err, gitscan.ErrNotRegular):
		return nil, launch.ErrNotExist
	}
	return data, err
}

func (s *sideSource) ReadDir(p string) ([]launch.DirEntry, error) {
	res, err := s.resolve(p)
	if err != nil {
		return nil, err
	}
	if res.outside || res.entry.Mode != gitscan.ModeTree {
		return nil, launch.ErrNotExist
	}
	entries, err := s.rd.repo.ReadDir(s.rd.side, res.entry.Path)
	if err != nil {
		return nil, fmt.Errorf("at %s: %w", s.rd.side, err)
	}
	s.depends([]string{res.entry.Path})
	out := make([]launch.DirEntry, 0, len(entries))
	for _, e := range entries {
		info := infoOf(resolution{entry: e})
		if e.Mode == gitscan.ModeSymlink {
			if info, err = s.Stat(e.Path); err != nil {
				return nil, err
			}
		}
		out = append(out, launch.DirEntry{Name: path.Base(e.Path), Kind: info.Kind})
	}
	return out, nil
}

func (s *sideSource) object(p string, dirOK bool) (trust.Object, error) {
	res, err := s.resolve(p)
	if err != nil {
		return trust.Object{}, err
	}
	return res.object(dirOK), nil
}

func (s *sideSource) below(dir string) ([]gitscan.Entry, error) {
	entries, err := s.rd.repo.Files(s.rd.side, dir, maxScopeFiles)
	if err != nil {
		return nil, fmt.Errorf("at %s: %w", s.rd.side, err)
	}
	s.depends([]string{dir})
	return entries, nil
}

// ItemPath is the repository path an item of a resolved scope (its label
// and mode, as in a FileID) stands for: a directory item's directory ("" the
// root), a text item's file, a file itself.
func ItemPath(label, mode string) string {
	dir, _ := itemPaths(label, mode)
	return dir
}

// itemPaths is ItemPath and a test of the paths below it that count for
// the item (a code item's language files, a modules item's importable
// names; everything for the others).
func itemPaths(label, mode string) (dir string, keep func(p string) bool) {
	all := func(string) bool { return true }
	labelDir := func(suffix string) string {
		d := strings.TrimSuffix(strings.TrimSuffix(label, suffix), "/")
		if d == "." {
			return ""
		}
		return d
	}
	switch {
	case mode == gitscan.ModeTree.String() || mode == modeTreeLinks:
		return labelDir(""), all
	case strings.HasPrefix(mode, modeCode):
		lang := strings.TrimPrefix(mode, modeCode)
		d := labelDir(" (" + lang + " code)")
		return d, func(p string) bool { return launch.CodeFile(lang, strings.TrimPrefix(strings.TrimPrefix(p, d), "/")) }
	case strings.HasPrefix(mode, modeModules):
		lang := strings.TrimPrefix(mode, modeModules)
		d := labelDir(" (" + lang + " modules)")
		return d, func(p string) bool {
			rel := strings.TrimPrefix(strings.TrimPrefix(p, d), "/")
			top, rest, sub := strings.Cut(rel, "/")
			if !sub {
				return launch.Importable(lang, top, false)
			}
			return launch.Importable(lang, top, true) && launch.CodeFile(lang, rest)
		}
	case mode == modeText:
		file, _, _ := strings.Cut(label, ": ")
		return file, all
	}
	return label, all
}

// MarkWithin fills FileChange.Within in changes, whose sides' code scopes
// are oldFiles and newFiles: a path one side does not run by name, that an
// item of that side holds all the same (a directory of code, a module
// directory, a whole tree), is not said to start or stop running.
func MarkWithin(changes []trust.Change, oldFiles, newFiles trust.Files) {
	for ci := range changes {
		c := &changes[ci]
		var old, new []trust.FileID
		if c.Old != nil {
			old = oldFiles.For(c.Old)
		}
		if c.New != nil {
			new = newFiles.For(c.New)
		}
		for i := range c.Files {
			f := &c.Files[i]
			switch {
			case c.Old == nil || c.New == nil:
			case f.New.ID == "" && f.Old.ID != "":
				f.Within = holder(new, f.Path)
			case f.Old.ID == "" && f.New.ID != "":
				f.Within = holder(old, f.Path)
			}
		}
	}
}

// holder is the label of the item of items that holds path p without
// naming it ("" when none does).
func holder(items []trust.FileID, p string) string {
	for _, it := range items {
		if it.Path == p || it.Mode == modeText || strings.HasPrefix(it.Mode, "100") || it.Mode == gitscan.ModeSymlink.String() || it.Mode == gitscan.ModeSubmodule.String() || it.Mode == "" {
			continue
		}
		dir, keep := itemPaths(it.Path, it.Mode)
		if (dir == "" || strings.HasPrefix(p, dir+"/")) && keep(p) {
			return it.Path
		}
	}
	return ""
}

// markSubmodules fills FileChange.Submodule for the files of changes that
// a side holds as a submodule's commit, from the gitlinks of old and new.
func markSubmodules(repo *gitscan.Repo, old, new gitscan.Side, changes []trust.Change) {
	for ci := range changes {
		for i := range changes[ci].Files {
			f := &changes[ci].Files[i]
			if f.Old.Mode != modeGitlink && f.New.Mode != modeGitlink {
				continue
			}
			for _, s := range []gitscan.Side{new, old} {
				if p := gitlinkOf(repo, s, f.Path); p != "" {
					f.Submodule = p
					break
				}
			}
		}
	}
}

// modeGitlink is a submodule's mode in an Object.
var modeGitlink = gitscan.ModeSubmodule.String()

// gitlinkOf is the path of the submodule at side s that p is in or is, ""
// when there is none.
func gitlinkOf(repo *gitscan.Repo, s gitscan.Side, p string) string {
	parts := strings.Split(p, "/")
	for i := 1; i <= len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		e, ok, err := repo.Lookup(s, dir)
		switch {
		case err != nil || !ok:
			return ""
		case e.Mode == gitscan.ModeSubmodule:
			return dir
		case e.Mode != gitscan.ModeTree:
			return ""
		}
	}
	return ""
}
