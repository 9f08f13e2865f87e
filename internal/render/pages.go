package render

import (
	"bytes"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/yuin/goldmark/parser"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/engine"
	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// Input is what one study's report needs.
type Input struct {
	Result  check.Result
	Content map[string]*study.Content // by language; a missing one renders without prose
	// Freshness says, for each engine id of the study, how its version
	// compares with the newest of the same engine in the whole site
	// (report.Freshnesses). Nil: no badge.
	Freshness map[string]report.Freshness
	// RepoPath names a file as the page shows it: its path in the
	// repository, whatever folder it was read from. Nil shows paths as read.
	RepoPath func(string) string
}

// Page is one rendered report.
type Page struct {
	Lang     string
	Study    string
	Title    string
	Markdown []byte
	HTML     []byte
	Charts   []chart.Chart // written next to the HTML page as <name>.svg
}

// LangLink points to the same report in another language.
type LangLink struct {
	Code, Name   string
	MarkdownHref string
	HTMLHref     string
	Current      bool
}

func langLinks(studyID, current string) []LangLink {
	var out []LangLink
	for _, l := range Languages {
		out = append(out, LangLink{
			Code: l.Code, Name: l.Name, Current: l.Code == current,
			MarkdownHref: "../" + l.Code + "/" + linkPath(studyID) + ".md",
			HTMLHref:     "../../" + l.Code + "/" + studyID + "/index.html",
		})
	}
	return out
}

var funcNames = []string{"T", "esc", "model", "fence", "cell", "tpot", "change", "claimFor", "hasProjection",
	"ackReason", "section", "metricName", "dataset", "add", "stepTitle", "workload", "blockText", "value",
	"pct", "served", "ranking", "sides", "runs", "rows", "conclusion", "options", "problems", "problem", "source", "reason", "chart",
	"steps", "workloads", "problemLines", "others", "feedbackURL", "slo", "cost", "accuracyClaims", "history", "noiseBand", "freshness", "sweeps", "allRuns",
	"reproduce", "reproductions", "verdictNote", "historyWindow"}

// side is one configuration of the "other cases" section.
// costView is the cost section, its cells ready Markdown.
type costView struct {
	Intro, Currency string
	Rows            []costRowView
}

type costRowView struct {
	Name, Output, PerGPUHour, PerMillion string
	PerMillionTotal                      string // "—" without a total throughput
	GPUs                                 int
}

// historyView is one run of the history section, ready Markdown.
type historyView struct {
	ID, Name string // run id; name, escaped
	Trends   []trendView
	Chart    string // the chart of its main trend as a Markdown image
	// Commands are the serving commands of versions measured with another
	// command than the run's, fenced.
	Commands []versionCommand
}

type versionCommand struct {
	Version string // escaped
	Command string // fenced
}

// trendView is one workload of a run's history: a row per version.
type trendView struct {
	Case  string // escaped
	Rows  []versionRow
	Notes []string // maintainers' reasons for its acknowledged regressions, under the table
}

type versionRow struct {
	Version, Value, Change string
}

// sweepView is the section of one swept workload, its cells ready
// Markdown.
type sweepView struct {
	ID, Heading, Intro, Load, Chart, Best string
	Note                                  string // what ± means, when a load has repeats
	Budget                                bool   // a column says whether each point keeps the study's SLO
	Rows                                  []sweepRowView
	Raws                                  []sweepRawView
}

type sweepRowView struct {
	Name, Load, Output, PerGPU, TPOT, TTFT, Frontier, Meets string
}

// sweepRawView is the raw result of one point, under a line naming it.
type sweepRawView struct {
	Title, Raw string
}

// sloView is the latency-budget section, its cells ready Markdown.
type sloView struct {
	Budget, Headline, Best string
	GoodputNote            string // what the goodput column is, when there is one
	BudgetGoodputNote      string // what the budget's goodput column is, when there is one
	BorderlineNote         string // what "borderline" means, when a row is
	Headers                []string
	Rows                   []sloRowView
}

type sloRowView struct {
	Name, Headline, Meets string
	Values                []string
}

type side struct {
	Title, Anchor string
	Cells         []sideCell
	// Command is the fenced command every cell ran with, when they share
	// one (Count cells); the cells then leave theirs empty.
	Command string
	Count   int
}

type sideCell struct {
	Workload string
	Anchor   string // the workload's id as its anchor ends
	Run      *study.Run
	LogFile  string
	Block    *benchlog.Block
	// Ready Markdown: the case and the run's name, escaped; its command and
	// its raw result as fenced blocks.
	Case, Name, Command, Raw string
}

// rowView is one row of the conclusion table, its cells ready Markdown.
type rowView struct {
	Case, Baseline, Optimized, Change, BaselineTPOT, OptimizedTPOT string
	Erratum                                                        erratum // the published change, when the logs give another
}

// optionView is one row of the summary table, its cells ready Markdown.
type optionView struct {
	Step, Option, Best, Reference, Change string
	NoGain                                bool // "—": the step keeps its reference, or measured nothing
	Erratum                               erratum
}

// erratum is a published figure that the logs contradict, its fields
// ready Markdown; Wrong is false when there is none.
type erratum struct {
	Wrong                      bool
	Printed, Computed, Formula string
	Ack                        string // why the difference is acknowledged, or empty
}

// stepView is one step of the optimization path, ready Markdown, so that
// the template keeps the step's structure without a call per detail.
type stepView struct {
	ID      string
	Number  int
	Title   string // escaped
	Section string // the step's prose from content/, Markdown
	Runs    []runView
	Chart   string // the step's chart as a Markdown image, or empty
	// Unmeasured: the source lists the option but publishes no run of it.
	Unmeasured bool
	Ranking    string  // comparable runs best first, linked; empty with fewer than two
	Erratum    erratum // the published ranking, when the logs give another
}

// workloadView is one benchmark case of the setup section.
type workloadView struct {
	Name    string // escaped
	Dataset string
	Main    bool
}

// problemLine is one line of the problems section, ready Markdown.
type problemLine struct {
	Acknowledged bool
	Severity     string // error, warning...
	Rule         string
	Text         string // the problem, in the page's language
	Sources      string // file:line of each occurrence, as code spans
	Reason       string // why it is acknowledged, or empty
}

// runView is one run of a step, its Markdown made ready in Go so that the
// template, which keeps the section's structure, does little per run.
type runView struct {
	ID      string
	Name    string // escaped
	Command string // fenced
	Derived bool   // the command was derived, not recorded
	Failed  bool
	Error   string // the failed run's error
	Raw     string // the raw result as a fenced log block; empty without one
	Outcome string // headline, exclusion or "no main result" line
}

// jsonFormats are the formats of results saved as JSON (and guidellm's YAML
// report), shown as an excerpt of at most jsonExcerptLines lines and about
// jsonExcerptBytes bytes.
var jsonFormats = map[benchlog.Format]bool{benchlog.FormatVLLMJSON: true, benchlog.FormatTRTLLMJSON: true,
	benchlog.FormatSGLangJSONL: true, benchlog.FormatTRTLLMBenchJS: true,
	benchlog.FormatVLLMThroughputJSON: true, benchlog.FormatVLLMLatencyJSON: true, benchlog.FormatLlamaBenchJSON: true,
	benchlog.FormatGuideLLMJSON: true, benchlog.FormatGuideLLMYAML: true, benchlog.FormatLLMPerfJSON: true, benchlog.FormatEvalScopeJSON: true}

const (
	jsonExcerptLines = 40
	jsonExcerptBytes = 4096
)

// Report renders one study in one language.
func (r *Renderer) Report(in Input, lang string) (*Page, error) {
	res := in.Result
	rep, s := res.Report, res.Study
	if len(rep.Recommended) == 0 {
		return nil, fmt.Errorf("%s: the study recommends no run", s.Pos.File)
	}
	c := in.Content[lang]
	if c == nil {
		c = &study.Content{Lang: lang, Study: s.ID, Workloads: map[string]string{}, Steps: map[string]string{}, Sections: map[string]study.Section{}}
	}
	loc := r.localizer(lang)
	repoPath := in.RepoPath
	if repoPath == nil {
		repoPath = func(file string) string { return file }
	}
	logOf := map[string]*study.Log{}
	for _, run := range s.Runs {
		for i := range run.Logs {
			logOf[run.Logs[i].File] = &run.Logs[i]
		}
	}
	claimFor := func(kind, subject string) *report.ClaimResult { return rep.ClaimFor(study.ClaimKind(kind), subject) }
	ackReason := func(rule, subject string) string {
		for _, d := range res.Diagnostics {
			if d.Rule == rule && d.Subject == subject && d.Ack != nil {
				return loc.T("problems.ack_reason", "Reason", esc(d.Ack.Reason[lang]))
			}
		}
		return ""
	}
	type fileLine struct {
		file string
		line int
	}
	flagged := map[fileLine]string{} // rule of an unacknowledged problem at a line
	for _, d := range res.Diagnostics {
		if !d.Acknowledged() {
			flagged[fileLine{d.File, d.Line}] = d.Rule
		}
	}
	// sourced writes a number as a link to where its log is shown, with its
	// source, formula and check status on hover.
	sourced := func(text, anchor, title string) string {
		return "[" + text + "](#" + anchor + " \"" + escTitle(title) + "\")"
	}
	valueTitle := func(v *report.Value) string {
		status := loc.T("source.check_passed")
		if rule := flagged[fileLine{v.Source.File, v.Source.Line}]; rule != "" {
			status = loc.T("source.check_failed", "Rule", rule)
		}
		title := loc.T("source.value", "File", repoPath(v.Source.File), "Line", v.Source.Line, "Label", v.Source.Label, "Status", status)
		if v.Projected() {
			title += " " + loc.T("source.projected", "Formula", v.Expr(), "Replicas", v.Replicas, "GPUs", v.GPUs)
		}
		if v.Repeated() {
			// Every repeat the mean is made of, with its line.
			lines := make([]string, len(v.Samples))
			for i, sm := range v.Samples {
				lines[i] = fmt.Sprintf("%s:%d (%s)", repoPath(sm.Source.File), sm.Source.Line, report.FormatNumber(sm.Measured, min(v.Decimals, 4)))
			}
			title += " " + loc.T("source.repeats", "N", v.Repeats, "Level", report.ConfidenceLevel, "Repeats", strings.Join(lines, loc.T("chart.list_separator")))
		}
		return title
	}
	// repeats follows a linked mean of repeats with its interval.
	repeats := func(v *report.Value, linked string) string {
		if !v.Repeated() {
			return linked
		}
		return loc.T("value.repeats", "Value", linked, "HalfWidth", v.HalfWidthExpr(), "N", v.Repeats)
	}
	value := func(v *report.Value, anchor string) string {
		if v == nil {
			return "—"
		}
		if v.Source.File != "" && v.Source.Line > 0 {
			anchor = LineID(repoPath(v.Source.File), v.Source.Line) // the log line itself
		}
		s := repeats(v, sourced(v.Expr(), anchor, valueTitle(v)))
		if v.Projected() {
			s += loc.T("aside", "Text", loc.T("value.projected"))
		}
		return s
	}
	// interval is value with a mean of repeats written short,
	// "1000.00 ± 24.84", for a table whose note says what ± means.
	interval := func(v *report.Value, anchor string) string {
		if v == nil || !v.Repeated() {
			return value(v, anchor)
		}
		if v.Source.File != "" && v.Source.Line > 0 {
			anchor = LineID(repoPath(v.Source.File), v.Source.Line)
		}
		return loc.T("value.interval", "Value", sourced(v.Expr(), anchor, valueTitle(v)), "HalfWidth", v.HalfWidthExpr())
	}
	pct := func(ch *report.Change) string {
		if ch == nil {
			return "—"
		}
		if why := unlike(loc, ch); why != "" {
			return why
		}
		if ch.Noise {
			return keepFiguresWhole("≈ " + report.FormatPercent(ch.Percent) + changeStats(loc, ch) + loc.T("change.noise"))
		}
		mark := "▼"
		if ch.Better {
			mark = "▲"
		}
		return keepFiguresWhole(mark + " " + report.FormatPercent(ch.Percent) + changeStats(loc, ch)) // no break before a %, in any language
	}
	changeLink := func(ch *report.Change, claim *report.ClaimResult, anchor string) string {
		if ch == nil {
			return "—"
		}
		status := loc.T("source.no_claim")
		if claim != nil && claim.Checked {
			if claim.Match {
				status = loc.T("source.claim_matches", "Printed", claim.Claim.Printed)
			} else {
				status = loc.T("source.claim_differs", "Printed", claim.Claim.Printed)
			}
		}
		s := sourced(pct(ch), anchor, loc.T("source.change", "Formula", ch.Formula, "Status", status)) + caveats(loc, ch)
		if claim != nil && claim.Checked && !claim.Match {
			s += loc.T("erratum.marker")
		}
		return s
	}
	workloadName := func(id string) string {
		if t := c.Workloads[id]; t != "" {
			return t
		}
		return id
	}
	blockText := func(file string, b *benchlog.Block) string {
		lg := logOf[file]
		if lg == nil || b == nil {
			return ""
		}
		if !jsonFormats[b.Format] {
			return lg.BlockText(b)
		}
		// A --save-result JSON may be megabytes of per-request arrays:
		// its first lines, and what is left out.
		ex := lg.BlockExcerpt(b, jsonExcerptLines, jsonExcerptBytes)
		switch {
		case ex.MoreLines > 0:
			return ex.Text + "\n" + loc.T("run.raw_more_lines", "N", ex.MoreLines, "File", repoPath(lg.File))
		case ex.MoreBytes > 0:
			return ex.Text + "\n" + loc.T("run.raw_more_bytes", "N", ex.MoreBytes, "File", repoPath(lg.File))
		}
		return ex.Text
	}
	// rawResult is a raw result as a fenced log block; a block shown twice
	// (its step and the other cases) is made once.
	rawResults := map[*benchlog.Block]string{}
	rawResult := func(file string, b *benchlog.Block) string {
		if s, ok := rawResults[b]; ok {
			return s
		}
		text := blockText(file, b)
		numbered := strings.Count(text, "\n") + 1
		if jsonFormats[b.Format] {
			numbered = min(numbered, strings.Count(logOf[file].BlockExcerpt(b, jsonExcerptLines, jsonExcerptBytes).Text, "\n")+1)
		}
		// The first time a block is shown its lines are numbered targets;
		// shown again (its step and the other cases), it has no ids.
		view := ""
		if r.RepoURL != "" {
			// The log in the repository, its block's lines highlighted.
			view = "\n" + loc.T("run.view_source", "URL", fmt.Sprintf("%s/blob/HEAD/%s#L%d-L%d", r.RepoURL, repoPath(file), b.Line, b.Line+numbered-1))
		}
		s := fence(text, fmt.Sprintf("log @%s:%d:%d %s", lineIDPrefix(repoPath(file)), b.Line, numbered, loc.T("run.raw_result"))) + view
		rawResults[b] = fence(text, "log "+loc.T("run.raw_result")) + view
		return s
	}
	// rawRepeats is rawResult, and when the block is the first repeat of
	// a workload, every repeat's block under its number: each line a mean
	// is made of is on the page.
	rawRepeats := func(run *study.Run, file string, b *benchlog.Block) string {
		lg := logOf[file]
		if lg == nil || lg.Repeat == 0 {
			return rawResult(file, b)
		}
		var logs []*study.Log
		for i := range run.Logs {
			if o := &run.Logs[i]; o.Workload == lg.Workload && len(o.Blocks) > 0 {
				logs = append(logs, o)
			}
		}
		parts := make([]string, len(logs))
		for i, o := range logs {
			parts[i] = loc.T("run.repeat", "N", o.Repeat, "Of", len(logs)) + "\n\n" + rawResult(o.File, &o.Blocks[0])
		}
		return strings.Join(parts, "\n\n")
	}
	cell := func(cl *report.Cell, anchor string) string {
		if cl == nil {
			return "—"
		}
		return value(&cl.Headline, anchor)
	}
	tpot := func(cl *report.Cell, anchor string) string {
		if cl == nil || cl.TPOT == nil {
			return "—"
		}
		return value(cl.TPOT, anchor)
	}
	// tpotCost marks, next to the recommended configuration's TPOT, a
	// latency the throughput gain costs beyond the trade-off threshold.
	tpotCost := func(row report.Row) string {
		if row.Baseline == nil || row.Optimized == nil || row.Baseline.TPOT == nil || row.Optimized.TPOT == nil || row.Baseline.TPOT.Measured <= 0 {
			return ""
		}
		p := (row.Optimized.TPOT.Measured/row.Baseline.TPOT.Measured - 1) * 100
		if p <= check.TradeOffThreshold {
			return ""
		}
		return loc.T("tpot.regression", "Percent", keepFiguresWhole(report.FormatPercent(p)))
	}
	stepTitle := func(id string) string {
		if t := c.Steps[id]; t != "" {
			return t
		}
		return id
	}
	dataset := func(w study.Workload) string {
		var parts []string
		if w.Dataset == "random" {
			parts = append(parts, loc.T("dataset.random", "In", w.InputLen, "Out", w.OutputLen))
		} else {
			parts = append(parts, loc.T("dataset."+w.Dataset))
		}
		if w.NumPrompts > 0 {
			parts = append(parts, loc.T("dataset.prompts", "N", w.NumPrompts))
		}
		if w.Seed != nil {
			parts = append(parts, loc.T("dataset.seed", "Seed", *w.Seed))
		}
		if w.MaxConcurrency != nil {
			parts = append(parts, loc.T("dataset.concurrency", "N", *w.MaxConcurrency))
		}
		return strings.Join(parts, loc.T("list.separator"))
	}
	ranking := func(sr *report.StepResult) string {
		sep := " > "
		if !rep.Headline.HigherBetter {
			sep = " < "
		}
		var out strings.Builder
		leader := 0 // the first of the current group of ties
		for i, rr := range sr.Ranking {
			// Each figure links to its run, like every number of the page.
			figure := repeats(rr.Headline, sourced(rr.Headline.Expr(), "run-"+anchorID(rr.Run.ID), valueTitle(rr.Headline)))
			if i > 0 {
				// A run the verdict cannot tell from its group's first is
				// tied with it, so every run tied with the best is named.
				if !rep.Distinct(rep.Headline.Key, *sr.Ranking[leader].Headline, *rr.Headline) {
					out.WriteString(" ≈ ")
				} else {
					out.WriteString(sep)
					leader = i
				}
			}
			out.WriteString(esc(rr.Run.Name) + loc.T("paren.after", "Text", figure+" "+rep.Headline.Unit))
		}
		return out.String()
	}
	// accuracy writes a run's accuracy scores, each with its file and line,
	// as a sentence to follow its throughput.
	accuracy := func(run *study.Run) string {
		if len(run.Accuracy) == 0 {
			return ""
		}
		var parts []string
		for _, sc := range run.Accuracy {
			metric, _, _ := strings.Cut(sc.Metric, ",")
			parts = append(parts, esc(sc.Task)+" "+esc(metric)+" "+sourced(esc(sc.Raw), "run-"+anchorID(run.ID), fmt.Sprintf("%s:%d", repoPath(sc.File), sc.Line))+stdErrText(loc, sc))
		}
		return loc.T("run.accuracy", "Scores", strings.Join(parts, loc.T("chart.list_separator")))
	}
	runs := func(sr *report.StepResult) []runView {
		views := make([]runView, len(sr.Runs))
		for i := range sr.Runs {
			rr := &sr.Runs[i]
			v := &views[i]
			v.ID, v.Name = anchorID(rr.Run.ID), esc(rr.Run.Name)
			v.Command, v.Derived = fence(rr.Run.Command, "bash"), rr.Run.CommandDerived
			if v.Failed = rr.Run.Failed(); v.Failed {
				v.Error = code(rr.Run.Error)
				continue
			}
			if rr.Block != nil {
				v.Raw = rawRepeats(rr.Run, rr.LogFile, rr.Block)
			}
			anchor := "run-" + anchorID(rr.Run.ID)
			switch {
			case rr.Excluded != "":
				v.Outcome = loc.T("label", "Label", loc.T("run.not_comparable")) + loc.T("rule."+rr.Excluded, "Run", esc(rr.Run.Name),
					"Served", esc(engine.Parse(rr.Run.Command).Model), "Model", esc(s.Model))
				if reason := ackReason(rr.Excluded, rr.Run.ID); reason != "" {
					v.Outcome = loc.T("sentences", "First", v.Outcome, "Next", reason)
				}
			case rr.Headline != nil:
				v.Outcome = loc.T("run.headline."+string(s.Objective), "Value", value(rr.Headline, anchor))
				if rr.Change != nil {
					v.Outcome += loc.T("paren.after", "Text", loc.T("run.vs", "Change", changeLink(rr.Change, nil, anchor), "Run", esc(sr.Reference.Run.Name)))
				} else if rr.Run.ID == sr.Step.Reference {
					v.Outcome += loc.T("paren.after", "Text", loc.T("run.reference"))
				}
			default:
				v.Outcome = loc.T("run.no_main_result")
			}
			for _, acc := range []string{accuracy(rr.Run), accuracyAgainst(loc, sr.Reference, rr.Run)} {
				if acc != "" {
					v.Outcome = loc.T("sentences", "First", v.Outcome, "Next", acc)
				}
			}
		}
		return views
	}
	problem := func(g problemGroup) string {
		var names []string
		for _, subj := range g.Subjects {
			names = append(names, subjectName(subj, s, c))
		}
		d := g.First
		return loc.T("rule."+d.Rule, "Run", esc(strings.Join(names, loc.T("chart.list_separator"))), "Served", esc(d.Printed), "Model", esc(s.Model),
			"Printed", esc(d.Printed), "Computed", esc(d.Computed), "Subject", esc(strings.Join(names, loc.T("chart.list_separator"))))
	}
	source := func(g problemGroup) string {
		var out []string
		for _, src := range g.Sources {
			out = append(out, code(src))
		}
		return strings.Join(out, ", ")
	}
	reason := func(a *study.Ack) string { return loc.T("problems.ack_reason", "Reason", esc(a.Reason[lang])) }
	conclusion := newConclusionContext(rep, loc, workloadName, ackReason)
	funcs := template.FuncMap{
		"T":             loc.T,
		"esc":           esc,
		"fence":         fence,
		"add":           func(a, b int) int { return a + b },
		"model":         func(id string) string { return id[strings.LastIndex(id, "/")+1:] },
		"cell":          cell,
		"tpot":          tpot,
		"value":         value,
		"pct":           pct,
		"change":        changeLink,
		"claimFor":      claimFor,
		"hasProjection": hasProjection,
		"ackReason":     ackReason,
		"section":       func(id string) string { return r.prose(c.Sections[id].Markdown) },
		"metricName":    func(key string) string { return loc.T("metric." + key) },
		"dataset":       dataset,
		"stepTitle":     stepTitle,
		"conclusion":    func() *conclusionContext { return conclusion },
		"rows": func() []rowView {
			views := make([]rowView, len(rep.Rows))
			for i, row := range rep.Rows {
				id := anchorID(row.Workload.ID)
				claim := claimFor("conclusion", id)
				views[i] = rowView{Case: esc(workloadName(id)),
					Baseline: cell(row.Baseline, "baseline-"+id) + conclusion.markOf(row.Baseline), Optimized: cell(row.Optimized, "optimized-"+id) + conclusion.markOf(row.Optimized),
					Change:       changeLink(row.Change, claim, "optimized-"+id),
					BaselineTPOT: tpot(row.Baseline, "baseline-"+id), OptimizedTPOT: tpot(row.Optimized, "optimized-"+id) + tpotCost(row),
					Erratum: erratumOf(claim)}
				if e := &views[i].Erratum; e.Wrong {
					if row.Change != nil {
						e.Formula = row.Change.Formula
					}
					e.Ack = ackReason("claim-mismatch", "conclusion/"+id)
				}
			}
			return views
		},
		"options": func() []optionView {
			views := make([]optionView, len(rep.Steps))
			for i := range rep.Steps {
				sr := &rep.Steps[i]
				v := &views[i]
				v.Step, v.Option, v.Best, v.Change = anchorID(sr.Step.ID), esc(stepTitle(sr.Step.ID)), "—", "—"
				if sr.Best != nil {
					v.Best = esc(sr.Best.Run.Name)
					if adopted(rep, i) {
						v.Best += loc.T("summary.adopted")
					}
				}
				if sr.Reference != nil {
					v.Reference = esc(sr.Reference.Run.Name)
				}
				claim := claimFor("step", sr.Step.ID)
				switch {
				case len(sr.Step.Runs) == 0:
					v.Best, v.Reference, v.Change, v.NoGain = "—", "—", loc.T("summary.unmeasured"), true
				case sr.Change != nil && (!sr.Change.Better || sr.Change.Noise):
					// No gain: the step keeps its reference, as a source's "-" says.
					v.Change, v.NoGain = loc.T("summary.no_gain", "Change", changeLink(sr.Change, claim, "step-"+anchorID(sr.Step.ID))), true
				case sr.Change != nil:
					v.Change = changeLink(sr.Change, claim, "step-"+anchorID(sr.Step.ID))
				}
				v.Erratum = erratumOf(claim)
			}
			return views
		},
		// accuracyClaims: each published accuracy figure, with what the
		// runs' accuracy files say of it, or that none does.
		"accuracyClaims": func() []string {
			var lines []string
			for _, cr := range rep.Claims {
				if cr.Claim.Kind != study.ClaimAccuracy {
					continue
				}
				args := []any{"Printed", esc(cr.Claim.Printed), "Source", code(cr.Claim.Source), "Computed", esc(cr.Computed)}
				switch {
				case !cr.Checked:
					lines = append(lines, loc.T("accuracy.claim_unchecked", args...))
				case cr.Match:
					lines = append(lines, loc.T("accuracy.claim_holds", args...))
				default:
					lines = append(lines, loc.T("accuracy.claim_differs", args...)+loc.T("erratum.marker"))
				}
			}
			return lines
		},
		"workloads": func() []workloadView {
			views := make([]workloadView, len(s.Workloads))
			for i, w := range s.Workloads {
				views[i] = workloadView{Name: esc(workloadName(w.ID)), Dataset: dataset(w), Main: w.Main}
			}
			return views
		},
		"others": func() []runView {
			if len(rep.Others) == 0 {
				return nil
			}
			return runs(&report.StepResult{Runs: rep.Others})
		},
		"slo": func() *sloView {
			res := rep.SLO
			if res == nil {
				return nil
			}
			v := &sloView{}
			for _, l := range res.Limits {
				v.Headers = append(v.Headers, loc.T("slo.metric."+l.Metric, "Stat", res.SLO.Stat))
			}
			if res.Goodput {
				v.Headers = append(v.Headers, loc.T("slo.goodput"))
				v.GoodputNote = loc.T("slo.goodput_note")
			}
			if res.BudgetGoodput {
				v.Headers = append(v.Headers, loc.T("slo.budget_goodput"))
				v.BudgetGoodputNote = loc.T("slo.budget_goodput_note")
			}
			v.Budget = sloBudget(res.SLO, loc.T)
			v.Headline = loc.T("metric." + rep.Headline.Key)
			for _, sr := range res.Runs {
				row := sloRowView{Name: esc(sr.Run.Name), Headline: value(sr.Headline, "run-"+anchorID(sr.Run.ID)), Meets: loc.T("slo.no")}
				if sr.Meets {
					row.Meets = loc.T("slo.yes")
				}
				if sr.Borderline {
					row.Meets, v.BorderlineNote = loc.T("slo.borderline"), loc.T("slo.borderline_note")
				}
				for _, val := range sr.Values {
					row.Values = append(row.Values, value(val, "run-"+anchorID(sr.Run.ID)))
				}
				if res.Goodput {
					row.Values = append(row.Values, value(sr.Goodput, "run-"+anchorID(sr.Run.ID)))
				}
				if res.BudgetGoodput {
					cell := "—"
					if g := sr.BudgetGoodput; g != nil {
						cell = value(&g.Value, "run-"+anchorID(sr.Run.ID)) + loc.T("paren.after", "Text", loc.T("slo.good_of", "Good", g.Good, "Total", g.Total))
					}
					row.Values = append(row.Values, cell)
				}
				v.Rows = append(v.Rows, row)
			}
			if res.Best != nil {
				v.Best = loc.T("slo.best", "Run", esc(res.Best.Run.Name), "Value", value(res.Best.Headline, "run-"+anchorID(res.Best.Run.ID)), "Unit", rep.Headline.Unit)
				if len(res.Tied) > 0 {
					v.Best = loc.T("sentences", "First", v.Best, "Next", loc.T("slo.tied", "Runs", tiedNames(loc, res.Tied)))
				}
			} else {
				v.Best = loc.T("slo.none")
			}
			return v
		},
		"freshness": func(engine string) string {
			f, ok := in.Freshness[engine]
			var text string
			switch {
			case !ok:
				return ""
			case !f.Known:
				text = loc.T("freshness.unknown")
			case f.Behind == 0:
				text = loc.T("freshness.newest")
			default:
				text = loc.T("freshness.behind", "N", f.Behind, "Newest", esc(f.Newest), "Study", "["+esc(f.Study)+"]("+linkPath(f.Study+".md")+")")
			}
			return loc.T("aside", "Text", text)
		},
		"noiseBand":     func() string { return bandText(rep.BandOf(rep.Headline.Key).Percent) },
		"historyWindow": func() int { return report.HistoryWindow },
		"verdictNote":   func() string { return verdictNote(loc, rep, loc.T("metric."+rep.Headline.Key)) },
		"cost": func() *costView {
			res := rep.Cost
			if res == nil || len(res.Runs) == 0 {
				return nil
			}
			v := &costView{Intro: loc.T("cost.intro", "Price", esc(res.Price.Raw), "Currency", esc(res.Price.Currency)), Currency: esc(res.Price.Currency)}
			if p := res.Price; p.Shared {
				v.Intro = loc.T("cost.intro_shared", "Price", esc(p.Raw), "Currency", esc(p.Currency), "GPU", esc(s.Hardware.GPU),
					"Source", code(repoPath(p.Pos.File)+":"+strconv.Itoa(p.Pos.Line)))
			}
			for _, cr := range res.Runs {
				row := costRowView{Name: esc(cr.Run.Name), GPUs: cr.Run.GPUs, Output: value(cr.Output, "run-"+anchorID(cr.Run.ID)),
					PerGPUHour: report.FormatNumber(cr.TokensPerGPUHour, 0), PerMillion: report.FormatNumber(cr.PerMillion, 3), PerMillionTotal: "—"}
				if cr.PerMillionTotal > 0 {
					row.PerMillionTotal = report.FormatNumber(cr.PerMillionTotal, 3)
				}
				v.Rows = append(v.Rows, row)
			}
			return v
		},
		"feedbackURL": func() string {
			if r.RepoURL == "" {
				return ""
			}
			return r.RepoURL + "/issues/new"
		},
		"workload":  workloadName,
		"blockText": blockText,
		"served":    func(run *study.Run) string { return engine.Parse(run.Command).Model },
		"ranking":   ranking,
		"sides": func(rp *report.Report) []side {
			sides := []side{sideOf(rp, rp.Baseline, "other.baseline", "baseline"), sideOf(rp, rp.Recommended, "other.optimized", "optimized")}
			for i := range sides {
				sd := &sides[i]
				same := len(sd.Cells) > 1
				for j := range sd.Cells {
					cl := &sd.Cells[j]
					cl.Case, cl.Name = esc(workloadName(cl.Workload)), esc(cl.Run.Name)
					cl.Command, cl.Raw = fence(cl.Run.Command, "bash"), rawRepeats(cl.Run, cl.LogFile, cl.Block)
					same = same && cl.Run.Command == sd.Cells[0].Run.Command
				}
				if same {
					// One command for every case: shown once, with a count.
					sd.Command, sd.Count = sd.Cells[0].Command, len(sd.Cells)
					for j := range sd.Cells {
						sd.Cells[j].Command = ""
					}
				}
			}
			return sides
		},
		"runs":     runs,
		"problems": func() []problemGroup { return groupProblems(res.Diagnostics, repoPath) },
		"problem":  problem,
		"source":   source,
		"reason":   reason,
	}
	funcs["reproduce"] = func() []reproduceView { return reproduceViews(s, loc.T, repoPath) }
	var compare *compareAttrs // set by allRuns
	funcs["allRuns"] = func() *allRunsView {
		t := rep.AllRuns()
		if t == nil {
			return nil
		}
		compare = newCompareAttrs(t, loc, rep)
		// A value links to its line where the page shows its log; else to
		// the line in the repository, to its run, or at least names its
		// file and line in its title.
		// Its title is where it was read, the check status and label of
		// the report's other figures left out: the table has many.
		shown, sections := shownLogs(rep), runSections(rep)
		return allRunsOf(t, loc, workloadName, func(v *report.Value) string {
			title := repoPath(v.Source.File) + ":" + strconv.Itoa(v.Source.Line)
			if v.Projected() {
				title += " " + loc.T("source.projected", "Formula", v.Expr(), "Replicas", v.Replicas, "GPUs", v.GPUs)
			}
			switch {
			case shown[v.Source.File] && v.Source.Line > 0:
				return sourced(v.Expr(), LineID(repoPath(v.Source.File), v.Source.Line), title)
			case r.RepoURL != "":
				return "[" + v.Expr() + "](" + fmt.Sprintf("%s/blob/HEAD/%s#L%d", r.RepoURL, repoPath(v.Source.File), v.Source.Line) +
					" \"" + escTitle(title) + "\")"
			case sections[v.Run]:
				return sourced(v.Expr(), "run-"+anchorID(v.Run), title)
			}
			return sourced(v.Expr(), allRunsID, title)
		}, sections)
	}
	charts, err := chart.Draw(rep, loc.T, workloadName, stepTitle)
	funcs["reproductions"] = func() []reproducedView {
		return reproducedViews(s, rep.Headline, reproHelpers{T: loc.T, value: interval, pct: pct, sourced: sourced, workloadName: workloadName})
	}
	funcs["sweeps"] = func() []sweepView {
		return sweepViews(rep, charts, pageHelpers{T: loc.T, value: interval, sourced: sourced, rawResult: rawResult,
			repoPath: repoPath, workloadName: workloadName})
	}
	if err != nil {
		return nil, fmt.Errorf("charts of %s (%s): %w", s.ID, lang, err)
	}
	// chart writes a chart as a Markdown image, relative to site/<lang>/;
	// its text alternative is the chart's description.
	chartImage := func(name string) string {
		for _, ch := range charts {
			if ch.Name == name {
				return "![" + esc(ch.Description) + "](" + linkPath(s.ID+"/"+name+".svg") + ")"
			}
		}
		return ""
	}
	funcs["chart"] = chartImage
	funcs["steps"] = func() []stepView {
		views := make([]stepView, len(rep.Steps))
		for i := range rep.Steps {
			sr := &rep.Steps[i]
			id := sr.Step.ID
			views[i] = stepView{ID: anchorID(id), Number: i + 1, Title: esc(stepTitle(id)), Section: r.prose(c.Sections["step/"+id].Markdown),
				Runs: runs(sr), Chart: chartImage("step-" + id), Unmeasured: len(sr.Step.Runs) == 0}
			if len(sr.Ranking) > 1 {
				views[i].Ranking = ranking(sr)
				views[i].Erratum = erratumOf(claimFor("ranking", id))
			}
		}
		return views
	}
	funcs["history"] = func() []historyView {
		var views []historyView
		for i := range rep.History {
			hr := &rep.History[i]
			anchor := "history-" + hr.Run.ID
			hv := historyView{ID: anchorID(hr.Run.ID), Name: esc(hr.Run.Name), Chart: chartImage(anchor)}
			for _, t := range hr.Trends {
				tv := trendView{Case: esc(workloadName(t.Workload.ID))}
				for _, p := range t.Points {
					row := versionRow{Version: esc(p.Version), Value: "—", Change: "—"}
					if p.Current {
						row.Version += loc.T("aside", "Text", loc.T("history.current"))
					}
					if v := p.Value; v != nil {
						row.Value = repeats(v, sourced(v.Expr(), anchor, valueTitle(v)))
						if v.Projected() {
							row.Value += loc.T("aside", "Text", loc.T("value.projected"))
						}
					}
					if p.Change != nil {
						row.Change = sourced(pct(p.Change), anchor, loc.T("source.change", "Formula", p.Change.Formula, "Status", loc.T("source.no_claim")))
					}
					if p.Regression {
						row.Change += " **" + loc.T("history.regression") + "**"
						if p.Rule == report.RegressionDrift {
							row.Change += loc.T("history.drift", "Change", sourced(pct(p.Drift), anchor, loc.T("source.change", "Formula", p.Drift.Formula, "Status", loc.T("source.no_claim"))), "Version", esc(p.DriftFrom))
						}
						if reason := ackReason(check.RuleRegression, check.RegressionSubject(hr.Run.ID, t.Workload.ID, p.Version)); reason != "" {
							tv.Notes = append(tv.Notes, "**"+esc(p.Version)+"** · "+reason)
						}
					}
					tv.Rows = append(tv.Rows, row)
				}
				hv.Trends = append(hv.Trends, tv)
			}
			for _, h := range hr.Run.History {
				if h.Command != "" {
					hv.Commands = append(hv.Commands, versionCommand{Version: esc(h.Version.Raw), Command: fence(h.Command, "bash")})
				}
			}
			views = append(views, hv)
		}
		return views
	}
	funcs["problemLines"] = func() []problemLine {
		groups := groupProblems(res.Diagnostics, repoPath)
		lines := make([]problemLine, len(groups))
		for i, g := range groups {
			lines[i] = problemLine{Acknowledged: g.Acknowledged(), Severity: string(g.First.Severity), Rule: g.First.Rule,
				Text: problem(g), Sources: source(g)}
			if g.First.Ack != nil {
				lines[i].Reason = reason(g.First.Ack)
			}
		}
		return lines
	}
	others := langLinks(s.ID, lang)
	var md bytes.Buffer
	md.Grow(int(r.mdSize.Load()) * 5 / 4)
	tmpl := r.reports[lang]
	if tmpl == nil {
		return nil, fmt.Errorf("no report template for language %q", lang)
	}
	t, err := tmpl.Clone()
	if err != nil {
		return nil, err
	}
	err = executeBounded(t.Funcs(funcs), &md, map[string]any{"Report": rep, "Study": s, "Others": others, "Lang": lang})
	if err != nil {
		return nil, fmt.Errorf("templates/report.md.tmpl (%s, %s): %w", s.ID, lang, err)
	}
	if loc.err != nil {
		return nil, loc.err
	}
	r.mdSize.Store(int64(md.Len()))
	title := loc.T("title."+string(s.Objective), "Model", s.Model[strings.LastIndex(s.Model, "/")+1:], "GPUs", s.Hardware.GPUs(), "GPU", s.Hardware.GPU)
	title = plain.Line(title)
	html, err := r.htmlPage(loc, lang, title, "../../", others, md.Bytes(), compare)
	if err != nil {
		return nil, err
	}
	return &Page{Lang: lang, Study: s.ID, Title: title, Markdown: forGitHub(md.Bytes(), r.logLinks(logOf, repoPath)), HTML: html, Charts: charts}, nil
}

// appendShortTitles appends a line with each link title `](#x "a · b")`
// cut to its first part `](#x "a")`.
func appendShortTitles(out, line []byte) []byte {
	for {
		i := bytes.Index(line, []byte("](#"))
		if i < 0 {
			return append(out, line...)
		}
		j := bytes.IndexByte(line[i:], ')')
		k := bytes.Index(line[i:], []byte(` "`))
		if j < 0 || k < 0 || k > j {
			out = append(out, line[:i+3]...)
			line = line[i+3:]
			continue
		}
		end := bytes.Index(line[i+k+2:], []byte(`")`))
		if end < 0 {
			return append(out, line...)
		}
		title := line[i+k+2 : i+k+2+end]
		if c := bytes.Index(title, []byte(" · ")); c >= 0 {
			title = title[:c]
		}
		out = append(out, line[:i+k+2]...)
		out = append(out, title...)
		out = append(out, `")`...)
		line = line[i+k+2+end+2:]
	}
}

// erratumOf is the erratum of a checked claim the logs contradict.
func erratumOf(claim *report.ClaimResult) erratum {
	if claim == nil || !claim.Checked || claim.Match {
		return erratum{}
	}
	return erratum{Wrong: true, Printed: esc(claim.Claim.Printed), Computed: claim.Computed}
}

func hasProjection(rp *report.Report) bool {
	for _, row := range rp.Rows {
		for _, c := range []*report.Cell{row.Baseline, row.Optimized} {
			if c != nil && c.Headline.Projected() {
				return true
			}
		}
	}
	return false
}

func sideOf(rp *report.Report, runs []*study.Run, title, anchor string) side {
	sd := side{Title: title, Anchor: anchor}
	for _, w := range rp.Study.Workloads {
		if w.Sweep != nil {
			continue // its section shows every point
		}
		for _, run := range runs {
			if lg := findLog(run, w.ID); lg != nil {
				sd.Cells = append(sd.Cells, sideCell{Workload: w.ID, Anchor: anchorID(w.ID), Run: run, LogFile: lg.File, Block: &lg.Blocks[0]})
				break
			}
		}
	}
	return sd
}

func findLog(run *study.Run, workload string) *study.Log {
	for i := range run.Logs {
		if run.Logs[i].Workload == workload && len(run.Logs[i].Blocks) > 0 {
			return &run.Logs[i]
		}
	}
	return nil
}

// bodyMark stands for the body while page.html.tmpl runs.
const bodyMark = "\x00perflab:body\x00"

// htmlPage renders the HTML page of a Markdown body: page.html.tmpl runs with a
// mark for the body, and goldmark writes the body in the mark's place, so
// the body is not copied into the page, nor through html/template. A
// template that does not print the body exactly once, as HTML text, gets it
// the plain way.
//
// compare, when not nil, holds the data attributes of the page's all-runs
// table; the page then carries the script that compares two of its runs.
func (r *Renderer) htmlPage(loc *localizer, lang, title, root string, others []LangLink, md []byte, compare *compareAttrs) ([]byte, error) {
	var opts []parser.ParseOption
	if compare != nil {
		pc := parser.NewContext()
		pc.Set(compareKey, compare)
		opts = append(opts, parser.WithContext(pc))
	}
	perMD := r.htmlPerMD.Load()
	if perMD == 0 {
		perMD = 2000
	}
	html, err := r.wrap(loc, lang, title, root, others, compare != nil, []byte(bodyMark), int(int64(len(md))*perMD/1000*21/20))
	if err != nil {
		return nil, err
	}
	i := bytes.Index(html, []byte(bodyMark))
	if i < 0 || bytes.Contains(html[i+len(bodyMark):], []byte(bodyMark)) {
		body, err := r.markdownToHTML(md, opts...)
		if err != nil {
			return nil, err
		}
		return r.wrap(loc, lang, title, root, others, compare != nil, body, 0)
	}
	tail := bytes.Clone(html[i+len(bodyMark):])
	buf := bytes.NewBuffer(html[:i])
	if err := r.md.Convert(md, buf, opts...); err != nil {
		return nil, err
	}
	buf.Write(tail)
	if len(md) > 0 {
		r.htmlPerMD.Store(int64(buf.Len()) * 1000 / int64(len(md)))
	}
	return buf.Bytes(), nil
}

// wrap puts a rendered body into the HTML page template, in a buffer with
// room for extra more bytes.
func (r *Renderer) wrap(loc *localizer, lang, title, root string, others []LangLink, compare bool, body []byte, extra int) ([]byte, error) {
	if loc.err != nil {
		return nil, loc.err
	}
	t := r.pages[lang]
	if t == nil {
		return nil, fmt.Errorf("no page template for language %q", lang)
	}
	var buf bytes.Buffer
	buf.Grow(len(body) + extra + 2048)
	err := executeBounded(t, &buf, map[string]any{
		"Lang": lang, "Title": title, "Root": root, "Others": others, "Compare": compare,
		"Body": htmltemplate.HTML(body), // goldmark output with raw HTML disabled
	})
	if err != nil {
		var me messageError
		if errors.As(err, &me) {
			return nil, me.err
		}
		return nil, fmt.Errorf("templates/page.html.tmpl: %w", err)
	}
	return buf.Bytes(), nil
}

// IndexEntry is one report on the landing pages.
type IndexEntry struct {
	Study   string
	Model   string
	GPU     string
	GPUs    int
	Engines []string // names with versions, in the study's order
	// EngineNames are the engines' names without versions, which the
	// landing page filters on: a reader looks for vLLM, not one release.
	EngineNames []string
	Objective   string
	Titles      map[string]string // by language
	// The recommended configuration on the main workload: its name, its
	// change against the baseline, the replicas its figure is projected
	// by (1: measured as is) and whether the change is within noise.
	BestRun      string
	BestChange   string // e.g. "+59.2 %"
	BestReplicas int
	BestNoise    bool
	BestFormula  string // how the change is computed from the logged values
	Example      bool   // simulated logs (kind: example): the page says so
	// What the change is against: the baseline's name and replicas, and
	// the main workload (its id and dataset), for gains on different
	// baselines and workloads are not alike.
	Baseline         string
	BaselineReplicas int
	Workload         string
	// Main is the recommended configuration's figure, which studies on
	// the same GPU and workload are compared by; nil without one.
	Main *report.MainFigure
}

// bestChange is the landing page's gain of a study's recommended
// configuration, and what follows it: projected figures and changes within
// noise said as the report says them.
func bestChange(loc *localizer, e IndexEntry) (change, note string) {
	change = e.BestChange
	if e.BestNoise {
		change = "≈ " + change
		note = loc.T("change.noise")
	}
	if e.BestReplicas > 1 {
		note += loc.T("index.best_projected", "Replicas", e.BestReplicas)
	}
	return change, note
}

// Index renders the landing page of one language, which lists every report;
// root is the path from the page to the site's root ("" or "../").
func (r *Renderer) Index(entries []IndexEntry, lang, root string) ([]byte, error) {
	loc := r.localizer(lang)
	t, err := r.index.Clone()
	if err != nil {
		return nil, err
	}
	distinct := func(get func(IndexEntry) []string) []string {
		var out []string
		for _, e := range entries {
			for _, v := range get(e) {
				if v = plain.Line(v); !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	// Reports are linked relative to the page: site/<lang>/index.html is
	// in their folder, the site's own index.html one above it.
	dir := ""
	if root == "" {
		dir = lang + "/"
	}
	rows := make([]indexRow, len(entries))
	for i, e := range entries {
		page := dir + e.Study
		// html/template escapes markup; plain.Line the characters it keeps.
		rows[i] = indexRow{Model: plain.Line(e.Model), GPU: plain.Line(e.GPU), GPUs: plain.Line(loc.T("index.gpus", "Count", e.GPUs, "GPU", e.GPU)),
			Engines: plain.Line(strings.Join(e.Engines, loc.T("chart.list_separator"))), EngineKeys: plain.Line(strings.Join(e.EngineNames, "|")),
			Title: plain.Line(e.Titles[lang]), Href: page + "/index.html", MarkdownHref: page + ".md",
			Objective: loc.T("index.objective." + e.Objective), BestRun: plain.Line(e.BestRun), BestFormula: plain.Line(e.BestFormula),
			CSVHref: root + "data/" + e.Study + ".csv", JSONHref: root + "data/" + e.Study + ".json"}
		if e.Example {
			rows[i].Example = loc.T("index.example")
		}
		if e.BestRun != "" {
			rows[i].BestChange, rows[i].BestNote = bestChange(loc, e)
			rows[i].Against = loc.T("index.against", "Baseline", e.Baseline)
			if e.BaselineReplicas > 1 {
				rows[i].Against += loc.T("index.best_projected", "Replicas", e.BaselineReplicas)
			}
		}
		rows[i].Workload = e.Workload
	}
	var buf bytes.Buffer
	buf.Grow(len(entries) * 600)
	err = executeBounded(t.Funcs(htmltemplate.FuncMap{"T": loc.T, "join": strings.Join}), &buf, map[string]any{
		"Entries": entries, "Rows": rows, "Languages": Languages, "Lang": lang, "Root": root,
		"Models":  distinct(func(e IndexEntry) []string { return []string{e.Model} }),
		"GPUs":    distinct(func(e IndexEntry) []string { return []string{e.GPU} }),
		"Engines": distinct(func(e IndexEntry) []string { return e.EngineNames }),
		"Matched": matchedGroups(loc, entries, dir),
	})
	if err != nil {
		return nil, fmt.Errorf("templates/index.html.tmpl: %w", err)
	}
	if loc.err != nil {
		return nil, loc.err
	}
	return buf.Bytes(), nil
}

// indexRow is one report's row on a landing page, in the page's language,
// its links relative to the page: one template action per value keeps the
// landing pages cheap at a thousand reports.
type indexRow struct {
	Model, GPU         string // as the filters match them
	GPUs               string // "8 × GPU"
	Engines            string // names with versions, comma-separated
	EngineKeys         string // names alone, "|"-separated, for the filter
	Title, Objective   string
	BestRun            string // the recommended configuration, or empty
	BestChange         string // its gain over the baseline on the main workload
	BestNote           string // within noise, projected
	BestFormula        string
	Against            string // the baseline the gain is against
	Workload           string // the main workload the gain is measured on
	Href, MarkdownHref string
	CSVHref, JSONHref  string
	Example            string // the mark of a study of simulated logs, or empty
}

// escTitle escapes a Markdown link title written between double quotes.
func escTitle(s string) string { return titleEscaper.Replace(plain.Line(s)) }

var titleEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ")

// problemGroup is one line of the problems section: diagnostics of one rule
// that share an acknowledgement (or lack one), with their subjects.
type problemGroup struct {
	First    check.Diagnostic
	Subjects []string
	Sources  []string
}

func (g problemGroup) Acknowledged() bool { return g.First.Acknowledged() }

func groupProblems(diags []check.Diagnostic, repoPath func(string) string) []problemGroup {
	type groupKey struct {
		rule             string
		severity         check.Severity
		acked            bool
		subject, message string
	}
	var out []problemGroup
	index := map[groupKey]int{}
	for _, d := range diags {
		key := groupKey{rule: d.Rule, severity: d.Severity, acked: d.Ack != nil, subject: d.Subject, message: d.Message}
		if d.Ack != nil {
			key.subject, key.message = d.Ack.Subject, ""
		}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, problemGroup{First: d})
		}
		g := &out[i]
		if d.Subject != "" && !slices.Contains(g.Subjects, d.Subject) {
			g.Subjects = append(g.Subjects, d.Subject)
		}
		src := repoPath(d.File) + ":" + strconv.Itoa(d.Line)
		if !slices.Contains(g.Sources, src) {
			g.Sources = append(g.Sources, src)
		}
	}
	return out
}

// subjectName shows a diagnostic's subject the way the report names it:
// workloads and steps by their display names, runs by their names.
func subjectName(subject string, s *study.Study, c *study.Content) string {
	kind, id, found := strings.Cut(subject, "/")
	if !found {
		run, version, _ := strings.Cut(subject, "@") // one version of a run's history
		if r := s.Run(run); r != nil {
			if version != "" {
				return r.Name + " · " + version
			}
			return r.Name
		}
		return subject
	}
	switch kind {
	case "conclusion":
		if name := c.Workloads[id]; name != "" {
			return name
		}
		return id
	case "step", "ranking":
		if name := c.Steps[id]; name != "" {
			return name
		}
		return id
	}
	if r := s.Run(kind); r != nil {
		id, version, _ := strings.Cut(id, "@") // a regression: <run>/<workload>@<version>
		name := c.Workloads[id]
		if name == "" {
			name = id
		}
		if version != "" {
			name += " · " + version
		}
		return r.Name + " · " + name
	}
	return subject
}
