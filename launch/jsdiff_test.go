package launch

import (
	"bufio"
	stdctx "context"

	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The JavaScript lexer held against a real parser: acorn, pinned, run
// under node and installed from npm into a cache directory on first use
// (~/.cache/mcp-guard/test/acorn-<version>, or $MCP_GUARD_TEST_CACHE).
// For every source acorn parses, each module specifier acorn finds named
// literally must be one the lexer finds too, or the lexer must say the
// file is open; and where acorn sees code it cannot name (a computed
// require or import(), require as a value, eval, Function), the lexer
// must say open. The test skips when node or npm is missing, or the
// install fails outside CI.
const acornVersion = "8.15.0"

type acornOracle struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

type acornAnswer struct {
	OK    bool     `json:"ok"`
	Specs []string `json:"specs"`
	Open  bool     `json:"open"`
}

var (
	oracleOnce sync.Once
	oracle     *acornOracle
	oracleSkip string
)

func acorn(t testing.TB) *acornOracle {
	t.Helper()
	oracleOnce.Do(func() {
		var err error
		oracle, err = startAcorn()
		if err != nil {
			oracleSkip = err.Error()
		}
	})
	if oracle == nil {
		if os.Getenv("CI") != "" && !strings.Contains(oracleSkip, "not found") {
			t.Fatalf("acorn oracle: %s", oracleSkip)
		}
		t.Skipf("acorn oracle unavailable: %s", oracleSkip)
	}
	return oracle
}

func startAcorn() (*acornOracle, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node not found")
	}
	base := os.Getenv("MCP_GUARD_TEST_CACHE")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, err
		}
		base = filepath.Join(home, ".cache", "mcp-guard", "test")
	}
	dir := filepath.Join(base, "acorn-"+acornVersion)
	mod := filepath.Join(dir, "node_modules", "acorn")
	if _, err := os.Stat(filepath.Join(mod, "package.json")); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			return nil, fmt.Errorf("npm not found")
		}
		if err := os.MkdirAll(base, 0o755); err != nil {
			return nil, err
		}
		// Install beside the cache and rename: an interrupted install never
		// leaves a cache that looks usable.
		tmp, err := os.MkdirTemp(base, "acorn.tmp-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		ctx, cancel := stdctx.WithTimeout(stdctx.Background(), 3*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, npm, "install", "--prefix", tmp, "--save-exact", "--no-audit", "--no-fund",
			"--loglevel=error", "acorn@"+acornVersion).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("npm install acorn@%s: %v\n%s", acornVersion, err, out)
		}
		os.RemoveAll(dir)
		if err := os.Rename(tmp, dir); err != nil {
			return nil, err
		}
	}
	script, err := filepath.Abs(filepath.Join("testdata", "acorn", "oracle.js"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, script, mod)
	inR, in := io.Pipe()
	out, outW := io.Pipe()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &acornOracle{in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

func (o *acornOracle) ask(t testing.TB, src string) acornAnswer {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	b, _ := json.Marshal(map[string]string{"src": src})
	if _, err := o.in.Write(append(b, '\n')); err != nil {
		t.Fatalf("oracle: %v", err)
	}
	line, err := o.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var a acornAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("oracle answer %q: %v", line, err)
	}
	return a
}

// disagreement is "" when the lexer's answer is sound against acorn's.
func disagreement(src string, a acornAnswer) string {
	if !a.OK {
		return ""
	}
	refs := scanJS([]byte(src))
	specs := map[string]bool{}
	open := false
	for _, r := range refs {
		if r.Open != "" {
			open = true
		} else {
			specs[r.Spec] = true
		}
	}
	if open {
		return ""
	}
	if a.Open {
		return "acorn sees code it cannot name; the lexer says closed"
	}
	for _, s := range a.Specs {
		if !specs[s] {
			return fmt.Sprintf("acorn finds %q, the lexer does not (lexer: %v)", s, refs)
		}
	}
	return ""
}

// The generated edge cases: fragments where a lexer must choose between
// readings ('/' after '}' or ')', keywords as property names, ASI,
// templates, comments), joined at random.
var jsFragments = []string{
	"{}", "{a: 1}", "({a: 1})", "x = {}", "x = 1", "\n", ";", " ", "if (a) {}", "if (a) x", "f()", "a++", "--b",
	"/re'/", "/[/'\"]/g", "/ 2", "/* c */", "// c\n", "x.in", "x.return", "x.of", "return", "typeof", "await",
	"`t ${a} t`", "`${ {a: 1}.a }`", "'s'", "\"s\"", "require('./a')", "require('./b').c", "import('./c')",
	"import d from './d'", "export * from './e'", "module.require('./f')", "require(x)", "eval(s)", "const r = require",
	"function f() {}", "class A {}", "x = function () {}", "x = class {}", "() => {}", "do {} while (a)", "case 1:",
	"label:", "a ? {} : b", "[a]", "y = [1]", "<!-- h\n", "#!/x\n", "'\\''", "0.5", "1e+5", "a?.b", "a ?? b",
}

func genJS(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.Intn(8); n > 0; n-- {
		b.WriteString(jsFragments[r.Intn(len(jsFragments))])
		if r.Intn(3) == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func TestScanJSAgainstAcornGenerated(t *testing.T) {
	o := acorn(t)
	r := rand.New(rand.NewSource(27))
	parsed, fails := 0, 0
	for i := 0; i < 20000 && fails < 10; i++ {
		src := genJS(r)
		a := o.ask(t, src)
		if a.OK {
			parsed++
		}
		if d := disagreement(src, a); d != "" {
			fails++
			t.Errorf("%q: %s", src, d)
		}
	}
	if parsed < 1000 {
		t.Errorf("only %d generated sources parsed: the generator no longer exercises the lexer", parsed)
	}
	t.Logf("%d generated sources parsed by acorn", parsed)
}

// The corpus of real sources: the JavaScript of npm itself and its
// dependencies (what MCP servers are built from), where node has it.
func TestScanJSAgainstAcornCorpus(t *testing.T) {
	o := acorn(t)
	var roots []string
	for _, d := range []string{"/usr/lib/node_modules", "/usr/local/lib/node_modules"} {
		if _, err := os.Stat(d); err == nil {
			roots = append(roots, d)
		}
	}
	if len(roots) == 0 {
		t.Skip("no installed node packages to use as a corpus")
	}
	n := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || n >= 3000 {
				return nil
			}
			switch filepath.Ext(p) {
			case ".js", ".cjs", ".mjs":
			default:
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 1<<20 {
				return nil
			}
			n++
			if d := disagreement(string(b), o.ask(t, string(b))); d != "" {
				t.Errorf("%s: %s", p, d)
			}
			return nil
		})
	}
	t.Logf("%d real sources compared", n)
}

func FuzzScanJSAgainstAcorn(f *testing.F) {
	for _, s := range []string{"x = 1\n{a: 1}\n/re'/; require('./evil') //'", "x.in / require('./a') / 1",
		"if (a) {}\n/[/*]/; require('./y') // */", "`${ {a: 1}.a }` / require('./a')", "a++ / require('./a') / 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		o := acorn(t)
		if d := disagreement(src, o.ask(t, src)); d != "" {
			t.Errorf("%q: %s", src, d)
		}
	})
}
