package render

import (
	"os"
	"strings"
	"testing"

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
			if !loc.has("rule." + id) {
				t.Errorf("locales/%s.yaml: no message rule.%s", l.Code, id)
				continue
			}
			got := loc.T("rule."+id, fields...)
			if loc.err != nil || strings.Contains(got, "<no value>") || strings.TrimSpace(got) == "" {
				t.Errorf("locales/%s.yaml: rule.%s renders %q (%v)", l.Code, id, got, loc.err)
			}
		}
	}
}
