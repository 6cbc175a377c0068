package policy

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-guard/mcp-guard/launch"
)

// TestOneModelOfALaunch: the scan rules about what a command runs from the
// repository (MG105) and its inline code (MG203) say exactly what the
// launch model says, word for word, and no policy file reports them on
// its own.
func TestOneModelOfALaunch(t *testing.T) {
	argvs := [][]string{
		{"node", "server.js"}, {"./bin/srv", "--x"}, {"python3", "-m", "srv"}, {"python3", "-I", "-m", "srv"},
		{"python3", "-c", "import x"}, {"npm", "--prefix", "server", "start"}, {"uv", "--directory", "t", "run", "w.py"},
		{"go", "run", "."}, {"make", "-C", "tools"}, {"sh", "-c", "cd tools && ./srv && node -e 1"},
		{"env", "NODE_OPTIONS=--require ./h.js", "node", "s.js"}, {"npx", "-y", "./local"}, {"npx", "tsx", "src/a.ts"},
		{"perl", "-ne", "print"}, {"docker", "compose", "up"}, {"bash", "run.sh"}, {"cmd", "/c", "node", "x.js"},
		{"npx", "-y", "@scope/pkg@1.0.0"}, {"uvx", "pkg==1"}, {"node", "/opt/x.js"},
	}
	for _, argv := range argvs {
		var got []string
		for _, h := range analyzeArgv(argv) {
			if h.rule == "MG105" || h.rule == "MG203" {
				got = append(got, h.rule+"@"+strconv.Itoa(h.at))
			}
		}
		sc, err := launch.Analyze(launch.Spawn{Command: argv[0], Args: argv[1:]}, "", nil, launch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		var want []string
		for _, it := range sc.Items {
			if i, ok := argvSource(it.Source); ok && it.Runs && !seen["MG105@"+strconv.Itoa(i)] {
				seen["MG105@"+strconv.Itoa(i)] = true
				want = append(want, "MG105@"+strconv.Itoa(i))
			}
		}
		for _, in := range sc.Inline {
			if i, ok := argvSource(in.Source); ok && posixShells[progName(in.Program)] == "" {
				want = append(want, "MG203@"+strconv.Itoa(i))
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q: policy %v, launch model %v", argv, got, want)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "interp.go" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range []string{`"MG105"`, `"MG203"`} {
			if strings.Contains(string(data), rule) {
				t.Errorf("%s reports %s itself: it must come from the launch model (interp.go's launchHits)", f, rule)
			}
		}
	}
}
