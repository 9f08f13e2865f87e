package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// Rules that hold a run's logs and display name against the run itself.
const (
	// RuleRepeatCopy: a repeat whose result block is another repeat's.
	RuleRepeatCopy = "repeat-copy"
	// RuleLogModel: a log whose echoed arguments name another model.
	RuleLogModel = "log-model"
	// RuleRunName: a display name that names another engine, or that
	// another run of the study has.
	RuleRunName = "run-name"
)

// runEvidenceRules applies the three rules to every run of a study.
func runEvidenceRules(s *study.Study, add func(Diagnostic)) {
	for _, r := range s.Runs {
		repeatCopyRule(s, r, add)
		logModelRule(s, r, add)
		runNameEngineRule(s, r, add)
	}
	runNameTwiceRule(s, add)
}

// repeatCopyRule: two measurements never print the same figures to the
// last digit, so a repeat whose result block is the same as an earlier
// repeat's of its workload and load is a copy, and its mean would count
// one measurement twice.
func repeatCopyRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	seen := map[string]*study.Log{} // series + block figures -> first log
	for i := range r.Logs {
		lg := &r.Logs[i]
		if lg.Repeat == 0 || len(lg.Blocks) == 0 || len(lg.Blocks[0].Metrics) < 3 {
			continue
		}
		key := lg.Workload + "\x00" + pointOf(lg) + "\x00" + printedFigures(&lg.Blocks[0])
		first, ok := seen[key]
		if !ok {
			seen[key] = lg
			continue
		}
		add(Diagnostic{Rule: RuleRepeatCopy, Severity: Error, File: lg.File, Line: lg.Blocks[0].Line, Subject: r.ID + "/" + lg.Workload,
			Message: fmt.Sprintf("repeat %d of run %s on %s prints every figure of repeat %d (%s:%d): two measurements never agree to the last digit, so this is a copy and the mean would count one run twice; put the repeat's own output here, or remove it and renumber the repeats",
				lg.Repeat, r.ID, lg.Workload, first.Repeat, first.File, first.Blocks[0].Line)})
	}
}

func pointOf(lg *study.Log) string {
	if lg.Point == nil {
		return ""
	}
	return lg.Point.Raw
}

// printedFigures is a block's figures as printed, in key order.
func printedFigures(b *benchlog.Block) string {
	var parts []string
	for k, m := range b.Metrics {
		parts = append(parts, k+"="+m.Raw)
	}
	sort.Strings(parts)
	return strings.Join(parts, "\n")
}

// modelID: an echoed model that reads as a model's id (an organisation,
// or a size such as 32B), not a served alias such as "qwen".
var modelID = regexp.MustCompile(`/|\d(?:\.\d+)?[BbMm]\b`)

// logModelRule: the arguments a benchmark client echoes (model='...' in
// its Namespace(...) line) name the model it sent requests to; a model
// other than the study's means the log measured something else.
func logModelRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	if s.Model == "" {
		return
	}
	served := serving.Parse(r.Command).Model
	for _, lg := range r.Logs {
		for _, e := range echoLines(lg.Raw) {
			m := e.fields["model"]
			if m == "" || !modelID.MatchString(m) || serving.SameModel(m, s.Model) {
				continue
			}
			// A command of that model is model-mismatch's to report.
			if served != "" && serving.SameModel(m, served) {
				continue
			}
			add(Diagnostic{Rule: RuleLogModel, Severity: Error, File: lg.File, Line: e.line, Subject: r.ID,
				Printed: m, Computed: s.Model,
				Message: fmt.Sprintf("the log of run %s on %s echoes model=%q, but the study is about %s (%s): this log measured another model; put the run's own log here, or move it to a study of that model",
					r.ID, lg.Workload, m, s.Model, s.Pos.File)})
			break
		}
	}
}

// runNameEngineRule: a display name that names an engine ("vLLM BF16")
// must name the run's: reports head its column with it.
func runNameEngineRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	named := serving.NamedAll(r.Name)
	if len(named) == 0 {
		return
	}
	own := map[*serving.Engine]bool{}
	if e := serving.Started(r.Command); e != nil {
		own[e] = true
	}
	if e := labelEngine(s, r.Engine); e != nil {
		own[e] = true
	}
	if len(own) == 0 {
		return
	}
	for _, e := range named {
		if own[e] {
			return
		}
	}
	add(Diagnostic{Rule: RuleRunName, Severity: Error, File: r.Pos.File, Line: nameLine(r), Subject: r.ID, Printed: r.Name,
		Message: fmt.Sprintf("run %s is named %q, which names %s, but it runs %s (%s:%d): reports would head its column with another engine; rename it",
			r.ID, r.Name, named[0].Name, engineNames(own), r.Pos.File, commandLine(r))})
}

func engineNames(es map[*serving.Engine]bool) string {
	var names []string
	for e := range es {
		names = append(names, e.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func nameLine(r *study.Run) int {
	if r.NameLine > 0 {
		return r.NameLine
	}
	return r.Pos.Line
}

// runNameTwiceRule: two runs of one name show as two columns a reader
// cannot tell apart, unless they are one configuration: listed together
// as the baseline, or as the recommendation.
func runNameTwiceRule(s *study.Study, add func(Diagnostic)) {
	together := func(a, b string) bool {
		for _, list := range [][]string{s.Baseline.Runs, s.Recommended.Runs} {
			if inList(list, a) && inList(list, b) {
				return true
			}
		}
		return false
	}
	first := map[string]*study.Run{}
	for _, r := range s.Runs {
		key := strings.ToLower(strings.TrimSpace(r.Name))
		if key == "" {
			continue
		}
		o, ok := first[key]
		if !ok {
			first[key] = r
			continue
		}
		if together(o.ID, r.ID) {
			continue
		}
		add(Diagnostic{Rule: RuleRunName, Severity: Error, File: r.Pos.File, Line: nameLine(r), Subject: r.ID, Printed: r.Name,
			Message: fmt.Sprintf("run %s is named %q, as run %s is (%s:%d): reports would show two columns a reader cannot tell apart; give each run a name that says how it differs",
				r.ID, r.Name, o.ID, o.Pos.File, nameLine(o))})
	}
}

func inList(list []string, id string) bool {
	for _, x := range list {
		if x == id {
			return true
		}
	}
	return false
}
