package serving

import (
	"os"
	"strings"
	"testing"
)

// The engine tables of docs/checks.md are what this package does.
func TestDocsListTheEngines(t *testing.T) {
	raw, err := os.ReadFile("../../docs/checks.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, e := range Engines {
		row := "| " + e.Name + " | " + e.GPURule + " |"
		if !strings.Contains(doc, row) {
			t.Errorf("docs/checks.md has no row %q", row)
		}
	}
	for name := range neutralFlags {
		if !strings.Contains(doc, "`--"+name+"`") {
			t.Errorf("docs/checks.md does not list the ignored flag --%s", name)
		}
	}
	for spelling := range commonFlags {
		if !strings.Contains(doc, "--"+spelling+"`") && !strings.Contains(doc, "`-"+spelling+"`") {
			t.Errorf("docs/checks.md does not list the spelling %s", spelling)
		}
	}
}
