package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// splitRules are the rules still built in more than one package, each with
// the packages that build it and why. Shrink it; never grow it.
var splitRules = map[string]string{}

// TestEachRuleIsBuiltInOnePackage: a rule id literal ("MG305") appears in
// the code of one package only, outside the catalog (trust/rules.go) and
// tests, so that a rule's findings and their messages are built in one
// place and "where does MG305 fire" has one answer.
func TestEachRuleIsBuiltInOnePackage(t *testing.T) {
	ruleID := regexp.MustCompile(`^MG[0-9]{3}$`)
	pkgs := map[string]map[string][]string{} // rule -> package dir -> positions
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != ".." && (n == "testdata" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.ToSlash(p) == "../trust/rules.go" {
			return nil
		}
		file, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(p, "../")))
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && ruleID.MatchString(s) {
				if pkgs[s] == nil {
					pkgs[s] = map[string][]string{}
				}
				pos := fset.Position(lit.Pos())
				pkgs[s][dir] = append(pkgs[s][dir], filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) == 0 {
		t.Fatal("no rule id found in the code: the walk is broken")
	}
	for rule, byPkg := range pkgs {
		var dirs []string
		for d := range byPkg {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		got := strings.Join(dirs, " ")
		want, split := splitRules[rule]
		switch {
		case split && got != want:
			t.Errorf("%s is built in %s, splitRules says %q: update splitRules (and remove the entry once one package builds it)", rule, got, want)
		case !split && len(dirs) > 1:
			var where []string
			for _, d := range dirs {
				where = append(where, d+" ("+strings.Join(byPkg[d], ", ")+")")
			}
			t.Errorf("%s is built in %d packages: %s; build its findings in one of them and call it from the others", rule, len(dirs), strings.Join(where, "; "))
		}
	}
	for rule := range splitRules {
		if pkgs[rule] == nil {
			t.Errorf("splitRules names %s, which no code builds", rule)
		}
	}
}
