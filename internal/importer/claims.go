package importer

import (
	"regexp"
	"sort"
	"strings"
)

// cellPart is one line of a table cell: a labelled value such as
// "Total TPS: 3019.19x2" and the change printed after it, if any.
type cellPart struct {
	value  string // "Total TPS: 3019.19x2", "Mean latency: 1.50s/req", "5.32s"
	change string // "+59.2%", "1.23x faster", "Success rate: 51.5%, optimization skipped"
}

var (
	changeParen = regexp.MustCompile(`\(([^()]*(?:%|x\s+(?:faster|slower)|[Ss]uccess rate)[^()]*)\)\s*$`)
	changeBare  = regexp.MustCompile(`^\s*([+\-−]?\d+(?:\.\d+)?\s*%(?:\s*/\s*GPU)?|\d+(?:\.\d+)?x\s+(?:faster|slower))\s*$`)
	hasDigit    = regexp.MustCompile(`\d`)
)

func cellParts(cell string) []cellPart {
	var out []cellPart
	for _, piece := range strings.Split(stripTags(cell), "\n") {
		piece = strings.TrimSpace(piece)
		if piece == "" || piece == "-" {
			continue
		}
		var cp cellPart
		if m := changeBare.FindStringSubmatch(piece); m != nil {
			cp.change = m[1]
		} else if loc := changeParen.FindStringSubmatchIndex(piece); loc != nil {
			cp.change = strings.TrimSpace(piece[loc[2]:loc[3]])
			cp.value = strings.TrimSpace(piece[:loc[0]])
		} else {
			cp.value = piece
		}
		if cp.value != "" && !hasDigit.MatchString(cp.value) {
			cp.value = ""
		}
		if cp.value != "" || cp.change != "" {
			out = append(out, cp)
		}
	}
	return out
}

// changeClaim returns the kind and printed text of a change, or "" when the
// change is a success-rate note.
func changeClaim(change string) (kind, printed string) {
	if i := strings.Index(strings.ToLower(change), "success rate"); i >= 0 {
		t := change[i:]
		if j := strings.Index(t, ","); j > 0 {
			t = t[:j]
		}
		return "success-rate", strings.TrimSpace(t)
	}
	// "+7.60%, lower than previous +9.75%, optimization skipped": the
	// figure is the change; the words after it annotate it.
	if m := annotatedChange.FindStringSubmatch(change); m != nil {
		return "", m[1]
	}
	return "", change
}

var annotatedChange = regexp.MustCompile(`^\s*([+\-−]?\d+(?:\.\d+)?\s*%(?:\s*/\s*GPU)?|\d+(?:\.\d+)?x\s+(?:faster|slower))\s*[,;]`)

// conclusionClaims imports the comparison table of the conclusion.
func (p *parser) conclusionClaims() {
	if p.recommended != "" {
		p.s.addClaim(Claim{Kind: "command", Printed: p.recommended, Line: p.recommendedLine})
	}
	t := p.table
	if t == nil {
		return
	}
	bc, oc := colIndex(t.header, "baseline"), colIndex(t.header, "optimized")
	for i, row := range t.rows {
		n := t.lines[i]
		if len(row) == 0 {
			continue
		}
		w := p.labelWorkload(row[0], false)
		if w == nil {
			p.s.note(n, "row %q of the comparison table names no workload with results; its figures are not imported", row[0])
			continue
		}
		for _, cc := range []struct {
			col    int
			config string
		}{{bc, "baseline"}, {oc, "recommended"}} {
			col, config := cc.col, cc.config
			if col < 0 || col >= len(row) {
				continue
			}
			for _, cp := range cellParts(row[col]) {
				if cp.value != "" {
					p.s.addClaim(Claim{Kind: "value", Workload: w.ID, Config: config, Printed: cp.value, Line: n})
				}
				if cp.change != "" {
					if kind, printed := changeClaim(cp.change); kind == "" {
						p.s.addClaim(Claim{Kind: "conclusion", Workload: w.ID, Printed: printed, Line: n})
					} else {
						p.s.note(n, "%q in the comparison table is not imported", cp.change)
					}
				}
			}
		}
	}
}

func (p *parser) summaryCols(t *table) (stepCol, baseCol int) {
	stepCol = colIndex(t.header, "group")
	if stepCol < 0 {
		stepCol = colIndex(t.header, "option")
	}
	if stepCol < 0 {
		stepCol = 0
	}
	return stepCol, colIndex(t.header, "baseline")
}

// rowStep finds the step a row of the summary of options names.
func (p *parser) rowStep(row []string, col int) *Step {
	if col >= len(row) {
		return nil
	}
	name := norm(row[col])
	var best *Step
	bestScore := 0.0
	for _, st := range p.s.Steps {
		t := norm(st.Title)
		if t == name || norm(stepID(st.Title)) == name {
			return st
		}
		if sc := similarity(name, t); sc > bestScore {
			best, bestScore = st, sc
		}
	}
	if bestScore >= 0.5 {
		return best
	}
	return nil
}

var stopWords = map[string]bool{"the": true, "in": true, "of": true, "and": true, "a": true, "choosing": true, "selection": true,
	"vllm": true, "sglang": true, "tensorrt": true, "llm": true, "trt": true, "number": true, "numbers": true, "num": true}

func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		w = strings.TrimSuffix(w, "s")
		if !stopWords[w] && w != "" {
			out = append(out, w)
		}
	}
	return out
}

// similarity is the share of the shorter name's words found, allowing a
// typo, in the other.
func similarity(a, b string) float64 {
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	common := 0
	for _, x := range wa {
		for _, y := range wb {
			if x == y || (len(x) > 4 && editDistance(x, y) <= 1) {
				common++
				break
			}
		}
	}
	return float64(common)/float64(len(wa)) - 0.01*float64(len(wb)-len(wa))
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// accuracyLoss is a sentence stating how much accuracy quantisation costs:
// "FP8 quantization can achieve less than 1% accuracy drop".
var accuracyLoss = regexp.MustCompile(`(?i)\b(?:less than|under|below|within)\s+(\d+(?:\.\d+)?\s?%)\s+(?:of\s+)?accuracy\s+(?:drop|loss|degradation)`)

// accuracyClaims imports the accuracy figures of the conclusion's notes as
// claims about the recommended configuration: check then says whether the
// study's accuracy results back them, or that none does.
func (p *parser) accuracyClaims(items []line) {
	for _, it := range items {
		if it.fence != nil {
			continue
		}
		if m := accuracyLoss.FindStringSubmatch(it.text); m != nil {
			p.s.addClaim(Claim{Kind: "accuracy", Printed: strings.ReplaceAll(m[1], " ", ""), Line: it.n})
		}
	}
}

// summaryClaims imports the summary of optimisation options.
func (p *parser) summaryClaims() {
	t := p.summary
	if t == nil {
		return
	}
	stepCol, baseCol := p.summaryCols(t)
	optCol := colIndex(t.header, "optimized")
	changeCol := colIndex(t.header, "improvement")
	if changeCol < 0 {
		changeCol = colIndex(t.header, "comparison")
	}
	if changeCol < 0 {
		changeCol = colIndex(t.header, "change")
	}
	if changeCol < 0 && optCol < 0 && len(t.header) == 2 {
		changeCol = 1
	}
	for i, row := range t.rows {
		n := t.lines[i]
		var parts []struct {
			col    int
			config string
		}
		for _, c := range []struct {
			col    int
			config string
		}{{optCol, "best"}, {baseCol, "reference"}, {changeCol, ""}} {
			if c.col >= 0 && c.col < len(row) && c.col != stepCol {
				parts = append(parts, c)
			}
		}
		// "Total(vs Baseline)" states the conclusion's change on the main workload.
		if stepCol < len(row) && strings.HasPrefix(norm(row[stepCol]), "total") {
			for _, c := range parts {
				for _, cp := range cellParts(row[c.col]) {
					if kind, printed := changeClaim(cp.change); cp.change != "" && kind == "" && p.mainID() != "" {
						p.s.addClaim(Claim{Kind: "conclusion", Workload: p.mainID(), Printed: printed, Line: n})
					}
				}
			}
			continue
		}
		st := p.rowStep(row, stepCol)
		if changeCol >= 0 && changeCol < len(row) && changeCol != stepCol && dashOnly(row[changeCol]) {
			// "-": the option brought no gain. An option that no section
			// measures is kept as a step without runs, so no row is lost.
			if st == nil && stepCol < len(row) && strings.TrimSpace(stripTags(row[stepCol])) != "" {
				title := strings.TrimSpace(stripTags(row[stepCol]))
				st = &Step{ID: stepID(title), Title: title, Line: n}
				if p.stepByID(st.ID) != nil {
					st = p.stepByID(st.ID)
				} else {
					p.s.Steps = append(p.s.Steps, st)
					p.s.note(n, "option %q of the summary has no section of its own: imported as step %s with no runs", title, st.ID)
				}
			}
			if st != nil {
				p.s.addClaim(Claim{Kind: "step", Step: st.ID, Printed: strings.TrimSpace(stripTags(row[changeCol])), Line: n})
			}
			continue
		}
		for _, c := range parts {
			for _, cp := range cellParts(row[c.col]) {
				if st == nil {
					p.s.note(n, "row %q of the summary of options names no step of the report; its figures are not imported", row[stepCol])
					break
				}
				if cp.value != "" && c.config != "" {
					p.s.addClaim(Claim{Kind: "value", Step: st.ID, Config: c.config, Printed: cp.value, Line: n})
				}
				if cp.change == "" {
					continue
				}
				kind, printed := changeClaim(cp.change)
				if kind == "" {
					p.s.addClaim(Claim{Kind: "step", Step: st.ID, Printed: printed, Line: n})
					continue
				}
				// A success rate is about the run the row shows.
				run := ""
				for _, id := range st.Runs {
					r := p.s.run(id)
					if _, got, ok := p.headline(r, p.mainID()); ok && cp.value != "" && sameNumber(got, firstNumber(cp.value)) {
						run = id
						break
					}
				}
				if run == "" && len(st.Runs) > 0 {
					run = st.Runs[0]
				}
				if run != "" {
					p.s.addClaim(Claim{Kind: kind, Run: run, Printed: printed, Line: n})
				}
			}
		}
	}
}

func sortClaims(c []Claim) {
	sort.SliceStable(c, func(i, j int) bool { return c[i].Line < c[j].Line })
}

// dashOnly reports whether a table cell holds nothing but a dash.
func dashOnly(cell string) bool {
	switch strings.TrimSpace(stripTags(cell)) {
	case "-", "–", "—":
		return true
	}
	return false
}
