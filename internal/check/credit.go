package check

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
)

// recommendWord marks a clause about the study's recommendation, in the
// three languages.
var recommendWord = regexp.MustCompile(`(?i)\brecommend|\bwe suggest|推荐|建议使用|推奨|お勧め|おすすめ`)

// recommendation is what the study recommends: the engine and the
// command of its recommended configuration's first run, lower case.
func recommendation(rep *report.Report) (engineName, command string) {
	if len(rep.Recommended) == 0 || rep.Recommended[0] == nil {
		return "", ""
	}
	r := rep.Recommended[0]
	if e := serving.Started(r.Command); e != nil {
		engineName = e.Name
	}
	return engineName, strings.ToLower(r.Command)
}

// credit checks a clause of prose that credits the recommendation with an
// engine or a precision ("we recommend FP8", "推荐使用 SGLang"): the
// recommended configuration must run that engine, and its command must
// name that precision (a -FP8 checkpoint, --quantization fp8).
func credit(line string, figs *Figures) string {
	if figs.RecommendedCommand == "" || !mayRecommend(line) {
		return ""
	}
	for _, clause := range sentences.Split(line, -1) {
		if !mayRecommend(clause) || !recommendWord.MatchString(clause) {
			continue
		}
		names := enginesIn(clause)
		if len(names) == 1 && figs.RecommendedEngine != "" && names[0].Name != figs.RecommendedEngine {
			return fmt.Sprintf("the prose recommends %s, but the recommended configuration runs %s", names[0].Name, figs.RecommendedEngine)
		}
		for _, p := range precisionWord.FindAllString(clause, -1) {
			if !strings.Contains(figs.RecommendedCommand, strings.ToLower(p)) {
				return fmt.Sprintf("the prose recommends %s, but the recommended configuration's command (%s) does not use it", strings.ToUpper(p), figs.RecommendedCommand)
			}
		}
	}
	return ""
}

// sentences splits prose into sentences: a clause of a recommendation
// may name its engine or precision after a comma.
var sentences = regexp.MustCompile(`[;!?；。！？]|\. `)

// mayRecommend is a quick test for recommendWord: every line of prose is
// searched. (?i) reads "ſ" as "s", and strings.ToLower does not.
func mayRecommend(line string) bool {
	if strings.Contains(line, "ſ") {
		return true
	}
	low := strings.ToLower(line)
	for _, w := range []string{"recommend", "suggest", "推荐", "建议使用", "推奨", "お勧め", "おすすめ"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
