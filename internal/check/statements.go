package check

import (
	"strconv"
	"strings"
)

// StatedChange is a change a sentence states about two figures: "43 %
// faster", "reduced TTFT by 40.5 %", "8 times the KV cache". It is what
// the prose reader finds, for a reader of published documents (import)
// to bind to the figures the document prints; it says nothing of whether
// the change holds.
type StatedChange struct {
	Raw      string  // as printed: "43%", "-40.5 %", "8 times"
	Value    float64 // signed when the sentence prints a sign
	Decimals int
	Factor   bool // a factor ("8 times", "1.3x"); else a percentage
	// Up is +1 when the sentence's words say the figure rose or got
	// better, -1 when it fell or got worse, 0 when they do not say.
	Up, Better int
	Metric     string // the metric the clause names, as a metric key, or ""
	Clause     string // the clause around the figure
}

// StatedChanges reads the changes of one line of prose, sentence by
// sentence and clause by clause, with the words of the prose checks.
func StatedChanges(line string) []StatedChange {
	line = foldDigits(dropListMarker(proseCode.ReplaceAllString(dropLinkTargets(line), "")))
	var out []StatedChange
	for _, s := range splitSentences(line) {
		for _, c := range splitClauses(s) {
			metric := metricIn(c)
			add := func(sc StatedChange) {
				sc.Metric, sc.Clause = metric, strings.TrimSpace(c)
				sc.Up, sc.Better = wordSign(upWord, downWord, c), wordSign(betterWord, worseWord, c)
				out = append(out, sc)
			}
			for _, loc := range percentWord.FindAllStringSubmatchIndex(c, -1) {
				if glued(c, loc[0]-1) {
					continue
				}
				num := c[loc[4]:loc[5]]
				v, err := strconv.ParseFloat(num, 64)
				if err != nil {
					continue
				}
				if sign := c[loc[2]:loc[3]]; sign == "-" || sign == "−" {
					v = -v
				}
				add(StatedChange{Raw: strings.TrimSpace(c[loc[0]:loc[1]]), Value: v, Decimals: decimalsOf(num)})
			}
			if mayStateFactor(strings.ToLower(c)) {
				for _, f := range factors(c) {
					if f.Decimal >= 0 {
						add(StatedChange{Raw: f.Raw, Value: f.Value, Decimals: f.Decimal, Factor: true})
					}
				}
			}
		}
	}
	return out
}

func wordSign(plus, minus interface{ FindString(string) string }, c string) int {
	p, m := plus.FindString(c) != "", minus.FindString(c) != ""
	switch {
	case p && !m:
		return 1
	case m && !p:
		return -1
	}
	return 0
}

func decimalsOf(num string) int {
	if i := strings.IndexByte(num, '.'); i >= 0 {
		return len(num) - i - 1
	}
	return 0
}

// MetricNamed is the metric a label or clause names, as a metric key
// ("mean_ttft_ms", "output_throughput"), or "".
func MetricNamed(s string) string { return metricIn(s) }
