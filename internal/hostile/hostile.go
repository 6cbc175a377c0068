// Package hostile makes the adversarial inputs mcp-guard's tests feed it:
// configurations too large or too deep to read, configurations with very
// many servers, strings built to fool a terminal or a reader, and the names
// of very many refs for an awkward repository. Small fixtures are
// committed under testdata/hostile/ (see its README for the behaviour each
// must get); large ones are generated here, at test time, into a test's
// temporary directory, so that nothing of that size is ever committed.
//
// The package is for tests only. It never runs git itself: it produces the
// bytes, and the test that needs a repository hands them to git.
package hostile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// FixtureDir is the absolute path of testdata/hostile/ in this module.
func FixtureDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("hostile: cannot locate the source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "hostile")
}

// Fixture is the absolute path of one committed fixture.
func Fixture(name string) string { return filepath.Join(FixtureDir(), name) }

// ReadFixture returns a committed fixture's bytes; it panics when the file
// is missing, which is a broken checkout, not a test result.
func ReadFixture(name string) []byte {
	data, err := os.ReadFile(Fixture(name))
	if err != nil {
		panic(fmt.Sprintf("hostile: fixture %s: %v", name, err))
	}
	return data
}

// bigHead starts every generated oversized configuration: a real server,
// so that a reader that did not refuse the file would find something.
const bigHead = `{"mcpServers":{"big":{"command":"/bin/echo","args":["`

// WriteBig writes a configuration of exactly size bytes at path: a valid
// start and a valid end, with a hole between them (a sparse file: it costs
// no disk space and no time to make). A reader that ignored the size limit
// would read all of it into memory before failing on the NUL bytes of the
// hole; BigReader streams a fully valid document of the same shape.
func WriteBig(path string, size int64) error {
	const tail = `"]}}}`
	if size < int64(len(bigHead)+len(tail)) {
		return fmt.Errorf("hostile: %d bytes is too small for a configuration", size)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = f.WriteString(bigHead)
	if err == nil {
		_, err = f.WriteAt([]byte(tail), size-int64(len(tail)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// BigReader streams the configuration WriteBig writes, without holding it
// in memory: for `git hash-object --stdin` or a pipe.
func BigReader(size int64) io.Reader {
	const tail = `"]}}}`
	body := size - int64(len(bigHead)) - int64(len(tail))
	if body < 0 {
		body = 0
	}
	return io.MultiReader(strings.NewReader(bigHead), io.LimitReader(spaces{}, body), strings.NewReader(tail))
}

type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// Deep returns a configuration whose one server has an unknown key nested
// levels deep in arrays: `{"mcpServers":{"deep":{"command":"x","tools":[[…]]}}}`.
// Closed, so it is valid JSON of that depth.
func Deep(levels int) []byte {
	var b strings.Builder
	b.Grow(2*levels + 64)
	b.WriteString(`{"mcpServers":{"deep":{"command":"/bin/echo","tools":`)
	b.WriteString(strings.Repeat("[", levels))
	b.WriteString(strings.Repeat("]", levels))
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// DeepObjects is Deep with objects instead of arrays, unclosed: the shape
// that makes a recursive reader allocate a map per level before it fails.
func DeepObjects(levels int) []byte {
	return []byte(`{"mcpServers":{"deep":{"command":"/bin/echo","tools":` + strings.Repeat(`{"a":`, levels))
}

// ServerName is the name of server i in Many's configurations.
func ServerName(i int) string { return fmt.Sprintf("srv-%06d", i) }

// Many returns a configuration with n distinct stdio servers, each with an
// argument, an env value and an unknown key, in shuffled (not bytewise)
// order so that a reader must sort them.
func Many(n int) []byte {
	var b strings.Builder
	b.Grow(n*120 + 32)
	b.WriteString(`{"mcpServers":{`)
	// A fixed permutation of 0..n-1: stride coprime with n.
	stride := 7919
	for gcd(stride, n) != 1 {
		stride++
	}
	for k := range n {
		i := (k * stride) % n
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n%q:{\"command\":\"/opt/mcp/bin/server\",\"args\":[\"--id\",\"%d\",%d],\"env\":{\"TOKEN_%d\":\"v\"},\"timeoutMs\":%d}",
			ServerName(i), i, i, i, i)
	}
	b.WriteString("\n}}\n")
	return []byte(b.String())
}

// ManyHooks returns a Claude Code settings file of n hook commands
// (./h0.sh, ./h1.sh, …) on one event.
func ManyHooks(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"hooks":{"PreToolUse":[{"matcher":"x","hooks":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"command","command":"./h%d.sh"}`, i)
	}
	b.WriteString(`]}]}}`)
	return []byte(b.String())
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Deceptive is a catalogue of strings that must never reach a terminal as
// they are: each would be interpreted by a terminal or read as something
// it is not. Every one must be shown escaped and reported as MG308 when it
// appears in a server's name, command, args or env.
var Deceptive = []struct {
	Name  string // what it is
	Value string
}{
	{"csi erase line", "ok\x1b[2K\x1b[1Gtrusted"},
	{"csi colour", "\x1b[32m✓ approved\x1b[0m"},
	{"osc window title", "srv\x1b]0;pwned\x07"},
	{"osc 8 hyperlink", "\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\"},
	{"osc 52 clipboard", "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaAo=\x07"},
	{"c1 csi", "a\u009b31mb"},
	{"carriage return overwrite", "rm -rf ~\rls -l   "},
	{"backspace overwrite", "evil\b\b\b\bgood"},
	{"newline forges a line", "srv\n  ✓ other  /usr/bin/true"},
	{"bell", "x\a"},
	{"nul", "/safe\x00--read-only"},
	{"del", "a\x7fb"},
	{"bidi override", "safe\u202etxt.exe"},
	{"bidi isolate", "ls \u2066-la\u2069"},
	{"right-to-left mark", "abc\u200fdef"},
	{"zero-width space", "git\u200bhub"},
	{"zero-width joiner", "np\u200dx"},
	{"byte order mark", "\ufeffnode"},
	{"word joiner", "py\u2060thon"},
	{"tag characters", "ok\U000e0069\U000e0067\U000e006e"},
	{"variation selector", "node\ufe0f"},
	{"no-break space", "npx\u00a0-y"},
	{"ideographic space", "a\u3000b"},
	{"soft hyphen", "no\u00adde"},
	{"hangul filler", "a\u3164b"},
	{"line separator", "a\u2028b"},
	{"invalid utf-8", "bad\xff\xfebytes"},
	{"replacement character", "a\ufffdb"},
	{"cyrillic look-alike", "g\u0456thub"},
	{"cyrillic in a command", "/usr/bin/n\u043ede"},
	{"greek look-alike", "\u03a1YTHON"},
	{"fullwidth letters", "\uff4e\uff50\uff58"},
	{"mathematical letters", "\U0001d427\U0001d429\U0001d431"},
}

// DeceptiveConfig returns a project configuration that places v in every
// position a person reads: a server's name, its command, an argument and
// an env value (each in its own server, so each is reported on its own).
func DeceptiveConfig(v string) []byte {
	q := jsonString(v)
	return []byte(`{"mcpServers":{` +
		q + `:{"command":"/usr/bin/true"},` +
		`"cmd":{"command":` + q + `},` +
		`"arg":{"command":"/usr/bin/true","args":["--x",` + q + `]},` +
		`"env":{"command":"/usr/bin/true","env":{"K":` + q + `}}` +
		`}}`)
}

// jsonString quotes s for JSON with every non-ASCII rune and control
// escaped, and invalid UTF-8 kept as raw bytes (which agentty rejects: the
// caller wanted them there).
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, c)
			i++
		case c < 0x80:
			b.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if n == 1 && r == utf8.RuneError {
				b.WriteByte(c) // invalid byte, kept raw
				i++
				continue
			}
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			i += n
		}
	}
	b.WriteByte('"')
	return b.String()
}

// RefNames returns n ref names, sorted as packed-refs needs them:
// refs/heads/branch-NNNNNN and refs/tags/tag-NNNNNN alternately. A test
// writes them as loose ref files or as one packed-refs file, which is far
// faster than asking git to create 50,000 refs one by one.
func RefNames(n int) []string {
	out := make([]string, 0, n)
	for i := range n {
		if i%2 == 0 {
			out = append(out, fmt.Sprintf("refs/heads/branch-%06d", i))
		} else {
			out = append(out, fmt.Sprintf("refs/tags/tag-%06d", i))
		}
	}
	sort.Strings(out)
	return out
}

// Allocated runs fn and returns the bytes it allocated on the heap: the
// measure of "bounded memory" in the hostile tests (allocation, not time,
// so that a busy machine cannot fail or pass them).
func Allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// CPUTime is the CPU time this process has used, user and system: what
// the scaling tests compare, since wall time depends on the machine's load.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// FillDisk fills the filesystem holding dir until a write fails with
// ENOSPC, down to the last byte.
func FillDisk(t testing.TB, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for _, n := range []int{len(buf), 1} {
		for {
			if _, err := f.Write(buf[:n]); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatalf("filling the disk: %v", err)
				}
				break
			}
		}
	}
}
