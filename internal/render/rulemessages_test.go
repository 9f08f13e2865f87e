package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/check"
)

// TestEveryRuleHasAMessage renders the problem line of every rule id
// (from check.Rules, the one list of them) in every language: a rule added
// without its rule.<id> message in a locale fails here, not in a build.
func TestEveryRuleHasAMessage(t *testing.T) {
	r, err := New(os.DirFS("../../templates"), os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	fields := []any{"Run", "RUN", "Served", "SERVED", "Model", "MODEL", "Printed", "PRINTED", "Computed", "COMPUTED", "Subject", "SUBJECT"}
	for _, l := range Languages {
		for _, id := range check.Rules() {
			loc := r.localizer(l.Code)
			if !loc.Has("rule." + id) {
				t.Errorf("locales/%s.yaml: no message rule.%s", l.Code, id)
				continue
			}
			got := loc.T("rule."+id, fields...)
			if loc.Lacked() != nil || strings.Contains(got, "<no value>") || strings.TrimSpace(got) == "" {
				t.Errorf("locales/%s.yaml: rule.%s renders %q (%v)", l.Code, id, got, loc.Lacked())
			}
		}
	}
}

// TestRequiredMessages: what check requires of every locale holds the
// rules, the severities and the templates' constant ids, and nothing the
// repository's locales lack.
func TestRequiredMessages(t *testing.T) {
	r, err := New(os.DirFS("../../templates"), os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	req := r.RequiredMessages()
	for _, want := range []string{"rule.price-missing", "severity.warning", "problems.intro", "footer.generated", "index.title", "title.latency", "change.noise"} {
		if !slices.Contains(req, want) {
			t.Errorf("RequiredMessages lacks %s", want)
		}
	}
	if missing := r.MissingMessages(); len(missing) > 0 {
		t.Errorf("the repository's locales lack %v", missing)
	}
}

// TestCodeMessagesListed holds codeMessages to the code: every string
// literal of this package, of internal/chart and of the recipe comments
// that is a message id of locales/en.yaml is listed, and nothing else.
func TestCodeMessagesListed(t *testing.T) {
	data, err := os.ReadFile("../../locales/en.yaml")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]any{}
	if err := yaml.Unmarshal(data, &keys); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, pattern := range []string{"*.go", "../chart/*.go", "../recipe/commented.go"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil && keys[s] != nil {
						found[s] = true
					}
				}
				return true
			})
		}
	}
	if len(found) < 100 {
		t.Fatalf("found only %d message ids in the code: is it still read?", len(found))
	}
	for id := range found {
		if !slices.Contains(codeMessages, id) {
			t.Errorf("the code names message %q: add it to codemessages.txt", id)
		}
	}
	for _, id := range codeMessages {
		if !found[id] {
			t.Errorf("codeMessages lists %q, which no code names (or en.yaml lacks): remove it", id)
		}
	}
}
