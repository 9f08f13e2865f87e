package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// contentText is a content file for the test study (workloads sharegpt and
// random-32k, step engine), with the given sections.
func contentText(sections ...string) string {
	var b strings.Builder
	b.WriteString("---\nworkloads:\n  sharegpt: ShareGPT\n  random-32k: Long\nsteps:\n  engine: Engine\n---\n")
	for _, s := range sections {
		b.WriteString("<!-- section: " + s + " -->\nText.\n\n")
	}
	return b.String()
}

// contents parses one content file per language; texts maps a language to
// its file, missing languages get all three sections.
func contents(t *testing.T, studyID string, texts map[string]string) map[string]map[string]*study.Content {
	t.Helper()
	out := map[string]map[string]*study.Content{}
	for _, lang := range study.Languages {
		text, ok := texts[lang]
		if !ok {
			text = contentText("notes", "objective", "step/engine")
		}
		out[lang] = map[string]*study.Content{}
		if text == "" {
			continue
		}
		c, probs := study.ParseContent("content/"+lang+"/"+studyID+".md", lang, studyID, []byte(text))
		if len(probs) != 0 {
			t.Fatalf("content %s: %v", lang, probs)
		}
		out[lang][studyID] = c
	}
	return out
}

func translationStudy() *study.Study {
	s := newStudy("Qwen/Qwen3-32B", 8)
	s.Steps = []study.Step{{ID: "engine", Reference: "vllm"}}
	return s
}

func TestTranslationsComplete(t *testing.T) {
	d := Translations([]*study.Study{translationStudy()}, contents(t, "test", nil), "content")
	if len(d) != 0 {
		t.Errorf("complete content: %v", d)
	}
}

func TestTranslationsSectionMissing(t *testing.T) {
	c := contents(t, "test", map[string]string{"ja": contentText("notes", "step/engine")})
	d := Translations([]*study.Study{translationStudy()}, c, "content")
	if len(d) == 0 {
		t.Fatal("objective missing in ja: no diagnostic")
	}
	for _, x := range d {
		if x.Rule != RuleTranslation || x.Severity != Error || x.File != "content/ja/test.md" || x.Study != "test" {
			t.Errorf("%+v, want a translation error on content/ja/test.md", x)
		}
		if !strings.Contains(x.Message, "objective") || !strings.Contains(x.Message, `missing in "ja"`) {
			t.Errorf("message %q does not name the section and the language", x.Message)
		}
	}
}

func TestTranslationsNoProse(t *testing.T) {
	c := contents(t, "test", map[string]string{"zh": ""})
	d := Translations([]*study.Study{translationStudy()}, c, "content")
	if len(d) != 1 || d[0].File != "content/zh/test.md" || !strings.Contains(d[0].Message, `"zh"`) {
		t.Errorf("no zh prose: %v", d)
	}
}

func TestTranslationsNames(t *testing.T) {
	// A display name for a workload the study lacks, and none for one it has.
	text := "---\nworkloads:\n  sharegpt: ShareGPT\n  random-4k: Four\nsteps:\n  engine: Engine\n---\n" +
		"<!-- section: notes -->\nx\n<!-- section: objective -->\nx\n<!-- section: step/engine -->\nx\n"
	c := contents(t, "test", map[string]string{"en": text})
	d := Translations([]*study.Study{translationStudy()}, c, "content")
	var msgs []string
	for _, x := range d {
		if x.File != "content/en/test.md" {
			t.Errorf("diagnostic on %s, want content/en/test.md: %s", x.File, x.Message)
		}
		msgs = append(msgs, x.Message)
	}
	all := strings.Join(msgs, "\n")
	if len(d) != 2 || !strings.Contains(all, "workload:random-4k") || !strings.Contains(all, "workload:random-32k") {
		t.Errorf("diagnostics:\n%s\nwant one for random-4k (unknown) and one for random-32k (missing)", all)
	}
}

func TestTranslationsUnknownStep(t *testing.T) {
	text := contentText("notes", "objective", "step/engine", "step/quantization")
	c := contents(t, "test", map[string]string{"en": text, "zh": text, "ja": text})
	d := Translations([]*study.Study{translationStudy()}, c, "content")
	if len(d) != 3 {
		t.Fatalf("step/quantization in every language: %d diagnostics, want 3: %v", len(d), d)
	}
	for _, x := range d {
		if !strings.Contains(x.Message, "step/quantization") || x.Line != 17 {
			t.Errorf("%s:%d: %s; want the marker line 17", x.File, x.Line, x.Message)
		}
	}
}

func TestTranslationsUnknownStudy(t *testing.T) {
	c := contents(t, "test", nil)
	other, _ := study.ParseContent("content/en/gone.md", "en", "gone", []byte(contentText("notes")))
	c["en"]["gone"] = other
	d := Translations([]*study.Study{translationStudy()}, c, "content")
	if len(d) != 1 {
		t.Fatalf("content for an unknown study: %v", d)
	}
	if d[0].File != "content/en/gone.md" || d[0].Study != "gone" || !strings.Contains(d[0].Message, `"gone"`) {
		t.Errorf("%+v", d[0])
	}
}
