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
			add := func(sc StatedChange, at int) {
				// A bracket closes what a figure speaks of: "(43% faster
				// token generation, 26% higher throughput) with minimal
				// latency cost" names no latency for the 26%.
				var before string
				sc.Clause, before = bracketed(c, at)
				if sc.Metric = metricIn(sc.Clause); sc.Metric == "" {
					sc.Metric = metricIn(before) // "Throughput rose to 1.5 (+25.0%)"
				}
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
				add(StatedChange{Raw: strings.TrimSpace(c[loc[0]:loc[1]]), Value: v, Decimals: decimalsOf(num)}, loc[0])
			}
			if mayStateFactor(strings.ToLower(c)) {
				for _, f := range factors(c) {
					if f.Decimal >= 0 {
						add(StatedChange{Raw: f.Raw, Value: f.Value, Decimals: f.Decimal, Factor: true}, strings.Index(c, f.Raw))
					}
				}
			}
		}
	}
	return out
}

// bracketed is the part of a clause around position at that no bracket
// separates from it, and what comes before that part.
func bracketed(c string, at int) (string, string) {
	at = max(at, 0)
	start := strings.LastIndexAny(c[:at], "()（）") + 1
	for start < len(c) && c[start] >= 0x80 && !utf8Start(c[start]) {
		start++
	}
	end := len(c)
	if i := strings.IndexAny(c[at:], "()（）"); i >= 0 {
		end = at + i
	}
	return strings.TrimSpace(c[start:end]), c[:start]
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

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
