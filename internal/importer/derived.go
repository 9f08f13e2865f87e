package importer

// Derived figures: what a page computes from the figures it prints (a
// change column, a percentage in a sentence, a latency printed again in
// seconds, a utilisation of a link) becomes a table claim holding the
// two figures it derives from, so check redoes the arithmetic; one that
// cannot be tied to its inputs becomes an unchecked claim, so check says
// it went unchecked.

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/study"
)

var (
	// shareHeader names a column of shares of a whole: utilisation.
	shareHeader = regexp.MustCompile(`(?i)utili[sz]|efficien|% of|\bshare\b|of (?:peak|line|link)|usage`)
	// derivedHeader names a column derived from two others.
	derivedHeader = regexp.MustCompile(`(?i)change|improv|gain|speed-?up|differ|\bdiff\b|delta|Δ|\bvs\.?(?:\s|$)|versus|increase|decrease|reduc|uplift|boost|ratio|relative`)
	// wholeHeader names a column of the whole a share is of.
	wholeHeader = regexp.MustCompile(`(?i)bandwidth|peak|link|line rate|theoretical|capacity|\bmax`)
	// perGPUWord says a figure is per device: "tok/s per GPU", "/GPU".
	perGPUWord = regexp.MustCompile(`(?i)\bper[- ]?(?:gpu|npu|card|device)\b|/\s*(?:gpu|npu|card)\b`)
	// gpuCountHeader names a column of device counts: "GPUs", "# GPUs".
	gpuCountHeader = regexp.MustCompile(`(?i)^\s*(?:#\s*|num(?:ber of)?\s*)?(?:gpus?|npus?|cards?|devices?)\s*$`)
	// labelDevices is a count of devices in a row's label: "8x H200", "8 GPUs".
	labelDevices = regexp.MustCompile(`(?i)\b(\d{1,4})\s*(?:[x×]\s*[A-Z]|(?:gpus?|npus?|cards)\b)`)
	// cellNumber is a cell holding a figure, with its unit if printed.
	cellNumber = regexp.MustCompile(`^\**(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z][A-Za-z/ ]*)?\**$`)
	// labelUnitParen is the unit a label gives in parentheses: "Mean TTFT (sec)".
	labelUnitParen = regexp.MustCompile(`\(([^()]*)\)`)
	// wholeFigure is a whole stated in a label: "400 Gbps", "4×200 Gbps".
	wholeFigure = regexp.MustCompile(`(?:(\d+)\s*[x×]\s*)?(\d[\d,]*(?:\.\d+)?)\s*(Gbps|Gb/s|GB/s|Tbps|TB/s|MB/s|GiB/s)`)
)

// a figureCell is a figure of a table: its number, unit and line.
type figureCell struct {
	num, unit string
	line      int
}

func (f figureCell) String() string {
	if f.unit == "" {
		return f.num
	}
	return f.num + " " + f.unit
}

// pair is two figures of one metric the page compares: table cells or
// the values of two runs' result blocks.
type pair struct {
	metric, label string
	from, to      figureCell
	better        string
}

// labelUnit is the unit a column header or row label names: "(sec)",
// "(tok/s)", "GB/s".
func labelUnit(label string) string {
	for _, m := range labelUnitParen.FindAllStringSubmatch(label, -1) {
		if u := strings.TrimSpace(m[1]); claims.KnownUnit(u) {
			return u
		}
	}
	f := strings.Fields(label)
	if len(f) > 0 && claims.KnownUnit(f[len(f)-1]) {
		return f[len(f)-1]
	}
	return ""
}

// betterOf says which way a metric is better: lower for times, higher
// for rates; "" when the label does not say.
func betterOf(metric, label string) string {
	low := strings.ToLower(label)
	switch {
	case strings.HasSuffix(metric, "_ms"), strings.Contains(low, "latency"), strings.Contains(low, "duration"):
		return "lower"
	case metric != "", strings.Contains(low, "/s"), strings.Contains(low, "bandwidth"):
		return "higher"
	}
	return ""
}

// cellFigure reads a cell holding one figure; unit is the label's unit
// when the cell prints none.
func cellFigure(cell, unit string, line int) (figureCell, bool) {
	m := cellNumber.FindStringSubmatch(strings.TrimSpace(stripTags(cell)))
	if m == nil {
		return figureCell{}, false
	}
	u := strings.TrimSpace(m[2])
	if u != "" && !claims.KnownUnit(u) {
		return figureCell{}, false
	}
	if u == "" {
		u = unit
	}
	return figureCell{num: m[1], unit: u, line: line}, true
}

// derivedCompare is how a derived cell follows from its inputs, read from
// what it prints, or "" when it prints no derived figure.
func derivedCompare(cell string, share bool) string {
	c := strings.TrimSpace(stripTags(cell))
	switch {
	case c == "" || dashOnly(c):
		return ""
	case strings.ContainsAny(c, "%％"):
		if share {
			return study.CompareShare
		}
		return study.CompareChange
	case speedupWords.MatchString(c):
		return study.CompareChange
	case factorCell.MatchString(c):
		return study.CompareRatio
	case signedCell.MatchString(c) && !share:
		return study.CompareDifference
	}
	return ""
}

var (
	speedupWords = regexp.MustCompile(`(?i)^\d+(?:\.\d+)?\s*x\s+(?:faster|slower)$`)
	factorCell   = regexp.MustCompile(`(?i)^[x×]?\s*\d+(?:\.\d+)?\s*(?:x|×|times)$`)
	signedCell   = regexp.MustCompile(`^[+\-−]?\s*\d[\d,]*(?:\.\d+)?(?:\s*[A-Za-z/]+)?$`)
)

// derivedClaims reads the figures the page derives, in its tables and its
// sentences, as claims.
func (p *parser) derivedClaims() {
	pairs := p.derivedTables()
	pairs = append(pairs, p.runPairs()...)
	pairs = append(pairs, p.fencedPairs()...)
	p.proseClaims(pairs)
	sortClaims(p.s.Claims)
}

// derivedTables reads the derived columns of every table of the page.
func (p *parser) derivedTables() []pair {
	var pairs []pair
	for _, t := range tables(p.items) {
		pairs = append(pairs, p.derivedTable(t)...)
	}
	return pairs
}

// derivedTable reads one table. Its figures are compared along a row
// (metrics as rows, runs as columns: the baseline is the column a header
// names so, else the first) or down a column (runs as rows: the baseline
// is the row named so, else the only row without a change).
func (p *parser) derivedTable(t table) []pair {
	var pairs []pair
	kinds := make([]string, len(t.header)) // "derived", "share", "whole" or "" (a figure)
	for j, h := range t.header {
		switch {
		case j == 0:
			kinds[j] = "label"
		case perGPUWord.MatchString(h):
			kinds[j] = "pergpu"
		case gpuCountHeader.MatchString(stripTags(h)):
			kinds[j] = "count"
		case shareHeader.MatchString(h):
			kinds[j] = "share"
		case derivedHeader.MatchString(h):
			kinds[j] = "derived"
		case wholeHeader.MatchString(h):
			kinds[j] = "whole"
		}
	}
	baseRow := baseRow(t)
	for i, row := range t.rows {
		label := ""
		if len(row) > 0 {
			label = stripTags(row[0])
		}
		for j := 1; j < len(row) && j < len(kinds); j++ {
			if kinds[j] == "pergpu" {
				p.perGPUCell(t, kinds, i, j)
				continue
			}
			if kinds[j] != "derived" && kinds[j] != "share" {
				continue
			}
			compare := derivedCompare(row[j], kinds[j] == "share")
			if compare == "" {
				continue
			}
			printed := strings.TrimSpace(stripTags(row[j]))
			if p.claimed(t.lines[i], printed) {
				continue
			}
			c, pr, ok := p.derivedCell(t, kinds, i, j, baseRow, label, compare)
			if !ok {
				p.s.addClaim(Claim{Kind: string(study.ClaimUnchecked), Printed: printed, Line: t.lines[i]})
				continue
			}
			c.Printed = printed
			p.s.addClaim(c)
			if pr.metric != "" || pr.label != "" {
				pairs = append(pairs, pr)
			}
		}
		pairs = append(pairs, p.sameAsRuns(t, kinds, i, label)...)
	}
	return pairs
}

// derivedCell ties the derived cell (i, j) to the two figures it is
// computed from.
func (p *parser) derivedCell(t table, kinds []string, i, j, baseRow int, label, compare string) (Claim, pair, bool) {
	row := t.rows[i]
	line := t.lines[i]
	if compare == study.CompareShare {
		return p.shareCell(t, kinds, i, j)
	}
	// Figure columns left of the derived one.
	var cols []int
	for k := 1; k < j; k++ {
		if kinds[k] == "" {
			cols = append(cols, k)
		}
	}
	if len(cols) >= 2 {
		base := cols[0]
		for _, k := range cols {
			if baselineRow.MatchString(t.header[k]) || vsNames(t.header[j], t.header[k]) {
				base = k
				break
			}
		}
		to := cols[len(cols)-1]
		if to == base {
			to = cols[len(cols)-2]
		}
		if b, tt, ok := namedPair(t.header, cols, t.header[j]); ok {
			base, to = b, tt // "TP8+DCP8 vs TP8": the header names both
		}
		unit := labelUnit(label)
		from, ok1 := cellFigure(row[base], cmpOr(labelUnit(t.header[base]), unit), line)
		toF, ok2 := cellFigure(row[to], cmpOr(labelUnit(t.header[to]), unit), line)
		if !ok1 || !ok2 {
			return Claim{}, pair{}, false
		}
		metric := check.MetricNamed(label)
		pr := pair{metric: metric, label: norm(label), from: from, to: toF, better: betterOf(metric, label)}
		return Claim{Kind: "table", From: from.String(), To: toF.String(), Compare: compare, Better: pr.better, Line: line}, pr, true
	}
	if len(cols) == 1 && baseRow >= 0 && baseRow != i && cols[0] < len(t.rows[baseRow]) {
		k := cols[0]
		unit := labelUnit(t.header[k])
		from, ok1 := cellFigure(t.rows[baseRow][k], unit, t.lines[baseRow])
		toF, ok2 := cellFigure(row[k], unit, line)
		if !ok1 || !ok2 {
			return Claim{}, pair{}, false
		}
		metric := check.MetricNamed(t.header[k])
		return Claim{Kind: "table", From: from.String(), To: toF.String(), Compare: compare, Better: betterOf(metric, t.header[k]), Line: line}, pair{}, true
	}
	return Claim{}, pair{}, false
}

// shareCell ties a share (a utilisation) to the figure left of it and the
// whole it is a share of: a column of the whole, or a whole the row's
// label or the share's header states ("of 4×200 Gbps").
func (p *parser) shareCell(t table, kinds []string, i, j int) (Claim, pair, bool) {
	row := t.rows[i]
	line := t.lines[i]
	var whole figureCell
	found := false
	for k := 1; k < len(row) && k < len(kinds); k++ {
		if kinds[k] == "whole" {
			whole, found = cellFigure(row[k], labelUnit(t.header[k]), line)
			break
		}
	}
	if !found {
		for _, src := range []string{t.header[j], row[0]} {
			if m := wholeFigure.FindStringSubmatch(stripTags(src)); m != nil {
				whole, found = figureCell{num: m[2], unit: m[3], line: line}, true
				if m[1] != "" {
					// "4×200 Gbps": four links of 200 Gbps, exact in both factors.
					whole.num = linksTotal(m[1], m[2])
				}
				break
			}
		}
	}
	if !found {
		return Claim{}, pair{}, false
	}
	// The part is a figure left of the share: the one it holds for, else
	// the only one; several that it fits none of leave it unchecked.
	var fits []Claim
	for k := j - 1; k >= 1; k-- {
		part, ok := cellFigure(row[k], labelUnit(t.header[k]), line)
		if kinds[k] != "" || !ok || part.unit == "" || whole.unit == "" {
			continue // a share of a bandwidth needs both units
		}
		c := Claim{Kind: "table", From: whole.String(), To: part.String(), Compare: study.CompareShare, Printed: strings.TrimSpace(stripTags(row[j])), Line: line}
		if checked, match := claims.TableHolds(toStudyClaim(c)); checked && match {
			return c, pair{}, true
		}
		fits = append(fits, c)
	}
	if len(fits) == 1 {
		return fits[0], pair{}, true
	}
	return Claim{}, pair{}, false
}

// perGPUCell ties a figure per GPU to the figure left of it of the same
// kind and the row's GPU count (a column of counts, else the label's
// "8x H200"); without both it is left unchecked.
func (p *parser) perGPUCell(t table, kinds []string, i, j int) {
	row, line := t.rows[i], t.lines[i]
	printed := strings.TrimSpace(stripTags(row[j]))
	got, ok := cellFigure(strings.TrimSuffix(printed, "/GPU"), "", line)
	if !ok || p.claimed(line, printed) {
		return
	}
	gpus := ""
	for k := 1; k < len(row) && k < len(kinds); k++ {
		if n := strings.TrimSpace(stripTags(row[k])); kinds[k] == "count" && plainFigure.MatchString(n) {
			gpus = n
		}
	}
	if m := labelDevices.FindStringSubmatch(stripTags(row[0])); gpus == "" && m != nil {
		gpus = m[1]
	}
	unit := cmpOr(got.unit, labelUnit(perGPUWord.ReplaceAllString(t.header[j], "")))
	for k := j - 1; k >= 1 && gpus != ""; k-- {
		total, ok := cellFigure(row[k], labelUnit(t.header[k]), line)
		if kinds[k] != "" || !ok || total.unit != unit {
			continue
		}
		p.s.addClaim(Claim{Kind: "table", From: gpus, To: total.String(), Compare: study.CompareQuotient, Printed: printed, Line: line})
		return
	}
	p.s.addClaim(Claim{Kind: string(study.ClaimUnchecked), Printed: printed, Line: line})
}

// linksTotal is count × each, printed at each's decimals: "4", "200" is
// "800"; "" when either is no number.
func linksTotal(count, each string) string {
	n, err1 := strconv.Atoi(count)
	v, err2 := strconv.ParseFloat(strings.ReplaceAll(each, ",", ""), 64)
	if err1 != nil || err2 != nil {
		return ""
	}
	dec := 0
	if i := strings.IndexByte(each, '.'); i >= 0 {
		dec = len(each) - i - 1
	}
	return strconv.FormatFloat(float64(n)*v, 'f', dec, 64)
}

// namedPair finds the two figure columns a derived header names, "B vs
// A" or "A → B": the one after "vs" (or first of an arrow) is the base.
func namedPair(header []string, cols []int, derived string) (base, to int, ok bool) {
	low := " " + norm(strings.NewReplacer("→", " to ", "->", " to ").Replace(derived)) + " "
	at := map[int]int{}
	for _, k := range cols {
		if h := norm(header[k]); h != "" {
			if i := strings.Index(low, " "+h+" "); i >= 0 {
				at[k] = i
			}
		}
	}
	if len(at) != 2 {
		return 0, 0, false
	}
	var ks []int
	for k := range at {
		ks = append(ks, k)
	}
	first, second := ks[0], ks[1]
	if at[first] > at[second] {
		first, second = second, first
	}
	if strings.Contains(low, " vs ") || strings.Contains(low, " versus ") || strings.Contains(low, " over ") {
		return second, first, true
	}
	return first, second, true
}

// vsNames: a header "vs TP8" or "vs. baseline" names the column it
// compares with.
func vsNames(derivedHeader, header string) bool {
	low := norm(derivedHeader)
	i := strings.Index(low, "vs ")
	return i >= 0 && strings.TrimSpace(low[i+3:]) == norm(header)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// claimed reports whether a claim already holds a cell of a line.
func (p *parser) claimed(line int, printed string) bool {
	for _, c := range p.s.Claims {
		if c.Line == line && strings.Contains(printed, strings.TrimSpace(c.Printed)) {
			return true
		}
	}
	return false
}
