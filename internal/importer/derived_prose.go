package importer

// Figures a page prints again from its result blocks (a table's column of
// a run), the pairs of runs a sentence may compare, and the sentences'
// changes themselves, read with check's prose reader.

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/study"
)

// logUnit is the unit a result block prints a metric in.
func logUnit(metric string) string {
	switch {
	case strings.HasSuffix(metric, "_ms"):
		return "ms"
	case metric == "request_throughput":
		return "req/s"
	case strings.HasSuffix(metric, "_throughput"):
		return "tok/s"
	}
	return ""
}

// runFigure is a metric of a run's first result block that prints it, as
// printed, with its unit.
func (p *parser) runFigure(r *Run, metric string) (figureCell, bool) {
	unit := logUnit(metric)
	if unit == "" {
		return figureCell{}, false
	}
	for _, lg := range r.Logs {
		if m, ok := parseBlock(lg.Text).Metrics[metric]; ok && m.Raw != "" {
			return figureCell{num: m.Raw, unit: unit, line: lg.Line}, true
		}
	}
	return figureCell{}, false
}

// runWords are the words around a run's name in a heading that name no run.
var runWords = regexp.MustCompile(`\b(?:benchmark|output|outputs|results?|logs?|run|sample)\b`)

// runNamed is the one run a column header names: by its name, its id or
// the heading above one of its result blocks; nil when none or several.
func (p *parser) runNamed(header string) *Run {
	want := strings.TrimSpace(runWords.ReplaceAllString(norm(header), ""))
	if want == "" {
		return nil
	}
	var found *Run
	for _, r := range p.s.Runs {
		names := []string{r.Name, strings.ReplaceAll(r.ID, "-", " ")}
		for _, lg := range r.Logs {
			names = append(names, p.headingBefore(lg.Line))
		}
		for _, n := range names {
			if strings.Join(strings.Fields(runWords.ReplaceAllString(norm(n), "")), " ") == want {
				if found != nil && found != r {
					return nil
				}
				found = r
				break
			}
		}
	}
	return found
}

// headingBefore is the text of the last heading before a line.
func (p *parser) headingBefore(n int) string {
	h := ""
	for _, it := range p.items {
		if it.n >= n {
			break
		}
		if lvl, t := heading(it.text); it.fence == nil && lvl > 0 {
			h = t
		}
	}
	return h
}

// sameAsRuns ties the figures of a row naming a metric, in columns naming
// runs, to those runs' result blocks: the figure printed again, maybe in
// another unit ("271.2" seconds for 271196.67 ms). A figure with no unit
// in its cell, header or label is left alone: units are never guessed.
func (p *parser) sameAsRuns(t table, kinds []string, i int, label string) []pair {
	perGPU := perGPUWord.MatchString(label)
	metric := check.MetricNamed(perGPUWord.ReplaceAllString(label, ""))
	if metric == "" {
		return nil
	}
	row := t.rows[i]
	for k := 1; k < len(row) && k < len(kinds); k++ {
		if kinds[k] != "" {
			continue
		}
		r := p.runNamed(t.header[k])
		if r == nil {
			continue
		}
		unit := cmpOr(labelUnit(t.header[k]), labelUnit(perGPUWord.ReplaceAllString(label, "")))
		cell, ok := cellFigure(row[k], unit, t.lines[i])
		logged, ok2 := p.runFigure(r, metric)
		if !ok || !ok2 || cell.unit == "" || p.claimed(t.lines[i], cell.num) && !strings.Contains(strings.Join(row[:k], "|"), cell.num) {
			continue
		}
		if perGPU {
			// "Output tok/s per GPU": the run's figure over its GPUs.
			if r.GPUs > 0 {
				p.s.addClaim(Claim{Kind: "table", From: strconv.Itoa(r.GPUs), To: logged.String(), Compare: study.CompareQuotient, Printed: cell.String(), Line: t.lines[i]})
			}
			continue
		}
		p.s.addClaim(Claim{Kind: "table", From: logged.String(), To: cell.String(), Compare: study.CompareSame, Printed: cell.String(), Line: t.lines[i]})
	}
	return nil
}

// runPairs are the figures of every run against the document's first run
// on the same workload, metric by metric: what a sentence comparing two
// configurations may compare.
func (p *parser) runPairs() []pair {
	var out []pair
	if len(p.s.Runs) < 2 {
		return nil
	}
	base := p.s.Runs[0]
	for _, r := range p.s.Runs[1:] {
		for _, lg := range r.Logs {
			var bl *Log
			for i := range base.Logs {
				if base.Logs[i].Workload == lg.Workload {
					bl = &base.Logs[i]
				}
			}
			if bl == nil {
				continue
			}
			from, to := parseBlock(bl.Text), parseBlock(lg.Text)
			for key, m := range to.Metrics {
				fm, ok := from.Metrics[key]
				unit := logUnit(key)
				if !ok || unit == "" || m.Raw == "" || fm.Raw == "" {
					continue
				}
				out = append(out, pair{metric: key, from: figureCell{fm.Raw, unit, bl.Line}, to: figureCell{m.Raw, unit, lg.Line}, better: betterOf(key, "")})
			}
		}
	}
	return out
}

// fencedFigure is a labelled figure a log excerpt prints: "GPU KV cache
// size: 715,072 tokens".
var fencedFigure = regexp.MustCompile(`([A-Za-z][A-Za-z ]{2,40}?)\s*:\s*(\d[\d,]*(?:\.\d+)?)\s*(tokens|GiB|GB|ms|s)?\s*$`)

// fencedPairs pairs the figures log excerpts outside result blocks print
// twice under one label: the first against the second.
func (p *parser) fencedPairs() []pair {
	type seen struct{ first figureCell }
	byLabel := map[string]*seen{}
	var out []pair
	for _, it := range p.items {
		if it.fence == nil || hasResults([]line{it}) {
			continue
		}
		for i, l := range it.fence.content {
			m := fencedFigure.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			label := norm(m[1])
			f := figureCell{num: m[2], unit: m[3], line: it.fence.first + i}
			if s := byLabel[label]; s == nil {
				byLabel[label] = &seen{f}
			} else {
				out = append(out, pair{label: label, from: s.first, to: f})
			}
		}
	}
	return out
}

// proseClaims reads the changes the page's sentences state and binds each
// to the pair of figures it derives from: of the metric it names, or of
// the label its words share most; among several, the one it holds for,
// else the only one. A change bound to none is an unchecked claim.
func (p *parser) proseClaims(pairs []pair) {
	for _, it := range p.items {
		if it.fence != nil || tableRow(it.text) != nil || strings.HasPrefix(strings.TrimSpace(it.text), "#") {
			continue
		}
		for _, sc := range check.StatedChanges(stripTags(it.text)) {
			if deviceCount(sc) || !statesChange(sc) {
				continue // "90% of GPU memory", "2x or 4x MI300X": no change
			}
			if c, ok := bindStatement(sc, pairs, it.n); ok {
				p.s.addClaim(c)
			} else {
				p.s.addClaim(Claim{Kind: string(study.ClaimUnchecked), Printed: clip(sc.Clause, 120), Line: it.n})
			}
		}
	}
}

// comparisonWord says a clause compares two things.
var comparisonWord = regexp.MustCompile(`(?i)\b(?:than|compared|vs\.?|versus|relative|against|speed-?ups?|gains?|improvements?|uplift|boost)\b|\btimes (?:the|as|more|less|higher|lower|larger|faster)\b|\bas (?:many|much|large|high|fast|big|long)\b|相比|相较|比|より|比べ`)

// statesChange: a figure is a change when the clause says which way it
// goes, signs it, or sets two things against each other.
func statesChange(sc check.StatedChange) bool {
	return sc.Up != 0 || sc.Better != 0 || strings.HasPrefix(sc.Raw, "+") || strings.HasPrefix(sc.Raw, "-") ||
		strings.HasPrefix(sc.Raw, "−") || comparisonWord.MatchString(sc.Clause)
}

// deviceCount: "8 × MI300X" counts GPUs, it states no factor.
func deviceCount(sc check.StatedChange) bool {
	i := strings.Index(sc.Clause, sc.Raw)
	if !sc.Factor || i < 0 {
		return false
	}
	loc := gpuCountRE.FindStringIndex(sc.Clause[i:])
	return loc != nil && loc[0] == 0
}

// bindStatement makes the table claim of a stated change over the pairs
// that fit it best.
func bindStatement(sc check.StatedChange, pairs []pair, line int) (Claim, bool) {
	var best []Claim
	top := 0
	for _, pr := range pairs {
		score := relevance(sc, pr)
		if score == 0 || score < top {
			continue
		}
		if score > top {
			top, best = score, nil
		}
		best = append(best, statedClaim(sc, pr, line))
	}
	for _, c := range best {
		if checked, match := claims.TableHolds(toStudyClaim(c)); checked && match {
			return c, true
		}
	}
	// A table that prints a run's figures again offers the same pair twice.
	best = slices.CompactFunc(best, func(a, b Claim) bool { return a.From == b.From && a.To == b.To })
	if len(best) == 1 {
		return best[0], true
	}
	return Claim{}, false
}

// relevance is how well a pair fits a stated change: 3 for the metric the
// clause names, else one per word of the pair's label the clause shares
// (two at least), one more for its unit.
func relevance(sc check.StatedChange, pr pair) int {
	if sc.Metric != "" {
		switch {
		case pr.metric == sc.Metric:
			return 3
		case sc.Metric == "total_token_throughput" && genericThroughput(sc.Clause) && strings.HasSuffix(pr.metric, "_throughput"):
			return 3 // "26% higher throughput": of requests, output or all tokens
		}
		return 0
	}
	if pr.label == "" {
		return 0
	}
	clause := map[string]bool{}
	for _, w := range strings.Fields(norm(sc.Clause)) {
		clause[strings.TrimSuffix(w, "s")] = true
	}
	n := 0
	for _, w := range strings.Fields(pr.label) {
		if w = strings.TrimSuffix(w, "s"); len(w) > 1 && clause[w] {
			n++
		}
	}
	if n < 2 {
		return 0
	}
	if u := strings.TrimSuffix(pr.from.unit, "s"); u != "" && clause[u] {
		n++
	}
	return n
}

// genericThroughput: a clause saying "throughput" alone names no one of
// the throughputs a block prints.
func genericThroughput(clause string) bool {
	low := strings.ToLower(clause)
	return !strings.Contains(low, "total") && !strings.Contains(low, "token") && !strings.Contains(low, "tok/s")
}

// statedClaim is a stated change as a table claim over a pair. A sign the
// words give ("reduced by 40.5 %") is written as one; a lower-is-better
// metric the sentence says rose keeps no other reading than the change.
func statedClaim(sc check.StatedChange, pr pair, line int) Claim {
	c := Claim{Kind: "table", From: pr.from.String(), To: pr.to.String(), Line: line, Better: pr.better}
	if sc.Factor {
		c.Compare, c.Printed = study.CompareRatio, sc.Raw
		return c
	}
	num := strings.TrimLeft(strings.TrimSpace(strings.TrimRight(sc.Raw, "%％ ")), "+-−")
	sign := ""
	switch {
	case sc.Value < 0 || strings.HasPrefix(sc.Raw, "-") || strings.HasPrefix(sc.Raw, "−"):
		sign = "-"
	case strings.HasPrefix(sc.Raw, "+"):
		sign = "+"
	case sc.Up < 0:
		sign = "-"
	case sc.Better < 0 && pr.better == "higher":
		sign = "-"
	}
	if sc.Up > 0 && pr.better == "lower" {
		c.Better = ""
	}
	c.Printed = sign + num + "%"
	return c
}

func toStudyClaim(c Claim) study.Claim {
	return study.Claim{Kind: study.ClaimKind(c.Kind), From: c.From, To: c.To, Compare: c.Compare, Better: c.Better, Printed: c.Printed}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
