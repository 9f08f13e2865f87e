package pipeline

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFormatsAgree: in every report of the repository's results/ and of
// the test trees, in every language, the Markdown and the HTML page link
// the same figures to the same anchors, (anchor, figure) pair for pair,
// so that the two formats cannot disagree on a number or on where it was
// read.
func TestFormatsAgree(t *testing.T) {
	t.Parallel()
	for _, d := range []Dirs{repoDirs, distDirs, repeatsDirs, goodputDirs, sweepDirs} {
		_, files := buildRepo(t, d)
		pages := 0
		for _, name := range files.Names() {
			stem, ok := strings.CutSuffix(name, ".md")
			page := stem + "/index.html"
			if !ok || files[page] == nil {
				continue
			}
			pages++
			md, html := markdownPairs(string(files[name])), htmlPairs(string(files[page]))
			if len(md) == 0 {
				t.Errorf("%s: no figure linked to an anchor", name)
			}
			if !slices.Equal(md, html) {
				t.Errorf("%s and %s link different figures:\n%s", name, page, pairsDiff(md, html))
			}
		}
		if pages == 0 {
			t.Errorf("%s: no report compared", d.Results)
		}
	}
}

// markdownPairs are the in-page links of a report's Markdown, "#anchor
// text" each, the text as a reader sees it (escapes taken out), sorted.
func markdownPairs(md string) []string {
	var out []string
	for rest := md; ; {
		i := strings.Index(rest, "](#")
		if i < 0 {
			break
		}
		text, ok := linkText(rest[:i])
		after := rest[i+3:]
		rest = after
		end := strings.IndexAny(after, " )")
		if !ok || end < 0 {
			continue
		}
		out = append(out, "#"+after[:end]+" "+unescapeMarkdown(text))
	}
	slices.Sort(out)
	return out
}

// linkText is the text of the link whose "]" ends before: back to its
// matching "[", brackets in between counted, escaped ones not.
func linkText(before string) (string, bool) {
	depth := 0
	for i := len(before) - 1; i >= 0; i-- {
		if i > 0 && before[i-1] == '\\' {
			continue
		}
		switch before[i] {
		case ']':
			depth++
		case '[':
			if depth == 0 {
				return before[i+1:], true
			}
			depth--
		}
	}
	return "", false
}

var markdownEscape = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)

func unescapeMarkdown(s string) string { return markdownEscape.ReplaceAllString(s, "$1") }

var (
	htmlLink = regexp.MustCompile(`<a href="#([^"]+)"[^>]*>((?s:.*?))</a>`)
	anyTag   = regexp.MustCompile(`<[^>]+>`)
	preBlock = regexp.MustCompile(`(?s)<pre[ >].*?</pre>`)
)

// htmlPairs are the in-page links of a report's HTML body, as
// markdownPairs, the numbered lines of its logs (links to themselves)
// left out.
func htmlPairs(page string) []string {
	if i := strings.Index(page, "<main"); i >= 0 {
		page = page[i:]
	}
	if i := strings.Index(page, "</main>"); i >= 0 {
		page = page[:i]
	}
	page = preBlock.ReplaceAllString(page, "")
	var out []string
	for _, m := range htmlLink.FindAllStringSubmatch(page, -1) {
		out = append(out, "#"+html.UnescapeString(m[1])+" "+html.UnescapeString(anyTag.ReplaceAllString(m[2], "")))
	}
	slices.Sort(out)
	return out
}

// pairsDiff lists the pairs only one format has.
func pairsDiff(md, html []string) string {
	var b strings.Builder
	count := map[string]int{}
	for _, p := range md {
		count[p]++
	}
	for _, p := range html {
		count[p]--
	}
	keys := make([]string, 0, len(count))
	for p := range count {
		keys = append(keys, p)
	}
	slices.Sort(keys)
	for _, p := range keys {
		switch n := count[p]; {
		case n > 0:
			b.WriteString("  only in the Markdown: " + p + "\n")
		case n < 0:
			b.WriteString("  only in the HTML:     " + p + "\n")
		}
	}
	return b.String()
}
