package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/plain"
)

// TestInvisibleCharacters: a figure of the prose wrapped in U+202E (in
// every language, once as a character reference), a zero-width space in a serving command and an
// isolate in a locale message are each an invisible-character error at
// its file, line and column, naming the code point; and nothing the build
// writes (pages, Markdown, downloads, reproduce.sh) carries one of them.
func TestInvisibleCharacters(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	type at struct {
		file      string
		line, col int
		name      string
	}
	var want []at
	insert := func(file, after, text string, col int, name string) {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), after)
		if i < 0 {
			t.Fatalf("%s has no %q", file, after)
		}
		i += len(after)
		out := string(data[:i]) + text + string(data[i:])
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		line := strings.Count(out[:i], "\n") + 1
		if strings.HasPrefix(text, "\n") {
			line++
		}
		want = append(want, at{filepath.ToSlash(file), line, col, name})
	}
	for _, lang := range []string{"en", "zh"} {
		insert(filepath.Join(d.Content, lang, seedStudy+".md"), "<!-- section: objective -->",
			"\nThe server reached \u202e2054.21\u202c tok/s.", 20, "U+202E RIGHT-TO-LEFT OVERRIDE")
	}
	// A character reference, which goldmark turns into the character.
	insert(filepath.Join(d.Content, "ja", seedStudy+".md"), "<!-- section: objective -->",
		"\nThe server reached &#x202E;2054.21&#x202C; tok/s.", 20, "&#x202E; writes U+202E RIGHT-TO-LEFT OVERRIDE")
	insert(filepath.Join(d.Results, seedStudy, "runs", "sglang", "run.yaml"), "command: python3 -m sglang.launch_server",
		"\u200b", 41, "U+200B ZERO WIDTH SPACE")
	insert(filepath.Join(d.Locales, "en.yaml"), "\nrule.schema: \"", "\u2066", 15, "U+2066 LEFT-TO-RIGHT ISOLATE")
	// An escape of a double-quoted value, reported at the value.
	insert(filepath.Join(d.Locales, "ja.yaml"), "\nrule.schema: \"", `\u2067`, 14, "the value at column 14 writes U+2067 RIGHT-TO-LEFT ISOLATE")
	insert(filepath.Join(d.Results, seedStudy, "runs", "vllm", "run.yaml"), "name: ", `"\u202Evllm"`+"\n#", 7, "the value at column 7 writes U+202E")

	p, err := Check(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, diag := range p.Diagnostics() {
		if diag.Rule == check.RuleInvisible {
			got = append(got, fmt.Sprintf("%s:%d:%d %s", diag.File, diag.Line, diag.Column, diag.Message))
		}
	}
	for _, w := range want {
		prefix := fmt.Sprintf("%s:%d:%d %s", w.file, w.line, w.col, w.name)
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, prefix) && strings.Contains(g, "delete it")
		}
		if !found {
			t.Errorf("no %s error at %s:%d:%d naming %s among:\n%s", check.RuleInvisible, w.file, w.line, w.col, w.name, strings.Join(got, "\n"))
		}
	}
	if !check.Failed(p.Results) && !hasError(p.Problems) {
		t.Error("check passes")
	}

	_, files := buildRepo(t, d)
	scripts := 0
	for name, data := range files {
		if !utf8.Valid(data) {
			continue // a chart image
		}
		if strings.HasSuffix(name, ".md") {
			// The byte order mark of a Markdown download (utf8BOM) is
			// perflab's own, first; any other is the input's.
			data = bytes.TrimPrefix(data, utf8BOM)
		}
		if i := strings.IndexFunc(string(data), plain.Hidden); i >= 0 {
			r, _ := utf8.DecodeRune(data[i:])
			t.Errorf("%s holds U+%04X at byte %d", name, r, i)
		}
		if strings.HasSuffix(name, "reproduce.sh") && strings.Contains(name, seedStudy) {
			scripts++
			if !strings.Contains(string(data), "the serving command of run sglang holds U+200B") {
				t.Errorf("%s does not refuse the command with U+200B", name)
			}
		}
	}
	if scripts == 0 {
		t.Error("no reproduce.sh was built")
	}
}

func hasError(diags []check.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == check.Error && !d.Acknowledged() {
			return true
		}
	}
	return false
}
