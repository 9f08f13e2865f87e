package check

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// RuleProseFigure: a figure in prose is a computed one, at its printed
// precision and with its direction word, or it is reported.
const RuleProseFigure = "prose-figure"

// Figures are what a study's prose may state, computed from its logs:
// kept with a check's result, as a build lets the report go before it
// reads the prose.
type Figures struct {
	// Changes by the section of prose they belong to: "step/<id>" for a
	// step's best run against its reference, "" for the conclusion rows.
	Changes map[string][]FigureChange
	// Values are the figures a page prints as they are printed: headlines
	// and settings (GPUs, parallel sizes, lengths, prompt counts, loads).
	Values map[string]bool
	// Best is, step by step, each engine's best headline among the step's
	// comparable runs, by engine name; Higher says whether a higher
	// headline is better.
	Best   map[string]map[string]float64
	Higher bool
	// NodeGPUs is the study's hardware, for the commands prose shows.
	NodeGPUs int
	// RecommendedEngine and RecommendedCommand (lower case) are what the
	// study recommends, for prose that credits it.
	RecommendedEngine, RecommendedCommand string
	// Facts are the study's facts, for the statements prose makes.
	Facts *StudyFacts
}

// FigureChange is a computed change and what it names.
type FigureChange struct {
	Percent float64
	Better  bool
	What    string // "the conclusion row of sharegpt"
}

// proseFiguresOf gathers the figures of a report that prose may state.
func proseFiguresOf(rep *report.Report) *Figures {
	f := &Figures{Changes: map[string][]FigureChange{}, Values: map[string]bool{}}
	value := func(v report.Value) {
		f.Values[report.FormatNumber(v.Measured, v.Decimals)] = true
		f.Values[report.FormatNumber(v.Effective(), v.Decimals)] = true
	}
	for _, row := range rep.Rows {
		if row.Change != nil {
			f.Changes[""] = append(f.Changes[""], FigureChange{row.Change.Percent, row.Change.Better, "the conclusion row of " + row.Workload.ID})
			value(row.Change.From)
			value(row.Change.To)
		}
	}
	f.Best, f.Higher = map[string]map[string]float64{}, rep.Headline.HigherBetter
	for _, sr := range rep.Steps {
		best := map[string]float64{}
		for _, rr := range sr.Ranking {
			e := serving.Started(rr.Run.Command)
			if e == nil || rr.Headline == nil {
				continue
			}
			v := rr.Headline.Effective()
			if old, ok := best[e.Name]; !ok || (v > old) == f.Higher {
				best[e.Name] = v
			}
		}
		f.Best["step/"+sr.Step.ID] = best
		if sr.Change != nil {
			f.Changes["step/"+sr.Step.ID] = append(f.Changes["step/"+sr.Step.ID], FigureChange{sr.Change.Percent, sr.Change.Better, "step " + sr.Step.ID})
		}
		for _, rr := range sr.Runs {
			if rr.Headline != nil {
				value(*rr.Headline)
			}
		}
	}
	s := rep.Study
	f.NodeGPUs = s.Hardware.GPUs()
	f.RecommendedEngine, f.RecommendedCommand = recommendation(rep)
	f.Facts = studyFactsOf(rep)
	for _, n := range []int{s.Hardware.GPUs(), s.Hardware.GPUsPerNode, s.Hardware.Nodes} {
		f.Values[strconv.Itoa(n)] = true
	}
	for _, w := range s.Workloads {
		for _, n := range []int{w.InputLen, w.OutputLen, w.NumPrompts} {
			f.Values[strconv.Itoa(n)] = true
		}
		if w.MaxConcurrency != nil {
			f.Values[strconv.Itoa(*w.MaxConcurrency)] = true
		}
		if w.Sweep != nil {
			for _, p := range w.Sweep.Points {
				f.Values[p.Raw] = true
			}
		}
	}
	for _, r := range s.Runs {
		f.Values[strconv.Itoa(r.GPUs)] = true
		for _, fl := range serving.Parse(r.Command).Flags {
			f.Values[fl.Value] = true
		}
	}
	return f
}

// Direction words, in the three languages: a figure's change must go the
// way they say.
var (
	betterWord = regexp.MustCompile(`(?i)\b(faster|improve[sd]?|better|gains?|speed-?up)\b|更快|提升|改善|加快|高速|速く|向上`)
	worseWord  = regexp.MustCompile(`(?i)\b(slower|degrade[sd]?|worse|regress(es|ed)?|loss)\b|更慢|变慢|退化|下降|遅く|悪化|低下`)
	upWord     = regexp.MustCompile(`(?i)\b(higher|more|increase[sd]?|raise[sd]?|grows?|grew)\b|提高|增加|更高|増加|高く|上が`)
	downWord   = regexp.MustCompile(`(?i)\b(lower|less|decrease[sd]?|reduce[sd]?|drops?|dropped|fell|shrinks?)\b|降低|减少|更低|減少|低く|下が`)
)

// ProseFigures checks the figures of every study's prose, in every
// language, against the figures its check computed.
func ProseFigures(results []Result, content map[string]map[string]*study.Content, root string) []Diagnostic {
	// Each study on its own worker, in the order of results.
	byStudy := make([][]Diagnostic, len(results))
	workers.Each(len(results), func(i int) { byStudy[i] = proseFiguresOfStudy(results[i], content, root) })
	return slices.Concat(byStudy...)
}

// proseFiguresOfStudy is ProseFigures for one study.
func proseFiguresOfStudy(res Result, content map[string]map[string]*study.Content, root string) []Diagnostic {
	var out []Diagnostic
	if res.Figures == nil {
		return nil
	}
	for _, lang := range study.Languages {
		c := content[lang][res.Study.ID]
		if c == nil {
			continue
		}
		file := path.Join(root, lang, res.Study.ID+".md")
		for _, name := range sortedSections(c) {
			out = append(out, proseSection(res.Study.ID, file, name, c.Sections[name], res.Figures)...)
			out = append(out, proseFacts(res.Study.ID, file, name, c.Sections[name], c, res.Figures.Facts)...)
			checkShown(codeBlocks(file, name, c.Sections[name]), res.Figures.NodeGPUs, func(d Diagnostic) {
				d.Study = res.Study.ID
				out = append(out, d)
			})
		}
	}
	return out
}

// percentWord is a percentage as prose prints it, with its sign.
var percentWord = regexp.MustCompile(`([+\-−]?)(\d+(?:\.\d+)?)\s?[%％]`)

func proseSection(id, file, name string, sec study.Section, figs *Figures) []Diagnostic {
	var out []Diagnostic
	add := func(line int, sev Severity, msg string) {
		out = append(out, Diagnostic{Study: id, Rule: RuleProseFigure, Severity: sev, File: file, Line: line, Subject: "prose/" + name, Message: msg})
	}
	candidates := figs.Changes[name]
	if len(candidates) == 0 {
		candidates = figs.Changes[""]
	}
	inCode := false
	for i, line := range strings.Split(sec.Markdown, "\n") {
		n := sec.TextLine + i
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
		}
		if inCode {
			continue
		}
		if strings.ContainsAny(line, "`](") {
			line = proseCode.ReplaceAllString(dropLinkTargets(line), "")
		}
		line = foldDigits(dropListMarker(line))
		// Prose is mostly words: each test runs only on a line that could
		// hold what it looks for.
		percent := strings.Contains(line, "%") || strings.Contains(line, "％")
		if percent {
			for _, loc := range percentWord.FindAllStringSubmatchIndex(line, -1) {
				if glued(line, loc[0]-1) {
					continue
				}
				num, sign := line[loc[4]:loc[5]], line[loc[2]:loc[3]]
				if msg, sev := judgePercent(num, sign, sentenceAround(line, loc[0], loc[1]), candidates); msg != "" {
					add(n, sev, msg)
				}
			}
		}
		if len(enginesIn(line)) >= 2 {
			if msg := comparison(line, name, figs); msg != "" {
				add(n, Error, msg)
			}
		}
		if msg := credit(line, figs); msg != "" {
			add(n, Error, msg)
		}
		if !strings.ContainsAny(line, "0123456789") {
			continue
		}
		if percent {
			line = percentWord.ReplaceAllString(line, "")
		}
		for _, f := range figures(line) {
			if !figs.Values[f] && !strings.Contains(f, "%") {
				add(n, Warning, fmt.Sprintf("the figure %s in section %s is bound to nothing the logs give: a figure typed by hand goes stale; let the report print it, or remove it", f, name))
			}
		}
	}
	return out
}

var proseCode = regexp.MustCompile("`[^`]*`")

// sentenceAround is the clause around a figure: the text between the
// punctuation before it and after it ("faster by 5 %, and ..." keeps
// "faster by 5 %"). A dot inside a figure ends nothing.
func sentenceAround(line string, from, to int) string {
	const stops = ",;!?，、；。！？"
	start := strings.LastIndexAny(line[:from], stops)
	if i := strings.LastIndex(line[:from], ". "); i > start {
		start = i
	}
	end := strings.IndexAny(line[to:], stops)
	if i := strings.Index(line[to:], ". "); i >= 0 && (end < 0 || i < end) {
		end = i
	}
	if end < 0 {
		end = len(line) - to
	}
	if start < 0 {
		return line[:to+end]
	}
	_, size := utf8.DecodeRuneInString(line[start:])
	return line[start+size : to+end]
}

// judgePercent binds a printed percentage to the computed change it
// rounds to and checks its direction; one that rounds to none is a
// mistyped figure when its digits are a candidate's reordered or one
// digit off, else an unbound figure.
func judgePercent(num, sign, sentence string, candidates []FigureChange) (string, Severity) {
	dec := 0
	if i := strings.IndexByte(num, '.'); i >= 0 {
		dec = len(num) - i - 1
	}
	for _, c := range candidates {
		if report.FormatNumber(math.Abs(c.Percent), dec) != num {
			continue
		}
		if dir := direction(sign, sentence, c); dir != "" {
			return fmt.Sprintf("%s%s%% is %s, but the sentence says %s: the logs give %s", sign, num, c.What, dir, report.FormatPercent(c.Percent)), Error
		}
		return "", ""
	}
	for _, c := range candidates {
		want := report.FormatNumber(math.Abs(c.Percent), dec)
		if nearMiss(num, want) {
			return fmt.Sprintf("%s%% looks like %s mistyped: the logs give %s", num, c.What, report.FormatPercent(c.Percent)), Error
		}
	}
	return fmt.Sprintf("the figure %s%% is bound to no change the logs give: let the report print it, or remove it", num), Warning
}

// direction says how a sentence contradicts a change, or "".
func direction(sign, sentence string, c FigureChange) string {
	up := c.Percent > 0
	switch {
	case sign == "+" && !up:
		return "+ (an increase)"
	case (sign == "-" || sign == "−") && up:
		return "- (a decrease)"
	}
	b, w := betterWord.FindString(sentence), worseWord.FindString(sentence)
	switch {
	case b != "" && w == "" && !c.Better:
		return fmt.Sprintf("%q", b)
	case w != "" && b == "" && c.Better:
		return fmt.Sprintf("%q", w)
	}
	u, d := upWord.FindString(sentence), downWord.FindString(sentence)
	switch {
	case u != "" && d == "" && !up:
		return fmt.Sprintf("%q", u)
	case d != "" && u == "" && up:
		return fmt.Sprintf("%q", d)
	}
	return ""
}

// nearMiss: the same digits reordered (95.2 for 59.2), or one digit off.
func nearMiss(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	x, y := []byte(a), []byte(b)
	diff := 0
	for i := range x {
		if x[i] != y[i] {
			diff++
		}
	}
	sort.Slice(x, func(i, j int) bool { return x[i] < x[j] })
	sort.Slice(y, func(i, j int) bool { return y[i] < y[j] })
	// Short figures are near many others by chance: one digit off counts
	// from four characters on ("59.2" for "58.2"), a reordering from two.
	return (diff == 1 && len(a) >= 4) || (string(x) == string(y) && len(a) >= 2)
}

// engineName finds engines named in prose, with their positions.
var engineName = regexp.MustCompile(`(?i)tensorrt[-_ ]?llm|\btrt-?llm|sglang|vllm|lmdeploy|llama\.cpp|mindie`)

// ahead and behind are the words of "A is faster than B", "A 比 B 快",
// "A は B より速い" and their opposites.
var (
	ahead = gate(regexp.MustCompile(`(?i)\b(faster|outperforms?|beats?|ahead of|higher throughput)\b|更快|快于|领先|比.*快|より速|上回`),
		"faster", "outperform", "beat", "ahead of", "higher throughput", "更快", "快于", "领先", "比", "より速", "上回")
	behind = gate(regexp.MustCompile(`(?i)\b(slower|trails?|behind|lower throughput)\b|更慢|慢于|落后|比.*慢|より遅|下回`),
		"slower", "trail", "behind", "lower throughput", "更慢", "慢于", "落后", "比", "より遅", "下回")
)

// engineWords are the lower-case words every match of engineName holds.
var engineWords = [...]string{"llm", "sglang", "lmdeploy", "llama.cpp", "mindie"}

// mayNameEngine is true of every clause in which engineName matches: a
// literal scan that spares the pattern the clauses naming no engine.
func mayNameEngine(clause string) bool {
	if strings.Contains(clause, "ſ") {
		return true
	}
	low := strings.ToLower(clause)
	for _, w := range engineWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// mayNameTwoEngines is true of every clause in which engineName matches
// twice or more: each match holds one of these words, lower-cased, but for
// an "ſ" that (?i) reads as "s".
func mayNameTwoEngines(clause string) bool {
	if strings.Contains(clause, "ſ") {
		return true
	}
	low, n := strings.ToLower(clause), 0
	for _, w := range engineWords {
		n += strings.Count(low, w)
	}
	return n >= 2
}

// clauseEnd splits a line into clauses.
var clauseEnd = regexp.MustCompile(`[,;，；。!?！？]|\. `)

// comparison checks a clause that ranks two engines ("SGLang is faster
// than vLLM") against their best headlines: in the section's step, or in
// every step that has both when they all agree.
func comparison(line, section string, figs *Figures) string {
	for _, clause := range clauseEnd.Split(line, -1) {
		if !mayNameTwoEngines(clause) {
			continue
		}
		names := engineName.FindAllStringIndex(clause, -1)
		if len(names) != 2 {
			continue
		}
		ea, eb := enginesIn(clause[names[0][0]:names[0][1]]), enginesIn(clause[names[1][0]:names[1][1]])
		if len(ea) != 1 || len(eb) != 1 || ea[0] == eb[0] {
			continue
		}
		a, b := ea[0], eb[0]
		rest := clause[names[0][1]:]
		up, down := ahead.MatchString(rest), behind.MatchString(rest)
		if up == down {
			continue
		}
		aBetter, va, vb, ok := engineOrder(a.Name, b.Name, section, figs)
		if ok && up != aBetter {
			word := "ahead of"
			if down {
				word = "behind"
			}
			return fmt.Sprintf("the prose puts %s %s %s, but the logs give %s %s against %s %s", a.Name, word, b.Name,
				a.Name, strconv.FormatFloat(va, 'f', -1, 64), b.Name, strconv.FormatFloat(vb, 'f', -1, 64))
		}
	}
	return ""
}

// engineOrder says whether engine a did better than b, from the section's
// step or from every step that ran both, when those agree.
func engineOrder(a, b, section string, figs *Figures) (aBetter bool, va, vb float64, ok bool) {
	steps := []string{section}
	if _, isStep := figs.Best[section]; !isStep {
		steps = steps[:0]
		for id := range figs.Best {
			steps = append(steps, id)
		}
		sort.Strings(steps)
	}
	seen := 0
	for _, id := range steps {
		x, okA := figs.Best[id][a]
		y, okB := figs.Best[id][b]
		if !okA || !okB || x == y {
			continue
		}
		better := (x > y) == figs.Higher
		if seen > 0 && better != aBetter {
			return false, 0, 0, false // the steps disagree
		}
		aBetter, va, vb = better, x, y
		seen++
	}
	return aBetter, va, vb, seen > 0
}

// codeBlocks are the fenced code blocks of a section, as commands the
// study shows.
func codeBlocks(file, name string, sec study.Section) []shownCommand {
	var out []shownCommand
	lines := strings.Split(sec.Markdown, "\n")
	start := -1
	for i, line := range lines {
		if !strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		out = append(out, shownCommand{text: strings.Join(lines[start+1:i], "\n"), file: file, first: sec.TextLine + start + 1,
			subject: "prose/" + name, what: "section " + name})
		start = -1
	}
	return out
}
