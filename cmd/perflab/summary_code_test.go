package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// addedMarkup names each kind of markup a change adds, and only what it
// adds: what the base already holds is not listed again.
func TestAddedMarkup(t *testing.T) {
	base := `<a href="https://github.com/perflab/perflab">repo</a> <style>a{}</style>`
	cases := []struct{ name, head, want string }{
		{"script", `<SCRIPT >x()</script>`, "<script>"},
		{"event handler", `<img src=x OnError="x()">`, "event handler attribute onerror"},
		{"event handler on a later line", "<body\n  class=a\n  onload='x()'>", "event handler attribute onload"},
		{"off-site URL", `<img src="https://evil.example/p.png">`, "off-site URL https://evil.example/p.png"},
		{"protocol-relative URL", `<link href="//evil.example/s.css">`, "off-site URL //evil.example/s.css"},
		{"URL in a locale's Markdown link", `label: "see [this](http://evil.example/x)"`, "off-site URL http://evil.example/x"},
		{"iframe", `<iframe src="/x"></iframe>`, "frame or plugin element iframe"},
		{"object", `<object data="/x">`, "frame or plugin element object"},
		{"embed", `<embed src="/x">`, "frame or plugin element embed"},
		{"javascript URL", `<a href="JavaScript:alert(1)">`, "script URL javascript:"},
		{"style url()", `<div style="background: URL(/x.png)">`, "style url()"},
		{"meta refresh", `<meta http-equiv="refresh" content="0">`, "<style>, <base>, <meta http-equiv> or <form> meta http-equiv"},
		{"two scripts", `<script></script><script></script>`, "<script> ×2"},
	}
	for _, c := range cases {
		got := addedMarkup([]byte(base), []byte(base+"\n"+c.head))
		if !slices.Contains(got, c.want) {
			t.Errorf("%s: added markup %q, want %q among them", c.name, got, c.want)
		}
	}
	if got := addedMarkup([]byte(base), []byte(base+"\n<p>More text, https: no host</p>")); len(got) != 0 {
		t.Errorf("text and markup the base holds are reported: %q", got)
	}
}

// A change to templates/ or locales/ comes first in the summary, as code
// to review, naming the markup it adds; a harmless edit says it adds none.
func TestSummaryTemplatesAreCode(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	copyRepo(t)
	edit := func(file, old, new string) {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil || !strings.Contains(string(data), old) {
			t.Fatalf("%s has no %q (%v)", file, old, err)
		}
		if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(filepath.Join("templates", "page.html.tmpl"), "</head>", `<script src="https://evil.example/x.js"></script></head>`)
	edit(filepath.Join("templates", "index.html.tmpl"), "</body>", "\n</body>")
	edit(filepath.Join("locales", "ja.yaml"), "\nseverity.error:", "\nx.extra: \"<img src=x onerror=alert(1)>\"\nseverity.error:")
	out, stderr, err := perflab(t, "summary", "--base", repo, "--head", "results")
	if err != nil {
		t.Fatalf("summary: %v\n%s", err, stderr)
	}
	review := strings.Index(out, "This change edits code")
	if review < 0 || review > strings.Index(out, "**perflab check**") {
		t.Fatalf("the summary does not open with the code to review:\n%s", out)
	}
	for _, want := range []string{
		"- `templates/page.html.tmpl` (changed): **adds** `<script>`, `off-site URL https://evil.example/x.js`\n",
		"- `templates/index.html.tmpl` (changed): adds no script",
		"- `locales/ja.yaml` (changed): **adds** `event handler attribute onerror`\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// No change to templates/ or locales/: no review section.
func TestSummaryNoCodeChange(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	copyRepo(t)
	changes, err := codeChanges(repo, "results")
	if err != nil || len(changes) != 0 {
		t.Errorf("identical trees: code changes %v (%v)", changes, err)
	}
}

// However many files of code change, and however much markup each adds,
// the review stays within codeReviewLimit and says what it leaves out.
func TestCodeReviewBounded(t *testing.T) {
	var changes []codeChange
	head := []byte(strings.Repeat(`<img src="https://evil.example/`+strings.Repeat("p", 5000)+`">`, 10) + strings.Repeat("<script>", 50))
	for i := range 100 {
		adds := addedMarkup(nil, append(head, []byte(strings.Repeat("x", i))...))
		changes = append(changes, codeChange{path: "templates/" + strings.Repeat("n", 3000) + string(rune('a'+i%26)), kind: "added", adds: adds})
	}
	var b strings.Builder
	writeCodeReview(&b, changes)
	if b.Len() > codeReviewLimit+2048 {
		t.Errorf("the review of code is %d bytes, over %d", b.Len(), codeReviewLimit)
	}
	if !strings.Contains(b.String(), "more files of code not shown") {
		t.Errorf("the review does not count the files it leaves out")
	}
}
