package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocaleAndGlossaryYAML: a locale or the glossary that hides its
// meaning (a second document, a byte-order mark, a YAML 1.1 boolean) is
// a schema error on its file and line, and the build fails as check does.
func TestLocaleAndGlossaryYAML(t *testing.T) {
	cases := []struct {
		name, file string
		edit       func(string) string
		line       int
		msg        string
	}{
		{"second document in a locale", "zh.yaml", func(s string) string { return s + "---\nsite.title: 别的标题\n" }, -1, "a second YAML document"},
		{"BOM in a locale", "ja.yaml", func(s string) string { return "\ufeff" + s }, 1, "byte-order mark"},
		{"boolean in the glossary", "glossary.yaml", func(s string) string {
			return strings.Replace(s, `    - "n" `, `    - n   `, 1)
		}, -1, `"n" is a boolean`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, _ := oneStudyTree(t, seedStudy)
			file := filepath.Join(d.Locales, c.file)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			edited := c.edit(string(data))
			if edited == string(data) {
				t.Fatal("the edit changed nothing")
			}
			if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			want := c.line
			if want < 0 { // the last line the edit added or changed
				want = strings.Count(edited[:firstDiff(string(data), edited)], "\n") + 1
			}
			p, err := Check(d, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			found := false
			for _, diag := range p.Diagnostics() {
				got = append(got, diag.String())
				found = found || diag.Rule == "schema" && diag.File == filepath.ToSlash(file) && diag.Line == want && strings.Contains(diag.Message, c.msg)
			}
			if !found {
				t.Errorf("no schema error at %s:%d saying %q among:\n%s", file, want, c.msg, strings.Join(got, "\n"))
			}
		})
	}
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
