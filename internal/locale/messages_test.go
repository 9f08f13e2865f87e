package locale

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/perflab/perflab/internal/study"
)

// locales is a locales/ folder whose en.yaml, zh.yaml and ja.yaml are
// the English file with what each other language sets in place of it.
func locales(en string, others map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{"en.yaml": {Data: []byte(en)}}
	for _, l := range []string{"zh", "ja"} {
		text, ok := others[l]
		if !ok {
			text = en
		}
		fsys[l+".yaml"] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

// TestFieldProblems: a translation that inserts a field its English
// message does not, and a rule message that inserts one no problem line
// gives, are named at their line with the fields they may use.
func TestFieldProblems(t *testing.T) {
	en := "a.label: \"Label\"\nrule.x: \"{{.Run}} is wrong\"\n"
	c, err := Load(locales(en, map[string]string{"zh": "a.label: \"{{.Foo}}标签\"\nrule.x: \"{{.Run}} 有误\"\n"}), study.LanguageTable)
	if err != nil {
		t.Fatal(err)
	}
	got := c.FieldProblems([]string{"Subject"})
	if zh := got["zh"]; len(zh) != 2 || zh[0].ID != "a.label" || zh[0].Field != "Foo" || zh[0].Line != 1 || zh[0].Allowed != "the English message's: none" ||
		zh[1].ID != "rule.x" || zh[1].Line != 2 || zh[1].Allowed != "a problem's: {{.Subject}}" {
		t.Errorf("zh: %+v", zh)
	}
	if en := got["en"]; len(en) != 1 || en[0].ID != "rule.x" || en[0].Field != "Run" {
		t.Errorf("en: %+v", en)
	}
}

// TestUnsafeMessageRefused: a message with a template action other than
// {{.Field}} is refused at its line, before it can run inside go-i18n.
func TestUnsafeMessageRefused(t *testing.T) {
	en := "a.label: \"Label\"\nb.list: \"{{range .X}}x{{end}}\"\n"
	_, err := Load(locales(en, nil), study.LanguageTable)
	if err == nil || !strings.HasPrefix(err.Error(), "locales/en.yaml:2: message \"b.list\" has a template action") {
		t.Errorf("got %v", err)
	}
}

// TestMissingLocaleFile: a language's file that cannot be read is named
// in locales/, with what the file system said.
func TestMissingLocaleFile(t *testing.T) {
	fsys := locales("a.label: \"Label\"\n", nil)
	delete(fsys, "ja.yaml")
	_, err := Load(fsys, study.LanguageTable)
	if err == nil || err.Error() != "locales/ja.yaml: file does not exist" {
		t.Errorf("got %v", err)
	}
}
