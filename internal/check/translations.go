package check

import (
	"fmt"
	"path"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// RuleTranslation reports prose missing in a language, or present in one
// language only.
const RuleTranslation = "translation"

// Translations compares each study's content across languages and against
// the study: every language needs the same sections, workload names and
// step titles, and each must name things the study has.
func Translations(studies []*study.Study, content map[string]map[string]*study.Content, root string) []Diagnostic {
	var out []Diagnostic
	add := func(studyID, file string, line int, msg string) {
		out = append(out, Diagnostic{Study: studyID, Rule: RuleTranslation, Severity: Error, File: file, Line: line, Message: msg})
	}
	known := map[string]bool{}
	for _, s := range studies {
		known[s.ID] = true
		if s.Article() {
			continue // never rendered: no prose to translate
		}
		want := map[string]bool{}
		for _, w := range s.Workloads {
			want["workload:"+w.ID] = true
		}
		for _, st := range s.Steps {
			want["step:"+st.ID] = true
		}
		have := map[string]map[string]bool{}
		written := 0
		for _, lang := range study.Languages {
			if content[lang][s.ID] != nil {
				written++
			}
		}
		if written == 0 {
			// A study imported or added without prose still builds, with ids
			// for names: worth a warning, not a failure.
			out = append(out, Diagnostic{Study: s.ID, Rule: RuleTranslation, Severity: Warning, File: s.Pos.File, Line: 1,
				Message: fmt.Sprintf("study %s has no prose in any language, so its report names workloads and steps by their ids: write %s/<lang>/%s.md for en, zh and ja", s.ID, root, s.ID)})
			continue
		}
		for _, lang := range study.Languages {
			c := content[lang][s.ID]
			file := path.Join(root, lang, s.ID+".md")
			if c == nil {
				add(s.ID, file, 0, fmt.Sprintf("study %s has prose in other languages but none in %q: write %s", s.ID, lang, file))
				continue
			}
			have[lang] = map[string]bool{}
			for _, k := range c.Keys() {
				have[lang][k] = true
				if (strings.HasPrefix(k, "workload:") || strings.HasPrefix(k, "step:")) && !want[k] {
					add(s.ID, file, 1, fmt.Sprintf("%s names %s, which %s does not define: remove it or fix the id", lang, k, s.Pos.File))
				}
				if sec, ok := strings.CutPrefix(k, "section:step/"); ok && !want["step:"+sec] {
					add(s.ID, file, c.Sections["step/"+sec].Pos.Line, fmt.Sprintf("section step/%s names a step that %s does not define", sec, s.Pos.File))
				}
			}
			for k := range want {
				if !have[lang][k] {
					add(s.ID, file, 1, fmt.Sprintf("%s has no display name for %s: add it to the front matter", lang, k))
				}
			}
		}
		for lang, keys := range have {
			for k := range keys {
				if !strings.HasPrefix(k, "section:") {
					continue
				}
				for _, other := range study.Languages {
					if have[other] != nil && !have[other][k] {
						add(s.ID, path.Join(root, other, s.ID+".md"), 1,
							fmt.Sprintf("%s is written in %q but missing in %q: translate it, or remove it from every language", strings.TrimPrefix(k, "section:"), lang, other))
					}
				}
			}
		}
	}
	for _, lang := range study.Languages {
		for id, c := range content[lang] {
			if !known[id] {
				add(id, c.Pos.File, 1, fmt.Sprintf("prose for study %q, which has no folder in results/", id))
			}
		}
	}
	sortDiagnostics(out)
	return out
}
