package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// declaredRules reads every constant Rule... = "id" of the package's
// source, so that a rule declared without its place in Rules is found.
func declaredRules(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Rule") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						id, _ := strconv.Unquote(lit.Value)
						out[n.Name] = id
					}
				}
			}
		}
	}
	return out
}

// TestRuleRegistry holds Rules to the rule constants of the package and
// to docs/checks.md: each id once, each declared one listed, each with its
// row in the table and its heading.
func TestRuleRegistry(t *testing.T) {
	rules := Rules()
	declared := declaredRules(t)
	if len(declared) < 20 {
		t.Fatalf("found only %d rule constants: is the source still read?", len(declared))
	}
	for name, id := range declared {
		if !slices.Contains(rules, id) {
			t.Errorf("%s (%q) is declared but not in Rules(): add it there", name, id)
		}
	}
	seen := map[string]bool{}
	for _, id := range rules {
		if seen[id] {
			t.Errorf("rule %q is listed twice in Rules()", id)
		}
		seen[id] = true
	}
	doc, err := os.ReadFile("../../docs/checks.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range rules {
		row := regexp.MustCompile("(?m)^\\| \\[`" + regexp.QuoteMeta(id) + "`\\]\\(#" + regexp.QuoteMeta(id) + "\\) \\|")
		if !row.Match(doc) {
			t.Errorf("docs/checks.md: no row for rule %s in the table of rules", id)
		}
		if !regexp.MustCompile("(?m)^### " + regexp.QuoteMeta(id) + "$").Match(doc) {
			t.Errorf("docs/checks.md: no heading ### %s", id)
		}
	}
}
