package hooks

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-guard/mcp-guard/trust"
	"go.yaml.in/yaml/v3"
)

// How mcp-guard is run from a hook manager's own configuration: the lines
// to add (Integration), and whether they are there already (RunsMCPGuard).
// A committed manager file runs for every teammate, also for those without
// mcp-guard, so every line is guarded: without mcp-guard on PATH it does
// nothing and succeeds.

// guarded is the shell command that runs `mcp-guard hook ARGS` when
// mcp-guard is on PATH (with HookEnv, as mcp-guard's own script does), and
// succeeds without it.
func guarded(args string) string {
	return "command -v mcp-guard >/dev/null && " + HookEnv + " mcp-guard hook" + args + " || true"
}

// lefthookFiles are lefthook's configuration files, in its order.
var lefthookFiles = []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", ".config/lefthook.yml", ".config/lefthook.yaml",
	"lefthook-local.yml", ".lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yaml"}

// preCommitConfig is pre-commit's configuration file.
const preCommitConfig = ".pre-commit-config.yaml"

// preCommitStages are the hooks pre-commit runs mcp-guard's hook for (its
// other stages cannot tell mcp-guard which hook runs it: see unmanaged).
var preCommitStages = []string{"post-checkout", "post-merge", "post-rewrite"}

// maxManagerFile bounds what is read of a manager's script (husky's, a
// hook pre-commit installed), line by line.
const maxManagerFile = 1 << 20

// readSmall reads a regular file of at most limit bytes: maxManagerFile
// for a script, trust.MaxRepoYAML for a YAML configuration (lefthook's,
// pre-commit's), which yaml.v3 decodes into a node per scalar. nil when
// there is none, it is not a regular file or it is past limit (read
// through a limit, so a file that grows after its size was looked at is
// still refused): it then reads as not running mcp-guard, and the hint to
// add the lines stays.
func readSmall(path string, limit int64) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > limit {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(data)) > limit {
		return nil
	}
	return data
}

// huskyRoot is husky's directory of hook scripts (.husky, above its _).
func huskyRoot(d Dir) string {
	if filepath.Base(d.Path) == "_" {
		return filepath.Dir(d.Path)
	}
	return d.Path
}

// relToWorkTree is p relative to d's work tree when it lies inside it.
func relToWorkTree(d Dir, p string) string {
	if d.WorkTree != "" {
		if rel, err := filepath.Rel(d.WorkTree, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

// lefthookConfig is the first of lefthook's configuration files in the
// work tree, and its top-level keys decoded; "" when there is none.
func lefthookConfig(d Dir) (string, map[string]any) {
	if d.WorkTree == "" {
		return "", nil
	}
	for _, f := range lefthookFiles {
		data := readSmall(filepath.Join(d.WorkTree, f), trust.MaxRepoYAML)
		if data == nil {
			continue
		}
		var doc map[string]any
		_ = yaml.Unmarshal(data, &doc) // one that does not parse has no keys
		return f, doc
	}
	return "", nil
}

// mentions reports whether any string below v runs `mcp-guard hook`.
func mentions(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, "mcp-guard hook")
	case map[string]any:
		for _, x := range v {
			if mentions(x) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, mentions)
	}
	return false
}

// RunsMCPGuard says where manager m's configuration already runs
// mcp-guard's hook for typ ("" when it does not): a line of husky's
// script for it, lefthook's key for it, or a pre-commit hook for its
// stage that pre-commit installed. Comments do not count.
func RunsMCPGuard(m Manager, d Dir, typ string) string {
	switch m {
	case ManagerHusky:
		p := filepath.Join(huskyRoot(d), typ)
		sc := bufio.NewScanner(bytes.NewReader(readSmall(p, maxManagerFile)))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if !strings.HasPrefix(line, "#") && strings.Contains(line, "mcp-guard hook "+typ) {
				return relToWorkTree(d, p)
			}
		}
	case ManagerLefthook:
		if f, doc := lefthookConfig(d); mentions(doc[typ]) {
			return f + " (" + typ + ")"
		}
	case ManagerPreCommit:
		if d.WorkTree == "" || !slices.Contains(preCommitStages, typ) || fileManager(readSmall(filepath.Join(d.Path, typ), maxManagerFile)) != ManagerPreCommit {
			return ""
		}
		var cfg struct {
			Repos []struct {
				Hooks []struct {
					ID     string   `yaml:"id"`
					Entry  string   `yaml:"entry"`
					Stages []string `yaml:"stages"`
				} `yaml:"hooks"`
			} `yaml:"repos"`
		}
		if yaml.Unmarshal(readSmall(filepath.Join(d.WorkTree, preCommitConfig), trust.MaxRepoYAML), &cfg) != nil {
			return ""
		}
		for _, r := range cfg.Repos {
			for _, h := range r.Hooks {
				ours := strings.HasPrefix(h.ID, "mcp-guard-post") || strings.Contains(h.Entry, "mcp-guard hook")
				if ours && (len(h.Stages) == 0 || slices.Contains(h.Stages, typ)) {
					return preCommitConfig + " (" + h.ID + ")"
				}
			}
		}
	}
	return ""
}

// Integration is how to run mcp-guard's hook from a hook manager's own
// configuration, one line per step, for the types that need it.
func Integration(m Manager, d Dir, types []string) []string {
	switch m {
	case ManagerHusky:
		root := relToWorkTree(d, huskyRoot(d))
		var out []string
		for _, t := range types {
			out = append(out, fmt.Sprintf(`echo '%s' >> %s`, guarded(" "+t+` "$@"`), shellQuote(filepath.Join(root, t))))
		}
		return out
	case ManagerLefthook:
		file, doc := lefthookConfig(d)
		if file == "" {
			file = lefthookFiles[0]
		}
		var out []string
		for _, t := range types {
			stdin := ""
			if t == "post-rewrite" || t == RefTransaction {
				stdin = "use_stdin: true, "
			}
			run := fmt.Sprintf(`%srun: "%s"`, stdin, guarded(" "+t+" {0}"))
			existing, has := doc[t]
			switch {
			case !has:
				out = append(out, fmt.Sprintf(`in %s: %s: {commands: {mcp-guard: {%s}}}`, file, t, run))
			case hasKey(existing, "jobs"):
				out = append(out, fmt.Sprintf(`in %s, to the jobs of the %s: key already there: - {name: mcp-guard, %s}`, file, t, run))
			default:
				out = append(out, fmt.Sprintf(`in %s, to the commands of the %s: key already there: mcp-guard: {%s}`, file, t, run))
			}
		}
		return append(out, "then run: lefthook install")
	case ManagerPreCommit:
		// pre-commit's own hooks are these three: the others are
		// mcp-guard's own script (see unmanaged).
		entry := guarded("")
		return []string{
			fmt.Sprintf(`in %s: - {repo: local, hooks: [{id: mcp-guard-post, name: mcp-guard, entry: "sh -c '%s'", language: system, stages: [%s], always_run: true, pass_filenames: false, verbose: true}]}`,
				preCommitConfig, entry, strings.Join(preCommitStages, ", ")),
			"then run: pre-commit install --hook-type " + strings.Join(preCommitStages, " --hook-type "),
		}
	}
	return nil
}

// hasKey reports whether v is a mapping with key k.
func hasKey(v any, k string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m[k]
	return ok
}

// Owner is the hook manager that runs h's type, ManagerNone when
// mcp-guard's own script goes in beside the manager's (see unmanaged).
func (h Hook) Owner() Manager {
	if unmanaged(h) {
		return ManagerNone
	}
	return h.Manager
}
