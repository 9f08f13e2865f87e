package check

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// RuleDrift: a translation must state the same figures, settings and names
// as the English prose of its section.
const RuleDrift = "translation-drift"

// A fact is something prose states that no translation may change: a
// figure, a precision (FP8), a parallel size (TP4), a GPU, an engine, a flag.
type fact struct {
	key  string // canonical: "FP8", "TP4", "A100", "engine:sglang", "--max-num-seqs", "59.2%"
	line int
	// counted: a whole number that counts something in Chinese or
	// Japanese ("1 バッチ", "2 つ", "8 张"): a figure the English may say in
	// words ("per batch", "two"), so it is drift only against an English
	// figure, never on its own.
	counted bool
}

var (
	precisionWord = regexp.MustCompile(`(?i)\b(fp8|fp4|nvfp4|mxfp4|int4|int8|w8a16|w4a16|w8a8|w4a8|awq|gptq|bf16|fp16)\b`)
	parallelWord  = regexp.MustCompile(`(?i)\b(tp|ep|dp|pp)[ =-]?(\d+)\b`)
	gpuWord       = regexp.MustCompile(`\b([ABHL]\d{2,3}S?)\b`)
	flagWord      = regexp.MustCompile(`(?:^|[\s\x60(])(--[a-z][a-z0-9_-]+)`)
	listMarker    = regexp.MustCompile(`^\s*\d+[.)]\s`)
	// figureSign drops what figures normalise away.
	figureSign = strings.NewReplacer(",", "", " ", "", "％", "%")
)

// The patterns run on every line of prose; each test below is true of
// every line a pattern matches, and cheap: most lines skip the pattern.

// dropListMarker removes a numbered list's marker ("1. ") from a line.
func dropListMarker(line string) string {
	t := strings.TrimLeft(line, " \t\n\f\r") // \s
	if t == "" || t[0] < '0' || t[0] > '9' {
		return line
	}
	return listMarker.ReplaceAllString(line, "")
}

// mayNameGPU: gpuWord needs one of A, B, H, L before a digit.
func mayNameGPU(line string) bool {
	for i := 0; i+1 < len(line); i++ {
		if c := line[i]; (c == 'A' || c == 'B' || c == 'H' || c == 'L') && line[i+1] >= '0' && line[i+1] <= '9' {
			return true
		}
	}
	return false
}

// mayNamePrecision: every precisionWord but AWQ and GPTQ has a Latin
// letter right before a digit (FP8, INT4, W8A16); none of their letters
// has another case that (?i) would read.
func mayNamePrecision(line string) bool {
	for i := 0; i+1 < len(line); i++ {
		if c := line[i] | 0x20; c >= 'a' && c <= 'z' && isDigit(line[i+1]) {
			return true
		}
	}
	low := strings.ToLower(line)
	return strings.Contains(low, "awq") || strings.Contains(low, "gptq")
}

// mayNameParallel: parallelWord needs TP, EP, DP or PP in any case, then
// a digit, at once or after one of " =-".
func mayNameParallel(line string) bool {
	for i := 1; i+1 < len(line); i++ {
		if line[i]|0x20 != 'p' {
			continue
		}
		if c := line[i-1] | 0x20; c != 't' && c != 'e' && c != 'd' && c != 'p' {
			continue
		}
		if d := line[i+1]; isDigit(d) || (d == ' ' || d == '=' || d == '-') && i+2 < len(line) && isDigit(line[i+2]) {
			return true
		}
	}
	return false
}

// facts lists what a section states, line by line from its first line.
func facts(sec study.Section) []fact {
	var out []fact
	for i, line := range strings.Split(sec.Markdown, "\n") {
		n := sec.TextLine + i
		if strings.Contains(line, "](") {
			line = dropLinkTargets(line)
		}
		line = foldDigits(dropListMarker(line))
		// Prose is mostly words: the patterns run only on lines that
		// could hold what they look for.
		digits := strings.ContainsAny(line, "0123456789")
		if digits {
			var factors, magnitudes []fact
			factors, line = factorFacts(line, n)
			magnitudes, line = magnitudeFacts(line, n)
			out = append(append(out, factors...), magnitudes...)
		}
		if mayNamePrecision(line) {
			for _, m := range precisionWord.FindAllString(line, -1) {
				out = append(out, fact{key: strings.ToUpper(m), line: n})
			}
		}
		if digits {
			if mayNameParallel(line) {
				for _, m := range parallelWord.FindAllStringSubmatch(line, -1) {
					out = append(out, fact{key: strings.ToUpper(m[1]) + m[2], line: n})
				}
			}
			if mayNameGPU(line) {
				for _, m := range gpuWord.FindAllString(line, -1) {
					out = append(out, fact{key: m, line: n})
				}
			}
			for _, loc := range figureSpans(line) {
				if f, ok := figureAt(line, loc); ok {
					out = append(out, fact{key: f, line: n, counted: countedAt(line, loc)})
				}
			}
		}
		if strings.Contains(line, "--") {
			for _, m := range flagWord.FindAllStringSubmatch(line, -1) {
				out = append(out, fact{key: strings.ReplaceAll(m[1], "_", "-"), line: n})
			}
		}
		for _, e := range enginesIn(line) {
			out = append(out, fact{key: "engine:" + e.Name, line: n})
		}
	}
	return out
}

// mayHaveNumericFactor: numericFactor needs a digit, then at once or
// after one space x, ×, 倍, "fold" or "times".
func mayHaveNumericFactor(line string) bool {
	for i := 0; i+1 < len(line); i++ {
		if !isDigit(line[i]) {
			continue
		}
		j := i + 1
		for j < len(line) && strings.IndexByte(" \t\n\f\r-", line[j]) >= 0 {
			j++
		}
		if j < len(line) && (line[j] == 'x' || line[j] == 'f' || line[j] == 't' || strings.HasPrefix(line[j:], "×") || strings.HasPrefix(line[j:], "倍")) {
			return true
		}
	}
	return false
}

// magnitudeFacts reads a figure written with a magnitude ("0.46 万
// tok/s", "4.6k tok/s") as its value, one fact in every language, and
// blanks it for figures.
func magnitudeFacts(line string, n int) ([]fact, string) {
	if !strings.ContainsAny(line, "万千亿億kK") {
		return nil, line
	}
	var out []fact
	for _, q := range quantities(line) {
		if q.Magnitude != "" {
			out = append(out, fact{key: strconv.FormatFloat(q.Value, 'f', -1, 64), line: n})
			line = strings.Replace(line, q.Raw, " ", 1)
		}
	}
	return out, line
}

// factorFacts reads the factors of a line ("1.27x", "1.27 倍") as one
// fact, "×1.27", and blanks them for figures; a whole factor up to ten
// is left out, as a translation may say it in words ("doubles", "2倍").
func factorFacts(line string, n int) ([]fact, string) {
	if !mayHaveNumericFactor(line) {
		return nil, line
	}
	var out []fact
	for _, f := range factors(line) {
		if f.Decimal < 0 {
			continue
		}
		if f.Exact || f.Value > 10 {
			out = append(out, fact{key: "×" + strconv.FormatFloat(f.Value, 'f', -1, 64), line: n})
		}
		line = strings.Replace(line, f.Raw, " ", 1)
	}
	return out, line
}

// engineSpellings are, lower case, the ways prose names an engine, in
// the order of serving.Engines (as serving.NamedAll finds them, without its
// regular expressions: every line of prose is searched).
var engineSpellings = []struct {
	id        string
	spellings []string
}{
	{"vllm", []string{"vllm"}},
	{"sglang", []string{"sglang"}},
	{"trtllm", []string{"tensorrt-llm", "tensorrt llm", "tensorrt_llm", "tensorrtllm", "trt-llm", "trtllm", "trt_llm", "trt llm"}},
	{"mindie", []string{"mindie"}},
	{"lmdeploy", []string{"lmdeploy"}},
	{"llamacpp", []string{"llama.cpp", "llama-server", "llamacpp"}},
	{"tgi", []string{"text-generation-inference", "tgi"}},
}

// enginesIn lists the engines a line of prose names.
func enginesIn(line string) []*serving.Engine { return enginesInLower(lowerForSpellings(line)) }

// enginesInLower is enginesIn on a line lowered for the spellings.
func enginesInLower(low string) []*serving.Engine {
	var out []*serving.Engine
	for _, e := range engineSpellings {
		for _, sp := range e.spellings {
			if i := strings.Index(low, sp); i >= 0 && (sp != "tgi" || wordAt(low, i, len(sp))) {
				out = append(out, serving.ByID(e.id))
				break
			}
		}
	}
	return out
}

// lowerForSpellings is strings.ToLower(line) as far as engineSpellings
// and wordAt can tell: the same ASCII letters and digits, in the same
// order, with the same neighbours; other bytes may differ. Only ASCII
// letters are lowered, in one pass instead of one per rune, unless the
// line holds one of the two runes that ToLower makes ASCII, the Kelvin
// sign (k) and the dotted capital I (i and a dot above).
func lowerForSpellings(line string) string {
	if strings.Contains(line, "\u212a") || strings.Contains(line, "\u0130") {
		return strings.ToLower(line)
	}
	i := 0
	for i < len(line) && !('A' <= line[i] && line[i] <= 'Z') {
		i++
	}
	if i == len(line) {
		return line
	}
	b := []byte(line)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

// wordAt reports whether the n bytes at i of s stand as a word.
func wordAt(s string, i, n int) bool {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	return (i == 0 || !letter(s[i-1])) && (i+n == len(s) || !letter(s[i+n]))
}

// figures are the numbers of a line that stand alone, normalised: no
// sign, no thousands separator, "%" for any percent sign.
func figures(line string) []string {
	var out []string
	for _, loc := range figureSpans(line) {
		if f, ok := figureAt(line, loc); ok {
			out = append(out, f)
		}
	}
	return out
}

// figureAt is the figure a span of figureSpans holds, normalised; false
// when the span is glued to a word (v0.11, FP8, 32k).
func figureAt(line string, loc [2]int) (string, bool) {
	if glued(line, loc[0]-1) || glued(line, loc[1]) {
		return "", false
	}
	return figureSign.Replace(strings.TrimLeft(line[loc[0]:loc[1]], "+-−")), true
}

// countedAt reports whether the figure at loc is a whole number followed,
// at once or after one space, by a Chinese or Japanese counter or unit
// word: a Han or katakana word, or the counter つ ("1 バッチ", "1 回",
// "2 つ", "8 张"). Particles (の, と, で...) count nothing.
func countedAt(line string, loc [2]int) bool {
	for i := loc[0]; i < loc[1]; i++ {
		if !isDigit(line[i]) {
			return false // a sign, a decimal point, a separator or a percent: a measured figure
		}
	}
	rest := strings.TrimPrefix(line[loc[1]:], " ")
	r, _ := utf8.DecodeRuneInString(rest)
	return r == 'つ' || unicode.Is(unicode.Han, r) || unicode.Is(unicode.Katakana, r) && r != 'ー'
}

// figureSpans finds what `[+\-−]?\d+(?:[.,]\d+)*(?:\s?[%％])?` finds, the
// figures of a line with their sign and percent sign, as [start, end)
// pairs, without the pattern's cost on every line of prose;
// FuzzFigureSpans holds it to the pattern.
func figureSpans(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		start := i
		switch {
		case isDigit(s[i]):
		case (s[i] == '+' || s[i] == '-') && i+1 < len(s) && isDigit(s[i+1]):
			i++
		case strings.HasPrefix(s[i:], "−") && i+3 < len(s) && isDigit(s[i+3]):
			i += 3
		default:
			i++
			continue
		}
		i = skipDigits(s, i)
		for i+1 < len(s) && (s[i] == '.' || s[i] == ',') && isDigit(s[i+1]) {
			i = skipDigits(s, i+1)
		}
		j := i
		if j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f' || s[j] == '\r') { // \s
			j++
		}
		switch {
		case strings.HasPrefix(s[j:], "%"):
			i = j + 1
		case strings.HasPrefix(s[j:], "％"):
			i = j + len("％")
		}
		out = append(out, [2]int{start, i})
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// dropLinkTargets replaces each `\]\([^)]*\)` of a line, a link's target,
// with "]".
func dropLinkTargets(s string) string {
	var b strings.Builder
	kept := 0 // s[:kept] is in b
	for i := 0; ; {
		j := strings.Index(s[i:], "](")
		if j < 0 {
			break
		}
		open := i + j
		end := strings.IndexByte(s[open+2:], ')')
		if end < 0 {
			break // no later "](" has a ")" after it either
		}
		b.WriteString(s[kept : open+1])
		kept = open + 2 + end + 1
		i = kept
	}
	if kept == 0 {
		return s
	}
	b.WriteString(s[kept:])
	return b.String()
}

// glued reports whether the byte at i is a Latin letter, a digit or a dot
// joined to a figure (v0.11, FP8, 32k).
func glued(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	switch c := s[i]; {
	case c == '.':
		// A dot that ends a sentence is no part of the figure; one
		// between two figures is (a version).
		return i > 0 && alnum(s[i-1]) && i+1 < len(s) && alnum(s[i+1])
	default:
		return alnum(c) || c == '_' || c == '/'
	}
}

// Drift compares each section of the zh and ja prose with the English one:
// a fact the translation states and the English does not is an error on
// its line; one the English states and the translation drops is an error
// on the translation's section.
func Drift(content map[string]map[string]*study.Content, root string) []Diagnostic {
	ids := make([]string, 0, len(content["en"]))
	for id := range content["en"] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	// Each study on its own: a build waits for this before rendering.
	byStudy := make([][]Diagnostic, len(ids))
	workers.Each(len(ids), func(i int) { byStudy[i] = driftStudy(content, root, ids[i]) })
	return slices.Concat(byStudy...)
}

// driftStudy is Drift for one study.
func driftStudy(content map[string]map[string]*study.Content, root, id string) []Diagnostic {
	var out []Diagnostic
	en := content["en"][id]
	enFacts := map[string][]fact{}
	for _, lang := range study.Languages {
		tr := content[lang][id]
		if lang == "en" || tr == nil {
			continue
		}
		file := path.Join(root, lang, id+".md")
		for _, name := range sortedSections(en) {
			sec, ok := tr.Sections[name]
			if !ok {
				continue // the translation rule reports a missing section
			}
			if enFacts[name] == nil {
				enFacts[name] = facts(en.Sections[name])
			}
			out = append(out, driftSection(id, file, lang, name, enFacts[name], facts(sec), sec)...)
		}
	}
	return out
}

func sortedSections(c *study.Content) []string {
	var names []string
	for n := range c.Sections {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func driftSection(id, file, lang, name string, en, tr []fact, sec study.Section) []Diagnostic {
	inEN, inTR, statedTR := map[string]int{}, map[string]int{}, map[string]int{}
	for _, f := range en {
		if _, ok := inEN[f.key]; !ok {
			inEN[f.key] = f.line
		}
	}
	for _, f := range tr {
		if _, ok := inTR[f.key]; !ok {
			inTR[f.key] = f.line
		}
		if _, ok := statedTR[f.key]; !ok && !f.counted {
			statedTR[f.key] = f.line
		}
	}
	var out []Diagnostic
	for _, f := range tr {
		// A translation may name the flag the English paraphrases ("eager
		// mode", --enforce-eager); a flag it swaps drops the English one.
		// A counted number ("1 バッチ" for "per batch") may be the English
		// said in words; one that differs from an English figure drops it.
		if strings.HasPrefix(f.key, "--") || f.counted {
			continue
		}
		if _, ok := inEN[f.key]; !ok && statedTR[f.key] == f.line {
			out = append(out, Diagnostic{Study: id, Rule: RuleDrift, Severity: Error, File: file, Line: f.line, Subject: lang + "/" + name,
				Message: fmt.Sprintf("the %s prose of section %s states %s, which the English section does not: translate what the English says, or change every language", lang, name, show(f.key))})
		}
	}
	for _, f := range en {
		if _, ok := inTR[f.key]; !ok && inEN[f.key] == f.line {
			out = append(out, Diagnostic{Study: id, Rule: RuleDrift, Severity: Error, File: file, Line: sec.TextLine, Subject: lang + "/" + name,
				Message: fmt.Sprintf("the English prose of section %s states %s (line %d), which the %s section does not: translate it, or change every language", name, show(f.key), f.line, lang)})
		}
	}
	return out
}

func show(key string) string {
	if e, ok := strings.CutPrefix(key, "engine:"); ok {
		return e
	}
	return key
}
