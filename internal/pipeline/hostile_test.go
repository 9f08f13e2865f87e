package pipeline

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// hostileValues are what a pull request may put in any field that is not
// prose. Each must reach every output as text.
var hostileValues = map[string]string{
	"link":      "[L](//evil.example/a) ![I](//evil.example/i.png) <https://evil.example/auto>",
	"html":      "<img src=//evil.example/x onerror=alert(1)> <b>bold</b> </code><script>alert(1)</script>",
	"comment":   "<!-- everything after this is hidden",
	"lines":     "x\r# H1 injected\n## H2 injected\r\n- item",
	"controls":  "nul\x00 soh\x01 esc\x1b[31m del\x7f c1\u0085",
	"backticks": "``` `code` `` x",
	"pipes":     "a | b | c |",
	"bidi":      "abc\u202eevil\u202c \u2066x\u2069",
	"paren":     "x) [S](//evil.example) ![I](//evil.example/p.png",
	"emphasis":  "*em* _un_ **strong** ~~del~~ {#conclusion} \\",
}

// hostileFields puts v, behind a marker naming the field, into every field
// of qwen3-32b-a100 that is not prose and reaches a page. It returns the
// markers that the English report page must show as text.
func hostileFields(t *testing.T, d Dirs, v string) []string {
	t.Helper()
	study := filepath.Join(d.Results, "qwen3-32b-a100")
	log := v
	edits := []struct{ file, old, new, marker string }{
		{"runs/sglang/run.yaml", "name: SGLang", "name: " + yamlQuote("ZnameZ "+v), "ZnameZ"},
		{"runs/trtllm/run.yaml", "command: trtllm-serve Qwen/Qwen3-32B", "command: " + yamlQuote("trtllm-serve Qwen/Qwen3-32B ZcommandZ "+v), "ZcommandZ"},
		{"runs/trtllm-awq/run.yaml", `error: "KeyError: 'weight'"`, "error: " + yamlQuote("ZerrorZ "+v), "ZerrorZ"},
		{"study.yaml", "gpu: NVIDIA A100 SXM 80GB", "gpu: " + yamlQuote("ZgpuZ "+v), "ZgpuZ"},
		{"study.yaml", "    name: vLLM\n", "    name: " + yamlQuote("ZengineZ "+v) + "\n", "ZengineZ"},
		{"study.yaml", "version: v0.11.0", "version: " + yamlQuote("ZversionZ "+v), "ZversionZ"},
		{"study.yaml", "model: Qwen/Qwen3-32B\n", "model: " + yamlQuote("Qwen/Qwen3-32B ZmodelZ "+v) + "\n", "ZmodelZ"},
		{"study.yaml", "tool: vllm bench serve", "tool: " + yamlQuote("ZtoolZ "+v), "ZtoolZ"},
	}
	for _, e := range edits {
		edit(t, filepath.Join(study, e.file), e.old, e.new)
	}
	// The exception line of a failed log: one line of the log.
	exception := "RuntimeError: ZexceptionZ " + strings.NewReplacer("\r", " ", "\n", " ").Replace(log) + "\n"
	os.WriteFile(filepath.Join(study, "runs", "vllm-awq", "sharegpt.log"), []byte("Traceback (most recent call last):\n"+exception), 0o644)
	for _, lang := range []string{"en", "zh", "ja"} {
		file := filepath.Join(d.Content, lang, "qwen3-32b-a100.md")
		edit(t, file, "  sharegpt: ShareGPT", "  sharegpt: "+yamlQuote("ZworkloadZ "+v))
		// A step id with markup is refused by check (TestHostileNamesFailCheck);
		// its display name is text. The name it had becomes a comment.
		edit(t, file, "  max-batched-tokens:", "  max-batched-tokens: "+yamlQuote("ZstepZ "+v)+" #")
	}
	markers := []string{}
	for _, e := range edits {
		if e.marker != "" {
			markers = append(markers, e.marker)
		}
	}
	return append(markers, "ZexceptionZ", "ZworkloadZ", "ZstepZ")
}

// yamlQuote writes s as a YAML double-quoted string, every character that
// is not printable as an escape: YAML refuses raw control characters, not
// escaped ones.
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r >= 0x2028 && r <= 0x2069 || r == 0xfeff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostileFieldsStayText: a table of hostile values, each put in every
// field that is not prose, and every output of the build read back: the
// HTML pages, the Markdown reports, the SVG charts and the CSV downloads.
// None may hold markup that came from a value, a control character or a
// bidirectional control.
func TestHostileFieldsStayText(t *testing.T) {
	t.Parallel()
	for name, v := range hostileValues {
		t.Run(name, func(t *testing.T) {
			d := copyTree(t)
			for _, other := range []string{"qwen3-235b-a22b-a100", "example-qwen3-8b-l40s"} {
				os.RemoveAll(filepath.Join(d.Results, other))
				for _, lang := range []string{"en", "zh", "ja"} {
					os.Remove(filepath.Join(d.Content, lang, other+".md"))
				}
			}
			markers := hostileFields(t, d, v)
			_, files := buildRepo(t, d)
			page := string(files["en/qwen3-32b-a100/index.html"])
			for _, m := range markers {
				if !strings.Contains(page, m) {
					t.Errorf("the report does not show the field %s", m)
				}
			}
			checked := 0
			for file, data := range files {
				switch filepath.Ext(file) {
				case ".html":
					assertHTMLText(t, file, data)
				case ".md":
					assertMarkdownText(t, file, data)
				case ".svg":
					assertSVG(t, file, data)
				case ".csv", ".json":
				default:
					continue
				}
				checked++
				if m := unsafeChars.Find(data); m != nil {
					t.Errorf("%s holds the character %q", file, m)
				}
			}
			if checked < 20 {
				t.Fatalf("only %d outputs read", checked)
			}
		})
	}
}

// unsafeChars are the characters no output may hold: control characters
// but tab and LF, and bidirectional controls.
var unsafeChars = regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

// hostileMarkup is HTML that only a hostile value can have produced: an
// event handler, an element, a heading or list item it started.
var hostileMarkup = regexp.MustCompile(`(?i)<[^>]*(\sonerror=|alert\()|<script>alert|<b>|<em>em<|<strong>strong<|<del>|<h[1-6][^>]*>\s*H[12] injected|<li>item|raw HTML omitted|<td>\s*b\s*</td>`)

func assertHTMLText(t *testing.T, file string, data []byte) {
	t.Helper()
	if m := offSiteAttr.Find(data); m != nil {
		t.Errorf("%s: an off-site link or image %q", file, m)
	}
	// An attribute may quote a value (alt, title, data-*): escaped, it is
	// text; what is left is elements and attribute names.
	stripped := attrValue.ReplaceAll(data, []byte(`=""`))
	if m := hostileMarkup.Find(stripped); m != nil {
		t.Errorf("%s: markup from a value: %q", file, m)
	}
}

var (
	// offSiteAttr is a link or image that leaves the site: the test builds
	// without --base-url or --repo-url, so perflab writes none.
	offSiteAttr = regexp.MustCompile(`(?i)(href|src)="(//|[a-z][a-z0-9+.-]*:[^,])`)
	attrValue   = regexp.MustCompile(`="[^"]*"`)
)

// assertMarkdownText parses a Markdown report as GitHub would and fails
// on a link or image a value made, a heading or list item it started, and
// raw HTML other than the <a id> anchors perflab writes.
func assertMarkdownText(t *testing.T, file string, data []byte) {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAttribute()))
	doc := md.Parser().Parse(text.NewReader(data))
	anchor := regexp.MustCompile(`^<a id="[A-Za-z0-9_-]+"></a>\s*$`)
	inlineAnchor := regexp.MustCompile(`^(<a id="[A-Za-z0-9_-]+">|</a>)$`)
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if offSite.Match(n.Destination) {
				t.Errorf("%s: a link to %s", file, n.Destination)
			}
		case *ast.Image:
			if offSite.Match(n.Destination) {
				t.Errorf("%s: an image from %s", file, n.Destination)
			}
		case *ast.AutoLink:
			t.Errorf("%s: an autolink %s", file, n.URL(data))
		case *ast.Heading:
			if h := string(n.Lines().Value(data)); strings.HasPrefix(h, "H1 injected") || strings.HasPrefix(h, "H2 injected") {
				t.Errorf("%s: a heading %q", file, h)
			}
		case *ast.HTMLBlock:
			if h := string(n.Lines().Value(data)); !anchor.MatchString(h) {
				t.Errorf("%s: raw HTML %q", file, h)
			}
		case *ast.RawHTML:
			if h := string(n.Segments.Value(data)); !inlineAnchor.MatchString(h) {
				t.Errorf("%s: inline HTML %q", file, h)
			}
		case *ast.Emphasis:
			if e := nodeText(n, data); e == "em" || e == "un" || e == "strong" {
				t.Errorf("%s: emphasis %q", file, e)
			}
		}
		return ast.WalkContinue, nil
	})
}

// offSite is a link destination that leaves the site: perflab's own are
// relative paths and fragments.
var offSite = regexp.MustCompile(`^(//|[A-Za-z][A-Za-z0-9+.-]*:)`)

// assertSVG fails unless the chart is well-formed XML and its only links
// are perflab's own.
func assertSVG(t *testing.T, file string, data []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s: not valid XML: %v", file, err)
			return
		}
		if el, ok := tok.(xml.StartElement); ok && (el.Name.Local == "a" || el.Name.Local == "image" || el.Name.Local == "script") {
			t.Errorf("%s: element <%s>", file, el.Name.Local)
		}
	}
}

// TestProseCannotClaimAnchors: prose that copies a log line's anchor (as a
// heading id or an anchored log block), a run's anchor or a section's, or
// writes raw HTML with an id, gets none of them: every id of the page is
// perflab's, once.
func TestProseCannotClaimAnchors(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	_, clean := buildRepo(t, repoDirs)
	logID := regexp.MustCompile(`id="(L[0-9a-f]{8})-10"`).FindSubmatch(clean["en/qwen3-32b-a100/index.html"])
	if logID == nil {
		t.Fatal("no log line anchor on the page")
	}
	claim := "<!-- section: objective -->\n## Fake {#" + string(logID[1]) + "-10}\n\n" +
		"~~~log @" + string(logID[1]) + ":1:20 fake\nTotal Token throughput (tok/s): 99999\n~~~\n\n" +
		"### Fake run {#run-sglang}\n\n### Fake conclusion {#conclusion}\n\n<a id=\"run-trtllm\"></a>\n\n"
	for _, lang := range []string{"en", "zh", "ja"} {
		edit(t, filepath.Join(d.Content, lang, "qwen3-32b-a100.md"), "<!-- section: objective -->\n", claim)
	}
	_, files := buildRepo(t, d)
	for _, name := range []string{"en/qwen3-32b-a100/index.html", "en/qwen3-32b-a100.md"} {
		page := string(files[name])
		if !strings.Contains(page, "Fake run") || !strings.Contains(page, "99999") {
			t.Fatalf("%s: the prose is not on the page", name)
		}
		seen := map[string]bool{}
		for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
			if seen[m[1]] {
				t.Errorf("%s: id %q twice", name, m[1])
			}
			seen[m[1]] = true
		}
		if want := `id="` + string(logID[1]) + `-10"`; name != "en/qwen3-32b-a100.md" && !strings.Contains(page, want) {
			t.Errorf("%s: the real line lost its anchor %s", name, want)
		}
	}
}

// nodeText joins the text under a node (ast.Node's Text is deprecated).
func nodeText(n ast.Node, src []byte) string {
	var b []byte
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		switch c := c.(type) {
		case *ast.Text:
			if entering {
				b = append(b, c.Segment.Value(src)...)
			}
		case *ast.String:
			if entering {
				b = append(b, c.Value...)
			}
		}
		return ast.WalkContinue, nil
	})
	return string(b)
}
