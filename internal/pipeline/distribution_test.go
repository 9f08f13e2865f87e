package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// distDirs is a study whose results are vLLM --save-result JSON files
// (testdata/distribution), rendered with the repository's locales and
// templates.
var distDirs = Dirs{Results: "testdata/distribution/results", Content: "testdata/distribution/content",
	Locales: "../../locales", Templates: "../../templates"}

// TestDistributionStudy: .json logs load and check cleanly, every language
// has the distribution chart next to the latency chart, and a JSON block is
// shown as its first lines with the count of what is left out.
func TestDistributionStudy(t *testing.T) {
	t.Parallel()
	p, files := buildRepo(t, distDirs)
	for _, d := range p.Diagnostics() {
		if d.Severity == check.Error && !d.Acknowledged() {
			t.Errorf("check: %s", d.String())
		}
	}
	const id = "example-8b-dist"
	notes := map[string][2]string{ // the notes' words around the count and the file
		"en": {"… ", " more "}, "zh": {"… 另有 ", " "}, "ja": {"… 残り ", " "},
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		svg := files[lang+"/"+id+"/distribution.svg"]
		if !bytes.HasPrefix(svg, []byte("<svg ")) || !bytes.Contains(svg, []byte("<title id=\"chart-distribution-title\">")) {
			t.Errorf("%s: no distribution chart: %.80q", lang, svg)
		}
		md := string(files[lang+"/"+id+".md"])
		lat := strings.Index(md, "("+id+"/latency.svg)")
		dist := strings.Index(md, "("+id+"/distribution.svg)")
		if lat < 0 || dist < lat || strings.Contains(md[lat:dist], "\n## ") {
			t.Errorf("%s: the distribution chart is not right after the latency chart (at %d and %d)", lang, lat, dist)
		}
		// Each excerpt of a JSON block ends with a note whose count is
		// what the page leaves out of the file.
		found := 0
		for _, run := range []string{"vllm", "vllm-tuned"} {
			file := filepath.Join(distDirs.Results, id, "runs", run, "chat.json")
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.TrimRight(string(raw), "\n")
			shownAs := "results/" + id + "/runs/" + run + "/chat.json" // as the repository names it
			for _, block := range strings.Split(md, "```log ")[1:] {
				body := strings.SplitN(block, "\n```", 2)[0]
				i := strings.LastIndex(body, "\n"+notes[lang][0])
				if i < 0 || !strings.HasSuffix(body, shownAs) && !strings.Contains(body[i:], shownAs+" ") {
					continue
				}
				shown := body[strings.Index(body, "\n")+1 : i]
				if !strings.HasPrefix(text, shown) {
					t.Errorf("%s: the excerpt of %s is not the file's beginning", lang, file)
					continue
				}
				count := strings.TrimPrefix(body[i+1:], notes[lang][0])
				count = count[:strings.IndexAny(count, notes[lang][1])]
				n, err := strconv.Atoi(count)
				if err != nil {
					t.Errorf("%s: note %q", lang, body[i+1:])
					continue
				}
				wantLines := strings.Count(text, "\n") - strings.Count(shown, "\n")
				wantBytes := len(text) - len(shown)
				if strings.Contains(shown, "\n") && n != wantLines || !strings.Contains(shown, "\n") && n != wantBytes {
					t.Errorf("%s: %s: the note says %d, want %d lines or %d bytes", lang, file, n, wantLines, wantBytes)
				}
				found++
			}
		}
		if found < 3 { // the baseline once, the optimized run in its step and in the other cases
			t.Errorf("%s: %d excerpts with a note, want 3:\n%s", lang, found, md)
		}
	}
}

// TestDistributionDeterministic: two builds of the JSON study give the same
// bytes.
func TestDistributionDeterministic(t *testing.T) {
	t.Parallel()
	_, a := buildRepo(t, distDirs)
	_, b := buildRepo(t, distDirs)
	if len(a) != len(b) {
		t.Fatalf("builds produced %d and %d files", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}
