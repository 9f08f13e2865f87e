package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/cjk"
	"github.com/perflab/perflab/internal/study"
)

// RuleTypography: Chinese and Japanese prose uses full-width punctuation
// between its own characters, no space after 。 or between two of its
// characters, bold that Markdown can open and close, one word per idea
// (the glossary), and, in Japanese, one register.
const RuleTypography = "typography"

var (
	asciiBetweenCJK = regexp.MustCompile(cjk.Writing + ` ?([,:;!?()]) ?` + cjk.Writing)
	spaceAfterStop  = regexp.MustCompile(`。 +\S`)
	// spaceBetweenCJK: Han, kana or full-width punctuation on both sides
	// (。 on the left is spaceAfterStop's).
	spaceBetweenCJK = regexp.MustCompile(cjk.WideNotStop + ` +` + cjk.Wide)
	// codeSpan also takes a message's {{.Field}}: it stands for a value,
	// which is blanked like code.
	codeSpan = regexp.MustCompile("`[^`]*`|\\]\\([^)]*\\)|https?://\\S+|\\{\\{[^}]*\\}\\}")
)

// fullWidth is the punctuation to use instead.
var fullWidth = map[string]string{",": "，", ":": "：", ";": "；", "!": "！", "?": "？", "(": "（", ")": "）"}

// Typography checks the Chinese or Japanese prose of one file: ASCII
// punctuation between two CJK characters, and spaces after 。. Code blocks,
// code spans, link targets and addresses are left alone.
func Typography(file, text string) []Diagnostic {
	var out []Diagnostic
	eachProseLine(text, func(n int, line, prose string) {
		bold := blankForBold(line)
		for _, at := range unboldable(bold) {
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("this ** cannot %s bold in Markdown (%q), so the asterisks would print: punctuation on its inner side needs a space or punctuation on the other; put the punctuation outside the bold (**标签**：)", at.what, excerpt(line, at.pos, at.pos+2))})
		}
		if isASCII(prose) {
			return
		}
		matches := [][]int(nil)
		if mayHaveASCIIBetweenCJK(prose) {
			matches = asciiBetweenCJK.FindAllStringSubmatchIndex(prose, -1)
		}
		for _, m := range matches {
			p := prose[m[2]:m[3]]
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("ASCII %q between Chinese or Japanese characters (%q): use the full-width %s", p, strings.TrimSpace(line[m[0]:m[1]]), fullWidth[p])})
		}
		if loc := findIf(strings.Contains(prose, "。 "), spaceAfterStop, prose); loc != nil {
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("a space after 。 (%q): 。 needs none", strings.TrimSpace(line[loc[0]:loc[1]]))})
		}
		if loc := findIf(mayHaveSpaceBetweenCJK(prose), spaceBetweenCJK, prose); loc != nil {
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("a space between two Chinese or Japanese characters (%q): remove it; spaces only set Latin text and numbers apart", line[loc[0]:loc[1]])})
		}
		if span := italicCJK(bold); span != "" {
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("Chinese or Japanese text in italics (%q): their fonts have no italics, so the browser slants the characters; leave the *...* out (brackets or bold, if it must stand out)", span)})
		}
	})
	return out
}

// mayHaveASCIIBetweenCJK is false where asciiBetweenCJK cannot match: no
// ASCII punctuation of fullWidth has a CJK character on each side, one
// space apart at most. Most lines have none, and the regexp, run on every
// Chinese and Japanese line, was a sixth of the prose rules' time.
func mayHaveASCIIBetweenCJK(prose string) bool {
	for i := 0; i < len(prose); i++ {
		if strings.IndexByte(",:;!?()", prose[i]) < 0 {
			continue
		}
		before := strings.TrimSuffix(prose[:i], " ")
		after := strings.TrimPrefix(prose[i+1:], " ")
		b, _ := utf8.DecodeLastRuneInString(before)
		a, _ := utf8.DecodeRuneInString(after)
		if cjk.IsWriting(b) && cjk.IsWriting(a) {
			return true
		}
	}
	return false
}

// findIf is re's first match in s, looked for only if may.
func findIf(may bool, re *regexp.Regexp, s string) []int {
	if !may {
		return nil
	}
	return re.FindStringIndex(s)
}

// mayHaveSpaceBetweenCJK is false where spaceBetweenCJK cannot match: no
// run of spaces has a CJK character or full-width punctuation on each side.
func mayHaveSpaceBetweenCJK(prose string) bool {
	for i := strings.IndexByte(prose, ' '); i >= 0; {
		j := i
		for j < len(prose) && prose[j] == ' ' {
			j++
		}
		b, _ := utf8.DecodeLastRuneInString(prose[:i])
		a, _ := utf8.DecodeRuneInString(prose[j:])
		if i > 0 && cjk.IsWide(b) && b != '。' && cjk.IsWide(a) {
			return true
		}
		k := strings.IndexByte(prose[j:], ' ')
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}

// italicCJK returns the first *...* of a line (single asterisks, which
// Markdown could open and close) whose text has a Chinese or Japanese
// character, or "".
func italicCJK(prose string) string {
	open := -1
	for i := 0; i < len(prose); i++ {
		if prose[i] != '*' {
			continue
		}
		if (i > 0 && prose[i-1] == '*') || (i+1 < len(prose) && prose[i+1] == '*') {
			continue // part of ** or ***
		}
		before, after := ' ', ' '
		if i > 0 {
			before, _ = utf8.DecodeLastRuneInString(prose[:i])
		}
		if i+1 < len(prose) {
			after, _ = utf8.DecodeRuneInString(prose[i+1:])
		}
		switch {
		case open < 0 && flanks(after, before):
			open = i
		case open >= 0 && flanks(before, after):
			if hasCJK.MatchString(prose[open+1 : i]) {
				return prose[open : i+1]
			}
			open = -1
		}
	}
	return ""
}

// boldMark is a ** that Markdown will not take as bold.
type boldMark struct {
	pos  int    // byte offset in the line
	what string // "open" or "close"
}

// unboldable returns each ** of a line that CommonMark cannot use: the
// first, third... of the line must be able to open bold (left-flanking),
// the second, fourth... to close it (right-flanking). A ** next to
// punctuation flanks only if whitespace or punctuation is on its other
// side: "**结果：**SGLang" prints its asterisks. A blanked field counts as
// a letter, as the value it stands for mostly is.
func unboldable(prose string) []boldMark {
	var out []boldMark
	k := 0
	for i := 0; i+1 < len(prose); i++ {
		if prose[i] != '*' || prose[i+1] != '*' || (i > 0 && prose[i-1] == '*') || (i+2 < len(prose) && prose[i+2] == '*') {
			continue
		}
		before, after := ' ', ' ' // the line's ends count as whitespace
		if i > 0 {
			before, _ = utf8.DecodeLastRuneInString(prose[:i])
		}
		if i+2 < len(prose) {
			after, _ = utf8.DecodeRuneInString(prose[i+2:])
		}
		k++
		if k%2 == 1 && !flanks(after, before) {
			out = append(out, boldMark{i, "open"})
		}
		if k%2 == 0 && !flanks(before, after) {
			out = append(out, boldMark{i, "close"})
		}
		i++
	}
	return out
}

// blankForBold keeps the punctuation that opens and closes code spans and
// link targets, blanks what is inside with '.', and writes a field as
// letters: "**标签：**{{.Run}}" is checked as the value would print.
func blankForBold(line string) string {
	if !mayHaveCode(line) {
		return line
	}
	return boldBlank.ReplaceAllStringFunc(line, func(s string) string {
		if strings.HasPrefix(s, "{{") {
			return strings.Repeat("x", len(s))
		}
		return s[:1] + strings.Repeat(".", len(s)-2) + s[len(s)-1:]
	})
}

// flanks reports whether a delimiter run with inner on the side of the
// emphasised text and outer on the other side is flanking, as CommonMark
// defines it (left-flanking for an opener, right-flanking for a closer).
func flanks(inner, outer rune) bool {
	if unicode.IsSpace(inner) {
		return false
	}
	return !isPunct(inner) || unicode.IsSpace(outer) || isPunct(outer)
}

// isPunct is CommonMark's punctuation: Unicode punctuation and symbols.
func isPunct(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// excerpt is line[a:b] with a few characters each side.
func excerpt(line string, a, b int) string {
	for n := 0; n < 6 && a > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(line[:a])
		a -= size
	}
	for n := 0; n < 6 && b < len(line); n++ {
		_, size := utf8.DecodeRuneInString(line[b:])
		b += size
	}
	return line[a:b]
}

// eachProseLine calls fn with each line of text outside code blocks, its
// 1-based number, and the line with code spans, link targets and addresses
// blanked out (the same length, so offsets still match).
func eachProseLine(text string, fn func(n int, line, prose string)) {
	fence := false
	for i, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if !fence {
			prose := line
			if mayHaveCode(line) { // most lines have none
				prose = blankCode(line)
			}
			fn(i+1, line, prose)
		}
	}
}

// endsWithAny returns the first of endings that s ends with, or "".
func endsWithAny(s string, endings []string) string {
	for _, e := range endings {
		if strings.HasSuffix(s, e) {
			return e
		}
	}
	return ""
}

// blankCode is codeSpan.ReplaceAllStringFunc(line, an x for each byte),
// by hand: each of its four forms starts with its own ASCII byte.
func blankCode(line string) string {
	var b []byte // written only once a span is found
	kept := 0    // line[:kept] is in b
	for i := 0; i < len(line); i++ {
		end := codeSpanAt(line, i)
		if end < 0 {
			continue
		}
		if b == nil {
			b = make([]byte, 0, len(line))
		}
		b = append(b, line[kept:i]...)
		for range end - i {
			b = append(b, 'x')
		}
		kept, i = end, end-1
	}
	if b == nil {
		return line
	}
	return string(append(b, line[kept:]...))
}

// codeSpanAt returns the end of the codeSpan match at i, -1 for none.
func codeSpanAt(s string, i int) int {
	switch s[i] {
	case '`':
		if k := strings.IndexByte(s[i+1:], '`'); k >= 0 {
			return i + 1 + k + 1
		}
	case ']':
		if i+1 < len(s) && s[i+1] == '(' {
			if k := strings.IndexByte(s[i+2:], ')'); k >= 0 {
				return i + 2 + k + 1
			}
		}
	case 'h':
		rest := s[i:]
		n := 0
		switch {
		case strings.HasPrefix(rest, "https://"):
			n = len("https://")
		case strings.HasPrefix(rest, "http://"):
			n = len("http://")
		default:
			return -1
		}
		end := i + n
		for end < len(s) && !strings.ContainsRune("\t\n\f\r ", rune(s[end])) {
			end++
		}
		if end > i+n {
			return end
		}
	case '{':
		if strings.HasPrefix(s[i:], "{{") {
			if k := strings.IndexByte(s[i+2:], '}'); k >= 0 && strings.HasPrefix(s[i+2+k:], "}}") {
				return i + 2 + k + 2
			}
		}
	}
	return -1
}

// mayHaveCode reports whether a line may hold what codeSpan or boldBlank
// match: a code span, a link target, an address or a field.
func mayHaveCode(line string) bool {
	return strings.IndexByte(line, '`') >= 0 || strings.Contains(line, "](") || strings.Contains(line, "http") || strings.Contains(line, "{{")
}

// isASCII reports whether a line has no Chinese or Japanese character, nor
// any other beyond ASCII: the rules about them have nothing to find.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Glossary is locales/glossary.yaml: the word for each idea per language,
// and the words not to use for it.
type Glossary struct {
	Terms []GlossaryTerm `yaml:"terms"`
	// Latin lists the Latin-script words and phrases that Chinese and
	// Japanese prose keeps as they are (names, units, commands), under
	// "all" or a language code.
	Latin map[string][]string `yaml:"latin"`
}

// GlossaryTerm is one idea: its word in each language, by code (en, zh,
// ja), and the words of a language not to use for it.
type GlossaryTerm struct {
	Words map[string]string   `yaml:",inline"`
	Avoid map[string][]string `yaml:"avoid"`
}

// Check reports, in one file of a language, each word the glossary says
// to avoid, with the word to use instead. Code and addresses are left
// alone, as in Typography.
func (g *Glossary) Check(file, lang, text string) []Diagnostic {
	var out []Diagnostic
	eachProseLine(text, func(n int, _, prose string) {
		for _, term := range g.Terms {
			use := term.Words[lang]
			for _, bad := range term.Avoid[lang] {
				if bad != "" && strings.Contains(prose, bad) {
					out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
						Message: fmt.Sprintf("%q for %q: the glossary (locales/glossary.yaml) names it %q in every page", bad, term.Words[study.LanguageTable[0].Code], use)})
				}
			}
		}
	})
	return out
}

// register is how a language marks politeness at the end of a sentence:
// the endings of its plain and of its polite style, longest first, and
// what the polite style is called in messages.
type register struct {
	plain, polite []string
	politeName    string
}

// registers are the languages whose sentences end in a plain or a polite
// style, which one file must not mix. Japanese ends a sentence in the
// plain だ/である or the polite です/ます; English and Chinese have no
// such endings, so the rule has nothing to read in them.
var registers = map[string]register{
	"ja": {
		plain:      []string{"であった", "ではない", "である", "だった", "でない", "ない", "よい", "良い", "だ"},
		polite:     []string{"ください", "でした", "ました", "ません", "です", "ます"},
		politeName: "です or ます",
	},
}

// Register checks that a file keeps one register in a language that has
// them (registers): once any of its sentences ends in the polite style
// (です, ます), a sentence that ends in the plain style (だ。, である。,
// ない。, 良い。) is reported. Labels without 。 are not sentences and are
// left alone.
func Register(file, lang, text string) []Diagnostic {
	reg, ok := registers[lang]
	if !ok {
		return nil
	}
	polite := false
	type plain struct {
		line int
		text string
	}
	var plains []plain
	eachProseLine(text, func(n int, line, prose string) {
		// Each ending is read back from each 。 (the regexps this replaces
		// took a quarter of the prose rules' time).
		for rest, at := prose, 0; ; {
			i := strings.Index(rest, "。")
			if i < 0 {
				break
			}
			before := prose[:at+i]
			if endsWithAny(before, reg.polite) != "" {
				polite = true
			}
			if e := endsWithAny(before, reg.plain); e != "" {
				plains = append(plains, plain{n, excerpt(line, at+i-len(e), at+i+len("。"))})
			}
			at += i + len("。")
			rest = prose[at:]
		}
	})
	if !polite {
		return nil
	}
	var out []Diagnostic
	for _, p := range plains {
		out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: p.line,
			Message: fmt.Sprintf("a sentence in the plain style (%q) in a file written with %s: end it with %s too", p.text, strings.ReplaceAll(reg.politeName, " or ", "/"), reg.politeName)})
	}
	return out
}

var (
	latinWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:['’./+-][A-Za-z0-9]+)*`)
	yamlKey   = regexp.MustCompile(`^\s*[A-Za-z0-9_.-]+:\s*`)
	htmlNote  = regexp.MustCompile(`<!--.*?-->`)
	// hasCJK: a Chinese or Japanese character or full-width punctuation.
	hasCJK = regexp.MustCompile(cjk.Any)
	// boldBlank: what unboldable must not read as ** (code, link targets)
	// or must read as a letter (a field).
	boldBlank = regexp.MustCompile("`[^`]*`|\\]\\([^)]*\\)|\\{\\{[^}]*\\}\\}")
)

// LatinWords reports, in a Chinese or Japanese locale or prose file, each
// Latin-script word the glossary's latin list does not name: an English
// word left in the sentence ("vs", "kernel", "prefill") where the
// language has its own. Words with a digit (FP8, A100, w8a16) and
// acronyms in capitals (GPU, TTFT) are names and pass; so do code spans,
// fields, link targets, addresses, YAML keys and comments, HTML comments,
// and lines without a Chinese or Japanese character (a font list, a
// product name). Without a latin list the rule is off.
func (g *Glossary) LatinWords(file, lang, text string) []Diagnostic {
	return g.LatinWordsOf(file, lang, text, nil)
}

// LatinWordsOf is LatinWords for a study's prose: the words of its own
// names (its model, engines and GPU, from NamesOfStudy) pass too. names
// is called only when a word is outside the glossary, which is rare.
func (g *Glossary) LatinWordsOf(file, lang, text string, names func() []string) []Diagnostic {
	if len(g.Latin) == 0 {
		return nil
	}
	allowed := map[string]bool{}
	var ownNames map[string]bool
	ownName := func(w string) bool {
		if ownNames == nil {
			ownNames = map[string]bool{}
			if names != nil {
				for _, name := range names() {
					// "Qwen/Qwen3-32B" is written whole or by its parts.
					for _, w := range latinWord.FindAllString(name, -1) {
						ownNames[w] = true
					}
					for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
						ownNames[w] = true
					}
				}
			}
		}
		return ownNames[w]
	}
	var phrases []string
	for _, list := range [][]string{g.Latin["all"], g.Latin[lang]} {
		for _, w := range list {
			if strings.ContainsAny(w, " ") {
				phrases = append(phrases, w)
			} else {
				allowed[w] = true
			}
		}
	}
	sort.Slice(phrases, func(i, j int) bool { return len(phrases[i]) > len(phrases[j]) })
	for _, term := range g.Terms {
		for _, bad := range term.Avoid[lang] {
			allowed[bad] = true // Check names the word to use instead
		}
	}
	yamlFile := strings.HasSuffix(file, ".yaml") || strings.HasSuffix(file, ".yml")
	frontMatter := false
	var out []Diagnostic
	eachProseLine(text, func(n int, line, _ string) {
		if !yamlFile && strings.TrimSpace(line) == "---" {
			frontMatter = n == 1 // the front matter opens on line 1 and ends at the next ---
			return
		}
		if isASCII(line) {
			return // no Chinese or Japanese character
		}
		prose := line
		if mayHaveCode(line) {
			prose = codeSpan.ReplaceAllString(line, " ") // blanked, not with letters
		}
		if yamlFile && strings.HasPrefix(strings.TrimSpace(prose), "#") {
			return
		}
		if yamlFile || frontMatter {
			prose = yamlKey.ReplaceAllString(prose, "")
		}
		prose = htmlNote.ReplaceAllString(prose, "")
		if !hasCJK.MatchString(prose) {
			return
		}
		for _, p := range phrases {
			prose = strings.ReplaceAll(prose, p, " ")
		}
		seen := map[string]bool{}
		for _, loc := range latinWord.FindAllStringIndex(prose, -1) {
			w := prose[loc[0]:loc[1]]
			if allowed[w] || seen[w] || strings.ContainsAny(w, "0123456789") || strings.ToUpper(w) == w || ownName(w) || unitOfFigure(prose, loc[0], w) {
				continue
			}
			seen[w] = true
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("the Latin-script word %q in %s prose: write the %s word for it (and add it to the glossary's terms), or, if it is a name, unit or command, add it to latin in locales/glossary.yaml", w, englishName(lang), englishName(lang))})
		}
	})
	return out
}

// figureUnits are the units a figure keeps in every language (149.67 s,
// 2.5 min): after a number they are not English words.
var figureUnits = map[string]bool{"s": true, "ms": true, "us": true, "min": true, "h": true, "tok/s": true, "req/s": true, "tokens/s": true, "GB": true, "GiB": true}

// unitOfFigure reports whether the word at i of prose is a unit right
// after a number ("149.67 s").
func unitOfFigure(prose string, i int, w string) bool {
	if !figureUnits[w] {
		return false
	}
	before := strings.TrimRight(prose[:i], " \u00a0")
	return before != "" && isDigit(before[len(before)-1])
}

// englishName is a language's name in a message.
func englishName(code string) string {
	if l, ok := study.LanguageOf(code); ok {
		return l.English
	}
	return code
}
