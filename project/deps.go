package project

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mcp-guard/mcp-guard/client"
	"github.com/mcp-guard/mcp-guard/gitscan"
	"github.com/mcp-guard/mcp-guard/launch"
	"github.com/mcp-guard/mcp-guard/trust"
)

// depsKey names the rules behind the dependency lists Compare records in
// gitscan's per-tree cache. Change it whenever what Compare reads at a side
// changes (a new kind of reference, a new surface): old lists are then
// ignored.
const depsKey = "project.Compare.v6"

// quietCompare is Compare's shortcut for the hook's common case, a pull
// that changed nothing agentty runs: when gitscan holds the old tree's
// dependency list (every path whose entry the answer at old depends on:
// each live config and what its servers run, resolved through symlinks,
// and the scripts each hooks.json runs) and the change touches neither a
// surface nor any of those paths, nothing Compare would report can differ,
// so the answer is known without reading a configuration. The new tree then
// has the same dependencies (none of the paths they went through changed).
func quietCompare(repo *gitscan.Repo, old, new gitscan.Side, changes []gitscan.Change, cs *changeSet) (*Result, bool, error) {
	deps, ok := repo.Dependencies(old, depsKey)
	if !ok {
		return nil, false, nil
	}
	for _, c := range changes {
		for _, e := range []*gitscan.Entry{c.Old, c.New} {
			if e == nil {
				continue
			}
			if _, surface := gitscan.IsSurface(*e); surface {
				return nil, false, nil
			}
		}
	}
	if cs.touchesAny(deps) {
		return nil, false, nil
	}
	oldSurf, _, err := repo.Surfaces(old)
	if err != nil {
		return nil, false, fmt.Errorf("list agentty surfaces at %s: %w", old, err)
	}
	newSurf, skipped, err := repo.Surfaces(new)
	if err != nil {
		return nil, false, fmt.Errorf("list agentty surfaces at %s: %w", new, err)
	}
	// A FIFO or directory where a work tree surface belongs is no change
	// git sees, yet the agent cannot read its config there.
	for _, surf := range [][]gitscan.Surface{oldSurf, newSurf} {
		for _, s := range surf {
			if s.Mode == gitscan.ModeSpecial {
				return nil, false, nil
			}
		}
	}
	repo.SetDependencies(new, depsKey, deps)
	return &Result{Old: old, New: new, Skipped: skipped}, true, nil
}

// recordDeps stores both sides' dependency lists after a full Compare,
// so that the next comparison from either tree (the hook's next run starts
// from this run's new side) can take the quiet path. Supersets are fine: a
// path listed needlessly only makes the shortcut rarer.
//
//   - old: every path ro resolved (Compare loads every config of either
//     side at old), plus the references of every hooks.json at old;
//   - new: the same, plus every path rn resolved (the configs the change
//     touched, loaded at new), plus the references of every hooks.json at
//     new. A config the change did not touch depends at new on exactly
//     the paths it depended on at old, which ro holds.
func recordDeps(ro, rn *reader, oldSurf, newSurf []gitscan.Surface) error {
	if ro.side.Commit() == "" && rn.side.Commit() == "" {
		return nil // only commits have trees to key the lists by
	}
	for _, side := range []struct {
		rd   *reader
		surf []gitscan.Surface
	}{{ro, oldSurf}, {rn, newSurf}} {
		if err := resolveHookRefs(side.rd, side.surf); err != nil {
			return err
		}
	}
	ro.repo.SetDependencies(ro.side, depsKey, keys(ro.deps))
	ro.repo.SetDependencies(rn.side, depsKey, keys(ro.deps, rn.deps))
	return nil
}

// resolveHookRefs resolves, at rd's side, what every hooks.json runs.
func resolveHookRefs(rd *reader, surf []gitscan.Surface) error {
	for _, s := range surf {
		if _, err := hookScope(rd, s); err != nil {
			return err
		}
	}
	return nil
}

// hookScope is what the shell command lines a surface holds run (the
// `run` commands of agentty's hooks.json: client.ShellRuns), as the launch
// model sees a shell running each from the directory its client runs it
// in, resolved at rd's side: nil for other surfaces, symlinks, and files
// the client does not read either (too large, not regular).
func hookScope(rd *reader, s gitscan.Surface) ([]trust.FileID, error) {
	runsOf := client.ShellRuns(s.Kind)
	if runsOf == nil || !s.Mode.IsFile() || s.Mode == gitscan.ModeSymlink {
		return nil, nil
	}
	data, _, err := rd.repo.ReadBlob(rd.side, s.Path, trust.MaxFileSize)
	if errors.Is(err, gitscan.ErrTooLarge) || errors.Is(err, gitscan.ErrNotRegular) {
		return nil, nil // (agentty takes 1..65536 bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", s.Path, rd.side, err)
	}
	dir, runs := runsOf(s.Path, data)
	rd.launch = dir
	src := &sideSource{rd: rd}
	var out []trust.FileID
	for _, run := range runs {
		sc, err := launch.Analyze(launch.Spawn{Command: "sh", Args: []string{"-c", run.Run}}, rd.launch, src, launch.Options{Root: rd.top})
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", s.Path, run.Where, err)
		}
		files, _, err := scopeFiles(src, sc)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", s.Path, run.Where, err)
		}
		out = append(out, files...)
	}
	return out, nil
}

func keys(sets ...map[string]bool) []string {
	var out []string
	for _, set := range sets {
		for p := range set {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// resolve follows p (see resolvePath) and remembers every path the answer
// depended on, for recordDeps.
func (rd *reader) resolve(p string) (resolution, error) {
	res, err := rd.resolvePath(p)
	if !rd.keepDeps {
		return res, err
	}
	if rd.deps == nil {
		rd.deps = map[string]bool{}
	}
	for _, v := range res.visited {
		rd.deps[v] = true
	}
	return res, err
}

// listNames names the entries of dir at rd's side, through symlinks as
// the kernel resolves them (none when it is not a directory there), and
// remembers the paths the answer depended on, the listed directory
// included: a file added or removed below it touches them.
func (rd *reader) listNames(dir string) []string {
	src := &sideSource{rd: rd}
	ents, err := src.ReadDir(dir)
	if rd.keepDeps {
		if rd.deps == nil {
			rd.deps = map[string]bool{}
		}
		for _, v := range src.visited() {
			rd.deps[v] = true
		}
	}
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		out = append(out, e.Name)
	}
	return out
}
