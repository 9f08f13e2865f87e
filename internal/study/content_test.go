package study_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/perflab/perflab/internal/study"
)

const contentMD = `---
workloads:
  sharegpt: ShareGPT
  random-1k: Short prompt
steps:
  quantization: Quantization
---
<!-- section: notes -->
1. First note.

2. Second note.

<!-- section: objective -->
Maximize throughput.
<!--section:step/quantization-->

FP8 helps.
`

func TestParseContent(t *testing.T) {
	c, problems := study.ParseContent("content/en/x.md", "en", "x", []byte(contentMD))
	for _, p := range problems {
		t.Errorf("unexpected problem: %v", p)
	}
	if c.Lang != "en" || c.Study != "x" || c.Pos != (study.Pos{File: "content/en/x.md", Line: 1}) {
		t.Errorf("Lang, Study, Pos = %q, %q, %v", c.Lang, c.Study, c.Pos)
	}
	if len(c.Workloads) != 2 || c.Workloads["sharegpt"] != "ShareGPT" || c.Workloads["random-1k"] != "Short prompt" {
		t.Errorf("Workloads = %v", c.Workloads)
	}
	if len(c.Steps) != 1 || c.Steps["quantization"] != "Quantization" {
		t.Errorf("Steps = %v", c.Steps)
	}
	want := map[string]study.Section{
		"notes":             {Markdown: "1. First note.\n\n2. Second note.", Pos: study.Pos{File: "content/en/x.md", Line: 8}, TextLine: 9},
		"objective":         {Markdown: "Maximize throughput.", Pos: study.Pos{File: "content/en/x.md", Line: 13}, TextLine: 14},
		"step/quantization": {Markdown: "FP8 helps.", Pos: study.Pos{File: "content/en/x.md", Line: 15}, TextLine: 17},
	}
	if len(c.Sections) != len(want) {
		t.Errorf("sections = %v", c.Sections)
	}
	for id, w := range want {
		if got := c.Sections[id]; got != w {
			t.Errorf("section %s = %+v, want %+v", id, got, w)
		}
	}
	keys := c.Keys()
	wantKeys := []string{"section:notes", "section:objective", "section:step/quantization", "step:quantization", "workload:random-1k", "workload:sharegpt"}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("Keys = %v, want %v", keys, wantKeys)
	}
}

func TestParseContentCRLFAndNoFrontMatter(t *testing.T) {
	c, problems := study.ParseContent("f.md", "ja", "x", []byte("<!-- section: notes -->\r\nline one\r\nline two\r\n"))
	if len(problems) != 0 {
		t.Errorf("problems = %v", problems)
	}
	if got := c.Sections["notes"]; got.Markdown != "line one\nline two" || got.Pos.Line != 1 {
		t.Errorf("notes = %+v", got)
	}
	if len(c.Workloads) != 0 || len(c.Steps) != 0 {
		t.Errorf("Workloads, Steps = %v, %v", c.Workloads, c.Steps)
	}
}

func TestParseContentProblems(t *testing.T) {
	cases := []struct {
		name string
		data string
		at   string // "file:line"
		msg  string
	}{
		{"unknown section",
			"<!-- section: notes -->\nx\n\n<!-- section: summary -->\ny\n",
			"c.md:4", "unknown section summary; known sections are notes, objective, other-cases and step/<step-id>"},
		{"text before the first marker",
			"---\nsteps:\n  a: A\n---\n\nHello.\n<!-- section: notes -->\nx\n",
			"c.md:6", "text before the first <!-- section: ID --> marker: start the prose with a section marker"},
		{"unclosed front matter",
			"---\nworkloads:\n  a: A\n<!-- section: notes -->\nx\n",
			"c.md:1", "front matter opened with --- is never closed: add a line --- after it"},
		{"duplicate section",
			"<!-- section: notes -->\nx\n<!-- section: objective -->\ny\n<!-- section: notes -->\nz\n",
			"c.md:5", "section notes is given twice"},
		{"unknown front matter field",
			"---\nworkloads:\n  a: A\ntitle: T\n---\n<!-- section: notes -->\nx\n",
			"c.md:4", `front matter: unknown field "title"; known fields are workloads, steps`},
		{"front matter workloads not a mapping",
			"---\nsteps:\n  a: A\nworkloads: [a, b]\n---\n<!-- section: notes -->\nx\n",
			"c.md:4", "expected a mapping of id: text"},
		{"invalid front matter YAML",
			"---\nworkloads:\n  a: A\n  b: [B\n---\n<!-- section: notes -->\nx\n",
			"c.md:4", "invalid YAML front matter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, problems := study.ParseContent("c.md", "en", "x", []byte(c.data))
			var got []string
			for _, p := range problems {
				got = append(got, p.Error())
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], c.at+": ") || !strings.Contains(got[0], c.msg) {
				t.Errorf("problems = %q\nwant one %s: ...%s", got, c.at, c.msg)
			}
		})
	}
}

func TestLoadContent(t *testing.T) {
	fsys := fstest.MapFS{
		"en/x.md":      {Data: []byte(contentMD)},
		"zh/x.md":      {Data: []byte("<!-- section: notes -->\n注意。\n")},
		"en/notes.txt": {Data: []byte("stray")},
		"de/x.md":      {Data: []byte("not a published language")},
	}
	all, problems, err := study.LoadContent(fsys, "content")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || len(all["en"]) != 1 || len(all["zh"]) != 1 || len(all["ja"]) != 0 || all["de"] != nil {
		t.Errorf("content = %v", all)
	}
	if c := all["zh"]["x"]; c == nil || c.Sections["notes"].Markdown != "注意。" || c.Pos.File != "content/zh/x.md" {
		t.Errorf("zh/x = %+v", c)
	}
	if got := all["en"]["x"]; got == nil || got.Steps["quantization"] != "Quantization" {
		t.Errorf("en/x = %+v", got)
	}
	if len(problems) != 1 || problems[0].Error() != "content/en/notes.txt:0: unexpected entry in content: expected <study-id>.md files" {
		t.Errorf("problems = %v", problems)
	}
}

func TestContentOverSizeLimit(t *testing.T) {
	data := []byte("---\nworkloads: {}\n---\n" + strings.Repeat("prose ", study.MaxFileSize/6+1))
	_, probs := study.ParseContent("content/en/x.md", "en", "x", data)
	if len(probs) != 1 || probs[0].Pos != (study.Pos{"content/en/x.md", 1}) || !strings.Contains(probs[0].Msg, "the limit is 1048576") {
		t.Errorf("problems %v, want one on content/en/x.md:1 naming the limit", probs)
	}
}

// Past the limit, link reference definitions stay as text: goldmark's time
// grows with the square of their number.
func TestContentDefinitionLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("<!-- section: notes -->\n")
	for i := range 1500 {
		fmt.Fprintf(&b, "[r%d]: /x\n", i)
	}
	c, probs := study.ParseContent("content/en/x.md", "en", "x", []byte(b.String()))
	if len(probs) != 1 || probs[0].Pos != (study.Pos{"content/en/x.md", 1002}) || !strings.Contains(probs[0].Msg, "more than 1000 link reference definitions") {
		t.Errorf("problems %v, want one on content/en/x.md:1002", probs)
	}
	md := c.Sections["notes"].Markdown
	if !strings.Contains(md, "\n[r999]: /x\n\\[r1000]: /x\n") || strings.Count(md, "\\[") != 500 {
		t.Errorf("the definitions past the limit are not escaped:\n%.300s", md[len(md)/2:])
	}
}
