package check

import (
	"errors"
	"fmt"

	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/yamlfile"
)

// ParseGlossary reads locales/glossary.yaml, shown as file; a glossary
// that does not read is a schema error, and the rules then run without it.
func ParseGlossary(file string, data []byte) (*Glossary, []Diagnostic) {
	g := &Glossary{}
	err := yamlfile.Unmarshal(data, g)
	if err == nil {
		return g, nil
	}
	line := 1
	if e, ok := err.(*yamlfile.Error); ok {
		line, err = e.Line, errors.New(e.Msg)
	}
	return &Glossary{}, []Diagnostic{{Rule: RuleSchema, Severity: Error, File: file, Line: line,
		Message: fmt.Sprintf("invalid glossary: %v", err)}}
}

// Reads reports whether Text has anything to check in language lang: a
// build then reads no file of a language no rule reads (English, without
// avoided words).
func (g *Glossary) Reads(lang string) bool {
	if l, _ := study.LanguageOf(lang); l.Unspaced {
		return true
	}
	if _, ok := registers[lang]; ok {
		return true
	}
	for _, t := range g.Terms {
		if len(t.Avoid[lang]) > 0 {
			return true
		}
	}
	return false
}

// Text runs the typography rule over a text a person wrote in language
// lang, a locale file or a content file, in every language by what the
// language has: the spacing, punctuation and Latin words of a language
// written without spaces (LanguageTable's Unspaced), the glossary's words,
// and one register where sentences end in one (registers). names, unless
// nil, gives the names of the study a content file is about, which its
// Latin words may use.
func (g *Glossary) Text(file, lang, text string, names func() []string) []Diagnostic {
	l, _ := study.LanguageOf(lang)
	var out []Diagnostic
	if l.Unspaced {
		out = append(out, Typography(file, text)...)
	}
	out = append(out, g.Check(file, lang, text)...)
	if l.Unspaced {
		out = append(out, g.LatinWordsOf(file, lang, text, names)...)
	}
	return append(out, Register(file, lang, text)...)
}
