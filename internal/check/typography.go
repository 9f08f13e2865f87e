package check

import (
	"fmt"
	"regexp"
	"strings"
)

// RuleTypography: Chinese and Japanese prose uses full-width punctuation
// between its own characters, and no space after 。.
const RuleTypography = "typography"

// cjk is a Chinese or Japanese character (Han, kana, the full stop).
const cjk = `[\p{Han}\p{Hiragana}\p{Katakana}ー。、]`

var (
	asciiBetweenCJK = regexp.MustCompile(cjk + ` ?([,:;!?()]) ?` + cjk)
	spaceAfterStop  = regexp.MustCompile(`。 +\S`)
	codeSpan        = regexp.MustCompile("`[^`]*`|\\]\\([^)]*\\)|https?://\\S+")
)

// fullWidth is the punctuation to use instead.
var fullWidth = map[string]string{",": "，", ":": "：", ";": "；", "!": "！", "?": "？", "(": "（", ")": "）"}

// Typography checks the Chinese or Japanese prose of one file: ASCII
// punctuation between two CJK characters, and spaces after 。. Code blocks,
// code spans, link targets and addresses are left alone.
func Typography(file, text string) []Diagnostic {
	var out []Diagnostic
	eachProseLine(text, func(n int, line, prose string) {
		for _, m := range asciiBetweenCJK.FindAllStringSubmatchIndex(prose, -1) {
			p := prose[m[2]:m[3]]
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("ASCII %q between Chinese or Japanese characters (%q): use the full-width %s", p, strings.TrimSpace(line[m[0]:m[1]]), fullWidth[p])})
		}
		if loc := spaceAfterStop.FindStringIndex(prose); loc != nil {
			out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
				Message: fmt.Sprintf("a space after 。 (%q): 。 needs none", strings.TrimSpace(line[loc[0]:loc[1]]))})
		}
	})
	return out
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
			fn(i+1, line, codeSpan.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat("x", len(s)) }))
		}
	}
}

// Glossary is locales/glossary.yaml: the word for each idea per language,
// and the words not to use for it.
type Glossary struct {
	Terms []struct {
		EN    string              `yaml:"en"`
		ZH    string              `yaml:"zh"`
		JA    string              `yaml:"ja"`
		Avoid map[string][]string `yaml:"avoid"`
	} `yaml:"terms"`
}

// Check reports, in one Chinese or Japanese file, each word the glossary
// says to avoid, with the word to use instead. Code and addresses are left
// alone, as in Typography.
func (g *Glossary) Check(file, lang, text string) []Diagnostic {
	var out []Diagnostic
	eachProseLine(text, func(n int, _, prose string) {
		for _, term := range g.Terms {
			use := term.ZH
			if lang == "ja" {
				use = term.JA
			}
			for _, bad := range term.Avoid[lang] {
				if bad != "" && strings.Contains(prose, bad) {
					out = append(out, Diagnostic{Rule: RuleTypography, Severity: Error, File: file, Line: n,
						Message: fmt.Sprintf("%q for %q: the glossary (locales/glossary.yaml) names it %q in every page", bad, term.EN, use)})
				}
			}
		}
	})
	return out
}
