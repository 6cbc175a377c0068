package policy

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcp-guard/mcp-guard/launch"
)

// remoteCode reports programs that fetch code to run from outside a
// registry version: `deno run URL`, deno's npm:/jsr: specifiers and
// `go run module@version` (MG204, MG205). What a command runs from the
// repository is the launch model's to say (see launchHits).
func (a *analyzer) remoteCode(name string, args []word) {
	switch name {
	case "deno":
		rest := skipOptions(args, "--config", "-c", "-L", "--log-level")
		if len(rest) == 0 || (rest[0].text != "run" && rest[0].text != "serve") {
			return
		}
		op := skipOptions(rest[1:], "--config", "-c", "--import-map", "--lock", "--cert", "--location", "--seed", "--ext", "--env-file", "--port", "--host")
		if len(op) > 0 {
			a.denoSpecifier(op[0])
		}
	case "go":
		if len(args) == 0 || args[0].text != "run" {
			return
		}
		rest := skipOptions(args[1:], "-C", "-exec", "-tags", "-ldflags", "-gcflags", "-mod", "-modfile", "-p", "-o", "-overlay", "-pkgdir", "-toolexec")
		if len(rest) > 0 && strings.Contains(rest[0].text, "@") && !strings.HasPrefix(rest[0].text, ".") {
			a.goRunRemote(rest[0])
		}
	}
}

// denoSpecifier checks what `deno run` runs from outside the repository: a
// URL (MG205) or an npm: or jsr: package (MG204 unless exact).
func (a *analyzer) denoSpecifier(w word) {
	if !w.lit {
		return
	}
	t := w.text
	switch {
	case strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://"):
		a.add("MG205", w.at, "deno runs code straight from %s", quote(t))
	case strings.HasPrefix(t, "npm:") || strings.HasPrefix(t, "jsr:"):
		spec := t[4:]
		if name, ver, pinned := npmPinned(spec); !pinned {
			a.add("MG204", w.at, "deno runs %s%s", t[:4]+name, versionNote(ver))
		}
	}
}

// launchHits are the findings the launch model makes about a command
// line: MG105 for what it runs from the repository (one per cause, naming
// the files), MG203 for inline code. sources maps the model's Source
// ("command", "args[i]") to the index hits report; other sources (the
// environment, which MG101 covers) are left out.
func launchHits(sp launch.Spawn, at func(source string) (int, bool)) []hit {
	sc, err := launch.Analyze(sp, "", nil, launch.Options{})
	if err != nil {
		return nil // without an FS there is nothing to fail
	}
	// One finding per cause (the launch model's Why), listing every file
	// it covers, reported at the first word that names one.
	byWhy := map[string][]launch.Item{}
	var order []string
	for _, it := range sc.Items {
		if _, ok := at(it.Source); !it.Runs || !ok {
			continue
		}
		if _, seen := byWhy[it.Why]; !seen {
			order = append(order, it.Why)
		}
		byWhy[it.Why] = append(byWhy[it.Why], it)
	}
	var out []hit
	for _, why := range order {
		items := byWhy[why]
		i, _ := at(items[0].Source)
		var labels []string
		for _, it := range items {
			labels = append(labels, quote(it.Label()))
		}
		if len(labels) > 3 {
			labels = append(labels[:3], fmt.Sprintf("%d more", len(items)-3))
		}
		out = append(out, hit{rule: "MG105", at: i, detail: fmt.Sprintf("%s: %s", strings.Join(labels, ", "), why),
			tail: "; agentty's approval does not cover its content"})
	}
	for _, in := range sc.Inline {
		if posixShells[progName(in.Program)] != "" {
			continue // a shell's inline script is MG202
		}
		if i, ok := at(in.Source); ok {
			out = append(out, hit{rule: "MG203", at: i, detail: fmt.Sprintf("%s %s runs inline code: %s", in.Program, in.Flag, quote(in.Code))})
		}
	}
	return out
}

// argvSource maps the model's sources for a command line to argv
// indices: "command" is 0, "args[i]" is i+1.
func argvSource(source string) (int, bool) {
	if source == "command" {
		return 0, true
	}
	if n, ok := strings.CutPrefix(source, "args["); ok {
		if i, err := strconv.Atoi(strings.TrimSuffix(n, "]")); err == nil && strings.HasSuffix(n, "]") {
			return i + 1, true
		}
	}
	return 0, false
}

// sortHits orders hits by the word they are reported at, keeping the
// order of the walk within a word.
func sortHits(hs []hit) {
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].at < hs[j].at })
}
