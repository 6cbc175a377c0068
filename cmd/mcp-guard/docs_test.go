package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/mcp-guard/mcp-guard/client"
)

// repoRoot is the repository's top directory, seen from this package.
var repoRoot = filepath.Join("..", "..")

// userDocs are the Markdown files a user reads: the top-level pages and
// everything under docs/.
func userDocs(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "SECURITY.md", "BENCHMARKS.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(repoRoot, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	// inlineLink is [text](target) or ![alt](target "title").
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	// refLink is a reference definition: [label]: target
	refLink    = regexp.MustCompile(`(?m)^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	headingRe  = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
	schemeLink = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// prose is a Markdown text without its fenced code blocks and code spans,
// where link syntax means nothing.
func prose(text string) string {
	return codeSpan.ReplaceAllString(withoutFences(text), "``")
}

// withoutFences is a Markdown text without its fenced code blocks.
func withoutFences(text string) string {
	var b strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
		case fence == "":
			b.WriteString(line)
		}
	}
	return b.String()
}

// anchors are the fragment ids GitHub gives a Markdown file's headings:
// lower case, punctuation dropped, spaces as hyphens, repeats numbered.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headingRe.FindAllStringSubmatch(withoutFences(text), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r), unicode.IsNumber(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		id := b.String()
		if n := seen[id]; n > 0 {
			out[fmt.Sprintf("%s-%d", id, n)] = true
		} else {
			out[id] = true
		}
		seen[id]++
	}
	return out
}

// TestDocsLinks fails when a user-facing document links to a path outside
// the repository (a user has only the repository), to a file that does not
// exist, or to a heading a Markdown file does not have. Relative links are
// resolved from the linking file, as GitHub resolves them.
func TestDocsLinks(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	docs := userDocs(t)
	if len(docs) < 4 {
		t.Fatalf("found only %v", docs)
	}
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "../shared") {
			t.Errorf("%s mentions ../shared, which users do not have", doc)
		}
		text := prose(string(data))
		var targets []string
		for _, re := range []*regexp.Regexp{inlineLink, refLink} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				targets = append(targets, m[1])
			}
		}
		for _, target := range targets {
			if target == "" || schemeLink.MatchString(target) {
				continue // a web address, mailto:, …
			}
			checked++
			path, frag, _ := strings.Cut(target, "#")
			file := filepath.Join(root, filepath.FromSlash(doc))
			if path != "" {
				if strings.HasPrefix(path, "/") {
					t.Errorf("%s: link %q is absolute: link relative to the file", doc, target)
					continue
				}
				file = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				rel, err := filepath.Rel(root, file)
				if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
					t.Errorf("%s: link %q points outside the repository", doc, target)
					continue
				}
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link %q: no such file in the repository", doc, target)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(file, ".md") {
				linked, err := os.ReadFile(file)
				if err != nil {
					t.Errorf("%s: link %q: %v", doc, target, err)
					continue
				}
				if !anchors(string(linked))[frag] {
					t.Errorf("%s: link %q: %s has no heading with the id %q", doc, target, filepath.Base(file), frag)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: the link pattern is broken")
	}
}

// TestDocsLinkCheckerCatches checks the link checker's own pieces on
// links it must refuse or accept.
func TestDocsLinkCheckerCatches(t *testing.T) {
	text := "# How agentty decides what runs\n## `.mcp-guard.yaml` keys\n## Keys\n## Keys\n" +
		"See [spec](../shared/spec/agentty-compat.md), [x](docs/a.md#b \"t\") and `[not](a link)`.\n" +
		"```\n[in code](nowhere.md)\n```\n[ref]: <other.md>\n"
	var got []string
	for _, re := range []*regexp.Regexp{inlineLink, refLink} {
		for _, m := range re.FindAllStringSubmatch(prose(text), -1) {
			got = append(got, m[1])
		}
	}
	if want := "../shared/spec/agentty-compat.md docs/a.md#b other.md"; strings.Join(got, " ") != want {
		t.Errorf("links %q, want %q", got, want)
	}
	a := anchors(text)
	for _, id := range []string{"how-agentty-decides-what-runs", "mcp-guardyaml-keys", "keys", "keys-1"} {
		if !a[id] {
			t.Errorf("no anchor %q in %v", id, a)
		}
	}
}

// TestErrorWordsAgreeWithExitTable: README says `error:` goes with both
// exit statuses it is printed with, 2 (could not) and 1 (refused).
func TestErrorWordsAgreeWithExitTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{"`mcp-guard: error: …`", "2 when it could not do its job", "1 when it understood the request and refused it"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}

// TestReadmeOpensWithEveryAgent: README opens with the problem every agent
// shares and a table with a row per agent of the registry, before Install.
func TestReadmeOpensWithEveryAgent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	top, _, ok := strings.Cut(string(data), "\n## ")
	if !ok {
		t.Fatal("README.md has no sections")
	}
	for _, title := range client.Titles() {
		if !strings.Contains(top, "\n| ["+title+"](docs/") {
			t.Errorf("README.md's opening table has no row for %s", title)
		}
	}
	if first, _, _ := strings.Cut(top, "\n\n| "); strings.Contains(first, "agentty") {
		t.Errorf("README.md's first paragraph speaks of agentty before the table of every agent: %q", first)
	}
}

// TestPackageDocEveryAgent: the command's package comment (go doc's
// answer) says what mcp-guard does for every agent, not through one
// agent's configuration.
func TestPackageDocEveryAgent(t *testing.T) {
	data, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(data), "\npackage main")
	if strings.Contains(doc, "through agentty's") || !strings.Contains(doc, "every other agent") {
		t.Errorf("main.go's package comment speaks of one agent: %q", doc)
	}
}

// TestHelpSpeaksOfEveryAgent: the commands' help says the exit status and
// what blocks in words true for every agent, not agentty's ("a gated
// server is pending").
func TestHelpSpeaksOfEveryAgent(t *testing.T) {
	for _, args := range [][]string{{"status", "--help"}, {"check", "--help"}, {"help"}} {
		var out, errb strings.Builder
		run(t.Context(), append([]string{"mcp-guard"}, args...), strings.NewReader(""), &out, &errb, []string{"HOME=" + t.TempDir()})
		for _, agenttys := range []string{"gated server is pending", "waits for approval", "approve project servers", "the servers wait for review again"} {
			if strings.Contains(out.String(), agenttys) {
				t.Errorf("%q says %q", args, agenttys)
			}
		}
	}
}

// goldenShown is a fenced block, then the sentence that says which golden
// file it is: "(This is `report/testdata/…golden`".
var goldenShown = regexp.MustCompile("(?m)^```\n((?:[^`\n].*\n|\n)*)```\n\n\\(This is `([^`]+\\.golden)`")

// TestDocsShowTheirGoldens: a user document that says an output sample
// is a golden file shows that file's content, byte for byte, so the sample
// changes when the output does.
func TestDocsShowTheirGoldens(t *testing.T) {
	n := 0
	for _, name := range userDocs(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goldenShown.FindAllStringSubmatch(string(data), -1) {
			n++
			want, err := os.ReadFile(filepath.Join(repoRoot, m[2]))
			if err != nil {
				t.Errorf("%s shows %s, which cannot be read: %v", name, m[2], err)
				continue
			}
			if m[1] != string(want) {
				t.Errorf("%s's sample is not %s; it should read:\n%s", name, m[2], want)
			}
		}
	}
	if n == 0 {
		t.Error("no document shows a golden file: the pattern no longer matches README.md's hook sample")
	}
}
