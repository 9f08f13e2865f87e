package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRunawayLocaleMessageNamed: a locale message that could run away
// (a loop, a printf of a huge width, its own delimiters) is refused by
// check on its locale file and key, before any page runs it.
func TestRunawayLocaleMessageNamed(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		`"{{range 100000}}{{range 100000}}xxxxxxxx{{end}}{{end}}"`,
		`"{{printf \"%0999999999d\" 1}}"`,
		`{one: "{{.N}} node", other: "{{range 100000}}x{{end}}"}`,
		`{other: "[[.N]]", leftDelim: "[[", rightDelim: "]]"}`,
	} {
		d, _ := oneStudyTree(t, seedStudy)
		file := filepath.Join(d.Locales, "ja.yaml")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		line := bytes.Count(data, []byte("\n")) + 1
		if err := os.WriteFile(file, append(data, "runaway.message: "+msg+"\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := loadHeld(d)
		if err != nil {
			t.Fatal(err)
		}
		at := filepath.ToSlash(file) + ":" + strconv.Itoa(line) + ": "
		found := false
		for _, e := range schemaErrors(p) {
			found = found || strings.Contains(e, at) && strings.Contains(e, `message "runaway.message"`)
		}
		if !found {
			t.Errorf("%s: no error at %s naming the message among:\n%s", msg, at, strings.Join(schemaErrors(p), "\n"))
		}
	}
}
