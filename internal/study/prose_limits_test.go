package study_test

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/perflab/perflab/internal/study"
)

// shape parses Markdown as the reports do (tables on) and returns its
// node count and deepest nesting.
func shape(md string) (nodes, depth int) {
	doc := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader([]byte(md)))
	var walk func(n ast.Node, d int)
	walk = func(n ast.Node, d int) {
		nodes++
		depth = max(depth, d)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c, d+1)
		}
	}
	walk(doc, 0)
	return nodes, depth
}

func proseFile(body string) []byte {
	return []byte("<!-- section: notes -->\nSome text.\n\n" + body + "\n\nThe end.\n")
}

// TestProseShapeIsBounded: deep nesting and huge tables are an error on
// their line, once, and what goldmark is given stays within the bounds,
// so its work grows with the file, not with its square.
func TestProseShapeIsBounded(t *testing.T) {
	table := func(cols, rows int) string {
		head := strings.Repeat("| a ", cols) + "|\n" + strings.Repeat("|---", cols) + "|\n"
		return head + strings.Repeat(strings.Repeat("| 1 ", cols)+"|\n", rows)
	}
	cases := []struct {
		name      string
		body      func(n int) string
		line, msg string
	}{
		{"nested quotes", func(n int) string { return strings.Repeat("> ", n) + "deep" }, ":4: ", "nested"},
		{"nested ordered lists", func(n int) string { return strings.Repeat("1. ", n) + "deep" }, ":4: ", "nested"},
		{"quotes nested line by line", func(n int) string {
			var b strings.Builder
			for i := 1; i <= n; i++ {
				b.WriteString(strings.Repeat(">", i) + " x\n")
			}
			return b.String()
		}, ":36: ", "nested 33 deep"},
		{"wide table", func(n int) string { return table(n*20, 2) }, ":5: ", "columns; the limit is 64"},
		{"long table", func(n int) string { return table(64, n) }, ":70: ", "more than 4096 cells"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var nodes [2]int
			for i, n := range []int{500, 1000} {
				sc, problems := study.ParseContent("content/en/x.md", "en", "x", proseFile(c.body(n)))
				if len(problems) != 1 || !strings.Contains(problems[0].Error(), c.line) || !strings.Contains(problems[0].Msg, c.msg) {
					t.Fatalf("n=%d: problems %v, want one at line %s saying %q", n, problems, c.line, c.msg)
				}
				nn, depth := shape(sc.Sections["notes"].Markdown)
				if depth > study.MaxProseNesting+4 {
					t.Errorf("n=%d: goldmark is given nesting %d deep", n, depth)
				}
				nodes[i] = nn
			}
			if nodes[1] > 2*nodes[0]+64 {
				t.Errorf("nodes: %d at n=500, %d at n=1000: more than linear", nodes[0], nodes[1])
			}
		})
	}
}

// TestProseShapeWithinBounds: prose within the bounds is left as it is.
func TestProseShapeWithinBounds(t *testing.T) {
	body := strings.Repeat("> ", study.MaxProseNesting) + "deep\n\n" +
		strings.Repeat("| a ", study.MaxTableColumns) + "|\n" + strings.Repeat("|:-:", study.MaxTableColumns) + "|\n| 1 |\n\n" +
		"- a\n  - b\n    1. c\n\n---\n\n* * *\n"
	c, problems := study.ParseContent("content/en/x.md", "en", "x", proseFile(body))
	if len(problems) != 0 {
		t.Fatalf("problems %v", problems)
	}
	if want := strings.TrimSpace("Some text.\n\n" + body + "\n\nThe end."); c.Sections["notes"].Markdown != want {
		t.Errorf("the prose was changed")
	}
}
